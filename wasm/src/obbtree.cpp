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

// A triangle's build data: its centroid m_k, its area A_k and
// S_k = ∫_T (x − m_k)(x − m_k)ᵀ dA = (A_k/12) Σ_{x = p,q,r} (x − m_k)(x − m_k)ᵀ
// about the centroid (the 9 m mᵀ term of obb.h's formula vanishes there),
// stored as xx, xy, xz, yy, yz, zz. Kept in build order beside the triangle
// indices: the fits and splits read a range front to back instead of
// gathering through the permutation (random accesses when the input order
// is not spatial). The corners are read from the mesh (shared vertices
// stay in cache).
struct TriData {
  Vec3 centroid;
  double area = 0;
  double s[6] = {0, 0, 0, 0, 0, 0};
};

// to = from, one double at a time: a plain struct copy of this size becomes
// a call to memcpy in WebAssembly, and the partitions copy every triangle
// once per level.
inline void copyTri(const TriData& from, TriData* to) {
  const double x = from.centroid.x, y = from.centroid.y, z = from.centroid.z;
  const double a = from.area, s0 = from.s[0], s1 = from.s[1], s2 = from.s[2], s3 = from.s[3], s4 = from.s[4],
               s5 = from.s[5];
  to->centroid.x = x, to->centroid.y = y, to->centroid.z = z;
  to->area = a;
  to->s[0] = s0, to->s[1] = s1, to->s[2] = s2, to->s[3] = s3, to->s[4] = s4, to->s[5] = s5;
}

