// solver.h: the rigid-body step against closed forms of its own
// integrator (free fall, rotation), physical laws (a resting box, a stack,
// Coulomb friction's deceleration μg, energy that never grows, a bounce no
// higher than the drop), continuous collision that can be switched off to
// show the tunnelling it prevents, and hostile input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "collidoscope/compound.h"
#include "collidoscope/mass.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/solver.h"

namespace collidoscope {
namespace {

constexpr double kG = 9.81;

RigidBody dynamicBody(const Shape* s, const Vec3& at, double density = 1) {
  RigidBody b;
  Transform pose;
  pose.position = at;
  EXPECT_TRUE(makeDynamicBody(s, density, pose, &b));
  return b;
}

RigidBody staticBody(const Shape* s, const Vec3& at) {
  Transform pose;
  pose.position = at;
  return makeStaticBody(s, pose);
}

std::vector<std::uint32_t> allPairs(int n) {
  std::vector<std::uint32_t> p;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) p.push_back(i), p.push_back(j);
  return p;
}

// The rotation angle of a unit quaternion away from identity.
double angleOf(const Quat& q) {
  return 2 * std::atan2(std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z), std::fabs(q.w));
}

// Kinetic plus potential energy (gravity −kG along y, zero at y = 0).
double energy(const RigidBody& b) {
  if (!(b.inverseMass > 0)) return 0;
  const double m = 1 / b.inverseMass;
  Mat3 inertiaLocal;
  EXPECT_TRUE(invert(b.inverseInertiaLocal, &inertiaLocal));
  const Mat3 R = Mat3::rotation(b.pose.rotation);
  const Mat3 I = R * inertiaLocal * R.transposed();
  const Vec3 com = b.pose.apply(b.centerOfMassLocal);
  return 0.5 * m * dot(b.velocity, b.velocity) + 0.5 * dot(b.angularVelocity, I * b.angularVelocity) + m * kG * com.y;
}

// A static mesh floor: two triangles at y = 0, facing up.
Shape meshFloor() {
  TriangleMesh m;
  m.vertices = {{-5, 0, -5}, {5, 0, -5}, {5, 0, 5}, {-5, 0, 5}};
  m.triangles = {{0, 2, 1}, {0, 3, 2}};
  Shape s;
  ShapeError err;
  EXPECT_TRUE(makeMeshShape(m, &s, &err)) << err.message;
  return s;
}

TEST(Solver, FreeFallIsSemiImplicitEulersClosedForm) {
  // With substeps of h = dt/S, after N = n·S of them:
  // v_k = v0 + k g h and x_N = x0 + h Σ_{k=1..N} v_k
  //     = x0 + v0 N h + g h² N(N+1)/2.
  const Shape ball = Shape::sphere(0.5);
  RigidBody b = dynamicBody(&ball, {1, 10, -2});
  b.velocity = {1, 2, 0.5};
  b.angularVelocity = {0.3, -1, 2};  // a ball's inertia is spherical: ω stays
  const Vec3 x0 = b.pose.position, v0 = b.velocity, w0 = b.angularVelocity;
  Solver solver;
  StepSettings s;
  const int n = 120;
  for (int i = 0; i < n; ++i) ASSERT_EQ(solver.step(&b, 1, nullptr, 0, s, nullptr), SolverStatus::Ok);
  const double h = s.dt / s.substeps;
  const double N = n * s.substeps;
  const Vec3 want = x0 + v0 * (N * h) + s.gravity * (h * h * N * (N + 1) / 2);
  EXPECT_NEAR(length(b.pose.position - want), 0, 1e-12);
  EXPECT_NEAR(length(b.velocity - (v0 + s.gravity * (n * s.dt))), 0, 1e-12);
  EXPECT_EQ(b.angularVelocity, w0);
}

TEST(Solver, SpinningBoxStaysUnitAndTurnsByTheUpdatesAngle) {
  // q ← normalize((1, ½ ω h) q) is a rotation about ω by 2·atan(|ω| h/2)
  // per substep h = dt/S, exactly, for a fixed ω.
  const Shape box = Shape::box({0.5, 0.2, 0.3});
  RigidBody b = dynamicBody(&box, {0, 0, 0});
  const double w = 3;
  b.angularVelocity = {0, 0, w};
  Solver solver;
  StepSettings s;
  s.gravity = {};
  const int n = 20;  // stays below a half turn, where angleOf folds
  for (int i = 0; i < n; ++i) ASSERT_EQ(solver.step(&b, 1, nullptr, 0, s, nullptr), SolverStatus::Ok);
  const Quat& q = b.pose.rotation;
  EXPECT_NEAR(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w, 1, 1e-14);
  EXPECT_NEAR(angleOf(q), n * s.substeps * 2 * std::atan(w * s.dt / s.substeps / 2), 1e-12);
  EXPECT_NEAR(q.x, 0, 1e-15);
  EXPECT_NEAR(q.y, 0, 1e-15);
  EXPECT_EQ(b.angularVelocity, (Vec3{0, 0, w}));
  // 10 s of a tumbling spin: still unit.
  b.angularVelocity = {1.3, -2.1, 0.7};
  for (int i = 0; i < 600; ++i) ASSERT_EQ(solver.step(&b, 1, nullptr, 0, s, nullptr), SolverStatus::Ok);
  EXPECT_NEAR(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w, 1, 1e-14);
}

struct RestResult {
  double height = 0, drift = 0, angle = 0;
  int warmStarted = 0;
};

