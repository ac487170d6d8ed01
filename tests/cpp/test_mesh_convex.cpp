// Mesh against convex shape (mesh_convex.h), checked against brute force
// written here: every triangle of the mesh, placed in the world, against
// the shape at its own pose, with the library's convex pair queries
// (gjkIntersect, gjkDistance, triangleContact, gjkShapeCast) — no tree, no
// mesh frame. Independent references where they exist: the exact
// triangle–triangle predicate for triangle shapes, the closest point on a
// triangle (Ericson's regions, written here) for spheres and points, a
// sphere or box dropped on a floor for the cast, and plane.h's closed form
// per triangle for planes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <vector>

#include "collidoscope/gjk.h"
#include "collidoscope/mesh.h"
#include "collidoscope/mesh_convex.h"
#include "collidoscope/obbtree.h"
#include "collidoscope/plane.h"
#include "collidoscope/raycast.h"
#include "collidoscope/support.h"
#include "collidoscope/triangle.h"
#include "mesh_gen.h"

using namespace collidoscope;
using meshgen::Rng;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Agreement asked of distances, depths and contact points: 1e-9 of the
// scene's scale (DESIGN.md's default accuracy).
constexpr double kRel = 1e-9;

ObbTree build(const TriangleMesh& m, int leaf = 1) {
  ObbTree tree;
  ShapeError err;
  ObbTreeSettings s;
  s.leafTriangles = leaf;
  EXPECT_TRUE(buildObbTree(m, s, &tree, &err)) << err.field << ": " << err.message;
  return tree;
}

std::vector<TriangleShape> worldTriangles(const TriangleMesh& m, const Transform& pose) {
  std::vector<TriangleShape> out;
  for (const auto& t : m.triangles)
    out.push_back(TriangleShape{{pose.apply(m.vertices[t[0]]), pose.apply(m.vertices[t[1]]),
                                 pose.apply(m.vertices[t[2]])}});
  return out;
}

const ShapeType kConvexTypes[] = {ShapeType::Point,     ShapeType::Sphere,  ShapeType::Box,     ShapeType::Capsule,
                                  ShapeType::Cylinder,  ShapeType::Cone,    ShapeType::Ellipsoid, ShapeType::Segment,
                                  ShapeType::Triangle,  ShapeType::Polytope};

Shape makeConvex(Rng& rng, ShapeType type, double size) {
  auto len = [&]() { return size * rng.uniform(0.2, 1.0); };
  Shape s;
  switch (type) {
    case ShapeType::Point: s = Shape::point(); break;
    case ShapeType::Sphere: s = Shape::sphere(len()); break;
    case ShapeType::Box: s = Shape::box({len(), len(), len()}); break;
    case ShapeType::Capsule: s = Shape::capsule(len() * 0.5, len()); break;
    case ShapeType::Cylinder: s = Shape::cylinder(len(), len()); break;
    case ShapeType::Cone: s = Shape::cone(len(), len()); break;
    case ShapeType::Ellipsoid: s = Shape::ellipsoid({len(), len(), len()}); break;
    case ShapeType::Segment: s = Shape::segment(rng.inCube(size), rng.inCube(size)); break;
    case ShapeType::Triangle: s = Shape::triangle(rng.inCube(size), rng.inCube(size), rng.inCube(size)); break;
    case ShapeType::Polytope: {
      std::vector<Vec3> pts;
      for (int i = 0; i < 8; ++i) pts.push_back(rng.inCube(size));
      s = Shape::polytope(pts);
      break;
    }
    default: break;
  }
  if (rng.integer(3) == 0) s.margin = 0.05 * size;
  return s;
}

double sceneScale(const std::vector<TriangleShape>& tris, const Shape& s) {
  double S = maxAbs(s.pose.position) + localBoundingRadius(s);
  for (const TriangleShape& t : tris)
    for (const Vec3& v : t.v) S = std::max(S, maxAbs(v));
  return S;
}

// ------------------------------------------------------------ brute force

struct Brute {
  bool intersecting = false;
  double distance = kInf;
  int nearest = -1;
  std::vector<double> distances;  // per triangle
};

Brute bruteForce(const std::vector<TriangleShape>& tris, const Shape& s) {
  Brute b;
  const PosedShape shape(s);
  for (std::size_t i = 0; i < tris.size(); ++i) {
    if (gjkIntersect(tris[i], shape).intersecting) b.intersecting = true;
    const double d = gjkDistance(tris[i], shape).distance;
    b.distances.push_back(d);
    if (d < b.distance) {
      b.distance = d;
      b.nearest = static_cast<int>(i);
    }
  }
  return b;
}

// The closest point of triangle (a, b, c) to p, by Voronoi regions
// (C. Ericson, "Real-Time Collision Detection", §5.1.5), written here.
Vec3 closestOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + ab * (d1 / (d1 - d3));
  const Vec3 cp = p - c;
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  const double denom = 1 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

// Smallest altitude at least 1e-3 of the longest edge.
bool wellShaped(const TriangleShape& t) {
  const double area2 = length(cross(t.v[1] - t.v[0], t.v[2] - t.v[0]));
  const double e = std::max({length(t.v[1] - t.v[0]), length(t.v[2] - t.v[1]), length(t.v[0] - t.v[2])});
  return area2 / e >= 1e-3 * e;
}

// ------------------------------------------------------------ test meshes

struct Fixture {
  const char* name;
  TriangleMesh mesh;
};

