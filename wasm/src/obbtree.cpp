// collidoscope — the OBB tree of a triangle mesh (see obbtree.h).
#include "collidoscope/obbtree.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>

namespace collidoscope {

static_assert(sizeof(ObbTreeNode) <= 144, "the node size the memory budget in mesh.h counts on");

namespace {

// L(n) of obbtree.h: levels of a median-split tree over n triangles.
int medianLevels(int n, int leaf) {
  int levels = 1;
  while (n > leaf) {
    n = n - n / 2;  // ⌈n/2⌉, the larger half
    ++levels;
  }
  return levels;
}

// The box of one non-degenerate triangle p (unit normal n) in its own
// frame: the longest edge, the in-plane perpendicular, the normal. Its
// area, longest edge × height, is twice the triangle's: the least of any
// rectangle around a triangle (the angles at the longest edge are acute,
// so the apex projects inside it), so no fit is tighter. The covariance fit
// of a lone triangle is not aligned with an edge and is larger.
Obb triangleBox(const std::vector<Vec3>& p, const Vec3& n) {
  const Vec3 e[3] = {p[1] - p[0], p[2] - p[1], p[0] - p[2]};
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (lengthSquared(e[i]) > lengthSquared(e[k])) k = i;
  Vec3 axes[3];
  axes[0] = normalizedOr(e[k], Vec3{1, 0, 0});
  // The normal made exactly perpendicular to the edge (Gram–Schmidt): on a
  // sliver the rounding of n is not small against its tilt.
  axes[2] = normalizedOr(n - axes[0] * dot(n, axes[0]), n);
  axes[1] = cross(axes[2], axes[0]);
  return obbWithAxes(axes, p);
}

// A triangle's share of a node's surface covariance (obb.h): its area A_k
// and S_k = ∫_T (x − m_k)(x − m_k)ᵀ dA = (A_k/12) Σ_{x = p,q,r} (x − m_k)(x − m_k)ᵀ,
// about its own centroid m_k (the 9 m mᵀ term of obb.h's formula vanishes
// there). Stored as xx, xy, xz, yy, yz, zz.
struct Moment {
  double area = 0;
  double s[6] = {0, 0, 0, 0, 0, 0};
};

Moment momentOf(const Vec3& p, const Vec3& q, const Vec3& r, const Vec3& m) {
  Moment out;
  out.area = 0.5 * length(cross(q - p, r - p));
  const double w = out.area / 12.0;
  for (const Vec3& x : {p - m, q - m, r - m}) {
    out.s[0] += w * x.x * x.x;
    out.s[1] += w * x.x * x.y;
    out.s[2] += w * x.x * x.z;
    out.s[3] += w * x.y * x.y;
    out.s[4] += w * x.y * x.z;
    out.s[5] += w * x.z * x.z;
  }
  return out;
}

struct Task {
  int first = 0;
  int count = 0;
  int depth = 1;
  int parent = -1;  // ≥ 0: this task is that node's right child
};

// obb.h's obbWithAxes(axes, the range's vertices in order), computed from
// the triangles in place: the same reference point (the first vertex), the
// same projections and the same arithmetic, so the same box bit for bit,
// without gathering 3·count vertices per node.
Obb boxOfRange(const Vec3 axesIn[3], const int* ids, int count, const TriangleMesh& m) {
  Obb box;
  for (int i = 0; i < 3; ++i) box.axes[i] = axesIn[i];
  const Vec3 ref = m.vertices[m.triangles[ids[0]][0]];
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  for (int i = 0; i < count; ++i) {
    const auto& tri = m.triangles[ids[i]];
    for (int k = 0; k < 3; ++k) {
      const Vec3 d = m.vertices[tri[k]] - ref;
      for (int j = 0; j < 3; ++j) {
        const double t = dot(d, box.axes[j]);
        lo[j] = std::min(lo[j], t);
        hi[j] = std::max(hi[j], t);
      }
    }
  }
  box.center = ref;
  for (int j = 0; j < 3; ++j) {
    box.center += box.axes[j] * (0.5 * lo[j] + 0.5 * hi[j]);
    box.halfExtents[j] = 0.5 * hi[j] - 0.5 * lo[j];
  }
  return box;
}

// The box of the triangles ids[0, count): obb.h's
// surface-covariance fit, its covariance summed from the triangles'
// moments by the parallel-axis theorem,
//   A·C = Σ_k (S_k + A_k (m_k − M)(m_k − M)ᵀ),   M = Σ_k A_k m_k / A,
// which is obb.h's integral regrouped about each centroid: each level of
// the build then costs one pass of a few multiply-adds per triangle
// instead of re-integrating every triangle. Differences are taken about
// the area-weighted mean, as obb.h does (no digits lost far from the
// origin). No area (every triangle degenerate): the vertices' point
// covariance decides, as in obbFromTriangles (gathered into *verts).
Obb fitNode(const int* ids, int count, const std::vector<Vec3>& centroid, const std::vector<Moment>& moment,
            const TriangleMesh& m, std::vector<Vec3>* verts) {
  const Vec3 ref = centroid[ids[0]];
  double area = 0;
  Vec3 weighted;
  for (int i = 0; i < count; ++i) {
    const int t = ids[i];
    area += moment[t].area;
    weighted += (centroid[t] - ref) * moment[t].area;
  }
  if (!(area > 0) || !std::isfinite(area)) {
    // No surface to weigh (every triangle degenerate): the points' own fit.
    verts->clear();
    for (int i = 0; i < count; ++i)
      for (int k = 0; k < 3; ++k) verts->push_back(m.vertices[m.triangles[ids[i]][k]]);
    return obbFromPoints(*verts);
  }
  const Vec3 mean = ref + weighted / area;
  double s[6] = {0, 0, 0, 0, 0, 0};
  for (int i = 0; i < count; ++i) {
    const int t = ids[i];
    const Vec3 d = centroid[t] - mean;
    const double a = moment[t].area;
    const double* st = moment[t].s;
    s[0] += st[0] + a * d.x * d.x;
    s[1] += st[1] + a * d.x * d.y;
    s[2] += st[2] + a * d.x * d.z;
    s[3] += st[3] + a * d.y * d.y;
    s[4] += st[4] + a * d.y * d.z;
    s[5] += st[5] + a * d.z * d.z;
  }
  const double c[3][3] = {{s[0] / area, s[1] / area, s[2] / area},
                          {s[1] / area, s[3] / area, s[4] / area},
                          {s[2] / area, s[4] / area, s[5] / area}};
  const SymmetricEigen e = symmetricEigen(c);
  return boxOfRange(e.vectors, ids, count, m);
}

}  // namespace

bool buildObbTree(const TriangleMesh& m, const ObbTreeSettings& settings, ObbTree* out, ShapeError* err) {
  *out = ObbTree{};
  if (!validateMesh(m, err, nullptr)) return false;
  const int leaf = settings.leafTriangles;
  if (leaf < 1 || leaf > kObbTreeMaxLeafTriangles) {
    *err = {"leafTriangles", "must be an integer from 1 to " + std::to_string(kObbTreeMaxLeafTriangles) + ", got " +
                                 std::to_string(leaf)};
    return false;
  }
  const int n = static_cast<int>(m.triangles.size());

  ObbTree tree;
  tree.normals.resize(n);
  std::vector<Vec3> centroid(n);
  std::vector<Moment> moment(n);
  for (int t = 0; t < n; ++t) {
    const auto& tri = m.triangles[t];
    const Vec3 &a = m.vertices[tri[0]], &b = m.vertices[tri[1]], &c = m.vertices[tri[2]];
    tree.normals[t] = triangleUnitNormal(a, b, c);
    centroid[t] = (a + b + c) / 3.0;
    moment[t] = momentOf(a, b, c, centroid[t]);
  }
  for (const Vec3& v : m.vertices) tree.scale = std::max(tree.scale, maxAbs(v));
  tree.order.resize(n);
  for (int t = 0; t < n; ++t) tree.order[t] = t;
  // Nodes: fewer than 2n/leaf + 1 (a binary tree with ≤ n leaves).
  tree.nodes.reserve(static_cast<std::size_t>(2 * (n / leaf + 1)));

  // Scratch for the fits (reused; the build allocates, queries do not).
  std::vector<Vec3> verts;
  std::vector<std::pair<double, int>> keys;  // (projected centroid, triangle)
  std::vector<int> side;

  // Every task makes one node and hands its children strictly fewer
  // triangles, so the loop ends after fewer than 2n/leaf + 1 tasks.
  std::vector<Task> stack;
  stack.reserve(kObbTreeMaxDepth + 1);
  stack.push_back({0, n, 1, -1});
  while (!stack.empty()) {
    const Task task = stack.back();
    stack.pop_back();
    const int self = static_cast<int>(tree.nodes.size());
    if (task.parent >= 0) tree.nodes[task.parent].right = self;
    tree.depth = std::max(tree.depth, task.depth);

    ObbTreeNode node;
    node.first = task.first;
    node.count = task.count;
    const Vec3& n0 = tree.normals[tree.order[task.first]];
    if (task.count == 1 && maxAbs(n0) > 0) {
      const auto& tri = m.triangles[tree.order[task.first]];
      verts.assign({m.vertices[tri[0]], m.vertices[tri[1]], m.vertices[tri[2]]});
      node.box = triangleBox(verts, n0);
    } else {
      node.box = fitNode(tree.order.data() + task.first, task.count, centroid, moment, m, &verts);
    }
    if (task.count <= leaf) {
      tree.nodes.push_back(node);
      continue;
    }

    // The axis of largest half-extent (the first of equal ones).
    int axis = 0;
    for (int k = 1; k < 3; ++k)
      if (node.box.halfExtents[k] > node.box.halfExtents[axis]) axis = k;
    const Vec3 dir = node.box.axes[axis];
    // Projections relative to the box centre: no digits lost far from the origin.
    keys.clear();
    double sum = 0;
    for (int i = 0; i < task.count; ++i) {
      const int t = tree.order[task.first + i];
      const double k = dot(centroid[t] - node.box.center, dir);
      keys.push_back({k, t});
      sum += k;
    }
    const double mean = sum / task.count;
    int leftCount = 0;
    for (const auto& k : keys) leftCount += k.first < mean ? 1 : 0;
    const int rightCount = task.count - leftCount;
    const bool meanOk = leftCount > 0 && rightCount > 0 &&
                        task.depth + medianLevels(leftCount, leaf) <= kObbTreeMaxDepth &&
                        task.depth + medianLevels(rightCount, leaf) <= kObbTreeMaxDepth;
    if (meanOk) {
      // Stable partition: each side keeps the input order.
      int l = task.first, r = 0;
      side.clear();
      for (const auto& k : keys) {
        if (k.first < mean) tree.order[l++] = k.second;
        else side.push_back(k.second);
      }
      for (int t : side) tree.order[l + r++] = t;
      node.split = ObbSplit::Mean;
      node.splitValue = dot(node.box.center, dir) + mean;
    } else {
      std::sort(keys.begin(), keys.end());  // by projection, then index: a total order
      leftCount = task.count / 2;
      for (int i = 0; i < task.count; ++i) tree.order[task.first + i] = keys[i].second;
      node.split = ObbSplit::Median;
      node.splitValue = dot(node.box.center, dir) + 0.5 * (keys[leftCount - 1].first + keys[leftCount].first);
    }
    node.splitAxis = static_cast<std::uint8_t>(axis);
    tree.nodes.push_back(node);
    // Right first: the left child is popped next, so it is node self + 1.
    stack.push_back({task.first + leftCount, task.count - leftCount, task.depth + 1, self});
    stack.push_back({task.first, leftCount, task.depth + 1, -1});
  }
  *out = std::move(tree);
  return true;
}

}  // namespace collidoscope
