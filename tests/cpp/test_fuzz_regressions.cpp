// Regression tests for what the fuzzers of tests/fuzz found (issue 8), and
// the recorded known failures they still find (each checked, so a fix shows
// up as a failing "known failure" test to move here).
//
//   * Hulls of clouds far from unit scale. buildHull squares and multiplies
//     coordinates; a triangle at 1e-160 or 1e200 came out as a segment
//     (squared lengths underflowed or overflowed) and a cloud of denormals
//     as a single point. Fixed by building clouds beyond 2^±100 scaled by a
//     power of two (hull.h, kHullMaxExponent).
//   * Unknown keys of any length were echoed whole in the error's field
//     (a 100 KB key gave a 100 KB field, and the JS message "field: ..."
//     with it), and the 64-byte cut of quoted() could split a UTF-8
//     character. Fixed in json.cpp (clipForMessage()).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "collidoscope/epa.h"
#include "collidoscope/raycast.h"
#include "collidoscope/sat.h"
#include "collidoscope/hull.h"
#include "collidoscope/scene.h"
#include "hull_reference.h"

namespace {

using collidoscope::ConvexHull;
using collidoscope::HullError;
using collidoscope::HullKind;
using collidoscope::Quat;
using collidoscope::Scene;
using collidoscope::SceneError;
using collidoscope::Vec3;

// The same clouds at unit scale and at scale s: the same kind and vertices
// (as input indices), vertices bit for bit the input points, and the
// tolerance scaled along (when representable).
void expectScaleInvariant(double s) {
  const std::vector<std::vector<Vec3>> clouds = {
      {{1, 0, 0}, {0, 0, 0}},
      {{1, 0, 0}, {0, 1, 0}, {0, 0, 0}},
      {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}},
      {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}, {1, 1, 1}, {0.25, 0.25, 0.25}},
  };
  const HullKind kinds[] = {HullKind::Segment, HullKind::Polygon, HullKind::Polyhedron, HullKind::Polyhedron};
  for (std::size_t c = 0; c < clouds.size(); ++c) {
    std::vector<Vec3> scaled = clouds[c];
    for (Vec3& p : scaled) p = p * s;
    ConvexHull unit, h;
    HullError err;
    ASSERT_TRUE(collidoscope::buildHull(clouds[c], &unit, &err));
    ASSERT_TRUE(collidoscope::buildHull(scaled, &h, &err)) << err.message;
    EXPECT_EQ(h.kind, kinds[c]) << "cloud " << c << " at scale " << s << ": " << collidoscope::hullKindName(h.kind);
    EXPECT_EQ(h.inputIndex, unit.inputIndex) << "cloud " << c << " at scale " << s;
    EXPECT_EQ(h.triangles, unit.triangles) << "cloud " << c << " at scale " << s;
    EXPECT_EQ(h.faces, unit.faces) << "cloud " << c << " at scale " << s;
    for (std::size_t i = 0; i < h.vertices.size(); ++i)
      EXPECT_TRUE(h.vertices[i] == scaled[static_cast<std::size_t>(h.inputIndex[i])]) << "cloud " << c << " vertex " << i;
    if (unit.tolerance * s >= std::numeric_limits<double>::min()) {
      EXPECT_DOUBLE_EQ(h.tolerance, unit.tolerance * s) << "cloud " << c << " at scale " << s;
    }
    // The reference checks, in the unit-scale coordinates (its own double
    // arithmetic would overflow at 1e200).
    ConvexHull back = h;
    back.vertices.clear();
    for (int i : h.inputIndex) back.vertices.push_back(clouds[c][static_cast<std::size_t>(i)]);
    back.tolerance = unit.tolerance;
    EXPECT_EQ(hullcheck::check(clouds[c], back), "") << "cloud " << c << " at scale " << s;
  }
}

TEST(FuzzRegressions, HullAtExtremeScales) {
  for (double s : {1e-320, 1e-300, 1e-160, 1e-31, 1e31, 1e160, 1e200, 1e300}) expectScaleInvariant(s);
}

TEST(FuzzRegressions, HullTraceAtExtremeScaleReportsDistancesInInputUnits) {
  // A traced build on a scaled cloud gives the same frames as at unit
  // scale, with the eye's height in the caller's units.
  const double s = 0x1p700;  // ~5e210: a power of two, so the unit-scale heights scale exactly
  const std::vector<Vec3> unit = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}, {2, -1, 0.5}};
  std::vector<Vec3> pts = unit;
  for (Vec3& p : pts) p = p * s;
  ConvexHull h1, h2;
  HullError err;
  collidoscope::HullRecorder r1, r2;
  ASSERT_TRUE(collidoscope::buildHull(unit, collidoscope::HullSettings{}, &h1, &err, r1));
  ASSERT_TRUE(collidoscope::buildHull(pts, collidoscope::HullSettings{}, &h2, &err, r2));
  EXPECT_EQ(h2.kind, HullKind::Polyhedron);
  EXPECT_EQ(h2.inputIndex, h1.inputIndex);
  ASSERT_EQ(r2.frames.size(), r1.frames.size());
  int eyes = 0;
  for (std::size_t i = 0; i < r1.frames.size(); ++i) {
    EXPECT_EQ(r2.frames[i].event, r1.frames[i].event);
    EXPECT_EQ(r2.frames[i].eye, r1.frames[i].eye);
    if (r1.frames[i].event != collidoscope::HullEvent::Eye) continue;
    ++eyes;
    EXPECT_GT(r1.frames[i].eyeDistance, 0);
    EXPECT_EQ(r2.frames[i].eyeDistance, r1.frames[i].eyeDistance * s);
  }
  EXPECT_GT(eyes, 0);
}

