// collidoscope — mesh against convex shape on the OBB tree (mesh_convex.h).
#include "collidoscope/mesh_convex.h"

#include <cmath>
#include <initializer_list>
#include <limits>
#include <utility>

#include "collidoscope/obb_overlap.h"
#include "collidoscope/plane.h"
#include "collidoscope/triangle.h"

namespace collidoscope {

const char* meshQueryStatusName(MeshQueryStatus s) {
  switch (s) {
    case MeshQueryStatus::Converged: return "converged";
    case MeshQueryStatus::InvalidInput: return "invalid-input";
    case MeshQueryStatus::MaxIterations: return "max-iterations";
    case MeshQueryStatus::LeafInexact: return "leaf-inexact";
  }
  return "invalid-input";
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Hamilton product a·b: the rotation b, then a.
Quat multiply(const Quat& a, const Quat& b) {
  return {a.w * b.x + b.w * a.x + (a.y * b.z - a.z * b.y), a.w * b.y + b.w * a.y + (a.z * b.x - a.x * b.z),
          a.w * b.z + b.w * a.z + (a.x * b.y - a.y * b.x), a.w * b.w - (a.x * b.x + a.y * b.y + a.z * b.z)};
}

bool finitePose(const Transform& t) {
  return isFinite(t.position) && std::isfinite(t.rotation.x) && std::isfinite(t.rotation.y) &&
         std::isfinite(t.rotation.z) && std::isfinite(t.rotation.w);
}

// The pose `local` seen from `frame`: frame⁻¹ ∘ local.
Transform relativePose(const Transform& frame, const Transform& local) {
  Transform r;
  r.rotation = multiply(conjugate(frame.rotation), local.rotation);
  r.position = frame.toLocalDirection(local.position - frame.position);
  return r;
}

bool treeMatches(const TriangleMesh& m, const ObbTree& tree) {
  return !tree.nodes.empty() && tree.normals.size() == m.triangles.size() &&
         tree.order.size() == m.triangles.size();
}

// The shape's box in the frame its pose `p` is given in (see
// convexBoundInFrame): extremes along the shape's own axes.
Obb boundOf(const Shape& shape, const Transform& p) {
  const ShapeAtPose s(shape, p);
  const double r = s.radius();
  const Vec3 unit[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  Obb b;
  Vec3 center;
  double h[3];
  for (int i = 0; i < 3; ++i) {
    const Vec3 a = p.applyToDirection(unit[i]);
    b.axes[i] = a;
    const double hi = dot(a, s.support(a)) + r;
    const double lo = dot(a, s.support(-a)) - r;
    center += a * ((hi + lo) * 0.5);
    h[i] = (hi - lo) * 0.5;
  }
  b.center = center;
  b.halfExtents = {h[0], h[1], h[2]};
  return b;
}

double boxScale(const Obb& b) {
  return maxAbs(b.center) + std::fmax(b.halfExtents.x, std::fmax(b.halfExtents.y, b.halfExtents.z));
}

// Whether the volumes are apart: the sphere test, then the 15 axes.
bool volumesApart(const Obb& node, const Obb& shape, double slack, int* boxTests) {
  ++*boxTests;
  if (obbSpheresApart(node, shape, slack)) return true;
  return obbSeparatingAxis(node, shape, slack) != kObbOverlap;
}

// r(L) = Σ h_i |axis_i·L|: the box's projection radius on the axis L.
double projectionRadius(const Obb& box, const Vec3& L) {
  return box.halfExtents.x * std::fabs(dot(box.axes[0], L)) + box.halfExtents.y * std::fabs(dot(box.axes[1], L)) +
         box.halfExtents.z * std::fabs(dot(box.axes[2], L));
}

// Edge axes shorter than this (the sine of the angle between the two box
// axes) are skipped by boxGap: the projections' rounding (~u·S) divided by
// the length stays below 1e-13·S, under the culling slack.
constexpr double kEdgeAxisMinSine = 1e-3;

// A lower bound on the distance between the boxes a and b: the largest of
// the gaps along the six face axes, |t·a_i| − h_a,i − Σ_j h_b,j |a_i·b_j|
// (each axis unit, so each gap is a distance between the boxes'
// projections, hence at most the boxes' distance), the same along the nine
// edge axes a_i × b_j normalized, and the gap of the bounding spheres.
// Never below 0.
double boxGap(const Obb& a, const Obb& b) {
  const Vec3 d = b.center - a.center;
  const double ra = length(a.halfExtents), rb = length(b.halfExtents);
  double gap = length(d) - ra - rb;
  const double ha[3] = {a.halfExtents.x, a.halfExtents.y, a.halfExtents.z};
  const double hb[3] = {b.halfExtents.x, b.halfExtents.y, b.halfExtents.z};
  const double t[3] = {dot(d, a.axes[0]), dot(d, a.axes[1]), dot(d, a.axes[2])};
  double r[3][3], ar[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      r[i][j] = dot(a.axes[i], b.axes[j]);
      ar[i][j] = std::fabs(r[i][j]);
    }
  for (int i = 0; i < 3; ++i) {
    const double g = std::fabs(t[i]) - ha[i] - (hb[0] * ar[i][0] + hb[1] * ar[i][1] + hb[2] * ar[i][2]);
    gap = std::fmax(gap, g);
  }
  for (int j = 0; j < 3; ++j) {
    const double tj = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j];
    const double g = std::fabs(tj) - hb[j] - (ha[0] * ar[0][j] + ha[1] * ar[1][j] + ha[2] * ar[2][j]);
    gap = std::fmax(gap, g);
  }
  // Edge axes a_i × b_j, from R as in obbSeparatingAxis (no cross product
  // formed), divided by their length √(1 − R_ij²); only when the unscaled
  // gap is positive (else it cannot raise the bound), and skipped when
  // nearly parallel (length < kEdgeAxisMinSine), where the division would
  // magnify the rounding of the projections beyond the slack.
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; ++j) {
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const double tl = t[i2] * r[i1][j] - t[i1] * r[i2][j];
      const double g = std::fabs(tl) - (ha[i1] * ar[i2][j] + ha[i2] * ar[i1][j]) -
                       (hb[j1] * ar[i][j2] + hb[j2] * ar[i][j1]);
      if (!(g > 0)) continue;
      const double len = std::sqrt(std::fmax(0.0, 1 - r[i][j] * r[i][j]));
      if (!(len >= kEdgeAxisMinSine)) continue;
      gap = std::fmax(gap, g / len);
    }
  }
  return std::fmax(gap, 0.0);
}

