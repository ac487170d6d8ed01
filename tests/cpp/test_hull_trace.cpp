// The quickhull trace records the algorithm that ships: a HullRecorder run
// returns exactly (bitwise) the NoTrace hull, and its frames are
// consistent: the first is 'extremes', the last 'done' (polyhedron) or
// 'degenerate' (point / segment / polygon, with the result's kind); each
// eye is a conflict point of a face of its frame; visible faces exist;
// the horizon is one closed loop of edges of visible faces; every face a
// cone frame adds exists in that frame and has the eye as a corner; conflict
// points lie above their face. Tracing is refused above 5 000 points.
#include <gtest/gtest.h>


#include <cstring>
#include <map>

#include "hull_reference.h"

namespace {

using collidoscope::ConvexHull;
using collidoscope::HullError;
using collidoscope::HullEvent;
using collidoscope::HullFrame;
using collidoscope::HullKind;
using collidoscope::HullRecorder;
using collidoscope::HullSettings;
using collidoscope::NoTrace;
using collidoscope::Vec3;
using ref::Rng;

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool sameBits(const Vec3& a, const Vec3& b) { return sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z); }

std::string sameHull(const ConvexHull& a, const ConvexHull& b) {
  if (a.kind != b.kind) return "kind differs";
  if (a.vertices.size() != b.vertices.size()) return "vertex count differs";
  for (std::size_t i = 0; i < a.vertices.size(); ++i)
    if (!sameBits(a.vertices[i], b.vertices[i])) return "vertex bits differ";
  if (a.inputIndex != b.inputIndex) return "inputIndex differs";
  if (a.triangles != b.triangles) return "triangles differ";
  if (a.faces != b.faces) return "faces differ";
  if (a.adjacency != b.adjacency) return "adjacency differs";
  if (!sameBits(a.normal, b.normal)) return "normal differs";
  if (!sameBits(a.tolerance, b.tolerance)) return "tolerance differs";
  return "";
}

// A mix of the families of test_hull.cpp, small enough to trace.
std::vector<Vec3> traceCloud(Rng& rng, int i, std::string* what) {
  std::vector<Vec3> p;
  const int n = rng.integer(4, 150);
  switch (i % 7) {
    case 0:
      for (int k = 0; k < n; ++k) p.push_back(rng.inBall(1));
      *what = "ball";
      break;
    case 1:
      for (int k = 0; k < n; ++k) p.push_back(rng.direction() * 5);
      *what = "sphere";
      break;
    case 2:
      for (int x = 0; x < 4; ++x)
        for (int y = 0; y < 3; ++y)
          for (int z = 0; z < 3; ++z) p.push_back({double(x), double(y), double(z)});
      *what = "grid 4x3x3";
      break;
    case 3: {
      std::vector<Vec3> pool(static_cast<std::size_t>(rng.integer(4, 10)));
      for (Vec3& v : pool) v = rng.inBall(1) + Vec3{1e6, 0, 0};
      for (int k = 0; k < n; ++k) p.push_back(pool[static_cast<std::size_t>(rng.integer(0, int(pool.size()) - 1))]);
      *what = "duplicates at 1e6";
      break;
    }
    case 4:
      for (int k = 0; k < n; ++k) p.push_back({rng.uniform(-1, 1), rng.uniform(-1, 1), 0.5});
      *what = "flat";
      break;
    case 5:
      for (int k = 0; k < n; ++k) p.push_back(Vec3{1, -2, 3} * rng.uniform(-1, 1));
      *what = "collinear";
      break;
    default:
      p.assign(static_cast<std::size_t>(n), Vec3{1, 2, 3});
      *what = "one point repeated";
  }
  return p;
}

