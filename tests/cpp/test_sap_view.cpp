// The "pairs" trace (sap_view.h): the traced sweep of sweep and prune against
// brute force, and against the World's answer (run()).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "collidoscope/json.h"
#include "collidoscope/sap_view.h"
#include "collidoscope/scene.h"
#include "collidoscope/sweep_and_prune.h"

namespace collidoscope {
namespace {

using Pair = std::array<int, 2>;

Scene parse(const std::string& json) {
  Scene s;
  SceneError err;
  EXPECT_TRUE(parseScene(json, &s, &err)) << err.field << ": " << err.message;
  return s;
}

// Shapes spread over a few units, so that some boxes overlap and most do not.
std::string randomScene(unsigned seed, int n, bool withPlane) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> pos(-3, 3), size(0.2, 1.2), q(-1, 1);
  std::string json = R"({"version":1,"query":"pairs","shapes":[)";
  for (int i = 0; i < n; ++i) {
    if (i) json += ",";
    const std::string p = "[" + std::to_string(pos(rng)) + "," + std::to_string(pos(rng)) + "," +
                          std::to_string(pos(rng)) + "]";
    const std::string r = "[" + std::to_string(q(rng)) + "," + std::to_string(q(rng)) + "," +
                          std::to_string(q(rng)) + ",1]";
    switch (i % 4) {
      case 0: json += R"({"type":"sphere","radius":)" + std::to_string(size(rng)); break;
      case 1:
        json += R"({"type":"box","halfExtents":[)" + std::to_string(size(rng)) + "," + std::to_string(size(rng)) +
                "," + std::to_string(size(rng)) + "]";
        break;
      case 2: json += R"({"type":"capsule","radius":0.3,"halfHeight":)" + std::to_string(size(rng)); break;
      default: json += R"({"type":"cone","radius":0.5,"halfHeight":)" + std::to_string(size(rng)); break;
    }
    json += R"(,"position":)" + p + R"(,"rotation":)" + r + "}";
  }
  if (withPlane) json += R"(,{"type":"plane","normal":[0,1,0],"offset":-1.5})";
  return json + "]}";
}

// The World's answer as run() gives it (runScene without a trace).
PairsResult runPairs(const Scene& scene) {
  std::string json;
  SceneError err;
  EXPECT_TRUE(runScene(scene, false, &json, &err)) << err.message;
  JsonValue v;
  std::string why;
  EXPECT_TRUE(parseJson(json, &v, &why)) << why;
  PairsResult r;
  for (const JsonValue& p : v.find("pairs")->items)
    r.pairs.push_back({static_cast<int>(p.items[0].number), static_cast<int>(p.items[1].number)});
  r.candidates = static_cast<int>(v.find("candidates")->number);
  return r;
}

// Closed intervals on an axis; on all three, the boxes' overlap.
bool overlapOn(const Aabb& a, const Aabb& b, int axis) {
  const double amin[3] = {a.min.x, a.min.y, a.min.z}, amax[3] = {a.max.x, a.max.y, a.max.z};
  const double bmin[3] = {b.min.x, b.min.y, b.min.z}, bmax[3] = {b.max.x, b.max.y, b.max.z};
  return amin[axis] <= bmax[axis] && bmin[axis] <= amax[axis];
}

double lo(const Aabb& b, int axis) { return axis == 0 ? b.min.x : axis == 1 ? b.min.y : b.min.z; }
double hi(const Aabb& b, int axis) { return axis == 0 ? b.max.x : axis == 1 ? b.max.y : b.max.z; }

struct Traced {
  std::vector<SapViewFrame> frames;
  SapViewResult r;
};

Traced trace(const Scene& scene) {
  Traced t;
  SceneError err;
  EXPECT_TRUE(runSapView(scene, &t.frames, &t.r, &err)) << err.message;
  return t;
}

std::vector<const SapViewFrame*> ofKind(const Traced& t, SapViewFrameKind k) {
  std::vector<const SapViewFrame*> out;
  for (const SapViewFrame& f : t.frames)
    if (f.kind == k) out.push_back(&f);
  return out;
}

class SapView : public ::testing::TestWithParam<unsigned> {};

TEST_P(SapView, SweepPairsEqualBruteForceAndTheWorldsAnswer) {
  const bool plane = GetParam() % 2 == 1;
  const Scene scene = parse(randomScene(GetParam(), 12, plane));
  const Traced t = trace(scene);
  ASSERT_FALSE(t.r.truncated);
  const auto boxes = ofKind(t, SapViewFrameKind::Boxes);
  ASSERT_EQ(boxes.size(), 1u);
  const std::vector<SapViewBox>& b = boxes[0]->boxes;
  ASSERT_EQ(b.size(), scene.shapes.size());
  // Brute force: every pair of bounded boxes overlapping on all three axes.
  std::vector<Pair> want;
  for (std::size_t i = 0; i < b.size(); ++i)
    for (std::size_t j = i + 1; j < b.size(); ++j)
      if (!b[i].unbounded && !b[j].unbounded && overlapOn(b[i].box, b[j].box, 0) &&
          overlapOn(b[i].box, b[j].box, 1) && overlapOn(b[i].box, b[j].box, 2))
        want.push_back({static_cast<int>(i), static_cast<int>(j)});
  const auto sweep = ofKind(t, SapViewFrameKind::Sweep);
  ASSERT_FALSE(sweep.empty());
  std::vector<Pair> got = sweep.back()->pairs;
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
  EXPECT_GT(want.size(), 0u) << "the scene should have some overlapping boxes";
  EXPECT_EQ(t.r.boxPairs, static_cast<int>(want.size()));
  // Planes are marked, and only they.
  for (std::size_t i = 0; i < b.size(); ++i) EXPECT_EQ(b[i].unbounded, scene.shapes[i].type == ShapeType::Plane);

  // The narrow phase's intersecting pairs, and the result, are run()'s.
  const PairsResult run = runPairs(scene);
  EXPECT_EQ(t.r.result.pairs, run.pairs);
  EXPECT_EQ(t.r.result.candidates, run.candidates);
  const auto narrow = ofKind(t, SapViewFrameKind::Narrow);
  ASSERT_EQ(static_cast<int>(narrow.size()), run.candidates);
  std::vector<Pair> hits;
  for (const SapViewFrame* f : narrow)
    if (f->intersecting) hits.push_back(f->pair);
  EXPECT_EQ(hits, run.pairs);
  EXPECT_EQ(narrow.back()->pairs, run.pairs);
  // Each candidate is a box pair or a plane's pair.
  const int n = static_cast<int>(scene.shapes.size());
  const int planes = plane ? 1 : 0;
  EXPECT_EQ(run.candidates, static_cast<int>(want.size()) + planes * (n - 1));
}

TEST_P(SapView, EachActiveListHoldsTheIntervalsContainingTheSweepLine) {
  const Scene scene = parse(randomScene(GetParam(), 10, GetParam() % 2 == 1));
  const Traced t = trace(scene);
  const std::vector<SapViewBox>& b = ofKind(t, SapViewFrameKind::Boxes)[0]->boxes;
  const auto sweep = ofKind(t, SapViewFrameKind::Sweep);
  const int axis = t.r.sweepAxis;
  ASSERT_GE(axis, 0);
  int bounded = 0;
  for (const SapViewBox& x : b) bounded += x.unbounded ? 0 : 1;
  ASSERT_EQ(static_cast<int>(sweep.size()), 2 * bounded);
  for (std::size_t k = 0; k < sweep.size(); ++k) {
    const SapViewFrame& f = *sweep[k];
    EXPECT_EQ(f.axis, axis);
    EXPECT_EQ(f.position, static_cast<int>(k));
    const double s = f.endpoint.value;
    // Brute force: the intervals open after this endpoint are those with
    // min ≤ s < max, plus (ties) those whose max equals s and comes later in
    // the list, minus those whose min equals s and comes later. With random
    // doubles there are no ties between different shapes, so: min ≤ s < max,
    // where the shape's own endpoint counts by its kind.
    std::set<int> want;
    for (const SapViewBox& x : b) {
      if (x.unbounded) continue;
      const bool own = x.shape == f.endpoint.id;
      const bool open = own ? f.endpoint.isMin : (lo(x.box, axis) <= s && s < hi(x.box, axis));
      if (open) want.insert(x.shape);
    }
    const std::set<int> got(f.active.begin(), f.active.end());
    EXPECT_EQ(got.size(), f.active.size()) << "no shape twice";
    EXPECT_EQ(got, want) << "endpoint " << k;
    // The value is the shape's box end on the swept axis.
    const Aabb& own = b[static_cast<std::size_t>(f.endpoint.id)].box;
    EXPECT_EQ(s, f.endpoint.isMin ? lo(own, axis) : hi(own, axis));
    // Found pairs involve the endpoint's shape, and only at a min.
    if (!f.endpoint.isMin) {
      EXPECT_TRUE(f.found.empty());
    }
    for (const Pair& p : f.found) EXPECT_TRUE(p[0] == f.endpoint.id || p[1] == f.endpoint.id);
  }
  EXPECT_TRUE(sweep.back()->active.empty());
}

TEST_P(SapView, ListsAreSortedWithTwoEndpointsPerBoundedShape) {
  const Scene scene = parse(randomScene(GetParam(), 9, GetParam() % 2 == 1));
  const Traced t = trace(scene);
  const std::vector<SapViewBox>& b = ofKind(t, SapViewFrameKind::Boxes)[0]->boxes;
  const auto sort = ofKind(t, SapViewFrameKind::Sort);
  ASSERT_EQ(sort.size(), 1u);
  for (int a = 0; a < 3; ++a) {
    const std::vector<SapEndpoint>& list = sort[0]->lists[a];
    std::vector<int> mins(b.size(), 0), maxs(b.size(), 0);
    for (std::size_t k = 0; k < list.size(); ++k) {
      const SapEndpoint& e = list[k];
      ASSERT_GE(e.id, 0);
      ASSERT_LT(e.id, static_cast<int>(b.size()));
      const SapViewBox& x = b[static_cast<std::size_t>(e.id)];
      EXPECT_FALSE(x.unbounded);
      EXPECT_EQ(e.value, e.isMin ? lo(x.box, a) : hi(x.box, a));
      (e.isMin ? mins : maxs)[static_cast<std::size_t>(e.id)]++;
      if (k > 0) {
        EXPECT_LE(list[k - 1].value, e.value) << "axis " << a << " at " << k;
      }
    }
    for (std::size_t i = 0; i < b.size(); ++i) {
      EXPECT_EQ(mins[i], b[i].unbounded ? 0 : 1);
      EXPECT_EQ(maxs[i], b[i].unbounded ? 0 : 1);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, SapView, ::testing::Values(1u, 2u, 3u, 4u, 5u, 6u));

// Touching boxes (equal endpoints): a min sorts before a max of equal value,
// so the sweep reports the touching pair, as overlaps() says.
TEST(SapViewTies, TouchingBoxesArePaired) {
  const Scene scene = parse(R"({"version":1,"query":"pairs","shapes":[
    {"type":"box","halfExtents":[1,1,1],"position":[0,0,0]},
    {"type":"box","halfExtents":[1,1,1],"position":[4,0,0]},
    {"type":"box","halfExtents":[1,1,1],"position":[2,0.5,0]}]})");
  const Traced t = trace(scene);
  const auto sweep = ofKind(t, SapViewFrameKind::Sweep);
  ASSERT_EQ(sweep.size(), 6u);
  EXPECT_EQ(t.r.sweepAxis, 0);
  std::vector<Pair> got = sweep.back()->pairs;
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<Pair>{{0, 2}, {1, 2}}));
  EXPECT_EQ(t.r.result.pairs, runPairs(scene).pairs);
}

