// Fuzz target: a collision world (world.h) driven by a sequence of
// operations decoded from bytes — add, remove, setPose, setMass, writing
// velocities, pairs(), step(), raycast and overlap — on either broad phase,
// with shapes of every convex type from bytes plus a plane, a small mesh
// and a compound.
//
//   pairs     = intersect() (Registry::query) on every pair of live bodies,
//               no broad phase (the brute force of tests/cpp/test_world.cpp)
//   step      poses and velocities of every live body finite afterwards
//               ("non-finite" in the invariant: a NaN)
//   raycast   every hit, sorted by (t, slot), = the raycast query on each
//             live body, except that an uncertified hit of that query (status
//             degenerate or max-iterations) may be missing where the world's
//             box test ruled the body out (the nearest: the first of them)
//   overlap   = the slots whose body intersect() says touches the shape
//   errors    a bad pose, velocity, mass, id or step setting is refused with
//             a message and changes nothing the world reports (pairs and
//             body count as before)
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/batch_layout.h"
#include "collidoscope/scene.h"
#include "collidoscope/world.h"
#include "fuzz_common.h"

namespace {

// Where a raycast result holds its status (batch_layout.h), 0 = converged.
constexpr int kRayStatus = collidoscope::api::offsetOf(static_cast<int>(collidoscope::api::Kind::Raycast), "status");

using collidoscope::SceneError;
using collidoscope::ShapeError;
using collidoscope::api::Kind;
using collidoscope::api::Registry;
using collidoscope::api::World;
using fuzz::str;

constexpr const char* kTarget = "fuzz_world";
constexpr int kMaxOps = 48;
constexpr int kMaxBodies = 16;

// Shapes parsed from the scene format (the path a page or a game takes).
const char* const kFixedShapes[] = {
    R"({"type":"plane","normal":[0,1,0],"offset":-2})",
    R"({"type":"mesh","vertices":[[0,0,0],[1,0,0],[0,1,0],[0,0,1],[1,1,1]],"triangles":[[0,2,1],[0,1,3],[0,3,2],[1,2,3],[1,4,2],[0,1,1]]})",
    R"({"type":"compound","children":[{"type":"sphere","radius":0.3},{"type":"box","halfExtents":[0.2,0.2,0.2],"position":[0.6,0,0]}]})",
};

collidoscope::Shape parseOne(const std::string& json) {
  collidoscope::Scene scene;
  SceneError err;
  const std::string text = R"({"version":1,"query":"pairs","shapes":[)" + json + "]}";
  if (!collidoscope::parseScene(text, &scene, &err))
    fuzz::fail(kTarget, "setup: a fixed shape does not parse: " + err.message, json);
  return scene.shapes.at(0);
}

struct Model {
  Registry reg;
  World world;
  std::vector<int> handles;      // shapes
  std::vector<int> ids;          // live body ids
  std::vector<int> shapeOfSlot;  // per slot: the shape handle, 0 when free
  std::string log;               // the operations so far (the repro)

  explicit Model(collidoscope::api::WorldBroadphase b) : world(&reg, b) {}

  [[noreturn]] void fail(const std::string& what) { fuzz::fail(kTarget, what, log); }

  void note(const std::string& s) {
    if (log.size() < 20000) log += s + "\n";
  }

  void bodyPose(int slot, double* out) {
    for (int k = 0; k < 7; ++k) out[k] = world.poses()[7 * slot + k];
  }

  // Brute force: intersect() on every pair of live slots, i < j.
  std::vector<std::uint32_t> brutePairs() {
    std::vector<std::uint32_t> out;
    for (int i = 0; i < world.slots(); ++i) {
      if (shapeOf(i) == 0) continue;
      for (int j = i + 1; j < world.slots(); ++j) {
        if (shapeOf(j) == 0) continue;
        double in[collidoscope::api::kInputSize] = {};
        bodyPose(i, in);
        bodyPose(j, in + 7);
        double r[collidoscope::api::kMaxResultStride];
        SceneError err;
        if (!reg.query(Kind::Intersect, shapeOf(i), shapeOf(j), in, nullptr, r, &err))
          fail("intersect() refused live bodies " + std::to_string(i) + ", " + std::to_string(j) + ": " + err.message);
        if (r[0] != 0) {
          out.push_back(static_cast<std::uint32_t>(i));
          out.push_back(static_cast<std::uint32_t>(j));
        }
      }
    }
    return out;
  }

