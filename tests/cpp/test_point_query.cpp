// containsPoint and projectPoint (point_query.h) against independent answers:
//   * spheres, capsules, boxes and cylinders by their analytic closest points
//     (outside: clamp in the shape's frame; inside: the nearest face);
//   * polytopes by brute force over the faces of their hull (every triple
//     of points with all the others on one side): outside, the nearest
//     point of any face triangle; inside, the nearest face plane;
//   * every convex type, cones and ellipsoids included, by the optimality
//     certificate of a convex set C: for p outside, u = (p − x)/|p − x| has
//     h_C(u) = u·x (x is extreme along u, so nothing of C is nearer p);
//     for p inside, every direction u gives h_C(u) − u·p ≥ the distance to
//     the boundary, with equality along (x − p);
//   * outside points agree with gjkDistance; contains agrees with project.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <cmath>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/point_query.h"
#include "collidoscope/scene.h"
#include "collidoscope/support.h"
#include "reference.h"

namespace collidoscope {
namespace {

constexpr double kTol = 1e-9;

struct Answer {
  Vec3 point;
  double distance;
  bool inside;
};

Vec3 toLocal(const Shape& s, const Vec3& p) { return inverseRotate(s.pose.rotation, p - s.pose.position); }
Vec3 toWorld(const Shape& s, const Vec3& q) { return s.pose.apply(q); }

// A ball of radius r about the point c (local), for spheres and capsules.
Answer aroundPoint(const Vec3& q, const Vec3& c, double r) {
  const Vec3 d = q - c;
  const double n = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
  return {c + d * (r / n), std::fabs(n - r), n <= r};
}

Answer analyticBox(const Vec3& h, const Vec3& q) {
  const double v[3] = {q.x, q.y, q.z}, e[3] = {h.x, h.y, h.z};
  double c[3];
  bool inside = true;
  for (int i = 0; i < 3; ++i) {
    c[i] = std::clamp(v[i], -e[i], e[i]);
    if (std::fabs(v[i]) > e[i]) inside = false;
  }
  if (!inside) {
    const Vec3 cp{c[0], c[1], c[2]};
    const Vec3 d = q - cp;
    return {cp, std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z), false};
  }
  int best = 0;
  for (int i = 1; i < 3; ++i)
    if (e[i] - std::fabs(v[i]) < e[best] - std::fabs(v[best])) best = i;
  c[best] = v[best] >= 0 ? e[best] : -e[best];
  return {{c[0], c[1], c[2]}, e[best] - std::fabs(v[best]), true};
}

Answer analyticCylinder(double r, double hh, const Vec3& q) {
  const double rho = std::hypot(q.x, q.z);
  const double ux = rho > 0 ? q.x / rho : 1, uz = rho > 0 ? q.z / rho : 0;
  if (rho <= r && std::fabs(q.y) <= hh) {
    const double side = r - rho, cap = hh - std::fabs(q.y);
    if (side < cap) return {{ux * r, q.y, uz * r}, side, true};
    return {{q.x, q.y >= 0 ? hh : -hh, q.z}, cap, true};
  }
  const double cr = std::min(rho, r);
  const Vec3 cp{ux * cr, std::clamp(q.y, -hh, hh), uz * cr};
  const Vec3 d = q - cp;
  return {cp, std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z), false};
}

// The analytic answer in local coordinates, for the four types that have one.
Answer analytic(const Shape& s, const Vec3& q) {
  switch (s.type) {
    case ShapeType::Sphere: return aroundPoint(q, {}, s.radius);
    case ShapeType::Capsule: {
      const Vec3 c{0, std::clamp(q.y, -s.halfHeight, s.halfHeight), 0};
      return aroundPoint(q, c, s.radius);
    }
    case ShapeType::Box: return analyticBox(s.halfExtents, q);
    default: return analyticCylinder(s.radius, s.halfHeight, q);
  }
}

void expectAnswer(const ProjectResult& r, const Answer& want, double scale, const char* what) {
  EXPECT_EQ(r.inside, want.inside) << what;
  EXPECT_NEAR(r.distance, want.distance, kTol * scale) << what;
  EXPECT_NEAR(r.point.x, want.point.x, kTol * scale) << what;
  EXPECT_NEAR(r.point.y, want.point.y, kTol * scale) << what;
  EXPECT_NEAR(r.point.z, want.point.z, kTol * scale) << what;
}

