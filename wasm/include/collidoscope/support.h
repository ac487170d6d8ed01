// collidoscope — support mappings under a pose and of the Minkowski
// difference A − B.
//
// shapes.h gives each shape's core support in local coordinates. Here:
//   PosedShape          s_{T(C)}(d) = T(s_C(R^T d)) for a pose T = (R, p),
//                       plus the shape's radius (core ⊕ sphere);
//   minkowskiSupport    s_{A−B}(d) = s_A(d) − s_B(−d), keeping the two
//                       sources, which GJK needs for closest points;
//   fullSupport         core support moved out by the radius along d̂, for
//                       drawing the whole (rounded) shape.
// The algorithms take any types with PosedShape's three members, so a game
// can pass its own convex types without converting them to Shape.
#pragma once

#include "collidoscope/math.h"
#include "collidoscope/shapes.h"
#include "collidoscope/simplex.h"

namespace collidoscope {

// A shape under its pose, as GJK sees it: a world-space core support mapping
// and a radius. Any type with these three members can be passed to the
// algorithms (see gjk.h).
//
// A tiny scene runs seen 2^k times larger (tiny_scene.h): scaled(f) gives
// the same shape magnified by f, as the same type, so a query's scaled run
// is the same compiled function as its ordinary one. Multiplying by the
// factor 1 is exact, so an ordinary query's bits do not depend on it.
class PosedShape {
 public:
  explicit PosedShape(const Shape& s) : shape_(&s) {}

  Vec3 support(const Vec3& worldDir) const {
    const Transform& t = shape_->pose;
    return t.apply(localCoreSupport(*shape_, t.toLocalDirection(worldDir))) * factor_;
  }
  double radius() const { return coreRadius(*shape_) * factor_; }
  // The pose's origin. Only used to choose GJK's first search direction,
  // so it need not lie inside the shape (a polytope's points may be
  // anywhere relative to its local origin).
  Vec3 center() const { return shape_->pose.position * factor_; }
  const Shape& shape() const { return *shape_; }

  // The magnification (a power of two; 1 unless scaled) and a magnified copy.
  double factor() const { return factor_; }
  PosedShape scaled(double f) const {
    PosedShape r = *this;
    r.factor_ = factor_ * f;
    return r;
  }

 private:
  const Shape* shape_;
  double factor_ = 1;
};


// Support of the full shape (core plus radius) in world space, for drawing.
Vec3 fullSupport(const Shape& s, const Vec3& worldDir);

// s_{A−B}(d) = s_A(d) − s_B(−d) on the cores, with both sources.
template <class SA, class SB>
inline SimplexVertex minkowskiSupport(const SA& a, const SB& b, const Vec3& d) {
  SimplexVertex s;
  s.a = a.support(d);
  s.b = b.support(-d);
  s.w = s.a - s.b;
  return s;
}

}  // namespace collidoscope
