// The object API's registry (api.h): handles, the single query against the
// scene path (runScene on the same shapes and poses, an independent route
// through the parser-free scene code), batches against single queries bit
// for bit, no allocation inside a query, and argument errors.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/compound.h"
#include "collidoscope/epa2d.h"
#include "collidoscope/json.h"
#include "collidoscope/mesh_convex.h"
#include "collidoscope/mesh_raycast.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/world.h"
#include "api_flatten.h"
#include "reference.h"

// Counts every operator new in this test binary; the tests read it around a
// query. Nothing else changes: the allocation itself is malloc's.
// (GCC's -Wmismatched-new-delete cannot see that these two belong together.)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
static std::atomic<long> gAllocations{0};
void* operator new(std::size_t n) {
  ++gAllocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace collidoscope {
namespace {

using api::Kind;
using api::Registry;
constexpr int kKinds = static_cast<int>(Kind::Count);

JsonValue parse(const std::string& text) {
  JsonValue v;
  std::string why;
  EXPECT_TRUE(parseJson(text, &v, &why)) << why;
  return v;
}

using apitest::flatten;
using apitest::sameBits;

void randomPose(ref::Rng& rng, double* out, double spread) {
  const Vec3 p = rng.inCube(spread);
  const Quat q = rng.rotation();
  const double v[7] = {p.x, p.y, p.z, q.x, q.y, q.z, q.w};
  std::memcpy(out, v, sizeof v);
}

std::vector<double> randomPoses(ref::Rng& rng, int n, double spread) {
  std::vector<double> poses(static_cast<std::size_t>(api::kPoseSize * n));
  for (int i = 0; i < n; ++i) randomPose(rng, &poses[static_cast<std::size_t>(api::kPoseSize * i)], spread);
  return poses;
}

void randomExtra(ref::Rng& rng, Kind kind, double* extra) {
  for (int i = 0; i < api::kExtraSize; ++i) extra[i] = 0;
  if (kind == Kind::Raycast) {
    const Vec3 o = rng.inCube(4), d = rng.direction() * rng.uniform(0.5, 8);
    const double v[7] = {o.x, o.y, o.z, d.x, d.y, d.z, rng.uniform(0.5, 2)};
    std::memcpy(extra, v, sizeof v);
  } else if (kind == Kind::Shapecast) {
    const Vec3 a = rng.inCube(3), b = rng.inCube(3);
    const double v[6] = {a.x, a.y, a.z, b.x, b.y, b.z};
    std::memcpy(extra, v, sizeof v);
  } else if (kind == Kind::Contact) {
    extra[0] = rng.integer(0, 3) == 0 ? 0.0 : rng.uniform(0, 1.5);  // the margin
  } else if (kind == Kind::Contains || kind == Kind::Project) {
    const Vec3 p = rng.inCube(2.5);  // the query point
    extra[0] = p.x, extra[1] = p.y, extra[2] = p.z;
  }
}

struct Fixture {
  Registry reg;
  std::vector<int> handles;
  std::vector<Shape> shapes;

  explicit Fixture(ref::Rng& rng, bool vertexShapesOnly = false) {
    for (ShapeType t : ref::kAllTypes) {
      Shape probe;
      probe.type = t;
      if (vertexShapesOnly && !hasPolytopalCore(probe)) continue;
      for (int k = 0; k < 2; ++k) {
        Shape s = ref::randomShape(rng, t, 1.0);
        if (k == 1) s.margin = 0.05;
        SceneError err;
        const int h = reg.add(s, &err);
        EXPECT_GT(h, 0) << err.message;
        handles.push_back(h);
        shapes.push_back(s);
      }
    }
  }
};

TEST(Api, HandlesAreCheckedAndNeverReusedForAnotherShape) {
  Registry reg;
  SceneError err;
  const int a = reg.add(Shape::sphere(1), &err);
  const int b = reg.add(Shape::box({1, 2, 3}), &err);
  EXPECT_GT(a, 0);
  EXPECT_NE(a, b);
  EXPECT_EQ(reg.live(), 2);
  EXPECT_TRUE(reg.remove(a));
  EXPECT_FALSE(reg.remove(a)) << "disposing twice";
  EXPECT_FALSE(reg.remove(0));
  EXPECT_FALSE(reg.remove(12345));
  EXPECT_EQ(reg.live(), 1);
  // The freed slot is reused with a new generation: the stale handle stays dead.
  const int c = reg.add(Shape::capsule(1, 1), &err);
  EXPECT_NE(c, a);
  EXPECT_EQ(reg.find(a), nullptr);
  ASSERT_NE(reg.find(c), nullptr);
  EXPECT_EQ(reg.find(c)->type, ShapeType::Capsule);

  double in[api::kInputSize] = {0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 1};
  double out[api::kMaxResultStride];
  EXPECT_FALSE(reg.query(Kind::Distance, a, b, in, nullptr, out, &err));
  EXPECT_EQ(err.code, "disposed");
  EXPECT_EQ(err.field, "a");
  EXPECT_TRUE(reg.query(Kind::Distance, c, b, in, nullptr, out, &err)) << err.message;
}

// The API and runScene on the same shapes and poses: the same doubles, and the
// trace's result too. 9 queries × 400 random pairs of every shape type
// (contact's scene form is checked in tests/js/contact-scene.test.ts and
// test_contact.cpp checks it against distance and penetration; contains and
// project have no trace, which must say so).
TEST(Api, SingleQueriesGiveTheSceneResultsBitForBit) {
  ref::Rng rng(601);
  Fixture all(rng), withVertices(rng, true);
  const JsonValue layout = parse(api::layoutJson());
  int compared = 0;
  for (int k = 0; k < kKinds; ++k) {
    const Kind kind = static_cast<Kind>(k);
    if (kind == Kind::Contact) continue;
    Fixture& f = kind == Kind::Sat ? withVertices : all;
    const JsonValue& lay = *layout.find(api::kindName(kind));
    for (int trial = 0; trial < 400; ++trial) {
      const std::size_t ia = static_cast<std::size_t>(rng.integer(0, static_cast<int>(f.handles.size()) - 1));
      const std::size_t ib = static_cast<std::size_t>(rng.integer(0, static_cast<int>(f.handles.size()) - 1));
      double in[api::kInputSize];
      randomPose(rng, in, 2);
      randomPose(rng, in + api::kPoseSize, 2);
      randomExtra(rng, kind, in + 2 * api::kPoseSize);
      double out[api::kMaxResultStride];
      SceneError err;
      ASSERT_TRUE(f.reg.query(kind, f.handles[ia], f.handles[ib], in, nullptr, out, &err)) << err.message;

      std::string sceneJson, runJson, traceJson;
      ASSERT_TRUE(f.reg.scene(kind, f.handles[ia], f.handles[ib], in, &sceneJson, &err)) << err.message;
      Scene scene;
      ASSERT_TRUE(parseScene(sceneJson, &scene, &err)) << err.message;
      ASSERT_TRUE(runScene(scene, false, &runJson, &err)) << err.message;
      const std::vector<double> expected = flatten(parse(runJson), lay);
      const bool traced = kind != Kind::Contains && kind != Kind::Project;
      ASSERT_EQ(f.reg.trace(kind, f.handles[ia], f.handles[ib], in, &traceJson, &err), traced) << err.message;
      if (!traced) {
        EXPECT_EQ(err.code, "unsupported-query");
      }
      const std::vector<double> fromTrace = traced ? flatten(*parse(traceJson).find("result"), lay) : expected;
      ASSERT_EQ(expected.size(), static_cast<std::size_t>(api::kResultStride[k]));
      for (int i = 0; i < api::kResultStride[k]; ++i) {
        EXPECT_TRUE(sameBits(out[i], expected[static_cast<std::size_t>(i)]))
            << api::kindName(kind) << " field " << lay.find("fields")->items[static_cast<std::size_t>(i)].string
            << ": api " << out[i] << " vs scene " << expected[static_cast<std::size_t>(i)] << "\n" << sceneJson;
        EXPECT_TRUE(sameBits(out[i], fromTrace[static_cast<std::size_t>(i)])) << api::kindName(kind) << " trace field " << i;
      }
      ++compared;
    }
  }
  EXPECT_EQ(compared, 9 * 400);
}

// A batch answers each pair exactly as the single query does, including a
// shape against itself and intersect's warm-start caches.
TEST(Api, BatchesEqualSingleQueriesBitForBit) {
  ref::Rng rng(602);
  Fixture all(rng), withVertices(rng, true);
  for (int k = 0; k < kKinds; ++k) {
    const Kind kind = static_cast<Kind>(k);
    Fixture& f = kind == Kind::Sat ? withVertices : all;
    const int nShapes = static_cast<int>(f.handles.size());
    const std::vector<double> poses = randomPoses(rng, nShapes, 2);
    const int per = api::isSingleShape(kind) ? 1 : 2;
    const int n = 300;
    std::vector<std::uint32_t> pairs(static_cast<std::size_t>(per * n));
    for (int q = 0; q < n; ++q)
      for (int j = 0; j < per; ++j)
        pairs[static_cast<std::size_t>(per * q + j)] =
            static_cast<std::uint32_t>(q % 10 == 0 ? q % nShapes : rng.integer(0, nShapes - 1));  // some a == b
    std::vector<double> extras(static_cast<std::size_t>(api::kExtraSize * n));
    for (int q = 0; q < n; ++q) randomExtra(rng, kind, &extras[static_cast<std::size_t>(api::kExtraSize * q)]);
    std::vector<double> caches(static_cast<std::size_t>(api::kCacheSize * n), 0.0);
    const int stride = api::kResultStride[k];
    std::vector<double> out(static_cast<std::size_t>(stride * n));
    SceneError err;
    // Intersect twice: the second batch starts warm from the caches the first left.
    for (int round = 0; round < (kind == Kind::Intersect ? 2 : 1); ++round) {
      std::vector<double> cachesBefore = caches;
      ASSERT_TRUE(f.reg.batch(kind, f.handles.data(), nShapes, poses.data(), pairs.data(), n, extras.data(),
                              kind == Kind::Intersect ? caches.data() : nullptr, out.data(), &err))
          << err.field << ": " << err.message;
      for (int q = 0; q < n; ++q) {
        const std::uint32_t ia = pairs[static_cast<std::size_t>(per * q)];
        const std::uint32_t ib = pairs[static_cast<std::size_t>(per * q + per - 1)];
        double in[api::kInputSize];
        std::memcpy(in, &poses[api::kPoseSize * ia], sizeof(double) * api::kPoseSize);
        std::memcpy(in + api::kPoseSize, &poses[api::kPoseSize * ib], sizeof(double) * api::kPoseSize);
        std::memcpy(in + 2 * api::kPoseSize, &extras[static_cast<std::size_t>(api::kExtraSize * q)],
                    sizeof(double) * api::kExtraSize);
        double single[api::kMaxResultStride];
        double* cache = &cachesBefore[static_cast<std::size_t>(api::kCacheSize * q)];
        ASSERT_TRUE(f.reg.query(kind, f.handles[ia], f.handles[ib], in, kind == Kind::Intersect ? cache : nullptr,
                                single, &err))
            << err.message;
        for (int i = 0; i < stride; ++i)
          ASSERT_TRUE(sameBits(single[i], out[static_cast<std::size_t>(stride * q + i)]))
              << api::kindName(kind) << " pair " << q << " field " << i << " round " << round;
        if (kind == Kind::Intersect) {
          for (int i = 0; i < api::kCacheSize; ++i)
            ASSERT_TRUE(sameBits(cache[i], caches[static_cast<std::size_t>(api::kCacheSize * q + i)]));
        }
      }
    }
  }
}

// The planar EPA (2D scenes' penetration) allocates nothing either: its
// polygon is a fixed array.
TEST(Api, PlanarPenetrationDoesNotAllocate) {
  const Shape a = Shape::polytope({{0, 0, 0}, {4, 0, 0}, {0, 3, 0}, {1, 1, 0}});
  Shape b = Shape::box({0.5, 0.25, 0});
  b.at({0.75, 1, 0}, Quat{0, 0, std::sin(0.3), std::cos(0.3)});
  const PosedShape pa(a), pb(b);
  const long b0 = gAllocations.load();
  const PenetrationResult r = penetration2d(pa, pb);
  EXPECT_EQ(gAllocations.load() - b0, 0);
  EXPECT_TRUE(r.intersecting);
  EXPECT_GT(r.iterations, 0);
}

// "No heap allocation inside a query": after the first use of each shape
// (which may build a sat hull or a twin copy), queries and batches allocate
// nothing. Errors may (their message is a string).
// "No heap allocation inside step() after warm-up": once a world's buffers
// have grown to its pile's contacts, further steps allocate nothing, with
// sleeping off (every pair solved every step) and on (islands asleep, their
// points carried).
TEST(Api, AWarmWorldStepDoesNotAllocate) {
  for (const bool sleep : {false, true}) {
    Registry reg;
    api::World world(&reg);
    SceneError err;
    const int cube = reg.add(Shape::box({0.5, 0.5, 0.5}), &err), floor = reg.add(Shape::box({20, 0.5, 20}), &err);
    const double at[7] = {0, -0.5, 0, 0, 0, 0, 1};
    ASSERT_GT(world.add(floor, at, &err), 0) << err.message;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 4; ++k) {
          const double p[7] = {(i - 2) * 1.2, 0.5 + j * 1.01, (k - 2) * 1.2, 0, 0, 0, 1};
          const int id = world.add(cube, p, &err);
          ASSERT_TRUE(id > 0 && world.setMass(id, 1, &err)) << err.message;
        }
    StepSettings s;
    s.sleep = sleep;
    StepReport r;
    const long first = gAllocations.load();
    ASSERT_TRUE(world.step(s, &err, &r)) << err.message;
    EXPECT_GT(gAllocations.load() - first, 0);  // the counter sees a step's growth
    for (int step = 1; step < 120; ++step) ASSERT_TRUE(world.step(s, &err, &r)) << err.message;
    const int points = r.points;
    const long before = gAllocations.load();
    for (int step = 0; step < 60; ++step) ASSERT_TRUE(world.step(s, &err, &r)) << err.message;
    EXPECT_EQ(gAllocations.load() - before, 0) << (sleep ? "sleeping on" : "sleeping off");
    EXPECT_EQ(r.points, points);  // the same contacts: nothing new to make room for
    EXPECT_EQ(r.sleeping, sleep ? 64 : 0);
  }
}

TEST(Api, QueriesAndBatchesDoNotAllocate) {
  {  // the counter sees allocations at all
    const long b0 = gAllocations.load();
    std::vector<double> probe(1000, 1.0);
    EXPECT_GT(gAllocations.load() - b0, 0);
    EXPECT_EQ(probe.size(), 1000u);
  }
  ref::Rng rng(603);
  Fixture all(rng), withVertices(rng, true);
  for (int k = 0; k < kKinds; ++k) {
    const Kind kind = static_cast<Kind>(k);
    Fixture& f = kind == Kind::Sat ? withVertices : all;
    const int nShapes = static_cast<int>(f.handles.size());
    const std::vector<double> poses = randomPoses(rng, nShapes, 1.5);
    std::vector<std::uint32_t> pairs;
    for (int i = 0; i < nShapes; ++i)
      for (int j = 0; j < nShapes; ++j) {
        if (api::isSingleShape(kind) && j > 0) break;
        pairs.push_back(static_cast<std::uint32_t>(i));
        if (!api::isSingleShape(kind)) pairs.push_back(static_cast<std::uint32_t>(j));
      }
    const int n = static_cast<int>(pairs.size()) / (api::isSingleShape(kind) ? 1 : 2);
    std::vector<double> extras(static_cast<std::size_t>(api::kExtraSize * n));
    for (int q = 0; q < n; ++q) randomExtra(rng, kind, &extras[static_cast<std::size_t>(api::kExtraSize * q)]);
    std::vector<double> caches(static_cast<std::size_t>(api::kCacheSize * n), 0.0);
    std::vector<double> out(static_cast<std::size_t>(api::kResultStride[k] * n));
    SceneError err;
    auto runBatch = [&]() {
      return f.reg.batch(kind, f.handles.data(), nShapes, poses.data(), pairs.data(), n, extras.data(), caches.data(),
                         out.data(), &err);
    };
    ASSERT_TRUE(runBatch()) << err.message;  // warm-up: first use of every shape and pair
    const long before = gAllocations.load();
    ASSERT_TRUE(runBatch()) << err.message;
    double in[api::kInputSize];
    std::memcpy(in, poses.data(), sizeof(double) * 2 * api::kPoseSize);
    std::memcpy(in + 2 * api::kPoseSize, extras.data(), sizeof(double) * api::kExtraSize);
    ASSERT_TRUE(f.reg.query(kind, f.handles[0], f.handles[1], in, caches.data(), out.data(), &err));
    EXPECT_EQ(gAllocations.load() - before, 0) << api::kindName(kind) << ": " << n << " queries allocated";
  }
}

TEST(Api, BadArgumentsNameTheFieldAndWriteNothing) {
  Registry reg;
  SceneError err;
  const int a = reg.add(Shape::sphere(1), &err);
  const int b = reg.add(Shape::cylinder(1, 1), &err);
  double in[api::kInputSize] = {0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 1};
  double out[api::kMaxResultStride];
  struct Case {
    int index;
    double value;
    Kind kind;
    const char* field;
  };
  const Case cases[] = {
      {0, std::nan(""), Kind::Distance, "poseA[0]"},
      {8, INFINITY, Kind::Penetration, "poseB[1]"},
      {2, 2e15, Kind::Intersect, "poseA[2]"},
      {17, 0, Kind::Raycast, "ray.direction"},  // with direction (0,0,0)
      {20, -1, Kind::Raycast, "ray.maxT"},
      {15, -INFINITY, Kind::Shapecast, "motion[1]"},
      {14, std::nan(""), Kind::Contact, "options.margin"},
      {14, -1e-300, Kind::Contact, "options.margin"},
      {14, INFINITY, Kind::Contact, "options.margin"},
  };
  for (const Case& c : cases) {
    double bad[api::kInputSize];
    std::memcpy(bad, in, sizeof in);
    if (c.kind == Kind::Raycast) {
      bad[17] = 1;  // a valid ray along z, maxT 1
      bad[20] = 1;
      if (std::string(c.field) == "ray.direction") bad[17] = 0;
    }
    bad[c.index] = c.value;
    EXPECT_FALSE(reg.query(c.kind, a, b, bad, nullptr, out, &err)) << c.field;
    EXPECT_EQ(err.code, "invalid-argument") << c.field;
    EXPECT_EQ(err.field, c.field) << err.message;
  }
  // Zero quaternion.
  double zeroQ[api::kInputSize];
  std::memcpy(zeroQ, in, sizeof in);
  zeroQ[13] = 0;
  EXPECT_FALSE(reg.query(Kind::Distance, a, b, zeroQ, nullptr, out, &err));
  EXPECT_EQ(err.field, "poseB[3..6]");
  // SAT on a cylinder.
  EXPECT_FALSE(reg.query(Kind::Sat, a, b, in, nullptr, out, &err));
  EXPECT_EQ(err.field, "b.type");

  // Batches: a bad pose, a bad index or a disposed shape stop before anything is written.
  const int handles[] = {a, b};
  double poses[14] = {0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 1};
  std::uint32_t pairs[] = {0, 1, 1, 0};
  std::vector<double> batchOut(18, -7.0);
  poses[10] = std::nan("");
  EXPECT_FALSE(reg.batch(Kind::Distance, handles, 2, poses, pairs, 2, nullptr, nullptr, batchOut.data(), &err));
  EXPECT_EQ(err.field, "poses[1][3]");
  poses[10] = 0;
  pairs[3] = 2;
  EXPECT_FALSE(reg.batch(Kind::Distance, handles, 2, poses, pairs, 2, nullptr, nullptr, batchOut.data(), &err));
  EXPECT_EQ(err.field, "pairs[3]");
  pairs[3] = 0;
  reg.remove(b);
  EXPECT_FALSE(reg.batch(Kind::Distance, handles, 2, poses, pairs, 2, nullptr, nullptr, batchOut.data(), &err));
  EXPECT_EQ(err.code, "disposed");
  EXPECT_EQ(err.field, "shapes[1]");
  for (double v : batchOut) EXPECT_EQ(v, -7.0);

  // Contact batches: a bad margin names the pair's entry; a missing extras array is refused.
  reg.remove(a);
  const int c = reg.add(Shape::sphere(1), &err), d = reg.add(Shape::box({1, 1, 1}), &err);
  const int live[] = {c, d};
  std::vector<double> margins(2 * api::kExtraSize, 0.0);
  std::vector<double> contactOut(2 * api::kResultStride[static_cast<int>(Kind::Contact)], -7.0);
  for (double bad : {std::nan(""), -0.5, -HUGE_VAL, HUGE_VAL}) {
    margins[api::kExtraSize] = bad;
    EXPECT_FALSE(reg.batch(Kind::Contact, live, 2, poses, pairs, 2, margins.data(), nullptr, contactOut.data(), &err));
    EXPECT_EQ(err.code, "invalid-argument");
    EXPECT_EQ(err.field, "options.margins[1]") << bad;
  }
  EXPECT_FALSE(reg.batch(Kind::Contact, live, 2, poses, pairs, 2, nullptr, nullptr, contactOut.data(), &err));
  EXPECT_EQ(err.field, "options.margins");
  for (double v : contactOut) EXPECT_EQ(v, -7.0);
  margins[api::kExtraSize] = 0.25;
  EXPECT_TRUE(reg.batch(Kind::Contact, live, 2, poses, pairs, 2, margins.data(), nullptr, contactOut.data(), &err))
      << err.message;
  // Contact's scene carries the margin; it has no trace, and a margin the
  // scene format cannot hold is named.
  std::string json;
  double withMargin[api::kInputSize];
  std::copy(in, in + api::kInputSize, withMargin);
  withMargin[2 * api::kPoseSize] = 0.375;
  ASSERT_TRUE(reg.scene(Kind::Contact, c, d, withMargin, &json, &err)) << err.message;
  const JsonValue scene = parse(json);
  EXPECT_EQ(scene.find("query")->string, "contact");
  EXPECT_EQ(scene.find("margin")->number, 0.375);
  withMargin[2 * api::kPoseSize] = 2e15;
  EXPECT_FALSE(reg.scene(Kind::Contact, c, d, withMargin, &json, &err));
  EXPECT_EQ(err.field, "options.margin");
  EXPECT_FALSE(reg.trace(Kind::Contact, c, d, in, &json, &err));
  EXPECT_EQ(err.field, "query");
}

// Rotations are normalized exactly as the scene parser does: a pose with
// q = 2·(unit q) answers like the unit pose, and a unit q is kept bit for bit.
TEST(Api, PosesAreNormalizedLikeScenes) {
  Registry reg;
  SceneError err;
  const int a = reg.add(Shape::box({1, 0.5, 0.25}), &err);
  const int b = reg.add(Shape::box({0.3, 0.6, 0.9}), &err);
  const double s = std::sqrt(0.5);
  double unit[api::kInputSize] = {0, 0, 0, 0, 0, s, s, 1.7, 0.2, 0.1, s, 0, 0, s};
  double twice[api::kInputSize];
  std::memcpy(twice, unit, sizeof unit);
  for (int i = 3; i < 7; ++i) twice[i] *= 2;
  double o1[api::kMaxResultStride], o2[api::kMaxResultStride];
  ASSERT_TRUE(reg.query(Kind::Distance, a, b, unit, nullptr, o1, &err));
  ASSERT_TRUE(reg.query(Kind::Distance, a, b, twice, nullptr, o2, &err));
  for (int i = 0; i < api::kResultStride[1]; ++i) EXPECT_NEAR(o1[i], o2[i], 1e-14) << i;
  // And the scene of the unit pose holds the very same quaternion bits.
  std::string json;
  ASSERT_TRUE(reg.scene(Kind::Distance, a, b, unit, &json, &err));
  Scene scene;
  ASSERT_TRUE(parseScene(json, &scene, &err));
  EXPECT_TRUE(sameBits(scene.shapes[0].pose.rotation.z, s));
  EXPECT_TRUE(sameBits(scene.shapes[0].pose.rotation.w, s));
}

// setTolerance loosens the iterative queries' termination tests: answers on
// curved shapes stay within the tolerance of the default's (each query's
// error bound, gjk.h / epa.h: ε_rel·‖v‖ or ε_abs·S), take fewer iterations,
// and the default comes back bit for bit. Bad values change nothing.
TEST(Api, ToleranceTradesDigitsForIterations) {
  ref::Rng rng(611);
  Registry reg;
  SceneError err;
  EXPECT_EQ(reg.tolerance(), kDefaultTolerance);
  for (double bad : {std::nan(""), 0.0, -1e-4, static_cast<double>(INFINITY), 1e-16, 0.1}) {
    err = {};
    EXPECT_FALSE(reg.setTolerance(bad, &err)) << bad;
    EXPECT_EQ(err.field, "tolerance") << bad;
    EXPECT_EQ(err.code, "invalid-argument") << bad;
    EXPECT_EQ(reg.tolerance(), kDefaultTolerance) << bad;
  }
  const int a = reg.add(Shape::ellipsoid({1.0, 0.6, 0.4}), &err);
  const int b = reg.add(Shape::cylinder(0.5, 0.8), &err);
  const int c = reg.add(Shape::cone(0.7, 0.5), &err);
  ASSERT_GT(a, 0);
  ASSERT_GT(b, 0);
  ASSERT_GT(c, 0);
  constexpr double kLoose = 1e-4;
  constexpr int kTrials = 300;
  const int pairs[][2] = {{a, b}, {a, c}, {b, c}, {a, a}};
  long iterationsDefault = 0, iterationsLoose = 0;
  int compared = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const int* pair = pairs[trial % 4];
    double in[api::kInputSize] = {};
    randomPose(rng, in, 1.2);
    randomPose(rng, in + api::kPoseSize, 1.2);
    for (Kind kind : {Kind::Distance, Kind::Penetration}) {
      const int k = static_cast<int>(kind);
      double exact[api::kMaxResultStride], loose[api::kMaxResultStride], again[api::kMaxResultStride];
      ASSERT_TRUE(reg.setTolerance(kDefaultTolerance, &err));
      ASSERT_TRUE(reg.query(kind, pair[0], pair[1], in, nullptr, exact, &err)) << err.message;
      ASSERT_TRUE(reg.setTolerance(kLoose, &err));
      EXPECT_EQ(reg.tolerance(), kLoose);
      ASSERT_TRUE(reg.query(kind, pair[0], pair[1], in, nullptr, loose, &err)) << err.message;
      ASSERT_TRUE(reg.setTolerance(kDefaultTolerance, &err));
      ASSERT_TRUE(reg.query(kind, pair[0], pair[1], in, nullptr, again, &err)) << err.message;
      for (int i = 0; i < api::kResultStride[k]; ++i) EXPECT_TRUE(sameBits(exact[i], again[i])) << "field " << i;
      // Scale S: the largest coordinate of the posed shapes, at most the
      // spread 1.2 plus the largest extent 1.
      const double bound = kLoose * 2.2 + 1e-12;
      const double value = kind == Kind::Distance ? exact[0] : exact[1];
      const double looseValue = kind == Kind::Distance ? loose[0] : loose[1];
      EXPECT_LE(std::fabs(looseValue - value), bound) << api::kindName(kind) << " trial " << trial;
      // Iterations: the default certifies more digits, so it never stops earlier.
      const int it = api::kResultStride[k] - 2;
      iterationsDefault += static_cast<long>(exact[it]);
      iterationsLoose += static_cast<long>(loose[it]);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 2 * kTrials);
  EXPECT_LT(iterationsLoose, iterationsDefault);
}

// Mesh ray casts (mesh_raycast.h) allocate nothing either: the tree is
// built beforehand, the descent uses a fixed stack.
TEST(Api, MeshRayCastsDoNotAllocate) {
  TriangleMesh m;
  const int n = 40;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j)
      m.vertices.push_back({i * 0.1, std::sin(i * 0.3) * std::cos(j * 0.2), j * 0.1});
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const int a = i * (n + 1) + j;
      m.triangles.push_back({a, a + n + 1, a + n + 2});
      m.triangles.push_back({a, a + n + 2, a + 1});
    }
  ObbTree tree;
  ShapeError err;
  ASSERT_TRUE(buildObbTree(m, ObbTreeSettings{}, &tree, &err));
  ref::Rng rng(18);
  Transform pose;
  pose.position = {0.5, -1, 2};
  pose.rotation = {0, std::sin(0.3), 0, std::cos(0.3)};
  int hits = 0;
  const long before = gAllocations.load();
  for (int i = 0; i < 2000; ++i) {
    const Vec3 o{rng.uniform(-1, 5), 3, rng.uniform(-1, 5)};
    const Vec3 d{rng.uniform(-1, 1), -1, rng.uniform(-1, 1)};
    hits += rayCastMeshLocal(m, tree, o, d, 10.0).hit;
    hits += rayCastMeshLocal(m, tree, o, d, 10.0, MeshRayMode::Any).hit;
    hits += rayCastMesh(m, tree, pose, o, d, 10.0).hit;
  }
  EXPECT_EQ(gAllocations.load() - before, 0);
  EXPECT_GT(hits, 1000);
}

