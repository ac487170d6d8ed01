// collidoscope — contact manifolds (see manifold.h).
#include "collidoscope/manifold.h"

#include <cmath>
#include <cstdint>

#include "collidoscope/closed_form.h"
#include "collidoscope/plane.h"
#include "collidoscope/portable_math.h"
#include "collidoscope/support.h"
#include "manifold_internal.h"

namespace collidoscope {
namespace manifold_detail {

namespace {

// Planarity and support checks of a face, relative to the feature's scale:
// rotated vertices of an exact face lie on its plane to a few ulps (1e-15);
// 1e-12 leaves room for that and for nothing a game would call a bend.
constexpr double kFaceSlack = 1e-12;

// Shrinking of the near-support tolerance when the vertices it caught do
// not form one face (a thin box's side vertices): 16× per retry, three
// tries, then the support vertex.
constexpr int kFeatureRetries = 3;
constexpr double kFeatureShrink = 16;

std::uint32_t fmix32(std::uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

// A unit basis (u, w) of the plane orthogonal to unit d, with u × w = d.
void basisOf(const Vec3& d, Vec3* u, Vec3* w) {
  const Vec3 t = std::fabs(d.x) < 0.57735 ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  *u = normalizedOr(cross(t, d), Vec3{0, 0, 1});
  *w = cross(d, *u);
}

double cross2(double ax, double ay, double bx, double by) { return ax * by - ay * bx; }

}  // namespace

bool validAngle(const ManifoldSettings& s) { return s.faceAngle > 0 && s.faceAngle <= 3.14159265358979323846 / 4; }

std::uint32_t featureId(ManifoldFeatureKind kind, std::uint32_t first, std::uint32_t second) {
  std::uint32_t h = fmix32(static_cast<std::uint32_t>(kind) + 0x9e3779b9u);
  h = fmix32(h ^ first);
  return fmix32(h ^ (second * 0x27d4eb2fu));
}

bool coreViewOf(const Shape& s, CoreView* out) {
  *out = CoreView{};
  out->pose = s.pose;
  out->scale = s.scale;
  out->radius = coreRadius(s);
  switch (s.type) {
    case ShapeType::Point:
    case ShapeType::Sphere:
      if (s.type == ShapeType::Sphere && !isUnscaled(s)) return false;  // an ellipsoid
      out->n = 1;
      return true;
    case ShapeType::Box:
      out->n = 8;
      for (int i = 0; i < 8; ++i)
        out->own[i] = {(i & 1) ? s.halfExtents.x : -s.halfExtents.x, (i & 2) ? s.halfExtents.y : -s.halfExtents.y,
                       (i & 4) ? s.halfExtents.z : -s.halfExtents.z};
      return true;
    case ShapeType::Capsule:
      if (!isUnscaled(s)) return false;  // not a segment plus a ball
      out->n = 2;
      out->own[0] = {0, -s.halfHeight, 0};
      out->own[1] = {0, s.halfHeight, 0};
      return true;
    case ShapeType::Segment:
    case ShapeType::Triangle:
    case ShapeType::Polytope:
      if (s.points.empty()) return false;
      out->n = static_cast<int>(s.points.size());
      out->local = s.points.data();
      return true;
    default: return false;
  }
}

namespace {

// A face's Newell normal (oriented along d) and centroid, if the face is within the angle of d and
// planar to slack; the support check against the core is the caller's.
bool flatFace(const Feature& f, const Vec3& d, double sinAngle, double slack, Vec3* normal, Vec3* centre) {
  Vec3 nf{0, 0, 0}, c{0, 0, 0};
  for (int k = 0; k < f.n; ++k) {
    const Vec3& a = f.p[k];
    const Vec3& b = f.p[(k + 1) % f.n];
    nf = nf + Vec3{(a.y - b.y) * (a.z + b.z), (a.z - b.z) * (a.x + b.x), (a.x - b.x) * (a.y + b.y)};
    c = c + a;
  }
  c = c / f.n;
  nf = normalizedOr(nf, d);
  if (dot(nf, d) < 0) nf = -nf;
  bool ok = dot(nf, d) >= std::sqrt(1 - sinAngle * sinAngle);
  for (int k = 0; ok && k < f.n; ++k) ok = std::fabs(dot(f.p[k] - c, nf)) <= slack;
  *normal = nf;
  *centre = c;
  return ok;
}

}  // namespace

bool boxFaceFeature(const CoreView& v, const Vec3& d, double sinAngle, Feature* out) {
  // supportFeature's first look, on the corners rotated once: the same heights, reach and tolerance.
  Vec3 p[8];
  for (int i = 0; i < 8; ++i) p[i] = v.at(i);
  double hMax = dot(p[0], d), reach2 = 0;
  for (int i = 1; i < 8; ++i) {
    const double h = dot(p[i], d);
    if (h > hMax) hMax = h;  // as supportFeature compares (a NaN height is passed over alike)
    reach2 = std::fmax(reach2, lengthSquared(p[i] - p[0]));
  }
  // One root: sqrt is correctly rounded and monotone, so the root of the largest square is the
  // largest root.
  const double reach = std::sqrt(reach2);
  const double scale = maxAbs(p[0]) + 2 * reach;
  const double slack = kFaceSlack * scale;
  const double tol = sinAngle * 2 * reach;
  if (!(reach > 0)) return false;
  unsigned caught = 0;
  for (int i = 0; i < 8; ++i) caught |= dot(p[i], d) >= hMax - tol ? 1u << i : 0u;
  // Corner i has bit k of i set on the +k side: the face x = −h is corners {0, 2, 4, 6} (mask 0x55),
  // +h is 0xaa; y: 0x33, 0xcc; z: 0x0f, 0xf0. Its cycle: the two other bits counted in Gray order.
  static constexpr unsigned kFaceMask[6] = {0x55, 0xaa, 0x33, 0xcc, 0x0f, 0xf0};
  int face = -1;
  for (int f = 0; f < 6; ++f)
    if (caught == kFaceMask[f]) face = f;
  if (face < 0) return false;
  const int axis = face / 2, j1 = axis == 0 ? 1 : 0, j2 = axis == 2 ? 1 : 2;
  const int base = (face % 2) << axis;
  int cycle[4] = {base, base | 1 << j1, base | 1 << j1 | 1 << j2, base | 1 << j2};
  // supportFeature's hull of the four seen along d: counter-clockwise about d from the least (x, y).
  // Only when every turn is clearly convex (1024× the hull's slack), so that the hull keeps all four
  // whatever the rounding; a face seen nearly edge-on goes to the search.
  Vec3 u, w;
  basisOf(d, &u, &w);
  double x[4], y[4];
  for (int k = 0; k < 4; ++k) {
    x[k] = dot(p[cycle[k]], u);
    y[k] = dot(p[cycle[k]], w);
  }
  double turn[4];
  for (int k = 0; k < 4; ++k) {
    const int a = k, b = (k + 1) % 4, c = (k + 2) % 4;
    turn[k] = cross2(x[b] - x[a], y[b] - y[a], x[c] - x[a], y[c] - y[a]);
  }
  const bool reversed = turn[0] < 0;
  const double areaSlack = slack * scale;
  for (int k = 0; k < 4; ++k)
    if (!((reversed ? -turn[k] : turn[k]) > 1024 * areaSlack)) return false;
  int first = 0;
  for (int k = 1; k < 4; ++k)
    if (x[k] < x[first] || (x[k] == x[first] && y[k] < y[first])) first = k;
  out->n = 4;
  for (int k = 0; k < 4; ++k) {
    const int c = cycle[(first + (reversed ? 4 - k : k)) % 4];
    out->p[k] = p[c];
    out->id[k] = v.id(c);
  }
  Vec3 nf, c;
  bool ok = flatFace(*out, d, sinAngle, slack, &nf, &c);
  for (int i = 0; ok && i < 8; ++i) ok = dot(p[i] - c, nf) <= slack;
  if (!ok) return false;
  out->normal = nf;
  out->radius = v.radius;
  return true;
}

void supportFeature(const CoreView& v, const Vec3& d, double sinAngle, Feature* out) {
  // Heights along d, the support vertex, and the core's extent about its first vertex.
  const Vec3 v0 = v.at(0);
  double hMax = dot(v0, d), reach = 0;
  int best = 0;
  for (int i = 1; i < v.n; ++i) {
    const Vec3 p = v.at(i);
    const double h = dot(p, d);
    if (h > hMax) {
      hMax = h;
      best = i;
    }
    reach = std::fmax(reach, length(p - v0));
  }
  const double scale = maxAbs(v0) + 2 * reach;
  const double slack = kFaceSlack * scale;
  out->radius = v.radius;
  out->normal = d;
  Vec3 u, w;
  basisOf(d, &u, &w);
  double tol = sinAngle * 2 * reach;
  for (int attempt = 0; attempt < kFeatureRetries && reach > 0; ++attempt, tol /= kFeatureShrink) {
    // The vertices within tol of the support plane; more than kManifoldMaxFeature (a fine polygon's
    // face): every stride-th of them in index order, whose hull is still inside the face and spread
    // over it, and the support vertex.
    int near = 0;
    for (int i = 0; i < v.n; ++i) near += dot(v.at(i), d) >= hMax - tol ? 1 : 0;
    const int stride = near <= kManifoldMaxFeature ? 1 : (near + kManifoldMaxFeature - 2) / (kManifoldMaxFeature - 1);
    Vec3 p[kManifoldMaxFeature];
    double h[kManifoldMaxFeature];
    std::uint32_t ids[kManifoldMaxFeature];
    int m = 0;
    for (int i = 0, seen = 0; i < v.n; ++i) {
      const Vec3 q = v.at(i);
      const double hq = dot(q, d);
      if (!(hq >= hMax - tol)) continue;
      if (seen++ % stride != 0 && i != best) continue;
      if (m == kManifoldMaxFeature) break;
      p[m] = q;
      h[m] = hq;
      ids[m++] = v.id(i);
    }
    if (m == 0) break;  // non-finite coordinates: no vertex compares; the support vertex below
    // Their convex hull seen along d (Andrew's monotone chain, collinear and repeated points dropped):
    // sort by (x, y) with an insertion sort, m ≤ kManifoldMaxFeature.
    double x[kManifoldMaxFeature], y[kManifoldMaxFeature];
    int order[kManifoldMaxFeature];
    for (int k = 0; k < m; ++k) {
      x[k] = dot(p[k], u);
      y[k] = dot(p[k], w);
      order[k] = k;
    }
    for (int k = 1; k < m; ++k) {
      const int o = order[k];
      int j = k - 1;
      while (j >= 0 && (x[order[j]] > x[o] || (x[order[j]] == x[o] && y[order[j]] > y[o]))) {
        order[j + 1] = order[j];
        --j;
      }
      order[j + 1] = o;
    }
    int hull[2 * kManifoldMaxFeature + 1];
    int hn = 0;
    const double areaSlack = slack * scale;
    for (int pass = 0; pass < 2; ++pass) {
      const int start = hn;
      for (int k = 0; k < m; ++k) {
        const int o = order[pass == 0 ? k : m - 1 - k];
        while (hn >= start + 2) {
          const int a = hull[hn - 2], b = hull[hn - 1];
          if (cross2(x[b] - x[a], y[b] - y[a], x[o] - x[a], y[o] - y[a]) > areaSlack) break;
          --hn;
        }
        hull[hn++] = o;
      }
      --hn;  // the last point starts the other chain
    }
    if (hn < 1) hn = 1;
    if (hn == 2 && x[hull[0]] == x[hull[1]] && y[hull[0]] == y[hull[1]]) hn = 1;
    if (hn == 1) {
      // The vertices seen along d coincide: the highest of them.
      int top = 0;
      for (int k = 1; k < m; ++k)
        if (h[k] > h[top]) top = k;
      out->n = 1;
      out->p[0] = p[top];
      out->id[0] = ids[top];
      return;
    }
    for (int k = 0; k < hn; ++k) {
      out->p[k] = p[hull[k]];
      out->id[k] = ids[hull[k]];
    }
    out->n = hn;
    if (hn == 2) {
      // An edge within the angle of square to d. Its outward normal: d's part across it, when that
      // supports the core (every vertex below the plane through the edge; always for a segment), so
      // the radius moves its points onto the rounded surface exactly.
      const Vec3 e = normalizedOr(out->p[1] - out->p[0], d);
      const Vec3 across = normalizedOr(d - e * dot(d, e), d);
      bool ok = std::fabs(dot(e, d)) <= sinAngle;
      for (int i = 0; ok && v.radius > 0 && i < v.n; ++i) ok = dot(v.at(i) - out->p[0], across) <= slack;
      if (ok) {
        out->normal = across;
        return;
      }
      continue;
    }
    // A face: Newell's normal, planar, supporting, within the angle of d.
    Vec3 nf, c;
    bool ok = flatFace(*out, d, sinAngle, slack, &nf, &c);
    for (int i = 0; ok && i < v.n; ++i) ok = dot(v.at(i) - c, nf) <= slack;
    if (ok) {
      out->normal = nf;
      return;
    }
  }
  out->n = 1;
  out->p[0] = v.at(best);
  out->id[0] = v.id(best);
}

bool curvedFeature(const Shape& s, const Vec3& d, double sinAngle, Feature* out) {
  if ((s.type != ShapeType::Cylinder && s.type != ShapeType::Cone) || !isUnscaled(s)) return false;
  const double cosAngle = std::sqrt(1 - sinAngle * sinAngle);
  const Vec3 dl = s.pose.toLocalDirection(d);
  const double r = s.radius, h = s.halfHeight;
  const double radial = portable::hypot(dl.x, dl.z);
  const Vec3 rho = radial > 0 ? Vec3{dl.x / radial, 0, dl.z / radial} : Vec3{1, 0, 0};
  Vec3 local[kManifoldCapVertices];
  Vec3 normal;
  int n = 0;
  const bool cone = s.type == ShapeType::Cone;
  if (dl.y <= -cosAngle || (!cone && dl.y >= cosAngle)) {
    // A cap: the inscribed regular polygon, counter-clockwise about the outward normal ±y (seen from
    // +y, increasing angle turns from x to z: clockwise). Ids 0..K−1 below, K..2K−1 above.
    const double sign = dl.y > 0 ? 1 : -1;
    n = kManifoldCapVertices;
    for (int k = 0; k < n; ++k) {
      const double t = 2 * 3.14159265358979323846 * k / n;
      local[k] = {r * portable::cos(t), sign * h, sign * -r * portable::sin(t)};
      out->id[k] = static_cast<std::uint32_t>(k + (sign > 0 ? n : 0));
    }
    normal = {0, sign, 0};
  } else if (!cone && std::fabs(dl.y) <= sinAngle && radial > 0) {
    // A side line, lying: its points' outward normal is ρ, d's part across the axis.
    n = 2;
    local[0] = rho * r + Vec3{0, -h, 0};
    local[1] = rho * r + Vec3{0, h, 0};
    normal = rho;
  } else if (cone && radial > 0) {
    // A side line from the rim to the apex, whose outward normal ∝ (2h·ρ, r) holds on all of it.
    normal = normalizedOr(rho * (2 * h) + Vec3{0, r, 0}, rho);
    if (!(dot(normal, dl) >= cosAngle)) return false;
    n = 2;
    local[0] = rho * r + Vec3{0, -h, 0};
    local[1] = {0, h, 0};
  } else {
    return false;
  }
  if (n == 2) {
    out->id[0] = 2 * kManifoldCapVertices;
    out->id[1] = 2 * kManifoldCapVertices + 1;
  }
  out->n = n;
  for (int k = 0; k < n; ++k) out->p[k] = s.pose.apply(local[k]);
  out->normal = s.pose.applyToDirection(normal);
  out->radius = coreRadius(s);
  return true;
}

bool featureOf(const Shape& s, const Vec3& d, double sinAngle, Feature* out) {
  CoreView v;
  if (coreViewOf(s, &v)) {
    if (s.type == ShapeType::Box && boxFaceFeature(v, d, sinAngle, out)) return true;
    supportFeature(v, d, sinAngle, out);
    return true;
  }
  return curvedFeature(s, d, sinAngle, out);
}

namespace {

// A point while clipping: where it is, what it is, and the line the
// polygon's edge from it lies on (an incident edge, or a reference side
// plane). kind 0: an incident vertex (inc); 1: an incident edge (inc, its
// first vertex) crossing a reference side (ref, its first vertex); 2: a
// reference corner (ref).
struct ClipPoint {
  Vec3 p;
  int kind;
  std::uint32_t inc, ref;
  bool edgeOnSide;
  std::uint32_t edge;  // the incident edge's first vertex, or the side's index
};

// The id of a vertex of A (onA) or of B, and of the crossing of an incident
// edge with a reference side (each named by its first vertex).
std::uint32_t vertexId(bool onA, std::uint32_t vertex) {
  return featureId(onA ? ManifoldFeatureKind::VertexOfA : ManifoldFeatureKind::VertexOfB, vertex, 0);
}
std::uint32_t crossingId(bool refIsA, std::uint32_t incidentEdge, std::uint32_t referenceEdge) {
  return refIsA ? featureId(ManifoldFeatureKind::Crossing, referenceEdge, incidentEdge)
                : featureId(ManifoldFeatureKind::Crossing, incidentEdge, referenceEdge);
}

// Finishes a clipped point q on the incident core: its projection on the
// reference plane, radii, signed distance; false when beyond the margin.
bool finish(const Vec3& q, const Feature& ref, const Feature& inc, bool refIsA, const Vec3& n, double margin,
            ManifoldPoint* out) {
  const Vec3 onRef = q - ref.normal * dot(q - ref.p[0], ref.normal);
  const Vec3 coreA = refIsA ? onRef : q, coreB = refIsA ? q : onRef;
  const Feature& fa = refIsA ? ref : inc;
  const Feature& fb = refIsA ? inc : ref;
  out->pointA = coreA + fa.normal * fa.radius;
  out->pointB = coreB + fb.normal * fb.radius;
  out->distance = dot(out->pointB - out->pointA, n);
  out->triangle = -1;
  return out->distance <= margin;
}

}  // namespace

int clipFeatures(const Feature& fa, const Feature& fb, const Vec3& n, double margin, double sinAngle,
                 ManifoldPoint* out) {
  if (fa.n < 2 || fb.n < 2) return 0;
  const double cosAngle = std::sqrt(1 - sinAngle * sinAngle);
  int m = 0;
  if (fa.n == 2 && fb.n == 2) {
    // Parallel edges: B's segment clipped to A's extent along A's edge.
    const Vec3 ea = fa.p[1] - fa.p[0], eb = fb.p[1] - fb.p[0];
    const double la = length(ea), lb = length(eb);
    if (!(length(cross(ea, eb)) <= sinAngle * la * lb)) return 0;
    const Vec3 e = ea / la;
    // Parameters of B's ends along A's edge, and the part of B over [0, la].
    const double s0 = dot(fb.p[0] - fa.p[0], e), s1 = dot(fb.p[1] - fa.p[0], e);
    const double ds = s1 - s0;
    for (int end = 0; end < 2; ++end) {
      const double s = end == 0 ? s0 : s1;
      Vec3 q = fb.p[end];
      std::uint32_t id = featureId(ManifoldFeatureKind::VertexOfB, fb.id[end], 0);
      if (s < 0 || s > la) {
        const double target = s < 0 ? 0 : la;
        if (ds == 0) continue;
        const double t = (target - s0) / ds;
        if (t < 0 || t > 1) continue;
        q = fb.p[0] + eb * t;
        id = featureId(ManifoldFeatureKind::VertexOfA, fa.id[s < 0 ? 0 : 1], 0);
      }
      const Vec3 onA = fa.p[0] + e * dot(q - fa.p[0], e);
      ManifoldPoint& r = out[m];
      r.pointA = onA + fa.normal * fa.radius;
      r.pointB = q + fb.normal * fb.radius;
      r.distance = dot(r.pointB - r.pointA, n);
      r.triangle = -1;
      r.id = id;
      if (r.distance <= margin) ++m;
    }
    return m;
  }
  // The reference: the face more parallel to n.
  const double ca = fa.n >= 3 ? dot(fa.normal, n) : -1, cb = fb.n >= 3 ? -dot(fb.normal, n) : -1;
  const bool refIsA = ca >= cb;
  const Feature& ref = refIsA ? fa : fb;
  const Feature& inc = refIsA ? fb : fa;
  if (!((refIsA ? ca : cb) >= cosAngle)) return 0;
  // Side planes: outward normals cross(edge, face normal) of the counter-clockwise face.
  Vec3 side[kManifoldMaxFeature];
  for (int i = 0; i < ref.n; ++i) side[i] = cross(ref.p[(i + 1) % ref.n] - ref.p[i], ref.normal);
  if (inc.n == 2) {
    double t0 = 0, t1 = 1;
    int kind0 = 0, kind1 = 0;
    std::uint32_t ref0 = 0, ref1 = 0;
    const Vec3 e = inc.p[1] - inc.p[0];
    for (int i = 0; i < ref.n && t0 <= t1; ++i) {
      const double d0 = dot(inc.p[0] - ref.p[i], side[i]), de = dot(e, side[i]);
      // Inside: d0 + t·de ≤ 0.
      if (de == 0) {
        if (d0 > 0) t1 = -1;
        continue;
      }
      const double t = -d0 / de;
      if (de > 0 && t < t1) {
        t1 = t;
        kind1 = 1;
        ref1 = ref.id[i];
      } else if (de < 0 && t > t0) {
        t0 = t;
        kind0 = 1;
        ref0 = ref.id[i];
      }
    }
    if (!(t0 <= t1)) return 0;
    for (int end = 0; end < 2; ++end) {
      const double t = end == 0 ? t0 : t1;
      const int kind = end == 0 ? kind0 : kind1;
      if (end == 1 && t1 == t0) break;
      const Vec3 q = kind == 0 ? inc.p[end] : inc.p[0] + e * t;
      ManifoldPoint& r = out[m];
      if (!finish(q, ref, inc, refIsA, n, margin, &r)) continue;
      r.id = kind == 0 ? vertexId(!refIsA, inc.id[end]) : crossingId(refIsA, inc.id[0], end == 0 ? ref0 : ref1);
      ++m;
    }
    return m;
  }
  // Sutherland–Hodgman: the incident polygon against each side plane.
  ClipPoint buf[2][kMaxCandidates];
  int cn = inc.n;
  for (int k = 0; k < inc.n; ++k) buf[0][k] = {inc.p[k], 0, inc.id[k], 0, false, inc.id[k]};
  int cur = 0;
  for (int i = 0; i < ref.n && cn > 0; ++i) {
    const ClipPoint* in = buf[cur];
    ClipPoint* o = buf[1 - cur];
    int on = 0;
    for (int k = 0; k < cn && on + 2 <= kMaxCandidates; ++k) {
      const ClipPoint& P = in[k];
      const ClipPoint& Q = in[(k + 1) % cn];
      const double dp = dot(P.p - ref.p[i], side[i]), dq = dot(Q.p - ref.p[i], side[i]);
      const bool pIn = dp <= 0, qIn = dq <= 0;
      if (pIn) o[on++] = P;
      if (pIn != qIn) {
        ClipPoint X;
        X.p = P.p + (Q.p - P.p) * (dp / (dp - dq));
        if (P.edgeOnSide) {
          // Side plane P.edge (adjacent to i) meets side plane i at their shared reference corner.
          const int next = (i + 1) % ref.n;
          X.kind = 2;
          X.inc = 0;
          X.ref = ref.id[static_cast<int>(P.edge) == next ? next : i];
        } else {
          X.kind = 1;
          X.inc = P.edge;
          X.ref = ref.id[i];
        }
        // Leaving, the polygon's edge from X runs along side plane i; entering, along P–Q's line.
        X.edgeOnSide = pIn || P.edgeOnSide;
        X.edge = pIn ? static_cast<std::uint32_t>(i) : P.edge;
        o[on++] = X;
      }
    }
    cn = on;
    cur = 1 - cur;
  }
  for (int k = 0; k < cn && m < kMaxCandidates; ++k) {
    const ClipPoint& c = buf[cur][k];
    ManifoldPoint& r = out[m];
    if (!finish(c.p, ref, inc, refIsA, n, margin, &r)) continue;
    r.id = c.kind == 0   ? vertexId(!refIsA, c.inc)
           : c.kind == 2 ? vertexId(refIsA, c.ref)
                         : crossingId(refIsA, c.inc, c.ref);
    ++m;
  }
  return m;
}

int keepDeepest(ManifoldPoint* cand, int m, const Vec3& pointA, const Vec3& pointB, double distance,
                std::uint32_t id) {
  double shallowest = cand[0].distance;
  int deepest = 0;
  for (int k = 1; k < m; ++k) {
    if (cand[k].distance < cand[deepest].distance) deepest = k;
    shallowest = std::fmax(shallowest, cand[k].distance);
  }
  if (!(distance < cand[deepest].distance - kDeepestSlack * (maxAbs(pointA) + maxAbs(pointB)))) return m;
  int slot = m;
  if (m == kMaxCandidates) {
    for (int k = 0; k < m; ++k)
      if (cand[k].distance == shallowest) slot = k;
  } else {
    ++m;
  }
  cand[slot] = {pointA, pointB, distance, id, -1};
  return m;
}

void reduceToFour(const ManifoldPoint* in, int m, const Vec3& n, Manifold* out) {
  out->count = 0;
  if (m <= 0) return;
  int pick[4];
  int deepest = 0;
  Vec3 centre{0, 0, 0};
  double scale = 0;
  for (int k = 0; k < m; ++k) {
    if (in[k].distance < in[deepest].distance) deepest = k;
    centre = centre + in[k].pointA;
    scale = std::fmax(scale, maxAbs(in[k].pointA) + std::fabs(in[k].distance));
  }
  centre = centre / m;
  // Points as deep as the deepest to rounding (a face resting flat): the one farthest from the
  // candidates' centre, a corner of the contact polygon rather than a point on its side.
  const double tie = in[deepest].distance + kDeepestSlack * scale;
  double reach = -1;
  for (int k = 0; k < m; ++k) {
    const Vec3 off = in[k].pointA - centre;
    const double r = dot(off, off) - dot(off, n) * dot(off, n);
    if (in[k].distance <= tie && r > reach) {
      reach = r;
      deepest = k;
    }
  }
  pick[0] = deepest;
  int count = 1;
  const Vec3 p0 = in[deepest].pointA;
  int far = -1;
  double farD = 0;
  for (int k = 0; k < m; ++k) {
    const double dd = dot(in[k].pointA - p0, in[k].pointA - p0);
    if (dd > farD) {
      farD = dd;
      far = k;
    }
  }
  if (far >= 0) {
    pick[count++] = far;
    const Vec3 p1 = in[far].pointA;
    int third = -1;
    double area = 0;
    for (int k = 0; k < m; ++k) {
      const double a = std::fabs(dot(cross(p1 - p0, in[k].pointA - p0), n));
      if (a > area) {
        area = a;
        third = k;
      }
    }
    // Below this the three are collinear to rounding: two points span the contact.
    if (third >= 0 && area > 1e-12 * farD) {
      pick[count++] = third;
      const Vec3 tri[3] = {p0, p1, in[third].pointA};
      int fourth = -1;
      double outside = 0;
      for (int k = 0; k < m; ++k) {
        double best = 0;
        for (int e = 0; e < 3; ++e) {
          const Vec3& a = tri[e];
          const Vec3& b = tri[(e + 1) % 3];
          const Vec3& c = tri[(e + 2) % 3];
          const double sideC = dot(cross(b - a, c - a), n), sideP = dot(cross(b - a, in[k].pointA - a), n);
          if (sideC * sideP < 0) best = std::fmax(best, std::fabs(sideP));
        }
        if (best > outside) {
          outside = best;
          fourth = k;
        }
      }
      if (fourth >= 0 && outside > 1e-12 * farD) pick[count++] = fourth;
    }
  }
  for (int k = 0; k < count; ++k) out->points[k] = in[pick[k]];
  out->count = count;
}

}  // namespace manifold_detail

namespace {

using namespace manifold_detail;

// The contact of the pair as the object API's contact query answers it
// (api.cpp: closed forms for point and segment cores and for boxes, then
// GJK/EPA); false for two planes without a bounded answer.
bool pairContact(const Shape& a, const Shape& b, double margin, const ManifoldSettings& s, ContactResult* out) {
  if (a.type == ShapeType::Plane || b.type == ShapeType::Plane)
    return planeContact(a, b, margin, out) == PlaneStatus::Ok;
  const ClosedForm form = closedFormOf(a, b);
  if (form != ClosedForm::None) {
    if (coreForm(form)) {
      if (closedContact(coreOf(a), coreOf(b), margin, out)) return true;
    } else {
      DistanceResult d;
      PenetrationResult p;
      out->iterations = 0;
      out->status = EpaStatus::Converged;
      if (closedDistance(a, b, &d) && d.distance > 0) {
        out->contact = d.distance <= margin;
        if (!out->contact) return true;
        if (closedPenetration(a, b, &p)) {
          out->distance = d.distance;
          out->normal = p.normal;
          out->pointA = d.pointA;
          out->pointB = d.pointB;
          return true;
        }
      } else if (closedPenetration(a, b, &p) && p.intersecting) {
        setOverlapping(p, out);
        return true;
      }
      *out = ContactResult{};
    }
  }
  *out = contact(PosedShape(a), PosedShape(b), margin, s.gjk, s.epa);
  return true;
}

void singlePoint(const ContactResult& c, Manifold* out) {
  out->count = 1;
  ManifoldPoint& p = out->points[0];
  p.pointA = c.pointA;
  p.pointB = c.pointB;
  p.distance = c.distance;
  p.id = featureId(ManifoldFeatureKind::Single, 0, 0);
  p.triangle = -1;
}

// A plane (half-space) against a polytopal core: every vertex within the margin.
bool planeManifold(const Shape& plane, const Shape& other, bool planeIsA, double margin, const Vec3& n,
                   double sinAngle, Manifold* out) {
  const HalfSpace hs = worldHalfSpace(plane);
  // A polytopal core: every vertex, the radius along the plane's normal. A cylinder or cone: the
  // vertices of its flat feature facing the plane (a cap's polygon, a side line), the radius along
  // the feature's normal.
  CoreView v;
  Feature f;
  const bool polytopal = coreViewOf(other, &v);
  if (polytopal ? v.n < 2 : !curvedFeature(other, -hs.normal, sinAngle, &f)) return false;
  const int count = polytopal ? v.n : f.n;
  ManifoldPoint cand[kMaxCandidates];
  int m = 0;
  for (int i = 0; i < count; ++i) {
    const Vec3 s = polytopal ? v.at(i) - hs.normal * v.radius : f.p[i] + f.normal * f.radius;
    const double h = dot(hs.normal, s) - hs.offset;
    if (!(h <= margin)) continue;
    int slot = m;
    if (m == kMaxCandidates) {
      // Full: the deepest are kept.
      slot = 0;
      for (int k = 1; k < m; ++k)
        if (cand[k].distance > cand[slot].distance) slot = k;
      if (!(h < cand[slot].distance)) continue;
    } else {
      ++m;
    }
    const Vec3 onPlane = s - hs.normal * h;
    ManifoldPoint& p = cand[slot];
    p.pointA = planeIsA ? onPlane : s;
    p.pointB = planeIsA ? s : onPlane;
    p.distance = h;
    p.id = featureId(planeIsA ? ManifoldFeatureKind::VertexOfB : ManifoldFeatureKind::VertexOfA,
                     polytopal ? v.id(i) : f.id[i], 0);
    p.triangle = -1;
  }
  if (m < 2) return false;
  reduceToFour(cand, m, n, out);
  return true;
}

}  // namespace

ManifoldStatus manifold(const Shape& a, const Shape& b, double margin, Manifold* out,
                        const ManifoldSettings& settings) {
  *out = Manifold{};
  if (!(margin >= 0) || !std::isfinite(margin)) return ManifoldStatus::InvalidMargin;
  if (!validAngle(settings)) return ManifoldStatus::InvalidAngle;
  for (const Shape* s : {&a, &b})
    if (s->type == ShapeType::Mesh || s->type == ShapeType::Compound) return ManifoldStatus::Unsupported;
  ContactResult c;
  if (!pairContact(a, b, margin, settings, &c)) return ManifoldStatus::Unbounded;
  out->iterations = c.iterations;
  out->status = c.status;
  if (!c.contact) return ManifoldStatus::Ok;
  out->normal = c.normal;
  const Vec3 n = c.normal;
  const double sinAngle = portable::sin(settings.faceAngle);
  if (a.type == ShapeType::Plane || b.type == ShapeType::Plane) {
    const bool planeIsA = a.type == ShapeType::Plane;
    if (a.type == b.type || !planeManifold(planeIsA ? a : b, planeIsA ? b : a, planeIsA, margin, n, sinAngle, out))
      singlePoint(c, out);
    return ManifoldStatus::Ok;
  }
  Feature fa, fb;
  if (featureOf(a, n, sinAngle, &fa) && featureOf(b, -n, sinAngle, &fb)) {
    ManifoldPoint cand[kMaxCandidates];
    int m = clipFeatures(fa, fb, n, margin, sinAngle, cand);
    if (m > 0) {
      m = keepDeepest(cand, m, c.pointA, c.pointB, c.distance, featureId(ManifoldFeatureKind::Single, 0, 0));
      reduceToFour(cand, m, n, out);
      return ManifoldStatus::Ok;
    }
  }
  singlePoint(c, out);
  return ManifoldStatus::Ok;
}

}  // namespace collidoscope