std::vector<Fixture> fixtures() {
  Rng rng(11);
  std::vector<Fixture> f;
  f.push_back({"soup", meshgen::randomSoup(rng, 200, 2, 0.6)});
  f.push_back({"icosphere", meshgen::icosphere(2)});
  f.push_back({"torus", meshgen::torus(20, 8, 1.5, 0.5)});
  TriangleMesh g = meshgen::grid(10);
  for (Vec3& v : g.vertices) v = (v - Vec3{5, 5, 0}) * 0.3;
  f.push_back({"open grid", g});
  f.push_back({"unwelded icosphere", meshgen::unweld(meshgen::icosphere(1))});
  f.push_back({"slivers", meshgen::sliverSoup(rng, 150, 1.5)});
  f.push_back({"coplanar stack", meshgen::coplanarStack(rng, 150, 0.1, 40)});
  return f;
}

// A shape near the mesh: about a random triangle, pushed off by up to
// twice its size, so that about half the pairs touch.
Shape shapeNear(Rng& rng, const std::vector<TriangleShape>& tris, ShapeType type, double size) {
  Shape s = makeConvex(rng, type, size);
  const TriangleShape& t = tris[rng.integer(static_cast<int>(tris.size()))];
  s.pose.position = t.center() + rng.unit() * (rng.uniform(0, 2) * size);
  s.pose.rotation = rng.rotation();
  return s;
}

struct Tally {
  int pairs = 0, touching = 0, nearTouching = 0, castHits = 0, contacts = 0;
};

// Every query of mesh_convex.h on one pair against brute force.
void checkPair(const TriangleMesh& m, const ObbTree& tree, const Transform& pose,
               const std::vector<TriangleShape>& tris, const Shape& s, Rng& rng, Tally* tally) {
  const double S = sceneScale(tris, s);
  const double tol = kRel * S;
  const Brute b = bruteForce(tris, s);
  ++tally->pairs;
  SCOPED_TRACE(testing::Message() << shapeTypeName(s.type) << " margin " << s.margin << " brute distance "
                                  << b.distance);

  // intersect: equal to brute force away from ±1e-9·S of touching.
  const MeshIntersectResult in = meshConvexIntersect(m, tree, pose, s);
  EXPECT_EQ(in.status, MeshQueryStatus::Converged);
  const bool near = b.distance <= tol && b.distance > 0;
  if (near) ++tally->nearTouching;
  if (!near) { EXPECT_EQ(in.intersecting, b.intersecting); }
  if (in.intersecting) {
    ++tally->touching;
    ASSERT_GE(in.triangle, 0);
    EXPECT_LE(b.distances[in.triangle], tol);
  }

  // distance: the brute-force minimum; the triangle is a nearest one.
  const MeshDistanceResult d = meshConvexDistance(m, tree, pose, s);
  EXPECT_NE(d.status, MeshQueryStatus::InvalidInput);
  EXPECT_NEAR(d.distance, b.distance, tol);
  ASSERT_GE(d.triangle, 0);
  EXPECT_NEAR(b.distances[d.triangle], b.distance, tol);
  EXPECT_NEAR(length(d.pointA - d.pointB), d.distance, tol);
  EXPECT_EQ(d.intersecting, d.distance == 0);
  if (!near) { EXPECT_EQ(d.intersecting, b.intersecting); }
  // pointA lies on the reported triangle (checked on well-shaped ones: the
  // Voronoi-region formula cancels catastrophically on slivers).
  const TriangleShape& dt = tris[d.triangle];
  if (wellShaped(dt)) {
    EXPECT_LE(length(closestOnTriangle(d.pointA, dt.v[0], dt.v[1], dt.v[2]) - d.pointA), tol);
  }

  // contacts within a margin: the same triangles as brute force (away
  // from the margin's edge), with the same depths.
  const double margin = 0.1 * rng.uniform();
  MeshContact buf[512];
  const MeshContactsResult c = meshConvexContacts(m, tree, pose, s, margin, buf, 512);
  EXPECT_NE(c.status, MeshQueryStatus::InvalidInput);
  EXPECT_FALSE(c.truncated);
  std::set<int> got;
  for (int i = 0; i < c.count; ++i) got.insert(buf[i].triangle);
  EXPECT_EQ(got.size(), static_cast<std::size_t>(c.count));  // each triangle once
  tally->contacts += c.count;
  const PosedShape posed(s);
  for (std::size_t t = 0; t < tris.size(); ++t) {
    const bool edge = std::fabs(b.distances[t] - margin) <= tol;
    const bool want = b.distances[t] <= margin;
    if (!edge) { EXPECT_EQ(got.count(static_cast<int>(t)) == 1, want) << "triangle " << t; }
  }
  for (int i = 0; i < c.count; ++i) {
    const MeshContact& k = buf[i];
    const TriangleShape& tt = tris[k.triangle];
    const TriangleContactResult ref = triangleContact(tt.v[0], tt.v[1], tt.v[2], posed, margin);
    ASSERT_TRUE(ref.contact || std::fabs(b.distances[k.triangle] - margin) <= tol);
    if (!ref.contact) continue;
    EXPECT_NEAR(k.depth, -ref.distance, tol) << "triangle " << k.triangle;
    EXPECT_NEAR(length(k.normal), 1.0, 1e-12);
    EXPECT_EQ(k.face, ref.face);
    // pointB − pointA = −depth·normal.
    EXPECT_LE(length(k.pointB - k.pointA + k.normal * k.depth), tol);
    if (k.depth < 0) { EXPECT_NEAR(-k.depth, b.distances[k.triangle], tol); }
  }

  // shape cast along a random motion: the earliest brute-force hit.
  const Vec3 motion = rng.unit() * (rng.uniform(0, 3) * (localBoundingRadius(s) + 0.5));
  const MeshShapeCastResult sc = meshConvexShapeCast(m, tree, pose, s, motion);
  EXPECT_NE(sc.status, MeshQueryStatus::InvalidInput);
  double bestT = kInf;
  int bestTri = -1;
  for (std::size_t t = 0; t < tris.size(); ++t) {
    const ShapeCastResult r = gjkShapeCast(tris[t], posed, Vec3{}, motion);
    if (r.hit && r.t < bestT) {
      bestT = r.t;
      bestTri = static_cast<int>(t);
    }
  }
  const double tTol = tol / std::max(length(motion), 1e-300);
  EXPECT_EQ(sc.hit, bestTri >= 0);
  if (sc.hit && bestTri >= 0) {
    ++tally->castHits;
    EXPECT_NEAR(sc.t, bestT, tTol);
    const ShapeCastResult own = gjkShapeCast(tris[sc.triangle], posed, Vec3{}, motion);
    ASSERT_TRUE(own.hit);
    EXPECT_NEAR(own.t, sc.t, tTol);
    EXPECT_EQ(sc.initiallyOverlapping, sc.t == 0 && own.initiallyOverlapping);
    if (!sc.initiallyOverlapping) {
      EXPECT_NEAR(length(sc.normal), 1.0, 1e-9);
      EXPECT_LE(length(sc.pointA - sc.pointB), 1e-8 * S);
    }
  }
}

}  // namespace

