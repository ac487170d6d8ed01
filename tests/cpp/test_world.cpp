// The collision world (world.h): its pairs against brute force — intersect()
// on every pair of bodies, with no broad phase — on random worlds of every
// shape type, frame after frame of small moves, teleports, removals and
// re-insertions; its boxes against sampled surface points; the "pairs"
// scene against the scene path's own "intersect" on every pair; and the
// errors of bad poses, stale ids and disposed shapes, which change nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/json.h"
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
