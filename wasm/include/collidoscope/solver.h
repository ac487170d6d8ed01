// collidoscope — a rigid-body step over the contact manifolds (manifold.h):
// a demonstration of the contacts that must still behave.
// Native only so far; World will call it over its broad phase's pairs.
//
// One step (Solver::step) finds the contacts once, at the poses at the
// start of the step (1), then runs `substeps` substeps of h = dt/substeps
// (2–6) on them (Box2D v3's "soft step", E. Catto's Solver2D), for bodies in
// plain arrays and candidate pairs from the caller's broad phase:
//  1. Contacts: manifold() (meshManifold for a mesh) of every candidate pair
//     within settings.contactMargin — widened, with `continuous`, by the
//     pair's relative motion over the step (linear velocities and gravity's
//     increment; angular motion aside). Each point is fixed in both bodies
//     (its offsets from the centres of mass, in the bodies' axes); as the
//     substeps move the bodies its signed distance follows them,
//     s = s₀ + n·(Δp_B − Δp_A) with Δp the motion of the point on each body
//     since the step began (per manifold the normal is turned into each
//     body's axes once a substep, and each point's offsets dotted with it),
//     while the normal, tangents, lever arms and effective masses stay
//     those of the start. A point with a gap (s > 0)
//     is speculative: it allows the bodies to close that gap in a substep
//     and no more. A pair's manifold persists (Bullet's and Box2D's
//     persistent manifolds): while b has moved relative to a by at most
//     settings.manifoldReuse since its manifold was computed (|Δt| +
//     2 sin(θ/2)·r_b, the farthest any point of b can have gone in a's
//     frame), the last step's points are used again, each carried by its
//     body (its offset in each body's frame, the normal in a's axes or a static b's, the
//     distance re-measured along it), with their ids and, for the warm
//     start, each its own last impulses; a mesh or compound
//     pair is always computed anew. A resting pile's pairs move 0.1–0.5 mm
//     a step, so most are reused for a few steps; the contacts lag the
//     fresh ones by at most that tolerance (1 mm by default).
//  2. Velocities: v += g·h for every dynamic body (semi-implicit, or
//     symplectic, Euler: velocities first, positions from the new
//     velocities). ω is kept: no gyroscopic term, so a free body's angular
//     velocity — not its angular momentum — is conserved, exact for a
//     spherical inertia and a slow drift of the spin axis otherwise. The
//     closing speeds that restitution bounces are measured before this
//     increment: bouncing the incremented one would gain g·h per bounce.
//  3. Warm start: each point's accumulated impulses are applied first: in
//     the first substep last step's, when the same pair touches with the
//     same feature id (the manifold's ids persist while the same features
//     touch), found in an open-addressing table keyed by (body a, body b,
//     id); a point whose id is new takes those of the pair's last point
//     nearest it on body a within warmStartDistance (two aligned boxes'
//     corners coincide, and a tilt of 1e-5 rad renames a vertex an edge
//     crossing). The friction impulse is kept as a world vector between
//     steps and projected on the new tangent plane. Later substeps start
//     from the last substep's.
//  4. Sequential impulses (Catto, "Iterative Dynamics with Temporal
//     Coherence", GDC 2005; Box2D's solver): per point a friction
//     constraint |λ_t| ≤ μ λ_n on the tangent plane (two orthogonal
//     directions, clamped together as a 2-vector), then the normal
//     constraint v_n ≥ target, for velocityIterations rounds, the
//     accumulated impulse clamped (λ_n ≥ 0): a contact may take back what an
//     earlier round pushed too far but never pulls the bodies together. Odd
//     rounds run the points backwards (symmetric Gauss–Seidel), so no corner
//     of a face is always solved first. The normal target, from the
//     substep's s: −s/h for a gap (speculative, rigid); for an overlap
//     (s ≤ 0) a soft contact (Box2D v3's b2MakeSoft: a spring of
//     contactHertz and contactDampingRatio, implicit over h) pushing at
//     most contactPushSpeed; a closing speed above
//     restitutionThreshold that reaches contact within the substep bounces
//     back at restitution times it. The rounds read flat arrays: per body
//     its velocities and inverse mass (zero for a static or sleeping body,
//     so no branch); per manifold a patch — its bodies, normal and
//     tangents — whose bodies' velocities are read once and written once
//     for its points; per point one packed row — its masses, impulses, lever
//     arms r, and I⁻¹(r × d) for its three directions d, computed once per
//     step (I⁻¹ zero for a body that does not move). A point reads the
//     relative velocity once: the normal's v_n after the friction's impulse
//     is v_n + K_nt·Δλ_t, K_nt the coupling of the two (fixed per step), and
//     the two impulses are applied as one — the same sweep as solving the
//     normal on the velocities the friction left, without a second read.
//  5. Continuous collision: a body whose translation over the substep
//     exceeds ccdFraction of its bounding radius casts its shape
//     (gjkShapeCast; a plane in closed form; meshPairShapeCast for a mesh;
//     a compound piece by piece, the earliest of its children's casts)
//     along its motion relative to each partner of its candidate pairs, and
//     its translation stops at the earliest time of impact, backed off by
//     the slop. This catches what the step's contacts cannot: a body whose
//     velocity changed within the step (knocked by another) toward a
//     partner its margin did not reach; the next step's speculative contact
//     then stops it at the surface. Its velocity is kept (the contact
//     resolves it), and the rotation is not swept. The caller's pairs must
//     cover the swept motion (a broad phase of boxes enlarged by v·dt).
//  6. Positions: the centre of mass moves by v·h, the rotation by
//     q ← normalize(q + ½ (ω, 0) q h), and the pose (the shape's frame,
//     not the centre of mass) follows.
//
// Substeps. A 10-box stack (test_solver.cpp) drifts 8–14 cm sideways in 10 s
// with one step of 10 iterations; substeps converge faster for the work,
// since each starts from the last one's impulses and positions. With the
// contacts found once per step a substep costs only its impulse rounds, so
// the default is 4 substeps of 3 rounds and 1 relax round (step 7): 16
// rounds; the stack sinks 6.9 mm (the springs under its weight) and drifts
// 6.3 mm sideways, and the 1 000-box pile of bench/world.mjs sleeps at 3 s.
//  7. Relax (relaxIterations rounds after the positions): the same rounds
//     without the push, an overlap held at v_n ≥ 0 and a gap closing by at
//     most what is left of it (s + v_n·h), so the push's velocity does not
//     carry on as motion (Box2D v3's relax).
//
// Sleeping (settings.sleep, on by default; Box2D's and rapier's islands).
// After a step, a dynamic body whose speed |v| + r·|ω| (r its bounding
// radius) is at most sleepSpeed adds dt to its rest time, any other restarts
// it at 0. The bodies joined by the step's contact points (dynamic ones;
// static bodies join nothing) form islands, and an island whose every body
// has rested sleepTime seconds goes to sleep: velocities zeroed, and from
// then on left out of the substeps (no gravity, no impulses, no motion) and
// its pairs left out of the contacts (their points are kept as they were,
// for contacts() and the warm start on waking). A sleeping island wakes
// whole, before the step's contacts, when one of its bodies
//  - is in a candidate pair with an awake dynamic body, or with a static
//    body the caller moved since the last step (repeated until no more
//    wake, so a falling body wakes a pile through the pile),
//  - was given a velocity, made static, or moved (its position changed at
//    all, or its rotation by more than 1e-12 per component: the caller's
//    renormalisation is not a move),
// or, when a world adds or removes bodies (renumber()), if the island held
// a removed body or touched one; every body wakes on reset() or a step with
// sleep off. All of it is decided from the step's numbers alone, so
// it is as deterministic as the rest.
// What a sleeping island costs. Its pairs are not solved, and the cache
// table holds the ids of the solved pairs' points only (a sleeping pair
// looks up its first point, to carry its points on, which are copied once,
// run by run). A step with nobody awake runs no substep; when the step
// before it had nobody awake either and the pairs are the same, its
// contacts are those of that step as they stand (carrying each pair's
// points over would rebuild the same list in the same order), so a world
// all asleep costs the checks, the wake test and the rest times: O(n) with
// a small constant. Each skip gives the full step's numbers bit for bit
// (test_world: ASleepingPilesStepIsTheFullStepBitForBit).
//
// Shapes. A body points to its shape; the solver keeps one copy per body
// (made when the pointer changes, which allocates) and writes the body's
// pose into it for the queries, so the caller's shape is never modified
// and its pose ignored. A compound's pair has one manifold per pair of
// pieces in contact (compoundManifolds), whose points carry the pieces in
// their ids; a compound body, static or dynamic, takes its mass properties
// from mass.h. Planes and meshes may only be static.
//
// Memory: buffers (shape copies, constraints, cache table) grow to the
// largest step seen and are reused, so a step allocates nothing once warm
// with the same body count and no more contacts than before. Every loop is
// bounded by n, nPairs, 4 points per pair, substeps (≤ kSolverMaxSubsteps)
// and velocityIterations (≤ kSolverMaxIterations).
#pragma once