// ------------------------------------------------------------ brute force

TEST(MeshConvex, EveryConvexTypeOnEveryMeshMatchesBruteForce) {
  Rng rng(101);
  Tally tally;
  for (const Fixture& f : fixtures()) {
    SCOPED_TRACE(f.name);
    for (int leaf : {1, 3}) {
      const ObbTree tree = build(f.mesh, leaf);
      for (int k = 0; k < 40; ++k) {
        Transform pose;
        pose.position = rng.inCube(3);
        pose.rotation = rng.rotation();
        const std::vector<TriangleShape> tris = worldTriangles(f.mesh, pose);
        for (ShapeType type : kConvexTypes) {
          const Shape s = shapeNear(rng, tris, type, 0.4);
          checkPair(f.mesh, tree, pose, tris, s, rng, &tally);
          if (HasFatalFailure()) return;
        }
      }
    }
  }
  // Thousands of pairs, with both answers well represented.
  EXPECT_EQ(tally.pairs, 7 * 2 * 40 * 10);
  EXPECT_GT(tally.touching, tally.pairs / 5);
  EXPECT_LT(tally.touching, tally.pairs * 4 / 5);
  EXPECT_GT(tally.castHits, tally.pairs / 5);
  EXPECT_GT(tally.contacts, tally.pairs);
}

// ------------------------------------------------------------ independent references

TEST(MeshConvex, TriangleShapesAgreeWithTheExactTrianglePredicate) {
  // A triangle shape touches the mesh iff trianglesIntersect says so for
  // some triangle (exact predicates; no GJK), away from near touching.
  Rng rng(7);
  const TriangleMesh m = meshgen::torus(24, 10, 1.5, 0.5);
  const ObbTree tree = build(m);
  Transform pose;
  pose.rotation = rng.rotation();
  pose.position = {0.5, -0.25, 1};
  const std::vector<TriangleShape> tris = worldTriangles(m, pose);
  int agree = 0, hits = 0;
  for (int i = 0; i < 1500; ++i) {
    const Vec3 c = pose.position + rng.inCube(2.5);
    const Shape s = Shape::triangle(c + rng.inCube(0.8), c + rng.inCube(0.8), c + rng.inCube(0.8));
    bool exact = false;
    // Near touching: no triangle overlaps deeper than 1e-9·S and some
    // triangle is within 1e-9·S (signed distance from the contact query).
    const double tol = 1e-9 * 4;
    bool deep = false, near = false;
    for (const TriangleShape& t : tris) {
      exact = exact || trianglesIntersect(t.v[0], t.v[1], t.v[2], s.points[0], s.points[1], s.points[2]);
      const ContactResult c = contact(t, PosedShape(s), tol);
      if (c.contact && c.distance < -tol) deep = true;
      if (c.contact && c.distance >= -tol) near = true;
    }
    if (near && !deep) continue;
    const MeshIntersectResult r = meshConvexIntersect(m, tree, pose, s);
    EXPECT_EQ(r.intersecting, exact) << i;
    agree += r.intersecting == exact;
    hits += exact;
  }
  EXPECT_GT(agree, 1400);
  EXPECT_GT(hits, 150);  // both answers well represented
  EXPECT_LT(hits, 1200);
}

TEST(MeshConvex, SphereAndPointDistancesAreClosestPointsOnTriangles) {
  // distance(sphere) = min over triangles of |c − closest point| − r, the
  // closest point by Voronoi regions (no GJK).
  Rng rng(8);
  for (const TriangleMesh& m : {meshgen::icosphere(2), meshgen::torus(30, 12, 2, 0.6)}) {
    const ObbTree tree = build(m);
    Transform pose;
    pose.rotation = rng.rotation();
    pose.position = rng.inCube(1);
    const std::vector<TriangleShape> tris = worldTriangles(m, pose);
    for (int i = 0; i < 500; ++i) {
      const double r = i % 2 ? 0 : rng.uniform(0.01, 0.3);
      Shape s = r > 0 ? Shape::sphere(r) : Shape::point();
      s.pose.position = pose.position + rng.inCube(3);
      double ref = kInf;
      for (const TriangleShape& t : tris)
        ref = std::min(ref, length(s.pose.position - closestOnTriangle(s.pose.position, t.v[0], t.v[1], t.v[2])));
      ref = std::max(ref - r, 0.0);
      const MeshDistanceResult d = meshConvexDistance(m, tree, pose, s);
      EXPECT_NEAR(d.distance, ref, 1e-9 * 4) << i;
      EXPECT_EQ(d.status, MeshQueryStatus::Converged);
    }
  }
}

