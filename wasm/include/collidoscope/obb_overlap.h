// collidoscope — are two oriented boxes apart? The 15-axis separating-axis
// test of two OBBs, and the cheaper sphere test layered in front of it.
//
// Reference: S. Gottschalk, M. C. Lin, D. Manocha, "OBBTree: a hierarchical
// structure for rapid interference detection", SIGGRAPH 1996, as derived in
// J. Rasku, "Törmäysten havaitseminen tietokoneanimaatiossa", master's
// thesis, University of Tampere, 2003, §6.2 (the separating-axis test of two
// boxes) and §6.4 (layered volumes: a sphere test before the box test).
//
// Two convex boxes are disjoint exactly when some axis L separates their
// projections: |t·L| > r_A(L) + r_B(L), where t joins the centres and
// r_X(L) = Σ_i h_X,i |a_X,i·L| is the box's projection radius. For boxes it
// is enough to try the 15 axes a_i (A's faces), b_j (B's faces) and
// a_i × b_j (edge pairs). Everything is expressed in A's frame: with
// R_ij = a_i·b_j and T = (t·a_0, t·a_1, t·a_2), every projection is a few
// products of R's entries, so no cross product is formed.
//
// Departures from the paper, both on the safe side (a culling test must
// never call overlapping boxes apart; calling apart boxes overlapping only
// costs a deeper descent):
// - |R_ij| is taken plus kObbParallelSlack. When an edge of A is parallel
//   to an edge of B their cross product vanishes, and every term of that
//   axis' test is rounding noise that could "separate" overlapping boxes;
//   the slack makes both sides of such an axis at least the slack times
//   the extents, so the noise cannot win. (RAPID and the thesis do the same
//   with a fixed epsilon.)
// - The caller passes `slack`, a length added to every axis' radius sum: the
//   rounding in the boxes' centres (they are computed from coordinates of
//   size `scale`) is a few ulps of the scale, which a caller covers with
//   slack = scale · a few ε. Touching boxes (distance 0) count as
//   overlapping, as touching shapes do everywhere in the library.
#pragma once

#include <cmath>

#include "collidoscope/math.h"
#include "collidoscope/obb.h"

namespace collidoscope {

// Added to every |a_i·b_j| (a cosine, at most 1): far above the rounding of
// a dot product of unit vectors (a few 1e-16) and far below any angle that
// matters for culling (it widens each box by 1e-12 of its size).
constexpr double kObbParallelSlack = 1e-12;

// Which of the 15 axes separated a pair: 0–2 are A's axes, 3–5 B's, and
// 6 + 3i + j is a_i × b_j. kObbOverlap when none does.
constexpr int kObbOverlap = -1;
constexpr int kObbAxisCount = 15;

// Index of the first of the 15 axes (in the order above) along which a and b
// (given in one frame) are apart by more than `slack`, or kObbOverlap.
inline int obbSeparatingAxis(const Obb& a, const Obb& b, double slack) {
  double r[3][3], ar[3][3];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      r[i][j] = dot(a.axes[i], b.axes[j]);
      ar[i][j] = std::fabs(r[i][j]) + kObbParallelSlack;
    }
  }
  const Vec3 d = b.center - a.center;
  const double t[3] = {dot(d, a.axes[0]), dot(d, a.axes[1]), dot(d, a.axes[2])};
  const double ha[3] = {a.halfExtents.x, a.halfExtents.y, a.halfExtents.z};
  const double hb[3] = {b.halfExtents.x, b.halfExtents.y, b.halfExtents.z};

  // A's face axes a_i: r_A = ha_i, r_B = Σ_j hb_j |R_ij|.
  for (int i = 0; i < 3; ++i) {
    const double rb = hb[0] * ar[i][0] + hb[1] * ar[i][1] + hb[2] * ar[i][2];
    if (std::fabs(t[i]) > ha[i] + rb + slack) return i;
  }
  // B's face axes b_j: t·b_j = Σ_i T_i R_ij, r_A = Σ_i ha_i |R_ij|.
  for (int j = 0; j < 3; ++j) {
    const double tj = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j];
    const double ra = ha[0] * ar[0][j] + ha[1] * ar[1][j] + ha[2] * ar[2][j];
    if (std::fabs(tj) > ra + hb[j] + slack) return 3 + j;
  }
  // Edge axes a_i × b_j. With (i, i1, i2) and (j, j1, j2) cyclic:
  //   t·(a_i × b_j) = T_i2 R_i1j − T_i1 R_i2j,
  //   r_A = ha_i1 |R_i2j| + ha_i2 |R_i1j|,  r_B = hb_j1 |R_ij2| + hb_j2 |R_ij1|.
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; ++j) {
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const double tl = t[i2] * r[i1][j] - t[i1] * r[i2][j];
      const double ra = ha[i1] * ar[i2][j] + ha[i2] * ar[i1][j];
      const double rb = hb[j1] * ar[i][j2] + hb[j2] * ar[i][j1];
      if (std::fabs(tl) > ra + rb + slack) return 6 + 3 * i + j;
    }
  }
  return kObbOverlap;
}

// The layered test in front of the box test: each box lies in the sphere
// about its centre through its corners, so centres farther apart than the
// two corner distances (plus slack) prove the boxes apart with one square
// root fewer than a box axis costs. Compared squared, with the sum of radii
// rounded up by the slack.
inline bool obbSpheresApart(const Obb& a, const Obb& b, double slack) {
  const double ra = std::sqrt(dot(a.halfExtents, a.halfExtents));
  const double rb = std::sqrt(dot(b.halfExtents, b.halfExtents));
  const Vec3 d = b.center - a.center;
  const double reach = ra + rb + slack;
  return dot(d, d) > reach * reach;
}

// The box `local` (in a frame whose pose is `pose`) in the outer frame.
inline Obb transformObb(const Obb& local, const Transform& pose) {
  Obb out;
  out.center = pose.apply(local.center);
  for (int i = 0; i < 3; ++i) out.axes[i] = pose.applyToDirection(local.axes[i]);
  out.halfExtents = local.halfExtents;
  return out;
}

}  // namespace collidoscope
