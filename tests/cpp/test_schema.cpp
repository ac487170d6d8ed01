// schema.h describes each scene result once; batch_layout.h lays the same
// results out as doubles for the object API. The two are separate tables
// (the layouts must be constant expressions for api.cpp's offsets), so here:
// they name the same fields, in the same order, with matching kinds. And the
// JSON of a run and of a trace has exactly the described fields, in order,
// read back by the JSON parser (an independent route through the output).
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/batch_layout.h"
#include "collidoscope/json.h"
#include "collidoscope/scene.h"
#include "collidoscope/schema.h"

using namespace collidoscope;

namespace {

using Kind = api::FieldKind;

// The batch kind a described field would have.
Kind kindOf(bool) { return Kind::Bool; }
Kind kindOf(double) { return Kind::Number; }
Kind kindOf(int) { return Kind::Count; }
Kind kindOf(const ResultVec3&) { return Kind::Vector; }
Kind kindOf(SatAxisKind) { return Kind::AxisKind; }
template <class E, std::enable_if_t<std::is_enum<E>::value, int> = 0>
Kind kindOf(E) {
  return Kind::Status;
}

Kind nullable(Kind k) { return k == Kind::Number ? Kind::NumberOrNull : k == Kind::Vector ? Kind::VectorOrNull : k; }

// Collects the name and batch kind of every field of a flat result.
struct BatchKinds {
  std::vector<std::pair<std::string, Kind>> fields;
  template <class T>
  void field(const char* name, const T& value, const char*) {
    fields.emplace_back(name, kindOf(value));
  }
  template <class T>
  void orNull(const char* name, bool, const T& value, const char*) {
    fields.emplace_back(name, nullable(kindOf(value)));
  }
  template <class T>
  void base(const T& value) {
    Schema<T>::fields(*this, value);
  }
};

template <class Result>
std::vector<std::pair<std::string, Kind>> describedKinds() {
  BatchKinds v;
  Schema<Result>::fields(v, Result{});
  return v.fields;
}

std::vector<std::pair<std::string, Kind>> layoutKinds(int query) {
  const api::ResultLayout& l = api::kResultLayouts[query];
  std::vector<std::pair<std::string, Kind>> out;
  for (int i = 0; i < l.count; ++i) out.emplace_back(l.fields[i].name, l.fields[i].kind);
  return out;
}

// The names of a described type's fields, in order.
struct Names {
  std::vector<std::string> names;
  template <class T>
  void field(const char* name, const T&, const char*) {
    names.push_back(name);
  }
  template <class T>
  void orNull(const char* name, bool, const T&, const char*) {
    names.push_back(name);
  }
  template <class T>
  void base(const T& value) {
    Schema<T>::fields(*this, value);
  }
};

template <class T>
std::vector<std::string> describedNames(const T& sample) {
  Names v;
  Schema<T>::fields(v, sample);
  return v.names;
}

std::vector<std::string> keysOf(const JsonValue& object) {
  std::vector<std::string> keys;
  for (const auto& m : object.members) keys.push_back(m.first);
  return keys;
}

JsonValue runJson(const std::string& sceneText, bool trace) {
  Scene scene;
  SceneError err;
  EXPECT_TRUE(parseScene(sceneText, &scene, &err)) << err.message;
  std::string json;
  EXPECT_TRUE(runScene(scene, trace, &json, &err)) << err.message;
  JsonValue out;
  std::string why;
  EXPECT_TRUE(parseJson(json, &out, &why)) << why;
  return out;
}

const char* const kBoxes =
    R"({"version":1,"shapes":[{"type":"box","halfExtents":[1,1,1]},)"
    R"({"type":"box","halfExtents":[0.5,0.5,0.5],"position":[1.2,0.3,0.1]}],"query":"%Q%"%X%})";

// A box and a cylinder: no closed form, so intersect and penetration trace
// GJK's and EPA's frames (two boxes answer them in one closed-form frame).
const char* const kBoxAndCylinder =
    R"({"version":1,"shapes":[{"type":"box","halfExtents":[1,1,1]},)"
    R"({"type":"cylinder","radius":0.5,"halfHeight":0.5,"position":[1.2,0.3,0.1]}],"query":"%Q%"%X%})";

std::string boxes(const std::string& query, const std::string& extra = "", const char* scene = kBoxes) {
  std::string s = scene;
  s.replace(s.find("%Q%"), 3, query);
  s.replace(s.find("%X%"), 3, extra);
  return s;
}

}  // namespace

