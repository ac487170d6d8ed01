// The collision world (world.h): its pairs against brute force — intersect()
// on every pair of bodies, with no broad phase — on random worlds of every
// shape type, frame after frame of small moves, teleports, removals and
// re-insertions; its boxes against sampled surface points; the "pairs"
// scene against the scene path's own "intersect" on every pair; and the
// errors of bad poses, stale ids and disposed shapes, which change nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/json.h"
#include "collidoscope/mass.h"
#include "collidoscope/support.h"
#include "collidoscope/scene.h"
#include "collidoscope/world.h"
#include "mesh_gen.h"
#include "reference.h"
#include "scene_json.h"

namespace collidoscope {
namespace {

using api::Kind;
using api::Registry;
using api::World;
using scenejson::num;
using scenejson::vec;

// Shapes of every type, as scene-format JSON without a pose.
std::vector<std::string> shapeZoo() {
  meshgen::Rng mrng(7);
  const TriangleMesh soup = meshgen::randomSoup(mrng, 12, 0.8, 0.6);
  return {
      R"({"type":"point"})",
      R"({"type":"sphere","radius":0.5})",
      R"({"type":"box","halfExtents":[0.4,0.2,0.7]})",
      R"({"type":"box","halfExtents":[3,0.1,0.05]})",  // long and thin: its exact box matters
      R"({"type":"capsule","radius":0.2,"halfHeight":0.6})",
      R"({"type":"cylinder","radius":0.3,"halfHeight":0.4})",
      R"({"type":"cone","radius":0.4,"halfHeight":0.5})",
      R"({"type":"ellipsoid","radii":[0.6,0.3,0.2]})",
      R"({"type":"segment","points":[[-0.5,0,0],[0.7,0.2,0]]})",
      R"({"type":"triangle","points":[[0,0,0],[0.9,0,0],[0,0.6,0.3]]})",
      R"({"type":"polytope","points":[[0,0,0],[1,0,0],[0,1,0],[0,0,1],[0.3,0.3,0.3]],"margin":0.05})",
      R"({"type":"box","halfExtents":[0.3,0.3,0.3],"scale":[2,0.5,1]})",
      R"({"type":"compound","children":[{"type":"sphere","radius":0.3},{"type":"box","halfExtents":[0.2,0.2,0.2],"position":[0.6,0,0]}]})",
      scenejson::meshJson(soup),
      R"({"type":"heightfield","heights":[[0,0.1,0],[0.2,0,0.1],[0,0.1,0]],"cellSize":[0.5,0.5]})",
  };
}

Shape parseOne(const std::string& json) {
  Scene scene;
  SceneError err;
  const std::string text = R"({"version":1,"query":"pairs","shapes":[)" + json + "]}";
  EXPECT_TRUE(parseScene(text, &scene, &err)) << err.field << ": " << err.message << "\n" << text;
  return scene.shapes.at(0);
}

void randomPose(ref::Rng& rng, double spread, double* out) {
  const Vec3 p = rng.inCube(spread);
  const Quat q = rng.rotation();
  const double v[7] = {p.x, p.y, p.z, q.x, q.y, q.z, q.w};
  for (int i = 0; i < 7; ++i) out[i] = v[i];
}

// Brute force: intersect() on every pair of live slots, i < j.
std::vector<std::uint32_t> bruteForce(Registry& reg, World& world, const std::vector<int>& shapeOfSlot) {
  std::vector<std::uint32_t> out;
  for (int i = 0; i < world.slots(); ++i) {
    if (shapeOfSlot[static_cast<std::size_t>(i)] == 0) continue;
    for (int j = i + 1; j < world.slots(); ++j) {
      if (shapeOfSlot[static_cast<std::size_t>(j)] == 0) continue;
      double in[api::kInputSize] = {};
      for (int k = 0; k < 7; ++k) {
        in[k] = world.poses()[7 * i + k];
        in[7 + k] = world.poses()[7 * j + k];
      }
      double r[api::kMaxResultStride];
      SceneError err;
      EXPECT_TRUE(reg.query(Kind::Intersect, shapeOfSlot[static_cast<std::size_t>(i)],
                            shapeOfSlot[static_cast<std::size_t>(j)], in, nullptr, r, &err))
          << err.field << ": " << err.message;
      if (r[0] != 0) {
        out.push_back(static_cast<std::uint32_t>(i));
        out.push_back(static_cast<std::uint32_t>(j));
      }
    }
  }
  return out;
}

struct RandomWorld {
  Registry reg;
  World world;
  std::vector<int> handles;     // one per zoo shape
  std::vector<int> bodies;      // per slot: the body id, 0 when free
  std::vector<int> shapeOfSlot; // per slot: the shape handle, 0 when free

