// collidoscope — the ray-traversal layout of an OBB tree (see obbtree_rays.h).
#include "collidoscope/obbtree_rays.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "collidoscope/obbtree.h"

namespace collidoscope {

namespace {

static_assert(sizeof(RayNode) == 56, "the memory bound in obbtree_rays.h counts on it");
static_assert((1 << kRayLeafCountBits) > kObbTreeMaxLeafTriangles, "a leaf's count fits its bits");
static_assert((static_cast<long long>(kMaxMeshTriangles) << kRayLeafCountBits) <= 0x7fffffffLL,
              "a leaf's first triangle fits its bits");

// The float nearest d on the low (high) side: ≤ d (≥ d) exactly.
float floatBelow(double d) {
  float f = static_cast<float>(d);
  if (static_cast<double>(f) > d) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
  return f;
}
float floatAbove(double d) {
  float f = static_cast<float>(d);
  if (static_cast<double>(f) < d) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}

struct Bounds {
  Vec3 lo, hi;
};

}  // namespace

void buildRayTree(const TriangleMesh& m, const ObbTree& tree, RayTree* out) {
  *out = RayTree{};
  const int n = static_cast<int>(tree.nodes.size());
  if (n == 0) return;
  // Exact bounds, children before parents (preorder: children have larger indices).
  std::vector<Bounds> bounds(static_cast<std::size_t>(n));
  for (int i = n - 1; i >= 0; --i) {
    const ObbTreeNode& node = tree.nodes[static_cast<std::size_t>(i)];
    Bounds& b = bounds[static_cast<std::size_t>(i)];
    if (node.leaf()) {
      const double inf = std::numeric_limits<double>::infinity();
      b = {{inf, inf, inf}, {-inf, -inf, -inf}};
      for (int k = 0; k < node.count; ++k) {
        const auto& t = m.triangles[static_cast<std::size_t>(tree.order[static_cast<std::size_t>(node.first + k)])];
        for (int c = 0; c < 3; ++c) {
          const Vec3& v = m.vertices[static_cast<std::size_t>(t[static_cast<std::size_t>(c)])];
          b.lo = {std::min(b.lo.x, v.x), std::min(b.lo.y, v.y), std::min(b.lo.z, v.z)};
          b.hi = {std::max(b.hi.x, v.x), std::max(b.hi.y, v.y), std::max(b.hi.z, v.z)};
        }
      }
    } else {
      const Bounds& l = bounds[static_cast<std::size_t>(i + 1)];
      const Bounds& r = bounds[static_cast<std::size_t>(node.right)];
      b.lo = {std::min(l.lo.x, r.lo.x), std::min(l.lo.y, r.lo.y), std::min(l.lo.z, r.lo.z)};
      b.hi = {std::max(l.hi.x, r.hi.x), std::max(l.hi.y, r.hi.y), std::max(l.hi.z, r.hi.z)};
    }
  }
  // The triangle order without degenerate triangles; kept[i] = how many of
  // order[0, i) are kept, so a node's range maps to [kept[first], kept[first + count]).
  const std::size_t nt = tree.order.size();
  std::vector<int> kept(nt + 1, 0);
  out->triangles.reserve(nt);
  for (std::size_t i = 0; i < nt; ++i) {
    const int t = tree.order[i];
    const Vec3& nrm = tree.normals[static_cast<std::size_t>(t)];
    const bool ok = !(nrm.x == 0 && nrm.y == 0 && nrm.z == 0);
    if (ok) out->triangles.push_back(t);
    kept[i + 1] = kept[i] + (ok ? 1 : 0);
  }
  // Inner nodes of the layout: the tree's inner nodes over more than
  // kRayLeafTriangles triangles, numbered in preorder.
  std::vector<int> index(static_cast<std::size_t>(n), -1);
  int inner = 0;
  for (int i = 0; i < n; ++i) {
    const ObbTreeNode& node = tree.nodes[static_cast<std::size_t>(i)];
    if (!node.leaf() && node.count > kRayLeafTriangles) index[static_cast<std::size_t>(i)] = inner++;
  }
  auto reference = [&](int i) {
    if (index[static_cast<std::size_t>(i)] >= 0) return index[static_cast<std::size_t>(i)];
    const ObbTreeNode& node = tree.nodes[static_cast<std::size_t>(i)];
    const int first = kept[static_cast<std::size_t>(node.first)];
    const int count = kept[static_cast<std::size_t>(node.first + node.count)] - first;
    return ~((first << kRayLeafCountBits) | count);
  };
  auto store = [&](int i, float* box) {
    const Bounds& b = bounds[static_cast<std::size_t>(i)];
    for (int a = 0; a < 3; ++a) {
      box[a] = floatBelow(b.lo[a]);
      box[3 + a] = floatAbove(b.hi[a]);
    }
  };
  out->nodes.resize(static_cast<std::size_t>(inner));
  for (int i = 0; i < n; ++i) {
    const int k = index[static_cast<std::size_t>(i)];
    if (k < 0) continue;
    RayNode& r = out->nodes[static_cast<std::size_t>(k)];
    const int children[2] = {i + 1, tree.nodes[static_cast<std::size_t>(i)].right};
    for (int c = 0; c < 2; ++c) {
      store(children[c], r.box[c]);
      r.child[c] = reference(children[c]);
    }
  }
  store(0, out->rootBox);
  out->root = reference(0);
  out->built = true;
}

}  // namespace collidoscope
