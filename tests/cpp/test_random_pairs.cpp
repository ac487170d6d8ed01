// Property tests on 25 000 random pairs across all ten shape types.
//
// Every ordered pair of types gets 250 pairs with random sizes, normalized
// random quaternions and positions, in four kinds of placement:
//   free        random positions (overlapping or not)
//   separated   B shifted along a random u so the slab between A and B along
//               u has width gap (distance ≥ gap, from our support values)
//   touching    the same with gap ~1e-9..1e-5 of the size
//   overlapping a point of A's core and a point of B's core made to
//               coincide (distance 0, intersecting)
// Properties: finite results, a status that is not max-iterations, d ≥ 0,
// symmetry, |pA − pB| = d, closest points inside their shapes, the support
// test n·pA = h_A(n), −n·pB = h_B(−n), and agreement of gjkIntersect with
// gjkDistance.
//
// Tolerance: 1e-9 of the scene scale (largest coordinate), the library's
// promise; curved cores stop at relative 1e-10 of the distance, inside it.
#include <gtest/gtest.h>

#include <map>

#include "gjk_helpers.h"
#include "reference.h"

namespace {

using namespace testutil;
using collidoscope::ShapeType;
using ref::Rng;

constexpr double kRel = 1e-9;

// A point of the shape's core in world space (from our own geometry): the
// local origin lies in every symmetric core (box, capsule, cylinder, cone's
// axis, ellipsoid), the centroid of the points in a point-set core.
Vec3 interiorPoint(const Shape& s) {
  Vec3 local;
  if (!s.points.empty()) {
    for (const Vec3& p : s.points) local = local + p;
    local = local / static_cast<double>(s.points.size());
  }
  return ref::toWorld(s, local);
}

struct Failures {
  std::map<std::string, int> count;
  std::map<std::string, std::string> first;
  void add(const std::string& what, const std::string& repro) {
    if (count[what]++ == 0) first[what] = repro;
  }
  int total() const {
    int n = 0;
    for (const auto& c : count) n += c.second;
    return n;
  }
  std::string report() const {
    std::string s;
    for (const auto& c : count)
      s += "  " + c.first + ": " + std::to_string(c.second) + " pairs; first: " + first.at(c.first) + "\n";
    return s;
  }
};

enum Placement { kFree, kSeparated, kTouching, kOverlapping };

TEST(RandomPairs, PropertiesAcrossAllShapeTypes) {
  Rng rng(301);
  Failures fail;
  int pairs = 0;
  int uncertified = 0;  // distance runs not converged: rounding stalls GJK could not certify
  for (ShapeType ta : ref::kAllTypes) {
    for (ShapeType tb : ref::kAllTypes) {
      for (int k = 0; k < 250; ++k, ++pairs) {
        const double size = rng.logUniform(0.1, 10);
        Shape a = ref::randomShape(rng, ta, size * rng.uniform(0.3, 1));
        Shape b = ref::randomShape(rng, tb, size * rng.uniform(0.3, 1));
        if (k % 7 == 0) a.withMargin(size * rng.uniform(0, 0.2));
        if (k % 11 == 0) b.withMargin(size * rng.uniform(0, 0.2));
        const Placement placement = static_cast<Placement>(k % 4);
        const Vec3 origin = rng.inCube(3 * size);
        a.at(origin, rng.rotation());
        b.at({0, 0, 0}, rng.rotation());
        double gap = 0;
        switch (placement) {
          case kFree:
            b.at(origin + rng.inCube(3 * size), b.pose.rotation);
            break;
          case kSeparated:
          case kTouching: {
            gap = size * (placement == kSeparated ? rng.logUniform(1e-3, 2) : rng.logUniform(1e-9, 1e-5));
            const Vec3 u = rng.direction();
            const double t = ref::supportValue(a, u) + ref::supportValue(b, u * -1.0) + gap;
            b.at(u * t, b.pose.rotation);
            break;
          }
          case kOverlapping:
            b.at(interiorPoint(a) - (interiorPoint(b) - b.pose.position), b.pose.rotation);
            break;
        }
        const std::string repro = describe(a) + " vs " + describe(b);
        const double scale = ref::sceneScale(a, b);
        const double tol = kRel * scale;

        const DistanceResult ab = distance(a, b);
        const DistanceResult ba = distance(b, a);
        for (const DistanceResult* r : {&ab, &ba})
          if (r->status != GjkStatus::Converged) ++uncertified;
        const IntersectResult ia = intersect(a, b);
        const IntersectResult ib = intersect(b, a);

        if (!resultFinite(ab) || !resultFinite(ba)) {
          fail.add("non-finite result", repro);
          continue;
        }
        if (!statusOk(ab.status) || !statusOk(ba.status) || !statusOk(ia.status) || !statusOk(ib.status))
          fail.add("status max-iterations", repro + " iterations " + std::to_string(ab.iterations));
        if (ab.distance < 0 || ba.distance < 0) fail.add("negative distance", repro);
        if (std::fabs(ab.distance - ba.distance) > tol)
          fail.add("asymmetric distance", repro + " d(A,B)=" + std::to_string(ab.distance) +
                                              " d(B,A)=" + std::to_string(ba.distance));
        const double d = ab.distance;
        if (std::fabs(ref::dist(ab.pointA, ab.pointB) - d) > tol)
          fail.add("|pA - pB| != distance", repro);
        if (!insideShape(ab.pointA, a, tol, rng, 4)) fail.add("pointA outside A", repro);
        if (!insideShape(ab.pointB, b, tol, rng, 4)) fail.add("pointB outside B", repro);
        if (d > 1e-4 * scale) {
          // Support test: along n = (pB − pA)/d, pA is A's extreme point and
          // pB is B's extreme point towards A; g_A + g_B is the gap between
          // d and the separation A and B have along n.
          const Vec3 n = (ab.pointB - ab.pointA) / d;
          const double gA = ref::supportValue(a, n) - ref::dot3(n, ab.pointA);
          const double gB = ref::supportValue(b, n * -1.0) + ref::dot3(n, ab.pointB);
          if (gA > tol || gB > tol)
            fail.add("support test (points not extreme along n)",
                     repro + " gA=" + std::to_string(gA) + " gB=" + std::to_string(gB));
        }
        if (d > tol && (ia.intersecting || ib.intersecting))
          fail.add("intersect true but distance > 1e-9 scale", repro + " d=" + std::to_string(d));
        if (d == 0 && (!ia.intersecting || !ib.intersecting)) fail.add("distance 0 but intersect false", repro);
        if ((placement == kSeparated || placement == kTouching) && d < gap - tol)
          fail.add("distance below the constructed gap", repro + " d=" + std::to_string(d) +
                                                            " gap=" + std::to_string(gap));
        if ((placement == kSeparated || placement == kTouching) && gap > tol && (ia.intersecting || ib.intersecting))
          fail.add("intersecting although separated by construction", repro);
        if (placement == kOverlapping) {
          if (d > tol) fail.add("distance > 0 although sharing a point", repro + " d=" + std::to_string(d));
          if (!ia.intersecting || !ib.intersecting) fail.add("not intersecting although sharing a point", repro);
        }
      }
    }
  }
  std::printf("[random-pairs] distance not converged in %d of %d runs\n", uncertified, 2 * pairs);
  EXPECT_EQ(pairs, 25000);
  EXPECT_EQ(fail.total(), 0) << "failed properties:\n" << fail.report();
}

}  // namespace