  explicit RandomWorld(bool withPlane, api::WorldBroadphase broadphase = api::WorldBroadphase::SweepAndPrune)
      : world(&reg, broadphase) {
    for (const std::string& s : shapeZoo()) {
      SceneError err;
      handles.push_back(reg.add(parseOne(s), &err));
      EXPECT_GT(handles.back(), 0) << err.message;
    }
    if (withPlane) {
      SceneError err;
      handles.push_back(reg.add(parseOne(R"({"type":"plane","normal":[0,1,0],"offset":-2})"), &err));
    }
  }
  void add(ref::Rng& rng, double spread) {
    double pose[7];
    randomPose(rng, spread, pose);
    const int shape = handles[static_cast<std::size_t>(rng.integer(0, static_cast<int>(handles.size()) - 1))];
    SceneError err;
    const int id = world.add(shape, pose, &err);
    ASSERT_GT(id, 0) << err.message;
    const int slot = world.slotOf(id);
    if (static_cast<int>(bodies.size()) <= slot) {
      bodies.resize(static_cast<std::size_t>(slot) + 1, 0);
      shapeOfSlot.resize(static_cast<std::size_t>(slot) + 1, 0);
    }
    bodies[static_cast<std::size_t>(slot)] = id;
    shapeOfSlot[static_cast<std::size_t>(slot)] = shape;
  }
  void check(const std::string& what) {
    std::vector<std::uint32_t> got;
    SceneError err;
    std::int64_t candidates = -1;
    ASSERT_TRUE(world.pairs(&got, &err, &candidates)) << err.field << ": " << err.message;
    const std::vector<std::uint32_t> want = bruteForce(reg, world, shapeOfSlot);
    EXPECT_EQ(got, want) << what;
    EXPECT_GE(candidates, static_cast<std::int64_t>(want.size() / 2)) << what;
  }
};

const api::WorldBroadphase kBroadphases[] = {api::WorldBroadphase::SweepAndPrune, api::WorldBroadphase::Tree};

TEST(World, PairsEqualBruteForceOnRandomWorlds) {
  for (api::WorldBroadphase bp : kBroadphases)
  for (int n : {0, 1, 2, 50, 300}) {
    for (bool plane : {false, true}) {
      ref::Rng rng(1000 + n + (plane ? 1 : 0));
      RandomWorld w(plane, bp);
      for (int i = 0; i < n; ++i) w.add(rng, 2 + std::cbrt(static_cast<double>(n)));
      w.check("n = " + std::to_string(n) + (plane ? " with a plane" : ""));
      if (n >= 50) {
        std::vector<std::uint32_t> pairs;
        SceneError err;
        ASSERT_TRUE(w.world.pairs(&pairs, &err));
        EXPECT_GT(pairs.size(), 0u) << "a random world this dense has overlapping pairs";
      }
    }
  }
}

TEST(World, PairsFollowMovesTeleportsRemovalsAndReinsertions) {
  for (api::WorldBroadphase bp : kBroadphases) {
  ref::Rng rng(42);
  RandomWorld w(true, bp);
  for (int i = 0; i < 120; ++i) w.add(rng, 5);
  for (int frame = 0; frame < 40; ++frame) {
    for (int slot = 0; slot < w.world.slots(); ++slot) {
      if (w.bodies[static_cast<std::size_t>(slot)] == 0) continue;
      double* p = w.world.poses() + 7 * slot;
      if (rng.uniform(0, 1) < 0.03) {
        randomPose(rng, 5, p);  // a teleport, written straight into the pose array
      } else {
        const Vec3 d = rng.inCube(0.05);
        p[0] += d.x;
        p[1] += d.y;
        p[2] += d.z;
        p[3] += rng.uniform(-0.02, 0.02);  // the world normalizes, as every query does
      }
    }
    if (frame % 5 == 2) {
      for (int k = 0; k < 6; ++k) {
        const int slot = rng.integer(0, w.world.slots() - 1);
        const int id = w.bodies[static_cast<std::size_t>(slot)];
        if (id == 0) continue;
        SceneError err;
        ASSERT_TRUE(w.world.remove(id, &err));
        w.bodies[static_cast<std::size_t>(slot)] = 0;
        w.shapeOfSlot[static_cast<std::size_t>(slot)] = 0;
      }
      for (int k = 0; k < 4; ++k) w.add(rng, 5);
    }
    w.check("frame " + std::to_string(frame));
  }
  }
}

TEST(World, PairsFollowAFewMovesAmongStillBodies) {
  // When few boxes moved since the last pairs (a world mostly at rest), the
  // world keeps the pairs of the others and tests the few against every
  // box; beyond one box in 16 it sweeps them all. Frames move 0 to 30 of
  // 300 bodies (nudges, teleports, once in a while a removal and an
  // insertion); every frame the pairs equal brute force, and the candidate
  // count the boxes' own: every pair of boxes that overlap, planes with all.
  for (api::WorldBroadphase bp : kBroadphases) {
    ref::Rng rng(77);
    RandomWorld w(true, bp);
    for (int i = 0; i < 300; ++i) w.add(rng, 2 + std::cbrt(300.0));
    for (int frame = 0; frame < 60; ++frame) {
      const int moves = frame % 4 == 0 ? 0 : rng.integer(1, frame % 3 == 0 ? 30 : 12);
      for (int k = 0; k < moves; ++k) {
        const int slot = rng.integer(0, w.world.slots() - 1);
        if (w.bodies[static_cast<std::size_t>(slot)] == 0) continue;
        double* p = w.world.poses() + 7 * slot;
        if (rng.uniform(0, 1) < 0.2) {
          randomPose(rng, 2 + std::cbrt(300.0), p);
        } else {
          const Vec3 d = rng.inCube(0.1);
          p[0] += d.x;
          p[1] += d.y;
          p[2] += d.z;
        }
      }
      if (frame % 10 == 7) {
        const int slot = rng.integer(0, w.world.slots() - 1);
        if (const int id = w.bodies[static_cast<std::size_t>(slot)]) {
          SceneError err;
          ASSERT_TRUE(w.world.remove(id, &err));
          w.bodies[static_cast<std::size_t>(slot)] = 0;
          w.shapeOfSlot[static_cast<std::size_t>(slot)] = 0;
        }
        w.add(rng, 2 + std::cbrt(300.0));
      }
      w.check("frame " + std::to_string(frame));
      std::vector<std::uint32_t> pairs;
      SceneError err;
      std::int64_t candidates = -1;
      ASSERT_TRUE(w.world.pairs(&pairs, &err, &candidates)) << err.message;
      std::int64_t boxes = 0;
      for (int a = 0; a < w.world.slots(); ++a)
        for (int b = a + 1; b < w.world.slots(); ++b) {
          if (w.bodies[static_cast<std::size_t>(a)] == 0 || w.bodies[static_cast<std::size_t>(b)] == 0) continue;
          if (w.world.unbounded(a) || w.world.unbounded(b)) {
            ++boxes;
            continue;
          }
          const Aabb &x = w.world.box(a), &y = w.world.box(b);
          bool meet = true;
          for (int k = 0; k < 3; ++k) meet = meet && x.min[k] <= y.max[k] && y.min[k] <= x.max[k];
          boxes += meet ? 1 : 0;
        }
      EXPECT_EQ(candidates, boxes) << "frame " << frame << ", " << moves << " moves";
    }
  }
}

TEST(World, TouchingBoxesArePairs) {
  Registry reg;
  World world(&reg);
  SceneError err;
  const int box = reg.add(parseOne(R"({"type":"box","halfExtents":[1,1,1]})"), &err);
  // Face to face, edge to edge and corner to corner at exactly touching poses.
  const double poses[4][7] = {{0, 0, 0, 0, 0, 0, 1}, {2, 0, 0, 0, 0, 0, 1}, {2, 2, 0, 0, 0, 0, 1}, {4, 2, 2, 0, 0, 0, 1}};
  for (const auto& p : poses) ASSERT_GT(world.add(box, p, &err), 0);
  std::vector<std::uint32_t> pairs;
  ASSERT_TRUE(world.pairs(&pairs, &err));
  const std::vector<std::uint32_t> want = {0, 1, 0, 2, 1, 2, 1, 3, 2, 3};
  EXPECT_EQ(pairs, want);
}

TEST(World, BoxesHoldEveryShapeAtEveryPose) {
  ref::Rng rng(5);
  RandomWorld w(false);
  for (int i = 0; i < 200; ++i) w.add(rng, 10);
  SceneError err;
  ASSERT_TRUE(w.world.sync(&err));
  for (int slot = 0; slot < w.world.slots(); ++slot) {
    Shape s = *w.reg.find(w.shapeOfSlot[static_cast<std::size_t>(slot)]);
    const double* p = w.world.poses() + 7 * slot;
    double q[4] = {p[3], p[4], p[5], p[6]};
    normalizeRotation(q);
    s.pose = Transform{{p[0], p[1], p[2]}, {q[0], q[1], q[2], q[3]}};
    const Aabb& b = w.world.box(slot);
    for (const Vec3& x : shapeSurface(s, 400)) {
      const double tol = 1e-9 * (1 + maxAbs(x));
      EXPECT_GE(x.x, b.min.x - tol);
      EXPECT_GE(x.y, b.min.y - tol);
      EXPECT_GE(x.z, b.min.z - tol);
      EXPECT_LE(x.x, b.max.x + tol);
      EXPECT_LE(x.y, b.max.y + tol);
      EXPECT_LE(x.z, b.max.z + tol);
    }
  }
  // A long thin box lying along x: its box is its own extent, not its ball's cube.
  Registry reg;
  World world(&reg);
  const int thin = reg.add(parseOne(R"({"type":"box","halfExtents":[3,0.1,0.05]})"), &err);
  const double pose[7] = {0, 0, 0, 0, 0, 0, 1};
  ASSERT_GT(world.add(thin, pose, &err), 0);
  ASSERT_TRUE(world.sync(&err));
  EXPECT_NEAR(world.box(0).max.y, 0.1, 1e-9);
  EXPECT_NEAR(world.box(0).min.z, -0.05, 1e-9);
}

TEST(World, BadPosesStaleIdsAndDisposedShapesAreErrorsThatChangeNothing) {
  Registry reg;
  World world(&reg);
  SceneError err;
  const int sphere = reg.add(Shape::sphere(1), &err);
  const double at0[7] = {0, 0, 0, 0, 0, 0, 1};
  const double at1[7] = {1.5, 0, 0, 0, 0, 0, 1};
  const int a = world.add(sphere, at0, &err);
  const int b = world.add(sphere, at1, &err);
  ASSERT_GT(a, 0);
  ASSERT_GT(b, 0);
  std::vector<std::uint32_t> pairs;
  ASSERT_TRUE(world.pairs(&pairs, &err));
  EXPECT_EQ(pairs, (std::vector<std::uint32_t>{0, 1}));

  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double badPose[7] = {0, nan, 0, 0, 0, 0, 1};
  EXPECT_EQ(world.add(sphere, badPose, &err), 0);
  EXPECT_EQ(err.field, "pose[1]");
  EXPECT_FALSE(world.setPose(a, badPose, &err));
  EXPECT_EQ(err.field, "pose[1]");
  const double zeroRotation[7] = {0, 0, 0, 0, 0, 0, 0};
  EXPECT_FALSE(world.setPose(a, zeroRotation, &err));
  EXPECT_EQ(err.field, "pose[3..6]");

  // A NaN written into the pose array: pairs() names it, and no box moved.
  world.poses()[7 * 1 + 0] = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(world.pairs(&pairs, &err));
  EXPECT_EQ(err.code, "invalid-argument");
  EXPECT_EQ(err.field, "poses[1][0]");
  world.poses()[7 * 1 + 0] = 1.5;
  ASSERT_TRUE(world.pairs(&pairs, &err));
  EXPECT_EQ(pairs, (std::vector<std::uint32_t>{0, 1}));

  // Stale and unknown ids.
  ASSERT_TRUE(world.remove(b, &err));
  EXPECT_FALSE(world.remove(b, &err));
  EXPECT_EQ(err.field, "body");
  EXPECT_FALSE(world.setPose(b, at1, &err));
  EXPECT_FALSE(world.remove(0, &err));
  EXPECT_FALSE(world.remove(-5, &err));
  const int c = world.add(sphere, at1, &err);  // reuses b's slot with a new generation
  EXPECT_EQ(world.slotOf(c), 1);
  EXPECT_NE(c, b);
  EXPECT_EQ(world.slotOf(b), -1);

  // A disposed shape cannot make a body, and a body whose shape was disposed is named.
  const int gone = reg.add(Shape::sphere(1), &err);
  ASSERT_TRUE(reg.remove(gone));
  EXPECT_EQ(world.add(gone, at0, &err), 0);
  EXPECT_EQ(err.field, "shape");
  const int box = reg.add(Shape::box({1, 1, 1}), &err);
  const int d = world.add(box, at0, &err);
  ASSERT_GT(d, 0);
  ASSERT_TRUE(reg.remove(box));
  EXPECT_FALSE(world.pairs(&pairs, &err));
  EXPECT_NE(err.message.find("disposed"), std::string::npos);
  EXPECT_EQ(err.field, "bodies[2].shape");
  ASSERT_TRUE(world.remove(d, &err));
  ASSERT_TRUE(world.pairs(&pairs, &err));
  EXPECT_EQ(pairs, (std::vector<std::uint32_t>{0, 1}));
}

TEST(World, ACrowdedWorldIsRefusedNotExhausted) {
  for (api::WorldBroadphase bp : kBroadphases) {
  Registry reg;
  World world(&reg, bp);
  SceneError err;
  const int sphere = reg.add(Shape::sphere(1), &err);
  const double at0[7] = {0, 0, 0, 0, 0, 0, 1};
  // n bodies in one place have n(n−1)/2 overlapping boxes: just over the cap.
  const int n = static_cast<int>(std::ceil(std::sqrt(2.0 * static_cast<double>(api::kMaxWorldPairs)))) + 2;
  for (int i = 0; i < n; ++i) ASSERT_GT(world.add(sphere, at0, &err), 0);
  std::vector<std::uint32_t> pairs;
  EXPECT_FALSE(world.pairs(&pairs, &err));
  EXPECT_NE(err.message.find("too crowded"), std::string::npos) << err.message;
  EXPECT_EQ(world.count(), n);
  // Spread out again, the same world answers.
  for (int slot = 0; slot < n; ++slot) world.poses()[7 * slot] = 3.0 * slot;
  ASSERT_TRUE(world.pairs(&pairs, &err)) << err.message;
  EXPECT_TRUE(pairs.empty());
  }
}

// The scene format's "pairs" against its own "intersect" on every pair of shapes.
TEST(World, PairsSceneEqualsIntersectScenes) {
  ref::Rng rng(9);
  const std::vector<std::string> zoo = shapeZoo();
  std::vector<std::string> shapes;
  for (int i = 0; i < 40; ++i) {
    double p[7];
    randomPose(rng, 2.5, p);
    std::string s = zoo[static_cast<std::size_t>(rng.integer(0, static_cast<int>(zoo.size()) - 1))];
    s.pop_back();
    s += ",\"position\":[" + num(p[0]) + "," + num(p[1]) + "," + num(p[2]) + "],\"rotation\":[" + num(p[3]) + "," +
         num(p[4]) + "," + num(p[5]) + "," + num(p[6]) + "]}";
    shapes.push_back(s);
  }
  std::string all;
  for (const std::string& s : shapes) all += (all.empty() ? "" : ",") + s;
  Scene scene;
  SceneError err;
  ASSERT_TRUE(parseScene(R"({"version":1,"query":"pairs","shapes":[)" + all + "]}", &scene, &err)) << err.message;
  std::string json;
  ASSERT_TRUE(runScene(scene, false, &json, &err)) << err.field << ": " << err.message;
  JsonValue result;
  std::string why;
  ASSERT_TRUE(parseJson(json, &result, &why)) << why;
  std::vector<std::array<int, 2>> got;
  for (const JsonValue& p : result.find("pairs")->items)
    got.push_back({static_cast<int>(p.items[0].number), static_cast<int>(p.items[1].number)});

  std::vector<std::array<int, 2>> want;
  for (std::size_t i = 0; i < shapes.size(); ++i)
    for (std::size_t j = i + 1; j < shapes.size(); ++j) {
      Scene pair;
      ASSERT_TRUE(parseScene(R"({"version":1,"query":"intersect","shapes":[)" + shapes[i] + "," + shapes[j] + "]}",
                             &pair, &err));
      std::string out;
      ASSERT_TRUE(runScene(pair, false, &out, &err)) << err.field << ": " << err.message;
      JsonValue r;
      ASSERT_TRUE(parseJson(out, &r, &why));
      if (r.find("intersecting")->boolean) want.push_back({static_cast<int>(i), static_cast<int>(j)});
    }
  EXPECT_EQ(got, want);
  EXPECT_GT(want.size(), 3u);
  EXPECT_GE(result.find("candidates")->number, static_cast<double>(want.size()));
}

TEST(World, PairsSceneErrors) {
  Scene scene;
  SceneError err;
  ASSERT_TRUE(parseScene(R"({"version":1,"query":"pairs","shapes":[]})", &scene, &err)) << err.message;
  std::string json;
  ASSERT_TRUE(runScene(scene, false, &json, &err));
  EXPECT_EQ(json, R"({"pairs":[],"candidates":0})");
  // The trace (sap_view.h, tested in test_sap_view.cpp) of no shapes: no pairs, and no sweep.
  EXPECT_TRUE(runScene(scene, true, &json, &err)) << err.message;
  EXPECT_NE(json.find(R"("result":{"pairs":[],"candidates":0})"), std::string::npos) << json;
  EXPECT_FALSE(parseScene(R"({"version":1,"query":"pairs","shapes":[{"type":"sphere","radius":-1}]})", &scene, &err));
  EXPECT_EQ(err.field, "shapes[0].radius");
  EXPECT_FALSE(parseScene(R"({"version":1,"query":"pairs"})", &scene, &err));
  EXPECT_EQ(err.field, "shapes");
}

}  // namespace
}  // namespace collidoscope

