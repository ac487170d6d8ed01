// collidoscope — contacts for games: one signed distance, normal and pair of
// points when two shapes are within a margin of each other, nothing
// otherwise.
//
// A game asks every frame about pairs its broad phase found close; most are
// farther apart than the distance at which it wants a contact (rapier calls
// it the prediction distance). Those pairs should cost as little as a
// boolean test, so the query runs GJK with an early stop
// (gjkDistanceWithin): the first step whose lower bound v·w/‖v‖ proves the
// gap larger than the margin ends it, before any closest points are made.
//
// The answer, when there is one, is that of the existing queries on the
// same pair, bit for bit:
//   - apart (distance() > 0) and within the margin: distance()'s distance
//     and points, and penetration()'s normal (−v/‖v‖, from A to B);
//   - overlapping or touching (distance() = 0): penetration()'s normal and
//     points, and distance = −depth (0 when touching).
// The same GJK run serves both: penetrationAfterGjk continues from it.
//
// Memory: GJK's simplex and EPA's polytope are fixed-size; nothing allocates.
#pragma once

#include <limits>

#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/math.h"

namespace collidoscope {

// Without a contact only `iterations` and `status` are meaningful.
struct ContactResult {
  bool contact = false;  // distance ≤ margin
  double distance = 0;   // signed: the gap when apart, −depth when overlapping (0 touching)
  Vec3 normal;           // unit, from A to B: moving B along it separates the shapes
  Vec3 pointA;           // on A
  Vec3 pointB;           // on B; pointB − pointA = distance·normal
  int iterations = 0;    // GJK's, plus EPA's when it ran
  // Converged also for a pair proved beyond the margin (the proof is exact
  // to rounding); else the status of the query whose answer this is.
  EpaStatus status = EpaStatus::Converged;
};

// The contact of overlapping shapes: the penetration's normal and points,
// at the signed distance −depth (+0 when touching), with its status.
inline void setOverlapping(const PenetrationResult& p, ContactResult* out) {
  out->contact = true;
  out->distance = p.depth > 0 ? -p.depth : 0.0;
  out->normal = p.normal;
  out->pointA = p.pointA;
  out->pointB = p.pointB;
  out->status = p.status;
}

inline EpaStatus epaStatusOf(GjkStatus s) {
  return s == GjkStatus::Converged ? EpaStatus::Converged
                                   : (s == GjkStatus::MaxIterations ? EpaStatus::MaxIterations : EpaStatus::Degenerate);
}

// The contact from GJK's run `g` of gjkDistanceWithin(shapeA, shapeB,
// margin) on the same pair: what contact() answers, continuing from there
// (EPA when the shapes overlap).
template <class SA, class SB>
ContactResult contactAfterGjk(const SA& shapeA, const SB& shapeB, const DistanceResult& g, double margin,
                              const GjkSettings& gjkSettings, const EpaSettings& epaSettings) {
  ContactResult out;
  NoTrace none;
  out.iterations = g.iterations;
  if (g.beyondMargin) return out;
  if (g.distance > 0) {
    out.status = epaStatusOf(g.status);
    if (!(g.distance <= margin)) return out;
    out.contact = true;
    out.distance = g.distance;
    out.normal = g.v / -lengthNoUnderflow(g.v);
    out.pointA = g.pointA;
    out.pointB = g.pointB;
    return out;
  }
  const PenetrationResult p = penetrationAfterGjk(shapeA, shapeB, g, gjkSettings, epaSettings, none);
  setOverlapping(p, &out);
  out.iterations += p.iterations;
  return out;
}

// The contact of A and B within `margin` (finite, ≥ 0; the caller checks).
// SA and SB as for gjkDistance.
template <class SA, class SB>
ContactResult contact(const SA& shapeA, const SB& shapeB, double margin, const GjkSettings& gjkSettings = {},
                      const EpaSettings& epaSettings = {}) {
  NoTrace none;
  const DistanceResult g = gjkDistanceWithin(shapeA, shapeB, margin, gjkSettings, none);
  return contactAfterGjk(shapeA, shapeB, g, margin, gjkSettings, epaSettings);
}

}  // namespace collidoscope
