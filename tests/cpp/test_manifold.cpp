// manifold() and meshManifold() (manifold.h) against references computed
// here by other means:
//   * a box resting on a bigger box: the overlap polygon of the two faces by
//     brute force in 2D (corners inside the other face, edge crossings) and
//     the analytic depth;
//   * boxes and capsules on planes and on a two-triangle mesh floor,
//     capsules on boxes and on capsules: the touching corners and ends by
//     hand;
//   * random polytope pairs, and rounded pairs of every polytopal core:
//     every point on both surfaces (projectPoint), the distance along the
//     normal, the deepest point the contact query's;
//   * a box on a triangle shape and a 64-sided prism on a box: the clipped
//     polygon by hand, the points spread over the whole cap;
//   * cylinders and cones standing on boxes, planes and a mesh (points on
//     the rim, spread) and lying on their sides (the side line's ends);
//   * one-point manifolds (round pairs, crossing capsules, a box corner):
//     the object API's contact query, bit for bit;
//   * the box face shortcut (boxFaceFeature): the general search's
//     feature bit for bit, and random box pairs' manifolds against the
//     general pipeline run here from its pieces;
//   * persistence of the ids over 20 frames of sliding and rocking;
//   * refused margins and pairs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/manifold.h"
#include "collidoscope/mesh_convex.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/point_query.h"
#include "reference.h"
// The pieces of manifold() (not installed), to run the general path beside the box shortcut.
#include "../../wasm/src/manifold_internal.h"

