// The EPA trace records the algorithm that ships: an EpaRecorder run gives
// the same result bits as a NoTrace run, and its frames are consistent:
// order seed → (closest → support → expand)* → support → done; face normals
// unit and outward with distance = normal·(any of its vertices); every face
// has the origin behind it; support points are extreme on the cores (checked
// with reference.h's closed forms); w = a − b; gap = n·w − d; the last
// frame's depth is the result's core depth. Apart cores: one 'done' frame.
#include <gtest/gtest.h>

#include <cstring>

#include "epa_reference.h"

namespace {

using collidoscope::EpaEvent;
using collidoscope::EpaFrame;
using collidoscope::EpaRecorder;
using collidoscope::EpaSettings;
using collidoscope::EpaStatus;
using collidoscope::GjkSettings;
using collidoscope::NoTrace;
using collidoscope::PenetrationResult;
using collidoscope::PosedShape;
using collidoscope::Shape;
using collidoscope::ShapeType;
using collidoscope::Vec3;
using ref::Rng;

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool sameBits(const Vec3& a, const Vec3& b) { return sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z); }

double coreSupportValue(const Shape& s, const Vec3& u) {
  return ref::localCoreSupportValue(s, ref::dirToLocal(s, u)) + ref::dot3(u, s.pose.position);
}

TEST(EpaTrace, RecorderGivesNoTraceBitsAndConsistentFrames) {
  Rng rng(4242);
  int withEpa = 0, apart = 0;
  for (int i = 0; i < 400; ++i) {
    Shape a = ref::randomShape(rng, ref::kAllTypes[rng.integer(0, 9)], rng.uniform(0.3, 2));
    Shape b = ref::randomShape(rng, ref::kAllTypes[rng.integer(0, 9)], rng.uniform(0.3, 2));
    if (rng.integer(0, 4) == 0) a.withMargin(rng.uniform(0, 0.3));
    a.at(rng.inCube(1), rng.rotation());
    b.at(a.pose.position + rng.direction() * rng.uniform(0, ref::boundingRadius(a) + ref::boundingRadius(b)),
         rng.rotation());
    const double scale = ref::sceneScale(a, b);
    const PosedShape pa(a), pb(b);
    const PenetrationResult plain = collidoscope::penetration(pa, pb);
    EpaRecorder rec;
    const PenetrationResult traced = collidoscope::penetration(pa, pb, GjkSettings{}, EpaSettings{}, rec);
    const std::string rp = epacheck::repro(a, b, plain);
    ASSERT_TRUE(sameBits(plain.depth, traced.depth) && sameBits(plain.normal, traced.normal) &&
                sameBits(plain.pointA, traced.pointA) && sameBits(plain.pointB, traced.pointB) &&
                plain.iterations == traced.iterations && plain.status == traced.status &&
                plain.intersecting == traced.intersecting)
        << "trace changed the result" << rp;
    ASSERT_FALSE(rec.frames.empty()) << rp;
    EXPECT_EQ(rec.frames.back().event, EpaEvent::Done) << rp;
    if (plain.iterations == 0) {
      ++apart;
      EXPECT_EQ(rec.frames.size(), 1u) << "GJK alone decided: just 'done'" << rp;
      continue;
    }
    ++withEpa;
    ASSERT_EQ(rec.frames.front().event, EpaEvent::Seed) << rp;
    // Order: seed, then per iteration closest → support → (expand | done).
    std::size_t k = 1;
    int iterations = 0;
    while (k < rec.frames.size() && rec.frames[k].event == EpaEvent::Closest) {
      ++iterations;
      ASSERT_LT(k + 1, rec.frames.size()) << rp;
      EXPECT_EQ(rec.frames[k + 1].event, EpaEvent::Support) << rp;
      EXPECT_EQ(rec.frames[k].iteration, iterations) << rp;
      if (k + 2 < rec.frames.size() && rec.frames[k + 2].event == EpaEvent::Expand) {
        k += 3;
      } else {
        k += 2;
        break;
      }
    }
    EXPECT_EQ(iterations, plain.iterations) << rp;
    EXPECT_EQ(k + 1, rec.frames.size()) << "frames after the last support must be just 'done'" << rp;

    const double tiny = 1e-12 * scale;
    for (const EpaFrame& f : rec.frames) {
      for (const auto& v : f.vertices) EXPECT_TRUE(sameBits(v.w, v.a - v.b)) << rp;
      for (const auto& face : f.faces) {
        EXPECT_NEAR(ref::norm(face.normal), 1.0, 1e-12) << rp;
        for (int j = 0; j < 3; ++j) {
          ASSERT_LT(face.v[j], static_cast<int>(f.vertices.size())) << rp;
          EXPECT_NEAR(ref::dot3(face.normal, f.vertices[static_cast<std::size_t>(face.v[j])].w), face.distance,
                      1e-9 * scale)
              << "face plane does not hold its vertex" << rp;
        }
        EXPECT_GE(face.distance, -1e-9 * scale) << "origin outside the polytope" << rp;
        // (Convexity: see PolytopeStaysConvex.)
      }
      if (f.hasSupport && f.event == EpaEvent::Support) {
        const Vec3 n = f.normal;
        EXPECT_NEAR(ref::dot3(n, f.support.a), coreSupportValue(a, n), 1e-9 * scale) << "support on A" << rp;
        EXPECT_NEAR(-ref::dot3(n, f.support.b), coreSupportValue(b, n * -1.0), 1e-9 * scale) << "support on B" << rp;
        EXPECT_TRUE(sameBits(f.support.w, f.support.a - f.support.b)) << rp;
        if (f.hasGap) {
          EXPECT_NEAR(f.gap, ref::dot3(n, f.support.w) - f.depth, tiny + 1e-12 * std::fabs(f.depth)) << rp;
        }
      }
    }
    // The result's depth is the last frame's core depth plus the radii.
    if (plain.status != EpaStatus::Touching) {
      EXPECT_NEAR(rec.frames.back().depth + ref::roundRadius(a) + ref::roundRadius(b), plain.depth, tiny) << rp;
    }
  }
  EXPECT_GT(withEpa, 100);
  EXPECT_GT(apart, 20);
}