std::string sceneWithKey(const std::string& key) {
  return R"({"version":1,"query":"distance","shapes":[{"type":"point"},{"type":"point"}],")" + key + R"(":1})";
}

TEST(FuzzRegressions, LongUnknownKeyIsClippedInFieldAndMessage) {
  Scene s;
  SceneError err;
  const std::string key(100000, 'k');
  ASSERT_FALSE(collidoscope::parseScene(sceneWithKey(key), &s, &err));
  EXPECT_EQ(err.code, "invalid-scene");
  EXPECT_EQ(err.field, std::string(64, 'k') + "…");
  EXPECT_LT(err.message.size(), 120u) << err.message;
  // A key of at most 64 bytes is named whole, as before.
  ASSERT_FALSE(collidoscope::parseScene(sceneWithKey("colour"), &s, &err));
  EXPECT_EQ(err.field, "colour");
  EXPECT_EQ(err.message, "unknown field \"colour\"");
}

TEST(FuzzRegressions, ClippingNeverSplitsAUtf8Character) {
  // 63 ASCII bytes, then "é" (2 bytes) straddling the 64-byte cut.
  const std::string key = std::string(63, 'a') + "\xc3\xa9" + "tail";
  Scene s;
  SceneError err;
  ASSERT_FALSE(collidoscope::parseScene(sceneWithKey(key), &s, &err));
  EXPECT_EQ(err.field, std::string(63, 'a') + "…");
  EXPECT_EQ(err.message, "unknown field \"" + std::string(63, 'a') + "…\"");
  // A shape type name goes through the same clip.
  const std::string type = std::string(62, 'b') + "\xe2\x82\xac" + "x";  // "€" (3 bytes) across the cut
  ASSERT_FALSE(collidoscope::parseScene(
      R"({"version":1,"query":"distance","shapes":[{"type":")" + type + R"("},{"type":"point"}]})", &s, &err));
  EXPECT_EQ(err.field, "shapes[0].type");
  EXPECT_NE(err.message.find("\"" + std::string(62, 'b') + "…\""), std::string::npos) << err.message;
}

}  // namespace

namespace {

using collidoscope::PosedShape;
using collidoscope::Shape;

// Overlap of A and B along unit n from closed-form support values
// (reference.h): h_A(n) + h_B(−n).
double overlapAlong(const Shape& a, const Shape& b, const Vec3& n) {
  return ref::supportValue(a, n) + ref::supportValue(b, -n);
}

// When core(A) − core(B) is a segment through the origin (a point at the
// centre of a capsule, a zero-radius cone or cylinder, collinear capsules)
// EPA answers from the segment: depth = the radii, and the normal must be
// perpendicular to the segment. It came out along the segment whenever the
// centres coincided (the fallback direction y was the axis): moving B by
// depth·normal left it inside. Found by fuzz_pair.
TEST(FuzzRegressions, PenetrationNormalAcrossASegmentDifference) {
  struct Case {
    Shape a, b;
    double depth;
  };
  const Vec3 at{-8, -8, -8};
  const std::vector<Case> cases = {
      {Shape::capsule(8, 10).at(at), Shape::point().at(at), 8},
      {Shape::capsule(0.5, 9.9999999999818296).at(at), Shape::point().at(at), 0.5},
      {Shape::capsule(0, 10).at(at), Shape::point().at(at), 0},
      {Shape::cone(0, 10).at(at), Shape::point().at(at), 0},
      {Shape::cylinder(0, 10).at(at), Shape::point().at(at), 0},
      {Shape::capsule(1, 3).at(at), Shape::capsule(2, 1).at(at), 3},
      {Shape::capsule(1, 3).at({0, 0, 0}, Quat{0, 0, std::sqrt(0.5), std::sqrt(0.5)}), Shape::sphere(0.25), 1.25},
  };
  for (const Case& c : cases) {
    const auto p = collidoscope::penetration(PosedShape(c.a), PosedShape(c.b));
    EXPECT_TRUE(p.intersecting);
    EXPECT_NEAR(p.depth, c.depth, 1e-12);
    EXPECT_NEAR(ref::norm(p.normal), 1, 1e-12);
    EXPECT_NEAR(overlapAlong(c.a, c.b, p.normal), p.depth, 1e-9)
        << "normal [" << p.normal.x << ", " << p.normal.y << ", " << p.normal.z << "] for depth " << p.depth;
  }
}

}  // namespace