namespace collidoscope {
namespace {

constexpr double kPi = 3.14159265358979323846;

Quat mul(const Quat& a, const Quat& b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
Quat axisAngle(const Vec3& axis, double angle) {
  const Vec3 u = axis / length(axis);
  const double s = std::sin(angle / 2);
  return {u.x * s, u.y * s, u.z * s, std::cos(angle / 2)};
}

Manifold manifoldOf(const Shape& a, const Shape& b, double margin) {
  Manifold m;
  EXPECT_EQ(manifold(a, b, margin, &m), ManifoldStatus::Ok);
  return m;
}

// ---- 2D overlap polygon by brute force --------------------------------------

struct P2 {
  double x, y;
};
double cross2(const P2& o, const P2& a, const P2& b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }
// Inside or on a counter-clockwise convex polygon.
bool inside(const std::vector<P2>& poly, const P2& p) {
  for (std::size_t i = 0; i < poly.size(); ++i)
    if (cross2(poly[i], poly[(i + 1) % poly.size()], p) < -1e-12) return false;
  return true;
}
std::vector<P2> overlapVertices(const std::vector<P2>& a, const std::vector<P2>& b) {
  std::vector<P2> out;
  for (const P2& p : a)
    if (inside(b, p)) out.push_back(p);
  for (const P2& p : b)
    if (inside(a, p)) out.push_back(p);
  for (std::size_t i = 0; i < a.size(); ++i) {
    const P2 &p0 = a[i], &p1 = a[(i + 1) % a.size()];
    for (std::size_t j = 0; j < b.size(); ++j) {
      const P2 &q0 = b[j], &q1 = b[(j + 1) % b.size()];
      const double den = (p1.x - p0.x) * (q1.y - q0.y) - (p1.y - p0.y) * (q1.x - q0.x);
      if (den == 0) continue;
      const double t = ((q0.x - p0.x) * (q1.y - q0.y) - (q0.y - p0.y) * (q1.x - q0.x)) / den;
      const double s = ((q0.x - p0.x) * (p1.y - p0.y) - (q0.y - p0.y) * (p1.x - p0.x)) / den;
      if (t > 0 && t < 1 && s > 0 && s < 1) out.push_back({p0.x + t * (p1.x - p0.x), p0.y + t * (p1.y - p0.y)});
    }
  }
  // Distinct vertices only.
  std::vector<P2> unique;
  for (const P2& p : out) {
    bool seen = false;
    for (const P2& q : unique) seen = seen || std::hypot(p.x - q.x, p.y - q.y) < 1e-9;
    if (!seen) unique.push_back(p);
  }
  return unique;
}

// B (half extents hb, turned by phi about A's up) rests on the top face of
// A (half extents ha) at (ox, oz), sunk by pen; the whole pair is placed by
// a rotation g and translation t. Every manifold point is a vertex of the
// faces' overlap polygon at depth pen; all of them when there are ≤ 4.
void checkBoxOnBox(const Vec3& ha, const Vec3& hb, double phi, double ox, double oz, double pen, const Quat& g,
                   const Vec3& t) {
  Shape a = Shape::box(ha);
  a.at(t, g);
  Shape b = Shape::box(hb);
  const Vec3 local{ox, ha.y + hb.y - pen, oz};
  b.at(t + rotate(g, local), mul(g, axisAngle({0, 1, 0}, phi)));
  // Faces seen from above (x, z), counter-clockwise about +y: (x, z) ↦ P2{z, x} keeps the orientation
  // right-handed with +y toward the viewer.
  std::vector<P2> faceA = {{-ha.z, -ha.x}, {ha.z, -ha.x}, {ha.z, ha.x}, {-ha.z, ha.x}};
  std::vector<P2> faceB;
  const double c = std::cos(phi), s = std::sin(phi);
  for (const P2& k : std::vector<P2>{{-hb.z, -hb.x}, {hb.z, -hb.x}, {hb.z, hb.x}, {-hb.z, hb.x}}) {
    // Rotation about y by phi: x' = c·x + s·z, z' = −s·x + c·z.
    const double x = k.y, z = k.x;
    faceB.push_back({oz + (-s * x + c * z), ox + (c * x + s * z)});
  }
  std::vector<P2> expected = overlapVertices(faceA, faceB);
  ASSERT_GE(expected.size(), 3u);
  const Manifold m = manifoldOf(a, b, 0);
  const double scale = maxAbs(t) + length(ha);
  const Vec3 up = rotate(g, {0, 1, 0});
  EXPECT_NEAR(dot(m.normal, up), 1, 1e-12);
  ASSERT_EQ(m.count, static_cast<int>(std::min<std::size_t>(expected.size(), 4)));
  std::set<int> matched;
  for (int i = 0; i < m.count; ++i) {
    const ManifoldPoint& p = m.points[i];
    const Vec3 la = inverseRotate(g, p.pointA - t), lb = inverseRotate(g, p.pointB - t);
    EXPECT_NEAR(la.y, ha.y, 1e-9 * scale);
    EXPECT_NEAR(lb.y, ha.y - pen, 1e-9 * scale);
    EXPECT_NEAR(p.distance, -pen, 1e-9 * scale);
    EXPECT_NEAR(p.distance, dot(p.pointB - p.pointA, m.normal), 1e-12 * scale);
    int found = -1;
    for (std::size_t k = 0; k < expected.size(); ++k)
      if (std::hypot(la.z - expected[k].x, la.x - expected[k].y) < 1e-9 * scale &&
          std::hypot(lb.z - expected[k].x, lb.x - expected[k].y) < 1e-9 * scale)
        found = static_cast<int>(k);
    EXPECT_GE(found, 0) << "point " << i << " (" << la.x << ", " << la.z << ") is no vertex of the overlap";
    matched.insert(found);
  }
  EXPECT_EQ(static_cast<int>(matched.size()), m.count) << "two points on one vertex";
}

TEST(Manifold, BoxOnABiggerBoxIsTheOverlapOfTheFaces) {
  const Vec3 ha{2, 0.5, 1.5}, hb{0.6, 0.3, 0.4};
  ref::Rng rng(1901);
  for (int pose = 0; pose < 4; ++pose) {
    const Quat g = pose == 0 ? Quat{} : rng.rotation();
    const Vec3 t = pose == 0 ? Vec3{} : rng.inCube(5);
    SCOPED_TRACE(pose);
    checkBoxOnBox(ha, hb, 0, 0, 0, 0.01, g, t);           // aligned: B's four corners
    checkBoxOnBox(ha, hb, 0.5, 0.3, -0.2, 0.02, g, t);    // turned about the normal
    checkBoxOnBox(ha, hb, 0.3, 2.1, 0.4, 0.01, g, t);     // hanging over A's +x edge: crossings
    checkBoxOnBox(ha, hb, 0.8, 1.9, 1.3, 0.005, g, t);    // over a corner of A
    checkBoxOnBox(ha, hb, 0, 2.2, 0, 0.01, g, t);         // aligned, half over the edge
  }
}

TEST(Manifold, BoxesApartWithinTheMarginGiveTheGap) {
  Shape a = Shape::box({1, 1, 1});
  Shape b = Shape::box({0.5, 0.5, 0.5});
  b.at({0.1, 1.5 + 0.05, -0.2});
  const Manifold m = manifoldOf(a, b, 0.1);
  ASSERT_EQ(m.count, 4);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(m.points[i].distance, 0.05, 1e-12);
  EXPECT_EQ(manifoldOf(a, b, 0.04).count, 0);
}

// ---- planes ------------------------------------------------------------------

TEST(Manifold, BoxOnAPlaneTouchesAtItsLowCorners) {
  const Shape floor = Shape::plane({0, 1, 0}, 0);
  const Vec3 h{0.5, 0.3, 0.4};
  // Flat, sunk 0.02: the four bottom corners.
  {
    Shape box = Shape::box(h);
    const Quat q = axisAngle({0, 1, 0}, 0.4);
    box.at({1, h.y - 0.02, -2}, q);
    for (bool planeIsA : {true, false}) {
      const Manifold m = planeIsA ? manifoldOf(floor, box, 0) : manifoldOf(box, floor, 0);
      ASSERT_EQ(m.count, 4);
      EXPECT_NEAR(m.normal.y, planeIsA ? 1 : -1, 1e-15);
      std::set<int> corners;
      for (int i = 0; i < 4; ++i) {
        const ManifoldPoint& p = m.points[i];
        EXPECT_NEAR(p.distance, -0.02, 1e-12);
        const Vec3 onBox = planeIsA ? p.pointB : p.pointA, onPlane = planeIsA ? p.pointA : p.pointB;
        EXPECT_NEAR(onPlane.y, 0, 1e-15);
        for (int k = 0; k < 8; ++k) {
          const Vec3 c = box.pose.apply({(k & 1) ? h.x : -h.x, (k & 2) ? h.y : -h.y, (k & 4) ? h.z : -h.z});
          if (length(c - onBox) < 1e-12) corners.insert(k);
        }
      }
      EXPECT_EQ(corners, (std::set<int>{0, 1, 4, 5}));  // the corners with local y = −h.y
    }
  }
  // Tilted about x by 0.3: the lowest edge (local y = −h, z = −h) touches, 1e-3 deep; the rest is high above.
  {
    Shape box = Shape::box(h);
    const double th = 0.3;
    box.at({0, 0, 0}, axisAngle({1, 0, 0}, th));
    double low = 1e9;
    for (int k = 0; k < 8; ++k) low = std::min(low, box.pose.apply({0, (k & 2) ? h.y : -h.y, (k & 4) ? h.z : -h.z}).y);
    box.pose.position.y = -low - 1e-3;
    const Manifold m = manifoldOf(floor, box, 0);
    ASSERT_EQ(m.count, 2);
    for (int i = 0; i < 2; ++i) {
      EXPECT_NEAR(m.points[i].distance, -1e-3, 1e-12);
      EXPECT_NEAR(std::fabs(m.points[i].pointB.x), h.x, 1e-12);
    }
    // Tilted about two axes: one corner, the contact query's.
    box.pose.rotation = mul(axisAngle({0, 0, 1}, 0.2), axisAngle({1, 0, 0}, th));
    const Manifold one = manifoldOf(floor, box, 0);
    EXPECT_EQ(one.count, 1);
  }
}

TEST(Manifold, CapsuleOnAPlaneAndOnABoxTouchesAtItsEnds) {
  const double r = 0.2, hh = 0.5, pen = 0.01;
  Shape capsule = Shape::capsule(r, hh);
  const Quat lying = axisAngle({0, 0, 1}, kPi / 2);  // the segment along x
  const Vec3 c{0.3, 0.5 + r - pen, -0.1};
  capsule.at(c, lying);
  Shape box = Shape::box({2, 0.5, 2});
  for (int which = 0; which < 2; ++which) {
    const Shape ground = which == 0 ? box : Shape::plane({0, 1, 0}, 0.5);
    const Manifold m = manifoldOf(ground, capsule, 0);
    ASSERT_EQ(m.count, 2) << which;
    EXPECT_NEAR(m.normal.y, 1, 1e-12);
    double xs[2];
    for (int i = 0; i < 2; ++i) {
      const ManifoldPoint& p = m.points[i];
      EXPECT_NEAR(p.distance, -pen, 1e-12);
      EXPECT_NEAR(p.pointA.y, 0.5, 1e-12);
      EXPECT_NEAR(p.pointB.y, 0.5 - pen, 1e-12);
      EXPECT_NEAR(p.pointB.z, c.z, 1e-12);
      xs[i] = p.pointB.x;
    }
    EXPECT_NEAR(std::min(xs[0], xs[1]), c.x - hh, 1e-12);
    EXPECT_NEAR(std::max(xs[0], xs[1]), c.x + hh, 1e-12);
  }
}

TEST(Manifold, ParallelCapsulesTouchOverTheirCommonStretch) {
  const double ra = 0.3, rb = 0.2, hh = 0.5, pen = 0.02;
  const Quat lying = axisAngle({0, 0, 1}, kPi / 2);
  Shape a = Shape::capsule(ra, hh);
  a.at({0, 0, 0}, lying);
  Shape b = Shape::capsule(rb, hh);
  b.at({0.3, ra + rb - pen, 0}, lying);
  const Manifold m = manifoldOf(a, b, 0);
  ASSERT_EQ(m.count, 2);
  double xs[2];
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(m.points[i].distance, -pen, 1e-12);
    EXPECT_NEAR(m.points[i].pointA.y, ra, 1e-12);
    xs[i] = m.points[i].pointA.x;
  }
  // B spans x ∈ [−0.2, 0.8], A [−0.5, 0.5]: the common stretch [−0.2, 0.5].
  EXPECT_NEAR(std::min(xs[0], xs[1]), -0.2, 1e-12);
  EXPECT_NEAR(std::max(xs[0], xs[1]), 0.5, 1e-12);
}

TEST(Manifold, BoxOnATriangleShapeIsClippedToTheTriangle) {
  // A triangle shape (convex, two-sided) under a box whose bottom face is cut by the hypotenuse x + z = 1:
  // the clipped polygon is the box's bottom square [−0.2, 0.6]² minus the corner beyond the hypotenuse,
  // a pentagon with vertices (−0.2, −0.2), (0.6, −0.2), (0.6, 0.4), (0.4, 0.6), (−0.2, 0.6); the reduction
  // keeps 4.
  const Shape tri = Shape::triangle({-1, 0, -1}, {-1, 0, 2}, {2, 0, -1});
  Shape box = Shape::box({0.4, 0.25, 0.4});
  box.at({0.2, 0.25 - 0.03, 0.2});
  const Manifold m = manifoldOf(tri, box, 0);
  ASSERT_EQ(m.count, 4);
  EXPECT_NEAR(m.normal.y, 1, 1e-12);
  const double pentagon[5][2] = {{-0.2, -0.2}, {0.6, -0.2}, {0.6, 0.4}, {0.4, 0.6}, {-0.2, 0.6}};
  std::set<int> seen;
  for (int i = 0; i < 4; ++i) {
    const ManifoldPoint& p = m.points[i];
    EXPECT_NEAR(p.distance, -0.03, 1e-12);
    EXPECT_NEAR(p.pointA.y, 0, 1e-12);
    for (int k = 0; k < 5; ++k)
      if (std::hypot(p.pointA.x - pentagon[k][0], p.pointA.z - pentagon[k][1]) < 1e-12) seen.insert(k);
  }
  EXPECT_EQ(seen.size(), 4u);
}

// The four points' convex hull area seen along y (the largest of the three quadrilaterals through them).
double spreadXZ(const Manifold& m, const Vec3& centre) {
  Vec3 q[4];
  for (int i = 0; i < 4; ++i) q[i] = m.points[i].pointB - centre;
  auto area = [&](int a, int b, int c, int d) {
    const Vec3 p[4] = {q[a], q[b], q[c], q[d]};
    double twice = 0;
    for (int k = 0; k < 4; ++k) twice += p[k].x * p[(k + 1) % 4].z - p[(k + 1) % 4].x * p[k].z;
    return std::fabs(twice) / 2;
  };
  return std::max({area(0, 1, 2, 3), area(0, 2, 1, 3), area(0, 1, 3, 2)});
}

TEST(Manifold, AFinePrismOnABoxSpreadsOverItsWholeCap) {
  // A 64-sided prism (radius 0.5, more cap vertices than a feature holds) standing on a box, sunk 0.01:
  // four points on the cap's rim, spanning nearly the inscribed square (area 2r² = 0.5), not half the cap.
  std::vector<Vec3> pts;
  const double r = 0.5;
  for (int k = 0; k < 64; ++k)
    for (double y : {-0.4, 0.4}) pts.push_back({r * std::cos(2 * kPi * k / 64), y, r * std::sin(2 * kPi * k / 64)});
  Shape prism = Shape::polytope(pts);
  prism.at({0.1, 0.5 + 0.4 - 0.01, -0.2});
  const Shape box = Shape::box({2, 0.5, 2});
  const Manifold m = manifoldOf(box, prism, 0);
  ASSERT_EQ(m.count, 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(m.points[i].distance, -0.01, 1e-12);
    EXPECT_NEAR(std::hypot(m.points[i].pointB.x - 0.1, m.points[i].pointB.z + 0.2), r, 1e-12);
  }
  EXPECT_GT(spreadXZ(m, prism.pose.position), 0.95 * 2 * r * r);
}

TEST(Manifold, CylindersAndConesStandOnTheirCapsAndLieOnTheirSides) {
  const double r = 0.4, hh = 0.5, pen = 0.01;
  const Shape box = Shape::box({2, 0.5, 2});
  const Shape plane = Shape::plane({0, 1, 0}, 0.5);
  for (ShapeType type : {ShapeType::Cylinder, ShapeType::Cone}) {
    const Shape base = type == ShapeType::Cylinder ? Shape::cylinder(r, hh) : Shape::cone(r, hh);
    for (int ground = 0; ground < 2; ++ground) {
      SCOPED_TRACE(std::string(shapeTypeName(type)) + (ground == 0 ? " on a box" : " on a plane"));
      // Standing on its (lower) cap, turned about y: four points on the rim, spread over the cap.
      Shape s = base;
      const Vec3 c{0.2, 0.5 + hh - pen, -0.3};
      s.at(c, axisAngle({0, 1, 0}, 0.7));
      const Manifold m = manifoldOf(ground == 0 ? box : plane, s, 0);
      ASSERT_EQ(m.count, 4);
      EXPECT_NEAR(m.normal.y, 1, 1e-9);
      for (int i = 0; i < 4; ++i) {
        const ManifoldPoint& p = m.points[i];
        EXPECT_NEAR(p.distance, -pen, 1e-9);
        EXPECT_NEAR(p.pointB.y, 0.5 - pen, 1e-12);
        EXPECT_NEAR(std::hypot(p.pointB.x - c.x, p.pointB.z - c.z), r, 1e-12);
      }
      EXPECT_GT(spreadXZ(m, c), 0.9 * 2 * r * r);
    }
  }
  // Lying: a cylinder along x touches along a side line, the ends of which are the points; a cone on its
  // side touches along the line from its rim to its apex.
  {
    Shape s = Shape::cylinder(r, hh);
    s.at({0.1, 0.5 + r - pen, 0.2}, axisAngle({0, 0, 1}, kPi / 2));
    const Manifold m = manifoldOf(box, s, 0);
    ASSERT_EQ(m.count, 2);
    double xs[2];
    for (int i = 0; i < 2; ++i) {
      EXPECT_NEAR(m.points[i].distance, -pen, 1e-9);
      EXPECT_NEAR(m.points[i].pointB.y, 0.5 - pen, 1e-12);
      EXPECT_NEAR(m.points[i].pointB.z, 0.2, 1e-12);
      xs[i] = m.points[i].pointB.x;
    }
    EXPECT_NEAR(std::min(xs[0], xs[1]), 0.1 - hh, 1e-12);
    EXPECT_NEAR(std::max(xs[0], xs[1]), 0.1 + hh, 1e-12);
  }
  {
    // The cone's side line makes the angle atan(r / 2h) with its axis: turning the axis by π/2 + that
    // angle about z lays the line at which the side faces −y... along x, at the cone's lowest.
    Shape s = Shape::cone(r, hh);
    const double slant = std::atan2(r, 2 * hh);
    const Quat q = axisAngle({0, 0, 1}, kPi / 2 + slant);
    // The local side line from the rim (r, −h, 0)·(−1 in x: the side facing −y after the turn) to the apex.
    const Vec3 rim = rotate(q, {-r, -hh, 0}), apex = rotate(q, {0, hh, 0});
    ASSERT_NEAR(rim.y, apex.y, 1e-12);
    s.at({0, 0.5 - pen - rim.y, 0}, q);
    const Manifold m = manifoldOf(box, s, 0);
    ASSERT_EQ(m.count, 2);
    double xs[2];
    for (int i = 0; i < 2; ++i) {
      EXPECT_NEAR(m.points[i].distance, -pen, 1e-9);
      EXPECT_NEAR(m.points[i].pointB.y, 0.5 - pen, 1e-12);
      xs[i] = m.points[i].pointB.x;
    }
    EXPECT_NEAR(std::min(xs[0], xs[1]), std::min(rim.x, apex.x), 1e-12);
    EXPECT_NEAR(std::max(xs[0], xs[1]), std::max(rim.x, apex.x), 1e-12);
  }
}

// ---- mesh ----------------------------------------------------------------------

TEST(Manifold, BoxOnATwoTriangleFloorGivesItsFourBottomCorners) {
  TriangleMesh floorMesh;
  floorMesh.vertices = {{-5, 0, -5}, {5, 0, -5}, {5, 0, 5}, {-5, 0, 5}};
  floorMesh.triangles = {{0, 2, 1}, {0, 3, 2}};  // up: (v2 − v0) × (v1 − v0) order gives +y
  Shape floor;
  ShapeError se;
  ASSERT_TRUE(makeMeshShape(floorMesh, &floor, &se)) << se.message;
  const Vec3 h{0.5, 0.3, 0.4};
  Shape box = Shape::box(h);
  box.at({0.2, h.y - 0.02, 0.1}, axisAngle({0, 1, 0}, 0.3));  // across the diagonal seam
  std::vector<MeshContact> scratch(64);
  for (bool meshIsA : {true, false}) {
    Manifold m;
    bool truncated = true;
    ASSERT_EQ(meshIsA ? meshManifold(floor, box, 0, scratch.data(), 64, &m, &truncated)
                      : meshManifold(box, floor, 0, scratch.data(), 64, &m, &truncated),
              ManifoldStatus::Ok);
    EXPECT_FALSE(truncated);
    ASSERT_EQ(m.count, 4);
    EXPECT_NEAR(m.normal.y, meshIsA ? 1 : -1, 1e-12);
    std::set<int> corners, triangles;
    for (int i = 0; i < 4; ++i) {
      const ManifoldPoint& p = m.points[i];
      EXPECT_NEAR(p.distance, -0.02, 1e-12);
      const Vec3 onBox = meshIsA ? p.pointB : p.pointA;
      EXPECT_NEAR((meshIsA ? p.pointA : p.pointB).y, 0, 1e-12);
      for (int k = 0; k < 8; ++k)
        if (length(box.pose.apply({(k & 1) ? h.x : -h.x, (k & 2) ? h.y : -h.y, (k & 4) ? h.z : -h.z}) - onBox) <
            1e-12)
          corners.insert(k);
      triangles.insert(p.triangle);
    }
    EXPECT_EQ(corners, (std::set<int>{0, 1, 4, 5}));
    EXPECT_EQ(triangles, (std::set<int>{0, 1}));  // the seam runs under the box
  }
}

TEST(Manifold, ACapsuleAndACylinderAcrossAFloorSeamAndASphereOnIt) {
  TriangleMesh floorMesh;
  floorMesh.vertices = {{-5, 0, -5}, {5, 0, -5}, {5, 0, 5}, {-5, 0, 5}};
  floorMesh.triangles = {{0, 2, 1}, {0, 3, 2}};
  Shape floor;
  ShapeError se;
  ASSERT_TRUE(makeMeshShape(floorMesh, &floor, &se)) << se.message;
  std::vector<MeshContact> scratch(16);
  // Lying along x at z = 0.1, across the diagonal x = z, radius 0.25, sunk 0.03.
  Shape capsule = Shape::capsule(0.25, 0.6);
  capsule.at({0, 0.25 - 0.03, 0.1}, axisAngle({0, 0, 1}, kPi / 2));
  Manifold m;
  ASSERT_EQ(meshManifold(floor, capsule, 0, scratch.data(), 16, &m), ManifoldStatus::Ok);
  ASSERT_EQ(m.count, 2);
  EXPECT_NEAR(m.normal.y, 1, 1e-12);
  double xs[2];
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(m.points[i].distance, -0.03, 1e-12);
    EXPECT_NEAR(m.points[i].pointB.y, -0.03, 1e-12);
    EXPECT_NEAR(m.points[i].pointB.z, 0.1, 1e-12);
    xs[i] = m.points[i].pointB.x;
  }
  EXPECT_NEAR(std::min(xs[0], xs[1]), -0.6, 1e-12);
  EXPECT_NEAR(std::max(xs[0], xs[1]), 0.6, 1e-12);
  // A cylinder standing across the seam: four points on its rim.
  Shape barrel = Shape::cylinder(0.3, 0.4);
  barrel.at({0.05, 0.4 - 0.02, 0}, axisAngle({0, 1, 0}, 0.3));
  ASSERT_EQ(meshManifold(floor, barrel, 0, scratch.data(), 16, &m), ManifoldStatus::Ok);
  ASSERT_EQ(m.count, 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(m.points[i].distance, -0.02, 1e-12);
    EXPECT_NEAR(std::hypot(m.points[i].pointB.x - 0.05, m.points[i].pointB.z), 0.3, 1e-12);
  }
  EXPECT_GT(spreadXZ(m, barrel.pose.position), 0.9 * 2 * 0.3 * 0.3);
  // A sphere: one point, its lowest, 0.05 deep.
  Shape ball = Shape::sphere(0.4);
  ball.at({1, 0.35, -2});
  ASSERT_EQ(meshManifold(floor, ball, 0, scratch.data(), 16, &m), ManifoldStatus::Ok);
  ASSERT_EQ(m.count, 1);
  EXPECT_NEAR(m.points[0].distance, -0.05, 1e-12);
  EXPECT_NEAR(length(m.points[0].pointB - Vec3{1, -0.05, -2}), 0, 1e-12);
}

TEST(Manifold, ABoxInAMeshCornerKeepsTheFloorsNormal) {
  // A floor and a wall (x = 1, facing −x); the box sinks 0.02 into the floor and 0.01 into the wall.
  TriangleMesh corner;
  corner.vertices = {{-5, 0, -5}, {5, 0, -5}, {5, 0, 5}, {-5, 0, 5}, {1, -1, -5}, {1, -1, 5}, {1, 5, 5}, {1, 5, -5}};
  corner.triangles = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}};
  Shape mesh;
  ShapeError se;
  ASSERT_TRUE(makeMeshShape(corner, &mesh, &se)) << se.message;
  Shape box = Shape::box({0.5, 0.3, 0.4});
  box.at({1 - 0.5 + 0.01, 0.3 - 0.02, 0});
  std::vector<MeshContact> scratch(16);
  Manifold m;
  ASSERT_EQ(meshManifold(mesh, box, 0, scratch.data(), 16, &m), ManifoldStatus::Ok);
  // The floor is deeper (0.02): its normal; the wall's points, 90° away, are left out.
  EXPECT_NEAR(m.normal.y, 1, 1e-12);
  ASSERT_EQ(m.count, 4);
  for (int i = 0; i < m.count; ++i) {
    EXPECT_NEAR(m.points[i].distance, -0.02, 1e-12);
    EXPECT_LE(m.points[i].triangle, 1);
  }
}

