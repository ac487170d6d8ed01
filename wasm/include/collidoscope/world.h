// collidoscope — a collision world: many bodies, each a shape of the
// registry (api.h) at a pose, and the pairs of them that overlap.
//
// Finding the pairs is done in two phases (J. Rasku, "Törmäysten havaitseminen
// tietokoneanimaatiossa", master's thesis, University of Tampere, 2003, §5):
//   broad phase   an axis-aligned box per body, and the pairs of boxes that
//                 overlap, found by sweep and prune (broadphase.h): when
//                 bodies move a little, the sorted interval list changes by
//                 a few swaps, and one sweep of it gives the pairs;
//   narrow phase  the library's own intersect() on each of those pairs, so
//                 that a world's pair is what intersect() answers for the
//                 two shapes at their poses, bit for bit.
//
// The box of a body. The seed encloses a body in a cube that bounds it in
// any pose (the ball of localBoundingRadius about the shape's origin), so
// that a rotation never changes it. A long shape's cube is far larger than
// the shape, and a floor's would pair it with everything in its cube, so
// a convex shape gets its exact box at each pose instead: the support point
// along ±x, ±y, ±z (six support calls, rounded out by one part in 10¹²).
// Meshes, heightfields and compounds keep the seed's cube (their support
// is a scan or a loop over children). A plane (a half-space) has no box:
// planes are paired with every other body and left to the narrow phase.
//
// Poses are the 7 numbers of the object API (position, quaternion x y z w),
// checked as every query checks them; the world keeps them as given, so
// that intersect() at the same numbers gives the same answer.
//
// Motion (the loop of a Croatian thesis on rigid-body dynamics, ch. 2–5). A
// body is static unless given a mass (setMass): a dynamic body has a velocity
// and an angular velocity (velocities(), 6 numbers per slot) and step() moves
// it — the broad phase on boxes grown by the step's motion, then the solver
// (solver.h: contact manifolds, sequential impulses, warm starting, shape
// casts for fast bodies) on those pairs.
//
// Still bodies. The broad phase's pairs depend on its boxes alone, so a box
// computed again bit for bit the same (a static body, a sleeping one: no
// velocity, the same pose) is not handed to it, and while no box moved the
// last pairs stand without a sweep. When a few moved (at most one box in
// kMovedBoxesPerRescan, world.cpp: a pile mostly asleep, a few bodies set
// by hand), the pairs of two unmoved boxes stand, each moved box is tested
// against every box, and the two sorted lists are merged; more than that
// and the broad phase sweeps them all. The pairs are the same either way.
//
// Memory: adding bodies grows the arrays; pairs() and step() reuse their
// buffers and allocate only when a frame has more pairs than any before.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "collidoscope/aabb.h"
#include "collidoscope/api.h"
#include "collidoscope/broadphase.h"
#include "collidoscope/solver.h"