#include <cstdint>
#include <vector>

#include "collidoscope/manifold.h"
#include "collidoscope/mass.h"
#include "collidoscope/math.h"
#include "collidoscope/mesh_convex.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

constexpr int kSolverMaxIterations = 1000;
constexpr int kSolverMaxSubsteps = 64;
// Meshes' per-triangle contacts considered for one manifold (meshManifold's
// scratch).
constexpr int kSolverMeshContacts = 256;
// Manifolds of one compound pair (one per pair of pieces in contact): an L
// or a table resting on a floor has a few; beyond, the deepest are kept
// (compoundManifolds).
constexpr int kSolverCompoundManifolds = 64;

struct RigidBody {
  const Shape* shape = nullptr;  // geometry; its own pose is ignored (header: Shapes)
  Transform pose;                // of the shape's frame (what the user sees), world
  Vec3 velocity;                 // of the centre of mass, world (ignored for a static body)
  Vec3 angularVelocity;          // world
  double inverseMass = 0;        // 0: static, never moves
  Mat3 inverseInertiaLocal;      // about the centre of mass, local axes; zero for static
  Vec3 centerOfMassLocal;        // in the shape's frame
};

// A dynamic body of `density` (mass.h's massProperties) at `pose`, at rest.
// False with the status when the shape has no mass (plane, mesh, no volume)
// or the density is invalid.
bool makeDynamicBody(const Shape* shape, double density, const Transform& pose, RigidBody* out,
                     MassStatus* status = nullptr);