RestResult restOn(const Shape& floor, const Vec3& floorAt) {
  const Shape box = Shape::box({0.5, 0.5, 0.5});
  std::vector<RigidBody> bodies{staticBody(&floor, floorAt), dynamicBody(&box, {0.2, 0.5, -0.3})};
  const std::vector<std::uint32_t> pairs{0, 1};
  Solver solver;
  StepSettings s;
  s.sleep = false;  // the contact itself, every step (asleep, it would not be solved)
  RestResult r;
  r.warmStarted = 1 << 30;
  for (int i = 0; i < 600; ++i) {
    StepReport rep;
    EXPECT_EQ(solver.step(bodies.data(), 2, pairs.data(), 1, s, &rep), SolverStatus::Ok);
    const Vec3 p = bodies[1].pose.position;
    r.height = std::fmax(r.height, std::fabs(p.y - 0.5));
    r.drift = std::fmax(r.drift, std::hypot(p.x - 0.2, p.z + 0.3));
    r.angle = std::fmax(r.angle, angleOf(bodies[1].pose.rotation));
    if (i > 0) r.warmStarted = std::min(r.warmStarted, rep.warmStarted);
  }
  EXPECT_EQ(bodies[0].pose.position, floorAt);  // static: never moves
  return r;
}

TEST(Solver, BoxRestsOnStaticBoxAndPlane) {
  for (int which = 0; which < 2; ++which) {
    const RestResult r = which == 0 ? restOn(Shape::box({5, 0.5, 5}), {0, -0.5, 0})
                                    : restOn(Shape::plane({0, 1, 0}, 0), {0, 0, 0});
    std::printf("rest on %s: height error %.3g m, drift %.3g m, angle %.3g rad, warm-started >= %d\n",
                which == 0 ? "box" : "plane", r.height, r.drift, r.angle, r.warmStarted);
    EXPECT_LT(r.height, 1e-3);
    EXPECT_LT(r.drift, 1e-3);
    EXPECT_LT(r.angle, 0.01);
    EXPECT_EQ(r.warmStarted, 4);  // every point of the face finds last step's impulse
  }
}

struct StackResult {
  double worstHeight = 0, worstSide = 0, floorImpulse = 0;
};

// Ten unit boxes (mass 1) on a static box floor, all pairs, 600 steps at
// 60 Hz: the worst height error and sideways drift of any box at any step,
// and the floor's normal impulse over the last substep.
StackResult stackOfTen(StepSettings s) {
  s.sleep = false;  // the solver's own stability, not sleeping's
  const Shape floor = Shape::box({10, 0.5, 10});
  const Shape box = Shape::box({0.5, 0.5, 0.5});
  std::vector<RigidBody> bodies{staticBody(&floor, {0, -0.5, 0})};
  for (int i = 0; i < 10; ++i) bodies.push_back(dynamicBody(&box, {0, 0.5 + i, 0}));
  const int n = static_cast<int>(bodies.size());
  const std::vector<std::uint32_t> pairs = allPairs(n);
  Solver solver;
  StackResult r;
  for (int step = 0; step < 600; ++step) {
    EXPECT_EQ(solver.step(bodies.data(), n, pairs.data(), static_cast<std::int64_t>(pairs.size() / 2), s, nullptr),
              SolverStatus::Ok);
    for (int i = 1; i < n; ++i) {
      const Vec3 p = bodies[i].pose.position;
      r.worstHeight = std::fmax(r.worstHeight, std::fabs(p.y - (i - 0.5)));
      r.worstSide = std::fmax(r.worstSide, std::hypot(p.x, p.z));
    }
  }
  for (const SolverContact& c : solver.contacts())
    if (c.a == 0) r.floorImpulse += c.normalImpulse;
  return r;
}

TEST(Solver, StackOfTenBoxesStandsTenSeconds) {
  const StepSettings s;
  const StackResult r = stackOfTen(s);
  // At rest the floor carries the stack's weight: over the last substep
  // (h = dt/S) Σ λ_n = 10 m g h (m = 1).
  const double weightImpulse = 10 * kG * s.dt / s.substeps;
  std::printf("stack: worst height error %.3g m, worst sideways %.3g m, floor impulse %.6g (weight·h %.6g)\n",
              r.worstHeight, r.worstSide, r.floorImpulse, weightImpulse);
  EXPECT_LT(r.worstHeight, 0.01);
  EXPECT_LT(r.worstSide, 0.01);
  EXPECT_NEAR(r.floorImpulse, weightImpulse, 0.01 * weightImpulse);
}

TEST(Solver, StackFallsWithoutWarmStartOrSubsteps) {
  // What made it stand: without the warm start it collapses, and one step
  // of 10 iterations (no substeps) leaves it swaying by centimetres.
  StepSettings cold;
  cold.warmStarting = false;
  const StackResult a = stackOfTen(cold);
  StepSettings single;
  single.substeps = 1;
  single.velocityIterations = 10;
  const StackResult b = stackOfTen(single);
  std::printf("stack without warm start: height %.3g m, sideways %.3g m; one step of 10 iterations: %.3g m, %.3g m\n",
              a.worstHeight, a.worstSide, b.worstHeight, b.worstSide);
  EXPECT_GT(a.worstSide, 0.5);
  EXPECT_GT(b.worstSide, 0.01);
}

