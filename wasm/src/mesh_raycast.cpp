// collidoscope — ray casts on triangle meshes (see mesh_raycast.h).
#include "collidoscope/mesh_raycast.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

#include "collidoscope/predicates.h"

namespace collidoscope {

namespace {

constexpr double kMaxDouble = std::numeric_limits<double>::max();

// The edge function e = px·qy − py·qx (twice the signed area of (O, p, q))
// in doubles, with its exact sign: returns the sign, and *value agrees with
// it (zero when rounding gave the value the other sign or lost it). The
// sign is orient2d's (predicates.h) for the points (0, 0), p, q, whose
// terms are these products: its filter is inlined here without branching
// on the sign (a branch predictor cannot guess it), and only the rare
// uncertain case calls the exact predicate. Below the predicate's domain
// (magnitudes under 2^-300) its products underflow and the sign is lost (a
// ray 0.5 from a triangle whose sheared x were denormal came out hitting it
// at t = −0); each product has one x and one y factor, so the two x (and
// the two y) are first scaled by a power of two to unit size, which scales
// e exactly and keeps its sign. The scale depends only on the edge's two
// endpoints, so the two triangles on an edge still see opposite signs.
inline int edgeFunction(double px, double py, double qx, double qy, double* value) {
  const double l = px * qy, r = py * qx;
  const double e = l - r;
  const double permanent = std::fabs(l) + std::fabs(r);
  const double bound = predicates_detail::kOrient2dBound * permanent;
  const int positive = e > bound, negative = -e > bound;
  if (!((positive | negative) & (permanent >= predicates_detail::kMinPermanent))) {
    const auto lift = [](double* a, double* b) {
      const double m = std::fmax(std::fabs(*a), std::fabs(*b));
      if (m > 0 && m < 0x1p-300) {
        const int k = -std::ilogb(m);
        *a = std::ldexp(*a, k);
        *b = std::ldexp(*b, k);
      }
    };
    lift(&px, &qx);
    lift(&py, &qy);
    const int s = orient2d(0.0, 0.0, px, py, qx, qy);
    *value = (s > 0 && e > 0) || (s < 0 && e < 0) ? e : 0.0;
    return s;
  }
  *value = e;
  return positive - negative;
}

// t moved into the triangle's bounding box. The hit point lies in the
// triangle, so inside its box: t with every t·d_k within [min_k, max_k]
// (corners relative to the origin). t from the sums of the watertight test
// can be far off where det, the sum of U, V, W, cancels (a sliver 1e6 long
// and 1e-7 wide: t 0.05 off); a t whose point is outside the box by more
// than rounding is clamped to the box's slab interval, rounded outward, so
// a t within rounding of the exact one is never moved.
[[gnu::noinline]] double clampToBox(double t, const Vec3& A, const Vec3& B, const Vec3& C, const Vec3& d) {
  constexpr double kSlack = 16 * std::numeric_limits<double>::epsilon();
  double low = 0, high = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 3; ++k) {
    if (d[k] == 0) continue;
    double a = std::fmin(A[k], std::fmin(B[k], C[k])) / d[k];
    double b = std::fmax(A[k], std::fmax(B[k], C[k])) / d[k];
    if (a > b) std::swap(a, b);
    low = std::fmax(low, a - kSlack * std::fabs(a));
    high = std::fmin(high, b + kSlack * std::fabs(b));
  }
  return low <= high ? std::fmin(std::fmax(t, low), high) : t;
}

// Whether t puts the hit point outside the triangle's box by more than
// rounding (clampToBox then moves it): three products, no division.
inline bool outsideBox(double t, const Vec3& A, const Vec3& B, const Vec3& C, const Vec3& d) {
  constexpr double kSlack = 8 * std::numeric_limits<double>::epsilon();
  bool outside = false;
  for (int k = 0; k < 3; ++k) {
    const double p = t * d[k];
    const double low = std::fmin(A[k], std::fmin(B[k], C[k])), high = std::fmax(A[k], std::fmax(B[k], C[k]));
    const double slack = kSlack * (std::fabs(low) + std::fabs(high) + std::fabs(p));
    outside |= (p < low - slack) | (p > high + slack);
  }
  return outside;
}

// The watertight test (the header's formulas) on the corners relative to
// the ray's origin. kScaled: the ray and corners come from scaledTest, and
// t is taken back to the caller's by 2^tExponent before its range is
// checked; a t beyond the doubles is a miss (no box of the descent is
// entered there either: its entries are +∞).
template <bool kScaled>
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline bool shearedTest(const ShearedRay& ray, const Vec3& A, const Vec3& B, const Vec3& C, double maxT,
                        int tExponent, RayTriangleHit* hit) {
  const double ax = A[ray.kx] - ray.sx * A[ray.kz], ay = A[ray.ky] - ray.sy * A[ray.kz];
  const double bx = B[ray.kx] - ray.sx * B[ray.kz], by = B[ray.ky] - ray.sy * B[ray.kz];
  const double cx = C[ray.kx] - ray.sx * C[ray.kz], cy = C[ray.ky] - ray.sy * C[ray.kz];
  double U, V, W;
  const int su = edgeFunction(cx, cy, bx, by, &U);  // C'x·B'y − C'y·B'x
  const int sv = edgeFunction(ax, ay, cx, cy, &V);
  const int sw = edgeFunction(bx, by, ax, ay, &W);
  // One branch for the three sign tests (whether a ray meets a triangle is
  // hard to predict).
  if ((su * sv < 0) | (su * sw < 0) | (sv * sw < 0)) return false;
  const double det = U + V + W;
  if (det == 0) return false;  // in the triangle's plane, or seen edge on to rounding
  const double az = ray.sz * A[ray.kz], bz = ray.sz * B[ray.kz], cz = ray.sz * C[ray.kz];
  double t;
  if (kScaled) {
    // A triangle seen nearly edge on can have a denormal det, and then U·az
    // underflows: U, V, W (one sign, summing to det) first go to det's
    // scale 1, exactly.
    const int s = -std::ilogb(det);
    t = (std::ldexp(U, s) * az + std::ldexp(V, s) * bz + std::ldexp(W, s) * cz) / std::ldexp(det, s);
    if (outsideBox(t, A, B, C, ray.direction)) t = clampToBox(t, A, B, C, ray.direction);
    t = std::ldexp(t, tExponent);
    if (!(t <= kMaxDouble)) return false;
  } else {
    t = (U * az + V * bz + W * cz) / det;
    if (outsideBox(t, A, B, C, ray.direction)) t = clampToBox(t, A, B, C, ray.direction);
  }
  if (!(t >= 0 && t <= maxT)) return false;
  hit->t = t;
  hit->barycentric = {U / det, V / det, W / det};
  return true;
}

// A corner coordinate (relative to the ray's origin) outside the shear's
// range: non-zero below 2^-300.
inline bool tinyCorner(const Vec3& p) {
  const auto tiny = [](double v) { return v != 0 && std::fabs(v) < 0x1p-300; };
  return tiny(p.x) | tiny(p.y) | tiny(p.z);
}

// The scaled path (the header's "Denormal scale"): each axis of the corners
// and of the direction multiplied by one power of two, the direction then
// by another. An axis whose corners' largest magnitude is below 1 is
// scaled up to [1, 2); no axis is scaled down, which would round its small
// coordinates (a corner 4.9e-324 off the ray on an axis whose largest is
// 400 would fall onto it). The direction is then scaled so that its largest
// component lies in [1, 2). Incidence and the barycentric coordinates are
// unchanged by it, t is multiplied by 2^g (g the direction's own exponent),
// and only direction components below 2^-1074 of the largest can round
// (to 0: their shear quotient underflows in any scaling). The shear is then
// taken afresh, for the scaled direction; what still underflows in it
// (products with a denormal quotient) is rounded by at most 2^-1075 in the
// scaled coordinates, no more than that in the caller's.
bool scaledTest(const ShearedRay& ray, const Vec3& A, const Vec3& B, const Vec3& C, double maxT,
                RayTriangleHit* hit) {
  const Vec3& d = ray.direction;
  Vec3 sa, sb, sc, sd;
  int axisExponent[3] = {0, 0, 0};
  int g = std::numeric_limits<int>::min();
  for (int k = 0; k < 3; ++k) {
    const double m = std::fmax(std::fabs(A[k]), std::fmax(std::fabs(B[k]), std::fabs(C[k])));
    // Corners all at the origin's coordinate on this axis: any scale keeps
    // them there; the direction's is taken.
    const int e = m > 0 ? std::max(0, -std::ilogb(m)) : d[k] != 0 ? -std::ilogb(d[k]) : 0;
    axisExponent[k] = e;
    sa[k] = std::ldexp(A[k], e);
    sb[k] = std::ldexp(B[k], e);
    sc[k] = std::ldexp(C[k], e);
    if (d[k] != 0) g = std::max(g, std::ilogb(d[k]) + e);
  }
  if (g == std::numeric_limits<int>::min()) return false;  // a zero direction (make() refuses to shear it)
  for (int k = 0; k < 3; ++k) sd[k] = std::ldexp(d[k], axisExponent[k] - g);  // one step: no overflow between
  const ShearedRay scaled = ShearedRay::make(Vec3{0, 0, 0}, sd);
  return shearedTest<true>(scaled, sa, sb, sc, maxT, -g, hit);
}

// rayTriangle where no corner can be tiny relative to the origin (the
// descent's shortcut when neither the ray nor the layout has a tiny
// coordinate: kRayTinyCoordinate).
inline bool rayTriangleInRange(const ShearedRay& ray, const Vec3& a, const Vec3& b, const Vec3& c, double maxT,
                               RayTriangleHit* hit) {
  return shearedTest<false>(ray, a - ray.origin, b - ray.origin, c - ray.origin, maxT, 0, hit);
}

// v moved one double past it toward `toward`, and once more if that lands
// on a float: never a float, so never equal to a bound of a float box.
// (Floats lie 2²⁹ doubles apart, and a double next to one is not one.)
double offTheFloats(double v, double toward) {
  v = std::nextafter(v, toward);
  if (std::fabs(v) <= std::numeric_limits<float>::max() && static_cast<double>(static_cast<float>(v)) == v)
    v = std::nextafter(v, toward);
  return v;
}

// The ray for the slab tests on the float boxes of obbtree_rays.h, in
// double: per axis the inverse direction (±∞ for a zero component) and the
// origin shifted so that (bound − shifted origin) is the distance to the
// bound padded by pad (lows moved down, highs up). Which bound of an axis
// is met first (the high one when the inverse is negative, "down") is a
// template parameter of the descent below: the box offsets are then
// constants. An axis whose inverse is infinite (a zero component, or one
// below 2^-1024, whose inverse overflows) is taken as parallel to the
// slab, the slab grown on both sides by the most the ray moves along it
// while t ≤ min(maxT, the largest double) (no hit lies beyond: mesh_raycast.h),
// under 1; there the shifted origins are also moved off the floats, outward
// (the slab only grows), so a bound minus one is never zero: every
// (bound − origin)·inverse is a number, ±∞ on such an axis, never 0·∞ = NaN.
struct SlabRay {
  double inv[3];
  double nearOrigin[3], farOrigin[3];
  int octant = 0;  // bit a set: axis a is down
  SlabRay(const Vec3& o, const Vec3& d, double pad, double maxT) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    for (int a = 0; a < 3; ++a) {
      inv[a] = 1.0 / d[a];
      const bool down = std::signbit(inv[a]);
      double lowOrigin = o[a] + pad, highOrigin = o[a] - pad;
      if (std::isinf(inv[a])) {
        const double travel = std::nextafter(std::fabs(d[a]) * std::fmin(maxT, kMaxDouble), kInf);
        lowOrigin = offTheFloats(lowOrigin + travel, kInf);
        highOrigin = offTheFloats(highOrigin - travel, -kInf);
      }
      nearOrigin[a] = down ? highOrigin : lowOrigin;
      farOrigin[a] = down ? lowOrigin : highOrigin;
      octant |= down ? 1 << a : 0;
    }
  }
};

