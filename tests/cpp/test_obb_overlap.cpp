// The 15-axis OBB test (obb_overlap.h) against GJK's distance between the
// same boxes as shapes (an independent method), and the returned axis
// checked by projecting all 16 corners onto it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "collidoscope/obb_overlap.h"
#include "gjk_helpers.h"

namespace {

using namespace collidoscope;

double uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}
Quat randomRotation(std::mt19937_64& rng) {
  Quat q{uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)};
  const double l = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  return {q.x / l, q.y / l, q.z / l, q.w / l};
}

Obb boxWithPose(const Vec3& h, const Transform& pose) {
  Obb b;
  b.center = pose.position;
  const Vec3 unitAxes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int i = 0; i < 3; ++i) b.axes[i] = pose.applyToDirection(unitAxes[i]);
  b.halfExtents = h;
  return b;
}

Shape boxShape(const Vec3& h, const Transform& pose) {
  Shape s = Shape::box(h);
  s.pose = pose;
  return s;
}

// The axis the index names, formed explicitly.
Vec3 axisOf(const Obb& a, const Obb& b, int k) {
  if (k < 3) return a.axes[k];
  if (k < 6) return b.axes[k - 3];
  return cross(a.axes[(k - 6) / 3], b.axes[(k - 6) % 3]);
}

void projection(const Obb& o, const Vec3& axis, double* lo, double* hi) {
  *lo = INFINITY;
  *hi = -INFINITY;
  for (int c = 0; c < 8; ++c) {
    Vec3 p = o.center;
    const double s[3] = {(c & 1) ? 1.0 : -1.0, (c & 2) ? 1.0 : -1.0, (c & 4) ? 1.0 : -1.0};
    p = p + o.axes[0] * (s[0] * o.halfExtents.x) + o.axes[1] * (s[1] * o.halfExtents.y) +
        o.axes[2] * (s[2] * o.halfExtents.z);
    const double v = dot(p, axis);
    *lo = std::min(*lo, v);
    *hi = std::max(*hi, v);
  }
}

TEST(ObbOverlap, AgreesWithGjkOnRandomBoxes) {
  std::mt19937_64 rng(5);
  int apart = 0, overlapping = 0, sphereRejects = 0;
  for (int n = 0; n < 20000; ++n) {
    Transform pa, pb;
    pa.position = {uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)};
    pb.position = {uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)};
    pa.rotation = randomRotation(rng);
    // Every fourth pair shares its rotation: parallel edges everywhere.
    pb.rotation = (n % 4 == 0) ? pa.rotation : randomRotation(rng);
    const Vec3 ha{uniform(rng, 0.01, 0.8), uniform(rng, 0.01, 0.8), uniform(rng, 0, 0.8)};
    const Vec3 hb{uniform(rng, 0.01, 0.8), uniform(rng, 0, 0.8), uniform(rng, 0.01, 0.8)};
    const Obb a = boxWithPose(ha, pa), b = boxWithPose(hb, pb);
    const double d = testutil::distance(boxShape(ha, pa), boxShape(hb, pb)).distance;
    const int axis = obbSeparatingAxis(a, b, 0.0);
    if (axis != kObbOverlap) {
      // The named axis really separates the corners.
      double loA, hiA, loB, hiB;
      const Vec3 l = axisOf(a, b, axis);
      projection(a, l, &loA, &hiA);
      projection(b, l, &loB, &hiB);
      EXPECT_TRUE(hiA < loB || hiB < loA) << n << " axis " << axis;
      EXPECT_GT(d, 0.0) << n;
      ++apart;
    } else {
      // Overlap is only claimed for boxes GJK finds touching, or apart by
      // less than the parallel slack can hide.
      EXPECT_LE(d, 1e-9) << n;
      ++overlapping;
    }
    if (obbSpheresApart(a, b, 0.0)) {
      EXPECT_NE(axis, kObbOverlap) << n;
      ++sphereRejects;
    }
  }
  // Both outcomes are well represented.
  EXPECT_GT(apart, 2000);
  EXPECT_GT(overlapping, 2000);
  EXPECT_GT(sphereRejects, 500);
}

TEST(ObbOverlap, TouchingAndContainedBoxesOverlap) {
  Obb a;
  a.halfExtents = {1, 1, 1};
  Obb b = a;
  b.center = {2, 0, 0};  // face to face
  EXPECT_EQ(obbSeparatingAxis(a, b, 0.0), kObbOverlap);
  b.center = {2, 2, 2};  // corner to corner
  EXPECT_EQ(obbSeparatingAxis(a, b, 0.0), kObbOverlap);
  b.center = {2 + 1e-9, 0, 0};
  EXPECT_EQ(obbSeparatingAxis(a, b, 0.0), 0);
  EXPECT_EQ(obbSeparatingAxis(a, b, 1e-8), kObbOverlap);  // within the slack
  b.center = {0.1, -0.2, 0.3};
  b.halfExtents = {0.1, 0.1, 0.1};  // inside a
  EXPECT_EQ(obbSeparatingAxis(a, b, 0.0), kObbOverlap);
  EXPECT_EQ(obbSeparatingAxis(b, a, 0.0), kObbOverlap);
  // Flat boxes (a triangle's box has no thickness) in one plane, apart.
  Obb f;
  f.halfExtents = {1, 1, 0};
  Obb g = f;
  g.center = {3, 0, 0};
  EXPECT_EQ(obbSeparatingAxis(f, g, 0.0), 0);
}

TEST(ObbOverlap, CrossedBoxesAtTwoHeights) {
  // Two long thin boxes crossed like an X: every vertical axis sees them
  // overlap, A's third axis (z) separates them when they are at different
  // heights.
  Obb a;
  a.halfExtents = {5, 0.1, 0.1};
  const double c = std::sqrt(0.5);
  a.axes[0] = {c, c, 0};
  a.axes[1] = {-c, c, 0};
  a.axes[2] = {0, 0, 1};
  Obb b;
  b.halfExtents = {5, 0.1, 0.1};
  b.axes[0] = {c, -c, 0};
  b.axes[1] = {c, c, 0};
  b.axes[2] = {0, 0, 1};
  b.center = {0, 0, 0.5};
  EXPECT_EQ(obbSeparatingAxis(a, b, 0.0), 2);
  b.center = {0, 0, 0.15};
  EXPECT_EQ(obbSeparatingAxis(a, b, 0.0), kObbOverlap);
}

TEST(ObbOverlap, TransformObbMovesCentreAndAxes) {
  Obb local;
  local.center = {1, 0, 0};
  local.halfExtents = {1, 2, 3};
  Transform pose;
  pose.position = {0, 0, 5};
  const double c = std::sqrt(0.5);
  pose.rotation = {0, 0, c, c};  // 90° about z
  const Obb w = transformObb(local, pose);
  EXPECT_NEAR(w.center.x, 0, 1e-15);
  EXPECT_NEAR(w.center.y, 1, 1e-15);
  EXPECT_NEAR(w.center.z, 5, 1e-15);
  EXPECT_NEAR(w.axes[0].y, 1, 1e-15);
  EXPECT_EQ(w.halfExtents.z, 3);
}

}  // namespace
