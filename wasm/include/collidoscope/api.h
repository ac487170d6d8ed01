// collidoscope — the object API behind the npm package: shapes that live in
// wasm memory behind integer handles, queries on them with poses passed as
// plain doubles, and batches that answer N pairs in one call.
//
// Why handles. A game keeps a few hundred shapes and asks about them every
// frame with new poses. Parsing a scene per query (JSON, validation,
// polytope copies) would cost more than GJK itself; here a shape is
// validated and prepared once (a large polytope gets its hull-based support
// walk, see polytope_support.h), and a query only reads 7 doubles per pose.
//
// Layouts (all doubles):
//   pose   [x, y, z, qx, qy, qz, qw]: position and rotation. The rotation is
//          normalized exactly as the scene parser does (kept bit for bit
//          when already unit to rounding), so a query and the scene built
//          from the same shapes and poses give the same bits.
//   single query input  [poseA 7][poseB 7][extra 7]; extra is the ray
//          (origin 3, direction 3, maxT), the motion (translationA 3,
//          translationB 3, unused), contact's margin (then 6 unused) or the
//          point of contains and project (then 4 unused). Queries on one
//          shape (raycast, contains, project) read poseA only.
//   results: kResultStride[kind] doubles per query, fields as in
//          batch_layout.h; booleans are 0/1, enums their index in
//          statusNames(), a null vector (a raycast miss, say) is NaN.
//
// Memory. Creating a shape allocates; queries and batches do not (with one
// documented exception each, both once per shape: the first "sat" query on a
// non-box shape builds its SAT hull, and the first query of a shape against
// itself makes the second copy it needs for the other pose).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "collidoscope/batch_layout.h"
#include "collidoscope/closed_form.h"
#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/mesh_pair.h"
#include "collidoscope/mesh_raycast.h"
#include "collidoscope/point_query.h"
#include "collidoscope/raycast.h"
#include "collidoscope/scene.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

struct SatHull;

namespace api {

enum class Kind { Intersect = 0, Distance, Penetration, ChungWang, Sat, Raycast, Shapecast, Contact, Contains, Project, Count };

// Queries on one shape (A) and their extra: the ray, or the point.
constexpr bool isSingleShape(Kind k) { return k == Kind::Raycast || k == Kind::Contains || k == Kind::Project; }

constexpr int kPoseSize = 7;
constexpr int kExtraSize = 7;
constexpr int kInputSize = 2 * kPoseSize + kExtraSize;
// Registry::contacts(): the header (count, truncated, iterations) and one
// contact's doubles (batch_layout.h kContactRecord).
constexpr int kContactsHeader = 3;
constexpr int kContactSize = strideOf(kContactRecordLayout);
// Most contacts one contactsBatch() call writes (88 bytes each).
constexpr std::int64_t kMaxBatchContacts = std::int64_t{1} << 22;
// Intersect's warm-start cache per pair: [dx, dy, dz, valid].
constexpr int kCacheSize = 4;
// Doubles per result, by Kind (batch_layout.h).
constexpr int kResultStride[] = {strideOf(kResultLayouts[0]), strideOf(kResultLayouts[1]), strideOf(kResultLayouts[2]),
                                 strideOf(kResultLayouts[3]), strideOf(kResultLayouts[4]), strideOf(kResultLayouts[5]),
                                 strideOf(kResultLayouts[6]), strideOf(kResultLayouts[7]), strideOf(kResultLayouts[8]),
                                 strideOf(kResultLayouts[9])};
static_assert(sizeof kResultLayouts / sizeof kResultLayouts[0] == static_cast<int>(Kind::Count));
constexpr int kMaxResultStride = 14;
static_assert(kResultStride[static_cast<int>(Kind::Shapecast)] == kMaxResultStride, "the largest result");
// Largest batch (pairs) one call may take: 2^24 pairs of 14 doubles is
// 1.9 GB, beyond the 2 GB wasm heap; a game frame needs far fewer.
constexpr std::int64_t kMaxBatch = std::int64_t{1} << 22;
// Live shapes at once (handles carry a 20-bit slot).
constexpr int kMaxShapes = (1 << 20) - 1;  // also the slot mask of a handle (api.cpp)

// Registry::setTolerance's range: below 1e-15 the termination tests ask for
// less than the rounding of the support points (kRoundingBound ≈ 1.4e-14
// bounds the absolute part anyway); above 1e-2 a depth or distance may be
// off by a hundredth of the scene, which no game would call an answer.
constexpr double kMinTolerance = 1e-15;
constexpr double kMaxTolerance = 1e-2;

// Names of the result fields per kind, and the status names by index, as
// JSON: {"intersect": {"fields": [...], "status": [...], "axisKind"?: [...]}, ...}.
std::string layoutJson();

// Parses "intersect", "distance", ...; false for hull/obb and unknown names.
bool parseKind(const std::string& name, Kind* out);
const char* kindName(Kind k);

class Registry {
 public:
  Registry();
  ~Registry();
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // Takes a validated shape (its pose is ignored and reset to identity).
  // Returns the handle (> 0), or 0 with *err when the registry is full.
  int add(Shape shape, SceneError* err);
  // Frees the shape. False when the handle is not live (disposed twice, or never made).
  bool remove(int handle);
  int live() const { return live_; }