namespace collidoscope {

// The scene format's "pairs" answer (schema.h names its fields).
struct PairsResult {
  std::vector<std::array<int, 2>> pairs;  // {i, j}, i < j, sorted
  int candidates = 0;                     // pairs of overlapping boxes the narrow phase ran on
};

// The scene format's "simulate" answer: each body of the scene's "bodies"
// after the steps, and (traced) one frame per step.
struct SimulatedBody {
  Vec3 position;
  std::array<double, 4> rotation{0, 0, 0, 1};  // [qx, qy, qz, qw]
  Vec3 velocity;
  Vec3 angularVelocity;
};
struct SimulateResult {
  std::vector<SimulatedBody> bodies;  // in the order of the scene's "bodies"
  int steps = 0;
};
struct SimulateContact {
  int a = 0, b = 0;  // shape indices; the normal from a to b
  Vec3 pointA, pointB, normal;
  double distance = 0;
  double normalImpulse = 0;
  Vec3 frictionImpulse;
};
struct SimulateFrame {
  int step = 0;                                // steps taken so far (0: the start)
  std::vector<std::array<double, 7>> poses;    // every shape's pose after it
  std::vector<SimulateContact> contacts;       // the step's contact points (none at step 0)
  bool contactsTruncated = false;
  int solvedPoints = 0;                        // of them, the solved ones, listed first (the rest: sleeping pairs')
  int sleeping = 0;                            // dynamic bodies asleep after the step
};
// Most frames a "simulate" trace keeps (a longer run keeps every k-th step,
// and the last), and most contacts per frame.
constexpr int kMaxSimulateFrames = 2000;
constexpr int kMaxSimulateFrameContacts = 256;

namespace api {

// Bodies in one world at once: body ids carry a 20-bit slot, as shape handles do.
constexpr int kMaxBodies = (1 << 20) - 1;
// Most pairs of overlapping boxes one pairs() call takes (8 bytes each):
// beyond it a world is a heap of bodies all in one place, and the call says
// so instead of exhausting memory.
constexpr std::int64_t kMaxWorldPairs = std::int64_t{1} << 22;
// World::setMass: the mass of the shape's volume at density 1.
constexpr double kMassOfVolume = -1;

// The broad phase a world keeps (broadphase.h). Sweep and prune, the
// default, was the faster of the two on bodies spread through a volume and on
// a layer of them (a floor), at 1 000 and 10 000 bodies (bench/world.mjs and
// native runs of the same scenes); the tree stays as the other answer, equal
// pair for pair.
enum class WorldBroadphase { SweepAndPrune, Tree };

// A hit of a world query: the body's slot (−1: none), the time t and where.
struct WorldHit {
  int slot = -1;
  double t = 0;
  Vec3 point;    // raycast: the hit point; shapecast: the contact point on the body
  Vec3 normal;   // raycast: the body's outward normal; shapecast: from the body to the cast shape
  bool startedInside = false;  // raycast: the ray starts inside; shapecast: they overlap at t = 0
  Vec3 pointB;   // shapecast: the contact point on the cast shape
};

class World {
 public:
  explicit World(Registry* registry, WorldBroadphase broadphase = WorldBroadphase::SweepAndPrune);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // Adds a body: the live shape `shape` (a registry handle) at `pose` (7
  // numbers); a mesh's OBB tree is built now if it is not yet
  // (prepareMeshTree). Returns its id (> 0), or 0 with *err (a disposed
  // shape, a bad pose, too many bodies, no memory for the mesh's tree). The world does not own the shape: dispose it
  // only after removing its bodies (pairs() names a body whose shape was
  // disposed).
  int add(int shape, const double* pose, SceneError* err);
  // False with *err when the id is not a live body (removed twice, never made).
  bool remove(int body, SceneError* err);
  bool setPose(int body, const double* pose, SceneError* err);
  // The body's slot: its pose is poses()[7·slot ..]. −1 when not live.
  int slotOf(int body) const;
  int count() const { return live_; }
  // Slots in use or free (the length of poses() in poses).
  int slots() const { return static_cast<int>(shape_.size()); }
  // 7 numbers per slot, the poses as given. Writable: a caller may write
  // many poses here and call sync() (or pairs(), which syncs first); a free
  // slot's numbers are ignored. The pointer changes when add() grows it.
  double* poses() { return poses_.data(); }

  // Reads every live slot's pose from poses(), checks them all (an error
  // names "poses[slot]" and changes nothing), and moves the boxes.
  bool sync(SceneError* err);

  // Makes a body dynamic with `mass` (> 0; its inertia that of its shape at
  // uniform density), or static with mass 0; kMassOfVolume asks for the
  // shape's volume at density 1. Planes, meshes and heightfields can only
  // be static ("static-only" errors name "mass"); so can shapes without
  // volume (a point, a segment, a triangle).
  bool setMass(int body, double mass, SceneError* err);
  // The body's mass (0: static).
  double mass(int body) const;
  // 6 numbers per slot: velocity (of the centre of mass) and angular velocity,
  // world frame. Writable as poses() is; a static body's are ignored (and
  // left as written).
  double* velocities() { return velocities_.data(); }

