// collidoscope — shape validation and support mappings (see shapes.h).
#include "collidoscope/shapes.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "collidoscope/compound.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/polytope_support.h"

namespace collidoscope {

namespace {

const char* const kTypeNames[] = {"point",     "sphere",  "box",      "capsule",  "cylinder", "cone",
                                  "ellipsoid", "segment", "triangle", "polytope", "plane",     "mesh",
                                  "compound"};
constexpr int kTypeCount = static_cast<int>(sizeof kTypeNames / sizeof kTypeNames[0]);
static_assert(kTypeCount == static_cast<int>(ShapeType::Compound) + 1, "a name per shape type");

std::string indexField(const char* name, std::size_t i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

bool checkSize(double v, const std::string& field, ShapeError* err) {
  if (!std::isfinite(v)) {
    *err = {field, "must be a finite number"};
    return false;
  }
  if (v < 0) {
    *err = {field, "must not be negative"};
    return false;
  }
  if (v > kMaxMagnitude) {
    *err = {field, "must be at most 1e15"};
    return false;
  }
  return true;
}

bool checkCoordinate(double v, const std::string& field, ShapeError* err) {
  if (!std::isfinite(v)) {
    *err = {field, "must be a finite number"};
    return false;
  }
  if (std::fabs(v) > kMaxMagnitude) {
    *err = {field, "must be at most 1e15 in magnitude"};
    return false;
  }
  return true;
}

bool checkVec(const Vec3& v, const std::string& field, bool sizes, ShapeError* err) {
  for (int i = 0; i < 3; ++i) {
    const std::string f = indexField(field.c_str(), static_cast<std::size_t>(i));
    if (!(sizes ? checkSize(v[i], f, err) : checkCoordinate(v[i], f, err))) return false;
  }
  return true;
}

// Extreme point of a finite point set; the first of equal maxima wins.
Vec3 pointSetSupport(const std::vector<Vec3>& pts, const Vec3& d) {
  std::size_t best = 0;
  double bestDot = dot(pts[0], d);
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const double p = dot(pts[i], d);
    if (p > bestDot) {
      bestDot = p;
      best = i;
    }
  }
  return pts[best];
}

Vec3 mul(const Vec3& a, const Vec3& b) { return {a.x * b.x, a.y * b.y, a.z * b.z}; }
Vec3 absOf(const Vec3& v) { return {std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)}; }

bool uniformScale(const Shape& s) {
  const double x = std::fabs(s.scale.x);
  return std::fabs(s.scale.y) == x && std::fabs(s.scale.z) == x;
}

// A sphere or capsule scaled non-uniformly is not a core plus a ball: its
// radius is part of the scaled solid, so the margin alone is added after.
bool radiusScalesWithCore(const Shape& s) {
  return (s.type == ShapeType::Sphere || s.type == ShapeType::Capsule) && !isUnscaled(s) && !uniformScale(s);
}

// Radius of a ball about the local origin holding a convex shape's
// unscaled core without its radius (a sphere's centre, a capsule's
// segment) and margin; 0 for the other types.
double convexCoreBound(const Shape& s) {
  double core = 0;
  switch (s.type) {
    case ShapeType::Box:
      core = length(s.halfExtents);
      break;
    case ShapeType::Capsule:
      core = s.halfHeight;
      break;
    case ShapeType::Cylinder:
    case ShapeType::Cone:
      core = std::sqrt(s.radius * s.radius + s.halfHeight * s.halfHeight);
      break;
    case ShapeType::Ellipsoid:
      core = maxAbs(s.radii);
      break;
    case ShapeType::Segment:
    case ShapeType::Triangle:
    case ShapeType::Polytope:
      for (const Vec3& p : s.points) core = std::fmax(core, length(p));
      break;
    default:
      break;
  }
  return core;
}

// Radius of a ball about the local origin holding the unscaled shape
// without its margin.
double unscaledBound(const Shape& s) {
  const bool round = s.type == ShapeType::Sphere || s.type == ShapeType::Capsule;
  return convexCoreBound(s) + (round ? s.radius : 0);
}

bool checkScale(const Shape& s, ShapeError* err) {
  if (isUnscaled(s)) return true;
  for (int i = 0; i < 3; ++i) {
    const std::string f = indexField("scale", static_cast<std::size_t>(i));
    if (!checkCoordinate(s.scale[i], f, err)) return false;
    if (s.scale[i] == 0) {
      *err = {f, "must not be 0 (a zero scale flattens the solid; give a flat box or a polygon instead)"};
      return false;
    }
    // A plane's normal is divided by the scale: 1e15 / 1e-15 stays finite.
    if (std::fabs(s.scale[i]) < 1 / kMaxMagnitude) {
      *err = {f, "must be at least 1e-15 in magnitude"};
      return false;
    }
  }
  if (s.type != ShapeType::Plane && unscaledBound(s) * maxAbs(s.scale) > kMaxMagnitude) {
    *err = {"scale", "makes the shape larger than 1e15"};
    return false;
  }
  return true;
}

}  // namespace