  // The accuracy of the iterative queries (GJK, EPA, the casts) run by
  // query() and batch(): their relative and absolute termination tolerance
  // (numeric.h IterativeSettings), kDefaultTolerance unless set. A game may
  // trade the last digits for speed (1e-4 is crashcat's and Jolt's). Closed
  // forms are exact whatever it is; traces and scenes always run at the
  // default, so that a link replays bit for bit. False, with `err` naming
  // "tolerance", unless kMinTolerance ≤ t ≤ kMaxTolerance.
  bool setTolerance(double t, SceneError* err);
  double tolerance() const { return gjk_.relativeTolerance; }
  // The last ray cast on a mesh shape answered by query() or batch(): its
  // triangle and barycentric coordinates (not in the ray cast's layout,
  // which every shape type shares). Valid after a raycast query on a mesh;
  // after intersect, distance or shapecast of a mesh and a convex shape,
  // the triangle that answers (hit false when none; no barycentric).
  const MeshRayHit& lastMeshHit() const { return meshHit_; }
  // The feature of the last project answered by query() (a compound's:
  // its answering child's), beside the layout, whose length is fixed.
  const PointFeature& lastFeature() const { return project_.feature; }
  // The shape behind a live handle, or null.
  const Shape* find(int handle) const;

  // One query. in: kInputSize doubles (see the layout); cache: kCacheSize
  // doubles or null (intersect only). out: kResultStride[kind] doubles.
  // features: null, or 2 ints [featureA, featureB] set to the compound
  // child, or the mesh triangle, of A and of B that answers (−1 when none
  // answers, or for a shape that is neither); a compound takes no cache.
  bool query(Kind kind, int handleA, int handleB, const double* in, double* cache, double* out, SceneError* err,
             int* features = nullptr);

  // Every contact of B with A within a margin (the scene format's
  // "contacts") when one of them is a mesh: one per triangle within the
  // margin. in: as for Kind::Contact (poses, the margin in the extra's
  // first number). out: kContactsHeader doubles (count written, truncated
  // 0/1, iterations) then kContactSize per contact (kContactRecord: depth,
  // normal, pointA, pointB, triangle), at most `capacity` (≤ kMaxMeshContacts) of
  // them. Two convex shapes: out[0] = −1 and nothing else is written (the
  // contact query answers them: at most one contact). The first call
  // reserves the registry's contact buffer; later calls allocate nothing.
  // A compound on either side (compound.h): one contact per child pair
  // within the margin (the contact query's, triangle −1), in child order,
  // with the children in features (2 ints per contact; null: not asked).
  bool contacts(int handleA, int handleB, const double* in, double* out, int capacity, SceneError* err,
                int* features = nullptr);

