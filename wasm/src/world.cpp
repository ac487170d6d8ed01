#include "collidoscope/world.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "collidoscope/json.h"
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

bool fail(SceneError* err, const std::string& field, const std::string& message) {
  *err = {"invalid-argument", field, message};
  return false;
}

std::string slotField(const char* name, int slot) { return std::string(name) + "[" + std::to_string(slot) + "]"; }

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

int World::add(int shape, const double* pose, SceneError* err) {
  const Shape* s = registry_->find(shape);
  if (s == nullptr) {
    fail(err, "shape", "is disposed (or was never made): bodies need a live shape");
    return 0;
  }
  Transform checked;
  if (!readPose(pose, "pose", -1, &checked, err)) {
    if (err->code == "invalid-scene") err->code = "invalid-argument";
    return 0;
  }
  int slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else {
    if (slots() >= kMaxBodies) {
      fail(err, "", "too many bodies in one world (" + std::to_string(kMaxBodies) + "); remove some first");
      return 0;
    }
    slot = slots();
    shape_.push_back(0);
    generation_.push_back(0);
    poses_.resize(poses_.size() + kPoseSize);
    boxes_.emplace_back();
    boxShape_.emplace_back();
    orderAt_.push_back(-1);
  }
  const std::size_t k = static_cast<std::size_t>(slot);
  shape_[k] = shape;
  generation_[k] = generation_[k] % kMaxGeneration + 1;
  std::copy(pose, pose + kPoseSize, poses_.begin() + static_cast<std::ptrdiff_t>(k * kPoseSize));
  classify(slot, *s);
  boxOf(slot, checked);
  orderAt_[k] = static_cast<int>(order_.size());
  order_.push_back(slot);
  track(slot, false);
  ++live_;
  return (generation_[k] << kSlotBits) | (slot + 1);
}

bool World::remove(int body, SceneError* err) {
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
  if (!readPose(pose, "pose", -1, &checked, err)) {
    if (err->code == "invalid-scene") err->code = "invalid-argument";
    return false;
  }
  std::copy(pose, pose + kPoseSize, poses_.begin() + static_cast<std::ptrdiff_t>(slot) * kPoseSize);
  boxOf(slot, checked);
  track(slot, true);
  return true;
}

void World::track(int slot, bool inserted) {
  if (unbounded(slot)) {
    if (!inserted) planes_.push_back(slot);
    return;
  }
  const Aabb& b = boxes_[static_cast<std::size_t>(slot)];
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
  } else if (broadphase_ == WorldBroadphase::SweepAndPrune) {
    sap_.remove(slot);
  } else {
    tree_.remove(slot);
  }
}

void World::classify(int slot, const Shape& s) {
  const std::size_t k = static_cast<std::size_t>(slot);
  BoxShape& b = boxShape_[k];
  b.radius = coreRadius(s);
  b.half = {};
  if (s.type == ShapeType::Plane) {
    b.kind = BoxKind::Unbounded;
  } else if (s.type == ShapeType::Mesh || s.type == ShapeType::Compound) {
    b.kind = BoxKind::Cube;
    b.radius = localBoundingRadius(s);
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
}

void World::boxOf(int slot, const Transform& pose) {
  const std::size_t k = static_cast<std::size_t>(slot);
  Aabb& b = boxes_[k];
  const BoxShape& shape = boxShape_[k];
  const double r = shape.radius;
  switch (shape.kind) {
    case BoxKind::Unbounded:
      b.min = b.max = pose.position;
      return;
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
      const Shape& s = *registry_->find(shape_[k]);
      const auto extreme = [&](const Vec3& d) { return pose.apply(localCoreSupport(s, pose.toLocalDirection(d))); };
      const Vec3 xHi = extreme({1, 0, 0}), yHi = extreme({0, 1, 0}), zHi = extreme({0, 0, 1});
      const Vec3 xLo = extreme({-1, 0, 0}), yLo = extreme({0, -1, 0}), zLo = extreme({0, 0, -1});
      b.min = Vec3{xLo.x, yLo.y, zLo.z} - Vec3{r, r, r};
      b.max = Vec3{xHi.x, yHi.y, zHi.z} + Vec3{r, r, r};
      break;
    }
  }
  const Vec3 pad{(std::fabs(b.min.x) + std::fabs(b.max.x)) * kBoxPad,
                 (std::fabs(b.min.y) + std::fabs(b.max.y)) * kBoxPad,
                 (std::fabs(b.min.z) + std::fabs(b.max.z)) * kBoxPad};
  b.min = b.min - pad;
  b.max = b.max + pad;
}

bool World::sync(SceneError* err) {
  // Check every body before moving any box: an error changes nothing.
  for (int slot : order_)
    if (!liveShape(slot, err)) return false;
  checked_.resize(order_.size());
  for (std::size_t i = 0; i < order_.size(); ++i)
    if (!readPose(poses_.data() + static_cast<std::ptrdiff_t>(order_[i]) * kPoseSize, "poses", order_[i], &checked_[i],
                  err)) {
      if (err->code == "invalid-scene") err->code = "invalid-argument";
      return false;
    }
  for (std::size_t i = 0; i < order_.size(); ++i) {
    boxOf(order_[i], checked_[i]);
    track(order_[i], true);
  }
  return true;
}

bool World::candidatePairs(SceneError* err) {
  candidates_.clear();
  const bool all = broadphase_ == WorldBroadphase::SweepAndPrune ? sap_.pairs(&boxPairs_, kMaxWorldPairs)
                                                                  : tree_.pairs(&boxPairs_, kMaxWorldPairs);
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

bool runPairsScene(const Scene& scene, bool trace, std::string* json, SceneError* err) {
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

}  // namespace api
}  // namespace collidoscope
