// collidoscope — the OBB tree of a triangle mesh (see obbtree.h).
#include "collidoscope/obbtree.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cmath>
#include <memory>
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

// A triangle's build data, kept in build order in two ping-pong buffers
// (the fits and splits read a range front to back instead of gathering
// through the permutation): its index, where its corners sit in the
// build's own copy of them (below), its area A_k and
// S_k = ∫_T (x − m_k)(x − m_k)ᵀ dA = (A_k/12) Σ_{x = p,q,r} (x − m_k)(x − m_k)ᵀ
// about its centroid m_k (the 9 m mᵀ term of obb.h's formula vanishes
// there), stored as xx, xy, xz, yy, yz, zz. Area and moments are in
// float32, in units of a power of two near the mesh's size (so nothing
// overflows or underflows for coordinates up to kMaxMagnitude): they only
// choose a node's axes, while its extents and splits are computed in double
// from the corners. 36 bytes, copied once per level.
struct TriData {
  float area;
  float s[6];
  int at;  // its corners are corners[3·at, 3·at + 3), its normal normals[at]
  int id;
};

// to = from, field by field: a struct copy becomes a call to memcpy in
// WebAssembly, and the partitions copy every triangle once per level.
inline void copyTri(const TriData& from, TriData* to) {
  const float a = from.area, s0 = from.s[0], s1 = from.s[1], s2 = from.s[2], s3 = from.s[3], s4 = from.s[4],
              s5 = from.s[5];
  const int at = from.at, id = from.id;
  to->area = a;
  to->s[0] = s0, to->s[1] = s1, to->s[2] = s2, to->s[3] = s3, to->s[4] = s4, to->s[5] = s5;
  to->at = at, to->id = id;
}

// The data of triangle t (corners p, q, r at corners[3·at]), lengths in units of 1/inv.
TriData triDataOf(int t, int at, const Vec3& p, const Vec3& q, const Vec3& r, double inv) {
  TriData out;
  const Vec3 m = (p + q + r) / 3.0;
  const Vec3 a = (p - m) * inv, b = (q - m) * inv, c = (r - m) * inv;
  const double area = 0.5 * length(cross(b - a, c - a));
  const double w = area / 12.0;
  out.area = static_cast<float>(area);
  out.s[0] = static_cast<float>(w * (a.x * a.x + b.x * b.x + c.x * c.x));
  out.s[1] = static_cast<float>(w * (a.x * a.y + b.x * b.y + c.x * c.y));
  out.s[2] = static_cast<float>(w * (a.x * a.z + b.x * b.z + c.x * c.z));
  out.s[3] = static_cast<float>(w * (a.y * a.y + b.y * b.y + c.y * c.y));
  out.s[4] = static_cast<float>(w * (a.y * a.z + b.y * b.z + c.y * c.z));
  out.s[5] = static_cast<float>(w * (a.z * a.z + b.z * b.z + c.z * c.z));
  out.at = at;
  out.id = t;
  return out;
}