TriData triDataOf(const Vec3& p, const Vec3& q, const Vec3& r) {
  TriData out;
  out.area = 0.5 * length(cross(q - p, r - p));
  out.centroid = (p + q + r) / 3.0;
  const Vec3 m = out.centroid;
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

// Running sums of a range's moments about a reference point ref (a point
// inside the range, so no digits are lost far from the origin), with
// d_k = m_k − ref: area Σ A_k, first moment Σ A_k d_k and
// Σ (S_k + A_k d_k d_kᵀ). By the parallel-axis theorem the surface
// covariance about the area-weighted mean M = ref + μ, μ = Σ A_k d_k / A, is
//   A·C = Σ (S_k + A_k d_k d_kᵀ) − A μ μᵀ,
// which is obb.h's integral regrouped about each centroid: a node's fit
// costs one pass of a few multiply-adds per triangle, and the partition of
// its parent computes it on the way.
struct MomentSum {
  Vec3 ref;
  double area = 0;
  Vec3 first;
  double s[6] = {0, 0, 0, 0, 0, 0};
  void add(const TriData& t, const Vec3& centroid) {
    const Vec3 d = centroid - ref;
    const double a = t.area;
    area += a;
    first += d * a;
    s[0] += t.s[0] + a * d.x * d.x;
    s[1] += t.s[1] + a * d.x * d.y;
    s[2] += t.s[2] + a * d.x * d.z;
    s[3] += t.s[3] + a * d.y * d.y;
    s[4] += t.s[4] + a * d.y * d.z;
    s[5] += t.s[5] + a * d.z * d.z;
  }
};

// A pending node. Its moment sums wait in a parallel array at the same
// stack slot (tasks stay small: in WebAssembly a large struct copy is a
// call to memcpy, and every node is pushed and popped once).
struct Task {
  int first = 0;  // the range [first, first + count) of tree.order, and of the buffer of its depth
  int count = 0;
  int depth = 1;
  int parent = -1;  // ≥ 0: this task is that node's right child
};

// obb.h's obbWithAxes over points added one by one: the same reference
// point (the first), the same projections and the same arithmetic, so the
// same box bit for bit, without a gathered copy of the points.
struct Projection {
  Vec3 a0, a1, a2;  // the axes
  Vec3 ref;
  // Extents relative to ref along each axis, as scalars (kept in registers).
  double lo0 = 0, lo1 = 0, lo2 = 0, hi0 = 0, hi1 = 0, hi2 = 0;
  Projection(const Vec3 axes[3], const Vec3& first) : a0(axes[0]), a1(axes[1]), a2(axes[2]), ref(first) {}
  void add(const Vec3& x) {
    const Vec3 p = x - ref;
    const double t0 = dot(p, a0), t1 = dot(p, a1), t2 = dot(p, a2);
    lo0 = std::min(lo0, t0), hi0 = std::max(hi0, t0);
    lo1 = std::min(lo1, t1), hi1 = std::max(hi1, t1);
    lo2 = std::min(lo2, t2), hi2 = std::max(hi2, t2);
  }
  void box(Obb* out) const {
    out->axes[0] = a0, out->axes[1] = a1, out->axes[2] = a2;
    const double lo[3] = {lo0, lo1, lo2}, hi[3] = {hi0, hi1, hi2};
    out->center = ref;
    for (int j = 0; j < 3; ++j) {
      out->center += out->axes[j] * (0.5 * lo[j] + 0.5 * hi[j]);
      out->halfExtents[j] = 0.5 * hi[j] - 0.5 * lo[j];
    }
  }
};

// The box with these axes around the corners of triangles ids[0, count).
void boxOfRange(const Vec3 axes[3], const int* ids, int count, const TriangleMesh& m, Obb* out) {
  Projection pr(axes, m.vertices[m.triangles[ids[0]][0]]);
  for (int i = 0; i < count; ++i)
    for (int v : m.triangles[ids[i]]) pr.add(m.vertices[v]);
  pr.box(out);
}

// The box of one non-degenerate triangle p (unit normal n) in its own
// frame: the longest edge, the in-plane perpendicular, the normal. Its
// area, longest edge × height, is twice the triangle's: the least of any
// rectangle around a triangle (the angles at the longest edge are acute,
// so the apex projects inside it), so no fit is tighter. The covariance fit
// of a lone triangle is not aligned with an edge and is larger.
void triangleBox(const Vec3 p[3], const Vec3& n, Obb* out) {
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
  Projection pr(axes, p[0]);
  for (int i = 0; i < 3; ++i) pr.add(p[i]);
  pr.box(out);
}

// The box of the triangles ids[0, count) (their moment sums `sum`):
// obb.h's surface-covariance fit, axes from the covariance above (closed
// form), extents from every corner. No area (every triangle degenerate): the corners' point
// covariance decides, as in obbFromTriangles (gathered into *verts).
void fitNode(const int* ids, int count, const MomentSum& sum, const TriangleMesh& m, std::vector<Vec3>* verts,
             Obb* out) {
  const double area = sum.area;
  if (!(area > 0) || !std::isfinite(area)) {
    verts->clear();
    for (int i = 0; i < count; ++i)
      for (int v : m.triangles[ids[i]]) verts->push_back(m.vertices[v]);
    *out = obbFromPoints(*verts);
    return;
  }
  const Vec3 mu = sum.first / area;
  const double xx = sum.s[0] / area - mu.x * mu.x, xy = sum.s[1] / area - mu.x * mu.y,
               xz = sum.s[2] / area - mu.x * mu.z, yy = sum.s[3] / area - mu.y * mu.y,
               yz = sum.s[4] / area - mu.y * mu.z, zz = sum.s[5] / area - mu.z * mu.z;
  const double c[3][3] = {{xx, xy, xz}, {xy, yy, yz}, {xz, yz, zz}};
  const SymmetricEigen e = symmetricEigenClosedForm(c);
  boxOfRange(e.vectors, ids, count, m, out);
}

// Sort key of the median split: (projected centroid, triangle index) is the
// total order; pos is where the triangle sits before the sort.
struct MedianKey {
  double key;
  int triangle;
  int pos;
  bool operator<(const MedianKey& o) const { return key < o.key || (key == o.key && triangle < o.triangle); }
};

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
  tree.order.resize(n);
  // Two buffers of (triangle index, data) in build order. A node at depth
  // d finds its range in buffer d % 2 and partitions it into the same range
  // of the other buffer, where its children (depth d + 1) find theirs:
  // every triangle is copied once per level, and a range is overwritten
  // only by its own node's partition. A leaf writes its indices to
  // tree.order.
  std::vector<TriData> data[2] = {std::vector<TriData>(n), std::vector<TriData>(n)};
  std::vector<int> ids[2] = {std::vector<int>(n), std::vector<int>(n)};
  for (int t = 0; t < n; ++t) {
    const auto& tri = m.triangles[t];
    const Vec3 &a = m.vertices[tri[0]], &b = m.vertices[tri[1]], &c = m.vertices[tri[2]];
    tree.normals[t] = triangleUnitNormal(a, b, c);
    data[1][t] = triDataOf(a, b, c);  // the root has depth 1
    ids[1][t] = t;
  }
  for (const Vec3& v : m.vertices) tree.scale = std::max(tree.scale, maxAbs(v));
  // Nodes: fewer than 2n/leaf + 1 (a binary tree with ≤ n leaves).
  tree.nodes.reserve(static_cast<std::size_t>(2 * (n / leaf + 1)));

  // Scratch (reused; the build allocates, queries do not).
  std::vector<Vec3> verts;
  std::vector<double> keys;
  std::vector<MedianKey> sorted;

  // Every task makes one node and hands its children strictly fewer
  // triangles, so the loop ends after fewer than 2n/leaf + 1 tasks. The
  // stack holds at most one pending right sibling per level.
  std::vector<Task> stack;
  std::vector<MomentSum> sums(kObbTreeMaxDepth + 2);  // sums[k]: of the task at stack[k]
  stack.reserve(kObbTreeMaxDepth + 1);
  stack.push_back({0, n, 1, -1});
  sums[0].ref = data[1][0].centroid;  // n ≥ 1 (validated)
  for (const TriData& t : data[1]) sums[0].add(t, t.centroid);
  while (!stack.empty()) {
    const Task task = stack.back();
    stack.pop_back();
    const std::size_t slot = stack.size();  // the task's sums are sums[slot]
    const int self = static_cast<int>(tree.nodes.size());
    if (task.parent >= 0) tree.nodes[task.parent].right = self;
    tree.depth = std::max(tree.depth, task.depth);

    tree.nodes.emplace_back();  // within the reserve: references stay valid
    ObbTreeNode& node = tree.nodes.back();
    node.first = task.first;
    node.count = task.count;
    const int here = task.depth % 2;
    const TriData* d = data[here].data() + task.first;
    const int* id = ids[here].data() + task.first;
    const Vec3& n0 = tree.normals[id[0]];
    if (task.count == 1 && maxAbs(n0) > 0) {
      const auto& tri = m.triangles[id[0]];
      const Vec3 corners[3] = {m.vertices[tri[0]], m.vertices[tri[1]], m.vertices[tri[2]]};
      triangleBox(corners, n0, &node.box);
    } else {
      fitNode(id, task.count, sums[slot], m, &verts, &node.box);
    }
    if (task.count <= leaf) {
      std::copy(id, id + task.count, tree.order.begin() + task.first);
      continue;
    }
    TriData* to = data[1 - here].data() + task.first;
    int* toId = ids[1 - here].data() + task.first;

    // The axis of largest half-extent (the first of equal ones).
    int axis = 0;
    for (int k = 1; k < 3; ++k)
      if (node.box.halfExtents[k] > node.box.halfExtents[axis]) axis = k;
    const Vec3 dir = node.box.axes[axis];
    // Projections relative to the box centre: no digits lost far from the origin.
    keys.resize(task.count);
    double total = 0;
    for (int i = 0; i < task.count; ++i) {
      keys[i] = dot(d[i].centroid - node.box.center, dir);
      total += keys[i];
    }
    const double mean = total / task.count;
    int leftCount = 0;
    for (int i = 0; i < task.count; ++i) leftCount += keys[i] < mean ? 1 : 0;
    const int rightCount = task.count - leftCount;
    // The children's moment sums, added up by the partition below about the
    // box centre (inside the node: no digits lost far from the origin): the
    // right child takes this task's slot, the left child the next.
    MomentSum& right = sums[slot];
    MomentSum& left = sums[slot + 1];
    right = left = MomentSum{};
    left.ref = right.ref = node.box.center;
    const bool meanOk = leftCount > 0 && rightCount > 0 &&
                        task.depth + medianLevels(leftCount, leaf) <= kObbTreeMaxDepth &&
                        task.depth + medianLevels(rightCount, leaf) <= kObbTreeMaxDepth;
    if (meanOk) {
      // Stable partition: each side keeps the input order.
      int l = 0, r = leftCount;
      for (int i = 0; i < task.count; ++i) {
        const Vec3 c = d[i].centroid;
        const int at = keys[i] < mean ? l++ : r++;
        (at < leftCount ? left : right).add(d[i], c);
        copyTri(d[i], to + at);
        toId[at] = id[i];
      }
      node.split = ObbSplit::Mean;
      node.splitValue = dot(node.box.center, dir) + mean;
    } else {
      sorted.resize(task.count);
      for (int i = 0; i < task.count; ++i) sorted[i] = {keys[i], id[i], i};
      std::sort(sorted.begin(), sorted.end());  // by projection, then index: a total order
      leftCount = task.count / 2;
      for (int i = 0; i < task.count; ++i) {
        const TriData& t = d[sorted[i].pos];
        (i < leftCount ? left : right).add(t, t.centroid);
        copyTri(t, to + i);
        toId[i] = sorted[i].triangle;
      }
      node.split = ObbSplit::Median;
      node.splitValue = dot(node.box.center, dir) + 0.5 * (sorted[leftCount - 1].key + sorted[leftCount].key);
    }
    node.splitAxis = static_cast<std::uint8_t>(axis);
    // Right first: the left child is popped next, so it is node self + 1.
    stack.push_back({task.first + leftCount, task.count - leftCount, task.depth + 1, self});
    stack.push_back({task.first, leftCount, task.depth + 1, -1});
  }
  buildRayTree(m, tree, &tree.rays);
  *out = std::move(tree);
  return true;
}

}  // namespace collidoscope