// The swept test: the box b moving by m over t ∈ [0, 1] against the node
// box a. The boxes meet at time t iff the centre offset d + t·m (d from a's
// centre to b's) lies in the Minkowski sum a ⊕ (−b), a convex polytope;
// along any axis L that needs |d·L + t·m·L| ≤ r_a(L) + r_b(L) (the boxes'
// projection radii, r(L) = Σ h_i |axis_i·L|). Each axis is a necessary
// condition, so an empty set of times on any one culls the node, and the
// intersection of their intervals bounds the entry time from below:
//   - the six face axes a_i and b_j: an interval of t each (the slab test);
//   - the six axes m × a_i and m × b_j, perpendicular to the motion: the
//     projection of the offset does not move, a static test (these catch
//     the long diagonal sweeps whose slabs in a's frame are loose).
// Every radius gets `slack`; on the cross axes, which are not normalized,
// slack·|m|: computing m × a_i rounds each component by ~u·|m| however
// short the product is, so the projections err by ~u·|m|·S, which that
// covers for motions at any angle to the axes.
// Returns false when the times are empty (a cull); else their start.
bool sweepAxis(const Vec3& L, const Vec3& d, const Vec3& m, double reach, double* t0, double* t1) {
  const double c = dot(d, L), v = dot(m, L);
  if (v == 0) return std::fabs(c) <= reach;
  double lo = (-reach - c) / v, hi = (reach - c) / v;
  if (lo > hi) std::swap(lo, hi);
  *t0 = std::fmax(*t0, lo);
  *t1 = std::fmin(*t1, hi);
  return *t0 <= *t1;
}

bool sweptEnter(const Obb& a, const Obb& b, const Vec3& m, double slack, double* enter) {
  const Vec3 d = b.center - a.center;
  const double mLength = length(m);
  double t0 = 0, t1 = 1;
  for (const Obb* box : {&a, &b})
    for (int i = 0; i < 3; ++i) {
      const Vec3& L = box->axes[i];
      if (!sweepAxis(L, d, m, projectionRadius(a, L) + projectionRadius(b, L) + slack, &t0, &t1)) return false;
    }
  for (const Obb* box : {&a, &b})
    for (int i = 0; i < 3; ++i) {
      const Vec3 L = cross(m, box->axes[i]);
      if (L == Vec3{}) continue;
      // m·L = 0: a static test on the offset.
      if (std::fabs(dot(d, L)) > projectionRadius(a, L) + projectionRadius(b, L) + slack * mLength) return false;
    }
  *enter = t0;
  return true;
}

