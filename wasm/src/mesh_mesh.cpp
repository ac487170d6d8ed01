// collidoscope — mesh–mesh intersection on two OBB trees (see mesh_mesh.h).
#include "collidoscope/mesh_mesh.h"

#include <algorithm>
#include <cmath>

#include "collidoscope/obb_overlap.h"
#include "collidoscope/portable_math.h"
#include "collidoscope/triangle.h"

namespace collidoscope {

namespace {

// A pose's quaternion must be a unit one (rotate() assumes it): normalized
// doubles are within a few ulps of |q|² = 1; 1e-9 also admits a float32
// round trip's ~1e-7 on each component squared and rejects unnormalized input.
constexpr double kUnitQuatTolerance = 1e-9;

bool validPose(const Transform& p) {
  const Quat& q = p.rotation;
  const double n2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
  return isFinite(p.position) && std::isfinite(n2) && std::fabs(n2 - 1) <= kUnitQuatTolerance;
}

bool treeMatches(const TriangleMesh& m, const ObbTree& t) {
  return !t.nodes.empty() && !m.triangles.empty() && t.normals.size() == m.triangles.size() &&
         t.order.size() == m.triangles.size();
}

// B's frame in A's: x_A = M x_B + t, with M = R_Aᵀ R_B stored by columns
// (col[j] = R_Aᵀ R_B e_j, B's j-th axis seen in A's frame).
struct Relative {
  Vec3 col[3];
  Vec3 t;
  Vec3 rotate(const Vec3& v) const { return col[0] * v.x + col[1] * v.y + col[2] * v.z; }
  Obb box(const Obb& b) const {
    Obb out;
    out.center = rotate(b.center) + t;
    for (int i = 0; i < 3; ++i) out.axes[i] = rotate(b.axes[i]);
    out.halfExtents = b.halfExtents;
    return out;
  }
};

Relative relativePose(const Transform& a, const Transform& b) {
  Relative r;
  const Vec3 e[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int j = 0; j < 3; ++j) r.col[j] = a.toLocalDirection(b.applyToDirection(e[j]));
  r.t = a.toLocalDirection(b.position - a.position);
  return r;
}

struct Tracer {
  std::vector<MeshMeshEvent>* out;
  int cap;
  bool truncated = false;
  void add(const MeshMeshEvent& e) {
    if (!out) return;
    if (static_cast<int>(out->size()) >= cap) {
      truncated = true;
      return;
    }
    out->push_back(e);
  }
};

}  // namespace

const char* meshMeshStatusName(MeshMeshStatus s) {
  switch (s) {
    case MeshMeshStatus::Converged: return "converged";
    case MeshMeshStatus::InvalidInput: return "invalid-input";
    case MeshMeshStatus::MaxIterations: return "max-iterations";
  }
  return "invalid-input";
}

const char* meshMeshEventKindName(MeshMeshEventKind k) {
  switch (k) {
    case MeshMeshEventKind::SphereApart: return "sphere-apart";
    case MeshMeshEventKind::BoxApart: return "box-apart";
    case MeshMeshEventKind::DescendA: return "descend-a";
    case MeshMeshEventKind::DescendB: return "descend-b";
    case MeshMeshEventKind::Leaves: return "leaves";
    case MeshMeshEventKind::Triangle: return "triangle";
  }
  return "triangle";
}

ObbAxisKind obbAxisKind(int axis) {
  if (axis < 3) return ObbAxisKind::FaceA;
  if (axis < 6) return ObbAxisKind::FaceB;
  return ObbAxisKind::EdgePair;
}

const char* obbAxisKindName(ObbAxisKind k) {
  switch (k) {
    case ObbAxisKind::FaceA: return "face-a";
    case ObbAxisKind::FaceB: return "face-b";
    case ObbAxisKind::EdgePair: return "edge-pair";
  }
  return "edge-pair";
}

const char* obbSplitName(ObbSplit s) {
  switch (s) {
    case ObbSplit::Leaf: return "leaf";
    case ObbSplit::Mean: return "mean";
    case ObbSplit::Median: return "median";
  }
  return "leaf";
}

MeshMeshResult meshesIntersect(const TriangleMesh& meshA, const ObbTree& treeA, const Transform& poseA,
                               const TriangleMesh& meshB, const ObbTree& treeB, const Transform& poseB,
                               const MeshMeshSettings& settings) {
  MeshMeshResult out;
  if (!validPose(poseA) || !validPose(poseB) || !treeMatches(meshA, treeA) || !treeMatches(meshB, treeB) ||
      settings.pairCapacity < 0 || (settings.pairCapacity > 0 && !settings.pairs)) {
    out.status = MeshMeshStatus::InvalidInput;
    return out;
  }
  const bool all = settings.mode == MeshMeshMode::All;
  Tracer tracer{settings.trace, std::max(0, settings.traceCap)};
  const Relative rel = relativePose(poseA, poseB);
  const double slack = kMeshMeshSlack * (treeA.scale + treeB.scale + maxAbs(poseA.position) + maxAbs(poseB.position));
  const long long pairCap =
      static_cast<long long>(treeA.nodes.size()) * static_cast<long long>(treeB.nodes.size());

  struct Pair {
    int a, b;
  };
  Pair stack[kMeshMeshStackSize];
  int sp = 0;
  Pair cur{0, 0};
  bool done = false;
  while (!done) {
    if (out.nodePairs >= pairCap) {
      out.status = MeshMeshStatus::MaxIterations;
      break;
    }
    ++out.nodePairs;
    const ObbTreeNode& na = treeA.nodes[cur.a];
    const ObbTreeNode& nb = treeB.nodes[cur.b];
    const Obb boxB = rel.box(nb.box);
    MeshMeshEvent ev;
    ev.nodeA = cur.a;
    ev.nodeB = cur.b;
    bool apart = false;
    ++out.sphereTests;
    if (obbSpheresApart(na.box, boxB, slack)) {
      ++out.sphereApart;
      ev.kind = MeshMeshEventKind::SphereApart;
      apart = true;
    } else {
      ++out.boxTests;
      const int axis = obbSeparatingAxis(na.box, boxB, slack);
      if (axis != kObbOverlap) {
        ++out.boxApart;
        ev.kind = MeshMeshEventKind::BoxApart;
        ev.axis = axis;
        apart = true;
      }
    }

    bool havePending = false;
    if (!apart) {
      ++out.overlapping;
      if (na.leaf() && nb.leaf()) {
        ev.kind = MeshMeshEventKind::Leaves;
        tracer.add(ev);
        for (int i = 0; i < na.count && !done; ++i) {
          const int ta = treeA.order[na.first + i];
          const auto& fa = meshA.triangles[ta];
          const Vec3 a0 = poseA.apply(meshA.vertices[fa[0]]), a1 = poseA.apply(meshA.vertices[fa[1]]),
                     a2 = poseA.apply(meshA.vertices[fa[2]]);
          for (int j = 0; j < nb.count; ++j) {
            const int tb = treeB.order[nb.first + j];
            const auto& fb = meshB.triangles[tb];
            ++out.triangleTests;
            const bool hit = trianglesIntersect(a0, a1, a2, poseB.apply(meshB.vertices[fb[0]]),
                                                poseB.apply(meshB.vertices[fb[1]]),
                                                poseB.apply(meshB.vertices[fb[2]]));
            MeshMeshEvent te;
            te.kind = MeshMeshEventKind::Triangle;
            te.nodeA = cur.a;
            te.nodeB = cur.b;
            te.triA = ta;
            te.triB = tb;
            te.hit = hit;
            tracer.add(te);
            if (!hit) continue;
            if (!out.intersecting) out.first = {ta, tb};
            out.intersecting = true;
            if (all) {
              if (out.pairCount < settings.pairCapacity) settings.pairs[out.pairCount] = {ta, tb};
              ++out.pairCount;
            } else {
              out.pairCount = 1;
              done = true;
              break;
            }
          }
        }
      } else {
        // Descend into the larger node (a leaf is never split; ties to A).
        const bool intoA =
            nb.leaf() || (!na.leaf() && dot(na.box.halfExtents, na.box.halfExtents) >=
                                            dot(nb.box.halfExtents, nb.box.halfExtents));
        ev.kind = intoA ? MeshMeshEventKind::DescendA : MeshMeshEventKind::DescendB;
        tracer.add(ev);
        if (sp >= kMeshMeshStackSize) {  // unreachable for trees within kObbTreeMaxDepth
          out.status = MeshMeshStatus::MaxIterations;
          break;
        }
        if (intoA) {
          stack[sp++] = {na.right, cur.b};
          cur = {cur.a + 1, cur.b};
        } else {
          stack[sp++] = {cur.a, nb.right};
          cur = {cur.a, cur.b + 1};
        }
        havePending = true;
      }
    } else {
      tracer.add(ev);
    }
    if (done || havePending) continue;
    if (sp == 0) break;
    cur = stack[--sp];
  }
  out.truncated = all && out.pairCount > settings.pairCapacity;
  out.traceTruncated = tracer.truncated;
  return out;
}

MeshBoxResult meshBoxCandidates(const TriangleMesh& mesh, const ObbTree& tree, const Transform& pose,
                                const Obb& worldBox, const MeshBoxSettings& settings) {
  MeshBoxResult out;
  bool boxOk = isFinite(worldBox.center) && isFinite(worldBox.halfExtents) && worldBox.halfExtents.x >= 0 &&
               worldBox.halfExtents.y >= 0 && worldBox.halfExtents.z >= 0;
  for (const Vec3& a : worldBox.axes) boxOk = boxOk && isFinite(a);
  if (!boxOk || !validPose(pose) || !treeMatches(mesh, tree) || settings.capacity < 0 ||
      (settings.capacity > 0 && !settings.candidates)) {
    out.status = MeshMeshStatus::InvalidInput;
    return out;
  }
  Tracer tracer{settings.trace, std::max(0, settings.traceCap)};
  // The box in the mesh's frame.
  Obb box;
  box.center = pose.toLocalDirection(worldBox.center - pose.position);
  for (int i = 0; i < 3; ++i) box.axes[i] = pose.toLocalDirection(worldBox.axes[i]);
  box.halfExtents = worldBox.halfExtents;
  const double slack = kMeshMeshSlack * (tree.scale + maxAbs(pose.position) + maxAbs(worldBox.center) +
                                         maxAbs(worldBox.halfExtents));
  const long long nodeCap = static_cast<long long>(tree.nodes.size());
  int stack[kObbTreeMaxDepth];
  int sp = 0;
  int cur = 0;
  for (;;) {
    if (out.nodes >= nodeCap) {
      out.status = MeshMeshStatus::MaxIterations;
      break;
    }
    ++out.nodes;
    const ObbTreeNode& n = tree.nodes[cur];
    MeshMeshEvent ev;
    ev.nodeA = cur;
    bool apart = false;
    if (obbSpheresApart(n.box, box, slack)) {
      ++out.sphereApart;
      ev.kind = MeshMeshEventKind::SphereApart;
      apart = true;
    } else {
      ++out.boxTests;
      const int axis = obbSeparatingAxis(n.box, box, slack);
      if (axis != kObbOverlap) {
        ++out.boxApart;
        ev.kind = MeshMeshEventKind::BoxApart;
        ev.axis = axis;
        apart = true;
      }
    }
    if (!apart) {
      ++out.overlapping;
      if (n.leaf()) {
        ev.kind = MeshMeshEventKind::Leaves;
        for (int i = 0; i < n.count; ++i) {
          if (out.candidateCount < settings.capacity) settings.candidates[out.candidateCount] = tree.order[n.first + i];
          ++out.candidateCount;
        }
      } else {
        ev.kind = MeshMeshEventKind::DescendA;
        tracer.add(ev);
        if (sp >= kObbTreeMaxDepth) {  // unreachable for trees within kObbTreeMaxDepth
          out.status = MeshMeshStatus::MaxIterations;
          break;
        }
        stack[sp++] = n.right;
        cur = cur + 1;
        continue;
      }
    }
    tracer.add(ev);
    if (sp == 0) break;
    cur = stack[--sp];
  }
  out.truncated = out.candidateCount > settings.capacity;
  out.traceTruncated = tracer.truncated;
  return out;
}

SeedTestBounds seedTestBounds(long long trianglesA, long long trianglesB, long long contacts) {
  SeedTestBounds b;
  const double cells = static_cast<double>(trianglesA) * static_cast<double>(trianglesB);
  b.singleContact = 2 * portable::log2(cells) + 1;
  const double k = static_cast<double>(std::max<long long>(1, contacts));
  const double splits = portable::log2(cells / k);
  b.lower = 2 * splits + 2 * k - 1;
  b.upper = 2 * k * splits + 2 * k - 1;
  return b;
}

long long pathVolumeTestBound(int leafLevelA, int leafLevelB) {
  return 2LL * (leafLevelA + leafLevelB) + 1;
}

int obbTreeLeafLevel(const ObbTree& tree, int triangle) {
  // Walk the preorder with each node's level: a node's children are one
  // level below it; the first node after a leaf is the right child of the
  // deepest pending ancestor (kept on a stack of levels).
  if (tree.nodes.empty()) return -1;
  int pendingLevel[kObbTreeMaxDepth + 1];
  int sp = 0;
  int level = 0;
  for (const ObbTreeNode& n : tree.nodes) {
    if (n.leaf()) {
      for (int i = 0; i < n.count; ++i)
        if (tree.order[n.first + i] == triangle) return level;
      if (sp == 0) break;
      level = pendingLevel[--sp];
    } else {
      if (sp > kObbTreeMaxDepth) return -1;  // deeper than any built tree
      pendingLevel[sp++] = level + 1;  // the right child's level
      ++level;
    }
  }
  return -1;
}

std::vector<ObbBuildEvent> obbTreeLevels(const ObbTree& tree, int cap, bool* truncated) {
  std::vector<ObbBuildEvent> out;
  if (truncated) *truncated = false;
  if (tree.nodes.empty() || cap <= 0) {
    if (truncated) *truncated = !tree.nodes.empty();
    return out;
  }
  // Breadth first: the children of the events at one level, in order, make
  // the next level. Each node is visited once, so the loop ends after
  // tree.nodes.size() events.
  auto event = [&](int node, int level, int parent) {
    const ObbTreeNode& n = tree.nodes[node];
    ObbBuildEvent e;
    e.node = node;
    e.level = level;
    e.parent = parent;
    e.box = n.box;
    e.split = n.split;
    e.splitAxis = n.leaf() ? -1 : n.splitAxis;
    e.splitValue = n.leaf() ? 0 : n.splitValue;
    e.first = n.first;
    e.count = n.count;
    return e;
  };
  out.push_back(event(0, 0, -1));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const ObbBuildEvent parent = out[i];
    const ObbTreeNode& n = tree.nodes[parent.node];
    if (n.leaf()) continue;
    for (int child : {parent.node + 1, n.right}) {
      if (static_cast<int>(out.size()) >= cap) {
        if (truncated) *truncated = true;
        return out;
      }
      out.push_back(event(child, parent.level + 1, parent.node));
    }
  }
  return out;
}

}  // namespace collidoscope