// ------------------------------------------------------------ touching

TEST(MeshConvex, TouchingAndNearTouchingAFloor) {
  // The floor: the grid z = 0 (20 × 20, unit cells), moved so its largest
  // coordinate is 20 (S = 20). A box resting on it exactly touches; lifted
  // by 1e-9·S it is apart at that distance; sunk by 1e-9·S it overlaps.
  const TriangleMesh m = meshgen::grid(20);
  const ObbTree tree = build(m);
  const Transform pose;  // identity
  const double S = 20;
  for (double dz : {0.0, 1e-9 * S, -1e-9 * S, 4e-9 * S}) {
    for (ShapeType type : {ShapeType::Box, ShapeType::Sphere, ShapeType::Capsule, ShapeType::Cylinder}) {
      Shape s;
      double bottom = 0;  // distance from the pose to the shape's lowest point
      switch (type) {
        case ShapeType::Box: s = Shape::box({0.5, 0.25, 0.5}); bottom = 0.25; break;  // rotated below: y up
        case ShapeType::Sphere: s = Shape::sphere(0.5); bottom = 0.5; break;
        // Axis along y, lying flat: the lowest points are a line.
        case ShapeType::Capsule: s = Shape::capsule(0.25, 1); bottom = 0.25; break;
        default: s = Shape::cylinder(0.5, 0.75); bottom = 0.75; s.pose.rotation = {std::sqrt(0.5), 0, 0, std::sqrt(0.5)};
      }
      if (type == ShapeType::Box) s.pose.rotation = {std::sqrt(0.5), 0, 0, std::sqrt(0.5)};  // z ↔ y
      s.pose.position = {7.25, 9.5, bottom + dz};
      SCOPED_TRACE(testing::Message() << shapeTypeName(type) << " dz " << dz);
      const MeshIntersectResult in = meshConvexIntersect(m, tree, pose, s);
      const MeshDistanceResult d = meshConvexDistance(m, tree, pose, s);
      EXPECT_EQ(in.intersecting, dz <= 0);
      EXPECT_EQ(d.intersecting, dz <= 0);
      EXPECT_NEAR(d.distance, std::max(dz, 0.0), 1e-12 * S);
      // Contacts within 1e-12·S (exact touching rounds to a gap of ulps):
      // the triangles under the shape's lowest point answer by the face
      // rule, at the sinking depth, with the floor's normal exactly;
      // triangles touched at an edge may answer with a shallower sideways
      // push, never a deeper one.
      MeshContact buf[64];
      const MeshContactsResult c = meshConvexContacts(m, tree, pose, s, 1e-12 * S, buf, 64);
      EXPECT_EQ(c.count > 0, dz <= 0);
      int faces = 0;
      for (int i = 0; i < c.count; ++i) {
        EXPECT_LE(buf[i].depth, std::max(-dz, 0.0) + 1e-9 * S);
        if (!buf[i].face) continue;
        ++faces;
        EXPECT_NEAR(buf[i].depth, std::max(-dz, 0.0), 1e-12 * S);
        EXPECT_EQ(buf[i].normal, (Vec3{0, 0, 1}));
      }
      EXPECT_EQ(faces > 0, dz <= 0);
    }
  }
  // A point exactly at a grid vertex, on an edge, and inside a cell.
  for (const Vec3& p : {Vec3{3, 4, 0}, Vec3{3.5, 4, 0}, Vec3{3.25, 4.5, 0}}) {
    Shape s = Shape::point();
    s.pose.position = p;
    EXPECT_TRUE(meshConvexIntersect(m, tree, pose, s).intersecting);
    s.pose.position = p + Vec3{0, 0, 1e-9 * S};
    EXPECT_FALSE(meshConvexIntersect(m, tree, pose, s).intersecting);
    EXPECT_NEAR(meshConvexDistance(m, tree, pose, s).distance, 1e-9 * S, 1e-15 * S);
  }
}

TEST(MeshConvex, AShapeInsideAClosedMeshDoesNotTouchItsSurface) {
  // The mesh is a surface: a sphere well inside the icosphere touches no
  // triangle; its distance is the gap to the surface; it has no contacts.
  const TriangleMesh m = meshgen::icosphere(3);
  const ObbTree tree = build(m);
  const Transform pose;
  // The icosphere's faces are at least cos(the angle of its largest face)
  // from the centre: above 0.99 for three subdivisions.
  Shape s = Shape::sphere(0.5);
  EXPECT_FALSE(meshConvexIntersect(m, tree, pose, s).intersecting);
  const MeshDistanceResult d = meshConvexDistance(m, tree, pose, s);
  EXPECT_FALSE(d.intersecting);
  EXPECT_GT(d.distance, 0.49);
  EXPECT_LT(d.distance, 0.5);
  MeshContact buf[8];
  EXPECT_EQ(meshConvexContacts(m, tree, pose, s, 0.1, buf, 8).found, 0);
  // Straddling the surface it touches.
  s.pose.position = {0, 0.9, 0};
  EXPECT_TRUE(meshConvexIntersect(m, tree, pose, s).intersecting);
}

// ------------------------------------------------------------ the game case

