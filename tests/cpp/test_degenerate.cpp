// Degenerate inputs end with a status and a finite answer, never a hang or
// NaN: touching boxes (face–face, edge–edge, vertex–vertex), identical
// shapes, zero-size shapes, coincident points, duplicate and flat point
// sets, large coordinates with tiny gaps, tiny and huge shapes.
//
// Expected values are exact by construction (representable coordinates) or
// closed forms from reference.h. Tolerance: 1e-9 of the scene scale, the
// library's promise.
#include <gtest/gtest.h>

#include <cmath>

#include "gjk_helpers.h"
#include "reference.h"

namespace {

using namespace testutil;
using collidoscope::ShapeType;
using ref::Rng;

constexpr double kRel = 1e-9;

// Distance both ways and intersect both ways: statuses and finiteness, then
// the distance checked against `expected` within kRel·scale.
void expectDistance(const Shape& a, const Shape& b, double expected, const char* what) {
  SCOPED_TRACE(std::string(what) + ": " + describe(a) + " vs " + describe(b));
  const double tol = kRel * ref::sceneScale(a, b);
  for (int order = 0; order < 2; ++order) {
    const DistanceResult r = order == 0 ? distance(a, b) : distance(b, a);
    const IntersectResult ir = order == 0 ? intersect(a, b) : intersect(b, a);
    EXPECT_TRUE(resultFinite(r));
    EXPECT_TRUE(statusOk(r.status)) << collidoscope::gjkStatusName(r.status) << " after " << r.iterations;
    EXPECT_TRUE(statusOk(ir.status)) << collidoscope::gjkStatusName(ir.status) << " after " << ir.iterations;
    EXPECT_NEAR(r.distance, expected, tol);
    EXPECT_NEAR(ref::dist(r.pointA, r.pointB), r.distance, tol);
    if (expected > tol) {
      EXPECT_FALSE(ir.intersecting);
    }
    if (expected == 0) {
      EXPECT_TRUE(ir.intersecting) << "touching within rounding counts as intersecting";
    }
  }
}

Quat axisAngle(Vec3 axis, double angle) {
  axis = ref::unit(axis);
  const double s = std::sin(angle / 2);
  return {axis.x * s, axis.y * s, axis.z * s, std::cos(angle / 2)};
}

TEST(Degenerate, TouchingBoxesFaceFace) {
  Shape a = Shape::box({1, 1, 1});
  Shape b = Shape::box({1, 1, 1});
  b.at({2, 0, 0});
  expectDistance(a, b, 0, "full face contact");
  b.at({2, 0.5, -1.25});
  expectDistance(a, b, 0, "partial face contact");
  Shape c = Shape::box({0.5, 2, 3});
  c.at({0, 1.5, 0});
  Shape d = Shape::box({4, 0.5, 0.25});
  d.at({0, -1.5, 0});  // d's top face y = -1, c's bottom face y = -0.5
  expectDistance(c, d, 0.5, "parallel faces 0.5 apart");
}

TEST(Degenerate, TouchingBoxesEdgeEdge) {
  // A turned 45° about x has edges along x at y = ±√2; B turned 45° about z
  // has edges along z at y = ±√2. B lifted by 2√2: the edges cross at
  // (0, √2, 0) (exactly, up to the rounding of √2 and of the rotations).
  Shape a = Shape::box({1, 1, 1});
  Shape b = Shape::box({1, 1, 1});
  a.at({0, 0, 0}, axisAngle({1, 0, 0}, M_PI / 4));
  b.at({0, 2 * std::sqrt(2.0), 0}, axisAngle({0, 0, 1}, M_PI / 4));
  expectDistance(a, b, 0, "edge-edge touching");
  b.at({0, 2 * std::sqrt(2.0) + 1e-3, 0}, b.pose.rotation);
  expectDistance(a, b, 1e-3, "edge-edge 1e-3 apart");
}

TEST(Degenerate, TouchingBoxesVertexVertex) {
  Shape a = Shape::box({1, 1, 1});
  Shape b = Shape::box({1, 1, 1});
  b.at({2, 2, 2});
  expectDistance(a, b, 0, "vertex-vertex touching");
  b.at({2.5, 2, 2});
  expectDistance(a, b, 0.5, "vertex-edge 0.5 apart");
  b.at({3, 3, 3});
  expectDistance(a, b, std::sqrt(3.0), "vertex-vertex sqrt(3) apart");
}

TEST(Degenerate, CurvedShapesInTouchingContact) {
  // Curved cores converge asymptotically; exact touching is where GJK
  // implementations crawl (DESIGN.md: libccd's weak spot). Each pair touches
  // at one point or along a line, with representable coordinates.
  Shape ell = Shape::ellipsoid({1, 2, 3});
  Shape box = Shape::box({1, 1, 1});
  box.at({2, 0, 0});
  expectDistance(ell, box, 0, "ellipsoid tip on a box face");
  Shape side = Shape::cylinder(1, 1);
  expectDistance(side, box, 0, "cylinder side on a box face (line contact)");
  Shape c1 = Shape::cylinder(1, 2), c2 = Shape::cylinder(0.5, 1);
  c2.at({1.5, 0.5, 0});
  expectDistance(c1, c2, 0, "parallel cylinders touching along a line");
  Shape cone = Shape::cone(1, 1);
  Shape floor = Shape::box({5, 0.5, 5});
  floor.at({0, 1.5, 0});
  expectDistance(cone, floor, 0, "cone apex on a box");
  Shape cone2 = Shape::cone(1, 1);
  cone2.at({0, -2, 0});
  expectDistance(cone, cone2, 0, "cone base on cone apex");
  Shape e1 = Shape::ellipsoid({1, 1, 2}), e2 = Shape::ellipsoid({2, 1, 1});
  e2.at({3, 0, 0});
  expectDistance(e1, e2, 0, "ellipsoids touching at their tips");
  Shape s = Shape::sphere(1);
  s.at({0, 0, 5});
  expectDistance(e1, s, 2, "ellipsoid tip 2 below a sphere");
  Shape cyl = Shape::cylinder(1, 1);
  cyl.at({0, 0, 3});
  expectDistance(e1, cyl, 0, "ellipsoid tip on a cylinder's side");
}

TEST(Degenerate, CurvedShapesNearTouchingABoxFace) {
  // A rotated curved shape C at the origin and a wide box whose face x = f
  // lies `gap` beyond C's extent along +x: f = h_C(x̂) + gap. C's extreme
  // point along x̂ is within 3 of the axis, inside the face (half-size 10),
  // so the distance is exactly `gap` (up to the rounding of h_C). Gaps from
  // 1e-13 to 1e-3; the promise is 1e-9 of the scene scale.
  Rng rng(404);
  struct Worst {
    double err = 0;
    std::string repro;
  } worst;
  int outside = 0;
  for (int i = 0; i < 600; ++i) {
    Shape c;
    switch (i % 3) {
      case 0: c = Shape::ellipsoid({rng.uniform(0.2, 3), rng.uniform(0.2, 3), rng.uniform(0.2, 3)}); break;
      case 1: c = Shape::cylinder(rng.uniform(0.2, 2), rng.uniform(0.2, 2)); break;
      default: c = Shape::cone(rng.uniform(0.2, 2), rng.uniform(0.2, 2)); break;
    }
    c.at({0, 0, 0}, rng.rotation());
    const double gap = rng.logUniform(1e-13, 1e-3);
    Shape box = Shape::box({1, 10, 10});
    box.at({ref::supportValue(c, {1, 0, 0}) + gap + 1, rng.uniform(-1, 1), rng.uniform(-1, 1)});
    const double scale = ref::sceneScale(c, box);
    for (int order = 0; order < 2; ++order) {
      const DistanceResult r = order == 0 ? distance(c, box) : distance(box, c);
      const IntersectResult ir = order == 0 ? intersect(c, box) : intersect(box, c);
      ASSERT_TRUE(resultFinite(r));
      EXPECT_TRUE(statusOk(r.status));
      EXPECT_TRUE(statusOk(ir.status));
      const double err = std::fabs(r.distance - gap);
      if (err / scale > worst.err) {
        char buf[160];
        std::snprintf(buf, sizeof buf, " (order %d) gap %.17g got %.17g, status %s, %d iterations", order, gap,
                      r.distance, collidoscope::gjkStatusName(r.status), r.iterations);
        worst.err = err / scale;
        worst.repro = describe(c) + " vs " + describe(box) + buf;
      }
      if (err > 1e-9 * scale) ++outside;
      if (gap > 1e-9 * scale) {
        EXPECT_FALSE(ir.intersecting) << describe(c) << " vs " << describe(box);
      }
    }
  }
  EXPECT_EQ(outside, 0) << "distance off by more than 1e-9·scale; worst (relative to scale) " << worst.err << ": "
                        << worst.repro;
}

TEST(Degenerate, MinimalReproCurvedNearTouching) {
  // Smallest inputs found by CurvedShapesNearTouchingABoxFace.
  // (1) Cylinder r=1, hh=0.5 turned 35° about z: its extent along +x is
  // h = 0.5·sin35° + cos35°. A box [−1,1]x[−2,2]² whose face is 1e-8
  // beyond: distance 1e-8. Largest coordinate ≈ 3.1; ref::sceneScale (a
  // bounding-ball bound, looser) gives ±5.1e-9, still exceeded.
  {
    const double a = 35 * M_PI / 180;
    Shape c = Shape::cylinder(1, 0.5);
    c.at({0, 0, 0}, axisAngle({0, 0, 1}, a));
    const double h = 0.5 * std::sin(a) + std::cos(a);
    Shape b = Shape::box({1, 2, 2});
    b.at({h + 1e-8 + 1, 0, 0});
    const DistanceResult r = distance(c, b);
    EXPECT_NEAR(r.distance, 1e-8, 1e-9 * ref::sceneScale(c, b))
        << "status " << collidoscope::gjkStatusName(r.status) << ", " << r.iterations << " iterations";
  }
  // (2) Ellipsoid radii (1, 2, 1.5) turned 90° about z (its 2-axis along x),
  // box face 1e-10 beyond x = 2: distance 1e-10; largest coordinate 4,
  // tolerance from ref::sceneScale 7.4e-9.
  {
    Shape e = Shape::ellipsoid({1, 2, 1.5});
    e.at({0, 0, 0}, axisAngle({0, 0, 1}, M_PI / 2));
    Shape b = Shape::box({1, 3, 3});
    b.at({3 + 1e-10, 0, 0});
    const double truth = ref::pointEllipsoidDistance({b.pose.position.x - 1, 0, 0}, e);  // = 1e-10 up to rounding
    const DistanceResult r = distance(e, b);
    EXPECT_NEAR(r.distance, truth, 1e-9 * ref::sceneScale(e, b))
        << "status " << collidoscope::gjkStatusName(r.status) << ", " << r.iterations << " iterations";
  }
}

TEST(Degenerate, IdenticalShapesOfEveryType) {
  Rng rng(401);
  for (ShapeType t : ref::kAllTypes) {
    for (int i = 0; i < 5; ++i) {
      Shape a = ref::randomShape(rng, t, 1);
      a.at(rng.inCube(5), rng.rotation());
      const Shape b = a;
      expectDistance(a, b, 0, "identical shapes");
    }
  }
}

TEST(Degenerate, ZeroSizeShapes) {
  Shape z = Shape::box({0, 0, 0});
  z.at({1, 2, 3});
  Shape p = Shape::point();
  p.at({1, 2, 3});
  expectDistance(z, p, 0, "zero box on a point");
  expectDistance(z, z, 0, "zero box on itself");
  p.at({4, 6, 3});
  expectDistance(z, p, 5, "zero box 5 from a point");
  Shape s0 = Shape::sphere(0);
  s0.at({1, 2, 3});
  expectDistance(z, s0, 0, "zero box on a zero sphere");
  Shape box = Shape::box({1, 1, 1});
  box.at({1, 2, 6});
  expectDistance(z, box, 2, "zero box 2 below a box");
  // Flat box (one zero half-extent) is a rectangle.
  Shape flat = Shape::box({1, 0, 1});
  Shape q = Shape::point();
  q.at({0.5, 0.75, 0});
  expectDistance(flat, q, 0.75, "flat box");
  // Capsule of zero half-height is a sphere; cylinder and cone of zero
  // radius are segments; an ellipsoid with a zero radius is a disc.
  Shape cap = Shape::capsule(0.5, 0);
  q.at({3, 4, 0});
  expectDistance(cap, q, 4.5, "zero-height capsule");
  Shape cyl = Shape::cylinder(0, 1);
  q.at({3, 1.5, 4});
  expectDistance(cyl, q, std::hypot(5.0, 0.5), "zero-radius cylinder");
  Shape cone = Shape::cone(0, 1);
  expectDistance(cone, q, std::hypot(5.0, 0.5), "zero-radius cone");
  Shape disc = Shape::ellipsoid({1, 0, 1});
  q.at({0.25, -2, 0.25});
  expectDistance(disc, q, 2, "flat ellipsoid");
  Shape dot = Shape::ellipsoid({0, 0, 0});
  dot.at({1, 1, 1});
  q.at({1, 1, 4});
  expectDistance(dot, q, 3, "zero ellipsoid");
}

TEST(Degenerate, CoincidentPoints) {
  Shape a = Shape::point(), b = Shape::point();
  expectDistance(a, b, 0, "two points at the origin");
  a.at({7, -3, 2});
  b.at({7, -3, 2});
  expectDistance(a, b, 0, "two coincident points");
  b.at({7, 1, 5});
  expectDistance(a, b, 5, "two points 5 apart");
  Shape s1 = Shape::segment({1, 1, 1}, {1, 1, 1});  // both ends the same
  Shape t1 = Shape::triangle({1, 1, 1}, {1, 1, 1}, {1, 1, 1});
  expectDistance(s1, t1, 0, "collapsed segment on collapsed triangle");
  Shape t2 = Shape::triangle({0, 0, 0}, {1, 0, 0}, {2, 0, 0});  // collinear
  Shape q = Shape::point();
  q.at({1.5, 2, 0});
  expectDistance(t2, q, 2, "collinear triangle");
}

TEST(Degenerate, PolytopesWithDuplicateAndFlatPoints) {
  Shape dup = Shape::polytope({{1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}});
  Shape q = Shape::point();
  q.at({1, 3, 4});
  expectDistance(dup, q, 5, "polytope of one repeated point");
  Shape line = Shape::polytope({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {1, 0, 0}, {3, 0, 0}, {0, 0, 0}});
  q.at({1.5, 0, 2});
  expectDistance(line, q, 2, "collinear polytope");
  Shape square = Shape::polytope({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 0}, {1, 1, 0}});
  q.at({0.25, 0.75, -3});
  expectDistance(square, q, 3, "flat polytope above its interior");
  expectDistance(square, square, 0, "flat polytope on itself");
  Shape cube = Shape::polytope({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1},
                                {1, 1, 1}, {0.5, 0.5, 0.5}});
  Shape cube2 = cube;
  cube2.at({1, 0, 0});
  expectDistance(cube, cube2, 0, "polytope cubes sharing a face");
  expectDistance(square, cube, 0, "flat polytope on a cube face");
  Rng rng(402);
  for (int i = 0; i < 200; ++i) {
    // Flat random polytopes (all points in one plane) against each other,
    // coplanar: distances from brute force.
    std::vector<Vec3> P, Q;
    const Vec3 e1 = rng.direction();
    const Vec3 e2 = ref::unit(ref::cross3(e1, rng.direction()));
    for (int k = 0; k < 5; ++k) P.push_back(e1 * rng.uniform(-1, 1) + e2 * rng.uniform(-1, 1));
    const Vec3 off = e1 * rng.uniform(2.5, 4);
    for (int k = 0; k < 5; ++k) Q.push_back(off + e1 * rng.uniform(-1, 1) + e2 * rng.uniform(-1, 1));
    P.push_back(P[0]);
    expectDistance(Shape::polytope(P), Shape::polytope(Q), ref::hullHullDistanceBrute(P, Q), "coplanar polytopes");
  }
}