  int shapeOf(int slot) const {
    return slot < static_cast<int>(shapeOfSlot.size()) ? shapeOfSlot[static_cast<std::size_t>(slot)] : 0;
  }

  std::vector<std::uint32_t> checkPairs(const char* when) {
    std::vector<std::uint32_t> got;
    SceneError err;
    std::int64_t candidates = -1;
    if (!world.pairs(&got, &err, &candidates)) fail(std::string("pairs() refused (") + when + "): " + err.message);
    const std::vector<std::uint32_t> want = brutePairs();
    if (got != want) {
      std::string g, w;
      for (std::size_t k = 0; k + 1 < got.size(); k += 2) g += " " + std::to_string(got[k]) + "-" + std::to_string(got[k + 1]);
      for (std::size_t k = 0; k + 1 < want.size(); k += 2) w += " " + std::to_string(want[k]) + "-" + std::to_string(want[k + 1]);
      fail(std::string("pairs() ") + when + ":" + g + " but intersect() on every pair:" + w);
    }
    if (candidates < static_cast<std::int64_t>(want.size() / 2)) fail("pairs(): fewer candidates than pairs");
    return got;
  }

  // A static body's velocity is ignored by step() and left as written
  // (world.h), so only the dynamic bodies' must be finite after it.
  void checkFinite() {
    for (const int id : ids) {
      const int slot = world.slotOf(id);
      for (int k = 0; k < 7; ++k)
        if (!std::isfinite(world.poses()[7 * slot + k])) fail("step(): non-finite pose of slot " + std::to_string(slot));
      if (world.mass(id) == 0) continue;
      for (int k = 0; k < 6; ++k)
        if (!std::isfinite(world.velocities()[6 * slot + k]))
          fail("step(): non-finite velocity of slot " + std::to_string(slot));
    }
  }
};

// A pose: mostly valid (unit quaternion, coordinates up to 1e3); now and
// then raw numbers (NaN, non-unit quaternions, beyond kMaxMagnitude).
bool decodePose(FuzzedDataProvider& in, double* out) {
  const bool raw = in.ConsumeIntegralInRange<int>(0, 7) == 0;
  const collidoscope::Vec3 p = raw ? fuzz::vec(in) : fuzz::clampCoord(fuzz::vec(in), in.ConsumeBool() ? 3 : 1e3);
  double q[4] = {0, 0, 0, 1};
  if (in.ConsumeBool()) {
    for (double& c : q) c = fuzz::number(in);
    if (!raw) {
      for (double& c : q) c = fuzz::clampCoord(c, 1e6);
      if (!collidoscope::normalizeRotation(q)) q[0] = q[1] = q[2] = 0, q[3] = 1;
    }
  }
  const double v[7] = {p.x, p.y, p.z, q[0], q[1], q[2], q[3]};
  std::copy(v, v + 7, out);
  return !raw;
}

std::string poseText(const double* p) {
  std::string s = "[";
  for (int k = 0; k < 7; ++k) s += (k ? ", " : "") + str(p[k]);
  return s + "]";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const auto broadphase = in.ConsumeBool() ? collidoscope::api::WorldBroadphase::Tree
                                           : collidoscope::api::WorldBroadphase::SweepAndPrune;
  Model w(broadphase);
  w.note(std::string("broad phase ") + (broadphase == collidoscope::api::WorldBroadphase::Tree ? "tree" : "sap"));
  for (const char* json : kFixedShapes) {
    SceneError err;
    const int h = w.reg.add(parseOne(json), &err);
    if (h <= 0) w.fail("setup: registry refused a fixed shape: " + err.message);
    w.handles.push_back(h);
    w.note("shape " + std::to_string(h) + " " + json);
  }
  const int convex = in.ConsumeIntegralInRange<int>(1, 4);
  for (int i = 0; i < convex; ++i) {
    collidoscope::Shape s = fuzz::shape(in, true);
    ShapeError serr;
    if (!collidoscope::validateShape(s, &serr) || !fuzz::conditioned(s)) continue;
    SceneError err;
    const int h = w.reg.add(s, &err);
    if (h <= 0) w.fail("registry refused a valid shape: " + err.message + " " + fuzz::describe(s));
    w.handles.push_back(h);
    w.note("shape " + std::to_string(h) + " " + fuzz::describe(s));
  }

  const int ops = in.ConsumeIntegralInRange<int>(1, kMaxOps);
  for (int op = 0; op < ops && in.remaining_bytes() > 0; ++op) {
    SceneError err;
    const int kind = in.ConsumeIntegralInRange<int>(0, 9);
    switch (kind) {
      case 0:
      case 1: {  // add
        if (w.world.count() >= kMaxBodies) break;
        const int shape = w.handles[in.ConsumeIntegralInRange<std::size_t>(0, w.handles.size() - 1)];
        double pose[7];
        const bool valid = decodePose(in, pose);
        const int before = w.world.count();
        const int id = w.world.add(shape, pose, &err);
        w.note("add shape " + std::to_string(shape) + " at " + poseText(pose) + " -> " + std::to_string(id));
        if (id > 0) {
          const int slot = w.world.slotOf(id);
          if (slot < 0) w.fail("add: a new body has no slot");
          if (static_cast<int>(w.shapeOfSlot.size()) <= slot) w.shapeOfSlot.resize(static_cast<std::size_t>(slot) + 1, 0);
          w.shapeOfSlot[static_cast<std::size_t>(slot)] = shape;
          w.ids.push_back(id);
        } else {
          if (valid) w.fail("add: refused a valid pose: " + err.field + ": " + err.message);
          if (err.message.empty()) w.fail("add: refused without a message");
          if (w.world.count() != before) w.fail("add: a refused body changed the count");
        }
        break;
      }
      case 2: {  // remove (a live body, or an id that is not one)
        const bool live = !w.ids.empty() && in.ConsumeBool();
        const std::size_t k = live ? in.ConsumeIntegralInRange<std::size_t>(0, w.ids.size() - 1) : 0;
        const int id = live ? w.ids[k] : in.ConsumeIntegralInRange<int>(-2, 40);
        const bool isLive = std::find(w.ids.begin(), w.ids.end(), id) != w.ids.end();
        const int slot = w.world.slotOf(id);
        const bool ok = w.world.remove(id, &err);
        w.note("remove " + std::to_string(id) + (ok ? "" : " (refused)"));
        if (ok != isLive) w.fail("remove(" + std::to_string(id) + "): " + (ok ? "accepted a dead id" : "refused a live body: " + err.message));
        if (!ok && err.message.empty()) w.fail("remove: refused without a message");
        if (ok) {
          w.shapeOfSlot[static_cast<std::size_t>(slot)] = 0;
          w.ids.erase(std::find(w.ids.begin(), w.ids.end(), id));
        }
        break;
      }
      case 3: {  // setPose
        if (w.ids.empty()) break;
        const int id = w.ids[in.ConsumeIntegralInRange<std::size_t>(0, w.ids.size() - 1)];
        double pose[7];
        const bool valid = decodePose(in, pose);
        const std::vector<std::uint32_t> before = valid ? std::vector<std::uint32_t>{} : w.checkPairs("before a bad pose");
        const bool ok = w.world.setPose(id, pose, &err);
        w.note("setPose " + std::to_string(id) + " " + poseText(pose) + (ok ? "" : " (refused)"));
        if (!ok && valid) w.fail("setPose: refused a valid pose: " + err.field + ": " + err.message);
        if (!ok && err.message.empty()) w.fail("setPose: refused without a message");
        if (!ok && w.checkPairs("after a refused pose") != before) w.fail("setPose: a refused pose changed the pairs");
        break;
      }
      case 4:
        w.note("pairs");
        w.checkPairs("");
        break;
      case 5: {  // setMass: planes, meshes and compounds of no volume are static-only (refused cleanly)
        if (w.ids.empty()) break;
        const int id = w.ids[in.ConsumeIntegralInRange<std::size_t>(0, w.ids.size() - 1)];
        const int pick = in.ConsumeIntegralInRange<int>(0, 3);
        const double mass = pick == 0 ? 0 : pick == 1 ? collidoscope::api::kMassOfVolume
                            : pick == 2           ? std::fabs(fuzz::clampCoord(fuzz::number(in), 1e3))
                                                  : fuzz::number(in);
        const bool ok = w.world.setMass(id, mass, &err);
        w.note("setMass " + std::to_string(id) + " " + str(mass) + (ok ? "" : " (refused: " + err.message + ")"));
        if (!ok && err.message.empty()) w.fail("setMass: refused without a message");
        if (ok && !(w.world.mass(id) >= 0 && std::isfinite(w.world.mass(id))))
          w.fail("setMass: mass " + str(w.world.mass(id)) + " after accepting " + str(mass));
        break;
      }
      case 6: {  // write a velocity (a static body's is ignored)
        if (w.ids.empty()) break;
        const int slot = w.world.slotOf(w.ids[in.ConsumeIntegralInRange<std::size_t>(0, w.ids.size() - 1)]);
        const bool raw = in.ConsumeIntegralInRange<int>(0, 7) == 0;
        for (int k = 0; k < 6; ++k)
          w.world.velocities()[6 * slot + k] = raw ? fuzz::number(in) : fuzz::clampCoord(fuzz::number(in), 20);
        std::string v;
        for (int k = 0; k < 6; ++k) v += " " + str(w.world.velocities()[6 * slot + k]);
        w.note("velocity of slot " + std::to_string(slot) + ":" + v);
        break;
      }
      case 7: {  // step
        collidoscope::StepSettings s;
        s.dt = in.ConsumeIntegralInRange<int>(1, 4) / 240.0;
        s.substeps = in.ConsumeIntegralInRange<int>(1, 4);
        const bool bad = in.ConsumeIntegralInRange<int>(0, 15) == 0;
        if (bad) s.dt = fuzz::number(in);
        s.continuous = in.ConsumeBool();
        const bool ok = w.world.step(s, &err);
        w.note("step dt " + str(s.dt) + " substeps " + std::to_string(s.substeps) + (ok ? "" : " (refused: " + err.field + ": " + err.message + ")"));
        if (!ok) {
          if (err.message.empty()) w.fail("step: refused without a message");
          // A non-finite velocity written by case 6 is a fair refusal; a
          // valid step on finite state is not.
          bool finiteState = true;
          for (int slot = 0; slot < w.world.slots(); ++slot)
            for (int k = 0; k < 6 && w.shapeOf(slot); ++k)
              finiteState = finiteState && std::fabs(w.world.velocities()[6 * slot + k]) <= collidoscope::kMaxMagnitude;
          if (!bad && finiteState) w.fail("step: refused valid settings and state: " + err.field + ": " + err.message);
          break;
        }
        w.checkFinite();
        w.checkPairs("after step()");
        break;
      }
      case 8: {  // raycast: every hit against the raycast query on each body
        double ray[7];
        const collidoscope::Vec3 o = fuzz::clampCoord(fuzz::vec(in), 20), target = fuzz::clampCoord(fuzz::vec(in), 4);
        const collidoscope::Vec3 d = target - o;
        if (!(collidoscope::maxAbs(d) > 0)) break;
        const double v[7] = {o.x, o.y, o.z, d.x, d.y, d.z, in.ConsumeBool() ? 1.0 : 1e300};
        std::copy(v, v + 7, ray);
        std::vector<collidoscope::api::WorldHit> all, nearest;
        w.note("raycast " + poseText(ray));
        if (!w.world.raycast(ray, true, &all, &err)) w.fail("raycast refused a valid ray: " + err.message);
        if (!w.world.raycast(ray, false, &nearest, &err)) w.fail("raycast refused a valid ray: " + err.message);
        // The per-body answers; an uncertified one (status degenerate or
        // max-iterations: a hit reported at a lower bound, raycast.h) may be
        // missing from the world's, which ruled the body out by its box.
        std::vector<std::pair<double, int>> brute;
        std::vector<bool> certified;
        for (int slot = 0; slot < w.world.slots(); ++slot) {
          if (w.shapeOf(slot) == 0) continue;
          double q[collidoscope::api::kInputSize] = {}, r[collidoscope::api::kMaxResultStride];
          w.bodyPose(slot, q);
          std::copy(ray, ray + 7, q + 14);
          if (!w.reg.query(Kind::Raycast, w.shapeOf(slot), 0, q, nullptr, r, &err))
            w.fail("the raycast query refused slot " + std::to_string(slot) + ": " + err.message);
          if (r[0] != 0) brute.push_back({r[1], slot});
        }
        std::sort(brute.begin(), brute.end());
        for (const auto& b : brute) {
          double q[collidoscope::api::kInputSize] = {}, r[collidoscope::api::kMaxResultStride];
          w.bodyPose(b.second, q);
          std::copy(ray, ray + 7, q + 14);
          w.reg.query(Kind::Raycast, w.shapeOf(b.second), 0, q, nullptr, r, &err);
          certified.push_back(r[kRayStatus] == 0);
        }
        bool same = true;
        std::size_t k = 0;
        for (std::size_t j = 0; same && j < brute.size(); ++j) {
          if (k < all.size() && all[k].slot == brute[j].second) {
            same = all[k].t == brute[j].first;
            ++k;
          } else {
            same = !certified[j];
          }
        }
        same = same && k == all.size();
        if (!same) w.fail("raycast: " + std::to_string(all.size()) + " hits, the raycast query on each body " + std::to_string(brute.size()));
        if (nearest.empty() != all.empty() || (!all.empty() && nearest[0].slot != all[0].slot))
          w.fail("raycast (nearest): not the first of its own hits");
        break;
      }
      default: {  // overlap
        const int shape = w.handles[in.ConsumeIntegralInRange<std::size_t>(0, w.handles.size() - 1)];
        double pose[7];
        const bool valid = decodePose(in, pose);
        std::vector<int> got;
        const bool ok = w.world.overlap(shape, pose, &got, &err);
        w.note("overlap shape " + std::to_string(shape) + " at " + poseText(pose) + (ok ? "" : " (refused)"));
        if (!ok) {
          if (valid) w.fail("overlap refused a valid pose: " + err.field + ": " + err.message);
          if (err.message.empty()) w.fail("overlap: refused without a message");
          break;
        }
        std::vector<int> want;
        for (int slot = 0; slot < w.world.slots(); ++slot) {
          if (w.shapeOf(slot) == 0) continue;
          double q[collidoscope::api::kInputSize] = {}, r[collidoscope::api::kMaxResultStride];
          w.bodyPose(slot, q);
          std::copy(pose, pose + 7, q + 7);
          if (!w.reg.query(Kind::Intersect, w.shapeOf(slot), shape, q, nullptr, r, &err))
            w.fail("intersect() refused slot " + std::to_string(slot) + ": " + err.message);
          if (r[0] != 0) want.push_back(slot);
        }
        if (got != want)
          w.fail("overlap: " + std::to_string(got.size()) + " bodies, intersect() on each body " + std::to_string(want.size()));
        break;
      }
    }
  }
  w.note("pairs (end)");
  w.checkPairs("at the end");
  return 0;
}
