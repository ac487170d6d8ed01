// collidoscope — tiny scenes, run scaled.
//
// The pair queries work with squared lengths (‖v‖², v·w, cross products),
// which underflow once a scene's coordinates fall below ~1e-154: two points
// 5e-299 apart would come out touching. A scene whose largest coordinate is
// below kTinyScene (numeric.h) is therefore run on its shapes scaled by a
// power of two 2^k to unit size. Scaling by a power of two is exact, so the
// scaled run answers exactly what the unit-size scene answers; lengths in
// its result and trace are mapped back by g = 2^-k (times λ and unit normals
// are unchanged).
//
// Every query uses the same two pieces: tinySceneExponent (is the scene
// tiny, and by how much to scale it) and runScaled (run the query on the
// shapes seen 2^k larger and map its result and frames back). A result or
// frame type says how its lengths scale in an overload of
// scaleLengths(T*, g) declared beside it, so a new field is scaled where it
// is declared.
//
// Download size: a shape type with scaled(f) (PosedShape) is magnified as
// the same type, and a recorder's frames are mapped back after the run, so
// the scaled run calls the very function the ordinary query compiled into;
// other shape types are wrapped in ScaledShape and other trace policies in
// ScaledTrace (a second instantiation, for callers' own types only).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "collidoscope/math.h"