TEST(PointQuery, AnalyticShapesInsideAndOutside) {
  ref::Rng rng(181);
  const ShapeType types[] = {ShapeType::Sphere, ShapeType::Capsule, ShapeType::Box, ShapeType::Cylinder};
  int inside = 0, outside = 0;
  for (ShapeType t : types) {
    for (int i = 0; i < 300; ++i) {
      Shape s = ref::randomShape(rng, t, 2.0);
      s.pose.position = rng.inCube(3);
      s.pose.rotation = rng.rotation();
      const Vec3 q = rng.inCube(3.0);  // local; about half inside the smaller shapes
      const Vec3 p = toWorld(s, q);
      Answer want = analytic(s, toLocal(s, p));
      want.point = toWorld(s, want.point);
      const ProjectResult r = projectPoint(s, p);
      expectAnswer(r, want, 5.0, want.inside ? "inside" : "outside");
      EXPECT_EQ(containsPoint(s, p).inside, want.inside) << shapeTypeName(t);
      (want.inside ? inside : outside)++;
    }
  }
  EXPECT_GT(inside, 40);
  EXPECT_GT(outside, 400);
}

TEST(PointQuery, BoundaryCountsAsInside) {
  const Shape box = Shape::box({1, 2, 3});
  for (const Vec3& p : {Vec3{1, 0, 0}, Vec3{1, 2, 3}, Vec3{0, -2, 0.5}}) {
    EXPECT_TRUE(containsPoint(box, p).inside);
    const ProjectResult r = projectPoint(box, p);
    EXPECT_TRUE(r.inside);
    EXPECT_EQ(r.distance, 0);
  }
  const Shape sphere = Shape::sphere(2);
  EXPECT_TRUE(containsPoint(sphere, {0, 2, 0}).inside);
  EXPECT_FALSE(containsPoint(sphere, {0, 2.000001, 0}).inside);
  EXPECT_FALSE(containsPoint(box, {1.000001, 0, 0}).inside);
}

// Brute-force faces of the hull of pts: planes n·x = d with every point on
// the inside (n·x ≤ d + slack), from every non-degenerate triple.
struct Face {
  Vec3 a, b, c, n;
  double d;
};

std::vector<Face> bruteFaces(const std::vector<Vec3>& pts) {
  std::vector<Face> faces;
  const std::size_t n = pts.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      for (std::size_t k = j + 1; k < n; ++k) {
        Vec3 nn = cross(pts[j] - pts[i], pts[k] - pts[i]);
        const double len = std::sqrt(dot(nn, nn));
        if (len < 1e-9) continue;
        nn = nn / len;
        double d = dot(nn, pts[i]);
        int above = 0, below = 0;
        for (const Vec3& p : pts) {
          const double s = dot(nn, p) - d;
          if (s > 1e-12) ++above;
          if (s < -1e-12) ++below;
        }
        if (above > 0 && below > 0) continue;
        if (above > 0) nn = nn * -1.0, d = -d;
        faces.push_back({pts[i], pts[j], pts[k], nn, d});
      }
  return faces;
}

// Nearest point of triangle abc to p: inside the triangle's plane
// projection, or on one of its edges.
Vec3 nearestOnTriangle(const Vec3& p, const Face& f) {
  const Vec3 x = p - f.n * (dot(f.n, p) - f.d);
  const auto side = [&](const Vec3& u, const Vec3& v) { return dot(cross(v - u, x - u), f.n); };
  const double s0 = side(f.a, f.b), s1 = side(f.b, f.c), s2 = side(f.c, f.a);
  if ((s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0)) return x;
  const auto onSegment = [&](const Vec3& u, const Vec3& v) {
    const Vec3 e = v - u;
    const double t = std::clamp(dot(p - u, e) / dot(e, e), 0.0, 1.0);
    return u + e * t;
  };
  Vec3 best = onSegment(f.a, f.b);
  for (const Vec3& c : {onSegment(f.b, f.c), onSegment(f.c, f.a)})
    if (length(c - p) < length(best - p)) best = c;
  return best;
}

TEST(PointQuery, PolytopesAgainstBruteForceFaces) {
  ref::Rng rng(182);
  int inside = 0, outside = 0;
  for (int i = 0; i < 200; ++i) {
    std::vector<Vec3> pts(static_cast<std::size_t>(rng.integer(4, 14)));
    for (Vec3& p : pts) p = rng.inBall(2.0);
    Shape s = Shape::polytope(pts);
    s.pose.position = rng.inCube(2);
    s.pose.rotation = rng.rotation();
    std::vector<Vec3> world;
    for (const Vec3& p : pts) world.push_back(s.pose.apply(p));
    const std::vector<Face> faces = bruteFaces(world);
    ASSERT_GE(faces.size(), 4u);
    Vec3 centroid;
    for (const Vec3& w : world) centroid = centroid + w / static_cast<double>(world.size());
    const Vec3 p = i % 2 == 0 ? centroid + rng.inBall(0.3) : s.pose.position + rng.inBall(2.5);
    bool in = true;
    double planeGap = 1e300;
    for (const Face& f : faces) {
      const double g = f.d - dot(f.n, p);
      if (g < 0) in = false;
      planeGap = std::min(planeGap, g);
    }
    const ProjectResult r = projectPoint(s, p);
    ASSERT_EQ(r.inside, in);
    EXPECT_EQ(containsPoint(s, p).inside, in);
    if (in) {
      ++inside;
      EXPECT_NEAR(r.distance, planeGap, kTol * 4);
    } else {
      ++outside;
      double best = 1e300;
      for (const Face& f : faces) best = std::min(best, length(nearestOnTriangle(p, f) - p));
      EXPECT_NEAR(r.distance, best, kTol * 4);
    }
    EXPECT_NEAR(length(r.point - p), r.distance, kTol * 4);
  }
  EXPECT_GT(inside, 30);
  EXPECT_GT(outside, 30);
}