  // One step of the simulation: every dynamic body moves by `settings`
  // (solver.h StepSettings). Poses and velocities are read (and checked:
  // "poses[slot]", "velocities[slot]" name a bad one; nothing changes) and
  // written back. stats: the solver's report of the step (may be null).
  bool step(const StepSettings& settings, SceneError* err, StepReport* stats = nullptr);
  // Queries of the world (after reading the poses, as pairs() does). Each
  // runs the library's own query (raycast, intersect, shapecast) on the
  // bodies whose boxes the ray, the shape's box or its swept box meet.
  //   raycast   ray: origin (3), direction (3), maxT (Infinity allowed); the
  //             nearest hit (ties: the smaller slot), or with `all` every hit
  //             sorted by (t, slot); rays as the raycast query casts them.
  //   overlap   the slots of the bodies that intersect `shape` at `pose`
  //             (touching counts), sorted.
  //   shapecast `shape` at `pose` moved by `translation` (t in [0, 1]): the
  //             first body it hits (ties: the smaller slot), slot −1 if none.
  bool raycast(const double* ray, bool all, std::vector<WorldHit>* hits, SceneError* err);
  bool overlap(int shape, const double* pose, std::vector<int>* out, SceneError* err);
  bool shapecast(int shape, const double* pose, const double* translation, WorldHit* hit, SceneError* err);

  // The last step's contact points, bodies named by slot.
  const std::vector<SolverContact>& contacts() const { return slotsAreIndices_ ? solver_.contacts() : contacts_; }

  // Every pair of live bodies whose shapes intersect (intersect()'s answer),
  // as slots {i, j}, i < j, sorted: 2 numbers per pair in *out (cleared
  // first). `candidates`, when not null, gets the number of pairs whose boxes
  // overlap (the narrow phase's work).
  bool pairs(std::vector<std::uint32_t>* out, SceneError* err, std::int64_t* candidates = nullptr);

  // The box of a live slot as the broad phase holds it after the last sync.
  const Aabb& box(int slot) const { return boxes_[static_cast<std::size_t>(slot)]; }
  WorldBroadphase broadphase() const { return broadphase_; }
  // A plane: no box; paired with every body.
  bool unbounded(int slot) const { return boxShape_[static_cast<std::size_t>(slot)].kind == BoxKind::Unbounded; }

 private:
  // How a slot's box is made from its pose (see the file comment).
  enum class BoxKind : std::uint8_t {
    Unbounded,  // a plane
    Cube,       // mesh, heightfield, compound: the seed's cube of radius `radius`
    Ball,       // point or sphere core: the centre ± radius
    Box,        // a box (or a capsule's segment, half (0, h, 0)) at the pose, grown by radius
    Support,    // any other convex shape: six support points, grown by radius
  };
  struct BoxShape {
    BoxKind kind = BoxKind::Support;
    Vec3 half;
    double radius = 0;  // the core radius (margin included); Cube: the bounding ball's
    double bound = 0;   // localBoundingRadius: the farthest a turn moves a point of the shape, per radian
  };
  static BoxShape classifyShape(const Shape& s);
  // The box of a shape of that kind at `pose` (s: the shape, read by Support only).
  static Aabb boxFrom(const BoxShape& kind, const Shape* s, const Transform& pose);
  void classify(int slot, const Shape& s);
  // Capacity for n slots in every per-slot array and the broad phase, at
  // once, after checking that the heap holds it (heap_room.h): the one
  // place a world's arrays grow with its bodies.
  bool reserveSlots(int n, SceneError* err);
  // The broad phase's copy of a slot's box: insert, move, remove.
  void track(int slot, bool inserted);
  void untrack(int slot);
  // Every live body's shape and pose checked, the poses into checked_ (in
  // order_'s order); false, naming the first bad one, changing nothing.
  bool readPoses(SceneError* err);
  // The query `kind` of a body (its pose into in[0..6]) with shape `other`
  // (in[7..]: its pose and the extra); an error names the body.
  bool queryBody(Kind kind, int slot, int other, double* in, double* out, SceneError* err);
  // False, naming the body, when its shape was disposed.
  bool liveShape(int slot, SceneError* err) const;
  void boxOf(int slot, const Transform& pose);
  Aabb boxAt(int slot, const Transform& pose) const;
  // The slot's box is now `box`: the broad phase is told only when it differs.
  void moveBox(int slot, const Aabb& box);
  bool candidatePairs(SceneError* err);