// ---- random polytopes --------------------------------------------------------

Shape boxAsPolytope(const Vec3& h) {
  std::vector<Vec3> pts;
  for (int k = 0; k < 8; ++k) pts.push_back({(k & 1) ? h.x : -h.x, (k & 2) ? h.y : -h.y, (k & 4) ? h.z : -h.z});
  return Shape::polytope(pts);
}

TEST(Manifold, RandomPolytopePointsLieOnBothSurfaces) {
  ref::Rng rng(1903);
  int clipped = 0, total = 0;
  for (int trial = 0; trial < 600; ++trial) {
    Shape a, b;
    if (trial % 2 == 0) {
      a = ref::randomShape(rng, ShapeType::Polytope, 1.0);
      b = ref::randomShape(rng, ShapeType::Polytope, 1.0);
      a.at(rng.inCube(0.5), rng.rotation());
      b.at(rng.inCube(0.5), rng.rotation());
    } else {
      // Stacked: B's bottom face on A's top face, turned about the normal and tilted a little.
      const Vec3 ha{rng.uniform(0.5, 2), rng.uniform(0.2, 1), rng.uniform(0.5, 2)};
      const Vec3 hb{rng.uniform(0.2, 1), rng.uniform(0.2, 1), rng.uniform(0.2, 1)};
      a = boxAsPolytope(ha);
      b = boxAsPolytope(hb);
      const Quat g = rng.rotation();
      const Vec3 t = rng.inCube(3);
      a.at(t, g);
      const Quat q =
          mul(axisAngle({0, 1, 0}, rng.uniform(0, 2 * kPi)), axisAngle(rng.direction(), rng.uniform(0, 0.02)));
      const Vec3 local{rng.uniform(-ha.x, ha.x), ha.y + hb.y - rng.uniform(0, 0.05), rng.uniform(-ha.z, ha.z)};
      b.at(t + rotate(g, local), mul(g, q));
    }
    const double scale = std::max(maxAbs(a.pose.position), maxAbs(b.pose.position)) + 3;
    const double margin = trial % 3 == 0 ? 0.1 : 0;
    const Manifold m = manifoldOf(a, b, margin);
    const ContactResult c = contact(PosedShape(a), PosedShape(b), margin);
    ASSERT_EQ(m.count > 0, c.contact) << trial;
    if (m.count == 0) continue;
    ++total;
    if (m.count > 1) ++clipped;
    ASSERT_LE(m.count, 4);
    EXPECT_NEAR(length(m.normal), 1, 1e-14);
    double deepest = 1e300;
    for (int i = 0; i < m.count; ++i) {
      const ManifoldPoint& p = m.points[i];
      EXPECT_LE(projectPoint(a, p.pointA).distance, 1e-9 * scale) << trial << " point " << i;
      EXPECT_LE(projectPoint(b, p.pointB).distance, 1e-9 * scale) << trial << " point " << i;
      EXPECT_NEAR(p.distance, dot(p.pointB - p.pointA, m.normal), 1e-12 * scale);
      EXPECT_LE(p.distance, margin);
      deepest = std::min(deepest, p.distance);
    }
    EXPECT_NEAR(deepest, c.distance, 1e-9 * scale) << trial;
  }
  std::printf("[manifold] %d polytope contacts, %d with 2-4 points\n", total, clipped);
  EXPECT_GT(total, 400);
  EXPECT_GT(clipped, 250);
}