// h_C(u) for the full shape (core plus radius), u unit.
double supportValue(const Shape& s, const Vec3& u) { return dot(u, fullSupport(s, u)); }

TEST(PointQuery, EveryTypeMeetsTheConvexOptimalityCertificate) {
  ref::Rng rng(183);
  const ShapeType types[] = {ShapeType::Point,     ShapeType::Sphere,  ShapeType::Box,      ShapeType::Capsule,
                             ShapeType::Cylinder,  ShapeType::Cone,    ShapeType::Ellipsoid, ShapeType::Segment,
                             ShapeType::Triangle,  ShapeType::Polytope};
  for (ShapeType t : types) {
    int inside = 0;
    for (int i = 0; i < 80; ++i) {
      Shape s = ref::randomShape(rng, t, 2.0);
      if (i % 3 == 0) s.margin = rng.uniform(0.05, 0.5);
      s.pose.position = rng.inCube(2);
      s.pose.rotation = rng.rotation();
      const Vec3 p = s.pose.position + rng.inBall(2.5);
      const ProjectResult r = projectPoint(s, p);
      const double scale = 5.0;
      EXPECT_NEAR(length(r.point - p), r.distance, kTol * scale) << shapeTypeName(t);
      EXPECT_EQ(containsPoint(s, p).inside, r.inside) << shapeTypeName(t);
      if (!r.inside) {
        ASSERT_GT(r.distance, 0) << shapeTypeName(t);
        const Vec3 u = (p - r.point) / r.distance;
        EXPECT_NEAR(supportValue(s, u), dot(u, r.point), kTol * scale) << shapeTypeName(t);
        const DistanceResult g = gjkDistance(PosedShape(s), PosedShape(pointShape(p)));
        EXPECT_NEAR(g.distance, r.distance, kTol * scale) << shapeTypeName(t);
        continue;
      }
      ++inside;
      if (r.distance == 0) continue;  // on the boundary, or a flat shape
      const Vec3 u = (r.point - p) / r.distance;
      EXPECT_NEAR(supportValue(s, u), dot(u, r.point), kTol * scale) << shapeTypeName(t);
      for (int k = 0; k < 64; ++k) {
        const Vec3 w = rng.direction();
        EXPECT_GE(supportValue(s, w) - dot(w, p), r.distance - kTol * scale) << shapeTypeName(t);
      }
    }
    if (t != ShapeType::Point && t != ShapeType::Segment && t != ShapeType::Triangle) {
      EXPECT_GT(inside, 0) << shapeTypeName(t);
    }
  }
}

// ---- the feature a projected point lies on -----------------------------------
//
// Reference: the faces, edges and vertices of the hull of the input points
// by brute force (every plane through three points with all points on one
// side; a face's edges are the pairs of its points with all its points on
// one side of their line), the closest point by elementary geometry over
// those faces, then the rule of point_query.h: a vertex within the
// tolerance, else an edge, else the face (all its points).

struct RefFace {
  Vec3 n;
  double d;
  std::vector<int> members;  // ascending
};

struct RefHull {
  std::vector<RefFace> faces;
  std::vector<std::pair<int, int>> edges;
  std::vector<int> vertices;
};

RefHull refHull(const std::vector<Vec3>& p, double eps) {
  RefHull h;
  const int n = static_cast<int>(p.size());
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      for (int k = j + 1; k < n; ++k) {
        Vec3 nn = cross(p[j] - p[i], p[k] - p[i]);
        if (length(nn) < 1e-6) continue;
        nn = nn / length(nn);
        double d = dot(nn, p[i]);
        int above = 0, below = 0;
        for (const Vec3& q : p) above += dot(nn, q) - d > eps, below += dot(nn, q) - d < -eps;
        if (above > 0 && below > 0) continue;
        if (above > 0) nn = nn * -1.0, d = -d;
        RefFace f{nn, d, {}};
        for (int m = 0; m < n; ++m)
          if (std::fabs(dot(nn, p[m]) - d) <= eps) f.members.push_back(m);
        bool seen = false;
        for (const RefFace& g : h.faces) seen = seen || g.members == f.members;
        if (!seen) h.faces.push_back(f);
      }
  for (const RefFace& f : h.faces)
    for (int a : f.members)
      for (int b : f.members) {
        if (a >= b) continue;
        int left = 0, right = 0;
        for (int c : f.members) {
          const double side = dot(cross(p[b] - p[a], p[c] - p[a]), f.n);
          left += side > eps, right += side < -eps;
        }
        if (left > 0 && right > 0) continue;
        if (std::find(h.edges.begin(), h.edges.end(), std::make_pair(a, b)) == h.edges.end()) h.edges.push_back({a, b});
      }
  for (const auto& e : h.edges)
    for (int v : {e.first, e.second})
      if (std::find(h.vertices.begin(), h.vertices.end(), v) == h.vertices.end()) h.vertices.push_back(v);
  return h;
}