  // contacts() with the header and the contacts in arrays of their own.
  bool contactsInto(int handleA, int handleB, const double* in, double* header, double* records, int capacity,
                    SceneError* err, int* features = nullptr);

  // The same query with a recording trace, as the scene format's trace JSON.
  // Contact has no trace: its scene runs without one, so trace() refuses it.
  bool trace(Kind kind, int handleA, int handleB, const double* in, std::string* json, SceneError* err);

  // The scene (format version 1) of a query: the shapes with their poses, the
  // ray, motion, point or contact's margin. What permalinks and the CLI read.
  bool scene(Kind kind, int handleA, int handleB, const double* in, std::string* json, SceneError* err);

  // N queries. handles[nShapes], poses[7·nShapes]; pairs: 2 shape indices
  // per query (raycast, contains, project: 1); extras: 7 per query
  // (raycast, shapecast, contact, contains, project; else null); caches: kCacheSize per query (intersect; may be null); out:
  // kResultStride[kind] per query. Every pose and index is checked before
  // anything runs, so on an error nothing was written (except when a sat
  // pair's shapes are too large for SAT: the batch stops at that pair).
  // features (or null): 2 ints per query, the triangle of shape A and of B
  // that answers when it is a mesh (the ray's hit, the touching, nearest or
  // first-hit triangle; mesh–mesh intersect: the pair found), else −1.
  // barycentric (or null): 3 doubles per query, a mesh ray hit's
  // coordinates, else NaN. rayOrder (or null): scratch of 2 words per
  // query (raycast), with which a run of kRayOrderMinRays or more rays on
  // one mesh is traced in coherent order (ray_order.h); the answers are the
  // same bits either way, only faster on a large mesh.
  bool batch(Kind kind, const int* handles, int nShapes, const double* poses, const std::uint32_t* pairs,
             std::int64_t n, const double* extras, double* caches, double* out, SceneError* err,
             int* features = nullptr, double* barycentric = nullptr, std::uint64_t* rayOrder = nullptr);

 private:
  struct Entry;
  // The live entry of a handle, or null with a "disposed" error naming the
  // field (name, or name[index] when index ≥ 0).
  Entry* entry(int handle, const char* name, std::int64_t index, SceneError* err);
  Entry& slotOf(int liveHandle);
  bool answer(Kind kind, int handleA, int handleB, const double* in, double* cache, double* out, SceneError* err,
              int* features);
  bool answerBatch(Kind kind, const int* handles, int nShapes, const double* poses, const std::uint32_t* pairs,
                   std::int64_t n, const double* extras, double* caches, double* out, SceneError* err,
                   int* features, double* barycentric, std::uint64_t* rayOrder);
  bool run(Kind kind, Entry& a, const Transform& poseA, Entry* b, const Transform& poseB, const double* extra,
           double* cache, double* out, SceneError* err, int* features = nullptr, double* barycentric = nullptr);
  // The query on posed shapes that are not compounds (b null for one
  // shape): a mesh's, a plane's, then the convex queries; sat reads the
  // entries' SAT hulls (ea, eb: the entries of a and b); features and
  // barycentric as batch() says (a mesh's triangle; null: not asked).
  // hull: a's SAT hull for project's feature when ea has none (a compound's child).
  bool answerPosed(Kind kind, const Shape& a, const Shape* b, const double* extra, double* cache, double* out,
                   SceneError* err, Entry* ea = nullptr, Entry* eb = nullptr, int* features = nullptr,
                   double* barycentric = nullptr, const SatHull* hull = nullptr);

 public:
  // A compound's child loop (compound_api.cpp) runs this on each pair of
  // posed pieces (b null for one shape): the closed forms, then
  // answerPosed, as run() answers two entries. Internal to the library.
  bool answerPiece(Kind kind, const Shape& a, const Shape* b, const double* extra, double* out, SceneError* err,
                   const SatHull* hull = nullptr);