Shape Shape::polytope(std::vector<Vec3> pts) {
  Shape s;
  s.type = ShapeType::Polytope;
  s.points = std::move(pts);
  preparePolytopeSupport(&s);
  return s;
}

void preparePolytopeSupport(Shape* s) {
  s->polytopeSupport.reset();
  if (s->type != ShapeType::Polytope || s->points.size() < kPolytopeSupportMinPoints) return;
  s->polytopeSupport = PolytopeSupport::build(s->points);  // null for non-finite points
}

const char* shapeTypeName(ShapeType t) { return kTypeNames[static_cast<int>(t)]; }

bool parseShapeType(const std::string& name, ShapeType* out) {
  for (int i = 0; i < kTypeCount; ++i) {
    if (name == kTypeNames[i]) {
      *out = static_cast<ShapeType>(i);
      return true;
    }
  }
  return false;
}

bool validateShape(const Shape& s, ShapeError* err) {
  if (!checkVec(s.pose.position, "position", false, err)) return false;
  const Quat& q = s.pose.rotation;
  const double qs[4] = {q.x, q.y, q.z, q.w};
  for (int i = 0; i < 4; ++i) {
    if (!std::isfinite(qs[i])) {
      *err = {indexField("rotation", static_cast<std::size_t>(i)), "must be a finite number"};
      return false;
    }
  }
  const double qq = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
  if (!(std::fabs(qq - 1) <= kUnitQuatTolerance)) {
    *err = {"rotation", "must be a unit quaternion [qx, qy, qz, qw]"};
    return false;
  }
  if (!checkSize(s.margin, "margin", err)) return false;
  if (s.type == ShapeType::Compound) {
    if (s.compoundData == nullptr) {
      *err = {"children", "a compound shape needs its children (makeCompoundShape builds it)"};
      return false;
    }
    if (s.margin != 0) {
      *err = {"margin", "a compound takes no margin (give each child its own)"};
      return false;
    }
    if (!isUnscaled(s)) {
      *err = {"scale", "a compound takes no scale (scale its children and their positions)"};
      return false;
    }
    return true;
  }
  if (!checkScale(s, err)) return false;

  switch (s.type) {
    case ShapeType::Point:
    case ShapeType::Compound:  // checked above
      return true;
    case ShapeType::Plane:
      if (!checkVec(s.normal, "normal", false, err) || !checkCoordinate(s.offset, "offset", err)) return false;
      if (!(maxAbs(s.normal) > 0)) {
        *err = {"normal", "must not be the zero vector (it is the plane's outward normal)"};
        return false;
      }
      return true;
    case ShapeType::Mesh:
      if (s.meshData == nullptr) {
        *err = {"vertices", "a mesh shape needs its vertices and triangles (makeMeshShape builds it)"};
        return false;
      }
      if (s.margin != 0) {
        *err = {"margin", "a mesh is a surface and takes no margin (no mesh query computes a swept mesh yet)"};
        return false;
      }
      return true;
    case ShapeType::Sphere:
      return checkSize(s.radius, "radius", err);
    case ShapeType::Box:
      return checkVec(s.halfExtents, "halfExtents", true, err);
    case ShapeType::Capsule:
    case ShapeType::Cylinder:
    case ShapeType::Cone:
      return checkSize(s.radius, "radius", err) && checkSize(s.halfHeight, "halfHeight", err);
    case ShapeType::Ellipsoid:
      return checkVec(s.radii, "radii", true, err);
    case ShapeType::Segment:
    case ShapeType::Triangle:
    case ShapeType::Polytope: {
      const std::size_t need = s.type == ShapeType::Segment ? 2 : (s.type == ShapeType::Triangle ? 3 : 1);
      const bool exact = s.type != ShapeType::Polytope;
      if (exact && s.points.size() != need) {
        *err = {"points", std::string("a ") + shapeTypeName(s.type) + " needs exactly " + std::to_string(need) +
                              " points, got " + std::to_string(s.points.size())};
        return false;
      }
      if (s.points.empty()) {
        *err = {"points", "a polytope needs at least 1 point, got 0"};
        return false;
      }
      if (s.points.size() > kMaxPolytopePoints) {
        *err = {"points", "a polytope may have at most 1000000 points, got " + std::to_string(s.points.size())};
        return false;
      }
      for (std::size_t i = 0; i < s.points.size(); ++i) {
        if (!checkVec(s.points[i], indexField("points", i), false, err)) return false;
      }
      return true;
    }
  }
  *err = {"type", "unknown shape type"};
  return false;
}