TEST(Solver, ReusedManifoldIsTheFreshOneCarriedByItsBodies) {
  // A box resting on a static box floor, turned a little about the vertical
  // and moved sideways between steps. Within manifoldReuse the last manifold
  // is used again: its points on the box are the box's bottom corners where
  // they are now (as a fresh manifold's are), their depths exact (the floor's
  // normal has not turned), and its points on the floor lag by the box's
  // sideways motion. Beyond the tolerance a fresh manifold is made.
  const Shape floor = Shape::box({10, 0.5, 10});
  const Shape box = Shape::box({0.5, 0.5, 0.5});
  std::vector<RigidBody> bodies{staticBody(&floor, {0, -0.5, 0}), dynamicBody(&box, {0.1, 0.499, -0.2})};
  const std::vector<std::uint32_t> pairs = allPairs(2);
  StepSettings s;
  s.sleep = false;
  s.gravity = {};
  Solver solver;
  StepReport r;
  ASSERT_EQ(solver.step(bodies.data(), 2, pairs.data(), 1, s, &r), SolverStatus::Ok);
  EXPECT_EQ(r.reusedManifolds, 0);
  ASSERT_EQ(r.points, 4);
  const auto moveBy = [&](const Vec3& shift, double turn) {
    RigidBody& b = bodies[1];
    b.velocity = b.angularVelocity = Vec3{};
    b.pose.position = b.pose.position + shift;
    const Quat q = b.pose.rotation, t{0, std::sin(turn / 2), 0, std::cos(turn / 2)};
    // t q (a turn about the world's vertical)
    b.pose.rotation = {t.w * q.x + t.x * q.w + t.y * q.z - t.z * q.y, t.w * q.y - t.x * q.z + t.y * q.w + t.z * q.x,
                       t.w * q.z + t.x * q.y - t.y * q.x + t.z * q.w, t.w * q.w - t.x * q.x - t.y * q.y - t.z * q.z};
  };
  // 0.4 mm sideways and 0.2 mrad (0.17 mm at the corners): 0.57 mm in all, within 1 mm.
  const Vec3 shift{0.0004, 0, 0};
  moveBy(shift, 0.0002);
  const Transform posed = bodies[1].pose;
  ASSERT_EQ(solver.step(bodies.data(), 2, pairs.data(), 1, s, &r), SolverStatus::Ok);
  EXPECT_EQ(r.reusedManifolds, 1);
  ASSERT_EQ(r.points, 4);
  Shape a = floor, b = box;
  a.pose = bodies[0].pose;
  b.pose = posed;
  Manifold fresh;
  ASSERT_EQ(manifold(a, b, 0.1, &fresh), ManifoldStatus::Ok);
  ASSERT_EQ(fresh.count, 4);
  for (const SolverContact& c : solver.contacts()) {
    const ManifoldPoint* near = &fresh.points[0];
    for (int k = 1; k < fresh.count; ++k)
      if (length(fresh.points[k].pointB - c.pointB) < length(near->pointB - c.pointB)) near = &fresh.points[k];
    EXPECT_LT(length(near->pointB - c.pointB), 1e-12);
    EXPECT_NEAR(c.distance, near->distance, 1e-12);
    EXPECT_LT(length(c.normal - fresh.normal), 1e-12);
    // The floor's point is where the corner was when the manifold was made.
    EXPECT_LT(length(c.pointA - near->pointA), length(shift) + 0.0002 * 0.87 + 1e-12);
    EXPECT_GT(length(c.pointA - near->pointA), 1e-4);
  }
  // Another 0.6 mm: 1.17 mm from where the manifold was made, beyond 1 mm.
  moveBy({0.0006, 0, 0}, 0);
  ASSERT_EQ(solver.step(bodies.data(), 2, pairs.data(), 1, s, &r), SolverStatus::Ok);
  EXPECT_EQ(r.reusedManifolds, 0);
  // Reuse off: never.
  s.manifoldReuse = 0;
  for (int step = 0; step < 3; ++step) {
    ASSERT_EQ(solver.step(bodies.data(), 2, pairs.data(), 1, s, &r), SolverStatus::Ok);
    EXPECT_EQ(r.reusedManifolds, 0);
  }
}

TEST(Solver, ManifoldReuseLeavesAStandingStackWithinItsTolerance) {
  // The ten-box stack of 10 s with and without the reuse (sleep off): the
  // same stack to within the tolerance (1 mm), and the reuse did happen.
  const auto run = [](double reuse, int* reused) {
    const Shape floor = Shape::box({10, 0.5, 10});
    const Shape box = Shape::box({0.5, 0.5, 0.5});
    std::vector<RigidBody> bodies{staticBody(&floor, {0, -0.5, 0})};
    for (int i = 0; i < 10; ++i) bodies.push_back(dynamicBody(&box, {0, 0.5 + i, 0}));
    const int n = static_cast<int>(bodies.size());
    const std::vector<std::uint32_t> pairs = allPairs(n);
    StepSettings s;
    s.sleep = false;
    s.manifoldReuse = reuse;
    Solver solver;
    *reused = 0;
    for (int step = 0; step < 600; ++step) {
      StepReport r;
      EXPECT_EQ(solver.step(bodies.data(), n, pairs.data(), static_cast<std::int64_t>(pairs.size() / 2), s, &r),
                SolverStatus::Ok);
      *reused += r.reusedManifolds;
    }
    return bodies;
  };
  int reusedOn = 0, reusedOff = 0;
  const std::vector<RigidBody> on = run(StepSettings{}.manifoldReuse, &reusedOn);
  const std::vector<RigidBody> off = run(0, &reusedOff);
  std::printf("stack with manifold reuse: %d of %d pair manifolds reused\n", reusedOn, 600 * 10);
  EXPECT_GT(reusedOn, 600 * 10 / 2);
  EXPECT_EQ(reusedOff, 0);
  for (std::size_t i = 1; i < on.size(); ++i) {
    EXPECT_LT(length(on[i].pose.position - off[i].pose.position), 1e-3) << i;
    EXPECT_LT(angleOf(on[i].pose.rotation), 1e-3) << i;
  }
}

// A sphere of radius 0.1 at 100 m/s (1.67 m per step) toward a wall 0.05
// thick; gravity off.
double fastSphereEndX(bool continuous, double* largestX) {
  const Shape wall = Shape::box({0.025, 1, 1});
  const Shape ball = Shape::sphere(0.1);
  std::vector<RigidBody> bodies{staticBody(&wall, {0, 0, 0}), dynamicBody(&ball, {-2, 0, 0})};
  bodies[1].velocity = {100, 0, 0};
  const std::vector<std::uint32_t> pairs{0, 1};
  Solver solver;
  StepSettings s;
  s.gravity = {};
  s.continuous = continuous;
  *largestX = -1e9;
  int clamped = 0;
  for (int i = 0; i < 30; ++i) {
    StepReport rep;
    EXPECT_EQ(solver.step(bodies.data(), 2, pairs.data(), 1, s, &rep), SolverStatus::Ok);
    clamped += rep.ccdClamped;
    *largestX = std::fmax(*largestX, bodies[1].pose.position.x);
  }
  // With shape casts on, the step's speculative contact (its margin widened
  // by the step's motion) may stop the sphere before a cast has to.
  if (!continuous) {
    EXPECT_EQ(clamped, 0);
  }
  return bodies[1].pose.position.x;
}

