// GJK distance on exactly touching and near-touching pairs (gjk.h, its
// stalls): rims of cylinders and cones on box vertices, edges and faces,
// rims on rims, ellipsoids on faces, edges on edges, points and vertices on
// edges and faces.
//
// The pairs are built touching by construction, with closed forms that do
// not call the library's geometry: A gets a random pose and a local
// direction d_A chosen so that its support point is a rim point (or an
// ellipsoid point, an apex, an edge point ...); n = R_A d_A and p = the
// support point in world space (reference.h's matrix). B gets a local
// direction d_B whose support set is a vertex, an edge or a face (a point
// of it is picked at random), and a rotation taking d_B to −n, then is
// placed so that its support point lies at p + g·n. A lies in n·x ≤ n·p
// and B in n·x ≥ n·p + g, and p, p + g·n are points of each: the distance
// is exactly g for g ≥ 0. For g < 0 a shape with volume contains the other's
// point p + g·n, so the distance is 0 (pairs without volume only get g ≥ 0).
// Only the rounding of the construction (a few u of the scale) separates
// the doubles from that; each pair's slab width along n is checked against
// g with reference.h's closed-form support values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

#include "collidoscope/epa.h"
#include "gjk_helpers.h"
#include "reference.h"

namespace {

using namespace testutil;
using collidoscope::ShapeType;
using ref::Rng;

// Where B's support set in its local direction lies.
enum class Feature { Vertex, Edge, Face, Generic };

Quat multiply(const Quat& a, const Quat& b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

Quat normalizedQuat(const Quat& q) {
  const double n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  return {q.x / n, q.y / n, q.z / n, q.w / n};
}

// The rotation by the shortest arc from unit a to unit b (half-way
// quaternion: axis a × b, w = 1 + a·b), then normalized.
Quat arc(const Vec3& a, const Vec3& b) {
  const double c = ref::dot3(a, b);
  if (c < -0.999999) {  // opposite: any axis perpendicular to a, angle π
    const Vec3 axis = ref::unit(std::fabs(a.x) < 0.6 ? ref::cross3(a, {1, 0, 0}) : ref::cross3(a, {0, 1, 0}));
    return {axis.x, axis.y, axis.z, 0};
  }
  const Vec3 x = ref::cross3(a, b);
  return normalizedQuat({x.x, x.y, x.z, 1 + c});
}

double sgn(double x, Rng& rng) { return x > 0 ? 1.0 : x < 0 ? -1.0 : rng.uniform(-1, 1); }

// A point of the core's support set in local direction d (closed forms);
// where the set is an edge or a face a random point of it (a zero
// component of d picks a uniform coordinate along that axis).
Vec3 localSupportPoint(const Shape& s, const Vec3& d, Rng& rng) {
  switch (s.type) {
    case ShapeType::Box:
      return {s.halfExtents.x * sgn(d.x, rng), s.halfExtents.y * sgn(d.y, rng), s.halfExtents.z * sgn(d.z, rng)};
    case ShapeType::Cylinder: {
      const double rho = std::hypot(d.x, d.z);
      const double y = s.halfHeight * sgn(d.y, rng);
      if (rho == 0) {  // a cap: a random point of the disc
        const double t = rng.uniform(0, 2 * M_PI), r = s.radius * std::sqrt(rng.uniform(0, 1));
        return {r * std::cos(t), y, r * std::sin(t)};
      }
      return {s.radius * d.x / rho, y, s.radius * d.z / rho};
    }
    case ShapeType::Cone: {
      const double rho = std::hypot(d.x, d.z);
      if (s.halfHeight * d.y >= -s.halfHeight * d.y + s.radius * rho) return {0, s.halfHeight, 0};
      if (rho == 0) {
        const double t = rng.uniform(0, 2 * M_PI), r = s.radius * std::sqrt(rng.uniform(0, 1));
        return {r * std::cos(t), -s.halfHeight, r * std::sin(t)};
      }
      return {s.radius * d.x / rho, -s.halfHeight, s.radius * d.z / rho};
    }
    case ShapeType::Ellipsoid: {
      const Vec3 r2{s.radii.x * s.radii.x, s.radii.y * s.radii.y, s.radii.z * s.radii.z};
      const double h = std::sqrt(r2.x * d.x * d.x + r2.y * d.y * d.y + r2.z * d.z * d.z);
      return {r2.x * d.x / h, r2.y * d.y / h, r2.z * d.z / h};
    }
    case ShapeType::Point:
      return {};
    case ShapeType::Segment:
    case ShapeType::Triangle:
    case ShapeType::Polytope: {
      // The points within rounding of the maximum span the support set (a
      // vertex, an edge, a face): a random convex combination of them.
      double top = -1e300, size = 0;
      for (const Vec3& p : s.points) top = std::max(top, ref::dot3(p, d)), size = std::max(size, ref::maxAbs3(p));
      Vec3 sum;
      double weights = 0;
      for (const Vec3& p : s.points)
        if (ref::dot3(p, d) >= top - 1e-13 * size) {
          const double w = rng.uniform(0.1, 1);
          sum = sum + p * w;
          weights += w;
        }
      return sum / weights;
    }
    default:
      ADD_FAILURE() << "no closed form for " << collidoscope::shapeTypeName(s.type);
      return {};
  }
}

// A local direction of B whose support set is the given feature: a box's
// vertex (all components non-zero), edge (one zero) or face (two zero); a
// cylinder's rim or cap; a cone's rim; anything for the rest.
Vec3 featureDirection(const Shape& s, Feature f, Rng& rng) {
  if (s.type == ShapeType::Box && f != Feature::Generic) {
    Vec3 d = rng.direction();
    const int axis = rng.integer(0, 2);
    double* c[3] = {&d.x, &d.y, &d.z};
    if (f == Feature::Edge) *c[axis] = 0;
    if (f == Feature::Face)
      for (int i = 0; i < 3; ++i)
        if (i != axis) *c[i] = 0;
    return ref::unit(d);
  }
  if (s.type == ShapeType::Segment && f == Feature::Edge) {  // perpendicular to the segment
    const Vec3 e = ref::unit(s.points[1] - s.points[0]);
    const Vec3 r = rng.direction();
    return ref::unit(r - e * ref::dot3(r, e));
  }
  if (s.type == ShapeType::Triangle && f != Feature::Generic) {
    const Vec3 n = ref::unit(ref::cross3(s.points[1] - s.points[0], s.points[2] - s.points[0]));
    if (f == Feature::Face) return rng.integer(0, 1) ? n : n * -1.0;
    // An edge: its outward normal in the plane, tilted out of the plane.
    const int i = rng.integer(0, 2);
    const Vec3 p = s.points[i], q = s.points[(i + 1) % 3], o = s.points[(i + 2) % 3];
    const Vec3 e = ref::unit(q - p);
    Vec3 out = (p - o) - e * ref::dot3(p - o, e);
    out = ref::unit(out);
    return ref::unit(out + n * rng.uniform(-2, 2));
  }
  if ((s.type == ShapeType::Cylinder || s.type == ShapeType::Cone) && f == Feature::Face)
    return {0, -1, 0};  // the (base) cap
  if (s.type == ShapeType::Cone) {
    // The base rim: d_y below −(r/2h)·ρ keeps the apex out (h·d_y < −h·d_y + r·ρ).
    const double t = rng.uniform(0, 2 * M_PI), rho = rng.uniform(0.2, 1);
    const double y = -rng.uniform(0.05, 3);
    return ref::unit({rho * std::cos(t), y, rho * std::sin(t)});
  }
  if (s.type == ShapeType::Cylinder) {  // rim: both a radial and an axial part
    const double t = rng.uniform(0, 2 * M_PI);
    return ref::unit({std::cos(t), rng.uniform(0.05, 3) * (rng.integer(0, 1) ? 1 : -1), std::sin(t)});
  }
  return rng.direction();
}

struct Family {
  const char* name;
  ShapeType a;
  Feature fa;
  ShapeType b;
  Feature fb;
};

const Family kFamilies[] = {
    {"cylinder rim / box vertex", ShapeType::Cylinder, Feature::Generic, ShapeType::Box, Feature::Vertex},
    {"cylinder rim / box edge", ShapeType::Cylinder, Feature::Generic, ShapeType::Box, Feature::Edge},
    {"cylinder rim / box face", ShapeType::Cylinder, Feature::Generic, ShapeType::Box, Feature::Face},
    {"cone rim / box vertex", ShapeType::Cone, Feature::Generic, ShapeType::Box, Feature::Vertex},
    {"cone rim / box edge", ShapeType::Cone, Feature::Generic, ShapeType::Box, Feature::Edge},
    {"cone rim / box face", ShapeType::Cone, Feature::Generic, ShapeType::Box, Feature::Face},
    {"cylinder rim / cylinder rim", ShapeType::Cylinder, Feature::Generic, ShapeType::Cylinder, Feature::Generic},
    {"cone rim / cylinder rim", ShapeType::Cone, Feature::Generic, ShapeType::Cylinder, Feature::Generic},
    {"cone rim / cone rim", ShapeType::Cone, Feature::Generic, ShapeType::Cone, Feature::Generic},
    {"cylinder rim / polytope vertex", ShapeType::Cylinder, Feature::Generic, ShapeType::Polytope, Feature::Generic},
    {"cone rim / cylinder cap", ShapeType::Cone, Feature::Generic, ShapeType::Cylinder, Feature::Face},
    {"ellipsoid / box face", ShapeType::Ellipsoid, Feature::Generic, ShapeType::Box, Feature::Face},
    {"ellipsoid / box edge", ShapeType::Ellipsoid, Feature::Generic, ShapeType::Box, Feature::Edge},
    {"ellipsoid / box vertex", ShapeType::Ellipsoid, Feature::Generic, ShapeType::Box, Feature::Vertex},
    {"ellipsoid / cylinder rim", ShapeType::Ellipsoid, Feature::Generic, ShapeType::Cylinder, Feature::Generic},
    {"ellipsoid / cone cap", ShapeType::Ellipsoid, Feature::Generic, ShapeType::Cone, Feature::Face},
    {"box edge / box edge", ShapeType::Box, Feature::Edge, ShapeType::Box, Feature::Edge},
    {"box vertex / box face", ShapeType::Box, Feature::Vertex, ShapeType::Box, Feature::Face},
    {"segment / box edge", ShapeType::Segment, Feature::Edge, ShapeType::Box, Feature::Edge},
    {"segment / segment", ShapeType::Segment, Feature::Edge, ShapeType::Segment, Feature::Edge},
    {"segment / triangle edge", ShapeType::Segment, Feature::Edge, ShapeType::Triangle, Feature::Edge},
    {"triangle edge / box edge", ShapeType::Triangle, Feature::Edge, ShapeType::Box, Feature::Edge},
    {"triangle face / box vertex", ShapeType::Triangle, Feature::Face, ShapeType::Box, Feature::Vertex},
    {"point / triangle face", ShapeType::Point, Feature::Generic, ShapeType::Triangle, Feature::Face},
    {"point / box edge", ShapeType::Point, Feature::Generic, ShapeType::Box, Feature::Edge},
    {"polytope vertex / box edge", ShapeType::Polytope, Feature::Generic, ShapeType::Box, Feature::Edge},
    {"point / cylinder rim", ShapeType::Point, Feature::Generic, ShapeType::Cylinder, Feature::Generic},
    {"point / cone cap", ShapeType::Point, Feature::Generic, ShapeType::Cone, Feature::Face},
};

Shape randomOf(ShapeType t, double size, Rng& rng) { return ref::randomShape(rng, t, size * rng.uniform(0.3, 1)); }

struct TouchingPair {
  Shape a, b;
  double gap;  // the construction's signed gap along n: distance max(0, gap)
  Vec3 n;      // the common normal, from A towards B
};

// A touching pair of the family, B moved out along n by `gapOfScale` times
// the scene's scale (the scale measured before the move, which changes it
// by far less than the gap's own precision matters).
TouchingPair touchingPair(const Family& f, Rng& rng, double gapOfScale) {
  const double size = rng.logUniform(0.1, 10);
  TouchingPair t{randomOf(f.a, size, rng), randomOf(f.b, size, rng), 0, {}};
  t.a.at(rng.inCube(3 * size), rng.rotation());
  const Vec3 dA = featureDirection(t.a, f.fa, rng);
  const ref::Mat3 ma = ref::matrixOf(t.a.pose.rotation);
  const Vec3 n = ref::unit(ma.mul(dA));
  const Vec3 p = ref::toWorld(t.a, localSupportPoint(t.a, dA, rng));
  // B: a random twist, then the arc taking its d_B (now in world) to −n.
  const Vec3 dB = featureDirection(t.b, f.fb, rng);
  const Quat twist = rng.rotation();
  const Vec3 dBw = ref::unit(ref::matrixOf(twist).mul(dB));
  const Quat qb = normalizedQuat(multiply(arc(dBw, n * -1.0), twist));
  const Vec3 q = ref::matrixOf(qb).mul(localSupportPoint(t.b, dB, rng));
  t.b.at(p - q, qb);
  t.gap = gapOfScale * ref::sceneScale(t.a, t.b);
  t.b.at(p - q + n * t.gap, qb);
  t.n = n;
  return t;
}

struct Tally {
  int runs = 0, degenerate = 0, maxIterations = 0;
  double worst = 0;
  std::string worstRepro;
  void add(const DistanceResult& r, double err, const std::string& repro) {
    ++runs;
    if (r.status == GjkStatus::Degenerate) ++degenerate;
    if (r.status == GjkStatus::MaxIterations) ++maxIterations;
    if (err > worst) {
      worst = err;
      worstRepro = repro;
    }
  }
};

// Whether the shape has volume: moved by ε against the normal, a point of
// its support set lies inside it. Two touching shapes of which one has
// volume overlap when pushed together; a segment pushed across a segment
// (or a triangle's plane across a point) passes it instead.
bool solid(ShapeType t) { return t != ShapeType::Point && t != ShapeType::Segment && t != ShapeType::Triangle; }

// Signed gaps of the k-th pair of a family: a quarter exactly touching, a
// quarter overlapping by 1e-12 … 1e-6 of the scale (pairs with volume;
// the others that far apart), half as far apart.
double gapOfScale(const Family& f, int k, Rng& rng) {
  if (k % 4 == 0) return 0;
  const double g = rng.logUniform(1e-12, 1e-6);
  return k % 4 == 1 && (solid(f.a) || solid(f.b)) ? -g : g;
}

std::string reproOf(const TouchingPair& t, int order) {
  return std::string(order ? "(B, A) " : "(A, B) ") + describe(t.a) + " vs " + describe(t.b) +
         " gap " + std::to_string(t.gap);
}

// Every pair in both orders. A converged answer is within its certified
// bound of the construction's distance: 1e-10 of GJK's own scale S (the
// largest support-point coordinate it saw), plus the rounding of the
// construction itself. What is left degenerate: a curved core overlapping
// a box's vertex or edge by ~1e-9 of the scale, where GJK stalls on a
// triangle (which is not re-solved) a few 1e-10 of the scale from the
// origin; those are counted and bounded.
TEST(GjkTouching, ConstructedPairsConvergeWithinTheCertifiedBound) {
  Rng rng(2020);
  Tally all;
  int beyondBound = 0, curvedOverlapStalls = 0;
  double worstDegenerate = 0;
  std::string firstBeyond;
  for (const Family& f : kFamilies) {
    Tally fam;
    for (int k = 0; k < 400; ++k) {
      const TouchingPair t = touchingPair(f, rng, gapOfScale(f, k, rng));
      const double scale = ref::sceneScale(t.a, t.b);
      // The construction checked on its own: the slab between A and B along
      // n is the gap (closed-form support values).
      const double slab = -ref::supportValue(t.a, t.n) - ref::supportValue(t.b, t.n * -1.0);
      ASSERT_LE(std::fabs(slab - t.gap), 1e-14 * scale) << describe(t.a) << " vs " << describe(t.b);
      const double expected = std::max(0.0, t.gap);
      for (int order = 0; order < 2; ++order) {
        const DistanceResult r = order == 0 ? distance(t.a, t.b) : distance(t.b, t.a);
        ASSERT_TRUE(resultFinite(r)) << reproOf(t, order);
        const double err = std::fabs(r.distance - expected);
        fam.add(r, err / scale, reproOf(t, order));
        all.add(r, err / scale, reproOf(t, order));
        if (r.status == GjkStatus::Converged) {
          if (err > 1e-10 * r.scale + 1e-14 * scale && beyondBound++ == 0)
            firstBeyond = reproOf(t, order) + " d=" + std::to_string(r.distance);
        } else if (r.status == GjkStatus::Degenerate && t.gap < 0 && solid(f.a) && solid(f.b) &&
                   (f.a != ShapeType::Box || f.b != ShapeType::Box)) {
          ++curvedOverlapStalls;
          worstDegenerate = std::max(worstDegenerate, err / scale);
        } else {
          ADD_FAILURE() << f.name << ": status " << collidoscope::gjkStatusName(r.status) << ", " << reproOf(t, order);
        }
      }
    }
    std::printf("[gjk-touching] %-30s %4d runs: degenerate %d, max-iterations %d, worst |d - g|/scale %.2g\n", f.name,
                fam.runs, fam.degenerate, fam.maxIterations, fam.worst);
  }
  std::printf("[gjk-touching] all %d runs: degenerate %d, max-iterations %d, worst |d - g|/scale %.2g\n  worst: %s\n",
              all.runs, all.degenerate, all.maxIterations, all.worst, all.worstRepro.c_str());
  EXPECT_EQ(all.runs, 2 * 400 * static_cast<int>(std::size(kFamilies)));
  std::printf("[gjk-touching] curved cores overlapping by ~1e-9, degenerate: %d runs, worst |d - 0|/scale %.2g\n",
              curvedOverlapStalls, worstDegenerate);
  EXPECT_EQ(beyondBound, 0) << "first: " << firstBeyond;
  EXPECT_LE(curvedOverlapStalls, 8);
  EXPECT_LE(worstDegenerate, 5e-10);
  EXPECT_LE(all.worst, 5e-10);
}

// The trace of the stalls: the frames' lower bound never decreases and
// never exceeds the construction's distance, ‖v‖ never falls below it
// (both to the construction's rounding), a re-solved v is perpendicular to
// its segment, and the recorder's run returns the NoTrace run's bits. The
// point against a box's edge stalls on a segment of A − B almost every
// time: the re-solve and the certificate are both reached.
TEST(GjkTouching, StallsAreCertifiedOrResolvedInTheTrace) {
  Rng rng(2021);
  int refines = 0, certified = 0, runs = 0;
  for (const Family& f : kFamilies) {
    if (std::string(f.name) != "point / box edge" && std::string(f.name) != "polytope vertex / box edge") continue;
    for (int k = 0; k < 200; ++k) {
      const TouchingPair t = touchingPair(f, rng, gapOfScale(f, k, rng));
      const double scale = ref::sceneScale(t.a, t.b);
      const double expected = std::max(0.0, t.gap);
      const std::string repro = reproOf(t, 0);
      collidoscope::GjkRecorder rec;
      const DistanceResult r =
          collidoscope::gjkDistance(PosedShape(t.a), PosedShape(t.b), collidoscope::GjkSettings{}, rec);
      const DistanceResult plain = distance(t.a, t.b);
      ++runs;
      ASSERT_EQ(r.distance, plain.distance) << repro;
      ASSERT_EQ(r.iterations, plain.iterations) << repro;
      ASSERT_EQ(r.status, plain.status) << repro;
      double lower = 0;
      for (const collidoscope::GjkFrame& fr : rec.frames) {
        EXPECT_GE(fr.lowerBound, lower) << repro;
        lower = fr.lowerBound;
        EXPECT_LE(fr.lowerBound, expected + 1e-14 * scale) << repro;
        if (fr.event != collidoscope::GjkEvent::Init)
          EXPECT_GE(std::sqrt(fr.vv), expected - 1e-14 * scale) << repro;
        if (fr.reason == collidoscope::GjkReason::Refine && fr.event == collidoscope::GjkEvent::Simplex) {
          ++refines;
          ASSERT_EQ(fr.simplex.size, 2) << repro;
          const Vec3 e = fr.simplex.vertex[1].w - fr.simplex.vertex[0].w;
          EXPECT_LE(std::fabs(ref::dot3(fr.v, e)), 1e-12 * ref::norm(fr.v) * ref::norm(e)) << repro;
          const double t1 = fr.simplex.lambda[1];
          EXPECT_TRUE(t1 > 0 && t1 < 1) << repro;
          EXPECT_DOUBLE_EQ(fr.simplex.lambda[0] + t1, 1.0) << repro;
        }
        if (fr.reason == collidoscope::GjkReason::BoundsWithinTolerance) {
          if (fr.event == collidoscope::GjkEvent::Done) ++certified;
          // The certificate itself: ‖v‖² − L‖v‖ within the tolerance.
          if (fr.event != collidoscope::GjkEvent::Done)
            EXPECT_LE(fr.vv - fr.lowerBound * std::sqrt(fr.vv), fr.tolerance) << repro;
        }
      }
      EXPECT_EQ(rec.frames.back().event, collidoscope::GjkEvent::Done) << repro;
      EXPECT_EQ(r.status, GjkStatus::Converged) << repro;
      EXPECT_LE(std::fabs(r.distance - expected), 1e-10 * r.scale + 1e-14 * scale) << repro;
    }
  }
  std::printf("[gjk-touching] point or vertex against a box edge: %d runs, %d re-solved v, %d certified by the bounds\n",
              runs, refines, certified);
  // A segment's v is perpendicular to it (simplex.h solveSegment), which
  // took away the stall these pairs used to hit; a stall, where one still
  // happens, is checked frame by frame above.
  EXPECT_LE(refines + certified, runs);
}

}  // namespace