TEST(Degenerate, LargeCoordinatesTinyGaps) {
  // Faces at 10001 and 10001 + 2^-20 (~9.5e-7): every coordinate is a
  // double, so the gap is exactly 2^-20.
  const double gap = std::ldexp(1.0, -20);
  Shape a = Shape::box({1, 1, 1});
  Shape b = Shape::box({1, 1, 1});
  a.at({1e4, 1e4, 1e4});
  b.at({1e4 + 2 + gap, 1e4 + 0.5, 1e4 - 0.25});
  expectDistance(a, b, gap, "boxes at 1e4, gap 2^-20");
  // Spheres, capsules and curved shapes near 1e4 with a 1e-6 gap along x.
  Shape s1 = Shape::sphere(1), s2 = Shape::sphere(0.5);
  s1.at({-1e4, 2e4, 1e4});
  s2.at({-1e4 + 1.5 + gap, 2e4, 1e4});
  expectDistance(s1, s2, gap, "spheres at 2e4, gap 2^-20");
  Shape c1 = Shape::capsule(0.5, 2), c2 = Shape::capsule(0.5, 2);
  c1.at({1e4, 1e4, 1e4});
  c2.at({1e4 + 1 + gap, 1e4 + 1, 1e4});
  expectDistance(c1, c2, gap, "parallel capsules at 1e4");
  Shape cyl = Shape::cylinder(1, 1), ell = Shape::ellipsoid({1, 2, 3}), cone = Shape::cone(1, 1);
  cyl.at({1e4, 1e4, 1e4});
  ell.at({1e4 + 2 + gap, 1e4, 1e4});
  expectDistance(cyl, ell, gap, "cylinder rim to ellipsoid tip at 1e4");
  cone.at({1e4, 1e4 + 2 + gap, 1e4});  // base at y = 1e4 + 1 + gap, above the cylinder's top cap
  expectDistance(cyl, cone, gap, "cone base over cylinder cap at 1e4");
  // Rotated boxes at 1e4: the gap is set along a random axis with our own
  // support values; the distance is at least the gap and (boxes) exactly
  // the brute-force corner distance.
  Rng rng(403);
  for (int i = 0; i < 200; ++i) {
    Shape p = Shape::box({rng.uniform(0.5, 2), rng.uniform(0.5, 2), rng.uniform(0.5, 2)});
    Shape r = Shape::box({rng.uniform(0.5, 2), rng.uniform(0.5, 2), rng.uniform(0.5, 2)});
    p.at({0, 0, 0}, rng.rotation());
    r.at({0, 0, 0}, rng.rotation());
    const Vec3 u = rng.direction();
    const double t = ref::supportValue(p, u) + ref::supportValue(r, u * -1.0) + 1e-6;
    const Vec3 base{1e4 * rng.uniform(-1, 1), 1e4, -1e4};
    p.at(base, p.pose.rotation);
    r.at(base + u * t, r.pose.rotation);
    auto corners = [](const Shape& s) {
      std::vector<Vec3> c;
      for (int k = 0; k < 8; ++k)
        c.push_back(ref::toWorld(s, {(k & 1) ? s.halfExtents.x : -s.halfExtents.x,
                                     (k & 2) ? s.halfExtents.y : -s.halfExtents.y,
                                     (k & 4) ? s.halfExtents.z : -s.halfExtents.z}));
      return c;
    };
    expectDistance(p, r, ref::hullHullDistanceBrute(corners(p), corners(r)), "rotated boxes at 1e4, gap 1e-6");
  }
}