Vec3 onSegment(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 e = b - a;
  return a + e * std::clamp(dot(p - a, e) / dot(e, e), 0.0, 1.0);
}

// The nearest point of the hull's surface to p: the nearest face plane's
// foot from inside; from outside the nearest of the feet inside their face
// and the points of every edge.
Vec3 refClosest(const RefHull& h, const std::vector<Vec3>& pts, const Vec3& p) {
  bool in = true;
  const RefFace* nearest = &h.faces[0];
  for (const RefFace& f : h.faces) {
    if (dot(f.n, p) > f.d) in = false;
    if (f.d - dot(f.n, p) < nearest->d - dot(nearest->n, p)) nearest = &f;
  }
  if (in) return p - nearest->n * (dot(nearest->n, p) - nearest->d);
  Vec3 best = pts[static_cast<std::size_t>(h.vertices[0])];
  const auto consider = [&](const Vec3& x) {
    if (length(x - p) < length(best - p)) best = x;
  };
  for (const auto& e : h.edges) consider(onSegment(p, pts[static_cast<std::size_t>(e.first)], pts[static_cast<std::size_t>(e.second)]));
  for (const RefFace& f : h.faces) {
    const Vec3 x = p - f.n * (dot(f.n, p) - f.d);
    bool inside = true;  // x within the face: on the inner side of each of its edges' lines
    for (const auto& e : h.edges) {
      const Vec3 a = pts[static_cast<std::size_t>(e.first)], b = pts[static_cast<std::size_t>(e.second)];
      if (!std::binary_search(f.members.begin(), f.members.end(), e.first) ||
          !std::binary_search(f.members.begin(), f.members.end(), e.second))
        continue;
      Vec3 inner;  // a face point off the edge's line
      for (int m : f.members)
        if (length(cross(b - a, pts[static_cast<std::size_t>(m)] - a)) > 1e-9) inner = pts[static_cast<std::size_t>(m)];
      if (dot(cross(b - a, x - a), f.n) * dot(cross(b - a, inner - a), f.n) < 0) inside = false;
    }
    if (inside) consider(x);
  }
  return best;
}

PointFeature refFeature(const RefHull& h, const std::vector<Vec3>& pts, const Vec3& x, double tol) {
  int v = -1;
  for (int i : h.vertices)
    if (length(pts[static_cast<std::size_t>(i)] - x) <= tol &&
        (v < 0 || length(pts[static_cast<std::size_t>(i)] - x) < length(pts[static_cast<std::size_t>(v)] - x)))
      v = i;
  if (v >= 0) return {FeatureKind::Vertex, {v}};
  double best = tol;
  std::pair<int, int> edge{-1, -1};
  for (const auto& e : h.edges) {
    const double d = length(onSegment(x, pts[static_cast<std::size_t>(e.first)], pts[static_cast<std::size_t>(e.second)]) - x);
    if (d <= best) best = d, edge = e;
  }
  if (edge.first >= 0) return {FeatureKind::Edge, {edge.first, edge.second}};
  const RefFace* f = &h.faces[0];
  for (const RefFace& g : h.faces)
    if (std::fabs(dot(g.n, x) - g.d) < std::fabs(dot(f->n, x) - f->d)) f = &g;
  return {FeatureKind::Face, f->members};
}

std::string describe(const PointFeature& f) {
  std::string out = featureKindName(f.kind);
  for (int v : f.vertices) out += " " + std::to_string(v);
  return out;
}