TEST(Solver, FastSphereDoesNotTunnelThroughThinWall) {
  double largest = 0;
  const double end = fastSphereEndX(true, &largest);
  std::printf("CCD on: largest x %.6g (surface at -0.125), end x %.6g\n", largest, end);
  EXPECT_LE(largest, -0.125 + 1e-3);  // never past touching the wall's face
  EXPECT_LT(end, -0.1);
}

// Bodies: a static wall (its face at x = −0.125), a fast body at 100 m/s
// along x and the body it knocks (index 2). Over 30 steps without gravity the
// knocked body reaches the wall and its shape cast stops it at the face.
static void expectKnockedToTheWallFace(std::vector<RigidBody> bodies, const char* what) {
  const std::vector<std::uint32_t> pairs{0, 1, 0, 2, 1, 2};
  Solver solver;
  StepSettings s;
  s.gravity = {};
  double largest = -1e9;
  int clamped = 0;
  for (int i = 0; i < 30; ++i) {
    StepReport rep;
    ASSERT_EQ(solver.step(bodies.data(), 3, pairs.data(), 3, s, &rep), SolverStatus::Ok) << what << ": " << rep.message;
    clamped += rep.ccdClamped;
    largest = std::fmax(largest, bodies[2].pose.position.x);
  }
  std::printf("knocked %s: largest x %.6g (surface at -0.125), %d casts stopped a motion\n", what, largest, clamped);
  EXPECT_GT(clamped, 0) << what;
  EXPECT_GT(largest, -0.2) << what;           // it was knocked to the wall
  EXPECT_LE(largest, -0.125 + 1e-3) << what;  // and never past touching its face
}

TEST(Solver, ShapeCastStopsABodyKnockedTowardAWallWithinTheStep) {
  // A sphere at 100 m/s knocks a resting one 0.275 m from a wall: the
  // resting one's contacts, found as the step starts, do not reach the wall
  // (no motion, no widened margin), and after the knock it moves 0.1 m per
  // substep; only the shape cast keeps it out of the wall. Gravity off.
  const Shape wall = Shape::box({0.025, 1, 1});
  const Shape ball = Shape::sphere(0.1);
  std::vector<RigidBody> bodies{staticBody(&wall, {0, 0, 0}), dynamicBody(&ball, {-3, 0, 0}),
                                dynamicBody(&ball, {-0.4, 0, 0})};
  bodies[1].velocity = {100, 0, 0};
  expectKnockedToTheWallFace(bodies, "sphere");
}

TEST(Solver, FastSphereTunnelsWithoutContinuousCollision) {
  double largest = 0;
  const double end = fastSphereEndX(false, &largest);
  std::printf("CCD off: end x %.6g\n", end);
  EXPECT_GT(end, 0.125);  // came out the far side
}

TEST(Solver, EnergyNeverGrowsWithoutRestitution) {
  // A tilted, spinning box thrown onto a plane: it lands on a corner,
  // tumbles, slides and stops.
  const Shape floor = Shape::plane({0, 1, 0}, 0);
  const Shape box = Shape::box({0.5, 0.3, 0.4});
  std::vector<RigidBody> bodies{staticBody(&floor, {0, 0, 0}), dynamicBody(&box, {0, 1.5, 0}, 2)};
  bodies[1].pose.rotation = {0.2, 0.1, 0.3, 0};
  const double qn = std::sqrt(0.04 + 0.01 + 0.09 + 0.8 * 0.8);
  bodies[1].pose.rotation = {0.2 / qn, 0.1 / qn, 0.3 / qn, 0.8 / qn};
  bodies[1].velocity = {3, 0, 1};
  bodies[1].angularVelocity = {2, -1, 4};
  const std::vector<std::uint32_t> pairs{0, 1};
  Solver solver;
  StepSettings s;
  s.restitution = 0;
  s.friction = 0.5;
  const double e0 = energy(bodies[1]);
  double prev = e0, worstGrowth = -1e9;
  int grew = 0;
  for (int i = 0; i < 600; ++i) {
    ASSERT_EQ(solver.step(bodies.data(), 2, pairs.data(), 1, s, nullptr), SolverStatus::Ok);
    const double e = energy(bodies[1]);
    worstGrowth = std::fmax(worstGrowth, (e - prev) / e0);
    grew += e > prev;
    prev = e;
  }
  const double rest = 2 * 0.24 * 2 * kG * 0.3;  // m g (lowest half extent): lying on its largest face
  std::printf("energy: start %.6g J, end %.6g J (resting %.6g), worst step growth %.3g of the start, %d steps grew\n",
              e0, prev, rest, worstGrowth, grew);
  EXPECT_LE(worstGrowth, 1e-6);
  EXPECT_NEAR(prev, rest, 0.01 * rest);  // it came to rest, flat
}

TEST(Solver, ElasticBounceNeverExceedsDropHeight) {
  const Shape floor = Shape::plane({0, 1, 0}, 0);
  const Shape ball = Shape::sphere(0.2);
  const double drop = 2;
  std::vector<RigidBody> bodies{staticBody(&floor, {0, 0, 0}), dynamicBody(&ball, {0, drop, 0})};
  const std::vector<std::uint32_t> pairs{0, 1};
  Solver solver;
  StepSettings s;
  s.restitution = 1;
  double highestAfterBounce = 0;
  bool bounced = false;
  for (int i = 0; i < 600; ++i) {
    ASSERT_EQ(solver.step(bodies.data(), 2, pairs.data(), 1, s, nullptr), SolverStatus::Ok);
    if (bodies[1].velocity.y > 0) bounced = true;
    if (bounced) highestAfterBounce = std::fmax(highestAfterBounce, bodies[1].pose.position.y);
    EXPECT_GE(bodies[1].pose.position.y, 0.2 - 1e-3);
  }
  std::printf("bounce: dropped from %.17g, highest after a bounce %.17g\n", drop, highestAfterBounce);
  EXPECT_TRUE(bounced);
  // The bounce gives back the closing speed measured before gravity's
  // increment, so the rise retraces the fall: in exact arithmetic the top is
  // the drop height itself, and rounding may land on either side of it.
  EXPECT_LE(highestAfterBounce, drop + 1e-12);
  EXPECT_GT(highestAfterBounce, 0.95 * drop);  // elastic: it does come back up
}

