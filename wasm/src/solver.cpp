#include "collidoscope/solver.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>

#include "collidoscope/compound.h"
#include "collidoscope/mesh_convex.h"
#include "collidoscope/mesh_pair.h"
#include "collidoscope/plane.h"
#include "collidoscope/raycast.h"
#include "collidoscope/support.h"

namespace collidoscope {

bool makeDynamicBody(const Shape* shape, double density, const Transform& pose, RigidBody* out, MassStatus* status) {
  MassProperties mp;
  const bool ok = shape != nullptr && massProperties(*shape, density, &mp);
  if (status != nullptr) *status = shape == nullptr ? MassStatus::InvalidShape : mp.status;
  Mat3 inverseInertia;
  if (!ok) return false;
  if (!invert(mp.inertia, &inverseInertia)) {
    // Finite mass but a tensor singular to rounding: a solid too thin to turn.
    if (status != nullptr) *status = MassStatus::ZeroVolume;
    return false;
  }
  *out = RigidBody{};
  out->shape = shape;
  out->pose = pose;
  out->inverseMass = 1 / mp.mass;
  out->inverseInertiaLocal = inverseInertia;
  out->centerOfMassLocal = mp.centerOfMass;
  return true;
}

RigidBody makeStaticBody(const Shape* shape, const Transform& pose) {
  RigidBody b;
  b.shape = shape;
  b.pose = pose;
  return b;
}

namespace {

bool finiteQuat(const Quat& q) {
  return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w);
}

SolverStatus fail(StepReport* r, SolverStatus s, const char* message, std::int64_t index = -1) {
  r->status = s;
  r->message = message;
  r->index = index;
  return s;
}

SolverStatus checkSettings(const StepSettings& s, StepReport* r) {
  const auto bad = [&](const char* m) { return fail(r, SolverStatus::InvalidSettings, m); };
  if (!isFinite(s.gravity)) return bad("gravity must be finite");
  if (!std::isfinite(s.dt) || !(s.dt > 0)) return bad("dt must be a finite number greater than 0");
  if (s.substeps < 1 || s.substeps > kSolverMaxSubsteps) return bad("substeps must be in [1, 64]");
  if (s.velocityIterations < 1 || s.velocityIterations > kSolverMaxIterations)
    return bad("velocityIterations must be in [1, 1000]");
  if (s.relaxIterations < 0 || s.relaxIterations > kSolverMaxIterations)
    return bad("relaxIterations must be in [0, 1000]");
  if (!std::isfinite(s.friction) || !(s.friction >= 0)) return bad("friction must be finite and not negative");
  if (!(s.restitution >= 0 && s.restitution <= 1)) return bad("restitution must be in [0, 1]");
  if (!std::isfinite(s.restitutionThreshold) || !(s.restitutionThreshold >= 0))
    return bad("restitutionThreshold must be finite and not negative");
  if (!std::isfinite(s.contactHertz) || !(s.contactHertz > 0)) return bad("contactHertz must be finite and positive");
  if (!std::isfinite(s.contactDampingRatio) || !(s.contactDampingRatio >= 0))
    return bad("contactDampingRatio must be finite and not negative");
  if (!std::isfinite(s.contactPushSpeed) || !(s.contactPushSpeed > 0))
    return bad("contactPushSpeed must be finite and positive");
  if (!std::isfinite(s.slop) || !(s.slop >= 0)) return bad("slop must be finite and not negative");
  if (!std::isfinite(s.contactMargin) || !(s.contactMargin >= 0))
    return bad("contactMargin must be finite and not negative");
  if (!std::isfinite(s.warmStartDistance) || !(s.warmStartDistance >= 0))
    return bad("warmStartDistance must be finite and not negative");
  if (!std::isfinite(s.manifoldReuse) || !(s.manifoldReuse >= 0))
    return bad("manifoldReuse must be finite and not negative");
  if (!std::isfinite(s.ccdFraction) || !(s.ccdFraction > 0)) return bad("ccdFraction must be finite and positive");
  if (!std::isfinite(s.sleepSpeed) || !(s.sleepSpeed >= 0)) return bad("sleepSpeed must be finite and not negative");
  if (!std::isfinite(s.sleepTime) || !(s.sleepTime >= 0)) return bad("sleepTime must be finite and not negative");
  return SolverStatus::Ok;
}

SolverStatus checkBody(const RigidBody& b, std::int64_t i, StepReport* r) {
  const auto bad = [&](const char* m) { return fail(r, SolverStatus::InvalidBody, m, i); };
  if (b.shape == nullptr) return bad("body shape is null");
  if (!isFinite(b.pose.position)) return bad("body pose.position must be finite");
  const Quat& q = b.pose.rotation;
  if (!finiteQuat(q) || !(std::fabs(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w - 1) <= 1e-9))
    return bad("body pose.rotation must be a finite unit quaternion");
  if (!isFinite(b.velocity)) return bad("body velocity must be finite");
  if (!isFinite(b.angularVelocity)) return bad("body angularVelocity must be finite");
  if (!std::isfinite(b.inverseMass) || !(b.inverseMass >= 0))
    return bad("body inverseMass must be finite and not negative (0 = static)");
  if (!b.inverseInertiaLocal.finite()) return bad("body inverseInertiaLocal must be finite");
  if (!isFinite(b.centerOfMassLocal)) return bad("body centerOfMassLocal must be finite");
  const ShapeType t = b.shape->type;
  if ((t == ShapeType::Plane || t == ShapeType::Mesh) && b.inverseMass != 0)
    return fail(r, SolverStatus::StaticOnly, "a plane or mesh body must be static (inverseMass 0)", i);
  return SolverStatus::Ok;
}

// A unit vector square to the unit n, chosen from n alone (the friction
// impulse is cached as a world vector, so its choice does not matter).
Vec3 tangentOf(const Vec3& n) {
  if (std::fabs(n.x) >= 0.57735) return normalizedOr({n.y, -n.x, 0}, {0, 0, 1});
  return normalizedOr({0, n.z, -n.y}, {1, 0, 0});
}

std::uint64_t mix(std::uint64_t k) {  // splitmix64's finalizer
  k ^= k >> 30;
  k *= 0xbf58476d1ce4e5b9ULL;
  k ^= k >> 27;
  k *= 0x94d049bb133111ebULL;
  return k ^ (k >> 31);
}

// Marks a pair's entry in the table (body indices are below 2³¹).
constexpr std::uint64_t kPairEntry = 1ULL << 63;

std::uint64_t pairKey(std::int32_t a, std::int32_t b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

// (R_q (ω, 0) q): the quaternion derivative's numerator, q̇ = ½ (ω, 0) q.
Quat integrate(const Quat& q, const Vec3& w, double dt) {
  const double h = 0.5 * dt;
  Quat r{q.x + h * (w.x * q.w + w.y * q.z - w.z * q.y), q.y + h * (w.y * q.w + w.z * q.x - w.x * q.z),
         q.z + h * (w.z * q.w + w.x * q.y - w.y * q.x), q.w - h * (w.x * q.x + w.y * q.y + w.z * q.z)};
  const double len = std::sqrt(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
  return {r.x / len, r.y / len, r.z / len, r.w / len};
}

// b's pose in a's shape frame.
Transform relativePose(const Transform& a, const Transform& b) {
  const Quat& p = a.rotation;
  const Quat& q = b.rotation;
  // conj(p) q
  const Quat r{p.w * q.x - q.w * p.x - (p.y * q.z - p.z * q.y), p.w * q.y - q.w * p.y - (p.z * q.x - p.x * q.z),
               p.w * q.z - q.w * p.z - (p.x * q.y - p.y * q.x), p.w * q.w + p.x * q.x + p.y * q.y + p.z * q.z};
  Transform t;
  t.position = a.toLocalDirection(b.position - a.position);
  t.rotation = r;
  return t;
}

// How far b's relative motion from `reference` to `now` (both relative
// poses, relativePose) can have carried a point of b within `radius` of its
// origin, in a's frame: |Δt| + 2 sin(θ/2)·radius, θ the turn between the two
// rotations (2 sin(θ/2) r is the chord a turn of θ moves a point at r).
double relativeMotion(const Transform& reference, const Transform& now, double radius) {
  const Quat& p = reference.rotation;
  const Quat& q = now.rotation;
  // The vector part of conj(p) q, whose length is sin(θ/2).
  const Vec3 v{p.w * q.x - q.w * p.x - (p.y * q.z - p.z * q.y), p.w * q.y - q.w * p.y - (p.z * q.x - p.x * q.z),
               p.w * q.z - q.w * p.z - (p.x * q.y - p.y * q.x)};
  return length(now.position - reference.position) + 2 * length(v) * radius;
}

// Earliest time of impact in (0, 1] of `moving` translated by da against
// `other` translated by db (both posed at the start), or 2 for none. A pair
// overlapping at the start is the contacts' to resolve: none.
double timeOfImpact(const Shape& moving, const Vec3& da, const Shape& other, const Vec3& db) {
  // A compound: the earliest of its pieces' (its own support is its
  // children's cores' hull, without their radii: no cast of its own).
  if (moving.type == ShapeType::Compound || other.type == ShapeType::Compound)
    return compoundTimeOfImpact(moving, da, other, db, timeOfImpact);
  if (other.type == ShapeType::Plane) {
    // Half-space {n·x ≤ o}: the shape's point deepest along −n reaches the
    // surface when n·(s + t(da − db)) = o.
    const HalfSpace h = worldHalfSpace(other);
    const double gap = dot(h.normal, fullSupport(moving, -h.normal)) - h.offset;
    const double closing = -dot(h.normal, da - db);
    if (!(gap > 0) || !(closing > gap)) return 2;
    return gap / closing;
  }
  if (other.type == ShapeType::Mesh) {
    const MeshShapeCastResult c = meshPairShapeCast(moving, other, da, db);
    return c.hit && !c.initiallyOverlapping ? c.t : 2;
  }
  const ShapeCastResult c = gjkShapeCast(PosedShape(moving), PosedShape(other), da, db, RayCastSettings{});
  return c.hit && !c.initiallyOverlapping ? c.t : 2;
}

}  // namespace

void Solver::reset() {
  asleepPairs_ = false;
  previous_.clear();
  contacts_.clear();
  frames_.clear();
  asleep_.clear();
}

namespace {

// renumber() runs when bodies come or go, not per step: built for size (the
// default flavour's download) rather than speed, where the compiler can.
#if defined(__clang__)
#define COLLIDOSCOPE_RARE [[gnu::noinline, clang::minsize]]
#else
#define COLLIDOSCOPE_RARE [[gnu::noinline]]
#endif

// Entries of `size` bytes moved to their new places in e, in place (to[i] <
// 0: dropped), the places no entry moves to zeroed. The map keeps the order
// of what it keeps, so entries moving down, taken upwards, and entries
// moving up, taken downwards, never land on an entry still to move.
COLLIDOSCOPE_RARE void moveBytes(unsigned char* e, std::size_t size, const std::int32_t* to, std::size_t oldCount,
                                 std::size_t newCount) {
  for (std::size_t i = 0; i < oldCount; ++i)
    if (to[i] >= 0 && static_cast<std::size_t>(to[i]) < i) std::memcpy(e + size * static_cast<std::size_t>(to[i]), e + size * i, size);
  for (std::size_t i = oldCount; i-- > 0;)
    if (to[i] >= 0 && static_cast<std::size_t>(to[i]) > i) std::memcpy(e + size * static_cast<std::size_t>(to[i]), e + size * i, size);
  std::size_t next = 0;  // the places below are reached or zeroed
  for (std::size_t i = 0; i < oldCount; ++i) {
    if (to[i] < 0) continue;
    const std::size_t at = static_cast<std::size_t>(to[i]);
    std::memset(e + size * next, 0, size * (at - next));
    next = at + 1;
  }
  if (newCount > next) std::memset(e + size * next, 0, size * (newCount - next));
}

template <typename T>
void moveEntries(std::vector<T>* v, const std::int32_t* to, std::size_t oldCount, std::size_t newCount) {
  static_assert(std::is_trivially_copyable<T>::value, "moved as bytes");
  v->resize(std::max(oldCount, newCount));
  moveBytes(reinterpret_cast<unsigned char*>(v->data()), sizeof(T), to, oldCount, newCount);
  v->resize(newCount);
}

}  // namespace

COLLIDOSCOPE_RARE void Solver::renumber(const std::int32_t* to, std::size_t oldCount, std::size_t newCount) {
  asleepPairs_ = false;
  const auto gone = [&](std::int32_t i) { return static_cast<std::size_t>(i) >= oldCount || to[i] < 0; };
  const bool sleeping = asleep_.size() == oldCount && islandNext_.size() == oldCount;
  if (sleeping) {
    // Islands that held a gone body or touched one wake (a box pulled from
    // under a sleeping stack); the rings left hold only bodies that stay.
    for (std::size_t i = 0; i < oldCount; ++i)
      if (to[i] < 0 && asleep_[i] != 0) wakeIsland(static_cast<std::int32_t>(i));
    for (const SolverContact& c : contacts_) {
      if (static_cast<std::size_t>(c.a) >= oldCount || static_cast<std::size_t>(c.b) >= oldCount) continue;
      if (gone(c.a) && asleep_[static_cast<std::size_t>(c.b)] != 0) wakeIsland(c.b);
      if (gone(c.b) && asleep_[static_cast<std::size_t>(c.a)] != 0) wakeIsland(c.a);
    }
    for (std::size_t i = 0; i < oldCount; ++i) {
      const std::int32_t next = islandNext_[i];
      islandNext_[i] = gone(next) ? to[i] : to[next];
    }
    // (A new body gets zeros: awake, no rest time, no known pose; its ring
    // is set when its island sleeps.)
    moveEntries(&asleep_, to, oldCount, newCount);
    moveEntries(&restTime_, to, oldCount, newCount);
    moveEntries(&islandNext_, to, oldCount, newCount);
    moveEntries(&restPose_, to, oldCount, newCount);
    moveEntries(&known_, to, oldCount, newCount);
    moveEntries(&pushes_, to, oldCount, newCount);
  } else {
    asleep_.clear();  // the next step starts everyone awake
  }
  // The shape copies stay where they are: a body whose index changed is
  // copied again (collide()), one that kept it keeps its copy.
  for (std::size_t i = 0; i < sources_.size(); ++i)
    if (i >= oldCount || to[i] != static_cast<std::int32_t>(i)) sources_[i] = nullptr;
  // The last step's points between bodies that stay, renumbered, in order.
  static_assert(std::is_trivially_copyable<SolverContact>::value && std::is_trivially_copyable<Frame>::value, "moved as bytes");
  if (frames_.size() != contacts_.size()) frames_.clear(), contacts_.clear();
  std::size_t kept = 0;
  for (std::size_t k = 0; k < contacts_.size(); ++k) {
    SolverContact& c = contacts_[k];
    if (gone(c.a) || gone(c.b)) continue;
    c.a = to[c.a];
    c.b = to[c.b];
    if (kept != k) {
      std::memcpy(&contacts_[kept], &c, sizeof c);
      std::memcpy(&frames_[kept], &frames_[k], sizeof(Frame));
    }
    ++kept;
  }
  contacts_.erase(contacts_.begin() + static_cast<std::ptrdiff_t>(kept), contacts_.end());
  frames_.erase(frames_.begin() + static_cast<std::ptrdiff_t>(kept), frames_.end());
}

COLLIDOSCOPE_RARE void Solver::massChanged(std::int32_t body) {
  for (SolverContact& c : contacts_)
    if (c.a == body || c.b == body) c.normalImpulse = 0, c.frictionImpulse = Vec3{};
  const std::size_t i = static_cast<std::size_t>(body);
  if (i < asleep_.size() && i < islandNext_.size() && asleep_[i] != 0) wakeIsland(body);
}

SolverStatus Solver::step(RigidBody* bodies, int n, const std::uint32_t* pairs, std::int64_t nPairs,
                          const StepSettings& settings, StepReport* report) {
  StepReport local;
  StepReport* r = report != nullptr ? report : &local;
  *r = StepReport{};
  if (n < 0 || nPairs < 0 || (n > 0 && bodies == nullptr) || (nPairs > 0 && pairs == nullptr))
    return fail(r, SolverStatus::InvalidCount, "n and nPairs must not be negative, and their arrays not null");
  if (checkSettings(settings, r) != SolverStatus::Ok) return r->status;
  for (int i = 0; i < n; ++i)
    if (checkBody(bodies[i], i, r) != SolverStatus::Ok) return r->status;
  for (std::int64_t p = 0; p < nPairs; ++p) {
    const std::uint32_t a = pairs[2 * p], b = pairs[2 * p + 1];
    if (a >= static_cast<std::uint32_t>(n) || b >= static_cast<std::uint32_t>(n))
      return fail(r, SolverStatus::InvalidPair, "pair index outside [0, n)", p);
    if (a == b) return fail(r, SolverStatus::InvalidPair, "a body is paired with itself", p);
  }

  const std::size_t count = static_cast<std::size_t>(n);
  if (!settings.sleep || asleep_.size() != count) {
    // Everyone awake: sleep off, or the bodies changed (reset()).
    asleep_.assign(count, 0);
    restTime_.assign(count, 0.0);
    islandNext_.resize(count);
    restPose_.resize(count);
    known_.assign(count, 0);
    pushes_.resize(count);
  }
  if (settings.sleep) wake(bodies, n, pairs, nPairs);
  // Nobody awake (header: Sleeping): no velocity, impulse or pose can
  // change, and the contacts are the sleeping pairs' carried over. When the
  // last step was so too, over the same pairs, they are its contacts as they
  // stand: collide() would carry each pair's points over in the same order.
  bool anyAwake = false;
  for (int i = 0; i < n && !anyAwake; ++i) anyAwake = awake(bodies, i);
  const std::size_t pairWords = 2 * static_cast<std::size_t>(nPairs);
  const bool still = !anyAwake && asleepPairs_ && asleepPairsOf_.size() == pairWords &&
                     (pairWords == 0 || std::memcmp(asleepPairsOf_.data(), pairs, pairWords * sizeof(std::uint32_t)) == 0);
  if (!still) {
    collide(bodies, n, pairs, nPairs, settings, r);
    if (anyAwake) {
      prepare(bodies, n);
      for (int k = 0; k < settings.substeps; ++k) substep(bodies, n, pairs, nPairs, settings, r);
    }
    finish(bodies, n);
  }
  asleepPairs_ = !anyAwake && settings.sleep;
  if (asleepPairs_ && !still) asleepPairsOf_.assign(pairs, pairs + pairWords);
  if (settings.sleep) settle(bodies, n, settings, r);
  return SolverStatus::Ok;
}

void Solver::collide(RigidBody* bodies, int n, const std::uint32_t* pairs, std::int64_t nPairs,
                     const StepSettings& settings, StepReport* r) {
  const std::size_t count = static_cast<std::size_t>(n);
  if (shapes_.size() < count) {
    shapes_.resize(count);
    sources_.resize(count, nullptr);
    inverseInertiaWorld_.resize(count);
    centres_.resize(count);
    radii_.resize(count);
  }
  for (std::size_t i = 0; i < count; ++i) {
    RigidBody& body = bodies[i];
    if (sources_[i] != body.shape) {
      shapes_[i] = *body.shape;  // the only copy that allocates (header: Shapes)
      sources_[i] = body.shape;
      radii_[i] = localBoundingRadius(shapes_[i]);  // a mesh's scans its vertices: once per copy
    }
    shapes_[i].pose = body.pose;
    centres_[i] = body.pose.apply(body.centerOfMassLocal);
    // Only an awake body turns (below: a static one's turns are none, and a
    // sleeping one's pairs are not solved).
    if (!awake(bodies, static_cast<std::int32_t>(i))) continue;
    const Mat3 rot = Mat3::rotation(body.pose.rotation);
    inverseInertiaWorld_[i] = rot * body.inverseInertiaLocal * rot.transposed();
  }
  const auto dynamic = [&](std::int32_t i) { return bodies[i].inverseMass > 0; };
  carried_.clear();
  const auto linearVelocity = [&](std::int32_t i) { return dynamic(i) ? bodies[i].velocity : Vec3{}; };

  // The warm-start table over last step's points.
  std::swap(previous_, contacts_);
  std::swap(previousFrames_, frames_);
  contacts_.clear();
  frames_.clear();
  points_.clear();
  patches_.clear();
  anchors_.clear();
  // Only a solved pair (one with an awake body) looks its points up by id
  // (findPrevious); every pair looks up its first point (a sleeping pair's
  // to carry them, an awake one's for the reuse and the match by position).
  // A pile mostly asleep enters a few ids and a pair entry per pair.
  const auto solved = [&](const SolverContact& c) {
    return c.a < n && c.b < n && (awake(bodies, c.a) || awake(bodies, c.b));
  };
  const auto firstOfItsPair = [&](std::size_t k) {
    return k == 0 || previous_[k - 1].a != previous_[k].a || previous_[k - 1].b != previous_[k].b;
  };
  const bool cached = settings.warmStarting || settings.sleep || settings.manifoldReuse > 0;
  std::size_t entries = 0;
  if (cached)
    for (std::size_t k = 0; k < previous_.size(); ++k)
      entries += (firstOfItsPair(k) ? 1 : 0) + (solved(previous_[k]) ? 1 : 0);
  // Load ≤ ½; the table's first `capacity` entries are this step's.
  std::size_t capacity = 16;
  while (capacity < 2 * entries) capacity *= 2;
  if (table_.size() < capacity) table_.resize(capacity);
  const std::size_t mask = capacity - 1;
  std::fill(table_.begin(), table_.begin() + static_cast<std::ptrdiff_t>(capacity), CacheEntry{});
  // (Built with sleep on, too: a sleeping pair's points are found here, as
  // are a pair's last points for the manifold's reuse.)
  if (cached) {
    for (std::size_t k = 0; k < previous_.size(); ++k) {
      const SolverContact& c = previous_[k];
      const std::uint64_t key = pairKey(c.a, c.b);
      std::size_t slot = mix(key ^ (static_cast<std::uint64_t>(c.id) * 0x9e3779b97f4a7c15ULL)) & mask;
      if (solved(c)) {
        for (std::size_t probe = 0; probe < capacity && table_[slot].index >= 0; ++probe) slot = (slot + 1) & mask;
        table_[slot] = {key, c.id, static_cast<std::int32_t>(k)};
      }
      // The pair's first point, for the match by position.
      if (firstOfItsPair(k)) {
        slot = mix(key | kPairEntry) & mask;
        for (std::size_t probe = 0; probe < capacity && table_[slot].index >= 0; ++probe) slot = (slot + 1) & mask;
        table_[slot] = {key | kPairEntry, 0, static_cast<std::int32_t>(k)};
      }
    }
  }
  // The index of a pair's first point in previous_, −1 when it had none.
  const auto firstOfPair = [&](std::uint64_t key) -> std::int32_t {
    std::size_t slot = mix(key | kPairEntry) & mask;
    for (std::size_t probe = 0; probe < capacity && table_[slot].index >= 0; ++probe) {
      if (table_[slot].key == (key | kPairEntry)) return table_[slot].index;
      slot = (slot + 1) & mask;
    }
    return -1;
  };
  const auto findPrevious = [&](std::int32_t a, std::int32_t b, std::uint32_t id,
                                const Vec3& anchorA) -> const SolverContact* {
    if (!settings.warmStarting) return nullptr;
    const std::uint64_t key = pairKey(a, b);
    std::size_t slot = mix(key ^ (static_cast<std::uint64_t>(id) * 0x9e3779b97f4a7c15ULL)) & mask;
    for (std::size_t probe = 0; probe < capacity && table_[slot].index >= 0; ++probe) {
      if (table_[slot].key == key && table_[slot].id == id) return &previous_[table_[slot].index];
      slot = (slot + 1) & mask;
    }
    // The features were renamed (two aligned boxes' corners coincide, and a
    // tilt of 1e-5 rad turns a vertex into an edge crossing): the nearest
    // last point of the pair, on body a, within warmStartDistance.
    const std::int32_t first = firstOfPair(key);
    if (first < 0) return nullptr;
    const SolverContact* best = nullptr;
    double bestDistance = settings.warmStartDistance;
    for (std::size_t k = static_cast<std::size_t>(first);
         k < previous_.size() && previous_[k].a == a && previous_[k].b == b; ++k) {
      const double d = length(previous_[k].anchorA - anchorA);
      if (d <= bestDistance) bestDistance = d, best = &previous_[k];
    }
    return best;
  };

  int manifolds = 0, warmStarted = 0;
  const Mat3 none;
  if (meshScratch_.size() < static_cast<std::size_t>(kSolverMeshContacts)) meshScratch_.resize(kSolverMeshContacts);
  if (compoundScratch_.size() < static_cast<std::size_t>(kSolverCompoundManifolds))
    compoundScratch_.resize(kSolverCompoundManifolds);
  for (std::int64_t p = 0; p < nPairs; ++p) {
    const auto a = static_cast<std::int32_t>(pairs[2 * p]), b = static_cast<std::int32_t>(pairs[2 * p + 1]);
    if (!dynamic(a) && !dynamic(b)) continue;
    if (!awake(bodies, a) && !awake(bodies, b)) {
      // Asleep (with a sleeping or static partner): its points as they were
      // (finish() copies them; consecutive runs as one).
      const std::int32_t first = firstOfPair(pairKey(a, b));
      if (first < 0) continue;
      std::size_t end = static_cast<std::size_t>(first);
      while (end < previous_.size() && previous_[end].a == a && previous_[end].b == b) ++end;
      const auto begin = static_cast<std::uint32_t>(first), count = static_cast<std::uint32_t>(end) - begin;
      if (!carried_.empty() && carried_.back().first + carried_.back().count == begin) carried_.back().count += count;
      else carried_.push_back({begin, count});
      continue;
    }
    Manifold m;
    // Continuous collision widens the speculative margin by the pair's
    // relative motion over the step (with gravity's increment; angular
    // motion aside), so that a pair closing faster than contactMargin per
    // step is caught before it overlaps.
    const double closing =
        length(linearVelocity(b) - linearVelocity(a)) + length(settings.gravity) * settings.dt;
    const double margin = settings.contactMargin + (settings.continuous ? closing * settings.dt : 0.0);
    const bool mesh = shapes_[a].type == ShapeType::Mesh || shapes_[b].type == ShapeType::Mesh;
    // A compound's pair gives one manifold per pair of pieces (manifold.h: compoundManifolds).
    const bool compound = shapes_[a].type == ShapeType::Compound || shapes_[b].type == ShapeType::Compound;
    int pieces = 1;
    // The last manifold again (header: step 1), its points carried by their
    // bodies, while b has moved relative to a by at most manifoldReuse since
    // it was computed: the same features, ids and normal (in a's axes, or
    // a static b's).
    const Transform relative = relativePose(bodies[a].pose, bodies[b].pose);
    Transform reference = relative;
    bool reused = false;
    std::size_t reusedFrom = 0;  // its first point in previous_
    if (settings.manifoldReuse > 0 && !mesh && !compound) {
      const std::int32_t first = firstOfPair(pairKey(a, b));
      if (first >= 0 && relativeMotion(previousFrames_[static_cast<std::size_t>(first)].relative, relative,
                                        radii_[static_cast<std::size_t>(b)]) <= settings.manifoldReuse) {
        const Frame& f = previousFrames_[static_cast<std::size_t>(first)];
        m.normal = (f.inB ? bodies[b] : bodies[a]).pose.applyToDirection(f.normal);
        for (std::size_t k = static_cast<std::size_t>(first);
             k < previous_.size() && previous_[k].a == a && previous_[k].b == b && m.count < 4; ++k) {
          ManifoldPoint& mp = m.points[m.count++];
          mp.pointA = bodies[a].pose.apply(previous_[k].anchorA);
          mp.pointB = bodies[b].pose.apply(previousFrames_[k].localB);
          mp.distance = dot(mp.pointB - mp.pointA, m.normal);
          mp.id = previous_[k].id;
        }
        reference = f.relative;
        reused = true;
        reusedFrom = static_cast<std::size_t>(first);
        ++r->reusedManifolds;
      }
    }
    const ManifoldStatus st =
        reused     ? ManifoldStatus::Ok
        : compound ? compoundManifolds(shapes_[a], shapes_[b], margin, meshScratch_.data(), kSolverMeshContacts,
                                     compoundScratch_.data(), kSolverCompoundManifolds, &pieces)
        : mesh   ? meshManifold(shapes_[a], shapes_[b], margin, meshScratch_.data(), kSolverMeshContacts, &m)
                 : manifold(shapes_[a], shapes_[b], margin, &m);
    if (st != ManifoldStatus::Ok) continue;
    for (int piece = 0; piece < pieces; ++piece) {
      if (compound) m = compoundScratch_[static_cast<std::size_t>(piece)];
      if (m.count == 0) continue;
      ++manifolds;
      const Vec3 nrm = m.normal;
      // Kept for reuse in the axes of a static b (a plane, a floor) when a
      // moves: its face is what the normal is, and it does not turn.
      const bool normalInB = bodies[b].inverseMass == 0 && bodies[a].inverseMass != 0;
      const Vec3 t1 = tangentOf(nrm), t2 = cross(nrm, t1);
      const double imA = bodies[a].inverseMass, imB = bodies[b].inverseMass;
      // A static body does not turn (nor would a sleeping one; wake() left
      // none beside an awake body).
      const Mat3& iA = awake(bodies, a) ? inverseInertiaWorld_[static_cast<std::size_t>(a)] : none;
      const Mat3& iB = awake(bodies, b) ? inverseInertiaWorld_[static_cast<std::size_t>(b)] : none;
      const Vec3 directions[3] = {nrm, t1, t2};
      patches_.push_back({a, b, static_cast<std::uint32_t>(points_.size()), static_cast<std::uint32_t>(m.count), nrm, t1, t2});
      for (int k = 0; k < m.count; ++k) {
        const ManifoldPoint& mp = m.points[k];
        // Made in place (each is a few hundred bytes: built aside, it would be copied in).
        SolverContact& c = contacts_.emplace_back();
        Point& q = points_.emplace_back();
        Anchor& at = anchors_.emplace_back();
        c.a = a;
        c.b = b;
        c.id = mp.id;
        c.pointA = mp.pointA;
        c.pointB = mp.pointB;
        c.normal = nrm;
        c.distance = mp.distance;
        at.rA = mp.pointA - centres_[a];
        at.rB = mp.pointB - centres_[b];
        // A reused point keeps its places in its bodies' frames (turned into
        // the world and back they would come out the same but for rounding).
        const SolverContact* const kept = reused ? &previous_[reusedFrom + static_cast<std::size_t>(k)] : nullptr;
        const Frame* const keptFrame = reused ? &previousFrames_[reusedFrom + static_cast<std::size_t>(k)] : nullptr;
        c.anchorA = kept ? kept->anchorA : bodies[a].pose.toLocalDirection(mp.pointA - bodies[a].pose.position);
        const Vec3 localB = kept ? keptFrame->localB : bodies[b].pose.toLocalDirection(mp.pointB - bodies[b].pose.position);
        // The points ride on their bodies through the substeps (header: step 1).
        at.localA = c.anchorA - bodies[a].centerOfMassLocal;
        at.localB = localB - bodies[b].centerOfMassLocal;
        at.base = mp.distance - dot(mp.pointB - mp.pointA, nrm);
        q.rA = at.rA, q.rB = at.rB;
        // Along each direction d: the turn I⁻¹(r × d) a unit impulse gives,
        // and K = 1/m_A + 1/m_B + (r_A × d)·I_A⁻¹(r_A × d) + (same for B).
        Vec3 armA[3], armB[3];
        double mass[3];
        for (int d = 0; d < 3; ++d) {
          armA[d] = cross(at.rA, directions[d]), armB[d] = cross(at.rB, directions[d]);
          q.turnA[d] = iA * armA[d], q.turnB[d] = iB * armB[d];
          const double k = imA + imB + dot(armA[d], q.turnA[d]) + dot(armB[d], q.turnB[d]);
          mass[d] = k > 0 ? 1 / k : 0.0;
        }
        q.normalMass = mass[0], q.tangentMass1 = mass[1], q.tangentMass2 = mass[2];
        // v_n = n·(v_B + ω_B × r_B − v_A − ω_A × r_A) after an impulse t_d on B (−t_d on A).
        q.coupling1 = (imA + imB) * dot(nrm, t1) + dot(armA[0], q.turnA[1]) + dot(armB[0], q.turnB[1]);
        q.coupling2 = (imA + imB) * dot(nrm, t2) + dot(armA[0], q.turnA[2]) + dot(armB[0], q.turnB[2]);
        // (A reused point's impulses are its own of last step.)
        if (const SolverContact* old = kept && settings.warmStarting ? kept : findPrevious(a, b, mp.id, c.anchorA)) {
          c.warmStarted = true;
          ++warmStarted;
          c.normalImpulse = old->normalImpulse;
          // The old friction impulse on the new tangent plane.
          q.normalImpulse = c.normalImpulse;
          q.frictionImpulse1 = dot(old->frictionImpulse, t1);
          q.frictionImpulse2 = dot(old->frictionImpulse, t2);
          c.frictionImpulse = t1 * q.frictionImpulse1 + t2 * q.frictionImpulse2;
        }
        frames_.push_back({localB,
                           keptFrame && keptFrame->inB == normalInB
                               ? keptFrame->normal
                               : (normalInB ? bodies[b] : bodies[a]).pose.toLocalDirection(nrm),
                           normalInB, reference});
      }
    }
  }
  r->manifolds = manifolds;
  r->warmStarted = warmStarted;
  r->points = static_cast<int>(contacts_.size());
}

void Solver::prepare(const RigidBody* bodies, int n) {
  const std::size_t count = static_cast<std::size_t>(n);
  if (motion_.size() < count) motion_.resize(count);
  // A static body's velocity is not its motion, and it takes no impulse:
  // zero velocities, inverse mass and inertia make it so without a branch.
  for (std::size_t i = 0; i < count; ++i) {
    const RigidBody& b = bodies[i];
    Motion& m = motion_[i];
    // A sleeping body too: nothing awake touches it (wake()).
    const bool dynamic = awake(bodies, static_cast<std::int32_t>(i));
    m.velocity = dynamic ? b.velocity : Vec3{};
    m.angularVelocity = dynamic ? b.angularVelocity : Vec3{};
    m.inverseMass = dynamic ? b.inverseMass : 0;
  }
}

void Solver::rounds(int count, double friction) {
  // Friction (bounded by the current normal impulse), then the normal,
  // point by point. Symmetric Gauss–Seidel: every other round runs the
  // points backwards, so that no corner of a face is always solved first (a
  // fixed order leaves a torque that tilts stacked boxes). This is the
  // step's hot loop: a patch's two bodies' velocities are read once into
  // locals and written back once, after its points (a and b differ, but the
  // compiler cannot know it and would reload them after every store).
  Motion* const motion = motion_.data();
  Point* const points = points_.data();
  const Patch* const patches = patches_.data();
  const std::size_t np = patches_.size();
  for (int it = 0; it < count; ++it) {
    const bool backwards = (it & 1) != 0;
    for (std::size_t jj = 0; jj < np; ++jj) {
      const Patch& p = patches[backwards ? np - 1 - jj : jj];
      Motion& A = motion[p.a];
      Motion& B = motion[p.b];
      Vec3 vA = A.velocity, wA = A.angularVelocity, vB = B.velocity, wB = B.angularVelocity;
      const double mA = A.inverseMass, mB = B.inverseMass;
      const Vec3 normal = p.normal, tangent1 = p.tangent1, tangent2 = p.tangent2;
      for (std::uint32_t kk = 0; kk < p.count; ++kk) {
        Point& q = points[p.first + (backwards ? p.count - 1 - kk : kk)];
        // The velocity of the point on B relative to the point on A, read
        // once: the normal's v_n after the friction's impulse follows from
        // the coupling (the same Gauss–Seidel sweep, one impulse applied).
        const Vec3 dv = vB + cross(wB, q.rB) - vA - cross(wA, q.rA);
        const double old1 = q.frictionImpulse1, old2 = q.frictionImpulse2;
        double new1 = old1 - dot(dv, tangent1) * q.tangentMass1;
        double new2 = old2 - dot(dv, tangent2) * q.tangentMass2;
        const double limit = friction * q.normalImpulse;
        const double len2 = new1 * new1 + new2 * new2;
        if (len2 > limit * limit) {
          const double len = std::sqrt(len2);
          const double f = len > 0 ? limit / len : 0;
          new1 *= f;
          new2 *= f;
        }
        q.frictionImpulse1 = new1;
        q.frictionImpulse2 = new2;
        const double d1 = new1 - old1, d2 = new2 - old2;

        const double vn = dot(dv, normal) + q.coupling1 * d1 + q.coupling2 * d2;
        const double sum = q.normalImpulse + (q.target - vn) * q.pushMass - q.impulseScale * q.normalImpulse;
        // λ_n ≥ 0 (a comparison, not fmax: no call in the hot loop).
        const double total = sum > 0 ? sum : 0.0;
        const double dn = total - q.normalImpulse;
        q.normalImpulse = total;
        const Vec3 impulse = normal * dn + tangent1 * d1 + tangent2 * d2;
        vA -= impulse * mA;
        wA -= q.turnA[0] * dn + q.turnA[1] * d1 + q.turnA[2] * d2;
        vB += impulse * mB;
        wB += q.turnB[0] * dn + q.turnB[1] * d1 + q.turnB[2] * d2;
      }
      A.velocity = vA, A.angularVelocity = wA;
      B.velocity = vB, B.angularVelocity = wB;
    }
  }
}

void Solver::substep(RigidBody* bodies, int n, const std::uint32_t* pairs, std::int64_t nPairs,
                     const StepSettings& settings, StepReport* r) {
  const double dt = settings.dt / settings.substeps;
  Motion* motion = motion_.data();
  const std::size_t count = static_cast<std::size_t>(n);
  const std::size_t m = points_.size();
  Point* const points = points_.data();

  // The soft contact (header step 4; Catto, "Solver2D", 2024, and Box2D
  // v3's b2MakeSoft): a spring of angular frequency ω = 2π·contactHertz and
  // damping ratio ζ per unit of the point's effective mass, integrated
  // implicitly over h. Its impulse, λ += (β·d − v_n)·K⁻¹·massScale −
  // impulseScale·λ for an overlap d = −s ≥ 0, has
  //   β = ω / (2ζ + hω), massScale = hω(2ζ + hω) / (1 + hω(2ζ + hω)),
  //   impulseScale = 1 / (1 + hω(2ζ + hω)).
  const double omega = 2 * 3.14159265358979323846 * settings.contactHertz;
  const double a1 = 2 * settings.contactDampingRatio + dt * omega;
  const double a2 = dt * omega * a1;
  const double biasRate = omega / a1, massScale = a2 / (1 + a2), impulseScale = 1 / (1 + a2);
  // Δv along a point's normal.
  const auto closing = [motion](const Patch& p, const Point& q) {
    const Motion& a = motion[p.a];
    const Motion& b = motion[p.b];
    return dot(b.velocity + cross(b.angularVelocity, q.rB) - a.velocity - cross(a.angularVelocity, q.rA), p.normal);
  };

  // The points' separations, moved with their bodies since the contacts
  // (s = s₀ + n·(p_B − p_A − (p_B₀ − p_A₀)), each point fixed in its body),
  // and the normal targets they give. With p = c + R l (c the centre of
  // mass, l the point in the body's axes), n·(p_B − p_A) = n·(c_B − c_A) +
  // (R_Bᵀn)·l_B − (R_Aᵀn)·l_A: the normal turned into each body's axes once
  // per patch, rather than each point turned into the world.
  if (centresNow_.size() < count) centresNow_.resize(count);
  // (A sleeping body's is not needed: its pairs are carried, and it does not move.)
  for (std::size_t i = 0; i < count; ++i)
    if (asleep_[i] == 0) centresNow_[i] = bodies[i].pose.apply(bodies[i].centerOfMassLocal);
  for (const Patch& p : patches_) {
    const std::size_t a = static_cast<std::size_t>(p.a), b = static_cast<std::size_t>(p.b);
    const double apart = dot(centresNow_[b] - centresNow_[a], p.normal);
    const Vec3 inA = bodies[a].pose.toLocalDirection(p.normal), inB = bodies[b].pose.toLocalDirection(p.normal);
    for (std::uint32_t k = p.first; k < p.first + p.count; ++k) {
      const Anchor& at = anchors_[k];
      Point& q = points[k];
      const double s = at.base + (apart + (dot(inB, at.localB) - dot(inA, at.localA)));
      q.pushMass = q.normalMass;
      q.impulseScale = 0;
      q.target = 0;
      if (s > 0) {
        q.target = -s / dt;  // speculative: close the gap in this substep and no more
      } else {
        // Soft from the first touch: a spring with a rigid zone of some slop
        // would leave every layer of a stack that slop deep.
        q.target = std::fmin(biasRate * -s, settings.contactPushSpeed);
        q.pushMass = q.normalMass * massScale;
        q.impulseScale = impulseScale;
      }
      // The closing speed before gravity's increment: bouncing the
      // incremented one back would gain g·dt of speed per bounce. Bounce only
      // a point the bodies reach within this substep; the bounce is rigid.
      if (settings.restitution > 0) {
        const double vn = closing(p, q);
        if (vn < -settings.restitutionThreshold && s + vn * dt < 0 && -settings.restitution * vn > q.target)
          q.target = -settings.restitution * vn, q.pushMass = q.normalMass, q.impulseScale = 0;
      }
    }
  }

  // 2. Velocities (after the closing speeds were measured), then 3. the
  // warm start: the last substep's impulses (the first substep's: last
  // step's, matched in collide()).
  for (int i = 0; i < n; ++i)
    if (motion[i].inverseMass > 0) motion[i].velocity += settings.gravity * dt;
  if (!settings.warmStarting)
    for (std::size_t k = 0; k < m; ++k) points[k].normalImpulse = points[k].frictionImpulse1 = points[k].frictionImpulse2 = 0;
  else
    for (const Patch& p : patches_) {
      // The patch's impulses summed: its linear part along the normal and
      // tangents, its turns point by point; each body read and written once.
      double l0 = 0, l1 = 0, l2 = 0;
      Vec3 turnA, turnB;
      for (std::uint32_t k = p.first; k < p.first + p.count; ++k) {
        const Point& q = points[k];
        l0 += q.normalImpulse, l1 += q.frictionImpulse1, l2 += q.frictionImpulse2;
        turnA += q.turnA[0] * q.normalImpulse + q.turnA[1] * q.frictionImpulse1 + q.turnA[2] * q.frictionImpulse2;
        turnB += q.turnB[0] * q.normalImpulse + q.turnB[1] * q.frictionImpulse1 + q.turnB[2] * q.frictionImpulse2;
      }
      const Vec3 impulse = p.normal * l0 + p.tangent1 * l1 + p.tangent2 * l2;
      Motion& A = motion[p.a];
      Motion& B = motion[p.b];
      A.velocity -= impulse * A.inverseMass;
      A.angularVelocity -= turnA;
      B.velocity += impulse * B.inverseMass;
      B.angularVelocity += turnB;
    }

  // 4. Sequential impulses.
  rounds(settings.velocityIterations, settings.friction);

  // 5. Continuous collision (at the substep's start poses, with the solved
  // velocities), then 6. the positions. The fast bodies first: only when
  // there is one do the shape copies take every body's pose as the
  // substep starts (a resting pile has none).
  if (fast_.size() < count) fast_.resize(count);
  bool anyFast = false;
  for (std::size_t i = 0; i < count; ++i) {
    fast_[i] = settings.continuous && awake(bodies, static_cast<std::int32_t>(i)) &&
               length(motion[i].velocity * dt) > settings.ccdFraction * radii_[i];
    anyFast = anyFast || fast_[i] != 0;
  }
  if (anyFast)
    for (int i = 0; i < n; ++i) shapes_[i].pose = bodies[i].pose;
  for (int i = 0; i < n; ++i) {
    RigidBody& body = bodies[i];
    if (!awake(bodies, i)) continue;
    const Vec3 step = motion[i].velocity * dt;
    double fraction = 1;
    if (fast_[static_cast<std::size_t>(i)] != 0) {
      double toi = 2;
      for (std::int64_t p = 0; p < nPairs; ++p) {
        const auto a = static_cast<std::int32_t>(pairs[2 * p]), b = static_cast<std::int32_t>(pairs[2 * p + 1]);
        if (a != i && b != i) continue;
        const std::int32_t other = a == i ? b : a;
        const Vec3 otherStep = motion[other].velocity * dt;
        const double t = timeOfImpact(shapes_[i], step, shapes_[other], otherStep);
        if (t > 1) continue;
        // Stop the slop short of the surface, so that the next step's
        // contact finds a gap rather than an overlap.
        const double back = settings.slop / length(step - otherStep);
        toi = std::fmin(toi, std::fmax(0.0, t - back));
      }
      if (toi < 1) {
        fraction = toi;
        ++r->ccdClamped;
      }
    }
    const Vec3 centre = centresNow_[static_cast<std::size_t>(i)] + step * fraction;
    body.pose.rotation = integrate(body.pose.rotation, motion[i].angularVelocity, dt);
    body.pose.position = centre - rotate(body.pose.rotation, body.centerOfMassLocal);
  }

  // 7. Relax: the push's velocity moved the bodies apart; taken out again,
  // it does not carry on as motion. Rigid rounds without the push: an
  // overlap (or a touch) holds at v_n ≥ 0, a gap may still close by what is
  // left of it, s + v_n·h (its distance moved on with the solved velocity),
  // and a bounce keeps its target.
  if (settings.relaxIterations == 0) return;
  for (const Patch& p : patches_)
  for (std::uint32_t k = p.first; k < p.first + p.count; ++k) {
    Point& q = points[k];
    if (q.target < 0) {
      const double left = q.target - closing(p, q);
      q.target = left < 0 ? left : 0.0;
    } else if (q.impulseScale != 0) {
      q.target = 0;
    }
    q.pushMass = q.normalMass;
    q.impulseScale = 0;
  }
  rounds(settings.relaxIterations, settings.friction);
}

void Solver::finish(RigidBody* bodies, int n) {
  for (int i = 0; i < n; ++i) {
    if (!awake(bodies, i)) continue;
    bodies[i].velocity = motion_[static_cast<std::size_t>(i)].velocity;
    bodies[i].angularVelocity = motion_[static_cast<std::size_t>(i)].angularVelocity;
  }
  for (const Patch& p : patches_)
    for (std::uint32_t k = p.first; k < p.first + p.count; ++k) {
      const Point& q = points_[k];
      contacts_[k].normalImpulse = q.normalImpulse;
      contacts_[k].frictionImpulse = p.tangent1 * q.frictionImpulse1 + p.tangent2 * q.frictionImpulse2;
    }
  for (const Run& run : carried_) {
    contacts_.insert(contacts_.end(), previous_.begin() + run.first, previous_.begin() + run.first + run.count);
    frames_.insert(frames_.end(), previousFrames_.begin() + run.first, previousFrames_.begin() + run.first + run.count);
  }
}

void Solver::wakeIsland(std::int32_t body) {
  // The ring holds at most n bodies.
  std::int32_t j = body;
  for (std::size_t guard = 0; guard < asleep_.size(); ++guard) {
    const std::int32_t next = islandNext_[static_cast<std::size_t>(j)];
    asleep_[static_cast<std::size_t>(j)] = 0;
    restTime_[static_cast<std::size_t>(j)] = 0;
    islandNext_[static_cast<std::size_t>(j)] = j;
    if (next == body) break;
    j = next;
  }
}

void Solver::wake(const RigidBody* bodies, int n, const std::uint32_t* pairs, std::int64_t nPairs) {
  // Moved: the position changed at all, the rotation beyond the caller's renormalisation.
  const auto moved = [](const Transform& now, const Transform& rest) {
    const Quat &q = now.rotation, &r = rest.rotation;
    return !(now.position == rest.position) || std::fabs(q.x - r.x) > 1e-12 || std::fabs(q.y - r.y) > 1e-12 ||
           std::fabs(q.z - r.z) > 1e-12 || std::fabs(q.w - r.w) > 1e-12;
  };
  // Touched by the caller: a sleeping body given a velocity, made static or
  // moved; a static body moved (it pushes whatever it is paired with).
  bool anyPush = false;
  for (int i = 0; i < n; ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    const RigidBody& b = bodies[i];
    if (!(b.inverseMass > 0)) {
      pushes_[k] = known_[k] != 0 && moved(b.pose, restPose_[k]) ? 1 : 0;
      anyPush = anyPush || pushes_[k] != 0;
      if (asleep_[k] != 0) wakeIsland(i);
      restPose_[k] = b.pose;
      known_[k] = 1;
      continue;
    }
    known_[k] = 0;
    if (asleep_[k] != 0 && (moved(b.pose, restPose_[k]) || !(b.velocity == Vec3{}) || !(b.angularVelocity == Vec3{})))
      wakeIsland(i);
    pushes_[k] = 0;  // (an awake one pushes by being awake)
  }
  // A moved static body wakes what touched it last step (it may have moved
  // out of their candidate pairs: a floor lowered under a pile).
  for (const SolverContact& c : contacts_) {
    if (!anyPush) break;
    const auto a = static_cast<std::size_t>(c.a), b = static_cast<std::size_t>(c.b);
    if (a >= pushes_.size() || b >= pushes_.size()) continue;  // another numbering (reset() clears them)
    if (asleep_[b] != 0 && pushes_[a] != 0) wakeIsland(c.b);
    else if (asleep_[a] != 0 && pushes_[b] != 0) wakeIsland(c.a);
  }
  // Reached by an awake body (or a moved static one): until no island wakes
  // (each pass but the last wakes one at least, so at most n + 1 passes).
  for (int pass = 0; pass <= n; ++pass) {
    bool woke = false;
    for (std::int64_t p = 0; p < nPairs; ++p) {
      const auto a = static_cast<std::size_t>(pairs[2 * p]), b = static_cast<std::size_t>(pairs[2 * p + 1]);
      const auto pushes = [&](std::size_t i) { return pushes_[i] != 0 || awake(bodies, static_cast<std::int32_t>(i)); };
      if (asleep_[b] != 0 && pushes(a)) wakeIsland(static_cast<std::int32_t>(b)), woke = true;
      else if (asleep_[a] != 0 && pushes(b)) wakeIsland(static_cast<std::int32_t>(a)), woke = true;
    }
    if (!woke) break;
  }
}

void Solver::settle(RigidBody* bodies, int n, const StepSettings& settings, StepReport* r) {
  const std::size_t count = static_cast<std::size_t>(n);
  islandOf_.resize(count);
  islandRest_.resize(count);
  islandHead_.resize(count);
  // Rest times, and each awake body its own island.
  for (std::size_t i = 0; i < count; ++i) {
    islandOf_[i] = static_cast<std::int32_t>(i);
    if (!awake(bodies, static_cast<std::int32_t>(i))) continue;
    const RigidBody& b = bodies[i];
    const double speed = length(b.velocity) + radii_[i] * length(b.angularVelocity);
    restTime_[i] = speed <= settings.sleepSpeed ? restTime_[i] + settings.dt : 0.0;
  }
  // Union–find (path halving) over the solved points' pairs of awake bodies.
  const auto root = [&](std::int32_t i) {
    for (std::size_t guard = 0; guard < count && islandOf_[static_cast<std::size_t>(i)] != i; ++guard) {
      std::int32_t& up = islandOf_[static_cast<std::size_t>(i)];
      up = islandOf_[static_cast<std::size_t>(up)];
      i = up;
    }
    return i;
  };
  for (const Patch& q : patches_) {
    if (!awake(bodies, q.a) || !awake(bodies, q.b)) continue;
    const std::int32_t ra = root(q.a), rb = root(q.b);
    // The smaller index the root, so that the islands do not depend on the order of the pairs.
    if (ra != rb) islandOf_[static_cast<std::size_t>(std::max(ra, rb))] = std::min(ra, rb);
  }
  for (std::size_t i = 0; i < count; ++i) islandRest_[i] = HUGE_VAL, islandHead_[i] = -1;
  for (std::size_t i = 0; i < count; ++i)
    if (awake(bodies, static_cast<std::int32_t>(i))) {
      const std::size_t top = static_cast<std::size_t>(root(static_cast<std::int32_t>(i)));
      islandRest_[top] = std::fmin(islandRest_[top], restTime_[i]);
    }
  // An island rested long enough sleeps, its bodies in a ring.
  for (std::size_t i = 0; i < count; ++i) {
    const auto body = static_cast<std::int32_t>(i);
    if (!awake(bodies, body)) continue;
    const std::size_t top = static_cast<std::size_t>(root(body));
    // At rest now (a rest time of at least one dt), and for long enough.
    if (!(islandRest_[top] > 0 && islandRest_[top] >= settings.sleepTime)) continue;
    bodies[i].velocity = bodies[i].angularVelocity = Vec3{};
    restPose_[i] = bodies[i].pose;
    std::int32_t& head = islandHead_[top];
    if (head < 0) {
      head = body;
      islandNext_[i] = body;
    } else {
      islandNext_[i] = islandNext_[static_cast<std::size_t>(head)];
      islandNext_[static_cast<std::size_t>(head)] = body;
    }
    asleep_[i] = 1;
  }
  int sleeping = 0;
  for (std::size_t i = 0; i < count; ++i) sleeping += asleep_[i];
  r->sleeping = sleeping;
}

}  // namespace collidoscope