TEST(MeshConvex, PushingACapsuleOutOfAFloor) {
  // A character's capsule (upright, along y) has sunk 0.3 into a floor of
  // triangles (the grid, rotated so its normal is +y, and moved). The
  // deepest contact is the triangle under the capsule's lowest point, with
  // the floor's up as normal (the face rule); the triangles around it are
  // touched at their edges and may push sideways, less deep. Moving the
  // capsule by the deepest depth along its normal leaves it touching the
  // floor and overlapping nothing.
  const TriangleMesh m = meshgen::grid(16);
  const ObbTree tree = build(m);
  Transform floor;
  floor.rotation = {-std::sqrt(0.5), 0, 0, std::sqrt(0.5)};  // (x, y, z) ↦ (x, z, −y): z up → y up
  floor.position = {-8, 2, 8};
  const Vec3 up = floor.applyToDirection({0, 0, 1});
  ASSERT_NEAR(up.y, 1, 1e-15);
  Shape capsule = Shape::capsule(0.4, 0.9);
  // The floor's surface is y = 2; the capsule's bottom is 1.3 below its centre.
  capsule.pose.position = {0.3, 2 + 1.3 - 0.3, -0.7};
  MeshContact buf[64];
  const MeshContactsResult c = meshConvexContacts(m, tree, floor, capsule, 0.01, buf, 64);
  ASSERT_GT(c.count, 0);
  EXPECT_FALSE(c.truncated);
  int deepestAt = 0;
  for (int i = 1; i < c.count; ++i)
    if (buf[i].depth > buf[deepestAt].depth) deepestAt = i;
  const double deepest = buf[deepestAt].depth;
  const Vec3 normal = buf[deepestAt].normal;
  EXPECT_TRUE(buf[deepestAt].face);
  EXPECT_NEAR(normal.y, 1, 1e-12);
  EXPECT_NEAR(deepest, 0.3, 1e-12);
  capsule.pose.position += normal * deepest;
  EXPECT_NEAR(capsule.pose.position.y - 1.3, 2, 1e-12);
  const MeshContactsResult after = meshConvexContacts(m, tree, floor, capsule, 0.01, buf, 64);
  for (int i = 0; i < after.count; ++i) EXPECT_NEAR(buf[i].depth, 0, 1e-12);
  const MeshDistanceResult d = meshConvexDistance(m, tree, floor, capsule);
  EXPECT_NEAR(d.distance, 0, 1e-12);
}

TEST(MeshConvex, ContactsBufferIsTruncatedNotOverrun) {
  const TriangleMesh m = meshgen::grid(8);
  const ObbTree tree = build(m);
  Shape s = Shape::box({2, 2, 0.5});
  s.pose.position = {4, 4, 0.25};  // overlaps 32 triangles of the grid
  MeshContact all[128];
  const MeshContactsResult full = meshConvexContacts(m, tree, Transform{}, s, 0, all, 128);
  EXPECT_FALSE(full.truncated);
  EXPECT_EQ(full.count, full.found);
  EXPECT_GE(full.found, 32);
  MeshContact few[6];
  MeshContact sentinel;
  sentinel.triangle = -7;
  std::fill(few, few + 6, sentinel);
  const MeshContactsResult part = meshConvexContacts(m, tree, Transform{}, s, 0, few, 5);
  EXPECT_TRUE(part.truncated);
  EXPECT_EQ(part.count, 5);
  EXPECT_EQ(part.found, full.found);
  EXPECT_EQ(few[5].triangle, -7);  // nothing written beyond the capacity
  for (int i = 0; i < 5; ++i) EXPECT_EQ(few[i].triangle, all[i].triangle);  // the first ones in tree order
  const MeshContactsResult none = meshConvexContacts(m, tree, Transform{}, s, 0, nullptr, 0);
  EXPECT_TRUE(none.truncated);
  EXPECT_EQ(none.found, full.found);
}

// ------------------------------------------------------------ shape cast

TEST(MeshConvex, FallingOntoAFloorHitsAtTheAnalyticTime) {
  // Dropped from height h onto the grid z = 0 by a motion of −D along z:
  // t = (h − bottom)/D; and a small fast sphere does not tunnel through a
  // single-sided open mesh.
  const TriangleMesh m = meshgen::grid(12);
  const ObbTree tree = build(m);
  Rng rng(5);
  for (int i = 0; i < 200; ++i) {
    const double r = rng.uniform(0.05, 0.5), h = rng.uniform(1, 3), D = rng.uniform(0.5, 5);
    Shape s = i % 2 ? Shape::sphere(r) : Shape::box({r, r, r});
    s.pose.position = {rng.uniform(1, 11), rng.uniform(1, 11), h};
    const Vec3 motion{rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), -D};
    const MeshShapeCastResult c = meshConvexShapeCast(m, tree, Transform{}, s, motion);
    const double t = (h - r) / D;
    EXPECT_EQ(c.hit, t <= 1) << i;
    if (c.hit) {
      EXPECT_NEAR(c.t, t, 1e-9 * 12 / D);
      EXPECT_NEAR(c.normal.z, 1, 1e-9);
      EXPECT_NEAR(c.pointA.z, 0, 1e-9 * 12);
      EXPECT_FALSE(c.initiallyOverlapping);
    }
  }
  Shape bullet = Shape::sphere(0.01);
  bullet.pose.position = {6.1, 6.2, 50};
  const MeshShapeCastResult c = meshConvexShapeCast(m, tree, Transform{}, bullet, {0, 0, -100});
  ASSERT_TRUE(c.hit);
  EXPECT_NEAR(c.t, (50 - 0.01) / 100, 1e-12);
  // Starting on the floor: t = 0, overlapping.
  bullet.pose.position = {6.1, 6.2, 0.005};
  const MeshShapeCastResult o = meshConvexShapeCast(m, tree, Transform{}, bullet, {1, 0, 0});
  EXPECT_TRUE(o.hit);
  EXPECT_EQ(o.t, 0);
  EXPECT_TRUE(o.initiallyOverlapping);
}