TEST(Solver, SlidingBoxDeceleratesAtMuG) {
  const Shape floor = Shape::box({50, 0.5, 50});
  const Shape box = Shape::box({0.5, 0.5, 0.5});
  std::vector<RigidBody> bodies{staticBody(&floor, {0, -0.5, 0}), dynamicBody(&box, {0, 0.5, 0})};
  const std::vector<std::uint32_t> pairs{0, 1};
  Solver solver;
  StepSettings s;
  s.friction = 0.4;
  // Settle the contact first, then throw it along x and z.
  for (int i = 0; i < 10; ++i) solver.step(bodies.data(), 2, pairs.data(), 1, s, nullptr);
  bodies[1].velocity = {4, 0, 3};
  const int n = 30;
  const Vec3 v0 = bodies[1].velocity;
  for (int i = 0; i < n; ++i) ASSERT_EQ(solver.step(bodies.data(), 2, pairs.data(), 1, s, nullptr), SolverStatus::Ok);
  const Vec3 dv = bodies[1].velocity - v0;
  const double decel = std::hypot(dv.x, dv.z) / (n * s.dt);
  std::printf("friction: deceleration %.6g m/s² (μg = %.6g)\n", decel, s.friction * kG);
  EXPECT_NEAR(decel, s.friction * kG, 0.02 * s.friction * kG);
  // Along the motion: the velocity keeps its direction.
  EXPECT_NEAR(bodies[1].velocity.x * 3 - bodies[1].velocity.z * 4, 0, 1e-3);
}

// An L of two unit-density boxes: a bar 2 × 0.5 × 0.5 and an upright post
// 0.5 × 1 × 0.5 on its right end.
Shape lCompound() {
  Shape l;
  ShapeError err;
  EXPECT_TRUE(makeCompoundShape({Shape::box({1, 0.25, 0.25}).at({0, 0.25, 0}), Shape::box({0.25, 0.5, 0.25}).at({0.75, 1, 0})},
                                &l, &err))
      << err.message;
  return l;
}

TEST(Solver, CompoundLFallsOnAFloorAndRests) {
  // Dropped tilted onto a plane: it lands, rocks and comes to rest on its
  // bar (its centre of mass is over the bar), with energy that never grows.
  const Shape floor = Shape::plane({0, 1, 0}, 0);
  const Shape l = lCompound();
  std::vector<RigidBody> bodies{staticBody(&floor, {0, 0, 0}), dynamicBody(&l, {0, 1, 0})};
  const double a = 0.2;
  bodies[1].pose.rotation = {0, 0, std::sin(a / 2), std::cos(a / 2)};
  // Its mass properties are mass.h's for the compound (bar 0.5 + post 0.25 = 0.75 at density 1).
  MassProperties mp;
  ASSERT_TRUE(massProperties(l, 1, &mp));
  EXPECT_DOUBLE_EQ(1 / bodies[1].inverseMass, mp.mass);
  EXPECT_NEAR(mp.mass, 0.75, 1e-12);
  EXPECT_NEAR(mp.centerOfMass.x, (0.5 * 0 + 0.25 * 0.75) / 0.75, 1e-12);
  EXPECT_NEAR(mp.centerOfMass.y, (0.5 * 0.25 + 0.25 * 1) / 0.75, 1e-12);
  EXPECT_EQ(bodies[1].centerOfMassLocal.x, mp.centerOfMass.x);
  const std::vector<std::uint32_t> pairs{0, 1};
  Solver solver;
  StepSettings s;
  s.restitution = 0;
  const double e0 = energy(bodies[1]);
  double prev = e0, worstGrowth = -1e9;
  for (int i = 0; i < 300; ++i) {
    StepReport r;
    ASSERT_EQ(solver.step(bodies.data(), 2, pairs.data(), 1, s, &r), SolverStatus::Ok) << r.message;
    const double e = energy(bodies[1]);
    worstGrowth = std::fmax(worstGrowth, (e - prev) / e0);
    prev = e;
  }
  const RigidBody& b = bodies[1];
  std::printf("compound L: rests at y %.6g, angle %.3g rad, speed %.3g, worst energy growth %.3g\n",
              b.pose.position.y, angleOf(b.pose.rotation), length(b.velocity), worstGrowth);
  EXPECT_LE(worstGrowth, 1e-6);
  // At rest on its bar: upright, the bar's bottom on the floor, still; the bar's four corners the contacts.
  EXPECT_LT(angleOf(b.pose.rotation), 0.01);
  EXPECT_NEAR(b.pose.position.y, 0, 2e-3);
  EXPECT_LT(length(b.velocity), 1e-3);
  EXPECT_LT(length(b.angularVelocity), 1e-2);
  EXPECT_NEAR(prev, mp.mass * kG * mp.centerOfMass.y, 0.01 * prev);
  EXPECT_EQ(solver.contacts().size(), 4u);
}

TEST(Solver, ShapeCastStopsAKnockedCompoundAtItsChildrensSurface) {
  // As ShapeCastStopsABodyKnockedTowardAWallWithinTheStep, the knocked body
  // a dumbbell of two balls (a compound): the cast stops it where a ball's
  // surface, not its centre, touches the wall (a compound's own support is
  // its children's cores, without their radii).
  const Shape wall = Shape::box({0.025, 1, 1});
  const Shape ball = Shape::sphere(0.1);
  Shape dumbbell;
  ShapeError err;
  ASSERT_TRUE(makeCompoundShape({Shape::sphere(0.1).at({0, 0.15, 0}), Shape::sphere(0.1).at({0, -0.15, 0})}, &dumbbell, &err))
      << err.message;
  std::vector<RigidBody> bodies{staticBody(&wall, {0, 0, 0}), dynamicBody(&ball, {-3, 0.15, 0}),
                                dynamicBody(&dumbbell, {-0.4, 0, 0})};
  bodies[1].velocity = {100, 0, 0};
  expectKnockedToTheWallFace(bodies, "dumbbell");
}

