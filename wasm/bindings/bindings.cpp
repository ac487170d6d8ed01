// collidoscope — embind bindings: the only file that includes emscripten
// headers. Every entry point takes and returns JSON text and never throws or
// aborts: the reply is {"ok": true, "value": ...} or
// {"ok": false, "error": {"code", "field", "message"}}, which web/lib turns
// into results or CollidoscopeError. Strings keep the boundary simple and
// the doubles exact (17 significant digits both ways).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "collidoscope/json.h"
#include "collidoscope/scene.h"

namespace {

using namespace collidoscope;

std::string ok(const std::string& valueJson) { return "{\"ok\":true,\"value\":" + valueJson + "}"; }

std::string error(const SceneError& e) {
  JsonWriter w;
  w.beginObject().key("ok").value(false).key("error").beginObject();
  w.key("code").value(e.code).key("field");
  if (e.field.empty()) w.null();
  else w.value(e.field);
  w.key("message").value(e.message).endObject().endObject();
  return w.str();
}

std::string points(const std::vector<Vec3>& pts) {
  JsonWriter w;
  w.beginArray();
  for (const Vec3& p : pts) {
    const double d[3] = {p.x, p.y, p.z};
    w.vec(d, 3);
  }
  w.endArray();
  return w.str();
}

bool readShape(const std::string& text, const char* name, Shape* out, SceneError* err) {
  JsonValue json;
  std::string why;
  if (!parseJson(text, &json, &why)) {
    *err = {"invalid-json", name, std::string("the shape is not valid JSON: ") + why};
    return false;
  }
  return parseShape(json, name, out, err);
}

std::string runSceneJson(const std::string& text, bool trace) {
  Scene scene;
  SceneError err;
  std::string out;
  if (!parseScene(text, &scene, &err) || !runScene(scene, trace, &out, &err)) return error(err);
  return ok(out);
}

std::string validateSceneJson(const std::string& text) {
  Scene scene;
  SceneError err;
  if (!parseScene(text, &scene, &err)) return error(err);
  return ok(sceneToJson(scene));
}

std::string shapeSurfaceJson(const std::string& shapeText, int samples) {
  Shape s;
  SceneError err;
  if (!readShape(shapeText, "shape", &s, &err)) return error(err);
  return ok(points(shapeSurface(s, samples)));
}

std::string minkowskiSurfaceJson(const std::string& aText, const std::string& bText, int samples) {
  Shape a, b;
  SceneError err;
  if (!readShape(aText, "a", &a, &err) || !readShape(bText, "b", &b, &err)) return error(err);
  std::vector<Vec3> full, core;
  minkowskiSurface(a, b, samples, &full, &core);
  return ok("{\"points\":" + points(full) + ",\"corePoints\":" + points(core) + "}");
}

// Points from a Float64Array (x0, y0, z0, x1, ...): copied into wasm
// memory by one TypedArray.set, no JSON.
bool readPointArray(const emscripten::val& array, std::vector<Vec3>* pts, SceneError* err) {
  const std::vector<double> flat = emscripten::convertJSArrayToNumberVector<double>(array);
  if (flat.empty()) {
    *err = {"invalid-scene", "points", "is empty: at least 1 point (3 numbers) is needed"};
    return false;
  }
  if (flat.size() % 3 != 0) {
    *err = {"invalid-scene", "points", "has " + std::to_string(flat.size()) + " numbers, not a multiple of 3"};
    return false;
  }
  if (flat.size() / 3 > kMaxPolytopePoints) {
    *err = {"invalid-scene", "points", "has more than 1000000 points"};
    return false;
  }
  pts->resize(flat.size() / 3);
  for (std::size_t i = 0; i < pts->size(); ++i) {
    (*pts)[i] = {flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]};
    if (!isFinite((*pts)[i])) {
      *err = {"invalid-scene", "points[" + std::to_string(i) + "]", "must be finite"};
      return false;
    }
  }
  return true;
}

std::string hullOfArray(const emscripten::val& array) {
  std::vector<Vec3> pts;
  SceneError err;
  std::string out;
  if (!readPointArray(array, &pts, &err) || !hullOfPoints(pts, "", &out, &err)) return error(err);
  return ok(out);
}

std::string boundsOfArray(const emscripten::val& array) {
  std::vector<Vec3> pts;
  SceneError err;
  std::string out;
  if (!readPointArray(array, &pts, &err) || !boundsOfPoints(pts, "", &out, &err)) return error(err);
  return ok(out);
}

}  // namespace

EMSCRIPTEN_BINDINGS(collidoscope) {
  emscripten::function("hullOfPoints", &hullOfArray);
  emscripten::function("boundsOfPoints", &boundsOfArray);
  emscripten::function("runScene", &runSceneJson);
  emscripten::function("validateScene", &validateSceneJson);
  emscripten::function("shapeSurface", &shapeSurfaceJson);
  emscripten::function("minkowskiSurface", &minkowskiSurfaceJson);
}
