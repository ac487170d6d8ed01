// The compound's child loop (compound.h) on random compounds of 2 to 20
// children of every convex type, with random poses: the scene runner's
// answers are those of the per-child scenes (runCompoundSceneByChildScenes)
// byte for byte and those of a brute force over every child (pair) with the
// plain convex queries, without prefilter; the object API's single queries,
// batches, contact() and contacts() on compounds are the same numbers bit
// for bit, with the answering children in `features`.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/compound.h"
#include "collidoscope/json.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/scene.h"
#include "api_flatten.h"
#include "mesh_gen.h"
#include "reference.h"

namespace collidoscope {
namespace {

using api::Kind;
using api::Registry;

constexpr double kInf = std::numeric_limits<double>::infinity();

Shape randomConvex(ref::Rng& rng, double size) {
  const ShapeType t = ref::kAllTypes[rng.integer(0, 9)];
  Shape s = ref::randomShape(rng, t, size);
  if (rng.integer(0, 4) == 0) s.margin = rng.uniform(0.01, 0.1);
  if (rng.integer(0, 5) == 0) s.scale = {rng.uniform(0.5, 2), rng.uniform(0.5, 2), rng.uniform(0.5, 2)};
  return s;
}

Transform randomPose(ref::Rng& rng, double spread) {
  const Quat q = rng.rotation();
  return Transform{rng.inCube(spread), q};
}

Shape randomCompound(ref::Rng& rng, int minChildren = 2, int maxChildren = 20) {
  std::vector<Shape> children;
  const int n = rng.integer(minChildren, maxChildren);
  for (int i = 0; i < n; ++i) {
    Shape c = randomConvex(rng, 0.6);
    c.pose = randomPose(rng, 1.5);
    children.push_back(c);
  }
  Shape out;
  ShapeError err;
  EXPECT_TRUE(makeCompoundShape(children, &out, &err)) << err.message;
  return out;
}

JsonValue parse(const std::string& text) {
  JsonValue v;
  std::string why;
  EXPECT_TRUE(parseJson(text, &v, &why)) << why << "\n" << text.substr(0, 200);
  return v;
}

std::string runOk(const Scene& scene) {
  std::string json;
  SceneError err;
  EXPECT_TRUE(runScene(scene, false, &json, &err)) << err.field << ": " << err.message;
  return json;
}

// A random scene of query q on (a, b): the ray, motion, point or margin.
Scene sceneOf(ref::Rng& rng, QueryKind q, const Shape& a, const Shape* b) {
  Scene s;
  s.query = q;
  s.shapes.push_back(a);
  if (b != nullptr) s.shapes.push_back(*b);
  const Vec3 c = a.pose.position;
  s.ray = {c + rng.direction() * 5, rng.inCube(1.5) - rng.direction() * 5, rng.uniform(0.5, 2)};
  s.ray.direction = c + rng.inCube(1.5) - s.ray.origin;
  s.motion = {rng.inCube(3), rng.inCube(3)};
  s.point = c + rng.inCube(2.5);
  s.margin = rng.integer(0, 3) == 0 ? 0.0 : rng.uniform(0, 0.8);
  s.hasMargin = true;
  return s;
}

// The pieces of a side by brute force: a compound's children placed with
// compoundChildInWorld, or the shape itself (index −1).
std::vector<std::pair<int, Shape>> piecesOf(const Shape& s) {
  std::vector<std::pair<int, Shape>> out;
  if (s.type != ShapeType::Compound) return {{-1, s}};
  for (std::size_t i = 0; i < s.compoundData->children.size(); ++i)
    out.push_back({static_cast<int>(i), compoundChildInWorld(s, i)});
  return out;
}

double key(QueryKind q, const JsonValue& r) {
  auto num = [&](const char* k) { return r.find(k)->number; };
  auto yes = [&](const char* k) { return r.find(k)->boolean; };
  switch (q) {
    case QueryKind::Intersect: return yes("intersecting") ? 0 : kInf;
    case QueryKind::Distance: return num("distance");
    case QueryKind::Penetration: return yes("intersecting") ? -num("depth") : kInf;
    case QueryKind::Raycast:
    case QueryKind::Shapecast: return yes("hit") ? num("t") : kInf;
    case QueryKind::Contains: return yes("inside") ? 0 : kInf;
    case QueryKind::Project: return yes("inside") ? -num("distance") : num("distance");
    default: return kInf;
  }
}

// The brute force: every piece pair's own scene, the smallest key (ties:
// the first), without prefilter. Returns the chosen result with its child
// fields as the compound's result would carry them.
std::string bruteForce(const Scene& scene) {
  const bool single = scene.shapes.size() == 1;
  const auto A = piecesOf(scene.shapes[0]);
  const auto B = single ? std::vector<std::pair<int, Shape>>{{-1, Shape{}}} : piecesOf(scene.shapes[1]);
  const bool cA = scene.shapes[0].type == ShapeType::Compound, cB = !single && scene.shapes[1].type == ShapeType::Compound;
  std::string best;
  double bestKey = kInf;
  int bi = -1, bj = -1;
  std::string first;
  for (const auto& a : A)
    for (const auto& b : B) {
      Scene sub = scene;
      sub.shapes.assign(1, a.second);
      if (!single) sub.shapes.push_back(b.second);
      const std::string r = runOk(sub);
      if (first.empty()) first = r;
      const double k = key(scene.query, parse(r));
      if (k < bestKey) bestKey = k, best = r, bi = a.first, bj = b.first;
    }
  const bool chosen = bestKey < kInf;
  if (!chosen) best = first;
  auto idx = [&](int k) { return chosen ? std::to_string(k) : std::string("null"); };
  best.pop_back();  // the closing brace
  if (cA && cB) return best + ",\"childA\":" + idx(bi) + ",\"childB\":" + idx(bj) + "}";
  return best + ",\"child\":" + idx(cA ? bi : bj) + "}";
}

const QueryKind kQueries[] = {QueryKind::Intersect, QueryKind::Distance, QueryKind::Penetration, QueryKind::Shapecast,
                              QueryKind::Raycast,   QueryKind::Contains, QueryKind::Project,     QueryKind::Contacts};

bool singleShape(QueryKind q) { return q == QueryKind::Raycast || q == QueryKind::Contains || q == QueryKind::Project; }

TEST(CompoundNative, ChildLoopEqualsChildScenesAndBruteForceBitForBit) {
  ref::Rng rng(1801);
  int compared = 0, answered = 0, missed = 0;
  for (int trial = 0; trial < 60; ++trial) {
    Shape c = randomCompound(rng);
    c.pose = randomPose(rng, 1);
    // The other shape: a convex shape, a plane, or another compound.
    const int pick = rng.integer(0, 5);
    Shape other = pick == 0 ? ref::randomShape(rng, ShapeType::Plane, 1.0) : pick == 1 ? randomCompound(rng, 2, 8) : randomConvex(rng, 1.0);
    other.pose = randomPose(rng, 2);
    for (QueryKind q : kQueries) {
      const bool single = singleShape(q);
      if (q == QueryKind::Shapecast && other.type == ShapeType::Plane) continue;  // a plane takes no shapecast
      for (int order = 0; order < (single ? 1 : 2); ++order) {
        const Shape& a = order == 0 ? c : other;
        const Shape* b = single ? nullptr : order == 0 ? &other : &c;
        const Scene scene = sceneOf(rng, q, a, b);
        SCOPED_TRACE(std::string(queryName(q)) + " trial " + std::to_string(trial) + " order " + std::to_string(order));
        const std::string native = runOk(scene);
        std::string reference;
        SceneError err;
        ASSERT_TRUE(runCompoundSceneByChildScenes(scene, false, &reference, &err)) << err.message;
        EXPECT_EQ(native, reference);
        if (q != QueryKind::Contacts) {
          EXPECT_EQ(native, bruteForce(scene));
          const JsonValue v = parse(native);
          const JsonValue* child = v.find(v.find("child") != nullptr ? "child" : "childA");
          ASSERT_NE(child, nullptr);
          (child->isNumber() ? answered : missed) += 1;
        }
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 60 * 10);
  EXPECT_GT(answered, 150);
  EXPECT_GT(missed, 30);
}

using apitest::flatten;
using apitest::sameBits;

void poseInto(const Transform& t, double* out) {
  const double v[7] = {t.position.x, t.position.y, t.position.z, t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w};
  std::memcpy(out, v, sizeof v);
}

// The input of a registry query for a scene (its poses, ray, motion, point).
void inputOf(const Scene& s, Kind kind, double* in) {
  std::fill(in, in + api::kInputSize, 0.0);
  poseInto(s.shapes[0].pose, in);
  if (s.shapes.size() > 1) poseInto(s.shapes[1].pose, in + api::kPoseSize);
  double* e = in + 2 * api::kPoseSize;
  if (kind == Kind::Raycast) {
    const double v[7] = {s.ray.origin.x, s.ray.origin.y, s.ray.origin.z, s.ray.direction.x, s.ray.direction.y,
                         s.ray.direction.z, s.ray.maxT};
    std::memcpy(e, v, sizeof v);
  } else if (kind == Kind::Shapecast) {
    const double v[6] = {s.motion.translationA.x, s.motion.translationA.y, s.motion.translationA.z,
                         s.motion.translationB.x, s.motion.translationB.y, s.motion.translationB.z};
    std::memcpy(e, v, sizeof v);
  } else if (kind == Kind::Contains || kind == Kind::Project) {
    e[0] = s.point.x, e[1] = s.point.y, e[2] = s.point.z;
  } else if (kind == Kind::Contact) {
    e[0] = s.margin;
  }
}

int childField(const JsonValue& v, const char* k) {
  const JsonValue* x = v.find(k);
  return x != nullptr && x->isNumber() ? static_cast<int>(x->number) : -1;
}

struct KindQuery {
  Kind kind;
  QueryKind query;
};
const KindQuery kApiQueries[] = {{Kind::Intersect, QueryKind::Intersect}, {Kind::Distance, QueryKind::Distance},
                                 {Kind::Penetration, QueryKind::Penetration}, {Kind::Shapecast, QueryKind::Shapecast},
                                 {Kind::Raycast, QueryKind::Raycast},     {Kind::Contains, QueryKind::Contains},
                                 {Kind::Project, QueryKind::Project}};

TEST(CompoundNative, RegistryQueriesAndBatchesGiveTheScenesBitsAndChildren) {
  ref::Rng rng(1802);
  const JsonValue layout = parse(api::layoutJson());
  Registry reg;
  SceneError err;
  int compared = 0;
  for (int trial = 0; trial < 30; ++trial) {
    Shape c = randomCompound(rng);
    const int pick = rng.integer(0, 3);
    Shape other = pick == 0 ? randomCompound(rng, 2, 6) : randomConvex(rng, 1.0);
    const int hc = reg.add(c, &err), ho = reg.add(other, &err);
    ASSERT_GT(hc, 0);
    ASSERT_GT(ho, 0);
    c.pose = randomPose(rng, 1);
    other.pose = randomPose(rng, 2);
    for (const KindQuery& kq : kApiQueries) {
      const bool single = api::isSingleShape(kq.kind);
      const JsonValue& lay = *layout.find(api::kindName(kq.kind));
      const int stride = api::kResultStride[static_cast<int>(kq.kind)];
      // Both orders; the compound against itself at another pose too.
      for (int order = 0; order < (single ? 1 : 3); ++order) {
        Shape twin = c;
        twin.pose = randomPose(rng, 1);
        const Shape& a = order == 1 ? other : c;
        const Shape* b = single ? nullptr : order == 0 ? &other : order == 1 ? &c : &twin;
        const int ha = order == 1 ? ho : hc, hb = order == 0 ? ho : hc;
        const Scene scene = sceneOf(rng, kq.query, a, b);
        const JsonValue want = parse(runOk(scene));
        const std::vector<double> expected = flatten(want, lay);
        double in[api::kInputSize], out[api::kMaxResultStride];
        int features[2] = {7, 7};
        inputOf(scene, kq.kind, in);
        ASSERT_TRUE(reg.query(kq.kind, ha, hb, in, nullptr, out, &err, features)) << err.field << ": " << err.message;
        SCOPED_TRACE(std::string(api::kindName(kq.kind)) + " trial " + std::to_string(trial) + " order " + std::to_string(order));
        for (int i = 0; i < stride; ++i)
          EXPECT_TRUE(sameBits(out[i], expected[static_cast<std::size_t>(i)]))
              << lay.find("fields")->items[static_cast<std::size_t>(i)].string << ": " << out[i] << " vs "
              << expected[static_cast<std::size_t>(i)];
        const bool both = want.find("childA") != nullptr;
        EXPECT_EQ(features[0], both ? childField(want, "childA") : a.type == ShapeType::Compound ? childField(want, "child") : -1);
        EXPECT_EQ(features[1], both ? childField(want, "childB") : b != nullptr && b->type == ShapeType::Compound ? childField(want, "child") : -1);
        // The same pair in a batch of one: the same bits and features.
        const int handles[2] = {ha, hb};
        double poses[2 * api::kPoseSize];
        std::memcpy(poses, in, sizeof poses);
        const std::uint32_t pairs[2] = {0, 1};
        double batchOut[api::kMaxResultStride];
        int batchFeatures[2] = {7, 7};
        ASSERT_TRUE(reg.batch(kq.kind, handles, single ? 1 : 2, poses, pairs, 1, in + 2 * api::kPoseSize, nullptr,
                              batchOut, &err, batchFeatures))
            << err.field << ": " << err.message;
        for (int i = 0; i < stride; ++i) EXPECT_TRUE(sameBits(out[i], batchOut[i])) << "batch field " << i;
        EXPECT_EQ(batchFeatures[0], features[0]);
        EXPECT_EQ(batchFeatures[1], features[1]);
        ++compared;
      }
    }
    reg.remove(hc);
    reg.remove(ho);
  }
  EXPECT_EQ(compared, 30 * (4 * 3 + 3));
}

// contact(): the nearest child pair within the margin, each pair's own
// contact query on the children registered as shapes of their own; and
// contacts(): every child pair with a contact, in A-major order.
TEST(CompoundNative, ContactIsTheNearestChildPairAndContactsListsEveryPair) {
  ref::Rng rng(1803);
  Registry reg;
  SceneError err;
  int contactsSeen = 0, nullsSeen = 0, listed = 0;
  for (int trial = 0; trial < 40; ++trial) {
    Shape c = randomCompound(rng, 2, 12);
    const bool two = trial % 3 == 0;
    Shape other = two ? randomCompound(rng, 2, 5) : randomConvex(rng, 1.0);
    const int hc = reg.add(c, &err), ho = reg.add(other, &err);
    c.pose = randomPose(rng, 1);
    other.pose = randomPose(rng, 2);
    const double margin = rng.uniform(0, 0.6);
    double in[api::kInputSize] = {};
    poseInto(c.pose, in);
    poseInto(other.pose, in + api::kPoseSize);
    in[2 * api::kPoseSize] = margin;
    // Brute force over the children, each registered on its own.
    const auto A = piecesOf(c), B = piecesOf(other);
    double best = kInf;
    int bi = -1, bj = -1;
    std::vector<std::vector<double>> list;
    std::vector<std::pair<int, int>> listChildren;
    for (const auto& pa : A)
      for (const auto& pb : B) {
        Shape sa = pa.second, sb = pb.second;
        const int h1 = reg.add(sa, &err), h2 = reg.add(sb, &err);
        double cin[api::kInputSize] = {};
        poseInto(pa.second.pose, cin);
        poseInto(pb.second.pose, cin + api::kPoseSize);
        cin[2 * api::kPoseSize] = margin;
        double r[api::kMaxResultStride];
        ASSERT_TRUE(reg.query(Kind::Contact, h1, h2, cin, nullptr, r, &err)) << err.message;
        if (r[0] != 0) {
          if (r[1] < best) best = r[1], bi = pa.first, bj = pb.first;
          // kContactRecord: depth, normal, pointA, pointB, triangle (−1: none).
          list.push_back({-r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], -1});
          listChildren.push_back({pa.first, pb.first});
        }
        reg.remove(h1);
        reg.remove(h2);
      }
    double out[api::kMaxResultStride];
    int features[2];
    ASSERT_TRUE(reg.query(Kind::Contact, hc, ho, in, nullptr, out, &err, features)) << err.message;
    EXPECT_EQ(out[0] != 0, bi >= 0);
    if (bi >= 0) {
      EXPECT_TRUE(sameBits(out[1], best));
      EXPECT_EQ(features[0], bi);
      EXPECT_EQ(features[1], bj);
      ++contactsSeen;
    } else {
      EXPECT_EQ(features[0], -1);
      ++nullsSeen;
    }
    std::vector<double> all(api::kContactsHeader + api::kContactSize * 64);
    std::vector<int> allFeatures(2 * 64);
    ASSERT_TRUE(reg.contacts(hc, ho, in, all.data(), 64, &err, allFeatures.data())) << err.message;
    ASSERT_EQ(all[0], static_cast<double>(list.size()));
    EXPECT_EQ(all[1], 0);
    for (std::size_t k = 0; k < list.size(); ++k) {
      for (int i = 0; i < api::kContactSize; ++i)
        EXPECT_TRUE(sameBits(all[api::kContactsHeader + api::kContactSize * k + i], list[k][static_cast<std::size_t>(i)]))
            << "contact " << k << " field " << i;
      EXPECT_EQ(allFeatures[2 * k], listChildren[k].first);
      EXPECT_EQ(allFeatures[2 * k + 1], two ? listChildren[k].second : -1);
      ++listed;
    }
    reg.remove(hc);
    reg.remove(ho);
  }
  EXPECT_GT(contactsSeen, 8);
  EXPECT_GT(nullsSeen, 5);
  EXPECT_GT(listed, 15);
}

// A compound against a mesh (either order): each child against the mesh
// with the mesh–convex queries (mesh_pair.h). The scene's answer is the
// brute force over the children's own mesh scenes, with the child and the
// triangle; the registry's is the scene's, bit for bit.
TEST(CompoundNative, AgainstAMeshEachChildMeetsTheMesh) {
  ref::Rng rng(1809);
  meshgen::Rng mrng(1809);
  Shape mesh;
  ShapeError se;
  ASSERT_TRUE(makeMeshShape(meshgen::randomSoup(mrng, 60, 1.5, 0.6), &mesh, &se)) << se.message;
  const JsonValue layout = parse(api::layoutJson());
  Registry reg;
  SceneError err;
  const int hm = reg.add(mesh, &err);
  int answered = 0, contactsSeen = 0;
  for (int trial = 0; trial < 20; ++trial) {
    Shape c = randomCompound(rng, 2, 10);
    const int hc = reg.add(c, &err);
    c.pose = randomPose(rng, 1.5);
    mesh.pose = randomPose(rng, 0.5);
    for (QueryKind q : {QueryKind::Intersect, QueryKind::Distance, QueryKind::Shapecast, QueryKind::Contacts}) {
      for (int order = 0; order < 2; ++order) {
        const Shape& a = order == 0 ? c : mesh;
        const Shape& b = order == 0 ? mesh : c;
        const Scene scene = sceneOf(rng, q, a, &b);
        SCOPED_TRACE(std::string(queryName(q)) + " trial " + std::to_string(trial) + " order " + std::to_string(order));
        const std::string got = runOk(scene);
        const JsonValue v = parse(got);
        if (q == QueryKind::Contacts) {
          for (const JsonValue& x : v.find("contacts")->items) {
            ASSERT_TRUE(x.find("child")->isNumber());
            ASSERT_TRUE(x.find("triangle")->isNumber());
            ++contactsSeen;
          }
          continue;
        }
        EXPECT_EQ(got, bruteForce(scene));
        if (v.find("child")->isNumber()) ++answered;
        const Kind kind = q == QueryKind::Intersect ? Kind::Intersect : q == QueryKind::Distance ? Kind::Distance : Kind::Shapecast;
        const JsonValue& lay = *layout.find(api::kindName(kind));
        const std::vector<double> expected = flatten(v, lay);
        double in[api::kInputSize], out[api::kMaxResultStride];
        int features[2];
        inputOf(scene, kind, in);
        ASSERT_TRUE(reg.query(kind, order == 0 ? hc : hm, order == 0 ? hm : hc, in, nullptr, out, &err, features))
            << err.field << ": " << err.message;
        for (int i = 0; i < api::kResultStride[static_cast<int>(kind)]; ++i)
          EXPECT_TRUE(sameBits(out[i], expected[static_cast<std::size_t>(i)])) << "field " << i;
        EXPECT_EQ(features[order], childField(v, "child"));
        EXPECT_EQ(features[1 - order], -1);
      }
    }
    double in[api::kInputSize] = {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1};
    double out[api::kMaxResultStride];
    EXPECT_FALSE(reg.query(Kind::Penetration, hc, hm, in, nullptr, out, &err));
    EXPECT_EQ(err.code, "unsupported-query");
    EXPECT_EQ(err.field, "b.type");
    reg.remove(hc);
  }
  EXPECT_GT(answered, 20);
  EXPECT_GT(contactsSeen, 10);
}

TEST(CompoundNative, RefusalsNameTheShape) {
  ref::Rng rng(1804);
  Registry reg;
  SceneError err;
  const int hc = reg.add(randomCompound(rng), &err), hs = reg.add(Shape::sphere(1), &err);
  double in[api::kInputSize] = {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1};
  double out[api::kMaxResultStride];
  EXPECT_FALSE(reg.query(Kind::ChungWang, hs, hc, in, nullptr, out, &err));
  EXPECT_EQ(err.code, "unsupported-query");
  EXPECT_EQ(err.field, "b.type");
  const int handles[2] = {hc, hs};
  double poses[14] = {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1};
  const std::uint32_t pairs[2] = {1, 0};
  EXPECT_FALSE(reg.batch(Kind::ChungWang, handles, 2, poses, pairs, 1, nullptr, nullptr, out, &err));
  EXPECT_EQ(err.code, "unsupported-query");
  EXPECT_EQ(err.field, "pairs[0]");
}

}  // namespace
}  // namespace collidoscope
