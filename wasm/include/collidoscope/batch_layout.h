// collidoscope — the object API's results as doubles, declared once: the
// order, name and kind of every field of each query's result. api.cpp
// writes results at these offsets, api::layoutJson() reports them, and the
// TypeScript decoder is generated from them (wasm/tools/schema_ts.cpp).
// The order is that of the scene-format result the same query returns.
#pragma once

namespace collidoscope {
namespace api {

// What one field holds and how it decodes.
enum class FieldKind {
  Bool,          // 0 or 1
  Number,        // a double
  NumberOrNull,  // a double, NaN for null
  Vector,        // 3 doubles
  VectorOrNull,  // 3 doubles, NaN for null
  Count,         // a whole number
  Status,        // the index of the query's status name
  AxisKind,      // the index of SAT's axis-kind name
  IndexOrNull,   // a whole number ≥ 0, −1 for null
};

constexpr int widthOf(FieldKind k) { return k == FieldKind::Vector || k == FieldKind::VectorOrNull ? 3 : 1; }

struct ResultField {
  const char* name;
  FieldKind kind;
};

using F = FieldKind;
inline constexpr ResultField kIntersectResult[] = {{"intersecting", F::Bool}, {"iterations", F::Count}, {"status", F::Status}};
inline constexpr ResultField kDistanceResult[] = {{"distance", F::Number}, {"pointA", F::Vector}, {"pointB", F::Vector},
                                                  {"iterations", F::Count}, {"status", F::Status}};
inline constexpr ResultField kPenetrationResult[] = {{"intersecting", F::Bool}, {"depth", F::Number},
                                                     {"normal", F::Vector},     {"pointA", F::Vector},
                                                     {"pointB", F::Vector},     {"iterations", F::Count},
                                                     {"status", F::Status}};
inline constexpr ResultField kChungWangResult[] = {{"intersecting", F::Bool}, {"separatingAxis", F::VectorOrNull},
                                                   {"iterations", F::Count}, {"status", F::Status}};
inline constexpr ResultField kSatResult[] = {{"intersecting", F::Bool}, {"axis", F::Vector},        {"depth", F::Number},
                                             {"gap", F::Number},        {"axisKind", F::AxisKind},  {"axesTested", F::Count},
                                             {"status", F::Status}};
inline constexpr ResultField kRaycastResult[] = {{"hit", F::Bool},           {"t", F::NumberOrNull},
                                                 {"point", F::VectorOrNull}, {"normal", F::VectorOrNull},
                                                 {"startedInside", F::Bool}, {"iterations", F::Count},
                                                 {"status", F::Status}};
inline constexpr ResultField kShapecastResult[] = {{"hit", F::Bool},
                                                   {"t", F::NumberOrNull},
                                                   {"normal", F::VectorOrNull},
                                                   {"pointA", F::VectorOrNull},
                                                   {"pointB", F::VectorOrNull},
                                                   {"initiallyOverlapping", F::Bool},
                                                   {"iterations", F::Count},
                                                   {"status", F::Status}};

// contact: NaN for null when `contact` is 0 (apart by more than the margin).
inline constexpr ResultField kContactResult[] = {{"contact", F::Bool},           {"distance", F::NumberOrNull},
                                                 {"normal", F::VectorOrNull},    {"pointA", F::VectorOrNull},
                                                 {"pointB", F::VectorOrNull},    {"iterations", F::Count},
                                                 {"status", F::Status}};

// contains and project: shape A and a point.
inline constexpr ResultField kContainsResult[] = {{"inside", F::Bool}, {"iterations", F::Count}, {"status", F::Status}};
inline constexpr ResultField kProjectResult[] = {{"point", F::Vector},     {"distance", F::Number},
                                                 {"inside", F::Bool},      {"iterations", F::Count},
                                                 {"status", F::Status}};

struct ResultLayout {
  const char* query;
  const ResultField* fields;
  int count;
};

template <int N>
constexpr ResultLayout layout(const char* query, const ResultField (&fields)[N]) {
  return {query, fields, N};
}

// In api::Kind order.
inline constexpr ResultLayout kResultLayouts[] = {
    layout("intersect", kIntersectResult), layout("distance", kDistanceResult),
    layout("penetration", kPenetrationResult), layout("chungwang", kChungWangResult), layout("sat", kSatResult),
    layout("raycast", kRaycastResult), layout("shapecast", kShapecastResult), layout("contact", kContactResult),
    layout("contains", kContainsResult), layout("project", kProjectResult),
};

// One contact of Registry::contactsBatch() and contacts() (the scene
// format's ContactPoint): triangle is the mesh's, −1 between convex shapes.
inline constexpr ResultField kContactRecord[] = {{"depth", F::Number},  {"normal", F::Vector},
                                                 {"pointA", F::Vector}, {"pointB", F::Vector},
                                                 {"triangle", F::IndexOrNull}};
inline constexpr ResultLayout kContactRecordLayout = layout("contacts", kContactRecord);

// Doubles of one result.
constexpr int strideOf(const ResultLayout& l) {
  int n = 0;
  for (int i = 0; i < l.count; ++i) n += widthOf(l.fields[i].kind);
  return n;
}

constexpr bool sameName(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) ++a, ++b;
  return *a == *b;
}

// The offset of field `name` in layout l, or in the result of layout
// `kind` (an api::Kind as int). Used in constant expressions, a name the table lacks does not
// compile (the throw is not a constant expression).
constexpr int offsetIn(const ResultLayout& l, const char* name) {
  int at = 0;
  for (int i = 0; i < l.count; ++i) {
    if (sameName(l.fields[i].name, name)) return at;
    at += widthOf(l.fields[i].kind);
  }
  throw "no such result field";
}
constexpr int offsetOf(int kind, const char* name) { return offsetIn(kResultLayouts[kind], name); }

}  // namespace api
}  // namespace collidoscope