TEST(Solver, BoxRestsOnAStaticCompoundFloorAcrossItsTwoChildren) {
  // A floor of two slabs side by side (a static compound): a box dropped
  // across the seam rests on both, level.
  Shape floor;
  ShapeError err;
  ASSERT_TRUE(makeCompoundShape({Shape::box({1, 0.25, 2}).at({-1, -0.25, 0}), Shape::box({1, 0.25, 2}).at({1, -0.25, 0})},
                                &floor, &err))
      << err.message;
  const Shape box = Shape::box({0.5, 0.25, 0.5});
  std::vector<RigidBody> bodies{staticBody(&floor, {0, 0, 0}), dynamicBody(&box, {0, 0.6, 0})};
  const std::vector<std::uint32_t> pairs{0, 1};
  Solver solver;
  StepSettings s;
  s.sleep = false;  // the last step must solve the resting contacts, not skip them asleep
  StepReport r;
  for (int i = 0; i < 240; ++i) ASSERT_EQ(solver.step(bodies.data(), 2, pairs.data(), 1, s, &r), SolverStatus::Ok);
  EXPECT_EQ(r.manifolds, 2);  // one per slab
  EXPECT_NEAR(bodies[1].pose.position.y, 0.25, 2e-3);
  EXPECT_LT(angleOf(bodies[1].pose.rotation), 0.01);
  EXPECT_LT(length(bodies[1].velocity), 1e-3);
  // Warm starting finds last step's points: each slab's child index is in the ids.
  EXPECT_EQ(r.warmStarted, r.points);
}

TEST(Solver, HostileInputLeavesBodiesUnchanged) {
  const Shape box = Shape::box({0.5, 0.5, 0.5});
  const Shape plane = Shape::plane({0, 1, 0}, 0);
  const auto same = [](const RigidBody& a, const RigidBody& b) {
    return std::memcmp(&a.pose, &b.pose, sizeof a.pose) == 0 &&
           std::memcmp(&a.velocity, &b.velocity, sizeof(Vec3)) == 0 &&
           std::memcmp(&a.angularVelocity, &b.angularVelocity, sizeof(Vec3)) == 0;
  };
  const std::vector<std::uint32_t> pairs{0, 1};
  const auto run = [&](std::vector<RigidBody> bodies, const StepSettings& s, SolverStatus want, const char* what,
                       const std::vector<std::uint32_t>& p) {
    const std::vector<RigidBody> before = bodies;
    Solver solver;
    StepReport rep;
    EXPECT_EQ(solver.step(bodies.data(), static_cast<int>(bodies.size()), p.data(),
                          static_cast<std::int64_t>(p.size() / 2), s, &rep),
              want)
        << what;
    EXPECT_EQ(rep.status, want) << what;
    EXPECT_STRNE(rep.message, "") << what;
    for (std::size_t i = 0; i < bodies.size(); ++i) EXPECT_TRUE(same(bodies[i], before[i])) << what;
  };
  const std::vector<RigidBody> ok{staticBody(&plane, {0, 0, 0}), dynamicBody(&box, {0, 0.5, 0})};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  StepSettings s;

  std::vector<RigidBody> b = ok;
  b[1].velocity.x = nan;
  run(b, s, SolverStatus::InvalidBody, "NaN velocity", pairs);
  b = ok;
  b[1].inverseMass = -1;
  run(b, s, SolverStatus::InvalidBody, "negative mass", pairs);
  b = ok;
  b[0].inverseMass = 1;
  run(b, s, SolverStatus::StaticOnly, "moving plane", pairs);
  b = ok;
  b[1].pose.rotation = {0, 0, 0, 2};
  run(b, s, SolverStatus::InvalidBody, "non-unit rotation", pairs);
  b = ok;
  b[1].shape = nullptr;
  run(b, s, SolverStatus::InvalidBody, "null shape", pairs);

  const Shape mesh = meshFloor();
  b = ok;
  b[0].shape = &mesh;
  b[0].inverseMass = 1;
  run(b, s, SolverStatus::StaticOnly, "moving mesh", pairs);

  StepSettings bad = s;
  bad.dt = 0;
  run(ok, bad, SolverStatus::InvalidSettings, "zero dt", pairs);
  bad.dt = nan;
  run(ok, bad, SolverStatus::InvalidSettings, "NaN dt", pairs);
  bad = s;
  bad.velocityIterations = 0;
  run(ok, bad, SolverStatus::InvalidSettings, "no iterations", pairs);
  bad = s;
  bad.substeps = 0;
  run(ok, bad, SolverStatus::InvalidSettings, "no substeps", pairs);
  bad = s;
  bad.friction = -0.1;
  run(ok, bad, SolverStatus::InvalidSettings, "negative friction", pairs);
  bad = s;
  bad.restitution = 1.5;
  run(ok, bad, SolverStatus::InvalidSettings, "restitution 1.5", pairs);
  bad = s;
  bad.manifoldReuse = -1;
  run(ok, bad, SolverStatus::InvalidSettings, "negative manifoldReuse", pairs);
  bad = s;
  bad.manifoldReuse = nan;
  run(ok, bad, SolverStatus::InvalidSettings, "NaN manifoldReuse", pairs);
  bad = s;
  bad.sleepSpeed = -1;
  run(ok, bad, SolverStatus::InvalidSettings, "negative sleepSpeed", pairs);
  bad = s;
  bad.sleepTime = nan;
  run(ok, bad, SolverStatus::InvalidSettings, "NaN sleepTime", pairs);

  run(ok, s, SolverStatus::InvalidPair, "pair out of range", {0, 2});
  run(ok, s, SolverStatus::InvalidPair, "self pair", {1, 1});

  {
    std::vector<RigidBody> counted = ok;
    Solver solver;
    StepReport rep;
    EXPECT_EQ(solver.step(counted.data(), -1, pairs.data(), 1, s, &rep), SolverStatus::InvalidCount);
    EXPECT_EQ(solver.step(counted.data(), 2, nullptr, 1, s, &rep), SolverStatus::InvalidCount);
    EXPECT_STRNE(rep.message, "");
    EXPECT_TRUE(same(counted[1], ok[1]));
  }

  // And the good input does move the box (the checks above are not vacuous).
  std::vector<RigidBody> good = ok;
  good[1].pose.position.y = 3;
  Solver solver;
  ASSERT_EQ(solver.step(good.data(), 2, pairs.data(), 1, s, nullptr), SolverStatus::Ok);
  EXPECT_LT(good[1].pose.position.y, 3);
}