// ------------------------------------------------------------ planes

TEST(MeshConvex, PlanesMatchPlaneHOnEveryTriangle) {
  // The closed form against plane.h's plane–triangle answers, one triangle
  // at a time (a triangle Shape per mesh triangle).
  Rng rng(9);
  const TriangleMesh m = meshgen::torus(16, 8, 1, 0.3);
  const ObbTree tree = build(m);
  for (int i = 0; i < 300; ++i) {
    Transform pose;
    pose.rotation = rng.rotation();
    pose.position = rng.inCube(1);
    Shape plane = Shape::plane(rng.unit() * rng.uniform(0.5, 2), rng.uniform(-2, 2));
    plane.pose.rotation = rng.rotation();
    plane.pose.position = rng.inCube(0.5);
    if (i % 3 == 0) plane.margin = 0.1;
    const std::vector<TriangleShape> tris = worldTriangles(m, pose);
    bool anyIn = false;
    double dist = kInf;
    std::vector<double> per;
    for (const TriangleShape& t : tris) {
      const Shape tri = Shape::triangle(t.v[0], t.v[1], t.v[2]);
      anyIn = anyIn || planeIntersect(plane, tri).intersecting;
      const DistanceResult d = planeDistance(plane, tri);
      dist = std::min(dist, d.distance);
      PenetrationResult pen;
      planePenetration(plane, tri, &pen);
      per.push_back(pen.intersecting ? -pen.depth : d.distance);
    }
    // The mesh queries dispatch planes to the closed form.
    const MeshIntersectResult in = meshConvexIntersect(m, tree, pose, plane);
    EXPECT_EQ(in.intersecting, anyIn);
    const MeshDistanceResult d = meshConvexDistance(m, tree, pose, plane);
    EXPECT_NEAR(d.distance, dist, 1e-12);
    EXPECT_NEAR(length(d.pointA - d.pointB), d.distance, 1e-12);
    MeshContact buf[1024];
    const double margin = 0.05;
    const MeshContactsResult c = meshConvexContacts(m, tree, pose, plane, margin, buf, 1024);
    int want = 0;
    for (double h : per) want += h <= margin;
    EXPECT_EQ(c.found, want);
    for (int k = 0; k < c.count; ++k) EXPECT_NEAR(buf[k].depth, -per[buf[k].triangle], 1e-12);
    // Moving the plane by a motion: the hit time is when the lowest vertex is reached.
    const Vec3 motion = rng.unit() * 2;
    const MeshShapeCastResult sc = meshConvexShapeCast(m, tree, pose, plane, motion);
    const HalfSpace hs = worldHalfSpace(plane);
    const double rise = dot(hs.normal, motion);
    const double lowest = anyIn ? 0 : dist;
    EXPECT_EQ(sc.hit, anyIn || (rise > 0 && lowest <= rise + 1e-12));
    if (sc.hit && !anyIn) { EXPECT_NEAR(sc.t, lowest / rise, 1e-9); }
  }
}

// ------------------------------------------------------------ cost and bad input

TEST(MeshConvex, TheTreeTestsFewTrianglesOnALargeMesh) {
  const TriangleMesh m = meshgen::torusOfAbout(20000);
  const ObbTree tree = build(m);
  const int n = static_cast<int>(m.triangles.size());
  Rng rng(12);
  long long tri = 0, box = 0, distTri = 0, castTri = 0;
  for (int i = 0; i < 100; ++i) {
    Shape s = Shape::capsule(0.02, 0.05);
    s.pose.position = {std::cos(i * 0.3) * 1.2, rng.uniform(-0.4, 0.4), std::sin(i * 0.3) * 1.2};
    s.pose.rotation = rng.rotation();
    const MeshIntersectResult r = meshConvexIntersect(m, tree, Transform{}, s);
    tri += r.triangleTests;
    box += r.boxTests;
    distTri += meshConvexDistance(m, tree, Transform{}, s).triangleTests;
    castTri += meshConvexShapeCast(m, tree, Transform{}, s, {0.1, 0, 0}).triangleTests;
  }
  // A small shape meets a handful of triangles and a path of boxes to them.
  EXPECT_LT(tri, 100LL * n / 500);
  EXPECT_LT(box, 100LL * n / 50);
  EXPECT_LT(distTri, 100LL * n / 100);
  EXPECT_LT(castTri, 100LL * n / 100);
  EXPECT_GT(box, 0);
}