TEST(Manifold, RandomRoundedPairsLieOnBothSurfaces) {
  // Every polytopal core, with and without a margin, resting on or crossing another: the radius moves each
  // clipped point along a normal of its feature, onto the rounded surface.
  ref::Rng rng(1905);
  const ShapeType types[] = {ShapeType::Box,      ShapeType::Capsule, ShapeType::Segment, ShapeType::Triangle,
                             ShapeType::Polytope, ShapeType::Sphere,  ShapeType::Cylinder, ShapeType::Cone};
  int total = 0, clipped = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    Shape a = ref::randomShape(rng, types[rng.integer(0, 7)], 1.0);
    Shape b = ref::randomShape(rng, types[rng.integer(0, 7)], 1.0);
    if (trial % 2 == 0) a.margin = rng.uniform(0, 0.2);
    if (trial % 3 == 0) b.margin = rng.uniform(0, 0.2);
    a.at(rng.inCube(0.8), rng.rotation());
    if (trial % 2 == 0) {
      b.at(rng.inCube(0.8), rng.rotation());
    } else {
      // Near-flat contacts: B turned from A's rotation about A's local y, above A along it (box faces
      // face each other), lying sideways half of the time (capsule sides on faces and on each other).
      const Quat side = trial % 4 == 1 ? axisAngle({0, 0, 1}, kPi / 2) : Quat{};
      const Vec3 above{rng.uniform(-0.3, 0.3), rng.uniform(0.2, 1.2), rng.uniform(-0.3, 0.3)};
      b.at(a.pose.position + rotate(a.pose.rotation, above),
           mul(mul(a.pose.rotation, axisAngle({0, 1, 0}, rng.uniform(0, 2 * kPi))), side));
      a.pose.rotation = mul(a.pose.rotation, side);
    }
    const double scale = std::max(maxAbs(a.pose.position), maxAbs(b.pose.position)) + 3;
    const double margin = trial % 4 == 0 ? 0.2 : 0.0;
    const Manifold m = manifoldOf(a, b, margin);
    if (m.count == 0) continue;
    ++total;
    if (m.count > 1) ++clipped;
    for (int i = 0; i < m.count; ++i) {
      const ManifoldPoint& p = m.points[i];
      EXPECT_LE(projectPoint(a, p.pointA).distance, 1e-9 * scale)
          << trial << " " << shapeTypeName(a.type) << "–" << shapeTypeName(b.type) << " point " << i;
      EXPECT_LE(projectPoint(b, p.pointB).distance, 1e-9 * scale)
          << trial << " " << shapeTypeName(a.type) << "–" << shapeTypeName(b.type) << " point " << i;
      EXPECT_LE(p.distance, margin);
    }
  }
  std::printf("[manifold] %d rounded contacts, %d with 2-4 points\n", total, clipped);
  EXPECT_GT(total, 1000);
  EXPECT_GT(clipped, 100);
}