// Random hulls and boxes, far from the origin too; query points inside,
// outside, and placed exactly on vertices, on edges and on faces.
TEST(PointFeature, PolytopesAndBoxesAgainstBruteForce) {
  ref::Rng rng(1818);
  int counts[3] = {0, 0, 0};
  for (int i = 0; i < 240; ++i) {
    const bool box = i % 3 == 0;
    Shape s;
    if (box) {
      s = Shape::box({rng.uniform(0.2, 2), rng.uniform(0.2, 2), rng.uniform(0.2, 2)});
    } else {
      std::vector<Vec3> pts(static_cast<std::size_t>(rng.integer(4, 12)));
      for (Vec3& p : pts) p = rng.inBall(2.0);
      s = Shape::polytope(pts);
    }
    s.pose.position = i % 4 == 1 ? rng.inCube(1e4) : rng.inCube(2);
    s.pose.rotation = rng.rotation();
    const std::vector<Vec3> local = localCoreVertices(s);
    std::vector<Vec3> world;
    for (const Vec3& p : local) world.push_back(s.pose.apply(p));
    const RefHull h = refHull(local, 1e-12);
    ASSERT_GE(h.faces.size(), 4u);
    const double tol = kFeatureTolerance * localBoundingRadius(s);
    for (int k = 0; k < 6; ++k) {
      Vec3 q;  // local
      const RefFace& f = h.faces[static_cast<std::size_t>(rng.integer(0, static_cast<int>(h.faces.size()) - 1))];
      const Vec3 a = local[static_cast<std::size_t>(f.members[0])], b = local[static_cast<std::size_t>(f.members[1])],
                 c = local[static_cast<std::size_t>(f.members[2])];
      switch (k) {
        case 0: q = rng.inBall(0.3); break;
        case 1: q = rng.inBall(4.0); break;
        case 2: q = local[static_cast<std::size_t>(h.vertices[static_cast<std::size_t>(rng.integer(0, static_cast<int>(h.vertices.size()) - 1))])]; break;
        case 3: {
          const auto& e = h.edges[static_cast<std::size_t>(rng.integer(0, static_cast<int>(h.edges.size()) - 1))];
          const double t = rng.uniform(0.1, 0.9);
          q = local[static_cast<std::size_t>(e.first)] * (1 - t) + local[static_cast<std::size_t>(e.second)] * t;
          break;
        }
        case 4: q = a * 0.4 + b * 0.35 + c * 0.25; break;                  // on a face
        default: q = (a * 0.4 + b * 0.35 + c * 0.25) + f.n * 0.5; break;  // above a face
      }
      const Vec3 x = refClosest(h, local, q);
      const PointFeature want = refFeature(h, local, x, tol);
      const ProjectResult r = projectPoint(s, s.pose.apply(q));
      EXPECT_NEAR(length(r.point - s.pose.apply(x)), 0, 1e-9 * (1 + length(s.pose.position))) << i << "/" << k;
      EXPECT_EQ(describe(r.feature), describe(want)) << (box ? "box " : "polytope ") << i << "/" << k;
      ++counts[static_cast<int>(want.kind)];
    }
  }
  EXPECT_GT(counts[0], 150);
  EXPECT_GT(counts[1], 150);
  EXPECT_GT(counts[2], 300);
}

TEST(PointFeature, BoxCornersEdgesAndFacesByIndex) {
  Shape box = Shape::box({1, 2, 3});
  box.pose.position = {5, -1, 2};
  const auto feature = [&](const Vec3& local) { return describe(projectPoint(box, box.pose.apply(local)).feature); };
  EXPECT_EQ(feature({2, 3, 4}), "vertex 7");        // beyond the (+, +, +) corner
  EXPECT_EQ(feature({-2, -3, 4}), "vertex 4");      // (−, −, +): 4
  EXPECT_EQ(feature({2, 0, 4}), "edge 5 7");        // the x>0, z>0 edge
  EXPECT_EQ(feature({0, 2.5, 0}), "face 2 3 6 7");  // the y>0 face
  EXPECT_EQ(feature({0.2, 0.1, 2.9}), "face 4 5 6 7");  // inside: the nearest face, z>0
  // A rounded box names the core's feature the point rounds from.
  box.margin = 0.5;
  EXPECT_EQ(feature({1.2, 2.2, 3.2}), "vertex 7");
  EXPECT_EQ(feature({1.3, 0, 3.3}), "edge 5 7");
  // A mirrored box: its corners by the signs in the shape's frame after scale.
  Shape mirrored = Shape::box({1, 2, 3}).withScale({-1, 1, 1});
  bakeScale(&mirrored);
  EXPECT_EQ(describe(projectPoint(mirrored, {2, 3, 4}).feature), "vertex 7");
}