// A static body: inverse mass and inertia zero.
RigidBody makeStaticBody(const Shape* shape, const Transform& pose);

struct StepSettings {
  Vec3 gravity{0, -9.81, 0};
  double dt = 1.0 / 60;
  int substeps = 4;                 // 1 .. kSolverMaxSubsteps: steps 2–7 run this many times with
                                    // dt / substeps on one set of contacts (header: Substeps)
  int velocityIterations = 3;       // impulse rounds per substep, 1 .. kSolverMaxIterations
  int relaxIterations = 1;          // rounds without the push after the positions (header step 7),
                                    // 0 .. kSolverMaxIterations
  double friction = 0.5;            // μ, Coulomb, every pair; ≥ 0
  double restitution = 0;           // e in [0, 1]
  double restitutionThreshold = 1;  // closing speeds below this (m/s) do not bounce; ≥ 0
  double contactHertz = 60;         // Hz: the contacts' spring (header step 4); > 0
  double contactDampingRatio = 10;  // ζ of that spring; ≥ 0
  double contactPushSpeed = 1;      // m/s: the fastest the spring separates an overlap; > 0
  double slop = 0.005;              // m: a shape cast stops this short of the surface (header step 5); ≥ 0
  double contactMargin = 0.02;      // gap (m) within which speculative points are kept; ≥ 0
  bool warmStarting = true;
  double manifoldReuse = 0.001;     // m: a pair's last manifold is used again while b has moved relative
                                    // to a by at most this since it was computed (header step 1); 0: never
  double warmStartDistance = 0.01;  // m: a point whose feature id is new takes the impulses of last
                                    // step's nearest point of the pair within this (on body a); ≥ 0
  bool continuous = true;           // CCD for fast bodies (header step 5), widened speculative margin
  double ccdFraction = 0.5;         // fast: |v|·h > this × bounding radius (h = dt/substeps); > 0
  bool sleep = true;                // islands at rest go to sleep (header: Sleeping)
  double sleepSpeed = 0.1;          // m/s: |v| + r·|ω| at most this counts as rest; ≥ 0
  double sleepTime = 0.5;           // s: how long an island rests before it sleeps; ≥ 0
};

enum class SolverStatus {
  Ok,
  InvalidSettings,  // a setting out of its range (message names it)
  InvalidBody,      // a body's shape null, pose, velocity, mass or inertia not finite, mass negative
  StaticOnly,       // a plane or mesh body with inverseMass ≠ 0
  InvalidPair,      // a pair index outside [0, n), or a body paired with itself
  InvalidCount,     // n or nPairs negative, or a null array with a positive count
};