double coreRadius(const Shape& s) {
  switch (s.type) {
    case ShapeType::Sphere:
    case ShapeType::Capsule:
      if (isUnscaled(s)) return s.radius + s.margin;
      if (uniformScale(s)) return std::fabs(s.scale.x) * s.radius + s.margin;
      return s.margin;
    default:
      return s.margin;
  }
}

bool hasPolytopalCore(const Shape& s) {
  return !radiusScalesWithCore(s) && s.type != ShapeType::Cylinder && s.type != ShapeType::Cone &&
         s.type != ShapeType::Ellipsoid && s.type != ShapeType::Plane && s.type != ShapeType::Mesh &&
         s.type != ShapeType::Compound;
}

namespace {

Vec3 unscaledCoreSupport(const Shape& s, const Vec3& d);

}  // namespace

// The support of S·K in direction d is S·s_K(S·d): for diagonal S,
// d·(S·x) = (S·d)·x, so the x of K extreme along S·d maps to the extreme
// point of S·K along d. Under a uniform |scale| a sphere's or capsule's radius stays out
// of the core (coreRadius scales it); otherwise the ball is part of K and
// its support point r·e/|e| is added here.
Vec3 localCoreSupport(const Shape& s, const Vec3& d) {
  if (isUnscaled(s)) return unscaledCoreSupport(s, d);
  const Vec3 e = mul(s.scale, d);
  Vec3 p = unscaledCoreSupport(s, e);
  if (radiusScalesWithCore(s)) {
    const double m = maxAbs(e);
    if (m > 0) p += normalizedOr(e / m, Vec3{1, 0, 0}) * s.radius;
    else p.x += s.radius;
  }
  return mul(s.scale, p);
}