// ------------------------------------------------------------ motion

namespace collidoscope {
namespace {

using api::World;

struct Motion {
  Registry reg;
  World world{&reg};
  SceneError err;
  int add(const Shape& s, const Vec3& at, double mass) {
    const int h = reg.add(s, &err);
    const double pose[7] = {at.x, at.y, at.z, 0, 0, 0, 1};
    const int id = world.add(h, pose, &err);
    EXPECT_GT(id, 0) << err.message;
    if (mass != 0) {
      EXPECT_TRUE(world.setMass(id, mass, &err)) << err.field << ": " << err.message;
    }
    return id;
  }
  const double* pose(int id) { return world.poses() + 7 * world.slotOf(id); }
  double* velocity(int id) { return world.velocities() + 6 * world.slotOf(id); }
};

TEST(WorldMotion, FreeFallIsTheIntegratorsClosedForm) {
  Motion m;
  const int ball = m.add(Shape::sphere(0.5), {0, 100, 0}, 2.0);
  m.velocity(ball)[0] = 3;
  m.velocity(ball)[1] = 1;
  StepSettings s;
  const int n = 120;
  for (int i = 0; i < n; ++i) ASSERT_TRUE(m.world.step(s, &m.err)) << m.err.message;
  // Semi-implicit Euler in S substeps of h = dt/S: v_k = v0 + g·h·k, x_N = x0 + v0·N·h + g·h²·N(N+1)/2, N = n·S.
  const double h = s.dt / s.substeps;
  const double N = static_cast<double>(n) * s.substeps;
  EXPECT_NEAR(m.pose(ball)[1], 100 + 1 * N * h + s.gravity.y * h * h * N * (N + 1) / 2, 1e-9);
  EXPECT_NEAR(m.pose(ball)[0], 3 * N * h, 1e-9);
  EXPECT_NEAR(m.velocity(ball)[1], 1 + s.gravity.y * h * N, 1e-9);
}

TEST(WorldMotion, AStackOfTenBoxesStandsForTenSeconds) {
  for (api::WorldBroadphase bp : {api::WorldBroadphase::SweepAndPrune, api::WorldBroadphase::Tree}) {
    Registry reg;
    World world(&reg, bp);
    SceneError err;
    const int floor = reg.add(Shape::box({10, 0.5, 10}), &err);
    const int cube = reg.add(Shape::box({0.5, 0.5, 0.5}), &err);
    const double floorPose[7] = {0, -0.5, 0, 0, 0, 0, 1};
    ASSERT_GT(world.add(floor, floorPose, &err), 0);
    std::vector<int> boxes;
    for (int i = 0; i < 10; ++i) {
      const double pose[7] = {0, 0.5 + i, 0, 0, 0, 0, 1};
      boxes.push_back(world.add(cube, pose, &err));
      ASSERT_TRUE(world.setMass(boxes.back(), 1, &err)) << err.message;
    }
    StepSettings s;
    double worstHeight = 0, worstSide = 0;
    for (int step = 0; step < 600; ++step) {
      ASSERT_TRUE(world.step(s, &err)) << err.field << ": " << err.message;
      for (int i = 0; i < 10; ++i) {
        const double* p = world.poses() + 7 * world.slotOf(boxes[static_cast<std::size_t>(i)]);
        worstHeight = std::fmax(worstHeight, std::fabs(p[1] - (0.5 + i)));
        worstSide = std::fmax(worstSide, std::hypot(p[0], p[2]));
      }
    }
    EXPECT_LT(worstHeight, 0.01);
    EXPECT_LT(worstSide, 0.01);
    EXPECT_FALSE(world.contacts().empty());
  }
}

TEST(WorldMotion, AThousandBoxPileStaysPiled) {
  // bench/world.mjs's pile: 1 000 unit boxes (mass 1) in a 10 × 10 × 10 grid
  // 1.2 apart, the lowest 1 above a static floor, fall into 100 columns of
  // ten. After 3 s each box rests on the one below it in its own column:
  // within 0.1 of the column's axis (half the 0.2 gap to the next column),
  // at its layer's height y = 0.5 + j within 1 cm, barely turned. Sleep off,
  // the solver alone keeps it there: over 3 s more no box moves more than
  // 5 cm. Sleep on (the default), the same pile is all asleep at 3 s.
  for (bool sleep : {false, true}) {
    Registry reg;
    World world(&reg);
    SceneError err;
    const int floor = reg.add(Shape::box({50, 0.5, 50}), &err);
    const int cube = reg.add(Shape::box({0.5, 0.5, 0.5}), &err);
    const double floorPose[7] = {0, -0.5, 0, 0, 0, 0, 1};
    ASSERT_GT(world.add(floor, floorPose, &err), 0);
    struct Box {
      int id;
      double x, z;
      int layer;
    };
    std::vector<Box> boxes;
    for (int i = 0; i < 10; ++i)
      for (int j = 0; j < 10; ++j)
        for (int k = 0; k < 10; ++k) {
          const double pose[7] = {(i - 5) * 1.2, 1.5 + j * 1.2, (k - 5) * 1.2, 0, 0, 0, 1};
          boxes.push_back({world.add(cube, pose, &err), pose[0], pose[2], j});
          ASSERT_TRUE(world.setMass(boxes.back().id, 1, &err)) << err.message;
        }
    StepSettings s;
    s.sleep = sleep;
    StepReport report;
    for (int step = 0; step < 180; ++step) ASSERT_TRUE(world.step(s, &err, &report)) << err.message;
    double side = 0, height = 0, turn = 0;
    std::vector<double> at;
    for (const Box& b : boxes) {
      const double* p = world.poses() + 7 * world.slotOf(b.id);
      side = std::fmax(side, std::hypot(p[0] - b.x, p[2] - b.z));
      height = std::fmax(height, std::fabs(p[1] - (0.5 + b.layer)));
      turn = std::fmax(turn, 2 * std::atan2(std::sqrt(p[3] * p[3] + p[4] * p[4] + p[5] * p[5]), std::fabs(p[6])));
      at.insert(at.end(), p, p + 3);
    }
    std::printf("pile of 1000 (sleep %s) at 3 s: %.3g m off its column at most, %.3g m off its layer, turned %.3g rad, "
                "%d asleep\n", sleep ? "on" : "off", side, height, turn, report.sleeping);
    EXPECT_LT(side, 0.1);
    EXPECT_LT(height, 0.01);
    EXPECT_LT(turn, 0.05);
    if (sleep) {
      EXPECT_EQ(report.sleeping, 1000);
      continue;
    }
    double moved = 0;
    for (int step = 0; step < 180; ++step) {
      ASSERT_TRUE(world.step(s, &err)) << err.message;
      for (std::size_t i = 0; i < boxes.size(); ++i) {
        const double* p = world.poses() + 7 * world.slotOf(boxes[i].id);
        moved = std::fmax(moved, std::hypot(p[0] - at[3 * i], p[1] - at[3 * i + 1], p[2] - at[3 * i + 2]));
      }
    }
    std::printf("pile of 1000 (sleep off): moved at most %.3g m over 3 s more\n", moved);
    EXPECT_LT(moved, 0.05);
  }
}

TEST(WorldMotion, AddingOrRemovingABodyWakesOnlyTheIslandsItTouched) {
  // Two stacks of three boxes, 10 m apart, on a static floor, with a static
  // bystander far off in a low slot (so that removing it renumbers every
  // body after it). Both stacks fall asleep; then bodies come and go.
  Motion m;
  const int floor = m.add(Shape::box({20, 0.5, 20}), {0, -0.5, 0}, 0);
  const int bystander = m.add(Shape::box({0.5, 0.5, 0.5}), {0, 0.5, 15}, 0);
  std::vector<int> stackA, stackB;
  for (int i = 0; i < 3; ++i) {
    stackA.push_back(m.add(Shape::box({0.5, 0.5, 0.5}), {-5, 0.5 + i, 0}, 1));
    stackB.push_back(m.add(Shape::box({0.5, 0.5, 0.5}), {5, 0.5 + i, 0}, 1));
  }
  StepSettings s;
  StepReport r;
  int steps = 0;
  for (; steps < 300 && r.sleeping < 6; ++steps) ASSERT_TRUE(m.world.step(s, &m.err, &r)) << m.err.message;
  ASSERT_EQ(r.sleeping, 6) << "after " << steps << " steps";
  const auto posesOf = [&](const std::vector<int>& ids) {
    std::vector<double> out;
    for (int id : ids) out.insert(out.end(), m.pose(id), m.pose(id) + 7);
    return out;
  };
  // The slots of the bodies in the last step's contacts, as pairs.
  const auto contactPairs = [&] {
    std::set<std::pair<int, int>> out;
    for (const SolverContact& c : m.world.contacts()) out.insert({std::min(c.a, c.b), std::max(c.a, c.b)});
    return out;
  };
  const std::vector<double> restA = posesOf(stackA), restB = posesOf(stackB);
  const std::set<std::pair<int, int>> asleepPairs = contactPairs();
  ASSERT_EQ(asleepPairs.size(), 6u);  // floor–bottom and box–box, per stack

  // A dynamic ball dropped far from both stacks, and a static wall: both stay asleep.
  const int ball = m.add(Shape::sphere(0.5), {0, 10, -10}, 1);
  m.add(Shape::box({0.2, 2, 2}), {0, 2, 8}, 0);
  ASSERT_TRUE(m.world.step(s, &m.err, &r)) << m.err.message;
  EXPECT_EQ(r.sleeping, 6);
  EXPECT_EQ(contactPairs(), asleepPairs);  // the sleeping points, under their own bodies' slots
  // The bystander leaves: every later body is renumbered, and nothing wakes.
  ASSERT_TRUE(m.world.remove(bystander, &m.err)) << m.err.message;
  for (int k = 0; k < 60; ++k) {
    ASSERT_TRUE(m.world.step(s, &m.err, &r)) << m.err.message;
    EXPECT_EQ(r.sleeping, 6) << "step " << k;
  }
  EXPECT_EQ(posesOf(stackA), restA);  // asleep: not moved by a single bit
  EXPECT_EQ(posesOf(stackB), restB);
  EXPECT_LT(m.pose(ball)[1], 6);  // the ball falls meanwhile (awake, still in the air)

  // Stack A's middle box is taken out: its island wakes (the top box falls
  // onto the bottom one), stack B sleeps on.
  ASSERT_TRUE(m.world.remove(stackA[1], &m.err)) << m.err.message;
  ASSERT_TRUE(m.world.step(s, &m.err, &r)) << m.err.message;
  EXPECT_EQ(r.sleeping, 3);
  for (int k = 0; k < 60; ++k) ASSERT_TRUE(m.world.step(s, &m.err, &r)) << m.err.message;
  EXPECT_NEAR(m.pose(stackA[2])[1], 1.5, 0.02);  // on the bottom box now
  EXPECT_EQ(posesOf(stackB), restB);
  (void)floor;
}

TEST(WorldMotion, ASleepingPilesStepIsTheFullStepBitForBit) {
  // A world whose bodies are all asleep skips work: its broad phase keeps
  // its pairs while no box moved, and its solver keeps its contacts while
  // nobody is awake over the same pairs. The reference is the same world
  // made to do the full step each time: a far static body added and
  // removed before every step renumbers the solver's bodies (to the same
  // numbers) and re-inserts a box into the broad phase, so neither may keep
  // anything. Nine columns of three boxes fall asleep; later a box dropped
  // on one column wakes it (and it alone); every step, both worlds' poses,
  // velocities, contacts and reports agree to the bit.
  Motion fast, full;
  for (Motion* m : {&fast, &full}) {
    m->add(Shape::box({20, 0.5, 20}), {0, -0.5, 0}, 0);
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k)
        for (int j = 0; j < 3; ++j) m->add(Shape::box({0.5, 0.5, 0.5}), {(i - 1) * 1.5, 0.6 + j * 1.1, (k - 1) * 1.5}, 1);
  }
  const int far = full.reg.add(Shape::sphere(0.5), &full.err);
  const double farPose[7] = {100, 100, 100, 0, 0, 0, 1};
  StepSettings s;
  const auto same = [](const SolverContact& x, const SolverContact& y) {
    return x.a == y.a && x.b == y.b && x.id == y.id && x.pointA == y.pointA && x.pointB == y.pointB &&
           x.anchorA == y.anchorA && x.normal == y.normal && x.distance == y.distance &&
           x.normalImpulse == y.normalImpulse && x.frictionImpulse == y.frictionImpulse && x.warmStarted == y.warmStarted;
  };
  int allAsleep = 0, woken = 0;
  const auto run = [&](int steps, std::vector<int>* sleeping) {
    for (int step = 0; step < steps; ++step) {
      const int id = full.world.add(far, farPose, &full.err);
      ASSERT_GT(id, 0) << full.err.message;
      ASSERT_TRUE(full.world.remove(id, &full.err)) << full.err.message;
      StepReport a, b;
      ASSERT_TRUE(fast.world.step(s, &fast.err, &a)) << fast.err.message;
      ASSERT_TRUE(full.world.step(s, &full.err, &b)) << full.err.message;
      ASSERT_LE(fast.world.slots(), full.world.slots());  // (full's last may be the far body's, free)
      for (int i = 0; i < 7 * fast.world.slots(); ++i) ASSERT_EQ(fast.world.poses()[i], full.world.poses()[i]) << "step " << step;
      for (int i = 0; i < 6 * fast.world.slots(); ++i)
        ASSERT_EQ(fast.world.velocities()[i], full.world.velocities()[i]) << "step " << step;
      ASSERT_EQ(fast.world.contacts().size(), full.world.contacts().size()) << "step " << step;
      for (std::size_t k = 0; k < fast.world.contacts().size(); ++k)
        ASSERT_TRUE(same(fast.world.contacts()[k], full.world.contacts()[k])) << "step " << step << ", contact " << k;
      ASSERT_EQ(std::make_tuple(a.manifolds, a.points, a.warmStarted, a.reusedManifolds, a.ccdClamped, a.sleeping),
                std::make_tuple(b.manifolds, b.points, b.warmStarted, b.reusedManifolds, b.ccdClamped, b.sleeping))
          << "step " << step;
      sleeping->push_back(a.sleeping);
      if (a.sleeping == 27) ++allAsleep;
    }
  };
  std::vector<int> sleeping;
  run(150, &sleeping);
  ASSERT_EQ(sleeping.back(), 27);
  EXPECT_GE(allAsleep, 30);  // steps with the whole pile asleep: the ones that skip
  const std::vector<double> rest(fast.world.poses(), fast.world.poses() + 7 * fast.world.slots());
  // A box dropped onto the middle column: it wakes that column's island only.
  for (Motion* m : {&fast, &full}) {
    const int box = m->add(Shape::box({0.5, 0.5, 0.5}), {0, 4.5, 0}, 1);
    m->velocity(box)[1] = -2;
  }
  sleeping.clear();
  run(120, &sleeping);
  for (int v : sleeping) woken = std::max(woken, 27 - v);
  EXPECT_EQ(woken, 3);  // the middle column (the dropped box is not counted until it sleeps)
  EXPECT_EQ(sleeping.back(), 28);
  // The other columns did not move by a bit.
  for (int slot = 1; slot <= 27; ++slot) {
    const int column = (slot - 1) / 3;
    if (column == 4) continue;
    for (int i = 0; i < 7; ++i) EXPECT_EQ(fast.world.poses()[7 * slot + i], rest[7 * slot + i]) << "slot " << slot;
  }
}

TEST(WorldMotion, ContactsNameSlotsWithAndWithoutAnEmptySlot) {
  // Two boxes on a floor, far apart: each touches only the floor. Their
  // contacts name the slots (the solver's indices are the same until a slot
  // empties), and once the first box is removed, the second's still name
  // the second's slot, not its new index in the solver.
  Motion m;
  const int floor = m.add(Shape::box({20, 0.5, 20}), {0, -0.5, 0}, 0);
  const int first = m.add(Shape::box({0.5, 0.5, 0.5}), {-5, 0.5, 0}, 1);
  const int second = m.add(Shape::box({0.5, 0.5, 0.5}), {5, 0.5, 0}, 1);
  StepSettings s;
  s.sleep = false;
  const auto touching = [&] {
    std::set<std::pair<int, int>> out;
    for (const SolverContact& c : m.world.contacts()) {
      out.insert({c.a, c.b});
      // The point on b lies on b's bottom face: x within its half-extent
      // of the centre at that slot's pose (which the step moved by microns;
      // the other box is 10 m away).
      EXPECT_NEAR(c.pointB.x, m.world.poses()[7 * c.b], 0.5 + 1e-3);
    }
    return out;
  };
  ASSERT_TRUE(m.world.step(s, &m.err)) << m.err.message;
  const int f = m.world.slotOf(floor), a = m.world.slotOf(first), b = m.world.slotOf(second);
  EXPECT_EQ(touching(), (std::set<std::pair<int, int>>{{f, a}, {f, b}}));
  ASSERT_TRUE(m.world.remove(first, &m.err)) << m.err.message;
  ASSERT_TRUE(m.world.step(s, &m.err)) << m.err.message;
  EXPECT_EQ(m.world.slotOf(second), b);
  EXPECT_EQ(touching(), (std::set<std::pair<int, int>>{{f, b}}));
}

TEST(WorldMotion, AddingABodyKeepsTheWarmStart) {
  // Sleep off: a resting stack is solved every step, each point warm started
  // from the last step's impulses. A body added far away keeps it so.
  Motion m;
  m.add(Shape::box({20, 0.5, 20}), {0, -0.5, 0}, 0);
  for (int i = 0; i < 3; ++i) m.add(Shape::box({0.5, 0.5, 0.5}), {0, 0.5 + i, 0}, 1);
  StepSettings s;
  s.sleep = false;
  StepReport r;
  for (int k = 0; k < 60; ++k) ASSERT_TRUE(m.world.step(s, &m.err, &r)) << m.err.message;
  ASSERT_GT(r.points, 0);
  ASSERT_EQ(r.warmStarted, r.points);
  const int points = r.points;
  m.add(Shape::sphere(0.5), {10, 0.5, 0}, 0);
  ASSERT_TRUE(m.world.step(s, &m.err, &r)) << m.err.message;
  EXPECT_EQ(r.points, points);
  EXPECT_EQ(r.warmStarted, points);
}

TEST(WorldMotion, AMassChangeDropsTheWarmStartOfItsPairs) {
  // A stack of heavy boxes at rest, then the top one made a million times
  // lighter. The impulses its contact carried (its old weight over a
  // substep, m·g·h ≈ 41 N·s) would throw it at 4·10⁴ m/s if warm started
  // on the light body; solved afresh, no point pushes faster than the soft
  // contact's push speed, so no box moves faster than that plus a step of
  // gravity. With sleep on, the stack is asleep by then and the mass change
  // wakes it (a sleeping body keeps its velocity of 0 otherwise).
  for (const bool sleep : {false, true}) {
    Motion m;
    m.add(Shape::box({20, 0.5, 20}), {0, -0.5, 0}, 0);
    std::vector<int> boxes;
    for (int i = 0; i < 3; ++i) boxes.push_back(m.add(Shape::box({0.5, 0.5, 0.5}), {0, 0.5 + i, 0}, 1000));
    StepSettings s;
    s.sleep = sleep;
    StepReport r;
    for (int k = 0; k < 90; ++k) ASSERT_TRUE(m.world.step(s, &m.err, &r)) << m.err.message;
    if (sleep) {
      ASSERT_EQ(r.sleeping, 3) << "the stack fell asleep";
    }
    ASSERT_TRUE(m.world.setMass(boxes.back(), 1e-3, &m.err)) << m.err.message;
    ASSERT_TRUE(m.world.step(s, &m.err, &r)) << m.err.message;
    if (sleep) {
      EXPECT_EQ(r.sleeping, 0) << "the mass change woke the stack";
    }
    const double bound = s.contactPushSpeed + std::fabs(s.gravity.y) * s.dt;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      const double* v = m.velocity(boxes[i]);
      EXPECT_LE(std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), bound) << "sleep " << sleep << ", box " << i;
      EXPECT_NEAR(m.pose(boxes[i])[1], 0.5 + static_cast<double>(i), 0.05) << "sleep " << sleep << ", box " << i;
    }
  }
}