 private:
  bool buildScene(Kind kind, int handleA, int handleB, const double* in, Scene* scene, SceneError* err);

  std::vector<std::unique_ptr<Entry>> slots_;
  // Per slot: the live entry's generation, 0 when free. Handles are checked
  // here, in one small array, without touching the entries.
  std::vector<int> tags_;
  // Per slot beside its tag, what a point or segment pair reads of a shape,
  // so that the batch loop does not visit the entry: the kind of its core
  // and, for a point or a segment, the core in the shape's frame
  // (closed_form.h).
  struct Hot {
    Core core;
    CoreKind kind = CoreKind::Other;
  };
  std::vector<Hot> hot_;
  const Hot& hotOf(int liveHandle) const {
    return hot_[static_cast<std::size_t>((liveHandle & kMaxShapes) - 1)];
  }
  std::vector<int> free_;
  // answerBatch's segment cores posed once per batch (see there).
  std::vector<Core> posed_;
  std::vector<std::uint32_t> stamp_;
  std::uint32_t epoch_ = 0;
  int live_ = 0;
  // A distance query's result, kept between queries: its simplex is large,
  // and a closed form (closed_form.h) writes only what it reports.
  DistanceResult distance_;
  GjkSettings gjk_;
  MeshRayHit meshHit_;
  MeshProjectResult project_;  // the last project: its feature list keeps its storage
  std::vector<MeshContact> contacts_;  // contacts(): kMaxMeshContacts, reserved on first use
  EpaSettings epa_;
  RayCastSettings cast_;
};

// The scene format's "contact" query (scene.cpp runScene): contact() on
// the scene's two shapes at their poses with the scene's margin, bit for
// bit, as {"contact", "distance", "normal", "pointA", "pointB", "iterations",
// "status"} (null fields beyond the margin) plus "child" or "childA" and
// "childB" for compounds. No trace: refused as "unsupported-query".
bool runContactScene(const Scene& scene, bool trace, std::string* json, SceneError* err);

// The scene format's "contacts" query without a mesh (scene.cpp runScene):
// contacts() on the scene's two shapes, bit for bit (closed forms included),
// as the ContactsResult JSON with "child" or "childA"/"childB" per contact of
// a compound. No trace: refused as "unsupported-query".
bool runContactsScene(const Scene& scene, bool trace, std::string* json, SceneError* err);

// contacts() of n pairs, as Registry::batch() takes them (handles, poses,
// 2 shape indices per pair) with one margin per pair (finite, ≥ 0). Pair
// q's contacts are records[kContactSize·offsets[q] .. kContactSize·offsets[q+1])
// (offsets: n + 1 numbers); perPair gets 2 doubles per pair: iterations and
// truncated (0/1). Each pair writes at most kMaxMeshContacts and what room
// is left of `capacity` contacts (≤ kMaxBatchContacts): truncated says it
// found more. A pair of convex shapes has contact()'s one contact
// (triangle −1) or none; a pair with a compound, one contact per child pair
// within the margin, as contacts() gives them. features: null, or 2 ints
// per contact (room for `capacity`): the compound child of A and of B, −1
// for a side that is not a compound. Pairs of two meshes are refused, as
// are bad poses and margins, before anything runs. Allocates
// nothing but the contact buffer contacts() reserves. In mesh_api.cpp: the
// default package flavour refuses it (wasm/flavours/no_meshes.cpp).
bool contactsBatch(Registry& reg, const int* handles, int nShapes, const double* poses, const std::uint32_t* pairs,
                   std::int64_t n, const double* margins, double* records, std::int64_t capacity,
                   std::uint32_t* offsets, double* perPair, SceneError* err, int* features = nullptr);

// Reads and checks a pose (error fields "name[i]", or "name[index][i]" when
// index ≥ 0): finite, position within kMaxMagnitude, a non-zero quaternion
// normalized as the scene parser does. Allocates only to report an error.
bool readPose(const double* in, const char* name, std::int64_t index, Transform* out, SceneError* err);

}  // namespace api
}  // namespace collidoscope