namespace {

Vec3 unscaledCoreSupport(const Shape& s, const Vec3& d) {
  switch (s.type) {
    case ShapeType::Point:
    case ShapeType::Sphere:
    case ShapeType::Plane:
      return {};
    case ShapeType::Box:
      return {d.x >= 0 ? s.halfExtents.x : -s.halfExtents.x, d.y >= 0 ? s.halfExtents.y : -s.halfExtents.y,
              d.z >= 0 ? s.halfExtents.z : -s.halfExtents.z};
    case ShapeType::Capsule:
      return {0, d.y >= 0 ? s.halfHeight : -s.halfHeight, 0};
    case ShapeType::Cylinder: {
      // Rim point of the cap facing d: radial part along (dx, dz).
      const double m = maxAbs(d);
      const double y = d.y >= 0 ? s.halfHeight : -s.halfHeight;
      if (!(m > 0)) return {0, y, 0};
      const double dx = d.x / m, dz = d.z / m;
      const double sigma = std::sqrt(dx * dx + dz * dz);
      if (!(sigma > 0)) return {0, y, 0};
      return {s.radius * dx / sigma, y, s.radius * dz / sigma};
    }
    case ShapeType::Cone: {
      // Candidates: the apex (0, h, 0) and the base rim point facing d,
      // (r dx/σ, −h, r dz/σ) with σ = |(dx, dz)|. Comparing their dot
      // products, h·dy versus −h·dy + r·σ, needs no trigonometry.
      const double m = maxAbs(d);
      if (!(m > 0)) return {0, s.halfHeight, 0};
      const double dx = d.x / m, dy = d.y / m, dz = d.z / m;
      const double sigma = std::sqrt(dx * dx + dz * dz);
      if (2 * s.halfHeight * dy >= s.radius * sigma) return {0, s.halfHeight, 0};
      if (!(sigma > 0)) return {0, -s.halfHeight, 0};
      return {s.radius * dx / sigma, -s.halfHeight, s.radius * dz / sigma};
    }
    case ShapeType::Ellipsoid: {
      // Maximize d·x over x = R u, |u| = 1 (R = diag(radii)): u = R d / |R d|,
      // so x = R² d / |R d|. Pre-scaling d keeps |R d| from under/overflowing.
      const double m = maxAbs(d);
      if (!(m > 0)) return {s.radii.x, 0, 0};
      const Vec3 e{s.radii.x * d.x / m, s.radii.y * d.y / m, s.radii.z * d.z / m};
      const double n = length(e);
      if (!(n > 0)) return {};
      return {s.radii.x * e.x / n, s.radii.y * e.y / n, s.radii.z * e.z / n};
    }
    case ShapeType::Polytope:
      if (s.polytopeSupport && s.polytopeSupport->inputCount() == s.points.size())
        return s.polytopeSupport->support(d);
      return pointSetSupport(s.points, d);
    case ShapeType::Segment:
    case ShapeType::Triangle:
      return pointSetSupport(s.points, d);
    case ShapeType::Mesh:
      return s.meshData ? pointSetSupport(s.meshData->mesh.vertices, d) : Vec3{};
    // The support of the union (that of the children's hull; no query uses it, compound.h).
    case ShapeType::Compound: {
      Vec3 best;
      double most = -std::numeric_limits<double>::infinity();
      if (s.compoundData)
        for (std::size_t i = 0; i < s.compoundData->children.size(); ++i) {
          const Shape& c = s.compoundData->children[i];
          const Vec3 p = c.pose.apply(localCoreSupport(c, c.pose.toLocalDirection(d)));
          if (dot(p, d) > most) most = dot(p, d), best = p;
        }
      return best;
    }
  }
  return {};
}

}  // namespace

std::vector<Vec3> localCoreVertices(const Shape& s) {
  if (!isUnscaled(s)) {
    if (!hasPolytopalCore(s)) return {};
    Shape plain = s;
    plain.scale = {1, 1, 1};
    std::vector<Vec3> v = localCoreVertices(plain);
    for (Vec3& p : v) p = mul(s.scale, p);
    return v;
  }
  switch (s.type) {
    case ShapeType::Point:
    case ShapeType::Sphere:
      return {Vec3{}};
    case ShapeType::Box: {
      std::vector<Vec3> v;
      for (int i = 0; i < 8; ++i) {
        v.push_back({(i & 1) ? s.halfExtents.x : -s.halfExtents.x, (i & 2) ? s.halfExtents.y : -s.halfExtents.y,
                     (i & 4) ? s.halfExtents.z : -s.halfExtents.z});
      }
      return v;
    }
    case ShapeType::Capsule:
      return {Vec3{0, s.halfHeight, 0}, Vec3{0, -s.halfHeight, 0}};
    case ShapeType::Segment:
    case ShapeType::Triangle:
    case ShapeType::Polytope:
      return s.points;
    case ShapeType::Mesh:
      return s.meshData ? s.meshData->mesh.vertices : std::vector<Vec3>{};
    default:
      return {};
  }
}

