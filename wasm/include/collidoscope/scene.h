// collidoscope — the scene format, version 1 (README.md, "Scene format
// (version 1)"): parsing with errors that name the field, and running a scene's
// query to the result JSON of the format. Permalinks, the CLI, the page and
// the tests all come through here, so every front end validates the same way.
#pragma once

#include <string>
#include <vector>

#include "collidoscope/json.h"
#include "collidoscope/math.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

enum class SatStatus;  // sat.h

enum class QueryKind { Intersect, Distance, Penetration, ChungWang, Raycast, Shapecast, Hull, Obb, Sat, Contains, Project, Contacts,
                       ObbTree, Contact, Pairs, Simulate };

const char* queryName(QueryKind q);

struct Ray {
  Vec3 origin;
  Vec3 direction;
  double maxT = 1;
};

struct Motion {
  Vec3 translationA;
  Vec3 translationB;
};

// A 2D scene's shape as written: its 2D type and its angle (radians,
// counter-clockwise). The Scene's Shape holds the same shape in the plane
// z = 0 (polygon as a flat polytope, circle as a sphere about a point in the
// plane, box with half-extent 0 along z, capsule and segment as in 3D), so
// every query runs the library's 3D code on it.
enum class PlanarType { Point, Circle, Box, Capsule, Segment, Polygon };

const char* planarTypeName(PlanarType t);

struct PlanarShape {
  PlanarType type = PlanarType::Point;
  double angle = 0;
};

// The queries a 2D scene runs: intersect, distance, penetration (a planar
// EPA, epa2d.h), raycast and shapecast.
bool runsInPlane(QueryKind q);

// A body of a "simulate" scene: shape `shape` of "shapes" moving from its
// pose with these velocities (world frame) and this mass (kSceneVolumeMass:
// the shape's volume at density 1; 0: static).
constexpr double kSceneVolumeMass = -1;
struct SceneBody {
  int shape = 0;
  Vec3 velocity;
  Vec3 angularVelocity;
  double mass = kSceneVolumeMass;
};

// Most steps one "simulate" scene runs, and most shape-steps (shapes × steps):
// bounds on the time a link or a CLI call may take.
constexpr int kMaxSimulateSteps = 100000;
constexpr double kMaxSimulateWork = 1e7;

struct Scene {
  int version = 1;
  int dimension = 3;                // 2 for a scene in the plane ("dimension": 2)
  std::vector<PlanarShape> planar;  // dimension 2: one per shape
  std::vector<Shape> shapes;
  QueryKind query = QueryKind::Distance;
  bool hasRay = false;
  Ray ray;
  bool hasMotion = false;
  Motion motion;
  // "contains" and "project": the query point ("point": [x, y, z]).
  bool hasPoint = false;
  Vec3 point;
  // "contacts" and "contact": report contacts up to this gap ("margin": d ≥ 0, default 0).
  bool hasMargin = false;
  double margin = 0;
  // false ("closedForms": false): pairs with a closed form (closed_form.h)
  // are answered by the general algorithms (GJK, EPA), whose steps a trace
  // then shows; the answers agree to 1e-9 of the scale, not bit for bit.
  bool closedForms = true;
  bool hasStep = false;
  int step = 0;
  // "simulate": the moving bodies (every other shape is static), gravity, the
  // time step, the number of steps, and whether islands at rest go to sleep
  // (StepSettings::sleep).
  std::vector<SceneBody> bodies;
  Vec3 gravity{0, -9.81, 0};
  double dt = 1.0 / 60;
  int steps = 1;
  bool sleep = true;
};

// Error codes: "invalid-json" (not JSON), "invalid-scene" (a field is wrong;
// `field` is its path, e.g. "shapes[1].halfExtents[2]"), "unsupported-query"
// (a query of the format that this build does not run yet).
struct SceneError {
  std::string code;
  std::string field;  // empty when the problem is not one field's
  std::string message;
};

// Largest "step" accepted (a trace never has more frames than
// 2·maxIterations + 2; this bound only rejects nonsense).
constexpr int kMaxStep = 1000000;

bool parseScene(const std::string& json, Scene* out, SceneError* err);
bool parseScene(const JsonValue& json, Scene* out, SceneError* err);
// Parses one SHAPE object (field paths are prefixed with `path`).
bool parseShape(const JsonValue& json, const std::string& path, Shape* out, SceneError* err);

// Normalizes a rotation [qx, qy, qz, qw] as the parser does (kept bit for bit
// when already unit to rounding); false for the zero quaternion. Allocates
// nothing (the object API calls it in every query).
bool normalizeRotation(double q[4]);

// The "sat" query's checks, shared by runScene and the object API: a shape
// with vertices (field names the shape's type), and an answered status.
bool checkSatShape(const Shape& s, const std::string& field, SceneError* err);
bool satAnswered(SatStatus status, bool trace, const std::string& field, SceneError* err);

// Writes a scene (defaults filled in, rotations normalized) as JSON.
std::string sceneToJson(const Scene& scene);

// Runs the scene's query. On success returns true with the result JSON
// (the query's fields in README.md's scene format) in *json; with trace = true
// the JSON is {"query", "frames", "result", "marginA", "marginB"}: numbers and
// names only (the JS API adds the pseudocode and the frames' captions).
bool runScene(const Scene& scene, bool trace, std::string* json, SceneError* err);

// The "hull" and "obb" answers for a plain point list (the API's typed-array
// path, which skips the scene JSON). Field names in errors start with
// fieldPrefix (e.g. "" gives "points[3]").
bool hullOfPoints(const std::vector<Vec3>& pts, const std::string& fieldPrefix, std::string* json, SceneError* err);
bool boundsOfPoints(const std::vector<Vec3>& pts, const std::string& fieldPrefix, std::string* json, SceneError* err);

// World-space points whose convex hull is the shape as the library sees it:
// the vertices of a polytopal core without radius, otherwise support points
// of the full shape in `samples` directions spread over the sphere.
std::vector<Vec3> shapeSurface(const Shape& s, int samples);

// Points of A − B (full shapes) and of core(A) − core(B): exact vertex
// differences when both are polytopal (and there are at most
// kMaxVertexDifferences of them), support samples otherwise.
void minkowskiSurface(const Shape& a, const Shape& b, int samples, std::vector<Vec3>* full,
                      std::vector<Vec3>* core);

// Cap on |V_A|·|V_B| for exact vertex differences: beyond it the page draws
// support samples instead (a hull of 2e5 points is slow to draw).
constexpr std::size_t kMaxVertexDifferences = 200000;
// Bounds on the number of sample directions a caller may ask for.
constexpr int kMinSamples = 6;
constexpr int kMaxSamples = 20000;

}  // namespace collidoscope
