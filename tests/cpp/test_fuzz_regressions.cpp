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
//     character. Fixed in scene.cpp (clipped()).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "collidoscope/epa.h"
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
