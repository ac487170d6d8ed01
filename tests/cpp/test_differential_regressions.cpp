// Regression scenes from the differential tests (test_differential_ccd.cpp,
// test_differential_qhull.cpp): inputs on which libccd or qhull and we
// disagreed, kept in shared/vectors/differential as scenes (format version 1)
// with their answers in expected.json. This file needs no peer library: it
// is part of collidoscope_tests (differential.cmake moves only the files
// that link libccd or qhull into collidoscope_differential_tests).
//
//   penetration  the depth from the exact reference (brute-force SAT,
//                epa_reference.h); ours must give it within tolerance·scale,
//                and the reference, run again, must still give it.
//   hull         "vertices": the number of extreme points (brute force,
//                hull_reference.h). Our hull must pass its invariants and the
//                brute-force comparison and have that many vertices — unless
//                "knownFailure" is true: a wrong hull we know of (reported,
//                README "Known limits"). A known failure must still fail
//                (when it is fixed, set knownFailure to false), so the list
//                cannot silently grow or go stale.
#include <gtest/gtest.h>

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "collidoscope/epa.h"
#include "collidoscope/hull.h"
#include "collidoscope/json.h"
#include "collidoscope/scene.h"
#include "epa_reference.h"
#include "hull_reference.h"

namespace {

using collidoscope::JsonValue;
using collidoscope::QueryKind;
using collidoscope::Scene;
using collidoscope::SceneError;
using collidoscope::Shape;
using collidoscope::Vec3;

const std::string kDir = std::string(COLLIDOSCOPE_SHARED_DIR) + "/vectors/differential";

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> sceneNames() {
  std::vector<std::string> out;
  if (DIR* d = opendir(kDir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string n = e->d_name;
      if (n.size() > 5 && n.substr(n.size() - 5) == ".json" && n != "expected.json") out.push_back(n.substr(0, n.size() - 5));
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(DifferentialRegressions, EveryVectorHasAnExpectationAndViceVersa) {
  JsonValue expected;
  std::string why;
  ASSERT_TRUE(collidoscope::parseJson(readText(kDir + "/expected.json"), &expected, &why)) << why;
  ASSERT_TRUE(expected.isObject());
  std::vector<std::string> listed;
  for (const auto& m : expected.members) listed.push_back(m.first);
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(listed, sceneNames());
  EXPECT_GE(listed.size(), 6u);
}

TEST(DifferentialRegressions, PeerDisagreementsKeepTheirAnswers) {
  JsonValue expected;
  std::string why;
  ASSERT_TRUE(collidoscope::parseJson(readText(kDir + "/expected.json"), &expected, &why)) << why;
  int penetrations = 0, hulls = 0, known = 0;
  for (const auto& m : expected.members) {
    const std::string& name = m.first;
    const JsonValue& e = m.second;
    SCOPED_TRACE(name);
    ASSERT_TRUE(e.find("query") && e.find("derivation") && e.find("peer") && e.find("found"))
        << "each expectation says what it is, how it was derived, what the peer said and where it was found";
    Scene sc;
    SceneError err;
    ASSERT_TRUE(collidoscope::parseScene(readText(kDir + "/" + name + ".json"), &sc, &err))
        << err.field << ": " << err.message;
    EXPECT_EQ(collidoscope::queryName(sc.query), e.find("query")->string);

    if (sc.query == QueryKind::Penetration) {
      ++penetrations;
      ASSERT_EQ(sc.shapes.size(), 2u);
      const Shape& a = sc.shapes[0];
      const Shape& b = sc.shapes[1];
      const double depth = e.find("depth")->number;
      const double tol = e.find("tolerance")->number * ref::sceneScale(a, b);
      // The reference, in coordinates relative to A (as when recorded).
      Shape ra = a, rb = b;
      ra.pose.position -= a.pose.position;
      rb.pose.position -= a.pose.position;
      const eparef::Reference rf = eparef::satDepth(ra, rb, 1e-9 * ref::sceneScale(ra, rb));
      EXPECT_NEAR(rf.depth, depth, tol) << "expected.json disagrees with the SAT reference";
      const collidoscope::PenetrationResult r =
          collidoscope::penetration(collidoscope::PosedShape(a), collidoscope::PosedShape(b));
      EXPECT_TRUE(r.intersecting);
      EXPECT_NEAR(r.depth, depth, tol) << epacheck::repro(a, b, r);
      // And through the scene runner, as the CLI and the page run it.
      std::string json;
      ASSERT_TRUE(collidoscope::runScene(sc, false, &json, &err)) << err.message;
      JsonValue out;
      ASSERT_TRUE(collidoscope::parseJson(json, &out, &why)) << why;
      ASSERT_TRUE(out.find("depth"));
      EXPECT_NEAR(out.find("depth")->number, depth, tol);
    } else if (sc.query == QueryKind::Hull) {
      ++hulls;
      ASSERT_EQ(sc.shapes.size(), 1u);
      const std::vector<Vec3>& pts = sc.shapes[0].points;
      collidoscope::ConvexHull hull;
      collidoscope::HullError herr;
      ASSERT_TRUE(collidoscope::buildHull(pts, &hull, &herr)) << herr.field << ": " << herr.message;
      const std::string invariants = hullcheck::check(pts, hull);
      const hullcheck::BruteResult brute = hullcheck::compareWithBruteForce(pts, hull);
      const int want = static_cast<int>(e.find("vertices")->number);
      const bool right = invariants.empty() && brute.error.empty() && static_cast<int>(hull.vertices.size()) == want;
      const JsonValue* kf = e.find("knownFailure");
      ASSERT_TRUE(kf) << "hull vectors say whether they are a known failure";
      if (kf->boolean) {
        ++known;
        ASSERT_TRUE(e.find("why"));
        EXPECT_FALSE(right) << "a known failure passes now: set knownFailure to false in expected.json (and "
                               "update the README's known limits and the known-failure list of "
                               "test_differential_qhull.cpp)";
      } else {
        EXPECT_EQ(invariants, "");
        EXPECT_EQ(brute.error, "");
        EXPECT_EQ(static_cast<int>(hull.vertices.size()), want);
      }
    } else {
      ADD_FAILURE() << "unexpected query " << collidoscope::queryName(sc.query);
    }
  }
  EXPECT_GE(penetrations, 1);
  EXPECT_GE(hulls, 1);
  std::printf("[ differential regressions ] %d penetration, %d hull (%d known failures)\n", penetrations, hulls, known);
}

}  // namespace
