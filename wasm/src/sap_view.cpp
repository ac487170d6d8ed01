// collidoscope — the "pairs" query traced (see sap_view.h).
#include "collidoscope/sap_view.h"

#include <algorithm>
#include <cstdint>

#include "collidoscope/api.h"
#include "collidoscope/batch_layout.h"
#include "collidoscope/json.h"
#include "collidoscope/schema_json.h"

namespace collidoscope {

const char* sapViewFrameKindName(SapViewFrameKind k) {
  static const char* const kNames[] = {"boxes", "sort", "sweep", "narrow"};
  return kNames[static_cast<int>(k)];
}

namespace {

// Frames go in while both caps allow; the first that does not fit ends the
// trace (so the frames are always a prefix of the whole trace).
struct FrameBudget {
  std::vector<SapViewFrame>* frames;
  SapViewResult* r;
  long long entries = 0;
  bool add(SapViewFrame&& f, long long size) {
    if (r->truncated || static_cast<int>(frames->size()) >= kSapViewFrameCap || entries + size > kSapViewEntryCap) {
      r->truncated = true;
      return false;
    }
    entries += size;
    frames->push_back(std::move(f));
    return true;
  }
};

std::array<int, 2> asPair(const IdPair& p) { return {{p.a, p.b}}; }

}  // namespace

bool runSapView(const Scene& scene, std::vector<SapViewFrame>* frames, SapViewResult* r, SceneError* err) {
  *r = SapViewResult{};
  // The world run() builds (world.cpp runPairsScene), and its answer.
  api::Registry registry;
  api::World world(&registry);
  std::vector<int> handles;
  for (const Shape& s : scene.shapes) {
    const double pose[api::kPoseSize] = {s.pose.position.x, s.pose.position.y, s.pose.position.z, s.pose.rotation.x,
                                         s.pose.rotation.y, s.pose.rotation.z, s.pose.rotation.w};
    const int handle = registry.add(s, err);
    if (handle == 0 || world.add(handle, pose, err) == 0) return false;
    handles.push_back(handle);
  }
  std::vector<std::uint32_t> worldPairs;
  std::int64_t candidates = 0;
  if (!world.pairs(&worldPairs, err, &candidates)) {
    if (err->code == "invalid-argument") err->code = "invalid-scene";
    return false;
  }
  r->result.candidates = static_cast<int>(candidates);
  for (std::size_t q = 0; q < worldPairs.size(); q += 2)
    r->result.pairs.push_back({static_cast<int>(worldPairs[q]), static_cast<int>(worldPairs[q + 1])});

  // The broad phase again, on the World's boxes (slot i is shape i), with a
  // recording trace: a fresh structure's first pairs() sorts and sweeps, as
  // the World's first did.
  const int n = static_cast<int>(scene.shapes.size());
  SweepAndPrune sap;
  sap.reserve(n);
  std::vector<int> planes;
  for (int i = 0; i < n; ++i) {
    if (world.unbounded(i)) planes.push_back(i);
    else sap.insert(i, world.box(i));
  }
  std::vector<IdPair> boxPairs;
  SapSweepRecorder sweep;
  sap.pairs(&boxPairs, api::kMaxWorldPairs, sweep);  // cannot overflow: the World's same call did not
  r->boxPairs = static_cast<int>(boxPairs.size());
  r->sweepAxis = sweep.frames.empty() ? -1 : sweep.frames.front().axis;
  if (frames == nullptr) return true;

  FrameBudget budget{frames, r};
  SapViewFrame boxes;
  boxes.kind = SapViewFrameKind::Boxes;
  for (int i = 0; i < n; ++i) boxes.boxes.push_back({i, world.unbounded(i), world.box(i)});
  if (!budget.add(std::move(boxes), n)) return true;

  SapViewFrame sort;
  sort.kind = SapViewFrameKind::Sort;
  sort.axis = r->sweepAxis;
  for (int a = 0; a < 3; ++a) sap.endpoints(a, &sort.lists[a]);
  if (!budget.add(std::move(sort), 3 * 2 * static_cast<long long>(sap.size()))) return true;

  std::vector<std::array<int, 2>> found;
  for (const SapSweepEvent& e : sweep.frames) {
    SapViewFrame f;
    f.kind = SapViewFrameKind::Sweep;
    f.axis = e.axis;
    f.position = e.position;
    f.endpoint = e.endpoint;
    f.active = e.active;
    for (const IdPair& p : e.found) {
      f.found.push_back(asPair(p));
      found.push_back(asPair(p));
    }
    f.pairs = found;
    const long long size = static_cast<long long>(f.active.size() + 2 * f.found.size() + 2 * f.pairs.size());
    if (!budget.add(std::move(f), size)) return true;
  }

  // The narrow phase's candidates in the World's order (world.cpp
  // candidatePairs): the box pairs, and each plane with every other body,
  // sorted when planes added any.
  std::vector<std::uint64_t> keys;
  const auto key = [](int a, int b) { return (std::uint64_t{static_cast<std::uint32_t>(a)} << 32) | static_cast<std::uint32_t>(b); };
  for (const IdPair& p : boxPairs) keys.push_back(key(p.a, p.b));
  for (int p : planes)
    for (int o = 0; o < n; ++o)
      if (o != p && (!world.unbounded(o) || p < o)) keys.push_back(key(std::min(p, o), std::max(p, o)));
  if (!planes.empty()) std::sort(keys.begin(), keys.end());
  std::vector<std::array<int, 2>> intersecting;
  double in[api::kInputSize] = {};
  double out[api::kMaxResultStride];
  for (std::size_t c = 0; c < keys.size(); ++c) {
    const int a = static_cast<int>(keys[c] >> 32), b = static_cast<int>(keys[c] & 0xffffffffu);
    for (int k = 0; k < api::kPoseSize; ++k) {
      in[k] = world.poses()[a * api::kPoseSize + k];
      in[api::kPoseSize + k] = world.poses()[b * api::kPoseSize + k];
    }
    // The World's query on the same numbers: it succeeded there, so here.
    if (!registry.query(api::Kind::Intersect, handles[static_cast<std::size_t>(a)],
                        handles[static_cast<std::size_t>(b)], in, nullptr, out, err))
      return false;
    SapViewFrame f;
    f.kind = SapViewFrameKind::Narrow;
    f.pair = {{a, b}};
    f.planePair = world.unbounded(a) || world.unbounded(b);
    f.intersecting = out[0] != 0;
    f.iterations = static_cast<int>(out[1]);
    f.candidate = static_cast<int>(c);
    if (f.intersecting) intersecting.push_back(f.pair);
    f.pairs = intersecting;
    if (!budget.add(std::move(f), 2 + 2 * static_cast<long long>(intersecting.size()))) return true;
  }
  return true;
}

namespace api {

bool runPairsTrace(const Scene& scene, std::string* json, SceneError* err) {
  std::vector<SapViewFrame> frames;
  SapViewResult r;
  if (!runSapView(scene, &frames, &r, err)) return false;
  JsonWriter w;
  w.beginObject().key("query").value("pairs").key("frames").beginArray();
  for (const SapViewFrame& f : frames) jsonout::put(w, f);
  w.endArray().key("result");
  jsonout::put(w, r.result);
  w.key("sweepAxis").value(r.sweepAxis).key("boxPairs").value(r.boxPairs).key("truncated").value(r.truncated);
  w.endObject();
  *json = w.str();
  return true;
}

}  // namespace api
}  // namespace collidoscope
