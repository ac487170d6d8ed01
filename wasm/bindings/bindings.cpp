// collidoscope — embind bindings: the only file that includes emscripten
// headers. Every entry point takes and returns JSON text and never throws or
// aborts: the reply is {"ok": true, "value": ...} or
// {"ok": false, "error": {"code", "field", "message"}}, which web/lib turns
// into results or CollidoscopeError. Strings keep the boundary simple and
// the doubles exact (17 significant digits both ways).
#include <emscripten/bind.h>

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

}  // namespace

EMSCRIPTEN_BINDINGS(collidoscope) {
  emscripten::function("runScene", &runSceneJson);
  emscripten::function("validateScene", &validateSceneJson);
  emscripten::function("shapeSurface", &shapeSurfaceJson);
  emscripten::function("minkowskiSurface", &minkowskiSurfaceJson);
}