// EPA's lower bound (nearest face distance ≤ depth) needs P convex: P
// grows by conv(P ∪ {w}), so no vertex may lie above any face's plane by
// more than rounding. Reports the worst violation with a repro.
TEST(EpaTrace, PolytopeStaysConvex) {
  Rng rng(4242);
  double worst = 0;
  std::string worstRepro;
  int frames = 0;
  for (int i = 0; i < 400; ++i) {
    Shape a = ref::randomShape(rng, ref::kAllTypes[rng.integer(0, 9)], rng.uniform(0.3, 2));
    Shape b = ref::randomShape(rng, ref::kAllTypes[rng.integer(0, 9)], rng.uniform(0.3, 2));
    if (rng.integer(0, 4) == 0) a.withMargin(rng.uniform(0, 0.3));
    a.at(rng.inCube(1), rng.rotation());
    b.at(a.pose.position + rng.direction() * rng.uniform(0, ref::boundingRadius(a) + ref::boundingRadius(b)),
         rng.rotation());
    const double scale = ref::sceneScale(a, b);
    EpaRecorder rec;
    const PenetrationResult r =
        collidoscope::penetration(PosedShape(a), PosedShape(b), GjkSettings{}, EpaSettings{}, rec);
    for (std::size_t k = 0; k < rec.frames.size(); ++k) {
      const EpaFrame& f = rec.frames[k];
      ++frames;
      for (const auto& face : f.faces) {
        // A face's plane is only as well defined as its triangle: vertex
        // coordinates carry rounding of u·scale, so the normal of a sliver
        // (nearly coincident or nearly collinear vertices — three close rim
        // points of a cone, say) tilts by about u·scale·L/|e1 × e2| (L its
        // longest edge), which moves the plane at a vertex up to 2·scale
        // away by that much again. Measure the excess beyond that
        // conditioning, in units of the scale. (Seen: a rim sliver with
        // chord 5e-5 and sagitta 3e-10 tilted 3.6e-7 rad, as predicted.)
        const Vec3& p0 = f.vertices[face.v[0]].w;
        const Vec3& p1 = f.vertices[face.v[1]].w;
        const Vec3& p2 = f.vertices[face.v[2]].w;
        const double longest = std::max({ref::dist(p0, p1), ref::dist(p1, p2), ref::dist(p2, p0)});
        const double twiceArea = ref::norm(ref::cross3(p1 - p0, p2 - p0));
        const double planeError = 64 * 1.1102230246251565e-16 * scale * longest / twiceArea * 2 * scale;
        for (const auto& v : f.vertices) {
          const double excess = (ref::dot3(face.normal, v.w) - face.distance - planeError) / scale;
          if (excess > worst) {
            worst = excess;
            worstRepro = epacheck::repro(a, b, r) + "\n  frame " + std::to_string(k) + " iteration " +
                         std::to_string(f.iteration) + " face id " + std::to_string(face.id);
          }
        }
      }
    }
  }
  EXPECT_GT(frames, 1000);
  EXPECT_LE(worst, 1e-9) << "a vertex lies " << worst << "·scale above a face plane" << worstRepro;
}

}  // namespace