// The shape as the leaf queries see it: ShapeAtPose with the mesh's margin
// added to its radius. A thickened mesh (triangles ⊕ ball(r)) meets a
// shape C exactly where the bare triangles meet C ⊕ ball(r), so the radius
// moves to the shape's side; the points are moved back afterwards
// (shiftPoints). With r = 0 every result is ShapeAtPose's, bit for bit.
struct MarginShape {
  ShapeAtPose inner;
  double extra;
  Vec3 support(const Vec3& d) const { return inner.support(d); }
  double radius() const { return inner.radius() + extra; }
  Vec3 center() const { return inner.center(); }
};

// Points computed against C ⊕ ball(r) (pointB on its surface) moved to
// the thickened mesh and to C: both by r along the unit normal n from the
// mesh to the shape. r = 0 adds zeros: the same bits.
void shiftPoints(const Vec3& n, double r, Vec3* pointA, Vec3* pointB) {
  *pointA += n * r;
  *pointB += n * r;
}

// What every tree query shares: the shape in the mesh's frame, its box and
// the culling slack.
struct Prepared {
  Transform local;  // the shape's pose in the mesh's frame
  Obb bound;        // its box there
  double slack = 0;
};

Prepared prepare(const ObbTree& tree, const Transform& meshPose, const Shape& shape, double meshMargin) {
  Prepared p;
  p.local = relativePose(meshPose, shape.pose);
  p.bound = boundOf(shape, p.local);
  p.bound.halfExtents = p.bound.halfExtents + Vec3{meshMargin, meshMargin, meshMargin};
  // Never below 1e-150: under it the sphere test's squares underflow, and
  // boxes of coordinates near the denormals are rounded by whole denormal
  // ulps, far more than 1e-12 of their size (a box of extents 4.9e-324
  // around a point at 4.9e-324 would miss the triangle at the origin it
  // touches). Scenes larger than ~1e-138 keep 1e-12·S.
  p.slack = std::fmax(kMeshConvexSlack * std::fmax(tree.scale, boxScale(p.bound)), 1e-150);
  return p;
}

TriangleShape triangleOf(const TriangleMesh& m, int t) {
  const auto& k = m.triangles[t];
  return TriangleShape{{m.vertices[k[0]], m.vertices[k[1]], m.vertices[k[2]]}};
}

bool marginValid(double r) { return std::isfinite(r) && r >= 0; }

bool inputsValid(const TriangleMesh& m, const ObbTree& tree, const Transform& meshPose, const Shape& shape,
                 const MeshConvexSettings& settings) {
  return treeMatches(m, tree) && finitePose(meshPose) && finitePose(shape.pose) && marginValid(shape.margin) &&
         marginValid(settings.meshMargin);
}

// A descent's explicit stack. Popping a node and pushing its two children
// keeps at most one pending sibling per level plus the two children of the
// deepest node: kObbTreeMaxDepth + 1 entries for a valid tree. A push
// beyond it (a corrupt tree) ends the query with MaxIterations.
template <class Entry>
struct FixedStack {
  Entry items[kObbTreeMaxDepth + 1];
  int size = 0;
  bool push(const Entry& e) {
    if (size >= kObbTreeMaxDepth + 1) return false;
    items[size++] = e;
    return true;
  }
  Entry pop() { return items[--size]; }
  bool empty() const { return size == 0; }
};

bool childIndexValid(const ObbTree& tree, int i) { return i >= 0 && i < static_cast<int>(tree.nodes.size()); }

bool leafRangeValid(const ObbTree& tree, const ObbTreeNode& n) {
  return n.first >= 0 && n.count > 0 && n.first + n.count <= static_cast<int>(tree.order.size());
}

// A plane's half-space in the mesh's frame: n·v ≤ d there (n unit).
struct LocalPlane {
  Vec3 normal;       // mesh frame
  Vec3 worldNormal;  // world frame
  double offset = 0;
};

bool planeValid(const Shape& plane) {
  return isFinite(plane.normal) && maxAbs(plane.normal) > 0 && std::isfinite(plane.offset) &&
         std::isfinite(plane.margin) && plane.margin >= 0 && finitePose(plane.pose);
}