struct StepReport {
  SolverStatus status = SolverStatus::Ok;
  const char* message = "";  // what is wrong (the field), empty when Ok
  std::int64_t index = -1;   // the offending body or pair, −1 otherwise
  int manifolds = 0;         // pairs with at least one point
  int points = 0;            // contact points solved
  int warmStarted = 0;       // points that found last step's impulses
  int reusedManifolds = 0;   // pairs whose last manifold was used again (settings.manifoldReuse)
  int ccdClamped = 0;        // body motions stopped at a time of impact (all substeps)
  int sleeping = 0;          // dynamic bodies asleep after the step
};

// One contact point as the last step solved it (for the page).
struct SolverContact {
  std::int32_t a = -1, b = -1;  // body indices, the normal from a to b
  std::uint32_t id = 0;         // manifold feature id
  Vec3 pointA, pointB;          // world, at the start of the step
  Vec3 anchorA;                 // pointA in body a's shape frame (the warm start's match by position)
  Vec3 normal;                  // unit, from a to b
  double distance = 0;          // signed, negative = overlap
  double normalImpulse = 0;     // accumulated, N·s
  Vec3 frictionImpulse;         // accumulated, world, in the tangent plane
  bool warmStarted = false;
};

class Solver {
 public:
  // Advances the bodies by settings.dt (header). pairs holds 2·nPairs body
  // indices. On any status but Ok nothing is changed.
  SolverStatus step(RigidBody* bodies, int n, const std::uint32_t* pairs, std::int64_t nPairs,
                    const StepSettings& settings, StepReport* report);
  // The last step's contact points: the solved ones in pair order, with the
  // impulses of its last substep (h = dt/substeps), then the sleeping
  // pairs' as they were when their island fell asleep.
  const std::vector<SolverContact>& contacts() const { return contacts_; }
  // Forgets the warm-start cache and wakes every body.
  void reset();
  // The bodies were renumbered (a world added or removed some): body i of
  // the last step is body to[i] now, or gone when to[i] < 0 (oldCount
  // entries, newCount bodies now). The map must keep the order of the
  // bodies that stay, so that a pair keeps its (a < b) and its points stay
  // together. The warm-start cache, the shape copies and who sleeps carry
  // over for the bodies that stay; a sleeping island that touched a gone
  // body (or held one) wakes whole, and new bodies start awake.
  void renumber(const std::int32_t* to, std::size_t oldCount, std::size_t newCount);
  // Body `body`'s mass or inertia changed since the last step: the impulses
  // its pairs carry to the warm start were solved for the old ones (a body
  // made 10¹⁹ times lighter would be thrown by them), so they are dropped,
  // and its island wakes.
  void massChanged(std::int32_t body);

 private:
  // Step 1 (header) and the warm start's match, once per step.
  void collide(RigidBody* bodies, int n, const std::uint32_t* pairs, std::int64_t nPairs,
               const StepSettings& settings, StepReport* report);
  // The substeps' body state (Motion); collide() made the points' rows.
  void prepare(const RigidBody* bodies, int n);
  // Steps 2–6, on collide()'s points.
  void substep(RigidBody* bodies, int n, const std::uint32_t* pairs, std::int64_t nPairs,
               const StepSettings& settings, StepReport* report);
  // `count` rounds of sequential impulses over the points (header step 4).
  void rounds(int count, double friction);
  // The velocities and impulses back into the bodies and contacts_.
  void finish(RigidBody* bodies, int n);
  // Sleeping (header): wake() before the contacts, settle() after the step.
  void wake(const RigidBody* bodies, int n, const std::uint32_t* pairs, std::int64_t nPairs);
  void wakeIsland(std::int32_t body);
  void settle(RigidBody* bodies, int n, const StepSettings& settings, StepReport* report);
  bool awake(const RigidBody* bodies, std::int32_t i) const {
    return bodies[i].inverseMass > 0 && asleep_[static_cast<std::size_t>(i)] == 0;
  }

  // Per body, what the impulses touch: zero velocities and inverse mass
  // for a static (or sleeping) body, so that the loops need no branch. The
  // inertia is in the points' turns, so a body's row is 7 doubles.
  struct Motion {
    Vec3 velocity, angularVelocity;
    double inverseMass = 0;
  };