namespace collidoscope {

namespace detail {

// A shape seen `factor` (a power of two) times larger.
template <class S>
struct ScaledShape {
  const S* shape;
  double factor;
  Vec3 support(const Vec3& d) const { return shape->support(d) * factor; }
  double radius() const { return shape->radius() * factor; }
  Vec3 center() const { return shape->center() * factor; }
};

template <class S>
struct IsScaledShape : std::false_type {};
template <class S>
struct IsScaledShape<ScaledShape<S>> : std::true_type {};

// A shape moved by `offset` (epa.h: penetration's witness points). Its
// scene is the caller's, already measured for tininess, so a query on it
// does not measure it again (which also keeps a scaled instantiation of
// that query out of the wasm).
template <class S>
struct ShiftedShape {
  const S* shape;
  Vec3 offset;
  Vec3 support(const Vec3& d) const { return shape->support(d) + offset; }
  double radius() const { return shape->radius(); }
  Vec3 center() const { return shape->center() + offset; }
};
template <class S>
struct IsShiftedShape : std::false_type {};
template <class S>
struct IsShiftedShape<ShiftedShape<S>> : std::true_type {};

// Whether a query on these shapes measures its scene: not when either is
// already a ScaledShape (the scaled run of a caller's own type), nor on the
// caller's shifted copy (already measured). Shapes magnified as their own
// type are stopped at run time instead (alreadyScaled).
template <class SA, class SB>
constexpr bool measuresTinyScene() {
  return !IsScaledShape<SA>::value && !IsScaledShape<SB>::value && !IsShiftedShape<SB>::value;
}

template <class S, class = void>
struct HasScaled : std::false_type {};
template <class S>
struct HasScaled<S, std::void_t<decltype(std::declval<const S&>().scaled(1.0))>> : std::true_type {};

// The shape seen f times larger: the same type when it can say so itself.
template <class S>
inline auto scaledBy(const S& s, double f) {
  if constexpr (HasScaled<S>::value) {
    return s.scaled(f);
  } else {
    return ScaledShape<S>{&s, f};
  }
}

// Whether a shape is already a scaled run's (which is never tiny, and is
// not measured again).
template <class S>
inline bool alreadyScaled(const S& s) {
  if constexpr (HasScaled<S>::value) {
    return s.factor() != 1;
  } else {
    (void)s;
    return IsScaledShape<S>::value;
  }
}

// The largest coordinate of either shape (and the radii): their supports
// along ±x, ±y, ±z.
template <class SA, class SB>
inline double sceneMagnitude(const SA& a, const SB& b) {
  double m = std::fmax(a.radius(), b.radius());
  const Vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (const Vec3& d : axes) m = std::fmax(m, std::fmax(maxAbs(a.support(d)), maxAbs(b.support(d))));
  return m;
}

// k such that a scene of magnitude m, scaled by 2^k, has magnitude in
// [1, 2); 0 when the scene is not tiny. (2^1074, for a denormal m, is not a
// double: k stops at 1000, which still lifts it far from underflow.)
inline int tinyExponent(double m) {
  if (!(m > 0 && m < kTinyScene)) return 0;
  return std::min(-std::ilogb(m), 1000);
}

// The exponent for a query whose support points are known to be below
// kTinyScene (distance, penetration): the scene's magnitude decides.
template <class SA, class SB>
inline int tinySceneExponent(const SA& a, const SB& b) {
  if (alreadyScaled(a)) return 0;
  return tinyExponent(sceneMagnitude(a, b));
}

// The exponent for a query whose own coordinates (a ray's origin and
// direction, the translations of a cast) are at most `extra`: the centres
// and radii first, and the supports only when those are all tiny.
template <class SA, class SB>
inline int tinySceneExponent(const SA& a, const SB& b, double extra) {
  if (alreadyScaled(a)) return 0;
  double m0 = std::fmax(std::fmax(maxAbs(a.center()), maxAbs(b.center())), extra);
  m0 = std::fmax(m0, std::fmax(a.radius(), b.radius()));
  if (!(m0 < kTinyScene)) return 0;
  return tinyExponent(std::fmax(sceneMagnitude(a, b), extra));
}

// The exponent for a cast: a ray from `at` (the origin's largest
// coordinate; 0 for a shape cast) along a direction or relative
// translation whose largest coordinate is `along`. The shapes and the
// origin decide whether the scene is tiny: a long ray does not make a tiny
// shape large (its ‖v‖² would still underflow). The direction is scaled
// with the scene, which keeps t. So k brings the scene to unit size unless
// that would make the direction larger than 2^60 (beyond the range the
// casts are tested on); then only as far as needed to lift the scene to
// kTinyScene, and never so far that the direction passes 2^500 (r·r must
// stay finite).
template <class SA, class SB>
inline int tinyCastExponent(const SA& a, const SB& b, double at, double along) {
  if (alreadyScaled(a)) return 0;
  double m0 = std::fmax(std::fmax(maxAbs(a.center()), maxAbs(b.center())), at);
  m0 = std::fmax(m0, std::fmax(a.radius(), b.radius()));
  if (!(m0 < kTinyScene)) return 0;
  const double m = std::fmax(sceneMagnitude(a, b), at);
  const int full = tinyExponent(m);
  if (full == 0 || !(along > 0)) return full;
  const int dir = std::ilogb(along);
  const int least = std::ilogb(kTinyScene) - std::ilogb(m);
  return std::min(std::max(least, std::min(full, 60 - dir)), 500 - dir);
}

template <class T, class = void>
struct HasFrames : std::false_type {};
template <class T>
struct HasFrames<T, std::void_t<decltype(std::declval<T&>().frames.size())>> : std::true_type {};

// Records the frames of a scaled run in the caller's units (g = 2^-k):
// each frame type's scaleLengths overload (found by argument-dependent
// lookup beside the frame's declaration) maps it back.
template <class Trace>
struct ScaledTrace {
  static constexpr bool enabled = Trace::enabled;
  Trace* inner;
  double g;
  template <class Frame>
  void record(Frame&& f) {
    if constexpr (Trace::enabled) {
      std::decay_t<Frame> out = std::forward<Frame>(f);
      scaleLengths(&out, g);
      inner->record(std::move(out));
    } else {
      (void)f;
    }
  }
};

// Runs `query(scaledA, scaledB, f, trace)` on the shapes scaled by f = 2^k
// and maps its result and the frames it recorded back (the types'
// scaleLengths).
template <class SA, class SB, class Trace, class Query>
inline auto runScaled(const SA& a, const SB& b, int k, Trace& trace, Query&& query) {
  const double f = std::ldexp(1.0, k), g = std::ldexp(1.0, -k);
  const auto sa = scaledBy(a, f);
  const auto sb = scaledBy(b, f);
  if constexpr (!Trace::enabled) {
    auto result = query(sa, sb, f, trace);
    scaleLengths(&result, g);
    return result;
  } else if constexpr (HasFrames<Trace>::value) {
    const std::size_t first = trace.frames.size();
    auto result = query(sa, sb, f, trace);
    for (std::size_t i = first; i < trace.frames.size(); ++i) scaleLengths(&trace.frames[i], g);
    scaleLengths(&result, g);
    return result;
  } else {
    ScaledTrace<Trace> st{&trace, g};
    auto result = query(sa, sb, f, st);
    scaleLengths(&result, g);
    return result;
  }
}

}  // namespace detail

}  // namespace collidoscope