LocalPlane localPlane(const Shape& plane, const Transform& meshPose) {
  const HalfSpace h = worldHalfSpace(plane);
  LocalPlane p;
  p.worldNormal = h.normal;
  p.normal = meshPose.toLocalDirection(h.normal);
  p.offset = h.offset - dot(h.normal, meshPose.position);
  return p;
}

// The lowest corner of triangle t over the plane: its height and index
// (0, 1, 2; the first on a tie).
double lowestCorner(const TriangleMesh& m, int t, const LocalPlane& p, int* corner) {
  const auto& k = m.triangles[t];
  double best = dot(p.normal, m.vertices[k[0]]) - p.offset;
  *corner = 0;
  for (int c = 1; c < 3; ++c) {
    const double h = dot(p.normal, m.vertices[k[c]]) - p.offset;
    if (h < best) {
      best = h;
      *corner = c;
    }
  }
  return best;
}

// The mesh's lowest vertex over the plane (the first triangle holding it).
double lowestVertex(const TriangleMesh& m, const LocalPlane& p, int* triangle, int* corner, int* visited) {
  double best = kInf;
  const int n = static_cast<int>(m.triangles.size());
  for (int t = 0; t < n; ++t) {
    int c = 0;
    const double h = lowestCorner(m, t, p, &c);
    if (h < best) {
      best = h;
      *triangle = t;
      *corner = c;
    }
  }
  *visited = n;
  return best;
}

}  // namespace

Obb convexBoundInFrame(const Shape& shape, const Transform& frame) {
  return boundOf(shape, relativePose(frame, shape.pose));
}

// ---------------------------------------------------------------- intersect

namespace {

// The leaf test of intersect, shared with meshConvexTriangleIntersect.
IntersectResult leafIntersect(const TriangleMesh& m, int t, const MarginShape& convex,
                              const MeshConvexSettings& settings) {
  return gjkIntersect(triangleOf(m, t), convex, settings.gjk);
}

}  // namespace

IntersectResult meshConvexTriangleIntersect(const TriangleMesh& m, const Transform& meshPose, const Shape& shape,
                                            int t, const MeshConvexSettings& settings) {
  const MarginShape convex{ShapeAtPose(shape, relativePose(meshPose, shape.pose)), settings.meshMargin};
  return leafIntersect(m, t, convex, settings);
}

namespace {

// A leaf's distance result (the mesh's frame) as the distance query's
// answer: its distance and triangle, the points moved by the mesh's margin
// and placed in the world. The status is the caller's.
void takeLeafDistance(const DistanceResult& leaf, int t, const Transform& meshPose, double meshMargin,
                      MeshDistanceResult* out) {
  out->distance = leaf.distance;
  out->intersecting = leaf.distance == 0;
  out->triangle = t;
  Vec3 a = leaf.pointA, b = leaf.pointB;
  // Apart: the unit normal is −v/‖v‖ (gjk.h). Touching: a common point.
  // Below 1e-150 ‖v‖² is subnormal or zero (a gap of 1e-255 would give 0/0
  // and NaN points): pre-scaled there (normalizedOr).
  if (leaf.distance > 0) {
    const double len = length(leaf.v);
    shiftPoints(len > 1e-150 ? leaf.v / -len : normalizedOr(-leaf.v, Vec3{}), meshMargin, &a, &b);
  }
  out->pointA = meshPose.apply(a);
  out->pointB = meshPose.apply(b);
}

}  // namespace

MeshDistanceResult meshConvexTriangleDistance(const TriangleMesh& m, const Transform& meshPose, const Shape& shape,
                                              int t, const MeshConvexSettings& settings) {
  const MarginShape convex{ShapeAtPose(shape, relativePose(meshPose, shape.pose)), settings.meshMargin};
  const DistanceResult leaf = gjkDistance(triangleOf(m, t), convex, settings.gjk);
  MeshDistanceResult out;
  out.triangleTests = 1;
  takeLeafDistance(leaf, t, meshPose, settings.meshMargin, &out);
  if (leaf.status != GjkStatus::Converged) out.status = MeshQueryStatus::LeafInexact;
  return out;
}

