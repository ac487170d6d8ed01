// collidoscope — the scene parser's field readers, shared with the mesh
// scenes (mesh_scene.cpp), which live in a file of their own so that the
// default package flavour, without meshes, links none of their code.
// Internal to the library's sources. Errors name the field (code
// "invalid-scene").
#pragma once

#include <string>

#include "collidoscope/json.h"
#include "collidoscope/math.h"
#include "collidoscope/scene.h"
#include "collidoscope/shapes.h"

namespace collidoscope {
namespace sceneread {

bool fail(SceneError* err, const std::string& field, const std::string& message);
// A shape builder's error, its field under `prefix`: its own code when it
// has one (out of memory), "invalid-scene" otherwise.
bool failShape(SceneError* err, const std::string& prefix, const ShapeError& se);
// n finite numbers (an array of exactly n), at most 1e15 in magnitude.
bool readVec(const JsonValue& v, const std::string& field, int n, double* out, SceneError* err);
bool readVec3(const JsonValue& v, const std::string& field, Vec3* out, SceneError* err);
// A finite number.
bool readNumber(const JsonValue& v, const std::string& field, double* out, SceneError* err);
// A shape as the scene format writes it (a compound's children).
void writeShape(JsonWriter& w, const Shape& s);

}  // namespace sceneread

// A mesh's "vertices" and "triangles", a heightfield's "heights" and
// "cellSize", a compound's "children", into *s (mesh_scene.cpp; the default
// flavour refuses them, naming the shape's type).
bool readMeshShape(const JsonValue& json, const std::string& prefix, Shape* s, SceneError* err);
bool readHeightfieldShape(const JsonValue& json, const std::string& prefix, Shape* s, SceneError* err);
bool readCompoundShape(const JsonValue& json, const std::string& prefix, Shape* s, SceneError* err);
// Their fields written back, as read (the scene writer's part for a mesh
// shape or a compound: mesh_scene.cpp; the default flavour has none).
void writeLevelShapeFields(JsonWriter& w, const Shape& s);

}  // namespace collidoscope