namespace {

// A ray grazing past a segment's end (or a degenerate triangle's) hits the
// end point; its normal must face the ray (n·direction < 0, the origin on
// the outer side of the supporting plane) — the weighted normal m of
// raycast.h could be the first search direction instead, which the ray was
// travelling along. Found by fuzz_pair.
TEST(FuzzRegressions, RayHitNormalAtAVertexFacesTheRay) {
  const Vec3 at{-8, -8, -8};
  const std::vector<Shape> shapes = {
      Shape::segment({0, 1, 1}, {-8, -8, -8}).at(at),
      Shape::triangle({0, -1, 6}, {-8, -8, -8}, {0, -1, 6}).at(at),
      Shape::segment({-8, -8, -2}, {-8, -8, -8}).at(at),
      Shape::segment({-8, -7, 1000000}, {-8, -8, -8}).at(at),
  };
  for (const Shape& s : shapes) {
    const auto r = collidoscope::gjkRayCast(PosedShape(s), at, at, 8);
    ASSERT_TRUE(r.hit);
    EXPECT_NEAR(r.t, 1, 1e-9);
    EXPECT_NEAR(ref::norm(r.normal), 1, 1e-12);
    EXPECT_LT(ref::dot3(r.normal, at), 0) << "normal [" << r.normal.x << ", " << r.normal.y << ", " << r.normal.z
                                          << "] does not face the ray";
    EXPECT_NEAR(ref::supportValue(s, r.normal), ref::dot3(r.normal, r.point), 1e-9);
  }
}

// SAT of a point lying on a segment's line (A − B a segment through the
// origin): the zero-thickness axis must be perpendicular to the segment, so
// the depth is 0 (touching), as EPA says. The offset w⊥ was computed by
// subtracting w's part along the line, and its rounding residual normalized
// to the line itself: depth 5√3. Found by fuzz_pair.
TEST(FuzzRegressions, SatPointOnASegmentsLineTouches) {
  const Vec3 at{-8, -8, -8};
  const std::vector<Shape> shapes = {
      Shape::segment({5, 5, 5}, {-8, -8, -8}).at(at),
      Shape::segment({4, 4, 4}, {-8, -8, -8}).at(at),
      Shape::polytope({{7, 7, 7}, {-8, -8, -8}, {7, 7, 7}}).at(at),
  };
  for (const Shape& s : shapes) {
    const auto r = collidoscope::sat(s, Shape::point().at(at));
    EXPECT_EQ(r.status, collidoscope::SatStatus::Ok);
    EXPECT_TRUE(r.intersecting);
    EXPECT_EQ(r.depth, 0);
    EXPECT_NEAR(ref::dot3(r.axis, Vec3{1, 1, 1}), 0, 1e-12) << "the axis must be across the segment";
  }
}

// SAT of a box with denormal half-extents (after buildHull learnt to see
// such a box as a polyhedron): its face normals were computed from cross
// products that underflowed, so it had no axes and every pair "intersected".
TEST(FuzzRegressions, SatTinyBoxKeepsItsFaces) {
  const double d = 4.9406564584124654e-324;
  const Shape box = Shape::box({d, d, d}).at({-1.3125, -8, -8});
  collidoscope::SatHull h;
  ASSERT_EQ(collidoscope::buildSatHull(box, &h), collidoscope::SatStatus::Ok);
  EXPECT_EQ(h.faceAxes.size(), 3u);
  const auto r = collidoscope::sat(box, Shape::point().at({-8, -8, -8}));
  EXPECT_FALSE(r.intersecting);
  EXPECT_NEAR(r.depth, 6.6875, 1e-12);
}

}  // namespace

namespace {

// A shape cast where A has a margin far below the hit tolerance (1e-155):
// raycast.h took the normal from v (core point → x) whenever ‖v‖ ≥ ρ/2,
// which here is pure rounding noise, and the normal came out flipped (B
// "moving away" from A along it). Found by fuzz_pair.
TEST(FuzzRegressions, ShapeCastNormalWithAMarginBelowTheTolerance) {
  Shape a = Shape::segment({4, 1.6438728686287973e-306, -2.1227806690753335}, {7, -8, -0.125})
                .at({-1000000, 5, -1.036313303353518e-115},
                    Quat{4.9999999999275003e-06, -0.99999999998550004, -7.9999999998839998e-17, -1.999999999971e-06});
  const Shape b = Shape::box({2.5, 3, 3}).at({-999996, 1, -0.125});
  const Vec3 ta{-1.125, -8, 5}, tb{-1000000, -1, 2.2250738585072014e-308};
  const auto plain = collidoscope::gjkShapeCast(PosedShape(a), PosedShape(b), ta, tb);
  a.margin = 2.8292570641130574e-155;
  const auto rounded = collidoscope::gjkShapeCast(PosedShape(a), PosedShape(b), ta, tb);
  ASSERT_TRUE(plain.hit);
  ASSERT_TRUE(rounded.hit);
  EXPECT_LT(ref::dot3(rounded.normal, tb - ta), 0) << "B must approach A along the normal";
  EXPECT_NEAR(ref::norm(rounded.normal - plain.normal), 0, 1e-9);
  EXPECT_EQ(rounded.t, plain.t);
}

}  // namespace