TEST(MeshConvex, BadInputIsInvalidNotACrash) {
  const TriangleMesh m = meshgen::icosphere(1);
  const ObbTree tree = build(m);
  const ObbTree other = build(meshgen::icosphere(0));
  Shape s = Shape::sphere(0.5);
  MeshContact buf[4];
  EXPECT_EQ(meshConvexIntersect(m, other, Transform{}, s).status, MeshQueryStatus::InvalidInput);
  EXPECT_EQ(meshConvexDistance(m, ObbTree{}, Transform{}, s).status, MeshQueryStatus::InvalidInput);
  Transform nanPose;
  nanPose.position.x = std::nan("");
  EXPECT_EQ(meshConvexDistance(m, tree, nanPose, s).status, MeshQueryStatus::InvalidInput);
  EXPECT_EQ(meshConvexContacts(m, tree, Transform{}, s, -1, buf, 4).status, MeshQueryStatus::InvalidInput);
  EXPECT_EQ(meshConvexContacts(m, tree, Transform{}, s, std::nan(""), buf, 4).status,
            MeshQueryStatus::InvalidInput);
  EXPECT_EQ(meshConvexContacts(m, tree, Transform{}, s, 0, nullptr, 4).status, MeshQueryStatus::InvalidInput);
  EXPECT_EQ(meshConvexShapeCast(m, tree, Transform{}, s, {std::nan(""), 0, 0}).status,
            MeshQueryStatus::InvalidInput);
  s.pose.position.y = kInf;
  EXPECT_EQ(meshConvexIntersect(m, tree, Transform{}, s).status, MeshQueryStatus::InvalidInput);
  Shape badPlane = Shape::plane({0, 0, 0}, 1);
  EXPECT_EQ(meshConvexIntersect(m, tree, Transform{}, badPlane).status, MeshQueryStatus::InvalidInput);
  // A corrupt tree (a child index out of range) ends with a status.
  ObbTree broken = tree;
  broken.nodes[0].right = 100000;
  s = Shape::sphere(0.3);  // inside: no triangle ends the descent early
  const MeshIntersectResult r = meshConvexIntersect(m, broken, Transform{}, s);
  EXPECT_EQ(r.status, MeshQueryStatus::MaxIterations);
  // The last node (a leaf) made an inner node: its left child would be past
  // the end. Every query stops with a status, reading nothing out of range.
  ObbTree dangling = tree;
  dangling.nodes.back().right = 0;
  const Shape big = Shape::sphere(3);  // overlaps every box: the descent reaches the last node
  MeshContact many[128];
  EXPECT_EQ(meshConvexContacts(m, dangling, Transform{}, big, 0, many, 128).status, MeshQueryStatus::MaxIterations);
  EXPECT_EQ(meshConvexShapeCast(m, dangling, Transform{}, big, {1, 0, 0}).status, MeshQueryStatus::MaxIterations);
  // A cycle (the first leaf made an inner node whose right child is the
  // root): the visit cap ends it.
  ObbTree cycle = tree;
  int firstLeaf = 0;
  while (!cycle.nodes[firstLeaf].leaf()) ++firstLeaf;
  cycle.nodes[firstLeaf].right = 0;
  const MeshContactsResult looped = meshConvexContacts(m, cycle, Transform{}, big, 0, many, 128);
  EXPECT_EQ(looped.status, MeshQueryStatus::MaxIterations);
  EXPECT_LE(looped.boxTests, static_cast<int>(tree.nodes.size()));
}

TEST(MeshConvex, ReadmeExample) {
  // README.md's example, verbatim in substance: a two-triangle floor.
  TriangleMesh floor{{{-10, 0, -10}, {-10, 0, 10}, {10, 0, 10}, {10, 0, -10}}, {{0, 1, 2}, {0, 2, 3}}};
  ObbTree tree;
  ShapeError err;
  ASSERT_TRUE(buildObbTree(floor, ObbTreeSettings{}, &tree, &err));
  Shape capsule = Shape::capsule(0.5, 1.0).at({1, 1.2, 2});
  MeshContact contacts[16];
  const MeshContactsResult r = meshConvexContacts(floor, tree, Transform{}, capsule, 0.0, contacts, 16);
  ASSERT_EQ(r.count, 1);
  EXPECT_EQ(contacts[0].triangle, 0);
  EXPECT_NEAR(contacts[0].depth, 0.3, 1e-15);
  EXPECT_EQ(contacts[0].normal, (Vec3{0, 1, 0}));
  const MeshShapeCastResult hit =
      meshConvexShapeCast(floor, tree, Transform{}, Shape::sphere(0.25).at({0, 5, 0}), {0, -10, 0});
  ASSERT_TRUE(hit.hit);
  EXPECT_NEAR(hit.t, 0.475, 1e-15);
  EXPECT_NEAR(hit.normal.y, 1, 1e-15);
  const MeshDistanceResult d = meshConvexDistance(floor, tree, Transform{}, Shape::box({1, 1, 1}).at({3, 4, -2}));
  EXPECT_NEAR(d.distance, 3, 1e-15);
}

TEST(MeshConvex, EveryConvexTypeTouchingAndNearTouchingAFloor) {
  // Each type at a random rotation, its lowest point (support along −z,
  // radius included) put at height δ over the grid z = 0 (S = 20), inside a
  // cell: δ = 0 touches, δ = ±1e-9·S is apart or overlapping by that much.
  // A bare point below the floor is not in the surface: apart by |δ|.
  // Distances are asked within 1e-10·S: GJK's certified error on curved
  // shapes (its absolute tolerance, gjk.h), ten times finer than the gap.
  const TriangleMesh m = meshgen::grid(20);
  const ObbTree tree = build(m);
  const double S = 20;
  Rng rng(21);
  int checked = 0;
  for (int round = 0; round < 30; ++round)
    for (ShapeType type : kConvexTypes) {
      Shape s = makeConvex(rng, type, 0.8);
      s.pose.rotation = rng.rotation();
      s.pose.position = {10.3, 9.6, 5};
      const Vec3 low = fullSupport(s, {0, 0, -1});
      for (double delta : {0.0, 1e-9 * S, -1e-9 * S}) {
        Shape placed = s;
        placed.pose.position.z += delta - low.z;
        const double bottom = fullSupport(placed, {0, 0, -1}).z;  // δ to rounding
        SCOPED_TRACE(testing::Message() << shapeTypeName(type) << " delta " << delta << " bottom " << bottom);
        const bool bare = type == ShapeType::Point && s.margin == 0;
        const bool touches = bare ? delta == 0 : delta <= 0;
        const MeshIntersectResult in = meshConvexIntersect(m, tree, Transform{}, placed);
        const MeshDistanceResult d = meshConvexDistance(m, tree, Transform{}, placed);
        EXPECT_EQ(in.intersecting, touches);
        EXPECT_NEAR(d.distance, touches ? 0.0 : std::fabs(delta), 1e-10 * S);
        // Contacts within a margin between GJK's error and the gap.
        MeshContact buf[256];
        const MeshContactsResult c = meshConvexContacts(m, tree, Transform{}, placed, 2.5e-10 * S, buf, 256);
        EXPECT_EQ(c.found > 0, touches);
        double deepest = -kInf;
        for (int i = 0; i < c.count; ++i) deepest = std::max(deepest, buf[i].depth);
        if (c.count > 0) {
          EXPECT_NEAR(deepest, std::max(-delta, 0.0), 1e-10 * S);
        }
        ++checked;
      }
    }
  EXPECT_EQ(checked, 30 * 10 * 3);
}