MeshIntersectResult meshConvexIntersect(const TriangleMesh& m, const ObbTree& tree, const Transform& meshPose,
                                        const Shape& shape, const MeshConvexSettings& settings) {
  if (shape.type == ShapeType::Plane) return planeMeshIntersect(m, meshPose, shape, settings.meshMargin);
  MeshIntersectResult out;
  if (!inputsValid(m, tree, meshPose, shape, settings)) {
    out.status = MeshQueryStatus::InvalidInput;
    return out;
  }
  const Prepared p = prepare(tree, meshPose, shape, settings.meshMargin);
  const MarginShape convex{ShapeAtPose(shape, p.local), settings.meshMargin};
  FixedStack<int> stack;
  stack.push(0);
  const long long visitCap = static_cast<long long>(tree.nodes.size());
  long long visits = 0;
  while (!stack.empty()) {
    const int node = stack.pop();
    if (++visits > visitCap || !childIndexValid(tree, node)) {
      out.status = MeshQueryStatus::MaxIterations;
      return out;
    }
    const ObbTreeNode& n = tree.nodes[node];
    if (volumesApart(n.box, p.bound, p.slack, &out.boxTests)) continue;
    if (n.leaf()) {
      if (!leafRangeValid(tree, n)) {
        out.status = MeshQueryStatus::MaxIterations;
        return out;
      }
      for (int i = 0; i < n.count; ++i) {
        const int t = tree.order[n.first + i];
        ++out.triangleTests;
        const IntersectResult r = leafIntersect(m, t, convex, settings);
        if (r.intersecting) {
          out.intersecting = true;
          out.triangle = t;
          if (r.status == GjkStatus::MaxIterations) out.status = MeshQueryStatus::LeafInexact;
          return out;
        }
      }
      continue;
    }
    // Right below left: the left child is tested first.
    if (!stack.push(n.right) || !stack.push(node + 1)) {
      out.status = MeshQueryStatus::MaxIterations;
      return out;
    }
  }
  return out;
}

// ---------------------------------------------------------------- distance

MeshDistanceResult meshConvexDistance(const TriangleMesh& m, const ObbTree& tree, const Transform& meshPose,
                                      const Shape& shape, const MeshConvexSettings& settings) {
  if (shape.type == ShapeType::Plane) return planeMeshDistance(m, meshPose, shape, settings.meshMargin);
  MeshDistanceResult out;
  if (!inputsValid(m, tree, meshPose, shape, settings)) {
    out.status = MeshQueryStatus::InvalidInput;
    return out;
  }
  const Prepared p = prepare(tree, meshPose, shape, settings.meshMargin);
  const MarginShape convex{ShapeAtPose(shape, p.local), settings.meshMargin};
  NoTrace none;

  double best = kInf;
  int bestTri = -1;
  DistanceResult bestLeaf;
  // Pruned beyond the best distance plus the leaves' tolerance and the box
  // tests' slack (kMeshDistancePruneFactor).
  auto limit = [&]() {
    return best + best * (kMeshDistancePruneFactor * settings.gjk.relativeTolerance) + p.slack;
  };

  struct Pending {
    int node;
    double bound;
  };
  FixedStack<Pending> stack;
  ++out.boxTests;
  stack.push({0, boxGap(tree.nodes[0].box, p.bound)});
  const long long visitCap = static_cast<long long>(tree.nodes.size());
  long long visits = 0;
  while (!stack.empty()) {
    const Pending e = stack.pop();
    if (++visits > visitCap || !childIndexValid(tree, e.node)) {
      out.status = MeshQueryStatus::MaxIterations;
      break;
    }
    if (e.bound > limit()) continue;
    const ObbTreeNode& n = tree.nodes[e.node];
    if (n.leaf()) {
      if (!leafRangeValid(tree, n)) {
        out.status = MeshQueryStatus::MaxIterations;
        break;
      }
      for (int i = 0; i < n.count; ++i) {
        const int t = tree.order[n.first + i];
        ++out.triangleTests;
        // Beyond the best so far the early stop of gjkDistanceWithin ends
        // the run; within it the run is gjkDistance's, step for step.
        const DistanceResult r = gjkDistanceWithin(triangleOf(m, t), convex, best, settings.gjk, none);
        if (r.beyondMargin) continue;
        if (r.distance < best || (r.distance == best && t < bestTri)) {
          best = r.distance;
          bestTri = t;
          bestLeaf = r;
        }
      }
      if (best == 0) break;  // touching: nothing can be nearer
      continue;
    }
    const int l = e.node + 1, r = n.right;
    if (!childIndexValid(tree, l) || !childIndexValid(tree, r)) {
      out.status = MeshQueryStatus::MaxIterations;
      break;
    }
    out.boxTests += 2;
    const double gl = boxGap(tree.nodes[l].box, p.bound);
    const double gr = boxGap(tree.nodes[r].box, p.bound);
    // The nearer child is popped first (the left on a tie).
    const Pending first = gr < gl ? Pending{r, gr} : Pending{l, gl};
    const Pending second = gr < gl ? Pending{l, gl} : Pending{r, gr};
    bool ok = true;
    if (second.bound <= limit()) ok = stack.push(second);
    if (ok && first.bound <= limit()) ok = stack.push(first);
    if (!ok) {
      out.status = MeshQueryStatus::MaxIterations;
      break;
    }
  }
  if (bestTri >= 0) {
    takeLeafDistance(bestLeaf, bestTri, meshPose, settings.meshMargin, &out);
    if (out.status == MeshQueryStatus::Converged && bestLeaf.status != GjkStatus::Converged)
      out.status = MeshQueryStatus::LeafInexact;
  }
  return out;
}