// A wavy 30 × 30 terrain of 1 800 triangles (the mesh allocation tests').
TriangleMesh wavyTerrain() {
  TriangleMesh m;
  const int n = 30;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) m.vertices.push_back({i * 0.1, std::sin(i * 0.3) * std::cos(j * 0.2), j * 0.1});
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const int a = i * (n + 1) + j;
      m.triangles.push_back({a, a + n + 1, a + n + 2});
      m.triangles.push_back({a, a + n + 2, a + 1});
    }
  return m;
}

// The mesh–convex queries (mesh_convex.h) allocate nothing: fixed stacks,
// contacts into the caller's buffer; every convex type and a plane.
TEST(Api, MeshConvexQueriesDoNotAllocate) {
  const TriangleMesh m = wavyTerrain();
  ObbTree tree;
  ShapeError err;
  ASSERT_TRUE(buildObbTree(m, ObbTreeSettings{}, &tree, &err));
  Transform pose;
  pose.position = {0.5, -1, 2};
  pose.rotation = {0, std::sin(0.3), 0, std::cos(0.3)};
  std::vector<Shape> shapes = {Shape::point(), Shape::sphere(0.2), Shape::box({0.2, 0.1, 0.3}),
                               Shape::capsule(0.1, 0.2), Shape::cylinder(0.2, 0.1), Shape::cone(0.2, 0.2),
                               Shape::ellipsoid({0.2, 0.1, 0.15}), Shape::segment({0, 0, 0}, {0.3, 0.1, 0}),
                               Shape::triangle({0, 0, 0}, {0.3, 0, 0}, {0, 0.3, 0.1}),
                               Shape::polytope({{0, 0, 0}, {0.3, 0, 0}, {0, 0.3, 0}, {0, 0, 0.3}, {0.2, 0.2, 0.2}}),
                               Shape::plane({0.1, 1, 0}, -0.5)};
  ref::Rng rng(19);
  MeshContact buf[64];
  int touching = 0, hits = 0;
  const long before = gAllocations.load();
  for (int i = 0; i < 300; ++i) {
    Shape& s = shapes[i % shapes.size()];
    s.pose.position = pose.apply({rng.uniform(0, 3), rng.uniform(-1, 1), rng.uniform(0, 3)});
    touching += meshConvexIntersect(m, tree, pose, s).intersecting;
    touching += meshConvexDistance(m, tree, pose, s).intersecting;
    touching += meshConvexContacts(m, tree, pose, s, 0.05, buf, 64).count > 0;
    hits += meshConvexShapeCast(m, tree, pose, s, {0, -1, 0.2}).hit;
  }
  EXPECT_EQ(gAllocations.load() - before, 0);
  EXPECT_GT(touching, 100);
  EXPECT_GT(hits, 50);
}