TEST(HullTrace, RecorderGivesTheNoTraceHullAndConsistentFrames) {
  Rng rng(2024);
  for (int i = 0; i < 350; ++i) {
    std::string what;
    const std::vector<Vec3> pts = traceCloud(rng, i, &what);
    const std::string rp = "\n  cloud " + std::to_string(i) + " (" + what + "): " + hullref::cloudLiteral(pts);
    ConvexHull plain, traced;
    HullError e1, e2;
    NoTrace none;
    HullRecorder rec;
    ASSERT_TRUE(collidoscope::buildHull(pts, HullSettings{}, &plain, &e1, none)) << rp;
    ASSERT_TRUE(collidoscope::buildHull(pts, HullSettings{}, &traced, &e2, rec)) << rp;
    ASSERT_EQ(sameHull(plain, traced), "") << "trace changed the result" << rp;
    ASSERT_FALSE(rec.frames.empty()) << rp;
    EXPECT_EQ(rec.frames.front().event, HullEvent::Extremes) << rp;
    const HullFrame& last = rec.frames.back();
    if (plain.kind == HullKind::Polyhedron) {
      EXPECT_EQ(last.event, HullEvent::Done) << rp;
    } else {
      EXPECT_EQ(last.event, HullEvent::Degenerate) << rp;
    }
    EXPECT_EQ(last.kind, plain.kind) << rp;

    int iteration = 0;
    for (std::size_t fi = 0; fi < rec.frames.size(); ++fi) {
      const HullFrame& f = rec.frames[fi];
      const std::string at = rp + "\n  frame " + std::to_string(fi);
      std::map<int, const collidoscope::HullTraceFace*> byId;
      for (const auto& face : f.faces) {
        ASSERT_TRUE(byId.emplace(face.id, &face).second) << "face id repeated" << at;
        for (int k = 0; k < 3; ++k) ASSERT_TRUE(face.v[k] >= 0 && face.v[k] < int(pts.size())) << at;
        // Conflict points lie above their face (the face's corners are
        // input points; the plane is ours).
        const Vec3 &a = pts[face.v[0]], &b = pts[face.v[1]], &c = pts[face.v[2]];
        const Vec3 n = ref::cross3(b - a, c - a);
        for (int q : face.conflicts) {
          ASSERT_TRUE(q >= 0 && q < int(pts.size())) << at;
          EXPECT_GT(ref::dot3(n, pts[q] - a), 0) << "conflict point " << q << " not above face " << face.id << at;
        }
      }
      if (f.event == HullEvent::Eye) {
        EXPECT_GE(f.iteration, iteration) << at;
        iteration = f.iteration;
        bool owned = false;
        for (const auto& face : f.faces)
          for (int q : face.conflicts) owned = owned || q == f.eye;
        EXPECT_TRUE(owned) << "eye " << f.eye << " is no face's conflict point" << at;
      }
      if (f.event == HullEvent::Visible || f.event == HullEvent::Horizon) {
        EXPECT_FALSE(f.visible.empty()) << at;
        for (int id : f.visible) EXPECT_TRUE(byId.count(id)) << "visible face " << id << " not in the frame" << at;
      }
      if (f.event == HullEvent::Horizon) {
        ASSERT_GE(f.horizon.size(), 3u) << at;
        for (std::size_t k = 0; k < f.horizon.size(); ++k)
          EXPECT_EQ(f.horizon[k].second, f.horizon[(k + 1) % f.horizon.size()].first) << "horizon not a loop" << at;
        // Each horizon edge is an edge of a visible face.
        for (const auto& [a, b] : f.horizon) {
          bool found = false;
          for (int id : f.visible) {
            const auto* face = byId.count(id) ? byId[id] : nullptr;
            if (!face) continue;
            for (int k = 0; k < 3; ++k) found = found || (face->v[k] == a && face->v[(k + 1) % 3] == b);
          }
          EXPECT_TRUE(found) << "horizon edge " << a << "->" << b << " is on no visible face" << at;
        }
      }
      if (f.event == HullEvent::Cone) {
        ASSERT_GE(f.eye, 0) << at;
        EXPECT_FALSE(f.added.empty()) << at;
        for (int id : f.added) {
          ASSERT_TRUE(byId.count(id)) << "added face " << id << " not in the frame" << at;
          const auto* face = byId[id];
          EXPECT_TRUE(face->v[0] == f.eye || face->v[1] == f.eye || face->v[2] == f.eye)
              << "added face " << id << " does not reference the eye " << f.eye << at;
        }
      }
    }
  }
}

// The page shows the last frame as the answer; it should be the returned
// hull: the done frame's triangles (input indices) are the result's.
TEST(HullTrace, DoneFrameShowsTheReturnedHull) {
  Rng rng(77);
  int checked = 0;
  for (int i = 0; i < 350; ++i) {
    std::string what;
    const std::vector<Vec3> pts = traceCloud(rng, i, &what);
    ConvexHull h;
    HullError err;
    HullRecorder rec;
    ASSERT_TRUE(collidoscope::buildHull(pts, HullSettings{}, &h, &err, rec));
    if (h.kind != HullKind::Polyhedron) continue;
    ++checked;
    auto canon = [](int a, int b, int c) {  // rotate so the smallest index leads
      std::array<int, 3> t{a, b, c};
      while (t[0] != std::min({a, b, c})) t = {t[1], t[2], t[0]};
      return t;
    };
    std::vector<std::array<int, 3>> got, want;
    for (const auto& f : rec.frames.back().faces) got.push_back(canon(f.v[0], f.v[1], f.v[2]));
    for (const auto& t : h.triangles) want.push_back(canon(h.inputIndex[t[0]], h.inputIndex[t[1]], h.inputIndex[t[2]]));
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want) << "done frame: " << got.size() << " faces, result: " << want.size() << " triangles; cloud "
                         << i << " (" << what << ")" << (pts.size() <= 40 ? "\n  " + hullref::cloudLiteral(pts) : "");
  }
  EXPECT_GT(checked, 100);
}

TEST(HullTrace, TracingIsLimitedTo5000Points) {
  Rng rng(5);
  std::vector<Vec3> pts(5000);
  for (Vec3& v : pts) v = rng.inBall(1);
  ConvexHull h;
  HullError err;
  HullRecorder rec;
  EXPECT_TRUE(collidoscope::buildHull(pts, HullSettings{}, &h, &err, rec)) << err.field << " " << err.message;
  pts.push_back(rng.inBall(1));
  HullRecorder rec2;
  err = {};
  EXPECT_FALSE(collidoscope::buildHull(pts, HullSettings{}, &h, &err, rec2));
  EXPECT_EQ(err.field, "points");
  EXPECT_NE(err.message.find("5000"), std::string::npos) << err.message;
  // Untraced, the same input builds.
  EXPECT_TRUE(collidoscope::buildHull(pts, &h, &err));
}

}  // namespace