// ---------------------------------------------------------------- contacts

MeshContactsResult meshConvexContacts(const TriangleMesh& m, const ObbTree& tree, const Transform& meshPose,
                                      const Shape& shape, double margin, MeshContact* out, int capacity,
                                      const MeshConvexSettings& settings) {
  if (shape.type == ShapeType::Plane)
    return planeMeshContacts(m, meshPose, shape, margin, out, capacity, settings.meshMargin);
  MeshContactsResult res;
  if (!inputsValid(m, tree, meshPose, shape, settings) || !std::isfinite(margin) || !(margin >= 0) || capacity < 0 ||
      (capacity > 0 && out == nullptr)) {
    res.status = MeshQueryStatus::InvalidInput;
    return res;
  }
  const Prepared p = prepare(tree, meshPose, shape, settings.meshMargin);
  const MarginShape convex{ShapeAtPose(shape, p.local), settings.meshMargin};
  // The shape grown by the margin lies in its box grown by the margin.
  Obb grown = p.bound;
  grown.halfExtents = grown.halfExtents + Vec3{margin, margin, margin};

  FixedStack<int> stack;
  stack.push(0);
  const long long visitCap = static_cast<long long>(tree.nodes.size());
  long long visits = 0;
  while (!stack.empty()) {
    const int node = stack.pop();
    if (++visits > visitCap || !childIndexValid(tree, node)) {
      res.status = MeshQueryStatus::MaxIterations;
      break;
    }
    const ObbTreeNode& n = tree.nodes[node];
    if (volumesApart(n.box, grown, p.slack, &res.boxTests)) continue;
    if (n.leaf()) {
      if (!leafRangeValid(tree, n)) {
        res.status = MeshQueryStatus::MaxIterations;
        break;
      }
      for (int i = 0; i < n.count; ++i) {
        const int t = tree.order[n.first + i];
        const TriangleShape tri = triangleOf(m, t);
        ++res.triangleTests;
        const TriangleContactResult c =
            triangleContact(tri.v[0], tri.v[1], tri.v[2], convex, margin, settings.gjk, settings.epa);
        if (!c.contact) continue;
        ++res.found;
        if (res.count >= capacity) {
          res.truncated = true;
          continue;
        }
        MeshContact& k = out[res.count++];
        Vec3 a = c.pointA, b = c.pointB;
        shiftPoints(c.normal, settings.meshMargin, &a, &b);
        k.triangle = t;
        k.depth = -c.distance;
        k.normal = meshPose.applyToDirection(c.normal);
        k.pointA = meshPose.apply(a);
        k.pointB = meshPose.apply(b);
        k.face = c.face;
        if (res.status == MeshQueryStatus::Converged && c.status != EpaStatus::Converged &&
            c.status != EpaStatus::Touching)
          res.status = MeshQueryStatus::LeafInexact;
      }
      continue;
    }
    if (!stack.push(n.right) || !stack.push(node + 1)) {
      res.status = MeshQueryStatus::MaxIterations;
      break;
    }
  }
  return res;
}

// ---------------------------------------------------------------- shape cast