TEST(SapViewCaps, ABigSceneIsTruncatedButAnsweredWhole) {
  const Scene scene = parse(randomScene(7, 1200, false));
  const Traced t = trace(scene);
  EXPECT_TRUE(t.r.truncated);
  EXPECT_LE(static_cast<int>(t.frames.size()), kSapViewFrameCap);
  const PairsResult run = runPairs(scene);
  EXPECT_EQ(t.r.result.pairs, run.pairs);
  EXPECT_EQ(t.r.result.candidates, run.candidates);
}

TEST(SapViewJson, TheTraceOfRunSceneCarriesFramesAndResult) {
  const Scene scene = parse(randomScene(3, 6, true));
  std::string json, plain;
  SceneError err;
  ASSERT_TRUE(runScene(scene, true, &json, &err)) << err.message;
  ASSERT_TRUE(runScene(scene, false, &plain, &err)) << err.message;
  JsonValue v;
  std::string why;
  ASSERT_TRUE(parseJson(json, &v, &why)) << why;
  EXPECT_EQ(v.find("query")->string, "pairs");
  EXPECT_FALSE(v.find("truncated")->boolean);
  EXPECT_EQ(v.find("frames")->items[0].find("kind")->string, "boxes");
  EXPECT_EQ(v.find("frames")->items[1].find("kind")->string, "sort");
  // The result is the untraced answer, byte for byte.
  EXPECT_NE(json.find("\"result\":" + plain), std::string::npos) << json;
}

// The untraced path (NoTrace) still answers as before: same pairs as the traced one.
TEST(SapViewNoTrace, TracedAndUntracedPairsAgree) {
  SweepAndPrune plainSap, tracedSap;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> c(-5, 5), h(0.1, 1.5);
  for (int i = 0; i < 60; ++i) {
    const Vec3 p{c(rng), c(rng), c(rng)}, e{h(rng), h(rng), h(rng)};
    plainSap.insert(i, {p - e, p + e});
    tracedSap.insert(i, {p - e, p + e});
  }
  std::vector<IdPair> a, b;
  SapSweepRecorder rec;
  ASSERT_TRUE(plainSap.pairs(&a));
  ASSERT_TRUE(tracedSap.pairs(&b, INT64_MAX, rec));
  EXPECT_EQ(a, b);
  EXPECT_EQ(rec.frames.size(), 120u);
  std::set<IdPair> found;
  for (const SapSweepEvent& e : rec.frames)
    for (const IdPair& p : e.found) found.insert(p);
  EXPECT_EQ(std::vector<IdPair>(found.begin(), found.end()), a);
}

}  // namespace
}  // namespace collidoscope