  // Per manifold, what its points share: the rounds read the bodies once
  // per patch, not per point (the points' order is unchanged).
  struct Patch {
    std::int32_t a = 0, b = 0;       // body indices
    std::uint32_t first = 0, count = 0;  // its points in points_
    Vec3 normal, tangent1, tangent2;
  };
  // Per point, what the impulse rounds read and write, packed together
  // (the rounds are the step's hot loop; the geometry is in Anchor).
  struct Point {
    double normalMass = 0, tangentMass1 = 0, tangentMass2 = 0;
    // The normal constraint of this pass: λ += (target − v_n)·pushMass − impulseScale·λ, with
    // pushMass = normalMass and impulseScale = 0 where it is rigid (header step 4).
    double target = 0, pushMass = 0, impulseScale = 0;
    // The change of v_n a unit impulse along tangent1, tangent2 makes (the
    // normal's row of K off its diagonal): the normal sees the friction's
    // impulse without the velocities being read again.
    double coupling1 = 0, coupling2 = 0;
    Vec3 rA, rB;  // from the centres of mass to the point, world (Anchor's)
    // Along d = normal, tangent1, tangent2: I⁻¹ (r × d), the angular
    // velocity a unit impulse along d gives.
    Vec3 turnA[3], turnB[3];
    double normalImpulse = 0, frictionImpulse1 = 0, frictionImpulse2 = 0;  // accumulated
  };
  // Per point, where it is: read once per substep for its separation.
  struct Anchor {
    Vec3 rA, rB;          // from the centres of mass to the point, world, at collide()
    Vec3 localA, localB;  // rA, rB in the bodies' axes: the point fixed in each body
    double base = 0;      // s₀ − n·(p_B₀ − p_A₀): s = base + n·(p_B − p_A) as they move
  };
  // Per point, what its pair's manifold reuse needs (parallel to contacts_).
  struct Frame {
    Vec3 localB;         // pointB in body b's shape frame
    Vec3 normal;         // the normal in body a's axes, or b's when only b is static (its face does not turn)
    bool inB;            // normal is in b's axes
    Transform relative;  // b's pose in a's shape frame when the manifold was computed
  };
  struct CacheEntry {
    std::uint64_t key = 0;  // (a, b) packed; 0 with index −1 = empty
    std::uint32_t id = 0;
    std::int32_t index = -1;  // into previous_
  };

  std::vector<Shape> shapes_;              // per body: the copy the queries pose
  std::vector<const Shape*> sources_;      // what each copy was made from
  std::vector<Mat3> inverseInertiaWorld_;  // per body, this step
  std::vector<Vec3> centres_;              // per body: centre of mass, world
  std::vector<double> radii_;              // per body: localBoundingRadius (CCD's "fast", sleep's speed)
  std::vector<SolverContact> contacts_;    // this step's (then last step's) points
  std::vector<SolverContact> previous_;    // last step's, for the cache
  std::vector<Frame> frames_;              // parallel to contacts_
  std::vector<Frame> previousFrames_;      // parallel to previous_
  std::vector<CacheEntry> table_;          // open addressing over previous_
  std::vector<Point> points_;              // parallel to contacts_
  std::vector<Patch> patches_;             // points_ by manifold, in order
  std::vector<Anchor> anchors_;            // parallel to contacts_
  std::vector<Vec3> centresNow_;           // per body: centre of mass, world, as a substep starts
  std::vector<Motion> motion_;             // per body, during the substeps
  std::vector<std::uint8_t> fast_;         // per body, this substep: its motion takes a shape cast
  std::vector<MeshContact> meshScratch_;
  // Sleeping, per body (sized n; all awake after reset()).
  std::vector<double> restTime_;            // s its speed has stayed at most sleepSpeed
  std::vector<std::uint8_t> asleep_;
  std::vector<std::int32_t> islandNext_;    // a sleeping island's bodies, a ring
  std::vector<Transform> restPose_;         // where a sleeping body was left; a static body's last pose
  std::vector<std::uint8_t> known_;         // a static body's restPose_ is from an earlier step
  std::vector<std::uint8_t> pushes_;        // wake(): a static body the caller moved
  std::vector<std::int32_t> islandOf_;      // settle(): union–find parents, then roots
  std::vector<double> islandRest_;          // settle(): per root, its bodies' least rest time
  std::vector<std::int32_t> islandHead_;    // settle(): per root, its ring's first body
  bool asleepPairs_ = false;                 // the last step had no awake body: contacts_ are carried points only
  std::vector<std::uint32_t> asleepPairsOf_;  // and these were its pairs
  struct Run {
    std::uint32_t first = 0, count = 0;  // points of previous_ (and previousFrames_)
  };
  std::vector<Run> carried_;                // collide(): the sleeping pairs' points, for finish()
  std::vector<Manifold> compoundScratch_;  // a compound pair's manifolds, one per pair of pieces
};

}  // namespace collidoscope