MeshShapeCastResult meshConvexShapeCast(const TriangleMesh& m, const ObbTree& tree, const Transform& meshPose,
                                        const Shape& shape, const Vec3& motion, const MeshConvexSettings& settings) {
  if (shape.type == ShapeType::Plane) return planeMeshShapeCast(m, meshPose, shape, motion, settings.meshMargin);
  MeshShapeCastResult out;
  if (!inputsValid(m, tree, meshPose, shape, settings) || !isFinite(motion)) {
    out.status = MeshQueryStatus::InvalidInput;
    return out;
  }
  const Prepared p = prepare(tree, meshPose, shape, settings.meshMargin);
  const MarginShape convex{ShapeAtPose(shape, p.local), settings.meshMargin};
  const Vec3 mLocal = meshPose.toLocalDirection(motion);
  // kMeshCastPruneSlack·S of travel in units of t (no pruning without motion).
  const double travel = length(mLocal);
  const double tSlack =
      travel > 0 ? kMeshCastPruneSlack * std::fmax(tree.scale, boxScale(p.bound)) / travel : kInf;

  double best = kInf;
  int bestTri = -1;
  ShapeCastResult bestCast;
  struct Pending {
    int node;
    double enter;
  };
  FixedStack<Pending> stack;
  double enter0 = 0;
  ++out.boxTests;
  if (sweptEnter(tree.nodes[0].box, p.bound, mLocal, p.slack, &enter0)) stack.push({0, enter0});
  const long long visitCap = static_cast<long long>(tree.nodes.size());
  long long visits = 0;
  while (!stack.empty()) {
    const Pending e = stack.pop();
    if (++visits > visitCap || !childIndexValid(tree, e.node)) {
      out.status = MeshQueryStatus::MaxIterations;
      break;
    }
    if (e.enter > best + tSlack) continue;
    const ObbTreeNode& n = tree.nodes[e.node];
    if (n.leaf()) {
      if (!leafRangeValid(tree, n)) {
        out.status = MeshQueryStatus::MaxIterations;
        break;
      }
      for (int i = 0; i < n.count; ++i) {
        const int t = tree.order[n.first + i];
        ++out.triangleTests;
        const ShapeCastResult c = gjkShapeCast(triangleOf(m, t), convex, Vec3{}, mLocal, settings.cast);
        if (!c.hit) continue;
        if (c.t < best || (c.t == best && t < bestTri)) {
          best = c.t;
          bestTri = t;
          bestCast = c;
        }
      }
      continue;
    }
    const int l = e.node + 1, r = n.right;
    if (!childIndexValid(tree, l) || !childIndexValid(tree, r)) {
      out.status = MeshQueryStatus::MaxIterations;
      break;
    }
    out.boxTests += 2;
    double el = 0, er = 0;
    const bool hl = sweptEnter(tree.nodes[l].box, p.bound, mLocal, p.slack, &el);
    const bool hr = sweptEnter(tree.nodes[r].box, p.bound, mLocal, p.slack, &er);
    bool ok = true;
    if (hl && hr) {
      // The one entered first is popped first (the left on a tie).
      const Pending first = er < el ? Pending{r, er} : Pending{l, el};
      const Pending second = er < el ? Pending{l, el} : Pending{r, er};
      ok = stack.push(second) && stack.push(first);
    } else if (hl) {
      ok = stack.push({l, el});
    } else if (hr) {
      ok = stack.push({r, er});
    }
    if (!ok) {
      out.status = MeshQueryStatus::MaxIterations;
      break;
    }
  }
  if (bestTri >= 0) {
    out.hit = true;
    out.t = best;
    out.triangle = bestTri;
    out.initiallyOverlapping = bestCast.initiallyOverlapping;
    Vec3 a = bestCast.pointA, b = bestCast.pointB;
    if (!bestCast.initiallyOverlapping) shiftPoints(bestCast.normal, settings.meshMargin, &a, &b);
    out.normal = meshPose.applyToDirection(bestCast.normal);
    out.pointA = meshPose.apply(a);
    out.pointB = meshPose.apply(b);
    if (out.status == MeshQueryStatus::Converged && bestCast.status != RayCastStatus::Converged)
      out.status = MeshQueryStatus::LeafInexact;
  }
  return out;
}

// ---------------------------------------------------------------- planes

// In the plane forms below, h is a vertex's height over the surface and r
// the mesh's margin: the thickened mesh reaches r below its lowest vertex,
// so its gap is h − r, its lowest point v − r·n and the foot of v on the
// surface v − h·n. Points are computed in the mesh's frame.