// A compound's child loop poses its children in copies the registry made
// when the shape was added: its queries, batches and contacts() allocate
// nothing either.
TEST(Api, CompoundQueriesDoNotAllocate) {
  ref::Rng rng(1805);
  std::vector<Shape> children;
  for (ShapeType t : ref::kAllTypes) {
    Shape c = ref::randomShape(rng, t, 0.5);
    c.pose.position = rng.inCube(1);
    c.pose.rotation = rng.rotation();
    children.push_back(c);
  }
  Shape compound;
  ShapeError shapeErr;
  ASSERT_TRUE(makeCompoundShape(children, &compound, &shapeErr)) << shapeErr.message;
  Registry reg;
  SceneError err;
  const int handles[3] = {reg.add(compound, &err), reg.add(compound, &err), reg.add(Shape::box({0.4, 0.3, 0.2}), &err)};
  const std::vector<double> poses = randomPoses(rng, 3, 0.8);
  const std::uint32_t pairs[8] = {0, 1, 0, 2, 2, 1, 0, 0};
  double extras[4 * api::kExtraSize], out[4 * api::kMaxResultStride], contacts[api::kContactsHeader + 64 * api::kContactSize];
  int features[8], contactFeatures[128];
  double in[api::kInputSize];
  std::memcpy(in, poses.data(), sizeof(double) * 2 * api::kPoseSize);
  long allocated = 0;
  int answered = 0;
  for (int round = 0; round < 2; ++round) {  // the first round is the warm-up
    const long before = gAllocations.load();
    for (int k = 0; k < kKinds; ++k) {
      const Kind kind = static_cast<Kind>(k);
      if (kind == Kind::ChungWang || kind == Kind::Sat) continue;
      for (int q = 0; q < 4; ++q) randomExtra(rng, kind, extras + api::kExtraSize * q);
      std::memcpy(in + 2 * api::kPoseSize, extras, sizeof(double) * api::kExtraSize);
      ASSERT_TRUE(reg.batch(kind, handles, 3, poses.data(), pairs, 4, extras, nullptr,
                            out, &err, features))
          << err.message;
      ASSERT_TRUE(reg.query(kind, handles[0], handles[1], in, nullptr, out, &err, features)) << err.message;
      answered += features[0] >= 0;
    }
    in[2 * api::kPoseSize] = 0.5;  // the margin
    ASSERT_TRUE(reg.contacts(handles[0], handles[2], in, contacts, 64, &err, contactFeatures)) << err.message;
    allocated = gAllocations.load() - before;
  }
  EXPECT_EQ(allocated, 0);
  EXPECT_GT(answered, 0);
}