TEST(WorldMotion, AFastSphereDoesNotPassThroughAThinWall) {
  for (bool continuous : {true, false}) {
    Motion m;
    m.add(Shape::box({0.025, 2, 2}), {0, 0, 0}, 0);
    const int ball = m.add(Shape::sphere(0.1), {-1, 0, 0}, 1);
    m.velocity(ball)[0] = 100;
    StepSettings s;
    s.gravity = {0, 0, 0};
    s.continuous = continuous;
    double largest = -1e9;
    for (int i = 0; i < 60; ++i) {
      ASSERT_TRUE(m.world.step(s, &m.err)) << m.err.message;
      largest = std::fmax(largest, m.pose(ball)[0]);
    }
    // The ball's surface touches the wall at x = −0.125; without continuous collision it tunnels.
    if (continuous) EXPECT_LE(largest, -0.125 + 1e-6);
    else EXPECT_GT(largest, 1.0);
  }
}

TEST(WorldMotion, EnergyDoesNotGrow) {
  Motion m;
  m.add(Shape::plane({0, 1, 0}, 0), {0, 0, 0}, 0);
  const int crate = m.add(Shape::box({0.4, 0.3, 0.2}), {0, 2, 0}, 3);
  const int ball = m.add(Shape::sphere(0.3), {1, 3, 0}, 1);
  m.velocity(crate)[0] = 2;
  m.velocity(crate)[3] = 3;
  m.velocity(crate)[5] = -2;
  m.velocity(ball)[2] = -1;
  StepSettings s;
  // Kinetic (translation and rotation, the inertia from mass.h at the body's density) plus potential
  // energy of the centre of mass (a box's and a sphere's centre is their origin).
  auto energy = [&] {
    double e = 0;
    for (int id : {crate, ball}) {
      const double* v = m.velocity(id);
      const double* p = m.pose(id);
      const double mass = m.world.mass(id);
      MassProperties unit;
      EXPECT_TRUE(massProperties(id == crate ? Shape::box({0.4, 0.3, 0.2}) : Shape::sphere(0.3), 1.0, &unit));
      const Mat3 r = Mat3::rotation(Quat{p[3], p[4], p[5], p[6]});
      const Mat3 inertia = r * (unit.inertia * (mass / unit.mass)) * r.transposed();
      const Vec3 w{v[3], v[4], v[5]};
      e += 0.5 * mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + 0.5 * dot(w, inertia * w) - mass * s.gravity.y * p[1];
    }
    return e;
  };
  const double start = energy();
  double last = start;
  int grew = 0;
  for (int i = 0; i < 600; ++i) {
    ASSERT_TRUE(m.world.step(s, &m.err)) << m.err.message;
    const double e = energy();
    // Between steps, beyond rounding (1e-9 of the energy at the start).
    if (e > last + 1e-9 * start) ++grew;
    last = e;
  }
  EXPECT_EQ(grew, 0);
  EXPECT_LT(last, start);
}

