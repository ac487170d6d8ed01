// collidoscope — the numerical policy: the constants every tolerance of the
// library is built from, each defined once with the reason for its value,
// and the settings the iterative algorithms share.
//
// Notation used throughout the headers: u is the unit roundoff of IEEE 754
// double precision (2^-53), S the scale of a query (the largest coordinate
// of the support points it has seen), τ = 64u·S the rounding bound below
// which a length is indistinguishable from zero. The error analysis behind
// these bounds is the standard one of N. J. Higham, "Accuracy and Stability
// of Numerical Algorithms", 2nd ed., 2002, ch. 2–3 (a sum or product of k
// rounded terms is off by at most about k·u relative to its magnitude).
#pragma once

#include <limits>

namespace collidoscope {

// u = 2^-53: a correctly rounded operation is off by at most u relative.
constexpr double kUnitRoundoff = std::numeric_limits<double>::epsilon() / 2;

// Headroom, in units of u·S, for the rounding error of products of support
// points: w = a − b and v·w take at most six roundings, each ≤ u·S, so 64
// leaves a factor of ten to spare. Every "within rounding" test of the pair
// queries (touching, a flat triangle's noise edge, SAT's touching bound)
// uses this one bound.
constexpr double kRoundingUlps = 64;
// 64u (= 2^-47, exactly): τ = kRoundingBound · S.
constexpr double kRoundingBound = kRoundingUlps * kUnitRoundoff;

// A simplex (triangle or tetrahedron), or a cloud's slab, counts as flat
// when its measure is below this fraction of the product of its edge
// lengths: a sine-like angle below 1e-12. Rounding of the cross and triple
// products is ~1e-16 of that product, so sign tests above the threshold
// have four orders of magnitude of margin.
constexpr double kFlatSine = 1e-12;

// |q|² of a quaternion normalized by the scene parser differs from 1 by a
// few roundings (4 products, 3 sums, a square root, 4 divisions): 16u (8
// ulps of 1) covers them. A rotation within this of unit is kept bit for
// bit, so normalizing is idempotent and a scene written back out reproduces
// the same bits.
constexpr double kUnitQuatSlack = 16 * kUnitRoundoff;

// A quaternion handed to the C++ shape API counts as unit when
// | |q|² − 1 | ≤ 1e-9: the parser's normalization passes, and so do
// rotations typed in with about ten significant digits.
constexpr double kUnitQuatTolerance = 1e-9;

// Tiny scenes. The queries work with squared lengths (‖v‖², v·w, cross
// products), which underflow once the coordinates are below ~1e-154. A
// scene whose largest coordinate is below 2^-400 (so that τ = 64u·S still
// has a normal square) runs scaled by a power of two to unit size, which is
// exact, and its results are scaled back (tiny_scene.h).
constexpr double kTinyScene = 0x1p-400;

// Default accuracy of the iterative queries: the certified error of a
// distance, depth or time of impact is at most 1e-10 of the answer or of
// the scene's scale, a factor ten inside the 1e-9 of the scene's scale
// that the package documents (README.md).
constexpr double kDefaultTolerance = 1e-10;

// What every iterative algorithm is given: an iteration cap (the loop then
// ends with a max-iterations status and its best bound) and the relative
// and absolute parts of its termination test (each header says how it
// bounds that algorithm's error).
struct IterativeSettings {
  int maxIterations = 256;
  double relativeTolerance = kDefaultTolerance;
  double absoluteTolerance = kDefaultTolerance;
};

}  // namespace collidoscope