// A mesh shape builds its OBB tree at its first query other than a ray
// cast (mesh_shape.h): ray casts before it allocate nothing, that first
// round allocates (the build), and every query, batch and contacts() after
// it allocates nothing.
TEST(Api, MeshQueriesDoNotAllocateOncePrepared) {
  const TriangleMesh m = wavyTerrain();
  Shape mesh;
  ShapeError shapeErr;
  ASSERT_TRUE(makeMeshShape(m, &mesh, &shapeErr)) << shapeErr.message;
  Registry reg;
  SceneError err;
  const int handles[3] = {reg.add(mesh, &err), reg.add(Shape::sphere(0.2), &err), reg.add(Shape::box({0.2, 0.1, 0.3}), &err)};
  const MeshShape& data = *reg.find(handles[0])->meshData;
  ref::Rng rng(1808);
  const double poses[21] = {0.2, -0.1, 0.1, 0, 0, 0, 1, 1.5, 0.1, 1.5, 0, 0, 0, 1, 1, 0, 2, 0, 0.6, 0, 0.8};
  const std::uint32_t pairs[8] = {0, 1, 2, 0, 0, 2, 1, 0};
  const std::uint32_t single[4] = {0, 0, 0, 0};
  double extras[4 * api::kExtraSize], out[4 * api::kMaxResultStride], contacts[api::kContactsHeader + 64 * api::kContactSize];
  int features[8];
  double in[api::kInputSize];
  std::memcpy(in, poses, sizeof(double) * 2 * api::kPoseSize);
  const auto answerAll = [&](bool rays) {
    for (Kind kind : {Kind::Raycast, Kind::Intersect, Kind::Distance, Kind::Shapecast, Kind::Project}) {
      if ((kind == Kind::Raycast) != rays) continue;
      for (int q = 0; q < 4; ++q) randomExtra(rng, kind, extras + api::kExtraSize * q);
      std::memcpy(in + 2 * api::kPoseSize, extras, sizeof(double) * api::kExtraSize);
      const bool one = api::isSingleShape(kind);
      ASSERT_TRUE(reg.batch(kind, handles, 3, poses, one ? single : pairs, 4, extras, nullptr, out, &err, features))
          << err.message;
      ASSERT_TRUE(reg.query(kind, handles[0], handles[1], in, nullptr, out, &err, features)) << err.message;
    }
    if (rays) return;
    in[2 * api::kPoseSize] = 0.5;  // the margin
    ASSERT_TRUE(reg.contacts(handles[0], handles[2], in, contacts, 64, &err)) << err.message;
  };
  answerAll(true);  // the registry's buffers for rays
  long before = gAllocations.load();
  answerAll(true);
  EXPECT_EQ(gAllocations.load() - before, 0) << "ray casts";
  EXPECT_FALSE(data.treeBuilt());
  before = gAllocations.load();
  answerAll(false);
  EXPECT_GT(gAllocations.load() - before, 0);  // the tree's build, and the contact buffer
  EXPECT_TRUE(data.treeBuilt());
  for (int round = 0; round < 2; ++round) {
    before = gAllocations.load();
    answerAll(false);
    answerAll(true);
    EXPECT_EQ(gAllocations.load() - before, 0) << "round " << round;
  }
}

}  // namespace
}  // namespace collidoscope