// ---- one point: the contact query's -------------------------------------------

TEST(Manifold, OnePointIsTheContactQuerysBitForBit) {
  ref::Rng rng(1904);
  api::Registry reg;
  SceneError err;
  const Shape shapes[][2] = {{Shape::sphere(0.5), Shape::sphere(0.3)},
                             {Shape::sphere(0.5), Shape::box({0.4, 0.3, 0.2})},
                             {Shape::capsule(0.2, 0.5), Shape::sphere(0.4)},
                             {Shape::capsule(0.2, 0.5), Shape::capsule(0.3, 0.4)},  // crossing: not parallel
                             {Shape::ellipsoid({0.3, 0.5, 0.4}), Shape::box({0.4, 0.3, 0.2})},
                             // Cylinders and cones, boxes (closed forms) and polytopes (GJK/EPA): when the
                             // manifold has one point (a corner, crossing edges, a rim) it is the contact
                             // query's too.
                             {Shape::cylinder(0.3, 0.4), Shape::cone(0.3, 0.5)},
                             {Shape::box({0.4, 0.3, 0.2}), Shape::box({0.3, 0.5, 0.4})},
                             {boxAsPolytope({0.4, 0.3, 0.2}), boxAsPolytope({0.3, 0.5, 0.4})}};
  const std::size_t firstFlat = 5;  // from here on a pair may have flat features facing (2–4 points)
  int contacts = 0, single = 0;
  for (std::size_t which = 0; which < std::size(shapes); ++which) {
    const auto& pair = shapes[which];
    const int ha = reg.add(pair[0], &err), hb = reg.add(pair[1], &err);
    ASSERT_GT(ha, 0);
    ASSERT_GT(hb, 0);
    for (int trial = 0; trial < 40; ++trial) {
      Shape a = pair[0], b = pair[1];
      a.at(rng.inCube(0.6), rng.rotation());
      b.at(rng.inCube(0.6), rng.rotation());
      const double margin = rng.uniform(0, 0.3);
      double in[api::kInputSize] = {};
      const Transform* poses[2] = {&a.pose, &b.pose};
      for (int s = 0; s < 2; ++s) {
        const double v[7] = {poses[s]->position.x, poses[s]->position.y, poses[s]->position.z,
                             poses[s]->rotation.x, poses[s]->rotation.y, poses[s]->rotation.z,
                             poses[s]->rotation.w};
        std::memcpy(in + api::kPoseSize * s, v, sizeof v);
      }
      in[2 * api::kPoseSize] = margin;
      std::vector<double> out(api::kMaxResultStride);
      ASSERT_TRUE(reg.query(api::Kind::Contact, ha, hb, in, nullptr, out.data(), &err)) << err.message;
      const Manifold m = manifoldOf(a, b, margin);
      ASSERT_EQ(m.count > 0, out[0] != 0);
      if (m.count == 0) continue;
      ++contacts;
      if (which < firstFlat) {
        ASSERT_EQ(m.count, 1);
      }
      if (m.count > 1) {
        // Several points: the deepest is the contact query's depth (to the library's accuracy).
        double deepest = m.points[0].distance;
        for (int i = 1; i < m.count; ++i) deepest = std::min(deepest, m.points[i].distance);
        EXPECT_NEAR(deepest, out[1], 1e-9 * 3);
        continue;
      }
      ++single;
      // The contact record: contact, distance, normal (3), pointA (3), pointB (3).
      const double mine[10] = {m.points[0].distance, m.normal.x,        m.normal.y,        m.normal.z,
                               m.points[0].pointA.x, m.points[0].pointA.y, m.points[0].pointA.z,
                               m.points[0].pointB.x, m.points[0].pointB.y, m.points[0].pointB.z};
      EXPECT_EQ(std::memcmp(mine, out.data() + 1, sizeof mine), 0)
          << "pair " << shapeTypeName(pair[0].type) << " trial " << trial;
    }
  }
  EXPECT_GT(contacts, 150);
  EXPECT_GT(single, 150);
}