TEST(WorldMotion, BadVelocitiesMassesAndSettingsAreErrorsThatChangeNothing) {
  Motion m;
  const int plane = m.add(Shape::plane({0, 1, 0}, 0), {0, 0, 0}, 0);
  const int ball = m.add(Shape::sphere(0.5), {0, 2, 0}, 1);
  SceneError& err = m.err;
  EXPECT_FALSE(m.world.setMass(plane, 1, &err));
  EXPECT_EQ(err.field, "mass");
  EXPECT_NE(err.message.find("static"), std::string::npos) << err.message;
  EXPECT_FALSE(m.world.setMass(ball, -2, &err));
  EXPECT_EQ(err.field, "mass");
  EXPECT_FALSE(m.world.setMass(ball, std::nan(""), &err));
  const int dot = m.add(Shape::point(), {5, 5, 5}, 0);
  EXPECT_FALSE(m.world.setMass(dot, 1, &err));
  EXPECT_NE(err.message.find("volume"), std::string::npos) << err.message;
  EXPECT_DOUBLE_EQ(m.world.mass(ball), 1);

  std::vector<double> poses(m.world.poses(), m.world.poses() + 7 * m.world.slots());
  m.velocity(ball)[4] = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(m.world.step(StepSettings{}, &err));
  EXPECT_EQ(err.field, "velocities[1][4]");
  EXPECT_EQ(std::vector<double>(m.world.poses(), m.world.poses() + 7 * m.world.slots()), poses);
  m.velocity(ball)[4] = 0;
  StepSettings bad;
  bad.dt = 0;
  EXPECT_FALSE(m.world.step(bad, &err));
  EXPECT_EQ(err.field, "settings.dt");
  bad = StepSettings{};
  bad.gravity.y = std::nan("");
  EXPECT_FALSE(m.world.step(bad, &err));
  EXPECT_EQ(err.field, "settings.gravity[1]");
  bad = StepSettings{};
  bad.friction = -1;
  EXPECT_FALSE(m.world.step(bad, &err));
  EXPECT_EQ(err.field, "settings");
  EXPECT_EQ(std::vector<double>(m.world.poses(), m.world.poses() + 7 * m.world.slots()), poses);
  ASSERT_TRUE(m.world.step(StepSettings{}, &err)) << err.message;
  EXPECT_LT(m.pose(ball)[1], 2.0);  // it falls once the step is valid
}

}  // namespace
}  // namespace collidoscope