// Smooth shapes by their analytic parts: caps against sides of capsules,
// rims of cylinders and cones, the apex; scaled and rounded too.
TEST(PointFeature, RoundShapesNameTheirParts) {
  const auto feature = [](const Shape& s, const Vec3& local) { return describe(projectPoint(s, s.pose.apply(local)).feature); };
  Shape capsule = Shape::capsule(0.5, 1);
  capsule.pose.position = {100, 0, -3};
  capsule.pose.rotation = ref::Rng(1819).rotation();
  EXPECT_EQ(feature(capsule, {0, 1.4, 0.2}), "cap 1");   // above the top end
  EXPECT_EQ(feature(capsule, {0.3, -1.2, 0}), "cap 0");  // inside, below the bottom end
  EXPECT_EQ(feature(capsule, {2, 0.9, 0}), "side 0 1");
  EXPECT_EQ(feature(capsule, {0.1, 0.5, 0}), "side 0 1");  // inside, nearest the side
  Shape stretched = Shape::capsule(0.5, 1).withScale({2, 1, 1});
  EXPECT_EQ(feature(stretched, {3, 0.2, 0}), "side 0 1");
  EXPECT_EQ(feature(stretched, {0, 3, 0}), "cap 1");

  const Shape cylinder = Shape::cylinder(1, 2);
  EXPECT_EQ(feature(cylinder, {2, 3, 0}), "rim 1");
  EXPECT_EQ(feature(cylinder, {0, -3, 1}), "rim 0");
  EXPECT_EQ(feature(cylinder, {0.3, -3, 0.2}), "cap 0");
  EXPECT_EQ(feature(cylinder, {0.1, 1.9, 0}), "cap 1");  // inside, nearer the cap than the side
  EXPECT_EQ(feature(cylinder, {0.95, 0, 0}), "side 0 1");
  EXPECT_EQ(feature(cylinder, {1, 2, 0}), "rim 1");      // on the rim itself
  EXPECT_EQ(feature(Shape::cylinder(1, 2).withScale({1, 1, 3}), {0, 0, 5}), "side 0 1");
  EXPECT_EQ(feature(Shape::cylinder(1, 2).withMargin(0.25), {0.5, 2.5, 0}), "cap 1");

  // Cone r = 1, h = 2: apex (0, 2), rim (1, −2); the side's outward normal is (4, 1)/√17.
  const Shape cone = Shape::cone(1, 2);
  EXPECT_EQ(feature(cone, {0, 3, 0}), "apex 1");
  EXPECT_EQ(feature(cone, {0.2, -3, 0.1}), "base 0");
  EXPECT_EQ(feature(cone, {2, -3, 0}), "rim 0");
  EXPECT_EQ(feature(cone, Vec3{0.5, 0, 0} + Vec3{4, 1, 0} * (0.3 / std::sqrt(17.0))), "side 0 1");
  EXPECT_EQ(feature(cone, {0.1, -1.9, 0}), "base 0");  // inside, nearest the base

  EXPECT_EQ(feature(Shape::sphere(2), {3, 1, 0}), "surface");
  EXPECT_EQ(feature(Shape::ellipsoid({1, 2, 3}), {0, 0, 0.5}), "surface");
  EXPECT_EQ(feature(Shape::plane({0, 1, 0}, 0), {3, 1, 0}), "face");
  EXPECT_EQ(feature(Shape::segment({0, 0, 0}, {2, 0, 0}), {1, 1, 0}), "edge 0 1");
  EXPECT_EQ(feature(Shape::segment({0, 0, 0}, {2, 0, 0}), {3, 1, 0}), "vertex 1");
  EXPECT_EQ(feature(Shape::triangle({0, 0, 0}, {2, 0, 0}, {0, 2, 0}), {0.5, 0.5, 1}), "face 0 1 2");
  EXPECT_EQ(feature(Shape::triangle({0, 0, 0}, {2, 0, 0}, {0, 2, 0}), {1, -1, 0}), "edge 0 1");
  EXPECT_EQ(feature(Shape::point(), {1, 1, 1}), "vertex 0");
}

// A compound names its answering child and that child's feature, indices
// into the child's own points (scene route; the object API equals it:
// tests/js/compound.test.ts).
TEST(PointFeature, CompoundNamesTheChildAndItsFeature) {
  Scene scene;
  SceneError err;
  std::string json;
  ASSERT_TRUE(parseScene(R"({"version": 1, "query": "project", "point": [-1.5, 2, 2], "shapes": [{"type": "compound",
      "children": [{"type": "box", "halfExtents": [1, 1, 1], "position": [-3, 0, 0]},
                   {"type": "sphere", "radius": 1, "position": [3, 0, 0]}]}]})",
                         &scene, &err))
      << err.message;
  ASSERT_TRUE(runScene(scene, false, &json, &err)) << err.message;
  // The box child's (+, +, +) corner, 1.5 away; the sphere is 4.3 away.
  EXPECT_NE(json.find(R"("distance":1.5,"inside":false)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("feature":{"kind":"vertex","vertices":[7]},"child":0)"), std::string::npos) << json;
}

// ---- the scene format ------------------------------------------------------

std::string runText(const std::string& text, SceneError* err) {
  Scene scene;
  std::string json;
  if (!parseScene(text, &scene, err)) return "";
  if (!runScene(scene, false, &json, err)) return "";
  return json;
}