// ---- the box face shortcut ---------------------------------------------------------

// A box posed for the shortcut tests: resting on `a`'s top face (turned, tilted within or beyond
// the face angle), edge on edge (both turned 45° about different axes), or anywhere.
struct BoxPair {
  Shape a, b;
  double margin;
};
BoxPair randomBoxPair(ref::Rng& rng, int trial) {
  const Vec3 ha{rng.uniform(0.3, 2), rng.uniform(0.1, 1), rng.uniform(0.3, 2)};
  const Vec3 hb{rng.uniform(0.1, 1), rng.uniform(0.1, 1), rng.uniform(0.1, 1)};
  BoxPair p{Shape::box(ha), Shape::box(hb), trial % 3 == 0 ? 0.05 : 0};
  const Quat g = rng.rotation();
  const Vec3 t = rng.inCube(3);
  p.a.at(t, g);
  const int kind = trial % 4;
  if (kind == 3) {
    p.b.at(t + rng.inCube(1), rng.rotation());
    return p;
  }
  Quat q;
  Vec3 local;
  if (kind == 2) {
    // Edge on edge: A turned 45° about x has its top edge along x at height (hy + hz)/√2, z = (hy − hz)/√2;
    // B turned 45° about z has its bottom edge along z at −(hx + hy)/√2, x = (hy − hx)/√2, then turned
    // about y by φ; B's centre is put so that the two edges cross, 0–3 cm deep.
    p.a.at(t, mul(g, axisAngle({1, 0, 0}, kPi / 4)));
    const double top = (ha.y + ha.z) / std::sqrt(2.0), edgeZ = (ha.y - ha.z) / std::sqrt(2.0);
    const double low = (hb.x + hb.y) / std::sqrt(2.0), edgeX = (hb.y - hb.x) / std::sqrt(2.0);
    const double phi = rng.uniform(0.3, 1.3);
    q = mul(axisAngle({0, 1, 0}, phi), axisAngle({0, 0, 1}, kPi / 4));
    local = {rng.uniform(-0.2, 0.2) - edgeX * std::cos(phi), top + low - rng.uniform(0, 0.03),
             edgeZ + edgeX * std::sin(phi)};
    p.b.at(t + rotate(g, local), mul(g, q));
    return p;
  }
  // Resting (kind 0: within the face angle of 2°; kind 1: tilted up to 10°, often beyond it).
  const double tilt = kind == 0 ? rng.uniform(0, 0.03) : rng.uniform(0, 0.17);
  q = mul(axisAngle({0, 1, 0}, rng.uniform(0, 2 * kPi)), axisAngle(rng.direction(), tilt));
  local = {rng.uniform(-ha.x, ha.x), ha.y + hb.y - rng.uniform(0, 0.05), rng.uniform(-ha.z, ha.z)};
  p.b.at(t + rotate(g, local), mul(g, q));
  return p;
}