TEST(MeshConvex, AMeshMarginThickensTheSurface) {
  // A mesh with margin r against a shape C answers as the bare mesh against
  // C ⊕ ball(r) (brute force on a copy of C with its margin grown by r),
  // with the points moved back: pointA within r of the triangle, pointB on
  // C. Planes: as a plane whose own margin is grown by r.
  Rng rng(31);
  const double r = 0.07;
  MeshConvexSettings settings;
  settings.meshMargin = r;
  int touching = 0, apart = 0;
  for (const TriangleMesh& m : {meshgen::torus(16, 8, 1.5, 0.5), meshgen::randomSoup(rng, 120, 2, 0.6)}) {
    const ObbTree tree = build(m);
    Transform pose;
    pose.rotation = rng.rotation();
    pose.position = rng.inCube(1);
    const std::vector<TriangleShape> tris = worldTriangles(m, pose);
    for (int i = 0; i < 150; ++i) {
      const Shape s = shapeNear(rng, tris, kConvexTypes[i % 10], 0.4);
      Shape grown = s;
      grown.margin += r;
      const Brute b = bruteForce(tris, grown);
      const double S = sceneScale(tris, grown), tol = kRel * S;
      SCOPED_TRACE(testing::Message() << shapeTypeName(s.type) << " " << b.distance);
      const bool near = b.distance > 0 && b.distance <= tol;
      const MeshIntersectResult in = meshConvexIntersect(m, tree, pose, s, settings);
      if (!near) {
        EXPECT_EQ(in.intersecting, b.intersecting);
      }
      touching += in.intersecting;
      const MeshDistanceResult d = meshConvexDistance(m, tree, pose, s, settings);
      EXPECT_NEAR(d.distance, b.distance, tol);
      EXPECT_NEAR(length(d.pointA - d.pointB), d.distance, tol);
      if (d.distance > tol) {
        ++apart;
        const TriangleShape& t = tris[d.triangle];
        if (wellShaped(t)) {
          EXPECT_NEAR(length(closestOnTriangle(d.pointA, t.v[0], t.v[1], t.v[2]) - d.pointA), r, tol);
        }
        Shape at = Shape::point();
        at.pose.position = d.pointB;
        EXPECT_LE(gjkDistance(PosedShape(at), PosedShape(s)).distance, tol);  // on C, not on C ⊕ ball(r)
      }
      MeshContact buf[256];
      const MeshContactsResult c = meshConvexContacts(m, tree, pose, s, 0.02, buf, 256, settings);
      int want = 0;
      for (std::size_t t = 0; t < tris.size(); ++t) want += b.distances[t] <= 0.02;
      EXPECT_NEAR(c.found, want, 1);  // a triangle at the margin's edge may go either way
      for (int k = 0; k < c.count; ++k) {
        const TriangleShape& tt = tris[buf[k].triangle];
        const TriangleContactResult ref = triangleContact(tt.v[0], tt.v[1], tt.v[2], PosedShape(grown), 0.02);
        if (!ref.contact) continue;
        EXPECT_NEAR(buf[k].depth, -ref.distance, tol);
        EXPECT_LE(length(buf[k].pointB - buf[k].pointA + buf[k].normal * buf[k].depth), tol);
      }
      const Vec3 motion = rng.unit() * 1.5;
      const MeshShapeCastResult sc = meshConvexShapeCast(m, tree, pose, s, motion, settings);
      double bestT = kInf;
      for (const TriangleShape& t : tris) {
        const ShapeCastResult cr = gjkShapeCast(t, PosedShape(grown), Vec3{}, motion);
        if (cr.hit) bestT = std::min(bestT, cr.t);
      }
      EXPECT_EQ(sc.hit, bestT <= 1);
      if (sc.hit && bestT <= 1) {
        EXPECT_NEAR(sc.t, bestT, tol / 1.5);
      }
    }
    for (int i = 0; i < 50; ++i) {
      Shape plane = Shape::plane(rng.unit(), rng.uniform(-1, 1));
      Shape grownPlane = plane;
      grownPlane.margin += r;
      EXPECT_EQ(meshConvexIntersect(m, tree, pose, plane, settings).intersecting,
                meshConvexIntersect(m, tree, pose, grownPlane).intersecting);
      EXPECT_NEAR(meshConvexDistance(m, tree, pose, plane, settings).distance,
                  meshConvexDistance(m, tree, pose, grownPlane).distance, 1e-12);
    }
  }
  EXPECT_GT(touching, 60);
  EXPECT_GT(apart, 60);
  MeshConvexSettings bad;
  bad.meshMargin = -1;
  const TriangleMesh m = meshgen::icosphere(0);
  EXPECT_EQ(meshConvexDistance(m, build(m), Transform{}, Shape::sphere(1), bad).status,
            MeshQueryStatus::InvalidInput);
}