TEST(PointQueryScene, ContainsAndProjectAnswerInTheFormat) {
  SceneError err;
  const std::string box = R"({"type": "box", "halfExtents": [1, 2, 3], "position": [10, 0, 0]})";
  EXPECT_EQ(runText(R"({"version": 1, "shapes": [)" + box + R"(], "query": "contains", "point": [10.5, 1, -2]})", &err),
            R"({"inside":true,"iterations":0,"status":"converged"})")
      << err.message;
  EXPECT_EQ(runText(R"({"version": 1, "shapes": [)" + box + R"(], "query": "contains", "point": [12, 0, 0]})", &err),
            R"({"inside":false,"iterations":0,"status":"converged"})");
  // Outside along +x: the face x = 11, 1 away; inside: the nearest face (y = 2, 0.5 away).
  EXPECT_EQ(runText(R"({"version": 1, "shapes": [)" + box + R"(], "query": "project", "point": [12, 0, 0]})", &err),
            R"({"point":[11,0,0],"distance":1,"inside":false,"iterations":0,"status":"converged",)"
            R"("feature":{"kind":"face","vertices":[1,3,5,7]}})");
  EXPECT_EQ(runText(R"({"version": 1, "shapes": [)" + box + R"(], "query": "project", "point": [10, 1.5, 0]})", &err),
            R"({"point":[10,2,0],"distance":0.5,"inside":true,"iterations":0,"status":"converged",)"
            R"("feature":{"kind":"face","vertices":[2,3,6,7]}})");
  // A second shape is allowed and ignored, as for raycast.
  EXPECT_NE(runText(R"({"version": 1, "shapes": [)" + box + "," + box +
                        R"(], "query": "contains", "point": [0, 0, 0]})",
                    &err),
            "");
}

TEST(PointQueryScene, RoundTripKeepsThePoint) {
  Scene scene;
  SceneError err;
  ASSERT_TRUE(parseScene(R"({"version": 1, "shapes": [{"type": "sphere", "radius": 1}], "query": "project",
                            "point": [0.25, -3, 1e-3]})",
                         &scene, &err))
      << err.message;
  Scene again;
  ASSERT_TRUE(parseScene(sceneToJson(scene), &again, &err)) << err.message;
  EXPECT_EQ(again.query, QueryKind::Project);
  EXPECT_TRUE(again.hasPoint);
  EXPECT_EQ(again.point.x, 0.25);
  EXPECT_EQ(again.point.y, -3);
  EXPECT_EQ(again.point.z, 1e-3);
}

void expectSceneError(const std::string& text, const std::string& code, const std::string& field,
                      const std::string& inMessage) {
  SceneError err;
  EXPECT_EQ(runText(text, &err), "") << text;
  EXPECT_EQ(err.code, code) << text;
  EXPECT_EQ(err.field, field) << text << ": " << err.message;
  EXPECT_NE(err.message.find(inMessage), std::string::npos) << err.message;
}

TEST(PointQueryScene, BadInputNamesTheField) {
  const std::string s = R"({"version": 1, "shapes": [{"type": "sphere", "radius": 1}], )";
  expectSceneError(s + R"("query": "contains"})", "invalid-scene", "point", "is missing");
  expectSceneError(s + R"("query": "project", "point": [1, 2]})", "invalid-scene", "point", "must have 3 numbers");
  expectSceneError(s + R"("query": "project", "point": [1, "NaN", 2]})", "invalid-scene", "point[1]", "");
  expectSceneError(s + R"("query": "project", "point": [1, 1e16, 2]})", "invalid-scene", "point[1]", "1e15");
  expectSceneError(s + R"("query": "project", "point": {"x": 1}})", "invalid-scene", "point", "must be an array");
  expectSceneError(R"({"version": 1, "shapes": [{"type": "sphere", "radius": 1}, {"type": "point"}], "query": "distance",
                      "point": [0, 0, 0]})",
                   "invalid-scene", "point", "only used by");
  expectSceneError(R"({"version": 1, "shapes": [], "query": "contains", "point": [0, 0, 0]})", "invalid-scene",
                   "shapes", "needs 1 shape");
  expectSceneError(R"({"version": 1, "dimension": 2, "shapes": [{"type": "circle", "radius": 1}], "query": "contains",
                      "point": [0, 0]})",
                   "unsupported-query", "query", "not available for 2D scenes");
}

TEST(PointQueryScene, TraceIsRefusedWithAClearMessage) {
  Scene scene;
  SceneError err;
  ASSERT_TRUE(parseScene(R"({"version": 1, "shapes": [{"type": "sphere", "radius": 1}], "query": "contains",
                            "point": [0, 0, 0]})",
                         &scene, &err));
  std::string json;
  EXPECT_FALSE(runScene(scene, true, &json, &err));
  EXPECT_EQ(err.code, "unsupported-query");
  EXPECT_NE(err.message.find("has no trace"), std::string::npos);
}

// ---- the object API ---------------------------------------------------------