// A 3 × 3 grid of stacks of three unit boxes, 1.5 apart, and one more box
// alone at the side, on a static floor; the candidate pairs are those of
// the bodies' axis-aligned boxes (the boxes stay nearly upright) grown by
// 0.05 and their motion over the step, found by brute force.
struct Pile {
  static constexpr int kStacked = 27;
  static constexpr int kLone = 1 + kStacked;  // the box at the side
  Shape floor = Shape::box({10, 0.5, 10});
  Shape box = Shape::box({0.5, 0.5, 0.5});
  std::vector<RigidBody> bodies;
  std::vector<std::uint32_t> pairs;
  Pile() {
    bodies.push_back(staticBody(&floor, {0, -0.5, 0}));
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k)
        for (int j = 0; j < 3; ++j) bodies.push_back(dynamicBody(&box, {1.5 * i, 0.5 + j, 1.5 * k}));
    bodies.push_back(dynamicBody(&box, {7, 0.5, 7}));
  }
  int n() const { return static_cast<int>(bodies.size()); }
  RigidBody& body(int i) { return bodies[static_cast<std::size_t>(i)]; }
  void findPairs(double dt) {
    pairs.clear();
    const auto grown = [&](int i, Vec3* lo, Vec3* hi) {
      const RigidBody& b = body(i);
      const Vec3 half = i == 0 ? Vec3{10, 0.5, 10} : Vec3{0.5, 0.5, 0.5};
      const double g = 0.05 + (length(b.velocity) + kG * dt) * dt;
      *lo = b.pose.position - half - Vec3{g, g, g};
      *hi = b.pose.position + half + Vec3{g, g, g};
    };
    for (int i = 0; i < n(); ++i)
      for (int j = i + 1; j < n(); ++j) {
        Vec3 loA, hiA, loB, hiB;
        grown(i, &loA, &hiA);
        grown(j, &loB, &hiB);
        if (loA.x <= hiB.x && loB.x <= hiA.x && loA.y <= hiB.y && loB.y <= hiA.y && loA.z <= hiB.z && loB.z <= hiA.z)
          pairs.push_back(static_cast<std::uint32_t>(i)), pairs.push_back(static_cast<std::uint32_t>(j));
      }
  }
  StepReport step(Solver* solver, const StepSettings& s) {
    findPairs(s.dt);
    StepReport r;
    EXPECT_EQ(solver->step(bodies.data(), n(), pairs.data(), static_cast<std::int64_t>(pairs.size() / 2), s, &r),
              SolverStatus::Ok);
    return r;
  }
};

TEST(Solver, APileGoesToSleepAndStaysPut) {
  Pile pile;
  Solver solver;
  const StepSettings s;
  const int all = Pile::kStacked + 1;
  int asleepAt = -1;
  for (int step = 0; step < 300 && asleepAt < 0; ++step)
    if (pile.step(&solver, s).sleeping == all) asleepAt = step;
  std::printf("pile of %d asleep after %d steps\n", all, asleepAt + 1);
  // At rest from the start: asleep once sleepTime has passed, not before.
  ASSERT_GE(asleepAt + 1, static_cast<int>(std::ceil(s.sleepTime / s.dt)));
  ASSERT_LT(asleepAt, 120);
  const std::vector<RigidBody> before = pile.bodies;
  const std::size_t contacts = solver.contacts().size();
  EXPECT_EQ(contacts, std::size_t{all} * 4);  // every face on the one below, kept while asleep
  for (int step = 0; step < 300; ++step) {
    const StepReport r = pile.step(&solver, s);
    EXPECT_EQ(r.sleeping, all);
    EXPECT_EQ(r.points, 0);  // nothing solved, no manifold made
  }
  for (int i = 1; i < pile.n(); ++i) {
    const RigidBody& b = pile.body(i);
    EXPECT_EQ(std::memcmp(&b.pose, &before[static_cast<std::size_t>(i)].pose, sizeof b.pose), 0) << i;
    EXPECT_EQ(b.velocity, Vec3{});
    EXPECT_EQ(b.angularVelocity, Vec3{});
    // Where the stack puts it (boxes 1 m tall on a floor at 0).
    EXPECT_NEAR(b.pose.position.y, i == Pile::kLone ? 0.5 : 0.5 + (i - 1) % 3, 2e-3) << i;
  }
  EXPECT_EQ(solver.contacts().size(), contacts);
  // Sleep off: everyone awake again, and solved.
  StepSettings awake;
  awake.sleep = false;
  const StepReport r = pile.step(&solver, awake);
  EXPECT_EQ(r.sleeping, 0);
  EXPECT_EQ(r.points, all * 4);
}

