#include "collidoscope/world.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "collidoscope/heap_room.h"
#include "collidoscope/json.h"
#include "collidoscope/mass.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/schema_json.h"
#include "collidoscope/support.h"

namespace collidoscope {
namespace api {

namespace {

constexpr int kSlotBits = 20;
constexpr int kSlotMask = (1 << kSlotBits) - 1;
static_assert(kSlotMask == kMaxBodies, "a body id carries its slot in kSlotBits bits");
constexpr int kMaxGeneration = (1 << (31 - kSlotBits)) - 1;
// A box from support points is exact up to the rounding of the rotation and
// the support (a few ulps of the coordinates); the broad phase must never
// drop a pair the narrow phase would call touching, so boxes are rounded
// out by this fraction of their coordinates' magnitude.
constexpr double kBoxPad = 1e-12;
// Slots of a world's first growth; then each growth doubles them.
constexpr int kFirstSlots = 16;
// Calls made per body or per scene, not per step or query: built for size
// (the default flavour's download) rather than speed, where the compiler can.
#if defined(__clang__)
#define COLLIDOSCOPE_RARE [[gnu::noinline, clang::minsize]]
#else
#define COLLIDOSCOPE_RARE [[gnu::noinline]]
#endif
// The broad phase is swept again when more than one box in this many moved
// since its pairs were found; fewer are each tested against every box (n
// tests apiece, against the sweep's few hundred nanoseconds per box).
constexpr int kMovedBoxesPerRescan = 16;

bool fail(SceneError* err, const std::string& field, const std::string& message) {
  *err = {"invalid-argument", field, message};
  return false;
}

std::string slotField(const char* name, int slot) { return std::string(name) + "[" + std::to_string(slot) + "]"; }

// readPose (api.h) for a world's argument: its errors are "invalid-argument".
bool readArgumentPose(const double* in, const char* name, std::int64_t index, Transform* out, SceneError* err) {
  if (readPose(in, name, index, out, err)) return true;
  if (err->code == "invalid-scene") err->code = "invalid-argument";
  return false;
}

// A pair of slots as one sortable number: the smaller slot in the high half.
std::uint64_t pairKey(int a, int b) {
  return (std::uint64_t{static_cast<std::uint32_t>(std::min(a, b))} << 32) | static_cast<std::uint32_t>(std::max(a, b));
}

}  // namespace

World::World(Registry* registry, WorldBroadphase broadphase) : registry_(registry), broadphase_(broadphase) {}
World::~World() = default;

int World::slotOf(int body) const {
  const int slot = (body & kSlotMask) - 1;
  if (body <= 0 || slot < 0 || slot >= slots() || shape_[static_cast<std::size_t>(slot)] == 0 ||
      generation_[static_cast<std::size_t>(slot)] != (body >> kSlotBits))
    return -1;
  return slot;
}

COLLIDOSCOPE_RARE int World::add(int shape, const double* pose, SceneError* err) {
  const Shape* s = registry_->find(shape);
  if (s == nullptr) {
    fail(err, "shape", "is disposed (or was never made): bodies need a live shape");
    return 0;
  }
  Transform checked;
  if (!readArgumentPose(pose, "pose", -1, &checked, err)) return 0;
  // A mesh body's OBB tree, built now (a level is added once) rather than
  // inside the first step or query that meets it.
  if (!prepareMeshTree(*s, "shape", err)) return 0;
  int slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else {
    if (slots() >= kMaxBodies) {
      fail(err, "", "too many bodies in one world (" + std::to_string(kMaxBodies) + "); remove some first");
      return 0;
    }
    // dynamics_ is full at the slots where the arrays that double fill up (reserveSlots).
    if (slots() == static_cast<int>(dynamics_.capacity()) && !reserveSlots(std::min(std::max(2 * slots(), kFirstSlots), kMaxBodies), err))
      return 0;
    slot = slots();
    shape_.push_back(0);
    generation_.push_back(0);
    poses_.resize(poses_.size() + kPoseSize);
    boxes_.emplace_back();
    boxShape_.emplace_back();
    orderAt_.push_back(-1);
    movedMark_.push_back(0);
    dynamics_.emplace_back();
    velocities_.resize(velocities_.size() + 6);
  }
  const std::size_t k = static_cast<std::size_t>(slot);
  shape_[k] = shape;
  generation_[k] = generation_[k] % kMaxGeneration + 1;
  std::copy(pose, pose + kPoseSize, poses_.begin() + static_cast<std::ptrdiff_t>(k * kPoseSize));
  classify(slot, *s);
  dynamics_[k] = Dynamics{};
  std::fill(velocities_.begin() + static_cast<std::ptrdiff_t>(6 * k), velocities_.begin() + static_cast<std::ptrdiff_t>(6 * k + 6), 0.0);
  membershipChanged_ = true;
  boxOf(slot, checked);
  orderAt_[k] = static_cast<int>(order_.size());
  order_.push_back(slot);
  track(slot, false);
  ++live_;
  return (generation_[k] << kSlotBits) | (slot + 1);
}

COLLIDOSCOPE_RARE bool World::reserveSlots(int n, SceneError* err) {
  // Every array kept per slot (step()'s included), and the broad phase's per body: the sweep's presence flag, box,
  // two endpoints and two active-list ints; the tree's two nodes, leaf index, box and moved flag.
  constexpr double kSlotBytes =
      4 * sizeof(int) + sizeof(int) + kPoseSize * sizeof(double) + sizeof(Aabb) + sizeof(BoxShape) + sizeof(Dynamics) +
      6 * sizeof(double) + sizeof(Transform) + sizeof(RigidBody) + 2 * sizeof(int) + sizeof(int) + 2 * sizeof(int);
  constexpr double kBroadphaseBytes = std::max(1 + sizeof(Aabb) + 2 * 2 * sizeof(double) + 2 * sizeof(int),
                                               2 * sizeof(AabbTreeNode) + sizeof(int) + sizeof(Aabb) + 1);
  // The old blocks are freed only once their contents are copied.
  const double bytes = static_cast<double>(n + slots()) * (kSlotBytes + kBroadphaseBytes);
  if (!heapHasRoom(bytes, err, "", "room for ", n, " bodies in the world")) return false;
  const std::size_t k = static_cast<std::size_t>(n);
  // poses_, velocities_, boxShape_ and dynamics_ are left to grow by doubling: add() pushes onto each once per new
  // slot, so they fill up together, and add() calls this whenever they are full (old and new blocks are in `bytes`).
  // The others grow elsewhere (remove, sync, step) or share an element type with an array that must be reserved.
  for (std::vector<int>* v : {&shape_, &generation_, &order_, &orderAt_, &free_, &planes_, &rigidSlot_, &indexOf_, &moved_, &movedMark_})
    reserveExactly(*v, k);
  reserveExactly(boxes_, k);
  reserveExactly(checked_, k);
  reserveExactly(rigid_, k);
  if (broadphase_ == WorldBroadphase::SweepAndPrune) sap_.reserve(n);
  else tree_.reserve(n);
  return true;
}

COLLIDOSCOPE_RARE bool World::remove(int body, SceneError* err) {
  const int slot = slotOf(body);
  if (slot < 0) return fail(err, "body", "is not in this world (removed already, or never added)");
  untrack(slot);
  shape_[static_cast<std::size_t>(slot)] = 0;
  const int at = orderAt_[static_cast<std::size_t>(slot)];
  order_[static_cast<std::size_t>(at)] = order_.back();
  orderAt_[static_cast<std::size_t>(order_.back())] = at;
  order_.pop_back();
  orderAt_[static_cast<std::size_t>(slot)] = -1;
  free_.push_back(slot);
  membershipChanged_ = true;
  --live_;
  return true;
}

bool World::liveShape(int slot, SceneError* err) const {
  if (registry_->find(shape_[static_cast<std::size_t>(slot)]) != nullptr) return true;
  return fail(err, slotField("bodies", slot) + ".shape", "was disposed while the body was in the world");
}

bool World::setPose(int body, const double* pose, SceneError* err) {
  const int slot = slotOf(body);
  if (slot < 0) return fail(err, "body", "is not in this world (removed already, or never added)");
  if (!liveShape(slot, err)) return false;
  Transform checked;
  if (!readArgumentPose(pose, "pose", -1, &checked, err)) return false;
  std::copy(pose, pose + kPoseSize, poses_.begin() + static_cast<std::ptrdiff_t>(slot) * kPoseSize);
  boxOf(slot, checked);
  track(slot, true);
  return true;
}

void World::track(int slot, bool inserted) {
  // (A plane is not in the broad phase: its pairs are made anew each time.)
  if (unbounded(slot)) {
    if (!inserted) planes_.push_back(slot);
    return;
  }
  const std::size_t k = static_cast<std::size_t>(slot);
  if (!inserted) {
    pairsKnown_ = false;
  } else if (pairsKnown_ && movedMark_[k] == 0) {
    // Few moved boxes are tested against every box (candidatePairs); beyond
    // that many, a sweep of them all is cheaper.
    if (moved_.size() >= static_cast<std::size_t>(live_ / kMovedBoxesPerRescan)) {
      pairsKnown_ = false;
    } else {
      movedMark_[k] = 1;
      moved_.push_back(slot);
    }
  }
  const Aabb& b = boxes_[k];
  if (broadphase_ == WorldBroadphase::SweepAndPrune) {
    if (inserted) sap_.update(slot, b);
    else sap_.insert(slot, b);
  } else {
    if (inserted) tree_.update(slot, b);
    else tree_.insert(slot, b);
  }
}

void World::untrack(int slot) {
  if (unbounded(slot)) {
    planes_.erase(std::find(planes_.begin(), planes_.end(), slot));
    return;
  }
  pairsKnown_ = false;
  if (broadphase_ == WorldBroadphase::SweepAndPrune) {
    sap_.remove(slot);
  } else {
    tree_.remove(slot);
  }
}

World::BoxShape World::classifyShape(const Shape& s) {
  BoxShape b;
  b.radius = coreRadius(s);
  b.bound = localBoundingRadius(s);
  if (s.type == ShapeType::Plane) {
    b.kind = BoxKind::Unbounded;
  } else if (s.type == ShapeType::Mesh || s.type == ShapeType::Compound) {
    b.kind = BoxKind::Cube;
    b.radius = b.bound;
  } else if (!isUnscaled(s)) {
    b.kind = BoxKind::Support;
  } else if (s.type == ShapeType::Point || s.type == ShapeType::Sphere) {
    b.kind = BoxKind::Ball;
  } else if (s.type == ShapeType::Box) {
    b.kind = BoxKind::Box;
    b.half = s.halfExtents;
  } else if (s.type == ShapeType::Capsule) {
    b.kind = BoxKind::Box;  // a segment along local y: a box of half-extents (0, halfHeight, 0)
    b.half = {0, s.halfHeight, 0};
  } else {
    b.kind = BoxKind::Support;
  }
  return b;
}

void World::classify(int slot, const Shape& s) { boxShape_[static_cast<std::size_t>(slot)] = classifyShape(s); }

void World::boxOf(int slot, const Transform& pose) {
  const std::size_t k = static_cast<std::size_t>(slot);
  boxes_[k] = boxAt(slot, pose);
}

Aabb World::boxAt(int slot, const Transform& pose) const {
  const std::size_t k = static_cast<std::size_t>(slot);
  const BoxShape& shape = boxShape_[k];
  return boxFrom(shape, shape.kind == BoxKind::Support ? registry_->find(shape_[k]) : nullptr, pose);
}

void World::moveBox(int slot, const Aabb& box) {
  Aabb& held = boxes_[static_cast<std::size_t>(slot)];
  // Bit for bit the box the broad phase holds: its pairs stand (a sleeping
  // or static body's box, step after step).
  if (box.min == held.min && box.max == held.max) return;
  held = box;
  track(slot, true);
}

Aabb World::boxFrom(const BoxShape& shape, const Shape* s, const Transform& pose) {
  Aabb b;
  const double r = shape.radius;
  switch (shape.kind) {
    case BoxKind::Unbounded:
      b.min = b.max = pose.position;
      return b;
    case BoxKind::Cube:  // the seed's cube: the ball about the shape's origin, in any rotation
    case BoxKind::Ball:
      b.min = pose.position - Vec3{r, r, r};
      b.max = pose.position + Vec3{r, r, r};
      break;
    case BoxKind::Box: {
      // The box's axes in the world, scaled by its half-extents: its extent
      // along world axis i is Σ_j |R_ij|·h_j (the support along ±e_i).
      const Vec3 a = rotate(pose.rotation, Vec3{shape.half.x, 0, 0});
      const Vec3 c = rotate(pose.rotation, Vec3{0, shape.half.y, 0});
      const Vec3 d = rotate(pose.rotation, Vec3{0, 0, shape.half.z});
      const Vec3 e{std::fabs(a.x) + std::fabs(c.x) + std::fabs(d.x) + r,
                   std::fabs(a.y) + std::fabs(c.y) + std::fabs(d.y) + r,
                   std::fabs(a.z) + std::fabs(c.z) + std::fabs(d.z) + r};
      b.min = pose.position - e;
      b.max = pose.position + e;
      break;
    }
    case BoxKind::Support: {
      const auto extreme = [&](const Vec3& d) { return pose.apply(localCoreSupport(*s, pose.toLocalDirection(d))); };
      const Vec3 xHi = extreme({1, 0, 0}), yHi = extreme({0, 1, 0}), zHi = extreme({0, 0, 1});
      const Vec3 xLo = extreme({-1, 0, 0}), yLo = extreme({0, -1, 0}), zLo = extreme({0, 0, -1});
      b.min = Vec3{xLo.x, yLo.y, zLo.z} - Vec3{r, r, r};
      b.max = Vec3{xHi.x, yHi.y, zHi.z} + Vec3{r, r, r};
      break;
    }
  }
  // One pad on every axis, from the box's largest coordinate: intersect()
  // calls shapes touching within a fraction of the pair's scale, not of each
  // axis's own coordinates (two points 2.4e-119 apart along z at z ≈ 3e-115
  // and x, y = −2 touch; a pad from |z| alone kept their boxes apart, found
  // by fuzz_world).
  const double m = std::fabs(b.min.x) + std::fabs(b.max.x);
  const double pad =
      std::fmax(m, std::fmax(std::fabs(b.min.y) + std::fabs(b.max.y), std::fabs(b.min.z) + std::fabs(b.max.z))) *
      kBoxPad;
  b.min = b.min - Vec3{pad, pad, pad};
  b.max = b.max + Vec3{pad, pad, pad};
  return b;
}

bool World::readPoses(SceneError* err) {
  for (int slot : order_)
    if (!liveShape(slot, err)) return false;
  checked_.resize(order_.size());
  for (std::size_t i = 0; i < order_.size(); ++i) {
    const int slot = order_[i];
    if (!readArgumentPose(poses_.data() + static_cast<std::ptrdiff_t>(slot) * kPoseSize, "poses", slot, &checked_[i], err))
      return false;
  }
  return true;
}

bool World::sync(SceneError* err) {
  // Check every body before moving any box: an error changes nothing.
  if (!readPoses(err)) return false;
  for (std::size_t i = 0; i < order_.size(); ++i) moveBox(order_[i], boxAt(order_[i], checked_[i]));
  return true;
}

bool World::candidatePairs(SceneError* err) {
  candidates_.clear();
  // The broad phase's pairs are those of its boxes alone (sorted, whatever
  // its history): while no box has moved since they were found, they stand
  // — a world asleep, or queried twice, sweeps nothing — and when a few
  // have, the pairs of two that did not stand, and the few are tested
  // against every box (a pile mostly asleep).
  bool all = true;
  if (!pairsKnown_) {
    all = broadphase_ == WorldBroadphase::SweepAndPrune ? sap_.pairs(&boxPairs_, kMaxWorldPairs)
                                                        : tree_.pairs(&boxPairs_, kMaxWorldPairs);
    pairsKnown_ = all;
  } else if (!moved_.empty()) {
    all = pairsOfMoved();
    pairsKnown_ = all;
  }
  for (int i : moved_) movedMark_[static_cast<std::size_t>(i)] = 0;
  moved_.clear();
  const std::int64_t withPlanes = static_cast<std::int64_t>(boxPairs_.size()) +
                                  static_cast<std::int64_t>(planes_.size()) * static_cast<std::int64_t>(order_.size());
  if (!all || withPlanes > kMaxWorldPairs)
    return fail(err, "bodies", "more than " + std::to_string(kMaxWorldPairs) +
                                   " pairs of bodies have overlapping boxes: the world is too crowded to list them");
  for (const IdPair& p : boxPairs_) candidates_.push_back(pairKey(p.a, p.b));
  // A plane meets every other body (two planes too: the narrow phase decides).
  for (int p : planes_)
    for (int o : order_)
      if (o != p && (!unbounded(o) || p < o)) candidates_.push_back(pairKey(p, o));
  // Sorted, so that the answer does not depend on the broad phase's order.
  if (!planes_.empty()) std::sort(candidates_.begin(), candidates_.end());
  return true;
}

// Runs when a few bodies moved among many still ones (a pile mostly asleep):
// built for size too, with the sort the candidates already use.
COLLIDOSCOPE_RARE bool World::pairsOfMoved() {
  std::size_t kept = 0;
  for (const IdPair& p : boxPairs_)
    if (movedMark_[static_cast<std::size_t>(p.a)] == 0 && movedMark_[static_cast<std::size_t>(p.b)] == 0) boxPairs_[kept++] = p;
  boxPairs_.resize(kept);
  freshPairs_.clear();
  for (int i : moved_) {
    const Aabb& a = boxes_[static_cast<std::size_t>(i)];
    for (int j : order_) {
      // A pair of two moved boxes once, from the smaller slot.
      if (j == i || unbounded(j) || (movedMark_[static_cast<std::size_t>(j)] != 0 && j < i)) continue;
      const Aabb& b = boxes_[static_cast<std::size_t>(j)];
      // Closed boxes, as the broad phase's: touching counts.
      if ((a.min.x <= b.max.x) & (b.min.x <= a.max.x) & (a.min.y <= b.max.y) & (b.min.y <= a.max.y) &
          (a.min.z <= b.max.z) & (b.min.z <= a.max.z))
        freshPairs_.push_back(pairKey(i, j));
    }
  }
  if (static_cast<std::int64_t>(kept + freshPairs_.size()) > kMaxWorldPairs) return false;
  // (pairKey orders as IdPair does: the smaller slot, then the larger.)
  std::sort(freshPairs_.begin(), freshPairs_.end());
  mergedPairs_.clear();
  std::size_t f = 0;
  for (const IdPair& p : boxPairs_) {
    for (; f < freshPairs_.size() && freshPairs_[f] < pairKey(p.a, p.b); ++f)
      mergedPairs_.push_back({static_cast<int>(freshPairs_[f] >> 32), static_cast<int>(freshPairs_[f] & 0xffffffffu)});
    mergedPairs_.push_back(p);
  }
  for (; f < freshPairs_.size(); ++f)
    mergedPairs_.push_back({static_cast<int>(freshPairs_[f] >> 32), static_cast<int>(freshPairs_[f] & 0xffffffffu)});
  std::swap(boxPairs_, mergedPairs_);
  return true;
}

bool World::pairs(std::vector<std::uint32_t>* out, SceneError* err, std::int64_t* candidates) {
  out->clear();
  if (!sync(err)) return false;
  if (!candidatePairs(err)) return false;
  if (candidates != nullptr) *candidates = static_cast<std::int64_t>(candidates_.size());
  double in[kInputSize] = {};
  double result[kMaxResultStride];
  for (std::uint64_t key : candidates_) {
    const std::uint32_t a = static_cast<std::uint32_t>(key >> 32), b = static_cast<std::uint32_t>(key);
    std::copy(poses_.begin() + static_cast<std::ptrdiff_t>(a) * kPoseSize,
              poses_.begin() + static_cast<std::ptrdiff_t>(a + 1) * kPoseSize, in);
    std::copy(poses_.begin() + static_cast<std::ptrdiff_t>(b) * kPoseSize,
              poses_.begin() + static_cast<std::ptrdiff_t>(b + 1) * kPoseSize, in + kPoseSize);
    if (!registry_->query(Kind::Intersect, shape_[a], shape_[b], in, nullptr, result, err)) {
      err->field = "bodies[" + std::to_string(a) + "], bodies[" + std::to_string(b) + "]: " + err->field;
      return false;
    }
    if (result[0] != 0) {
      out->push_back(a);
      out->push_back(b);
    }
  }
  return true;
}

COLLIDOSCOPE_RARE bool World::setMass(int body, double mass, SceneError* err) {
  const int slot = slotOf(body);
  if (slot < 0) return fail(err, "body", "is not in this world (removed already, or never added)");
  if (!liveShape(slot, err)) return false;
  if (!std::isfinite(mass)) return fail(err, "mass", "must be a finite number (0: static)");
  Dynamics& d = dynamics_[static_cast<std::size_t>(slot)];
  if (mass == 0) {
    d = Dynamics{};
    d.changed = massChanged_ = true;
    return true;
  }
  const Shape& s = *registry_->find(shape_[static_cast<std::size_t>(slot)]);
  MassProperties unit;
  if (!massProperties(s, 1.0, &unit) || !(unit.mass > 0)) {
    const bool staticType = s.type == ShapeType::Plane || s.type == ShapeType::Mesh;
    return fail(err, "mass", std::string("must be 0: a ") + shapeTypeName(s.type) +
                                 (staticType ? " can only be static" : " has no volume to give it inertia") + " (" +
                                 massStatusMessage(unit.status) + ")");
  }
  if (mass < 0 && mass != kMassOfVolume) return fail(err, "mass", "must not be negative (0: static)");
  const double m = mass < 0 ? unit.mass : mass;
  Mat3 inverse;
  if (!invert(unit.inertia * (m / unit.mass), &inverse) || !inverse.finite())
    return fail(err, "mass", "gives an inertia that cannot be inverted (the shape is too thin to turn)");
  d.mass = m;
  d.inverseMass = 1 / m;
  d.inverseInertiaLocal = inverse;
  d.centerOfMassLocal = unit.centerOfMass;
  d.changed = massChanged_ = true;
  return true;
}

double World::mass(int body) const {
  const int slot = slotOf(body);
  return slot < 0 ? 0 : dynamics_[static_cast<std::size_t>(slot)].mass;
}

bool World::step(const StepSettings& settings, SceneError* err, StepReport* stats) {
  // What the broad phase reads of the settings (the solver checks the rest).
  if (!(settings.dt > 0) || !(settings.dt <= 1e6)) return fail(err, "settings.dt", "must be a positive number of seconds (at most 1e6)");
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(settings.gravity[k]) || std::fabs(settings.gravity[k]) > kMaxMagnitude)
      return fail(err, "settings.gravity[" + std::to_string(k) + "]", "must be a finite number of at most 1e15 in magnitude");
  if (!(settings.contactMargin >= 0) || !(settings.contactMargin <= kMaxMagnitude))
    return fail(err, "settings.contactMargin", "must be a number from 0 to 1e15");
  // The poses and velocities, all checked before anything moves.
  if (!readPoses(err)) return false;
  for (std::size_t i = 0; i < order_.size(); ++i) {
    const int slot = order_[i];
    if (dynamics_[static_cast<std::size_t>(slot)].inverseMass == 0) continue;
    const double* v = velocities_.data() + 6 * static_cast<std::ptrdiff_t>(slot);
    for (int k = 0; k < 6; ++k)
      if (!std::isfinite(v[k]) || std::fabs(v[k]) > kMaxMagnitude)
        return fail(err, "velocities[" + std::to_string(slot) + "][" + std::to_string(k) + "]",
                    "must be a finite number of at most 1e15 in magnitude");
  }
  // The bodies in slot order (so that the solver's warm-start cache, keyed by
  // body index, keeps its meaning while nobody comes or goes, and is
  // renumbered in order when somebody does: below).
  rigid_.clear();
  rigidSlot_.clear();
  indexOf_.assign(shape_.size(), -1);
  for (int slot = 0; slot < slots(); ++slot) {
    const std::size_t k = static_cast<std::size_t>(slot);
    if (shape_[k] == 0) continue;
    const Dynamics& d = dynamics_[k];
    RigidBody b;
    b.shape = registry_->find(shape_[k]);
    b.pose = checked_[static_cast<std::size_t>(orderAt_[k])];
    if (d.inverseMass > 0) {
      const double* v = velocities_.data() + 6 * slot;
      b.velocity = {v[0], v[1], v[2]};
      b.angularVelocity = {v[3], v[4], v[5]};
      b.inverseMass = d.inverseMass;
      b.inverseInertiaLocal = d.inverseInertiaLocal;
      b.centerOfMassLocal = d.centerOfMassLocal;
    }
    indexOf_[k] = static_cast<int>(rigid_.size());
    rigid_.push_back(b);
    rigidSlot_.push_back(slot);
  }
  // Broad phase on boxes grown by the step's motion, so that the pairs cover
  // where a body may go (the solver's shape casts need the pairs a fast body
  // would reach): its velocity and gravity's over dt, its turn (an arc of at
  // most |ω|·dt times its bounding radius), and the solver's contact margin.
  for (std::size_t i = 0; i < order_.size(); ++i) {
    const int slot = order_[i];
    Aabb b = boxAt(slot, checked_[i]);
    const Dynamics& d = dynamics_[static_cast<std::size_t>(slot)];
    if (d.inverseMass > 0 && !unbounded(slot)) {
      const double* v = velocities_.data() + 6 * slot;
      const double dt = settings.dt;
      const Vec3 move{v[0] * dt + 0.5 * settings.gravity.x * dt * dt, v[1] * dt + 0.5 * settings.gravity.y * dt * dt,
                      v[2] * dt + 0.5 * settings.gravity.z * dt * dt};
      const double w = std::sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
      const double turn = std::fmin(w * dt, 2.0) * boxShape_[static_cast<std::size_t>(slot)].bound + settings.contactMargin;
      b.min = b.min + Vec3{std::fmin(move.x, 0.0), std::fmin(move.y, 0.0), std::fmin(move.z, 0.0)} - Vec3{turn, turn, turn};
      b.max = b.max + Vec3{std::fmax(move.x, 0.0), std::fmax(move.y, 0.0), std::fmax(move.z, 0.0)} + Vec3{turn, turn, turn};
    }
    moveBox(slot, b);
  }
  if (!candidatePairs(err)) return false;
  // Pairs with a dynamic body, as body indices; static pairs never meet.
  stepPairs_.clear();
  for (std::uint64_t key : candidates_) {
    const int a = static_cast<int>(key >> 32), b = static_cast<int>(key & 0xffffffffu);
    if (dynamics_[static_cast<std::size_t>(a)].inverseMass == 0 && dynamics_[static_cast<std::size_t>(b)].inverseMass == 0)
      continue;
    stepPairs_.push_back(static_cast<std::uint32_t>(indexOf_[static_cast<std::size_t>(a)]));
    stepPairs_.push_back(static_cast<std::uint32_t>(indexOf_[static_cast<std::size_t>(b)]));
  }
  if (membershipChanged_) {
    // The solver's bodies that stay (their ids still name a body: its slot
    // was not emptied, or was filled again by a body of another generation).
    renumber_.resize(solverBody_.size());
    for (std::size_t i = 0; i < solverBody_.size(); ++i) {
      const int slot = slotOf(solverBody_[i]);
      renumber_[i] = slot < 0 ? -1 : indexOf_[static_cast<std::size_t>(slot)];
    }
    solver_.renumber(renumber_.data(), renumber_.size(), rigid_.size());
    solverBody_.resize(rigidSlot_.size());
    for (std::size_t i = 0; i < rigidSlot_.size(); ++i)
      solverBody_[i] = (generation_[static_cast<std::size_t>(rigidSlot_[i])] << kSlotBits) | (rigidSlot_[i] + 1);
  }
  membershipChanged_ = false;
  if (massChanged_) {
    for (int slot = 0; slot < slots(); ++slot) {
      Dynamics& d = dynamics_[static_cast<std::size_t>(slot)];
      if (!d.changed) continue;
      d.changed = false;
      const int index = indexOf_[static_cast<std::size_t>(slot)];
      if (index >= 0) solver_.massChanged(index);
    }
    massChanged_ = false;
  }
  StepReport report;
  const SolverStatus status = solver_.step(rigid_.data(), static_cast<int>(rigid_.size()), stepPairs_.data(),
                                           static_cast<std::int64_t>(stepPairs_.size() / 2), settings, &report);
  if (stats != nullptr) *stats = report;
  if (status != SolverStatus::Ok) {
    std::string field = "settings";
    if (report.index >= 0 && (status == SolverStatus::InvalidBody || status == SolverStatus::StaticOnly))
      field = "bodies[" + std::to_string(rigidSlot_[static_cast<std::size_t>(report.index)]) + "]";
    *err = {"invalid-argument", field, report.message};
    return false;
  }
  // Write back the moved bodies, and the contacts by slot.
  for (std::size_t i = 0; i < rigid_.size(); ++i) {
    const RigidBody& b = rigid_[i];
    if (b.inverseMass == 0) continue;
    const std::size_t slot = static_cast<std::size_t>(rigidSlot_[i]);
    double* p = poses_.data() + kPoseSize * slot;
    p[0] = b.pose.position.x;
    p[1] = b.pose.position.y;
    p[2] = b.pose.position.z;
    p[3] = b.pose.rotation.x;
    p[4] = b.pose.rotation.y;
    p[5] = b.pose.rotation.z;
    p[6] = b.pose.rotation.w;
    double* v = velocities_.data() + 6 * slot;
    v[0] = b.velocity.x;
    v[1] = b.velocity.y;
    v[2] = b.velocity.z;
    v[3] = b.angularVelocity.x;
    v[4] = b.angularVelocity.y;
    v[5] = b.angularVelocity.z;
  }
  // The solver names bodies by index, which is the slot while no slot below
  // the last body is empty (the slots rise from 0): its contacts then serve
  // as they are, without a copy.
  slotsAreIndices_ = rigidSlot_.empty() || rigidSlot_.back() == static_cast<int>(rigidSlot_.size()) - 1;
  if (slotsAreIndices_) return true;
  contacts_ = solver_.contacts();
  for (SolverContact& c : contacts_) {
    c.a = rigidSlot_[static_cast<std::size_t>(c.a)];
    c.b = rigidSlot_[static_cast<std::size_t>(c.b)];
  }
  return true;
}

namespace {

// The parameters t in [0, maxT] at which origin + t·dir is inside the closed
// box grown by `pad`: [enter, exit], false when empty. A direction
// component of 0 keeps the ray in its slab or out of it.
bool slabs(const Vec3& origin, const Vec3& dir, double maxT, const Aabb& box, double pad, double* enter) {
  const Aabb b{box.min - Vec3{pad, pad, pad}, box.max + Vec3{pad, pad, pad}};
  double lo = 0, hi = maxT;
  for (int a = 0; a < 3; ++a) {
    if (dir[a] == 0) {
      if (origin[a] < b.min[a] || origin[a] > b.max[a]) return false;
      continue;
    }
    double t0 = (b.min[a] - origin[a]) / dir[a], t1 = (b.max[a] - origin[a]) / dir[a];
    if (t0 > t1) std::swap(t0, t1);
    lo = std::fmax(lo, t0);
    hi = std::fmin(hi, t1);
    if (lo > hi) return false;
  }
  *enter = lo;
  return true;
}

bool finiteVec(const double* v, int n) {
  for (int i = 0; i < n; ++i)
    if (!std::isfinite(v[i]) || std::fabs(v[i]) > kMaxMagnitude) return false;
  return true;
}

}  // namespace

bool World::queryBody(Kind kind, int slot, int other, double* in, double* out, SceneError* err) {
  std::copy(poses_.begin() + static_cast<std::ptrdiff_t>(slot) * kPoseSize,
            poses_.begin() + static_cast<std::ptrdiff_t>(slot + 1) * kPoseSize, in);
  if (registry_->query(kind, shape_[static_cast<std::size_t>(slot)], other, in, nullptr, out, err)) return true;
  err->field = slotField("bodies", slot) + ": " + err->field;
  return false;
}

bool World::raycast(const double* ray, bool all, std::vector<WorldHit>* hits, SceneError* err) {
  hits->clear();
  for (int i = 0; i < 6; ++i)
    if (!finiteVec(ray + i, 1))
      return fail(err, std::string(i < 3 ? "ray.origin[" : "ray.direction[") + std::to_string(i % 3) + "]",
                  "must be a finite number of at most 1e15 in magnitude");
  if (ray[3] == 0 && ray[4] == 0 && ray[5] == 0) return fail(err, "ray.direction", "must not be the zero vector");
  if (!(ray[6] >= 0) || !std::isfinite(ray[6])) return fail(err, "ray.maxT", "must be a finite number ≥ 0");
  if (!sync(err)) return false;
  const Vec3 origin{ray[0], ray[1], ray[2]}, dir{ray[3], ray[4], ray[5]};
  double in[kInputSize] = {};
  std::copy(ray, ray + 7, in + 2 * kPoseSize);
  double r[kMaxResultStride];
  WorldHit best;
  double maxT = ray[6];
  // Every live body whose box the ray meets before maxT (before the nearest
  // hit so far, for the closest), then the body's own ray cast.
  // The body's ray cast reports a hit within its tolerance of the surface
  // (raycast.h: at most about the tolerance times the largest coordinate it
  // sees, the ray's origin included), so a box is grown by that much before
  // it may rule a body out.
  const double tolerance = 4 * std::fmax(registry_->tolerance(), kRoundingBound);
  for (int slot : order_) {
    double enter = 0;
    const Aabb& box = boxes_[static_cast<std::size_t>(slot)];
    const double pad = tolerance * std::fmax(maxAbs(origin), std::fmax(maxAbs(box.min), maxAbs(box.max)));
    if (!unbounded(slot) && !slabs(origin, dir, maxT, box, pad, &enter)) continue;
    in[2 * kPoseSize + 6] = maxT;
    if (!queryBody(Kind::Raycast, slot, 0, in, r, err)) return false;
    if (r[0] == 0) continue;
    const WorldHit h{slot, r[1], {r[2], r[3], r[4]}, {r[5], r[6], r[7]}, r[8] != 0, {}};
    if (all) {
      hits->push_back(h);
    } else if (best.slot < 0 || h.t < best.t || (h.t == best.t && h.slot < best.slot)) {
      best = h;
      maxT = h.t;
    }
  }
  if (all) {
    std::sort(hits->begin(), hits->end(),
              [](const WorldHit& a, const WorldHit& b) { return a.t < b.t || (a.t == b.t && a.slot < b.slot); });
  } else if (best.slot >= 0) {
    hits->push_back(best);
  }
  return true;
}

bool World::overlap(int shape, const double* pose, std::vector<int>* out, SceneError* err) {
  out->clear();
  const Shape* s = registry_->find(shape);
  if (s == nullptr) return fail(err, "shape", "is disposed (or was never made)");
  Transform checked;
  if (!readArgumentPose(pose, "pose", -1, &checked, err)) return false;
  if (!sync(err)) return false;
  const BoxShape kind = classifyShape(*s);
  const Aabb box = boxFrom(kind, s, checked);
  double in[kInputSize] = {};
  std::copy(pose, pose + kPoseSize, in + kPoseSize);
  double r[kMaxResultStride];
  for (int slot : order_) {
    const bool candidate = kind.kind == BoxKind::Unbounded || unbounded(slot) ||
                           overlaps(box, boxes_[static_cast<std::size_t>(slot)]);
    if (!candidate) continue;
    if (!queryBody(Kind::Intersect, slot, shape, in, r, err)) return false;
    if (r[0] != 0) out->push_back(slot);
  }
  std::sort(out->begin(), out->end());
  return true;
}

bool World::shapecast(int shape, const double* pose, const double* translation, WorldHit* hit, SceneError* err) {
  *hit = WorldHit{};
  const Shape* s = registry_->find(shape);
  if (s == nullptr) return fail(err, "shape", "is disposed (or was never made)");
  Transform checked;
  if (!readArgumentPose(pose, "pose", -1, &checked, err)) return false;
  for (int i = 0; i < 3; ++i)
    if (!finiteVec(translation + i, 1))
      return fail(err, "translation[" + std::to_string(i) + "]", "must be a finite number of at most 1e15 in magnitude");
  if (!sync(err)) return false;
  const BoxShape kind = classifyShape(*s);
  if (kind.kind == BoxKind::Unbounded) return fail(err, "shape", "a plane cannot be cast (it has no extent to move)");
  // The box swept along the translation.
  const Aabb start = boxFrom(kind, s, checked);
  const Vec3 d{translation[0], translation[1], translation[2]};
  const Aabb swept = merged(start, {start.min + d, start.max + d});
  double in[kInputSize] = {};
  std::copy(pose, pose + kPoseSize, in + kPoseSize);
  in[2 * kPoseSize + 3] = d.x;  // translationB; A (the body) stays
  in[2 * kPoseSize + 4] = d.y;
  in[2 * kPoseSize + 5] = d.z;
  double r[kMaxResultStride];
  for (int slot : order_) {
    if (!unbounded(slot) && !overlaps(swept, boxes_[static_cast<std::size_t>(slot)])) continue;
    if (unbounded(slot)) {
      // The library casts no shape against a plane; its distance is exact
      // (plane.h), and a translation keeps the same nearest point: the gap
      // closes at speed −n·d, where n = (pointB − pointA)/gap is the plane's
      // outward normal. Touching or overlapping at the start: t = 0, with the
      // penetration's normal.
      if (!queryBody(Kind::Distance, slot, shape, in, r, err)) return false;
      const double gap = r[0];
      const Vec3 pa{r[1], r[2], r[3]}, pb{r[4], r[5], r[6]};
      if (gap > 0) {
        const Vec3 n = (pb - pa) / gap;
        const double approach = -dot(n, d);
        if (!(approach > 0) || gap > approach) continue;
        const double t = gap / approach;
        r[0] = 1;
        r[1] = t;
        const Vec3 at = pb + d * t;
        const double v[9] = {n.x, n.y, n.z, at.x, at.y, at.z, at.x, at.y, at.z};
        std::copy(v, v + 9, r + 2);
        r[11] = 0;
      } else {
        // The plane's outward normal in the world: its local normal (scaled
        // by the inverse scale, as normals are) turned by the body's rotation.
        const Shape& plane = *registry_->find(shape_[static_cast<std::size_t>(slot)]);
        const Vec3 local{plane.normal.x / plane.scale.x, plane.normal.y / plane.scale.y, plane.normal.z / plane.scale.z};
        double q[4] = {in[3], in[4], in[5], in[6]};
        normalizeRotation(q);
        const Vec3 n = normalizedOr(rotate(Quat{q[0], q[1], q[2], q[3]}, local), Vec3{0, 1, 0});
        const double v[9] = {n.x, n.y, n.z, pa.x, pa.y, pa.z, pb.x, pb.y, pb.z};
        r[0] = 1;
        r[1] = 0;
        std::copy(v, v + 9, r + 2);
        r[11] = 1;
      }
    } else if (!queryBody(Kind::Shapecast, slot, shape, in, r, err)) {
      return false;
    }
    if (r[0] == 0) continue;
    if (hit->slot < 0 || r[1] < hit->t || (r[1] == hit->t && slot < hit->slot)) {
      hit->slot = slot;
      hit->t = r[1];
      hit->normal = {r[2], r[3], r[4]};
      hit->point = {r[5], r[6], r[7]};  // on the body (A)
      hit->pointB = {r[8], r[9], r[10]};
      hit->startedInside = r[11] != 0;
    }
  }
  return true;
}

COLLIDOSCOPE_RARE bool runPairsScene(const Scene& scene, bool trace, std::string* json, SceneError* err) {
  if (trace) return runPairsTrace(scene, json, err);
  Registry registry;
  World world(&registry);
  for (std::size_t i = 0; i < scene.shapes.size(); ++i) {
    const Shape& s = scene.shapes[i];
    const double pose[kPoseSize] = {s.pose.position.x, s.pose.position.y, s.pose.position.z, s.pose.rotation.x,
                                    s.pose.rotation.y, s.pose.rotation.z, s.pose.rotation.w};
    const int handle = registry.add(s, err);
    if (handle == 0 || world.add(handle, pose, err) == 0) return false;
  }
  std::vector<std::uint32_t> pairs;
  std::int64_t candidates = 0;
  if (!world.pairs(&pairs, err, &candidates)) {
    if (err->code == "invalid-argument") err->code = "invalid-scene";
    return false;
  }
  PairsResult r;
  r.candidates = static_cast<int>(candidates);
  for (std::size_t q = 0; q < pairs.size(); q += 2)
    r.pairs.push_back({static_cast<int>(pairs[q]), static_cast<int>(pairs[q + 1])});
  JsonWriter w;
  jsonout::put(w, r);
  *json = w.str();
  return true;
}

namespace {

std::array<double, 7> poseArray(const double* p) { return {p[0], p[1], p[2], p[3], p[4], p[5], p[6]}; }

void recordFrame(const World& world, const double* poses, int shapes, int step, const StepReport& report,
                 SimulateFrame* f) {
  f->step = step;
  f->solvedPoints = step == 0 ? 0 : report.points;
  f->sleeping = step == 0 ? 0 : report.sleeping;
  f->poses.clear();
  for (int i = 0; i < shapes; ++i) f->poses.push_back(poseArray(poses + 7 * i));
  f->contacts.clear();
  f->contactsTruncated = false;
  if (step == 0) return;
  for (const SolverContact& c : world.contacts()) {
    if (static_cast<int>(f->contacts.size()) >= kMaxSimulateFrameContacts) {
      f->contactsTruncated = true;
      break;
    }
    f->contacts.push_back({c.a, c.b, c.pointA, c.pointB, c.normal, c.distance, c.normalImpulse, c.frictionImpulse});
  }
}

}  // namespace

COLLIDOSCOPE_RARE bool runSimulateScene(const Scene& scene, bool trace, std::string* json, SceneError* err) {
  Registry registry;
  World world(&registry);
  const int n = static_cast<int>(scene.shapes.size());
  std::vector<int> ids;
  for (const Shape& s : scene.shapes) {
    const double pose[kPoseSize] = {s.pose.position.x, s.pose.position.y, s.pose.position.z, s.pose.rotation.x,
                                    s.pose.rotation.y, s.pose.rotation.z, s.pose.rotation.w};
    const int handle = registry.add(s, err);
    const int id = handle == 0 ? 0 : world.add(handle, pose, err);
    if (id == 0) return false;
    ids.push_back(id);
  }
  const auto sceneError = [err](const std::string& prefix) {
    err->code = "invalid-scene";
    if (!prefix.empty()) err->field = prefix + (err->field.empty() ? "" : "." + err->field);
    return false;
  };
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const SceneBody& b = scene.bodies[i];
    const int id = ids[static_cast<std::size_t>(b.shape)];
    if (!world.setMass(id, b.mass == kSceneVolumeMass ? kMassOfVolume : b.mass, err))
      return sceneError("bodies[" + std::to_string(i) + "]");
    double* v = world.velocities() + 6 * world.slotOf(id);
    const double motion[6] = {b.velocity.x, b.velocity.y, b.velocity.z,
                              b.angularVelocity.x, b.angularVelocity.y, b.angularVelocity.z};
    std::copy(motion, motion + 6, v);
  }
  StepSettings settings;
  settings.gravity = scene.gravity;
  settings.dt = scene.dt;
  settings.sleep = scene.sleep;
  // Every k-th step is kept, so that a trace has at most kMaxSimulateFrames frames (and the last step).
  const int every = std::max(1, (scene.steps + kMaxSimulateFrames - 2) / (kMaxSimulateFrames - 1));
  std::vector<SimulateFrame> frames;
  SimulateFrame frame;
  if (trace) {
    recordFrame(world, world.poses(), n, 0, StepReport{}, &frame);
    frames.push_back(frame);
  }
  StepReport report;
  for (int step = 1; step <= scene.steps; ++step) {
    if (!world.step(settings, err, &report)) return sceneError("");
    if (trace && (step % every == 0 || step == scene.steps)) {
      recordFrame(world, world.poses(), n, step, report, &frame);
      frames.push_back(frame);
    }
  }
  SimulateResult r;
  r.steps = scene.steps;
  for (const SceneBody& b : scene.bodies) {
    const int slot = world.slotOf(ids[static_cast<std::size_t>(b.shape)]);
    const double* p = world.poses() + 7 * slot;
    const double* v = world.velocities() + 6 * slot;
    r.bodies.push_back({{p[0], p[1], p[2]}, {p[3], p[4], p[5], p[6]}, {v[0], v[1], v[2]}, {v[3], v[4], v[5]}});
  }
  JsonWriter w;
  if (!trace) {
    jsonout::put(w, r);
  } else {
    w.beginObject().key("query").value("simulate").key("frames");
    jsonout::put(w, frames);
    w.key("every").value(every).key("result");
    jsonout::put(w, r);
    w.endObject();
  }
  *json = w.str();
  return true;
}

}  // namespace api
}  // namespace collidoscope