  Registry* registry_;
  WorldBroadphase broadphase_;
  // Per slot: the dynamic data (inverseMass 0: static).
  struct Dynamics {
    double mass = 0;
    double inverseMass = 0;
    Mat3 inverseInertiaLocal;
    Vec3 centerOfMassLocal;
    bool changed = false;  // setMass since the last step (the solver drops its warm start)
  };
  std::vector<Dynamics> dynamics_;
  std::vector<double> velocities_;  // 6 per slot
  Solver solver_;
  std::vector<RigidBody> rigid_;          // step(): the live bodies, in slot order
  std::vector<int> rigidSlot_;            // step(): rigid_[i]'s slot
  std::vector<int> indexOf_;              // step(): per slot, its index in rigid_
  std::vector<std::uint32_t> stepPairs_;  // step(): body index pairs for the solver
  std::vector<SolverContact> contacts_;   // the last step's, by slot (unless slotsAreIndices_)
  bool slotsAreIndices_ = false;          // the last step's bodies were slots 0, 1, …: contacts() is the solver's
  bool membershipChanged_ = true;         // a body came or went: the solver's bodies are renumbered
  bool massChanged_ = false;              // some body's Dynamics::changed is set
  std::vector<int> solverBody_;           // the id of each of the solver's bodies, as it numbers them
  std::vector<std::int32_t> renumber_;    // step(): the solver's body index → this step's, or −1
  SweepAndPrune sap_;
  AabbTree tree_;
  std::vector<IdPair> boxPairs_;  // the broad phase's pairs of the last candidatePairs()
  // boxPairs_ are the pairs of the broad phase's boxes but those of moved_
  // (each marked in movedMark_), which moved since (candidatePairs()).
  bool pairsKnown_ = false;
  std::vector<int> moved_;
  std::vector<int> movedMark_;                  // per slot: 1 when in moved_
  std::vector<std::uint64_t> freshPairs_;  // pairsOfMoved(): the moved boxes' pairs (pairKey)
  std::vector<IdPair> mergedPairs_;        // pairsOfMoved(): all of them
  // candidatePairs() with few boxes moved: boxPairs_ from the last and the moved boxes (false: too many).
  bool pairsOfMoved();
  std::vector<int> planes_;       // slots of the unbounded bodies
  std::vector<int> shape_;        // per slot: the shape handle, 0 when free
  std::vector<int> generation_;   // per slot: the live body's generation
  std::vector<double> poses_;     // 7 per slot
  std::vector<Aabb> boxes_;       // per slot, after the last sync
  std::vector<BoxShape> boxShape_;  // per slot
  std::vector<Transform> checked_;   // sync(): the poses of order_, checked and normalized
  std::vector<int> free_;
  int live_ = 0;
  // The live slots, in no order; orderAt_[slot] is a slot's place in it.
  std::vector<int> order_;
  std::vector<int> orderAt_;
  std::vector<std::uint64_t> candidates_;  // pairs of slots whose boxes overlap (pairKey)
};

// The scene format's "pairs" query: every pair of the scene's shapes that
// intersect, {"pairs": [[i, j], ...], "candidates": n}. Its trace is sap_view.h's.
bool runPairsScene(const Scene& scene, bool trace, std::string* json, SceneError* err);

// The scene format's "simulate" query: the scene's shapes in a World, its
// bodies dynamic (the rest static), `steps` steps of `dt` under `gravity`
// with the solver's defaults; the bodies' poses and velocities after them.
// Traced: {"query": "simulate", "frames": [SimulateFrame...], "every": k,
// "result"}.
bool runSimulateScene(const Scene& scene, bool trace, std::string* json, SceneError* err);

}  // namespace api
}  // namespace collidoscope