TEST(Schema, BatchLayoutsNameTheSceneResultsFields) {
  // In api::Kind order, as kResultLayouts.
  EXPECT_EQ(layoutKinds(0), describedKinds<IntersectResult>());
  EXPECT_EQ(layoutKinds(1), describedKinds<DistanceResult>());
  EXPECT_EQ(layoutKinds(2), describedKinds<PenetrationResult>());
  EXPECT_EQ(layoutKinds(3), describedKinds<ChungWangResult>());
  EXPECT_EQ(layoutKinds(4), describedKinds<SatResult>());
  EXPECT_EQ(layoutKinds(5), describedKinds<RayCastResult>());
  EXPECT_EQ(layoutKinds(6), describedKinds<ShapeCastResult>());
}

TEST(Schema, RunJsonHasTheDescribedFieldsInOrder) {
  EXPECT_EQ(keysOf(runJson(boxes("intersect"), false)), describedNames(IntersectResult{}));
  EXPECT_EQ(keysOf(runJson(boxes("distance"), false)), describedNames(DistanceResult{}));
  EXPECT_EQ(keysOf(runJson(boxes("penetration"), false)), describedNames(PenetrationResult{}));
  EXPECT_EQ(keysOf(runJson(boxes("chungwang"), false)), describedNames(ChungWangResult{}));
  EXPECT_EQ(keysOf(runJson(boxes("sat"), false)), describedNames(SatResult{}));
  EXPECT_EQ(keysOf(runJson(boxes("raycast", R"(,"ray":{"origin":[-5,0,0],"direction":[10,0,0]})"), false)),
            describedNames(RayCastResult{}));
  EXPECT_EQ(keysOf(runJson(boxes("shapecast", R"(,"motion":{"translationB":[2,0,0]})"), false)),
            describedNames(ShapeCastResult{}));
  EXPECT_EQ(keysOf(runJson(boxes("hull"), false)), describedNames(ConvexHull{}));
  const Obb box;
  const Aabb aabb;
  const BoundingSphere sphere;
  EXPECT_EQ(keysOf(runJson(boxes("obb"), false)),
            describedNames(BoundsView{box, BoundsMethod::Points, aabb, sphere, {box, box}}));
}

TEST(Schema, TraceFramesHaveTheDescribedFieldsInOrder) {
  const auto framesOf = [](const JsonValue& trace) {
    const JsonValue* frames = trace.find("frames");
    EXPECT_NE(frames, nullptr);
    EXPECT_GT(frames->items.size(), 1u);
    return frames->items;
  };
  const std::vector<Vec3> none;
  const std::pair<std::string, std::vector<std::string>> cases[] = {
      {boxes("distance"), describedNames(GjkFrame{})},
      {boxes("intersect", "", kBoxAndCylinder), describedNames(GjkFrame{})},
      {boxes("penetration", "", kBoxAndCylinder), describedNames(EpaFrame{})},
      {boxes("hull"), describedNames(HullFrameView{HullFrame{}, none})},
      {boxes("sat"), describedNames(SatFrame{})},
      {boxes("raycast", R"(,"ray":{"origin":[-5,0,0],"direction":[10,0,0]})"), describedNames(RayFrame{})},
      {boxes("chungwang"), describedNames(ChungWangFrame{})},
  };
  for (const auto& [scene, names] : cases)
    for (const JsonValue& frame : framesOf(runJson(scene, true))) EXPECT_EQ(keysOf(frame), names) << scene;
  // Two boxes: one closed-form frame.
  for (const char* query : {"intersect", "penetration"}) {
    const JsonValue trace = runJson(boxes(query), true);
    ASSERT_NE(trace.find("frames"), nullptr);
    ASSERT_EQ(trace.find("frames")->items.size(), 1u);
    EXPECT_EQ(keysOf(trace.find("frames")->items[0]), describedNames(ClosedFormFrame{})) << query;
  }
}