// The bits of a double as an integer. Doubles ≥ +0 order as their bits do
// (as signed integers), and a negative double's bits are below every one
// of theirs: so the largest of +0 and some doubles is the double of the
// largest of their bits, and the least of a double ≥ +0 and others that are
// all ≥ +0 is the double of the least bits (with a negative one among them,
// some negative one or −0).
inline std::int64_t bitsOf(double x) {
  std::int64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
inline double doubleOf(std::int64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
inline std::int64_t maxBits(std::int64_t a, std::int64_t b) { return b > a ? b : a; }
inline std::int64_t minBits(std::int64_t a, std::int64_t b) { return b < a ? b : a; }

// The slab test of one box: true when the ray meets it (padded) at some t
// in [0, limit], with *enter the bits of the first such t. limit (bits of
// a double ≥ 0) is finite (an infinite one is passed as the largest
// double), so a ray parallel to a slab outside it (+∞ entry, or −∞ exit)
// is rejected. The largest entry and least exit are taken on the bits
// (bitsOf): WebAssembly engines select between doubles with a branch,
// between integers without, and which axis is entered last is as good as
// random to a branch predictor. An exit of −0 (the box's far bound exactly
// at the padded origin) may hide another axis's negative exit and keep the
// box: the safe side. The ray's numbers come as scalars (the descent keeps
// them in locals: in WebAssembly a field read through a pointer is a load
// from memory on every box).
template <int Octant>
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline bool slabTest(const float* box, double ix, double iy, double iz, double nx0, double ny0, double nz0,
                     double fx0, double fy0, double fz0, std::int64_t limit, std::int64_t* enter) {
  constexpr int nx = Octant & 1 ? 3 : 0, ny = Octant & 2 ? 4 : 1, nz = Octant & 4 ? 5 : 2;
  constexpr int fx = Octant & 1 ? 0 : 3, fy = Octant & 2 ? 1 : 4, fz = Octant & 4 ? 2 : 5;
  const double nearX = (static_cast<double>(box[nx]) - nx0) * ix;
  const double nearY = (static_cast<double>(box[ny]) - ny0) * iy;
  const double nearZ = (static_cast<double>(box[nz]) - nz0) * iz;
  const double farX = (static_cast<double>(box[fx]) - fx0) * ix;
  const double farY = (static_cast<double>(box[fy]) - fy0) * iy;
  const double farZ = (static_cast<double>(box[fz]) - fz0) * iz;
  const std::int64_t lo = maxBits(maxBits(0, bitsOf(nearX)), maxBits(bitsOf(nearY), bitsOf(nearZ)));
  const std::int64_t hi = minBits(minBits(limit, bitsOf(farX)), minBits(bitsOf(farY), bitsOf(farZ)));
  *enter = lo;
  return doubleOf(lo) <= doubleOf(hi);
}

// The best hit so far and the work done.
struct Descent {
  double best;  // hits beyond it are not wanted
  int bestTri = -1;
  RayTriangleHit bestHit;
  int boxTests = 0, triangleTests = 0;
  MeshRayStatus status = MeshRayStatus::Converged;
};

// Boxes entered after this are pruned; finite (see slabTest), ∞ maps to the
// largest double. A hit at t = −0 (the origin on a triangle) gives +0: the
// descent compares the bits of entries ≥ +0 with it, and −0's bits are
// below all of theirs. (best is never NaN: a comparison, not std::fmin,
// which WebAssembly calls out of line.)
inline double pruneLimit(double best) {
  const double limit = best + kMeshRayPruneSlack * best + 0.0;  // −0 + 0 = +0
  return limit < kMaxDouble ? limit : kMaxDouble;
}

template <int Octant>
void descend(const RayTree& rt, const ShearedRay& ray, const SlabRay& slab, MeshRayMode mode,
             Descent* st) {
  struct Pending {
    int ref;
    std::int64_t enter;
  };
  constexpr int kNone = std::numeric_limits<int>::min();  // no reference is this
  Pending stack[kObbTreeMaxDepth + 1];
  int sp = 0;
  const long long visitCap = 2 * static_cast<long long>(rt.nodes.size()) + 2;
  long long visits = 0;
  double best = st->best;
  std::int64_t limit = bitsOf(pruneLimit(best));
  int bestTri = -1;
  int boxTests = 1, triangleTests = 0;
  const double ix = slab.inv[0], iy = slab.inv[1], iz = slab.inv[2];
  const double nx0 = slab.nearOrigin[0], ny0 = slab.nearOrigin[1], nz0 = slab.nearOrigin[2];
  const double fx0 = slab.farOrigin[0], fy0 = slab.farOrigin[1], fz0 = slab.farOrigin[2];
  const RayNode* nodes = rt.nodes.data();
  const int* triangles = rt.triangles.data();
  const float* floatCorners = rt.floatCorners.empty() ? nullptr : rt.floatCorners.data();
  const Vec3* corners = rt.corners.data();
  // rayTriangle's own choice, made once per ray where it cannot fall on the
  // scaled path (kRayTinyCoordinate): the answers are the same.
  const bool checkCorners = ray.scaled | ray.tinyOrigin | rt.tinyCorners;
  const auto test = [&](const float* box, std::int64_t* enter) {
    return slabTest<Octant>(box, ix, iy, iz, nx0, ny0, nz0, fx0, fy0, fz0, limit, enter);
  };

  std::int64_t enter = 0;
  int ref = test(rt.rootBox, &enter) ? rt.root : kNone;
  while (ref != kNone) {
    if (++visits > visitCap) {
      st->status = MeshRayStatus::MaxIterations;
      break;
    }
    int next = kNone;
    if (rayLeaf(ref)) {
      const int first = rayLeafFirst(ref);
      const int count = rayLeafCount(ref);
      for (int i = 0; i < count; ++i) {
        RayTriangleHit h;
        ++triangleTests;
        bool hit;
        if (floatCorners != nullptr) {  // a float is never tiny
          const float* c = floatCorners + 9 * (static_cast<std::size_t>(first) + i);
          const Vec3 a{c[0], c[1], c[2]}, b{c[3], c[4], c[5]}, d{c[6], c[7], c[8]};
          hit = checkCorners ? rayTriangle(ray, a, b, d, best, &h) : rayTriangleInRange(ray, a, b, d, best, &h);
        } else {
          const Vec3* c = corners + 3 * (static_cast<std::size_t>(first) + i);
          hit = checkCorners ? rayTriangle(ray, c[0], c[1], c[2], best, &h)
                             : rayTriangleInRange(ray, c[0], c[1], c[2], best, &h);
        }
        if (!hit) continue;
        const int t = triangles[first + i];  // read on a hit only: another cache line
        if (bestTri < 0 || h.t < best || (h.t == best && t < bestTri)) {
          best = h.t;
          bestTri = t;
          st->bestHit = h;
          limit = bitsOf(pruneLimit(best));
          if (mode == MeshRayMode::Any) break;
        }
      }
      if (mode == MeshRayMode::Any && bestTri >= 0) break;
    } else {
      const RayNode& n = nodes[ref];
      std::int64_t el = 0, er = 0;
      boxTests += 2;
      const bool hl = test(n.box[0], &el);
      const bool hr = test(n.box[1], &er);
      // Selected, not branched on (which child is nearer is as good as random
      // to a branch predictor): the nearer hit child next, the farther one
      // pushed when both are hit.
      const bool rightFirst = hr & (!hl | (er < el));
      const int c0 = n.child[0], c1 = n.child[1];
      stack[sp].ref = rightFirst ? c0 : c1;
      stack[sp].enter = rightFirst ? el : er;
      sp += hl & hr;
      next = (hl | hr) ? (rightFirst ? c1 : c0) : kNone;
    }
    while (next == kNone && sp > 0) {
      const Pending p = stack[--sp];
      if (p.enter <= limit) next = p.ref;  // else entered after the best hit: pruned
    }
    ref = next;
  }
  st->best = best;
  st->bestTri = bestTri;
  st->boxTests = boxTests;
  st->triangleTests = triangleTests;
}

bool validRay(const Vec3& o, const Vec3& d, double maxT) {
  return isFinite(o) && isFinite(d) && maxAbs(d) > 0 && maxT >= 0;  // maxT NaN fails the comparison
}

}  // namespace

const char* meshRayStatusName(MeshRayStatus s) {
  switch (s) {
    case MeshRayStatus::Converged: return "converged";
    case MeshRayStatus::InvalidInput: return "invalid-input";
    case MeshRayStatus::MaxIterations: return "max-iterations";
  }
  return "invalid-input";
}

ShearedRay ShearedRay::make(const Vec3& origin, const Vec3& d) {
  ShearedRay r;
  r.origin = origin;
  r.kz = 0;
  if (std::fabs(d.y) > std::fabs(d[r.kz])) r.kz = 1;
  if (std::fabs(d.z) > std::fabs(d[r.kz])) r.kz = 2;
  r.kx = (r.kz + 1) % 3;
  r.ky = (r.kx + 1) % 3;
  if (d[r.kz] < 0) std::swap(r.kx, r.ky);  // keep the winding
  r.sx = d[r.kx] / d[r.kz];
  r.sy = d[r.ky] / d[r.kz];
  r.sz = 1.0 / d[r.kz];
  r.direction = d;
  const auto outOfRange = [](double v) { return v != 0 && !(std::fabs(v) >= 0x1p-300 && std::fabs(v) <= 0x1p300); };
  r.scaled = outOfRange(d.x) || outOfRange(d.y) || outOfRange(d.z);
  const auto tiny = [](double v) { return v != 0 && std::fabs(v) < kRayTinyCoordinate; };
  r.tinyOrigin = tiny(origin.x) || tiny(origin.y) || tiny(origin.z);
  return r;
}

bool rayTriangle(const ShearedRay& ray, const Vec3& a, const Vec3& b, const Vec3& c, double maxT,
                 RayTriangleHit* hit) {
  const Vec3 A = a - ray.origin, B = b - ray.origin, C = c - ray.origin;
  if (ray.scaled || tinyCorner(A) || tinyCorner(B) || tinyCorner(C)) return scaledTest(ray, A, B, C, maxT, hit);
  return shearedTest<false>(ray, A, B, C, maxT, 0, hit);
}

MeshRayHit rayCastMeshLocal(const TriangleMesh& m, const ObbTree& tree, const Vec3& origin, const Vec3& direction,
                            double maxT, MeshRayMode mode) {
  MeshRayHit out;
  if (!validRay(origin, direction, maxT)) {
    out.status = MeshRayStatus::InvalidInput;
    return out;
  }
  // A tree that was not built from this mesh (or an empty one) answers
  // nothing. Only the ray part is read: the OBB nodes may not be built.
  const RayTree& rt = tree.rays;
  if (!rt.built || tree.normals.size() != m.triangles.size()) {
    out.status = MeshRayStatus::InvalidInput;
    return out;
  }
  const ShearedRay ray = ShearedRay::make(origin, direction);
  const SlabRay slab(origin, direction, kMeshRayBoxPad * (maxAbs(origin) + tree.scale), maxT);
  Descent st;
  st.best = maxT;
  switch (slab.octant) {
    case 0: descend<0>(rt, ray, slab, mode, &st); break;
    case 1: descend<1>(rt, ray, slab, mode, &st); break;
    case 2: descend<2>(rt, ray, slab, mode, &st); break;
    case 3: descend<3>(rt, ray, slab, mode, &st); break;
    case 4: descend<4>(rt, ray, slab, mode, &st); break;
    case 5: descend<5>(rt, ray, slab, mode, &st); break;
    case 6: descend<6>(rt, ray, slab, mode, &st); break;
    default: descend<7>(rt, ray, slab, mode, &st); break;
  }
  out.status = st.status;
  out.boxTests = st.boxTests;
  out.triangleTests = st.triangleTests;
  const int bestTri = st.bestTri;
  const double best = st.best;
  const RayTriangleHit& bestHit = st.bestHit;
  if (bestTri >= 0) {
    const auto& tri = m.triangles[bestTri];
    const Vec3& u = bestHit.barycentric;
    out.hit = true;
    out.t = best;
    out.triangle = bestTri;
    out.barycentric = u;
    out.point = m.vertices[tri[0]] * u.x + m.vertices[tri[1]] * u.y + m.vertices[tri[2]] * u.z;
    out.normal = tree.normals[bestTri];
  }
  return out;
}

MeshRayHit rayCastMesh(const TriangleMesh& m, const ObbTree& tree, const Transform& pose, const Vec3& origin,
                       const Vec3& direction, double maxT, MeshRayMode mode) {
  if (!isFinite(origin) || !isFinite(direction)) {
    MeshRayHit out;
    out.status = MeshRayStatus::InvalidInput;
    return out;
  }
  const Vec3 o = pose.toLocalDirection(origin - pose.position);
  const Vec3 d = pose.toLocalDirection(direction);
  MeshRayHit out = rayCastMeshLocal(m, tree, o, d, maxT, mode);
  if (out.hit) {
    out.point = pose.apply(out.point);
    out.normal = pose.applyToDirection(out.normal);
  }
  return out;
}

}  // namespace collidoscope