TEST(Degenerate, TinyAndHugeShapes) {
  for (double s : {1e-6, 1e6}) {
    Shape a = Shape::box({s, 2 * s, s});
    Shape b = Shape::sphere(s);
    b.at({s * 4, s * 1.5, 0});
    expectDistance(a, b, 2 * s, "box and sphere");
    Shape c = Shape::capsule(s, s);
    c.at({0, 0, 5 * s});
    expectDistance(a, c, 3 * s, "box and capsule");
    Shape e = Shape::ellipsoid({s, 2 * s, 3 * s});
    e.at({0, 0, -10 * s});
    expectDistance(a, e, 6 * s, "box and ellipsoid tip");
    Shape cyl = Shape::cylinder(s, s);
    cyl.at({0, 5 * s, 0});
    expectDistance(a, cyl, 2 * s, "box and cylinder cap");
    Shape t = Shape::triangle({0, 0, 0}, {s, 0, 0}, {0, s, 0});
    t.at({0, 0, 3 * s});
    expectDistance(a, t, 2 * s, "box and triangle");
    expectDistance(a, a, 0, "box on itself");
  }
  // A tiny shape far from the origin: scale is the position.
  Shape p = Shape::sphere(1e-6), q = Shape::sphere(1e-6);
  p.at({1e3, 0, 0});
  q.at({1e3, 3e-6, 0});
  expectDistance(p, q, 1e-6, "tiny spheres at 1e3");
}

TEST(Degenerate, NonUnitWorkNeverNaN) {
  // Extreme but valid inputs at kMaxMagnitude scale: finite results.
  Shape a = Shape::box({1e15, 1e15, 1e15});
  Shape b = Shape::point();
  b.at({1e15, 1e15, 1e15});
  expectDistance(a, b, 0, "point on the corner of a 1e15 box");
  b.at({-1e15, 0, 0});
  Shape c = Shape::sphere(1);
  c.at({1e15, 0, 0});
  expectDistance(b, c, 2e15 - 1, "points 2e15 apart");
}

}  // namespace