bool sameFeature(const manifold_detail::Feature& x, const manifold_detail::Feature& y) {
  if (x.n != y.n || x.radius != y.radius || std::memcmp(&x.normal, &y.normal, sizeof x.normal) != 0) return false;
  for (int k = 0; k < x.n; ++k)
    if (x.id[k] != y.id[k] || std::memcmp(&x.p[k], &y.p[k], sizeof x.p[k]) != 0) return false;
  return true;
}

TEST(Manifold, TheBoxFaceShortcutIsTheGeneralSearchBitForBit) {
  // Directions near a face normal (within and beyond the face angle), near an edge's or a corner's
  // bisector, and anywhere, on boxes from flat plates to rods.
  ref::Rng rng(1905);
  const double sinAngle = std::sin(kManifoldFaceAngle);
  int faces = 0, shortcut = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const Vec3 h{rng.logUniform(0.01, 3), rng.logUniform(0.01, 3), rng.logUniform(0.01, 3)};
    Shape box = Shape::box(h);
    box.at(rng.inCube(5), rng.rotation());
    const int kind = trial % 4;
    Vec3 local = kind == 0 ? Vec3{1, 0, 0} : kind == 1 ? Vec3{1, 1, 0} : kind == 2 ? Vec3{1, 1, 1} : rng.direction();
    if (trial % 8 < 4) local = local * -1;
    const double spread = trial % 3 == 0 ? 0.01 : 0.06;
    const Vec3 d = normalizedOr(box.pose.applyToDirection(local / length(local)) + rng.inBall(spread), {0, 1, 0});
    manifold_detail::CoreView v;
    ASSERT_TRUE(manifold_detail::coreViewOf(box, &v));
    manifold_detail::Feature general, fast, direct;
    manifold_detail::supportFeature(v, d, sinAngle, &general);
    ASSERT_TRUE(manifold_detail::featureOf(box, d, sinAngle, &fast));
    EXPECT_TRUE(sameFeature(general, fast)) << trial;
    if (general.n == 4) ++faces;
    if (manifold_detail::boxFaceFeature(v, d, sinAngle, &direct)) {
      ++shortcut;
      EXPECT_TRUE(sameFeature(general, direct)) << trial;
    }
  }
  std::printf("[manifold] %d box faces, %d through the shortcut\n", faces, shortcut);
  EXPECT_GT(shortcut, 400);
  EXPECT_GT(faces, shortcut);  // plates and rods: the first look catches more than a face; the search decides
}