// ------------------------------------------------------------ the "simulate" scene

namespace collidoscope {
namespace {

JsonValue runJson(const std::string& text, bool trace = false) {
  Scene scene;
  SceneError err;
  EXPECT_TRUE(parseScene(text, &scene, &err)) << err.field << ": " << err.message;
  std::string out;
  EXPECT_TRUE(runScene(scene, trace, &out, &err)) << err.field << ": " << err.message;
  JsonValue v;
  std::string why;
  EXPECT_TRUE(parseJson(out, &v, &why)) << why;
  return v;
}

SceneError sceneError(const std::string& text) {
  Scene scene;
  SceneError err;
  if (parseScene(text, &scene, &err)) {
    std::string out;
    EXPECT_FALSE(runScene(scene, false, &out, &err)) << text;
  }
  return err;
}

TEST(SimulateScene, AFallingBallIsTheIntegratorsClosedFormAndTheWorldsOwnSteps) {
  const std::string text = R"({"version":1,"query":"simulate","shapes":[
      {"type":"sphere","radius":0.5,"position":[0,50,0]},
      {"type":"box","halfExtents":[5,0.5,5],"position":[0,-0.5,0]}],
    "bodies":[{"shape":0,"velocity":[2,0,0],"mass":3}],"gravity":[0,-10,0],"dt":0.01,"steps":100})";
  const JsonValue r = runJson(text);
  const JsonValue& b = r.find("bodies")->items.at(0);
  // 100 steps of S substeps (the solver's default), h = 0.01/S: a free fall
  // in semi-implicit Euler, y = 50 − 10·h²·N(N+1)/2 with N = 100·S.
  const int S = StepSettings{}.substeps;
  const double h = 0.01 / S, N = 100.0 * S;
  EXPECT_NEAR(b.find("position")->items[1].number, 50 - 10 * h * h * N * (N + 1) / 2, 1e-9);
  EXPECT_NEAR(b.find("position")->items[0].number, 2 * N * h, 1e-9);
  EXPECT_NEAR(b.find("velocity")->items[1].number, -10 * h * N, 1e-9);
  EXPECT_EQ(r.find("steps")->number, 100);

  // The World API with the same numbers: the same bits.
  api::Registry reg;
  api::World world(&reg);
  SceneError err;
  const double ballPose[7] = {0, 50, 0, 0, 0, 0, 1}, floorPose[7] = {0, -0.5, 0, 0, 0, 0, 1};
  const int ball = world.add(reg.add(Shape::sphere(0.5), &err), ballPose, &err);
  world.add(reg.add(Shape::box({5, 0.5, 5}), &err), floorPose, &err);
  ASSERT_TRUE(world.setMass(ball, 3, &err));
  world.velocities()[0] = 2;
  StepSettings s;
  s.gravity = {0, -10, 0};
  s.dt = 0.01;
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(world.step(s, &err));
  for (int k = 0; k < 3; ++k) EXPECT_EQ(b.find("position")->items[k].number, world.poses()[k]);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(b.find("velocity")->items[k].number, world.velocities()[k]);
}

TEST(SimulateScene, ATraceHasAFramePerStepEndingInTheResult) {
  const std::string shapes = R"("shapes":[{"type":"box","halfExtents":[0.5,0.5,0.5],"position":[0,0.6,0]},
      {"type":"plane","normal":[0,1,0],"offset":0}],"bodies":[{"shape":0}])";
  const JsonValue t = runJson(R"({"version":1,"query":"simulate",)" + shapes + R"(,"steps":30})", true);
  const auto& frames = t.find("frames")->items;
  ASSERT_EQ(frames.size(), 31u);
  EXPECT_EQ(t.find("every")->number, 1);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    EXPECT_EQ(frames[i].find("step")->number, static_cast<double>(i));
    EXPECT_EQ(frames[i].find("poses")->items.size(), 2u);
  }
  const JsonValue& last = frames.back().find("poses")->items[0];
  const JsonValue& body = t.find("result")->find("bodies")->items[0];
  for (int k = 0; k < 3; ++k) EXPECT_EQ(last.items[k].number, body.find("position")->items[k].number);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(last.items[3 + k].number, body.find("rotation")->items[k].number);
  // The box lands on the plane: it has contacts at the end, 4 corners within the margin, normals up.
  const auto& contacts = frames.back().find("contacts")->items;
  ASSERT_EQ(contacts.size(), 4u);
  for (const JsonValue& c : contacts) EXPECT_NEAR(std::fabs(c.find("normal")->items[1].number), 1, 1e-9);
  // The untraced run ends where the trace does.
  const JsonValue r = runJson(R"({"version":1,"query":"simulate",)" + shapes + R"(,"steps":30})");
  EXPECT_EQ(r.find("bodies")->items[0].find("position")->items[1].number, body.find("position")->items[1].number);
  // A long run keeps every k-th step and the last.
  const JsonValue longer = runJson(R"({"version":1,"query":"simulate",)" + shapes + R"(,"steps":4500})", true);
  EXPECT_EQ(longer.find("every")->number, 3);
  EXPECT_LE(longer.find("frames")->items.size(), static_cast<std::size_t>(kMaxSimulateFrames));
  EXPECT_EQ(longer.find("frames")->items.back().find("step")->number, 4500);
}

TEST(SimulateScene, BadBodiesAndSettingsAreNamed) {
  const std::string head = R"({"version":1,"query":"simulate","shapes":[{"type":"sphere","radius":1},{"type":"plane","normal":[0,1,0],"offset":0}])";
  struct Case {
    std::string rest, field;
  } cases[] = {
      {"}", "bodies"},
      {R"(,"bodies":{}})", "bodies"},
      {R"(,"bodies":[{"shape":2}]})", "bodies[0].shape"},
      {R"(,"bodies":[{"shape":0.5}]})", "bodies[0].shape"},
      {R"(,"bodies":[{"shape":0},{"shape":0}]})", "bodies[1].shape"},
      {R"(,"bodies":[{"shape":0,"mass":-1}]})", "bodies[0].mass"},
      {R"(,"bodies":[{"shape":0,"spin":1}]})", "bodies[0].spin"},
      {R"(,"bodies":[{"shape":0,"velocity":[1,"a",0]}]})", "bodies[0].velocity[1]"},
      {R"(,"bodies":[{"shape":1,"mass":2}]})", "bodies[0].mass"},
      {R"(,"bodies":[],"dt":0})", "dt"},
      {R"(,"bodies":[],"steps":100001})", "steps"},
      {R"(,"bodies":[],"steps":2.5})", "steps"},
      {R"(,"bodies":[],"gravity":[0,1e300,0]})", "gravity[1]"},
      {R"(,"bodies":[],"sleep":1})", "sleep"},
      {R"(,"bodies":[],"sleep":"no"})", "sleep"},
  };
  for (const Case& c : cases) {
    const SceneError err = sceneError(head + c.rest);
    EXPECT_EQ(err.field, c.field) << c.rest << ": " << err.message;
    EXPECT_EQ(err.code, "invalid-scene") << c.rest;
  }
  EXPECT_EQ(sceneError(R"({"version":1,"query":"distance","shapes":[{"type":"sphere","radius":1},{"type":"sphere","radius":1}],"steps":3})").field,
            "steps");
  EXPECT_EQ(sceneError(R"({"version":1,"query":"distance","shapes":[{"type":"sphere","radius":1},{"type":"sphere","radius":1}],"sleep":false})").field,
            "sleep");
  // A world too large for one call is refused before it runs.
  std::string many = R"({"version":1,"query":"simulate","bodies":[],"steps":100000,"shapes":[)";
  for (int i = 0; i < 101; ++i) many += std::string(i ? "," : "") + R"({"type":"sphere","radius":1})";
  EXPECT_EQ(sceneError(many + "]}").field, "steps");
}