double localBoundingRadius(const Shape& s) {
  if (!isUnscaled(s) && s.type != ShapeType::Plane) return unscaledBound(s) * maxAbs(s.scale) + s.margin;
  double core = convexCoreBound(s);
  switch (s.type) {
    case ShapeType::Plane:
      // Unbounded; the distance of its surface from the local origin sets
      // the scale of its tolerances.
      core = std::fabs(s.offset) / length(isUnscaled(s) ? s.normal : Vec3{s.normal.x / s.scale.x, s.normal.y / s.scale.y, s.normal.z / s.scale.z});
      break;
    case ShapeType::Mesh:
      if (s.meshData)
        for (const Vec3& p : s.meshData->mesh.vertices) core = std::fmax(core, length(p));
      break;
    case ShapeType::Compound:
      if (s.compoundData)
        for (std::size_t i = 0; i < s.compoundData->children.size(); ++i)
          core = std::fmax(core, length(s.compoundData->children[i].pose.position) + s.compoundData->radii[i]);
      break;
    default:
      break;
  }
  return core + coreRadius(s);
}

void bakeScale(Shape* s) {
  if (isUnscaled(*s)) return;
  auto written = std::make_shared<Shape>(*s);
  written->written.reset();
  written->polytopeSupport.reset();
  const Vec3 a = absOf(s->scale);
  const bool uniform = uniformScale(*s);
  bool baked = true;
  switch (s->type) {
    case ShapeType::Point: break;
    case ShapeType::Box: s->halfExtents = mul(a, s->halfExtents); break;
    case ShapeType::Ellipsoid: s->radii = mul(a, s->radii); break;
    case ShapeType::Sphere:
      if (uniform) {
        s->radius *= a.x;
      } else {
        s->type = ShapeType::Ellipsoid;
        s->radii = a * s->radius;
        s->radius = 0;
      }
      break;
    case ShapeType::Capsule:
      baked = uniform;
      if (baked) {
        s->radius *= a.x;
        s->halfHeight *= a.x;
      }
      break;
    // Solids of revolution about y, symmetric under x and z mirrors (the
    // cylinder under y too): equal |sx|, |sz| scale the radius.
    case ShapeType::Cylinder:
    case ShapeType::Cone:
      baked = a.x == a.z && (s->type == ShapeType::Cylinder || s->scale.y > 0);
      if (baked) {
        s->radius *= a.x;
        s->halfHeight *= a.y;
      }
      break;
    case ShapeType::Segment:
    case ShapeType::Triangle:
    case ShapeType::Polytope: {
      for (Vec3& p : s->points) p = mul(s->scale, p);
      const bool prepared = s->polytopeSupport != nullptr;
      if (prepared) preparePolytopeSupport(s);
      break;
    }
    // {x : n·x ≤ d} scaled is {y : n·S⁻¹y ≤ d}: the normal S⁻¹n, same offset.
    case ShapeType::Plane:
      s->normal = {s->normal.x / s->scale.x, s->normal.y / s->scale.y, s->normal.z / s->scale.z};
      break;
    case ShapeType::Mesh:
      baked = bakeMeshScale(s);
      break;
    default:
      baked = false;
      break;
  }
  if (baked) s->scale = {1, 1, 1};
  s->written = std::move(written);
}

}  // namespace collidoscope