TEST(Manifold, RandomBoxPairsMatchTheGeneralPipeline) {
  // manifold() of two boxes against the general pipeline run from its pieces: the contact query's
  // normal and deepest pair, supportFeature on both cores, clipping, the deepest pair kept, four
  // points kept. Same normal, same points as sets, same depths and ids.
  using namespace manifold_detail;
  ref::Rng rng(1906);
  api::Registry reg;
  SceneError err;
  const double sinAngle = std::sin(kManifoldFaceAngle);
  int contacts = 0, clipped = 0, shortcut = 0;
  int kinds[4] = {};
  for (int trial = 0; trial < 800; ++trial) {
    const BoxPair p = randomBoxPair(rng, trial);
    const int ha = reg.add(Shape::box(p.a.halfExtents), &err), hb = reg.add(Shape::box(p.b.halfExtents), &err);
    ASSERT_GT(ha, 0);
    ASSERT_GT(hb, 0);
    double in[api::kInputSize] = {};
    const Transform* poses[2] = {&p.a.pose, &p.b.pose};
    for (int s = 0; s < 2; ++s) {
      const double v[7] = {poses[s]->position.x, poses[s]->position.y, poses[s]->position.z, poses[s]->rotation.x,
                           poses[s]->rotation.y, poses[s]->rotation.z, poses[s]->rotation.w};
      std::memcpy(in + api::kPoseSize * s, v, sizeof v);
    }
    in[2 * api::kPoseSize] = p.margin;
    std::vector<double> c(api::kMaxResultStride);
    ASSERT_TRUE(reg.query(api::Kind::Contact, ha, hb, in, nullptr, c.data(), &err)) << err.message;
    const Manifold m = manifoldOf(p.a, p.b, p.margin);
    ASSERT_EQ(m.count > 0, c[0] != 0) << trial;
    if (m.count == 0) continue;
    ++contacts;
    ++kinds[trial % 4];
    const Vec3 n{c[2], c[3], c[4]};
    EXPECT_NEAR(m.normal.x, n.x, 1e-9);
    EXPECT_NEAR(m.normal.y, n.y, 1e-9);
    EXPECT_NEAR(m.normal.z, n.z, 1e-9);
    CoreView va, vb;
    ASSERT_TRUE(coreViewOf(p.a, &va));
    ASSERT_TRUE(coreViewOf(p.b, &vb));
    Feature fa, fb, unused;
    supportFeature(va, n, sinAngle, &fa);
    supportFeature(vb, -n, sinAngle, &fb);
    if (boxFaceFeature(va, n, sinAngle, &unused) || boxFaceFeature(vb, -n, sinAngle, &unused)) ++shortcut;
    ManifoldPoint cand[kMaxCandidates];
    int k = clipFeatures(fa, fb, n, p.margin, sinAngle, cand);
    Manifold general;
    if (k > 0) {
      k = keepDeepest(cand, k, {c[5], c[6], c[7]}, {c[8], c[9], c[10]}, c[1],
                      featureId(ManifoldFeatureKind::Single, 0, 0));
      reduceToFour(cand, k, n, &general);
    } else {
      general.count = 1;
      general.points[0] = {{c[5], c[6], c[7]}, {c[8], c[9], c[10]}, c[1], featureId(ManifoldFeatureKind::Single, 0, 0), -1};
    }
    ASSERT_EQ(m.count, general.count) << trial;
    if (m.count > 1) ++clipped;
    for (int i = 0; i < m.count; ++i) {
      // Its match in the general set: the same id, the same points and depth.
      const ManifoldPoint* match = nullptr;
      for (int j = 0; j < general.count; ++j)
        if (general.points[j].id == m.points[i].id) match = &general.points[j];
      ASSERT_NE(match, nullptr) << trial << " point " << i;
      EXPECT_LE(length(match->pointA - m.points[i].pointA), 1e-9) << trial;
      EXPECT_LE(length(match->pointB - m.points[i].pointB), 1e-9) << trial;
      EXPECT_NEAR(match->distance, m.points[i].distance, 1e-9) << trial;
    }
  }
  std::printf("[manifold] %d box contacts (resting %d, tilted %d, edge on edge %d, anywhere %d), %d clipped, "
              "%d through the shortcut\n",
              contacts, kinds[0], kinds[1], kinds[2], kinds[3], clipped, shortcut);
  EXPECT_GT(contacts, 500);
  EXPECT_GT(clipped, 300);
  EXPECT_GT(shortcut, 300);
  for (int kind = 0; kind < 4; ++kind) EXPECT_GT(kinds[kind], 60) << kind;
}

// ---- persistence ---------------------------------------------------------------

TEST(Manifold, ABoxSlidingAndRockingOnABoxKeepsItsIds) {
  const Vec3 ha{2, 0.5, 2}, hb{0.5, 0.25, 0.4};
  Shape a = Shape::box(ha);
  std::set<std::uint32_t> first;
  for (int frame = 0; frame < 20; ++frame) {
    Shape b = Shape::box(hb);
    const Quat rock = axisAngle({1, 0, 0.3}, 0.02 * std::sin(frame * 0.9));
    b.at({-0.3 + 0.02 * frame, ha.y + hb.y - 0.01, 0.1 + 0.01 * frame},
         mul(axisAngle({0, 1, 0}, 0.2 + 0.01 * frame), rock));
    const Manifold m = manifoldOf(a, b, 0.02);
    ASSERT_EQ(m.count, 4) << frame;
    std::set<std::uint32_t> ids;
    for (int i = 0; i < m.count; ++i) {
      ids.insert(m.points[i].id);
      // Each point is a bottom corner of B, at that corner's height over A's top face.
      const ManifoldPoint& p = m.points[i];
      int corner = -1;
      for (int k = 0; k < 8; ++k)
        if (length(b.pose.apply({(k & 1) ? hb.x : -hb.x, (k & 2) ? hb.y : -hb.y, (k & 4) ? hb.z : -hb.z}) - p.pointB) <
            1e-12)
          corner = k;
      EXPECT_TRUE(corner == 0 || corner == 1 || corner == 4 || corner == 5) << frame << " " << corner;
      EXPECT_NEAR(p.distance, p.pointB.y - ha.y, 1e-12);
      EXPECT_NEAR(p.pointA.y, ha.y, 1e-12);
    }
    EXPECT_EQ(ids.size(), 4u) << frame;
    if (frame == 0) first = ids;
    EXPECT_EQ(ids, first) << "frame " << frame;
  }
}

// ---- refusals -------------------------------------------------------------------

TEST(Manifold, BadMarginsAndPairsAreRefused) {
  const Shape a = Shape::box({1, 1, 1});
  Shape b = Shape::sphere(0.5);
  b.at({0, 1.2, 0});
  for (double margin : {std::nan(""), -0.1, -0.0 - 1e-300, HUGE_VAL}) {
    Manifold m;
    m.count = 3;
    EXPECT_EQ(manifold(a, b, margin, &m), ManifoldStatus::InvalidMargin) << margin;
    EXPECT_EQ(m.count, 0);
  }
  TriangleMesh tri;
  tri.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
  tri.triangles = {{0, 2, 1}};
  Shape mesh;
  ShapeError se;
  ASSERT_TRUE(makeMeshShape(tri, &mesh, &se));
  Manifold m;
  EXPECT_EQ(manifold(mesh, b, 0, &m), ManifoldStatus::Unsupported);
  EXPECT_EQ(m.count, 0);
  MeshContact scratch[4];
  EXPECT_EQ(meshManifold(mesh, b, std::nan(""), scratch, 4, &m), ManifoldStatus::InvalidMargin);
  EXPECT_EQ(meshManifold(a, b, 0, scratch, 4, &m), ManifoldStatus::Unsupported);
  EXPECT_EQ(meshManifold(mesh, mesh, 0, scratch, 4, &m), ManifoldStatus::Unsupported);
  EXPECT_EQ(manifold(Shape::plane({0, 1, 0}, 0), Shape::plane({1, 0, 0}, 0), 0, &m), ManifoldStatus::Unbounded);
  for (double angle : {0.0, -0.1, 1.0, std::nan(""), HUGE_VAL}) {
    ManifoldSettings settings;
    settings.faceAngle = angle;
    m.count = 3;
    EXPECT_EQ(manifold(a, b, 0.1, &m, settings), ManifoldStatus::InvalidAngle) << angle;
    EXPECT_EQ(m.count, 0);
    EXPECT_EQ(meshManifold(mesh, b, 0.1, scratch, 4, &m, nullptr, settings), ManifoldStatus::InvalidAngle) << angle;
  }
}

}  // namespace
}  // namespace collidoscope
