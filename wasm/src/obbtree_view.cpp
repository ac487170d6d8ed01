#include "collidoscope/obbtree_view.h"

#include <algorithm>
#include <cmath>

#include "collidoscope/mesh_pair.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/support.h"

namespace collidoscope {

const char* obbViewModeName(ObbViewMode m) {
  static const char* const kNames[] = {"tree", "mesh-mesh", "mesh-convex"};
  return kNames[static_cast<int>(m)];
}

const char* obbViewFrameKindName(ObbViewFrameKind k) {
  static const char* const kNames[] = {"level", "step", "done"};
  return kNames[static_cast<int>(k)];
}

namespace {

// A tree box (in the mesh's frame) placed by a rigid pose: the same box.
Obb worldBox(const Obb& local, const Transform& pose) {
  Obb w = local;
  w.center = pose.apply(local.center);
  for (int i = 0; i < 3; ++i) w.axes[i] = pose.applyToDirection(local.axes[i]);
  return w;
}

// Axis `axis` of obbSeparatingAxis's 15 for boxes a and b: a_i, b_j, or
// a_i × b_j with axis = 6 + 3i + j; unit, or zero for parallel edges.
Vec3 separatingAxis(const Obb& a, const Obb& b, int axis) {
  if (axis < 3) return a.axes[axis];
  if (axis < 6) return b.axes[axis - 3];
  const int i = (axis - 6) / 3, j = (axis - 6) % 3;
  const Vec3 c = cross(a.axes[i], b.axes[j]);
  const double n = length(c);
  return n > 1e-12 ? c / n : Vec3{};
}

void addLevels(const ObbTree& tree, const Transform& pose, std::vector<ObbViewFrame>* frames, ObbViewResult* r) {
  bool truncated = false;
  const std::vector<ObbBuildEvent> events = obbTreeLevels(tree, kObbViewNodeCap, &truncated);
  r->levelsTruncated = truncated;
  if (frames == nullptr) return;
  for (const ObbBuildEvent& e : events) {
    if (frames->empty() || frames->back().level != e.level) {
      ObbViewFrame f;
      f.kind = ObbViewFrameKind::Level;
      f.level = e.level;
      frames->push_back(f);
    }
    ObbViewNode n;
    n.node = e.node;
    n.parent = e.parent;
    n.box = worldBox(e.box, pose);
    n.split = e.split;
    n.splitAxis = e.splitAxis;
    n.splitOffset = e.splitAxis >= 0 ? e.splitValue - dot(e.box.axes[e.splitAxis], e.box.center) : 0;
    n.triangles = e.count;
    frames->back().nodes.push_back(n);
  }
  // The last level shown is cut when the cap stopped the walk inside it:
  // its parents (the level above) have more children than it holds.
  if (truncated && !frames->empty()) {
    ObbViewFrame& last = frames->back();
    int children = 0;
    for (const ObbViewFrame& f : *frames)
      if (f.level == last.level - 1)
        for (const ObbViewNode& n : f.nodes) children += n.split == ObbSplit::Leaf ? 0 : 2;
    last.levelCut = static_cast<int>(last.nodes.size()) < children;
  }
}

void treeSummary(const MeshShape& m, ObbViewResult* r) {
  r->triangles = static_cast<int>(m.mesh.triangles.size());
  r->nodes = static_cast<int>(m.tree().nodes.size());
  r->depth = m.tree().depth;
  for (const ObbTreeNode& n : m.tree().nodes) {
    if (n.leaf()) ++r->leaves;
    else if (n.split == ObbSplit::Mean) ++r->meanSplits;
    else ++r->medianSplits;
  }
}

void corners(const TriangleMesh& m, const Transform& pose, int t, Vec3 out[3]) {
  const auto& k = m.triangles[static_cast<std::size_t>(t)];
  for (int i = 0; i < 3; ++i) out[i] = pose.apply(m.vertices[static_cast<std::size_t>(k[static_cast<std::size_t>(i)])]);
}

// The running counts of the steps: every event but a triangle test is a
// node pair tested; every one but a sphere rejection reached the box test.
struct RunningCounts {
  long long pairs = 0, boxes = 0, tris = 0;
  void add(const MeshMeshEvent& e, ObbViewFrame* f) {
    if (e.kind == MeshMeshEventKind::Triangle) ++tris;
    else {
      ++pairs;
      if (e.kind != MeshMeshEventKind::SphereApart) ++boxes;
    }
    f->nodePairs = pairs;
    f->boxTests = boxes;
    f->triangleTests = tris;
  }
};

ObbViewFrame stepFrame(const MeshMeshEvent& e, const Obb& boxA, const Obb& boxB) {
  ObbViewFrame f;
  f.kind = ObbViewFrameKind::Step;
  f.event = e.kind;
  f.nodeA = e.nodeA;
  f.nodeB = e.nodeB;
  f.boxA = boxA;
  f.boxB = boxB;
  f.axis = e.axis;
  f.triangleA = e.triA;
  f.triangleB = e.triB;
  f.hit = e.hit;
  if (e.kind == MeshMeshEventKind::BoxApart) f.axisDirection = separatingAxis(boxA, boxB, e.axis);
  return f;
}

// The work of either descent (MeshMeshResult, MeshBoxResult); nodePairs is
// named differently in the two.
template <class Descent>
void takeWork(const Descent& m, long long nodePairs, ObbViewResult* r) {
  r->nodePairs = nodePairs;
  r->sphereApart = m.sphereApart;
  r->boxTests = m.boxTests;
  r->boxApart = m.boxApart;
  r->overlapping = m.overlapping;
  r->stepsTruncated = m.traceTruncated;
}

void runMeshMesh(const Shape& a, const Shape& b, std::vector<ObbViewFrame>* frames, ObbViewResult* r) {
  const MeshShape& ma = *a.meshData;
  const MeshShape& mb = *b.meshData;
  std::vector<MeshMeshEvent> events;
  MeshMeshSettings s;
  s.mode = MeshMeshMode::All;
  s.trace = frames ? &events : nullptr;
  s.traceCap = kObbViewStepCap;
  const MeshMeshResult m = meshesIntersect(ma.mesh, ma.tree(), a.pose, mb.mesh, mb.tree(), b.pose, s);
  r->trianglesB = static_cast<int>(mb.mesh.triangles.size());
  r->intersecting = m.intersecting;
  r->firstA = m.first.a;
  r->firstB = m.first.b;
  r->contacts = m.pairCount;
  takeWork(m, m.nodePairs, r);
  r->triangleTests = m.triangleTests;
  r->ok = m.status == MeshMeshStatus::Converged;
  if (m.intersecting)
    r->pathBound = pathVolumeTestBound(obbTreeLeafLevel(ma.tree(), m.first.a), obbTreeLeafLevel(mb.tree(), m.first.b));
  if (frames == nullptr) return;
  RunningCounts counts;
  for (const MeshMeshEvent& e : events) {
    ObbViewFrame f = stepFrame(e, worldBox(ma.tree().nodes[static_cast<std::size_t>(e.nodeA)].box, a.pose),
                               worldBox(mb.tree().nodes[static_cast<std::size_t>(e.nodeB)].box, b.pose));
    if (e.kind == MeshMeshEventKind::Triangle) {
      corners(ma.mesh, a.pose, e.triA, f.cornersA);
      corners(mb.mesh, b.pose, e.triB, f.cornersB);
    }
    counts.add(e, &f);
    frames->push_back(f);
  }
}

// A convex B: the box descent's steps, and after each overlapping leaf one
// step per triangle in it, in the order the intersect query tests them (the
// leaves in descent order, each leaf's triangles in tree order). Each runs
// the intersect query's own leaf test, so the first touching triangle shown
// is the query's answer (the box descent keeps every triangle that can touch
// B: conservative culling, mesh_mesh.h). Unlike the query, the steps go on
// after it: the counts follow every candidate, as the seed's tree of tests.
void runMeshConvex(const Shape& a, const Shape& b, std::vector<ObbViewFrame>* frames, ObbViewResult* r) {
  const MeshShape& ma = *a.meshData;
  const Obb box = convexBoundInFrame(b, Transform{});
  std::vector<MeshMeshEvent> events;
  std::vector<int> candidates(ma.mesh.triangles.size());
  MeshBoxSettings s;
  s.candidates = candidates.data();
  s.capacity = static_cast<int>(candidates.size());
  s.trace = frames ? &events : nullptr;
  s.traceCap = kObbViewStepCap;
  const MeshBoxResult m = meshBoxCandidates(ma.mesh, ma.tree(), a.pose, box, s);
  candidates.resize(static_cast<std::size_t>(std::min<long long>(m.candidateCount, s.capacity)));
  const MeshIntersectResult narrow = meshPairIntersect(a, b);
  std::vector<MeshContact> contacts(kMaxMeshContacts);
  const MeshContactsResult touching = meshPairContacts(a, b, 0, contacts.data(), kMaxMeshContacts);
  r->trianglesB = 1;
  r->intersecting = narrow.intersecting;
  r->firstA = narrow.triangle;
  r->contacts = touching.count;
  takeWork(m, m.nodes, r);
  r->triangleTests = static_cast<long long>(candidates.size());
  r->ok = m.status == MeshMeshStatus::Converged && narrow.status == MeshQueryStatus::Converged;
  if (narrow.intersecting) r->pathBound = pathVolumeTestBound(obbTreeLeafLevel(ma.tree(), narrow.triangle), 0);
  if (frames == nullptr) return;
  RunningCounts counts;
  std::size_t next = 0;  // the next candidate: they come leaf by leaf, in the order of the Leaves events
  bool hitShown = false;
  const std::size_t cap = frames->size() + kObbViewStepCap;
  auto full = [&] {
    if (frames->size() < cap) return false;
    r->stepsTruncated = true;
    return true;
  };
  for (const MeshMeshEvent& e : events) {
    if (full()) break;
    const ObbTreeNode& node = ma.tree().nodes[static_cast<std::size_t>(e.nodeA)];
    const Obb nodeBox = worldBox(node.box, a.pose);
    ObbViewFrame f = stepFrame(e, nodeBox, box);
    counts.add(e, &f);
    frames->push_back(f);
    if (e.kind != MeshMeshEventKind::Leaves) continue;
    for (int i = 0; i < node.count && next < candidates.size() && !full(); ++i, ++next) {
      MeshMeshEvent t;
      t.kind = MeshMeshEventKind::Triangle;
      t.nodeA = e.nodeA;
      t.triA = candidates[next];
      const IntersectResult test = meshConvexTriangleIntersect(ma.mesh, a.pose, b, t.triA);
      t.hit = test.intersecting;
      ObbViewFrame tf = stepFrame(t, nodeBox, box);
      tf.iterations = test.iterations;
      tf.firstHit = t.hit && !hitShown;
      if (!t.hit) {
        const MeshDistanceResult d = meshConvexTriangleDistance(ma.mesh, a.pose, b, t.triA);
        tf.distance = d.distance;
        tf.pointA = d.pointA;
        tf.pointB = d.pointB;
      }
      hitShown = hitShown || t.hit;
      corners(ma.mesh, a.pose, t.triA, tf.cornersA);
      counts.add(t, &tf);
      frames->push_back(tf);
    }
  }
}

}  // namespace

ObbViewResult runObbView(const Shape& a, const Shape* b, std::vector<ObbViewFrame>* frames) {
  ObbViewResult r;
  const MeshShape& ma = *a.meshData;
  treeSummary(ma, &r);
  addLevels(ma.tree(), a.pose, frames, &r);
  if (b != nullptr) {
    if (b->type == ShapeType::Mesh) {
      r.mode = ObbViewMode::MeshMesh;
      runMeshMesh(a, *b, frames, &r);
    } else {
      r.mode = ObbViewMode::MeshConvex;
      runMeshConvex(a, *b, frames, &r);
    }
    r.bounds = seedTestBounds(r.triangles, r.trianglesB, std::max<long long>(r.contacts, 1));
  }
  if (frames != nullptr) {
    ObbViewFrame done;
    done.kind = ObbViewFrameKind::Done;
    done.intersecting = r.intersecting;
    done.nodePairs = r.nodePairs;
    done.boxTests = r.boxTests;
    done.triangleTests = r.triangleTests;
    frames->push_back(done);
  }
  return r;
}

}  // namespace collidoscope