TEST(SimulateScene, WritesBackWhatItReads) {
  Scene scene;
  SceneError err;
  ASSERT_TRUE(parseScene(R"({"version":1,"query":"simulate","shapes":[{"type":"sphere","radius":1}],
      "bodies":[{"shape":0,"velocity":[1,2,3],"angularVelocity":[0,0.5,0],"mass":2}],"gravity":[0,-1,0],"dt":0.02,"steps":7,"sleep":false})",
                         &scene, &err));
  Scene again;
  ASSERT_TRUE(parseScene(sceneToJson(scene), &again, &err)) << err.message;
  EXPECT_EQ(sceneToJson(again), sceneToJson(scene));
  ASSERT_EQ(again.bodies.size(), 1u);
  EXPECT_EQ(again.bodies[0].mass, 2);
  EXPECT_EQ(again.bodies[0].velocity.z, 3);
  EXPECT_EQ(again.steps, 7);
  EXPECT_EQ(again.dt, 0.02);
  EXPECT_EQ(again.gravity.y, -1);
  EXPECT_FALSE(again.sleep);
  // Sleeping is on unless the scene says otherwise, and then not written.
  ASSERT_TRUE(parseScene(R"({"version":1,"query":"simulate","shapes":[{"type":"sphere","radius":1}],"bodies":[]})", &again, &err));
  EXPECT_TRUE(again.sleep);
  EXPECT_EQ(sceneToJson(again).find("sleep"), std::string::npos);
}

TEST(SimulateScene, SleepIsTheWorldsStepSettingAndABoxAtRestSleepsOnlyWithIt) {
  // A box set down on a floor rests after a few steps; 2 s later (sleepTime 0.5 s) it sleeps: its velocity is
  // zeroed. The scene's result is the World API's with the same setting, bit for bit.
  const std::string head = R"({"version":1,"query":"simulate","shapes":[
      {"type":"box","halfExtents":[0.5,0.5,0.5],"position":[0.1,0.52,-0.2]},
      {"type":"box","halfExtents":[5,0.5,5],"position":[0,-0.5,0]}],"bodies":[{"shape":0}],"steps":120)";
  for (const bool sleep : {true, false}) {
    const JsonValue r = runJson(head + (sleep ? "}" : R"(,"sleep":false})"));
    const JsonValue& b = r.find("bodies")->items.at(0);
    api::Registry reg;
    api::World world(&reg);
    SceneError err;
    const double boxPose[7] = {0.1, 0.52, -0.2, 0, 0, 0, 1}, floorPose[7] = {0, -0.5, 0, 0, 0, 0, 1};
    const int box = world.add(reg.add(Shape::box({0.5, 0.5, 0.5}), &err), boxPose, &err);
    world.add(reg.add(Shape::box({5, 0.5, 5}), &err), floorPose, &err);
    ASSERT_TRUE(world.setMass(box, api::kMassOfVolume, &err));
    StepSettings s;
    s.sleep = sleep;
    StepReport report;
    for (int i = 0; i < 120; ++i) ASSERT_TRUE(world.step(s, &err, &report));
    EXPECT_EQ(report.sleeping, sleep ? 1 : 0);
    const int slot = world.slotOf(box);
    const double* v = world.velocities() + 6 * slot;
    for (int k = 0; k < 3; ++k) EXPECT_EQ(b.find("position")->items[k].number, world.poses()[7 * slot + k]);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(b.find("velocity")->items[k].number, v[k]);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(b.find("angularVelocity")->items[k].number, v[3 + k]);
    // Asleep: exactly still. Awake: what the last substep leaves of gravity against the contact's push.
    double speed = 0;
    for (int k = 0; k < 6; ++k) speed += std::fabs(v[k]);
    if (sleep) {
      EXPECT_EQ(speed, 0);
    } else {
      EXPECT_GT(speed, 0);
    }
    EXPECT_NEAR(b.find("position")->items[1].number, 0.5, 0.01);
    // The trace's last frame: the step's counts, its four points kept (solved only when awake).
    const JsonValue t = runJson(head + (sleep ? "}" : R"(,"sleep":false})"), true);
    const JsonValue& last = t.find("frames")->items.back();
    EXPECT_EQ(last.find("sleeping")->number, report.sleeping);
    EXPECT_EQ(last.find("solvedPoints")->number, report.points);
    EXPECT_EQ(last.find("solvedPoints")->number, sleep ? 0 : 4);
    EXPECT_EQ(last.find("contacts")->items.size(), 4u);
    EXPECT_EQ(t.find("frames")->items.front().find("sleeping")->number, 0);
  }
}

}  // namespace
}  // namespace collidoscope

// ------------------------------------------------------------ a million bodies

namespace collidoscope {
namespace {

TEST(WorldLimits, AMillionBodiesWorkAndOneTooManyIsAClearErrorThatChangesNothing) {
  api::Registry reg;
  api::World world(&reg);
  SceneError err;
  const int ball = reg.add(Shape::sphere(0.4), &err);
  // kMaxBodies unit-spaced spheres of radius 0.4 on a grid: no two touch.
  const int side = 102;  // 102³ > kMaxBodies
  int added = 0;
  for (int i = 0; i < side && added < api::kMaxBodies; ++i)
    for (int j = 0; j < side && added < api::kMaxBodies; ++j)
      for (int k = 0; k < side && added < api::kMaxBodies; ++k, ++added) {
        const double pose[7] = {static_cast<double>(i), static_cast<double>(j), static_cast<double>(k), 0, 0, 0, 1};
        ASSERT_GT(world.add(ball, pose, &err), 0) << added << ": " << err.message;
      }
  EXPECT_EQ(world.count(), api::kMaxBodies);
  std::vector<std::uint32_t> pairs;
  ASSERT_TRUE(world.pairs(&pairs, &err)) << err.message;
  EXPECT_TRUE(pairs.empty());
  const double pose[7] = {0.5, 0, 0, 0, 0, 0, 1};
  EXPECT_EQ(world.add(ball, pose, &err), 0);
  EXPECT_NE(err.message.find("too many bodies"), std::string::npos) << err.message;
  EXPECT_EQ(world.count(), api::kMaxBodies);
  // The world is as it was: moving one sphere onto its neighbour makes exactly that pair.
  world.poses()[0] = 0.5;
  ASSERT_TRUE(world.pairs(&pairs, &err)) << err.message;
  // Only the sphere at (1, 0, 0) (slot 102·102) is within 0.8 of (0.5, 0, 0).
  EXPECT_EQ(pairs, (std::vector<std::uint32_t>{0, static_cast<std::uint32_t>(side * side)}));
}

}  // namespace
}  // namespace collidoscope

// ------------------------------------------------------------ world queries against every body