TEST(PointQueryApi, SingleAndBatchAgreeWithTheFunctions) {
  ref::Rng rng(184);
  api::Registry reg;
  SceneError err;
  const ShapeType types[] = {ShapeType::Sphere, ShapeType::Box, ShapeType::Capsule, ShapeType::Cylinder,
                             ShapeType::Cone,   ShapeType::Ellipsoid, ShapeType::Polytope};
  std::vector<int> handles;
  std::vector<Shape> shapes;
  for (ShapeType t : types) {
    Shape s = ref::randomShape(rng, t, 2.0);
    shapes.push_back(s);
    handles.push_back(reg.add(s, &err));
    ASSERT_GT(handles.back(), 0) << err.message;
  }
  const int n = static_cast<int>(handles.size());
  std::vector<double> poses(static_cast<std::size_t>(api::kPoseSize * n));
  for (int i = 0; i < n; ++i) {
    const Vec3 p = rng.inCube(2);
    const Quat q = rng.rotation();
    const double v[7] = {p.x, p.y, p.z, q.x, q.y, q.z, q.w};
    std::copy(v, v + 7, poses.begin() + api::kPoseSize * i);
    shapes[static_cast<std::size_t>(i)].pose = {p, q};
  }
  const int queries = 200;
  std::vector<std::uint32_t> pairs(queries);
  std::vector<double> extras(static_cast<std::size_t>(api::kExtraSize * queries), 0.0);
  for (int q = 0; q < queries; ++q) {
    pairs[static_cast<std::size_t>(q)] = static_cast<std::uint32_t>(q % n);
    const Vec3 p = shapes[static_cast<std::size_t>(q % n)].pose.position + rng.inBall(3);
    extras[static_cast<std::size_t>(api::kExtraSize * q)] = p.x;
    extras[static_cast<std::size_t>(api::kExtraSize * q + 1)] = p.y;
    extras[static_cast<std::size_t>(api::kExtraSize * q + 2)] = p.z;
  }
  for (api::Kind kind : {api::Kind::Contains, api::Kind::Project}) {
    const int stride = api::kResultStride[static_cast<int>(kind)];
    std::vector<double> out(static_cast<std::size_t>(stride * queries));
    ASSERT_TRUE(reg.batch(kind, handles.data(), n, poses.data(), pairs.data(), queries, extras.data(), nullptr,
                          out.data(), &err))
        << err.field << ": " << err.message;
    for (int q = 0; q < queries; ++q) {
      const Shape& s = shapes[static_cast<std::size_t>(q % n)];
      const double* e = &extras[static_cast<std::size_t>(api::kExtraSize * q)];
      const Vec3 p{e[0], e[1], e[2]};
      double in[api::kInputSize] = {};
      std::copy(poses.begin() + api::kPoseSize * (q % n), poses.begin() + api::kPoseSize * (q % n + 1), in);
      std::copy(e, e + 3, in + 2 * api::kPoseSize);
      std::vector<double> one(static_cast<std::size_t>(stride));
      ASSERT_TRUE(reg.query(kind, handles[static_cast<std::size_t>(q % n)], 0, in, nullptr, one.data(), &err))
          << err.field << ": " << err.message;
      const double* b = &out[static_cast<std::size_t>(stride * q)];
      for (int k = 0; k < stride; ++k) EXPECT_EQ(b[k], one[static_cast<std::size_t>(k)]) << q;
      if (kind == api::Kind::Contains) {
        EXPECT_EQ(b[api::offsetOf(static_cast<int>(kind), "inside")] != 0, containsPoint(s, p).inside);
      } else {
        const ProjectResult r = projectPoint(s, p);
        const int k = static_cast<int>(kind);
        EXPECT_EQ(b[api::offsetOf(k, "point")], r.point.x);
        EXPECT_EQ(b[api::offsetOf(k, "point") + 2], r.point.z);
        EXPECT_EQ(b[api::offsetOf(k, "distance")], r.distance);
        EXPECT_EQ(b[api::offsetOf(k, "inside")] != 0, r.inside);
      }
    }
  }
}

TEST(PointQueryApi, BadPointsNameTheField) {
  api::Registry reg;
  SceneError err;
  const int h = reg.add(Shape::sphere(1), &err);
  double in[api::kInputSize] = {0, 0, 0, 0, 0, 0, 1};
  in[2 * api::kPoseSize + 1] = std::nan("");
  double out[api::kMaxResultStride];
  EXPECT_FALSE(reg.query(api::Kind::Project, h, 0, in, nullptr, out, &err));
  EXPECT_EQ(err.code, "invalid-argument");
  EXPECT_EQ(err.field, "point[1]");
  in[2 * api::kPoseSize + 1] = 2e15;
  EXPECT_FALSE(reg.query(api::Kind::Contains, h, 0, in, nullptr, out, &err));
  EXPECT_EQ(err.field, "point[1]");
  in[2 * api::kPoseSize + 1] = 0;
  std::string json;
  ASSERT_TRUE(reg.scene(api::Kind::Project, h, 0, in, &json, &err)) << err.message;
  EXPECT_NE(json.find("\"query\":\"project\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"point\":[0,0,0]"), std::string::npos) << json;
  const std::uint32_t pair = 0;
  double extra[api::kExtraSize] = {0, std::numeric_limits<double>::infinity(), 0};
  const double pose[7] = {0, 0, 0, 0, 0, 0, 1};
  EXPECT_FALSE(reg.batch(api::Kind::Contains, &h, 1, pose, &pair, 1, extra, nullptr, out, &err));
  EXPECT_EQ(err.field, "points[0][1]");
}

}  // namespace
}  // namespace collidoscope