TEST(Solver, ABodyDroppedOnASleepingPileWakesTheStackItLandsOn) {
  Pile pile;
  Solver solver;
  const StepSettings s;
  const int all = Pile::kStacked + 1;
  for (int step = 0; step < 120; ++step) pile.step(&solver, s);
  ASSERT_EQ(pile.step(&solver, s).sleeping, all);
  // The lone box moved 2 m above the middle stack (i = k = 1), pushed down:
  // moved and given a velocity, it wakes (its island is itself).
  const int top = 1 + 3 * (3 * 1 + 1) + 2;  // the middle stack's top box
  const double restY = pile.body(top).pose.position.y;
  RigidBody& dropped = pile.body(Pile::kLone);
  dropped.pose.position = pile.body(top).pose.position + Vec3{0, 3, 0};
  dropped.velocity = {0, -1, 0};
  int sleepingWhileFalling = all, woke = -1, sleepingThen = -1;
  double lowest = 1e9;
  for (int step = 0; step < 240; ++step) {
    const StepReport r = pile.step(&solver, s);
    if (woke < 0 && r.sleeping < all - 1) woke = step, sleepingThen = r.sleeping;
    if (woke < 0) sleepingWhileFalling = std::min(sleepingWhileFalling, r.sleeping);
    lowest = std::fmin(lowest, pile.body(top).pose.position.y);
  }
  std::printf("dropped box woke its stack at step %d (%d asleep then), the stack's top box lowest %.3g below rest\n",
              woke, sleepingThen, restY - lowest);
  EXPECT_EQ(sleepingWhileFalling, all - 1);  // only the moved box, until it came near
  ASSERT_GE(woke, 0);
  EXPECT_EQ(sleepingThen, all - 4);  // the stack of three it falls on woke; the other eight slept on
  // It landed and the stack held it, and all went back to sleep.
  EXPECT_NEAR(dropped.pose.position.y, restY + 1, 0.01);
  EXPECT_EQ(pile.step(&solver, s).sleeping, all);
  // The landing pushed the box below it down (asleep, it would not have
  // moved at all).
  EXPECT_LT(lowest, restY - 1e-5);
}

TEST(Solver, MovingAStaticBodyWakesWhatRestsOnIt) {
  Pile pile;
  Solver solver;
  const StepSettings s;
  for (int step = 0; step < 120; ++step) pile.step(&solver, s);
  ASSERT_EQ(pile.step(&solver, s).sleeping, Pile::kStacked + 1);
  // The floor lowered by 0.5 m: out of every box's candidate pairs, but
  // what touched it last step wakes, and falls.
  pile.body(0).pose.position.y -= 0.5;
  EXPECT_EQ(pile.step(&solver, s).sleeping, 0);
  for (int step = 0; step < 60; ++step) pile.step(&solver, s);
  EXPECT_NEAR(pile.body(Pile::kLone).pose.position.y, 0.0, 0.01);  // on the floor, 0.5 lower
  // A static body moved away from nothing asleep wakes nobody.
  for (int step = 0; step < 60; ++step) pile.step(&solver, s);
  ASSERT_EQ(pile.step(&solver, s).sleeping, Pile::kStacked + 1);
  Shape post = Shape::box({0.1, 0.1, 0.1});
  pile.bodies.push_back(staticBody(&post, {20, 0, 20}));
  pile.step(&solver, s);  // a new body: everyone wakes (another numbering), then sleeps again
  for (int step = 0; step < 60; ++step) pile.step(&solver, s);
  ASSERT_EQ(pile.step(&solver, s).sleeping, Pile::kStacked + 1);
  pile.body(pile.n() - 1).pose.position.x += 1;
  EXPECT_EQ(pile.step(&solver, s).sleeping, Pile::kStacked + 1);
}

TEST(Solver, SleepingIsDeterministic) {
  // The same steps twice give the same bits, asleep and woken.
  const auto run = [] {
    Pile pile;
    Solver solver;
    const StepSettings s;
    for (int step = 0; step < 60; ++step) pile.step(&solver, s);
    pile.body(14).velocity = {0.5, 0, 0};
    for (int step = 0; step < 60; ++step) pile.step(&solver, s);
    return pile.bodies;
  };
  const std::vector<RigidBody> a = run(), b = run();
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(std::memcmp(&a[i].pose, &b[i].pose, sizeof a[i].pose), 0);
    EXPECT_EQ(std::memcmp(&a[i].velocity, &b[i].velocity, sizeof(Vec3)), 0);
  }
}

TEST(Solver, SpheresOnStaticMesh) {
  // Dropped from 1 m, a sphere comes to rest on the mesh (meshManifold);
  // thrown down at 100 m/s it is stopped at the surface (meshPairShapeCast
  // and the widened speculative margin), and without CCD it goes through.
  const Shape floor = meshFloor();
  const Shape ball = Shape::sphere(0.1);
  for (int mode = 0; mode < 3; ++mode) {
    std::vector<RigidBody> bodies{staticBody(&floor, {0, 0, 0}), dynamicBody(&ball, {0.3, 1, -0.2})};
    if (mode > 0) bodies[1].velocity = {0, -100, 0};
    const std::vector<std::uint32_t> pairs{0, 1};
    Solver solver;
    StepSettings s;
    s.continuous = mode != 2;
    double lowest = 1e9;
    for (int i = 0; i < 120; ++i) {
      ASSERT_EQ(solver.step(bodies.data(), 2, pairs.data(), 1, s, nullptr), SolverStatus::Ok);
      lowest = std::fmin(lowest, bodies[1].pose.position.y);
    }
    std::printf("mesh floor, mode %d: lowest centre height %.6g, end %.6g\n", mode, lowest,
                bodies[1].pose.position.y);
    if (mode < 2) {
      EXPECT_GT(lowest, 0.1 - 1e-3);
      EXPECT_NEAR(bodies[1].pose.position.y, 0.1, 1e-3);
    } else {
      EXPECT_LT(bodies[1].pose.position.y, -1);
    }
  }
}

TEST(Solver, MakeDynamicBodyRefusesMasslessShapes) {
  const Shape plane = Shape::plane({0, 1, 0}, 0);
  const Shape point = Shape::point();
  RigidBody b;
  MassStatus st;
  EXPECT_FALSE(makeDynamicBody(&plane, 1, Transform{}, &b, &st));
  EXPECT_EQ(st, MassStatus::StaticOnly);
  EXPECT_FALSE(makeDynamicBody(&point, 1, Transform{}, &b, &st));
  EXPECT_EQ(st, MassStatus::ZeroVolume);
}

}  // namespace
}  // namespace collidoscope