namespace collidoscope {
namespace {

TEST(WorldQueries, RaycastOverlapAndShapecastEqualTheQueryOnEveryBody) {
  for (api::WorldBroadphase bp : kBroadphases) {
    ref::Rng rng(77);
    RandomWorld w(true, bp);
    for (int i = 0; i < 150; ++i) w.add(rng, 6);
    SceneError err;
    const auto bodyIn = [&](int slot, double* in) {
      for (int k = 0; k < 7; ++k) in[k] = w.world.poses()[7 * slot + k];
    };
    int rayHits = 0, overlapsFound = 0, castHits = 0;
    for (int q = 0; q < 40; ++q) {
      // A ray from outside toward a random point.
      const Vec3 o = rng.direction() * 12.0, target = rng.inCube(4);
      const double ray[7] = {o.x, o.y, o.z, target.x - o.x, target.y - o.y, target.z - o.z, q % 4 == 0 ? 0.7 : 1e300};
      std::vector<api::WorldHit> all, nearest;
      ASSERT_TRUE(w.world.raycast(ray, true, &all, &err)) << err.message;
      ASSERT_TRUE(w.world.raycast(ray, false, &nearest, &err)) << err.message;
      std::vector<std::pair<double, int>> brute;
      for (int slot = 0; slot < w.world.slots(); ++slot) {
        if (w.shapeOfSlot[static_cast<std::size_t>(slot)] == 0) continue;
        double in[api::kInputSize] = {}, r[api::kMaxResultStride];
        bodyIn(slot, in);
        std::copy(ray, ray + 7, in + 14);
        ASSERT_TRUE(w.reg.query(Kind::Raycast, w.shapeOfSlot[static_cast<std::size_t>(slot)], 0, in, nullptr, r, &err));
        if (r[0] != 0) brute.push_back({r[1], slot});
      }
      std::sort(brute.begin(), brute.end());
      ASSERT_EQ(all.size(), brute.size()) << "ray " << q;
      for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(all[i].slot, brute[i].second);
        EXPECT_EQ(all[i].t, brute[i].first);
      }
      ASSERT_EQ(nearest.size(), brute.empty() ? 0u : 1u);
      if (!brute.empty()) {
        EXPECT_EQ(nearest[0].slot, brute[0].second);
        // The nearest is cast with maxT shrunk to the best so far: the same t, up to the cast's own rounding.
        EXPECT_NEAR(nearest[0].t, brute[0].first, 1e-9 * (1 + brute[0].first));
      }
      rayHits += static_cast<int>(brute.size());

      // A shape at a random pose: overlap, and a cast along a random translation.
      // (Any shape but the plane; a cast shape is not a mesh: the library casts no mesh against a mesh.)
      int shape = w.handles[static_cast<std::size_t>(rng.integer(0, static_cast<int>(w.handles.size()) - 2))];
      while (w.reg.find(shape)->type == ShapeType::Mesh)
        shape = w.handles[static_cast<std::size_t>(rng.integer(0, static_cast<int>(w.handles.size()) - 2))];
      double pose[7];
      randomPose(rng, 6, pose);
      std::vector<int> over;
      ASSERT_TRUE(w.world.overlap(shape, pose, &over, &err)) << err.message;
      std::vector<int> bruteOver;
      const Vec3 move = rng.inCube(4);
      const double translation[3] = {move.x, move.y, move.z};
      api::WorldHit cast;
      ASSERT_TRUE(w.world.shapecast(shape, pose, translation, &cast, &err)) << err.message;
      int castSlot = -1;
      double castT = 0;
      for (int slot = 0; slot < w.world.slots(); ++slot) {
        if (w.shapeOfSlot[static_cast<std::size_t>(slot)] == 0) continue;
        double in[api::kInputSize] = {}, r[api::kMaxResultStride];
        bodyIn(slot, in);
        for (int k = 0; k < 7; ++k) in[7 + k] = pose[k];
        ASSERT_TRUE(w.reg.query(Kind::Intersect, w.shapeOfSlot[static_cast<std::size_t>(slot)], shape, in, nullptr, r, &err));
        if (r[0] != 0) bruteOver.push_back(slot);
        in[17] = move.x;
        in[18] = move.y;
        in[19] = move.z;
        if (w.reg.find(w.shapeOfSlot[static_cast<std::size_t>(slot)])->type == ShapeType::Plane) {
          // The plane n·x ≤ −2 (n = +y in its frame) posed as the body: n_w = R·n, n_w·x ≤ −2 + n_w·p.
          // The shape's lowest point along n_w (its support along −n_w) reaches it at t = h/(−n_w·d),
          // h its height above the plane, or overlaps it from the start.
          Shape moving = *w.reg.find(shape);
          double q[4] = {pose[3], pose[4], pose[5], pose[6]};
          normalizeRotation(q);
          moving.pose = Transform{{pose[0], pose[1], pose[2]}, {q[0], q[1], q[2], q[3]}};
          double qb[4] = {in[3], in[4], in[5], in[6]};
          normalizeRotation(qb);
          const Vec3 n = rotate(Quat{qb[0], qb[1], qb[2], qb[3]}, Vec3{0, 1, 0});
          const double h = dot(n, fullSupport(moving, -n)) - (-2 + dot(n, Vec3{in[0], in[1], in[2]}));
          const double approach = -dot(n, move);
          double t = -1;
          if (h <= 0) t = 0;
          else if (approach > 0 && h <= approach) t = h / approach;
          if (t >= 0) {
            r[0] = 1;
            r[1] = t;
          } else {
            r[0] = 0;
          }
        } else {
          ASSERT_TRUE(w.reg.query(Kind::Shapecast, w.shapeOfSlot[static_cast<std::size_t>(slot)], shape, in, nullptr, r, &err))
              << err.field << ": " << err.message;
        }
        if (r[0] != 0 && (castSlot < 0 || r[1] < castT)) {
          castSlot = slot;
          castT = r[1];
        }
      }
      EXPECT_EQ(over, bruteOver) << "query " << q;
      EXPECT_EQ(cast.slot, castSlot) << "query " << q;
      if (castSlot >= 0) {
        EXPECT_NEAR(cast.t, castT, 1e-9);
      }
      overlapsFound += static_cast<int>(over.size());
      castHits += castSlot >= 0;
    }
    EXPECT_GT(rayHits, 20);
    EXPECT_GT(overlapsFound, 10);
    EXPECT_GT(castHits, 10);
  }
}

// A ray cast calls a body hit when the ray passes within its tolerance of
// the surface (raycast.h), so the world's box test must not rule out what
// the body's own cast would hit. Here the ray starts 9e-12 outside a box's
// face (about 3e-12 of the scene's scale) and leaves it: the cast reports a
// hit at t = 0, and so must the world, on either broad phase.
TEST(WorldQueries, ARayWithinTheCastsToleranceOfABoxIsNotRuledOutByTheBox) {
  for (api::WorldBroadphase bp : kBroadphases) {
    Registry reg;
    World world(&reg, bp);
    SceneError err;
    const int box = reg.add(Shape::box({1, 1, 1}), &err);
    const double pose[7] = {-2, 1, 1, 0, 0, 0, 1};
    ASSERT_GT(world.add(box, pose, &err), 0) << err.message;
    const double ray[7] = {-2, 0, -9e-12, -2, -4, -3.99999999999100, 1e300};
    double in[api::kInputSize] = {}, r[api::kMaxResultStride];
    std::copy(pose, pose + 7, in);
    std::copy(ray, ray + 7, in + 14);
    ASSERT_TRUE(reg.query(Kind::Raycast, box, 0, in, nullptr, r, &err)) << err.message;
    ASSERT_EQ(r[0], 1) << "the body's own cast: a hit within tolerance";
    EXPECT_EQ(r[1], 0);
    std::vector<api::WorldHit> hits;
    ASSERT_TRUE(world.raycast(ray, true, &hits, &err)) << err.message;
    ASSERT_EQ(hits.size(), 1u);
    EXPECT_EQ(hits[0].t, 0);
    ASSERT_TRUE(world.raycast(ray, false, &hits, &err)) << err.message;
    EXPECT_EQ(hits.size(), 1u);
  }
}

TEST(WorldQueries, BadRaysAndShapesAreNamed) {
  Registry reg;
  World world(&reg);
  SceneError err;
  const int ball = reg.add(Shape::sphere(1), &err);
  const double at[7] = {0, 0, 0, 0, 0, 0, 1};
  world.add(ball, at, &err);
  std::vector<api::WorldHit> hits;
  const double nanRay[7] = {0, std::nan(""), 0, 1, 0, 0, 1};
  EXPECT_FALSE(world.raycast(nanRay, false, &hits, &err));
  EXPECT_EQ(err.field, "ray.origin[1]");
  const double zeroRay[7] = {5, 0, 0, 0, 0, 0, 1};
  EXPECT_FALSE(world.raycast(zeroRay, false, &hits, &err));
  EXPECT_EQ(err.field, "ray.direction");
  const double negative[7] = {5, 0, 0, -1, 0, 0, -1};
  EXPECT_FALSE(world.raycast(negative, false, &hits, &err));
  EXPECT_EQ(err.field, "ray.maxT");
  const double infinite[7] = {5, 0, 0, -1, 0, 0, std::numeric_limits<double>::infinity()};
  EXPECT_FALSE(world.raycast(infinite, false, &hits, &err));
  EXPECT_EQ(err.field, "ray.maxT");
  const double good[7] = {5, 0, 0, -1, 0, 0, 1e300};
  ASSERT_TRUE(world.raycast(good, false, &hits, &err)) << err.message;
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_DOUBLE_EQ(hits[0].t, 4);
  EXPECT_DOUBLE_EQ(hits[0].normal.x, 1);
  std::vector<int> over;
  const double badPose[7] = {0, 0, 0, 0, 0, 0, 0};
  EXPECT_FALSE(world.overlap(ball, badPose, &over, &err));
  EXPECT_EQ(err.field, "pose[3..6]");
  api::WorldHit cast;
  const double inf[3] = {std::numeric_limits<double>::infinity(), 0, 0};
  EXPECT_FALSE(world.shapecast(ball, at, inf, &cast, &err));
  EXPECT_EQ(err.field, "translation[0]");
  const int floor = reg.add(Shape::plane({0, 1, 0}, 0), &err);
  const double move[3] = {1, 0, 0};
  EXPECT_FALSE(world.shapecast(floor, at, move, &cast, &err));
  EXPECT_EQ(err.field, "shape");
  // A sphere cast from x = 5 toward the body: it touches at x = 2, t = 3/4 of a translation of −4.
  const double from[7] = {5, 0, 0, 0, 0, 0, 1};
  const double toward[3] = {-4, 0, 0};
  ASSERT_TRUE(world.shapecast(ball, from, toward, &cast, &err)) << err.message;
  EXPECT_EQ(cast.slot, 0);
  EXPECT_NEAR(cast.t, 0.75, 1e-9);
}

}  // namespace
}  // namespace collidoscope