// Running sums of a range's moments about a reference point ref (a point
// inside the range, so no digits are lost far from the origin), with
// d_k = (m_k − ref)·inv: area Σ A_k, first moment Σ A_k d_k and
// Σ (S_k + A_k d_k d_kᵀ). By the parallel-axis theorem the surface
// covariance about the area-weighted mean M = ref + μ, μ = Σ A_k d_k / A, is
//   A·C = Σ (S_k + A_k d_k d_kᵀ) − A μ μᵀ,
// which is obb.h's integral regrouped about each centroid: a node's fit
// costs a few multiply-adds per triangle, and the partition of its parent
// computes it on the way.
struct MomentSum {
  Vec3 ref;
  double area = 0;
  Vec3 first;
  double s[6] = {0, 0, 0, 0, 0, 0};
  void add(const TriData& t, const Vec3& centroid, double inv) {
    const Vec3 d = (centroid - ref) * inv;
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

// Spreads the low 10 bits of x to every third bit (a Morton code's axis).
std::uint32_t spreadBits(std::uint32_t x) {
  x &= 0x3ff;
  x = (x | (x << 16)) & 0x030000ff;
  x = (x | (x << 8)) & 0x0300f00f;
  x = (x | (x << 4)) & 0x030c30c3;
  x = (x | (x << 2)) & 0x09249249;
  return x;
}

// The triangles ordered along a Morton curve through their centroids
// (10 bits per axis over the centroids' bounds; equal codes keep index
// order): the root's order. Each node's range is then a few runs of
// nearby triangles, so the extents pass reads their corners from nearby
// memory whatever the input order (a random soup would otherwise miss the
// cache on every triangle at every level). LSD radix sort, 3 passes of 10 bits.
std::vector<int> spatialOrder(const Vec3* c, int n) {
  Vec3 lo = c[0], hi = c[0];
  for (int t = 1; t < n; ++t) {
    lo = {std::min(lo.x, c[t].x), std::min(lo.y, c[t].y), std::min(lo.z, c[t].z)};
    hi = {std::max(hi.x, c[t].x), std::max(hi.y, c[t].y), std::max(hi.z, c[t].z)};
  }
  const Vec3 ext = hi - lo;
  // For bounds a denormal apart 1023/e overflows to ∞, and 0·∞ is NaN:
  // there d/e·1023, which lies in [0, 1023] since
  // c − lo ≤ hi − lo (rounding is monotonic). Elsewhere d·(1023/e), as
  // before, so trees of other meshes keep their order bit for bit.
  const auto cell = [](double d, double e) {
    if (!(e > 0)) return 0u;
    const double s = 1023.0 / e;
    return static_cast<std::uint32_t>(std::isfinite(s) ? d * s : d / e * 1023.0);
  };
  std::vector<std::uint32_t> code(n), codeTmp(n);
  std::vector<int> order(n), tmp(n);
  for (int t = 0; t < n; ++t) {
    const Vec3 d = c[t] - lo;
    code[t] = spreadBits(cell(d.x, ext.x)) | (spreadBits(cell(d.y, ext.y)) << 1) | (spreadBits(cell(d.z, ext.z)) << 2);
    order[t] = t;
  }
  for (int shift = 0; shift < 30; shift += 10) {
    std::array<int, 1025> start{};
    for (int i = 0; i < n; ++i) ++start[((code[i] >> shift) & 1023) + 1];
    for (int b = 0; b < 1024; ++b) start[b + 1] += start[b];
    for (int i = 0; i < n; ++i) {
      const int at = start[(code[i] >> shift) & 1023]++;
      tmp[at] = order[i];
      codeTmp[at] = code[i];
    }
    order.swap(tmp);
    code.swap(codeTmp);
  }
  return order;
}

// The axes of a range from its moment sums: obb.h's surface-covariance
// fit (eigenvectors in closed form). False when the range has no area
// (every triangle degenerate).
bool fitAxes(const MomentSum& sum, Vec3 axes[3]) {
  const double area = sum.area;
  if (!(area > 0) || !std::isfinite(area)) return false;
  const Vec3 mu = sum.first / area;
  const double xx = sum.s[0] / area - mu.x * mu.x, xy = sum.s[1] / area - mu.x * mu.y,
               xz = sum.s[2] / area - mu.x * mu.z, yy = sum.s[3] / area - mu.y * mu.y,
               yz = sum.s[4] / area - mu.y * mu.z, zz = sum.s[5] / area - mu.z * mu.z;
  const double c[3][3] = {{xx, xy, xz}, {xy, yy, yz}, {xz, yz, zz}};
  const SymmetricEigen e = symmetricEigenClosedForm(c);
  for (int k = 0; k < 3; ++k) axes[k] = e.vectors[k];
  return true;
}

// Sort key of the median split: (projected centroid, triangle index) is the
// total order; pos is where the triangle sits in the node's range.
struct MedianKey {
  double key;
  int triangle;
  int pos;
  bool operator<(const MedianKey& o) const { return key < o.key || (key == o.key && triangle < o.triangle); }
};

}  // namespace

bool buildObbTree(const TriangleMesh& m, const ObbTreeSettings& settings, ObbTree* out, ShapeError* err) {
  *out = ObbTree{};
  const int leaf = settings.leafTriangles;
  ObbTree tree;
  // Validates m first, so a bad mesh is named before bad settings.
  if (!buildObbTreeForRays(m, &tree, err)) return false;
  if (leaf < 1 || leaf > kObbTreeMaxLeafTriangles) {
    *err = {"leafTriangles", "must be an integer from 1 to " + std::to_string(kObbTreeMaxLeafTriangles) + ", got " +
                                 std::to_string(leaf)};
    return false;
  }
  buildObbTreeNodes(m, settings, &tree);
  *out = std::move(tree);
  return true;
}

bool buildObbTreeForRays(const TriangleMesh& m, ObbTree* out, ShapeError* err) {
  *out = ObbTree{};
  if (!validateMesh(m, err, nullptr)) return false;
  const int n = static_cast<int>(m.triangles.size());
  const Vec3* vx = m.vertices.data();
  ObbTree tree;
  for (const Vec3& v : m.vertices) tree.scale = std::max(tree.scale, maxAbs(v));
  // Filled by push_back: a resize would first zero it.
  tree.normals.reserve(n);
  for (int t = 0; t < n; ++t) {
    const auto& tri = m.triangles[t];
    tree.normals.push_back(triangleUnitNormal(vx[tri[0]], vx[tri[1]], vx[tri[2]]));
  }
  buildRayTree(m, tree, &tree.rays);
  *out = std::move(tree);
  return true;
}

void buildObbTreeNodes(const TriangleMesh& m, const ObbTreeSettings& settings, ObbTree* out) {
  ObbTree& tree = *out;
  tree.nodes.clear();
  tree.order.clear();
  tree.depth = 0;
  const int leaf = settings.leafTriangles;
  const int n = static_cast<int>(m.triangles.size());
  const Vec3* vx = m.vertices.data();
  // The unit of the float moments: a power of two (exact) within a factor 2 of the scale.
  int exponent = 0;
  std::frexp(tree.scale, &exponent);
  const double inv = tree.scale > 0 ? std::ldexp(1.0, -exponent) : 1.0;
  tree.order.resize(n);
  // Two buffers of triangle data in build order. A node at depth d finds
  // its range in buffer d % 2 and partitions it into the same range of the
  // other buffer, where its children (depth d + 1) find theirs: every
  // triangle is copied once per level, and a range is overwritten only by
  // its own node's partition. A leaf writes its indices to tree.order.
  // The root's range is in spatial order (spatialOrder), and the corners
  // are copied once in that order. The buffers are left uninitialised:
  // every slot is written before it is read.
  std::unique_ptr<TriData[]> data[2] = {std::unique_ptr<TriData[]>(new TriData[n]),
                                        std::unique_ptr<TriData[]>(new TriData[n])};
  // Filled by push_back: a resize would first zero them. The centroids, in
  // input order for the spatial order, then again in that order beside the
  // corners (the same expression of the same corners: the same bits) for the
  // levels (double, from the corners: the splits are exact; computed once,
  // where each level would otherwise redo them with three divisions).
  std::vector<Vec3> centroids;
  centroids.reserve(n);
  for (int t = 0; t < n; ++t) {
    const auto& tri = m.triangles[t];
    const Vec3 &a = vx[tri[0]], &b = vx[tri[1]], &c = vx[tri[2]];
    centroids.push_back((a + b + c) / 3.0);
  }
  const std::vector<int> spatial = spatialOrder(centroids.data(), n);
  std::vector<Vec3>().swap(centroids);
  // Per triangle, in that order: its corners, and its normal (the leaves read it).
  std::vector<Vec3> corners, normals, centres;
  corners.reserve(3 * static_cast<std::size_t>(n));
  normals.reserve(n);
  centres.reserve(n);
  for (int i = 0; i < n; ++i) {
    const int t = spatial[i];
    const auto& tri = m.triangles[t];
    corners.push_back(vx[tri[0]]);
    corners.push_back(vx[tri[1]]);
    corners.push_back(vx[tri[2]]);
    normals.push_back(tree.normals[t]);
    const Vec3* c = corners.data() + 3 * i;
    centres.push_back((c[0] + c[1] + c[2]) / 3.0);
    data[1][i] = triDataOf(t, i, c[0], c[1], c[2], inv);  // the root has depth 1
  }
  // Nodes: fewer than 2n/leaf + 1 (a binary tree with ≤ n leaves).
  tree.nodes.reserve(static_cast<std::size_t>(2 * (n / leaf + 1)));

  // Scratch of the rare cases (reused; the build allocates, queries do not).
  std::vector<Vec3> verts;
  std::vector<MedianKey> sorted;

  // Every task makes one node and hands its children strictly fewer
  // triangles, so the loop ends after fewer than 2n/leaf + 1 tasks. The
  // stack holds at most one pending right sibling per level.
  std::vector<Task> stack;
  std::vector<MomentSum> sums(kObbTreeMaxDepth + 2);  // sums[k]: of the task at stack[k]
  stack.reserve(kObbTreeMaxDepth + 1);
  stack.push_back({0, n, 1, -1});
  sums[0].ref = centres[0];  // n ≥ 1 (validated)
  for (int i = 0; i < n; ++i) sums[0].add(data[1][i], centres[i], inv);
  const Vec3* cx = corners.data();
  const Vec3* cent = centres.data();  // of triangle d.at: cent[d.at]
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
    const int count = task.count;
    const TriData* d = data[here].get() + task.first;
    if (count == 1 && maxAbs(normals[d[0].at]) > 0) {
      triangleBox(cx + 3 * d[0].at, normals[d[0].at], &node.box);
      tree.order[task.first] = d[0].id;
      continue;  // a leaf: leafTriangles ≥ 1
    }
    Vec3 axes[3];
    if (!fitAxes(sums[slot], axes)) {
      // No area: the corners' point covariance decides, as in obbFromTriangles.
      verts.clear();
      for (int i = 0; i < count; ++i)
        verts.insert(verts.end(), cx + 3 * d[i].at, cx + 3 * d[i].at + 3);
      const Obb b = obbFromPoints(verts);
      for (int k = 0; k < 3; ++k) axes[k] = b.axes[k];
    }
    // Extents from every corner (obb.h's fit); the centroids' sum on the way
    // when the node splits.
    Projection pr(axes, cx[3 * d[0].at]);
    const Vec3 ref = pr.ref;
    if (count <= leaf) {
      for (int i = 0; i < count; ++i) {
        const Vec3* c = cx + 3 * d[i].at;
        pr.add(c[0]);
        pr.add(c[1]);
        pr.add(c[2]);
      }
      pr.box(&node.box);
      for (int i = 0; i < count; ++i) tree.order[task.first + i] = d[i].id;
      continue;
    }
    Vec3 offsets;  // Σ (centroid − ref)
    for (int i = 0; i < count; ++i) {
      const Vec3* c3 = cx + 3 * d[i].at;
      pr.add(c3[0]);
      pr.add(c3[1]);
      pr.add(c3[2]);
      offsets += cent[d[i].at] - ref;
    }
    pr.box(&node.box);
    TriData* to = data[1 - here].get() + task.first;

    // The axis of largest half-extent (the first of equal ones).
    int axis = 0;
    for (int k = 1; k < 3; ++k)
      if (node.box.halfExtents[k] > node.box.halfExtents[axis]) axis = k;
    const Vec3 dir = node.box.axes[axis];
    // Projections relative to ref (a corner of the node): no digits lost far from the origin.
    const double mean = dot(offsets, dir) / count;
    // The children's moment sums, added up by the partition below about the
    // box centre (inside the node: no digits lost far from the origin): the
    // right child takes this task's slot, the left child the next.
    MomentSum& right = sums[slot];
    MomentSum& left = sums[slot + 1];
    right = left = MomentSum{};
    left.ref = right.ref = node.box.center;
    // One pass: the left side from the front, in range order, the right
    // side from the back, in reverse range order. If it has to fall back to
    // the median, the sums are redone.
    int l = 0, r = count;
    for (int i = 0; i < count; ++i) {
      const Vec3& c = cent[d[i].at];
      const bool low = dot(c - ref, dir) < mean;
      const int at = low ? l++ : --r;
      (low ? left : right).add(d[i], c, inv);
      copyTri(d[i], to + at);
    }
    int leftCount = l;
    const int rightCount = count - leftCount;
    const bool meanOk = leftCount > 0 && rightCount > 0 &&
                        task.depth + medianLevels(leftCount, leaf) <= kObbTreeMaxDepth &&
                        task.depth + medianLevels(rightCount, leaf) <= kObbTreeMaxDepth;
    if (meanOk) {
      node.split = ObbSplit::Mean;
      node.splitValue = dot(ref, dir) + mean;
    } else {
      right = left = MomentSum{};
      left.ref = right.ref = node.box.center;
      sorted.resize(count);
      for (int i = 0; i < count; ++i) sorted[i] = {dot(cent[d[i].at] - ref, dir), d[i].id, i};
      leftCount = count / 2;
      // The ⌊n/2⌋ least in the total order go left: the same sides as a sort.
      std::nth_element(sorted.begin(), sorted.begin() + leftCount, sorted.end());
      const double below = std::max_element(sorted.begin(), sorted.begin() + leftCount)->key;
      for (int i = 0; i < count; ++i) {
        const int pos = sorted[i].pos;
        (i < leftCount ? left : right).add(d[pos], cent[d[pos].at], inv);
        copyTri(d[pos], to + i);
      }
      node.split = ObbSplit::Median;
      node.splitValue = dot(ref, dir) + 0.5 * (below + sorted[leftCount].key);
    }
    node.splitAxis = static_cast<std::uint8_t>(axis);
    // Right first: the left child is popped next, so it is node self + 1.
    stack.push_back({task.first + leftCount, count - leftCount, task.depth + 1, self});
    stack.push_back({task.first, leftCount, task.depth + 1, -1});
  }
}

}  // namespace collidoscope