MeshIntersectResult planeMeshIntersect(const TriangleMesh& m, const Transform& meshPose, const Shape& plane,
                                       double meshMargin) {
  MeshIntersectResult out;
  if (!planeValid(plane) || !finitePose(meshPose) || !marginValid(meshMargin)) {
    out.status = MeshQueryStatus::InvalidInput;
    return out;
  }
  const LocalPlane p = localPlane(plane, meshPose);
  const int n = static_cast<int>(m.triangles.size());
  for (int t = 0; t < n; ++t) {
    ++out.triangleTests;
    int c = 0;
    if (lowestCorner(m, t, p, &c) - meshMargin <= 0) {
      out.intersecting = true;
      out.triangle = t;
      return out;
    }
  }
  return out;
}

MeshDistanceResult planeMeshDistance(const TriangleMesh& m, const Transform& meshPose, const Shape& plane,
                                     double meshMargin) {
  MeshDistanceResult out;
  if (!planeValid(plane) || !finitePose(meshPose) || !marginValid(meshMargin) || m.triangles.empty()) {
    out.status = MeshQueryStatus::InvalidInput;
    return out;
  }
  const LocalPlane p = localPlane(plane, meshPose);
  int tri = 0, corner = 0;
  const double h = lowestVertex(m, p, &tri, &corner, &out.triangleTests);
  const double gap = h - meshMargin;
  const Vec3 v = m.vertices[m.triangles[tri][corner]];
  out.triangle = tri;
  out.distance = std::fmax(gap, 0.0);
  out.intersecting = gap <= 0;
  if (gap > 0) {
    out.pointA = meshPose.apply(v - p.normal * meshMargin);
    out.pointB = meshPose.apply(v - p.normal * h);
  } else {
    // A common point: v itself when it is in the half-space, else its foot
    // on the surface (within r of v, so in the thickened mesh).
    out.pointA = out.pointB = meshPose.apply(h > 0 ? v - p.normal * h : v);
  }
  return out;
}

MeshContactsResult planeMeshContacts(const TriangleMesh& m, const Transform& meshPose, const Shape& plane,
                                     double margin, MeshContact* out, int capacity, double meshMargin) {
  MeshContactsResult res;
  if (!planeValid(plane) || !finitePose(meshPose) || !marginValid(margin) || !marginValid(meshMargin) ||
      capacity < 0 || (capacity > 0 && out == nullptr)) {
    res.status = MeshQueryStatus::InvalidInput;
    return res;
  }
  const LocalPlane p = localPlane(plane, meshPose);
  const int n = static_cast<int>(m.triangles.size());
  for (int t = 0; t < n; ++t) {
    ++res.triangleTests;
    int c = 0;
    const double h = lowestCorner(m, t, p, &c);
    if (!(h - meshMargin <= margin)) continue;
    ++res.found;
    if (res.count >= capacity) {
      res.truncated = true;
      continue;
    }
    const Vec3 v = m.vertices[m.triangles[t][c]];
    MeshContact& k = out[res.count++];
    k.triangle = t;
    k.depth = meshMargin - h;
    k.normal = -p.worldNormal;
    k.pointA = meshPose.apply(v - p.normal * meshMargin);
    k.pointB = meshPose.apply(v - p.normal * h);
    k.face = false;
  }
  return res;
}

MeshShapeCastResult planeMeshShapeCast(const TriangleMesh& m, const Transform& meshPose, const Shape& plane,
                                       const Vec3& motion, double meshMargin) {
  MeshShapeCastResult out;
  if (!planeValid(plane) || !finitePose(meshPose) || !isFinite(motion) || !marginValid(meshMargin) ||
      m.triangles.empty()) {
    out.status = MeshQueryStatus::InvalidInput;
    return out;
  }
  const LocalPlane p = localPlane(plane, meshPose);
  int tri = 0, corner = 0;
  const double h = lowestVertex(m, p, &tri, &corner, &out.triangleTests);
  const double gap = h - meshMargin;
  const Vec3 v = m.vertices[m.triangles[tri][corner]];
  const double rise = dot(p.worldNormal, motion);
  if (gap <= 0) {
    out.hit = true;
    out.initiallyOverlapping = true;
    out.pointA = out.pointB = meshPose.apply(h > 0 ? v - p.normal * h : v);
  } else if (rise > 0 && gap <= rise) {
    out.hit = true;
    out.t = gap / rise;
    out.normal = -p.worldNormal;
    out.pointA = out.pointB = meshPose.apply(v - p.normal * meshMargin);
  }
  if (out.hit) out.triangle = tri;
  return out;
}

}  // namespace collidoscope
