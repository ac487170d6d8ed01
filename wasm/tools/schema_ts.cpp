// collidoscope — writes web/lib/generated-schema.ts from the C++ side's own
// tables: the names of every status, reason, event and kind the JSON
// carries (as TypeScript string-literal unions, from EnumNames), the
// pseudocode line count of each query's trace, the object API's batch
// result layouts, and an interface for every trace frame and scene result
// (from schema.h's Schema<T>::fields, the same description scene.cpp writes
// the JSON from). The C++ side stays the one place these are declared; tsc
// then checks the TypeScript that uses them.
//
//   collidoscope_schema_ts              the file on stdout
//   collidoscope_schema_ts --check F    exit 1 (and say so) when F differs
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "collidoscope/api.h"
#include "collidoscope/chung_wang.h"
#include "collidoscope/epa.h"
#include "collidoscope/gjk.h"
#include "collidoscope/hull.h"
#include "collidoscope/json.h"
#include "collidoscope/raycast.h"
#include "collidoscope/sat.h"
#include "collidoscope/schema.h"

namespace {

using namespace collidoscope;

// The TypeScript declarations, each written once: string-literal unions
// first, then the interfaces.
struct Declarations {
  std::set<std::string> seen;
  std::ostringstream unions, interfaces;

  // The union of the names of E's enumerators 0 … last.
  template <class E>
  std::string names() {
    using N = EnumNames<E>;
    if (seen.insert(N::ts).second) {
      unions << "/** " << N::doc << " */\nexport type " << N::ts << " =";
      for (int i = 0; i <= static_cast<int>(N::last); ++i)
        unions << (i ? " | '" : " '") << N::name(static_cast<E>(i)) << "'";
      unions << ";\n\n";
    }
    return N::ts;
  }

  // The interface of a described type; `sample` is any value of it (only
  // the types of its fields are read).
  template <class T>
  std::string interfaceOf(const T& sample);
};

// A doc comment at `indent`: one line, or one line per line of the text.
void docComment(std::ostream& out, const char* indent, const std::string& doc) {
  if (doc.find('\n') == std::string::npos) {
    out << indent << "/** " << doc << " */\n";
    return;
  }
  out << indent << "/**\n";
  std::istringstream lines(doc);
  for (std::string line; std::getline(lines, line);) out << indent << " * " << line << "\n";
  out << indent << " */\n";
}

// The TypeScript type of a field's value, by its C++ type (the rules in
// schema.h's header comment).
std::string tsType(Declarations&, double) { return "number"; }
std::string tsType(Declarations&, int) { return "number"; }
std::string tsType(Declarations&, bool) { return "boolean"; }
std::string tsType(Declarations&, const Vec3&) { return "Vec3"; }
std::string tsType(Declarations&, const ResultVec3&) { return "Vec3"; }
std::string tsType(Declarations&, const std::pair<int, int>&) { return "[number, number]"; }
template <class E, std::enable_if_t<std::is_enum<E>::value, int> = 0>
std::string tsType(Declarations& d, E) {
  return d.names<E>();
}
template <class T, std::enable_if_t<IsDescribed<T>::value, int> = 0>
std::string tsType(Declarations& d, const T& x) {
  return d.interfaceOf(x);
}
template <class T>
std::string tsType(Declarations& d, const std::vector<T>&) {
  return tsType(d, T{}) + "[]";
}
template <class T>
std::string tuple(Declarations& d, const T& element, std::size_t n) {
  const std::string t = tsType(d, element);
  std::string out = "[";
  for (std::size_t i = 0; i < n; ++i) out += (i ? ", " : "") + t;
  return out + "]";
}
template <class T, std::size_t N>
std::string tsType(Declarations& d, const T (&xs)[N]) {
  return tuple(d, xs[0], N);
}
template <class T, std::size_t N>
std::string tsType(Declarations& d, const std::array<T, N>& xs) {
  return tuple(d, xs[0], N);
}
template <class At>
std::string tsType(Declarations& d, const Each<At>& xs) {
  return tsType(d, xs.at(0)) + "[]";
}

// The visitor of Schema<T>::fields that writes an interface's members.
struct TsFields {
  Declarations& d;
  std::string extends;
  std::ostringstream members;

  void member(const char* name, const std::string& type, const char* doc) {
    if (*doc != '\0') docComment(members, "  ", doc);
    members << "  " << name << ": " << type << ";\n";
  }
  template <class T>
  void field(const char* name, const T& value, const char* doc) {
    member(name, tsType(d, value), doc);
  }
  template <class T>
  void orNull(const char* name, bool, const T& value, const char* doc) {
    member(name, tsType(d, value) + " | null", doc);
  }
  template <class T>
  void base(const T& value) {
    extends = d.interfaceOf(value);
  }
};

template <class T>
std::string Declarations::interfaceOf(const T& sample) {
  using S = Schema<T>;
  if (!seen.insert(S::name).second) return S::name;
  TsFields v{*this, {}, {}};
  S::fields(v, sample);
  docComment(interfaces, "", S::doc);
  interfaces << "export interface " << S::name << (v.extends.empty() ? "" : " extends " + v.extends) << " {\n"
             << v.members.str() << "}\n\n";
  return S::name;
}

// A result object from its doubles at o[i…], written out field by field:
// each object is built by one object literal, so that every object of a
// layout has one shape (the single queries' hot path).
void writeDecoder(std::ostream& out, const api::ResultLayout& rl, const std::string& indent) {
  const std::string q = rl.query;
  out << "(o: Float64Array, i: number) => ({\n";
  for (int f = 0, at = 0; f < rl.count; at += api::widthOf(rl.fields[f].kind), ++f) {
    const std::string x = at == 0 ? "o[i]" : "o[i + " + std::to_string(at) + "]";
    const std::string v = "[" + x + ", o[i + " + std::to_string(at + 1) + "], o[i + " + std::to_string(at + 2) + "]]";
    out << indent << "  " << rl.fields[f].name << ": ";
    switch (rl.fields[f].kind) {
      case api::FieldKind::Bool: out << x << " !== 0"; break;
      case api::FieldKind::Number:
      case api::FieldKind::Count: out << x; break;
      case api::FieldKind::NumberOrNull: out << "Number.isNaN(" << x << ") ? null : " << x; break;
      case api::FieldKind::Vector: out << v; break;
      case api::FieldKind::VectorOrNull: out << "Number.isNaN(" << x << ") ? null : " << v; break;
      case api::FieldKind::Status: out << "BATCH_LAYOUTS." << q << ".status[" << x << "]"; break;
      case api::FieldKind::AxisKind: out << "BATCH_LAYOUTS." << q << ".axisKind[" << x << "]"; break;
      case api::FieldKind::IndexOrNull: out << x << " < 0 ? null : " << x; break;
    }
    out << ",\n";
  }
  out << indent << "})";
}

std::string generate() {
  std::ostringstream out;
  out << "// Generated by wasm/tools/schema_ts.cpp from the C++ name tables, layouts and schemas: do not edit.\n"
         "// Regenerate with build/native/collidoscope_schema_ts > web/lib/generated-schema.ts (ctest checks it).\n\n";
  Declarations d;
  d.names<ClosedForm>();
  d.names<GjkStatus>();
  d.names<GjkReason>();
  d.names<EpaStatus>();
  d.names<EpaReason>();
  d.names<SatStatus>();
  d.names<SatAxisKind>();
  d.names<RayCastStatus>();
  d.names<RayReason>();
  d.names<ChungWangStatus>();
  d.names<ChungWangReason>();
  d.names<HemisphereCase>();
  d.names<HullKind>();

  // The results and frames of the scene format (index.ts's run and trace);
  // the types they contain follow from their fields.
  d.interfaceOf(IntersectResult{});
  d.interfaceOf(DistanceResult{});
  d.interfaceOf(PenetrationResult{});
  d.interfaceOf(ChungWangResult{});
  d.interfaceOf(SatResult{});
  d.interfaceOf(RayCastResult{});
  d.interfaceOf(MeshRayHit{});
  d.interfaceOf(MeshIntersectResult{});
  d.interfaceOf(MeshMeshResult{});
  d.interfaceOf(MeshDistanceResult{});
  d.interfaceOf(MeshShapeCastResult{});
  const MeshContact contact;  // the element the list's type is read from
  d.interfaceOf(ContactsView{&contact, 1, false, 0});
  d.interfaceOf(ContactResult{});
  d.interfaceOf(ShapeCastResult{});
  d.interfaceOf(ContainsResult{});
  d.interfaceOf(PairsResult{});
  d.interfaceOf(SimulateResult{});
  d.interfaceOf(SimulateFrame{});
  d.interfaceOf(ProjectResult{});
  d.interfaceOf(MeshProjectResult{});
  d.interfaceOf(ConvexHull{});
  const Obb box;
  const Aabb aabb;
  const BoundingSphere sphere;
  d.interfaceOf(BoundsView{box, BoundsMethod::Points, aabb, sphere, {box, box}});
  d.interfaceOf(ClosedFormFrame{});
  d.interfaceOf(GjkFrame{});
  d.interfaceOf(EpaFrame{});
  d.interfaceOf(PlanarEpaFrame{});
  d.interfaceOf(HullFrameView{HullFrame{}, {}});
  d.interfaceOf(SatFrame{});
  d.interfaceOf(RayFrame{});
  d.interfaceOf(MeshRayFrame{});
  d.interfaceOf(ChungWangFrame{});
  d.interfaceOf(ObbViewResult{});
  d.interfaceOf(ObbViewFrame{});
  d.interfaceOf(SapViewFrame{});
  out << d.unions.str();

  out << "/** Lines of each query's pseudocode: the largest `line` a frame can name (the *_lines namespaces). */\n"
         "export const PSEUDOCODE_LINES = {\n"
      << "  distance: " << gjk_lines::kDistCount << ",\n"
      << "  intersect: " << gjk_lines::kIsCount << ",\n"
      << "  penetration: " << epa_lines::kCount << ",\n"
      << "  planarPenetration: " << planar_epa_lines::kCount << ",\n"
      << "  hull: " << hull_lines::kDone << ",\n"  // the last line of quickhull's pseudocode
      << "  sat: " << sat_lines::kCount << ",\n"
      << "  raycast: " << ray_lines::kCount << ",\n"
      << "  shapecast: " << ray_lines::kCount << ",\n"
      << "  chungwang: " << chung_wang_lines::kCount << ",\n"
      << "} as const;\n\n";

  // The batch layouts: the same JSON api::layoutJson() hands the JS side at
  // run time, as a typed constant.
  JsonValue layout;
  std::string why;
  if (!parseJson(api::layoutJson(), &layout, &why)) throw std::runtime_error("layoutJson: " + why);
  static const char* const kKinds[] = {"bool",  "number", "numberOrNull", "vector",
                                       "vectorOrNull", "count", "status", "axisKind", "indexOrNull"};
  out << "/**\n"
         " * The object API's batch results (batch_layout.h): per query, one name per double (`fields`), the names of\n"
         " * its enums, and each field of the result object with its kind and offset (`decode`).\n"
         " */\n"
         "export const BATCH_LAYOUTS = {\n";
  for (std::size_t k = 0; k < layout.members.size(); ++k) {
    const auto& [query, l] = layout.members[k];
    const api::ResultLayout& rl = api::kResultLayouts[k];
    if (query != rl.query) throw std::runtime_error("layoutJson and kResultLayouts disagree on " + query);
    out << "  " << query << ": {\n";
    for (const auto& [key, list] : l.members) {
      out << "    " << key << ": [";
      for (std::size_t i = 0; i < list.items.size(); ++i) out << (i ? ", '" : "'") << list.items[i].string << "'";
      out << "],\n";
    }
    out << "    decode: [\n";
    for (int i = 0, at = 0; i < rl.count; at += api::widthOf(rl.fields[i].kind), ++i)
      out << "      { name: '" << rl.fields[i].name << "', kind: '" << kKinds[static_cast<int>(rl.fields[i].kind)]
          << "', offset: " << at << " },\n";
    out << "    ],\n  },\n";
  }
  out << "} as const;\n\n";

  out << "/** Each query's result object from its doubles at o[i…], field by field as `BATCH_LAYOUTS[query].decode`. */\n"
         "export const DECODERS = {\n";
  for (std::size_t k = 0; k < layout.members.size(); ++k) {
    const api::ResultLayout& rl = api::kResultLayouts[k];
    out << "  " << rl.query << ": ";
    writeDecoder(out, rl, "  ");
    out << ",\n";
  }
  out << "};\n\n";

  const api::ResultLayout& record = api::kContactRecordLayout;
  out << "/** Doubles per contact of contacts() and contactsBatch() (batch_layout.h kContactRecord). */\n"
         "export const CONTACT_RECORD_STRIDE = "
      << api::strideOf(record) << ";\n\n"
         "/** One contact (a ContactPoint) from its doubles at o[i…]. */\n"
         "export const decodeContactRecord = ";
  writeDecoder(out, record, "");
  out << ";\n\n";

  out << "/** A point or a vector: [x, y, z]. */\nexport type Vec3 = [number, number, number];\n\n";
  std::string interfaces = d.interfaces.str();
  interfaces.pop_back();  // one newline at the end of the file
  out << interfaces;
  return out.str();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string text = generate();
  if (argc == 3 && std::string(argv[1]) == "--check") {
    std::ifstream in(argv[2], std::ios::binary);
    std::stringstream committed;
    committed << in.rdbuf();
    if (committed.str() == text) return 0;
    std::cerr << argv[2] << " is out of date: regenerate it with " << argv[0] << " > " << argv[2] << "\n";
    return 1;
  }
  if (argc != 1) {
    std::cerr << "usage: " << argv[0] << " [--check web/lib/generated-schema.ts]\n";
    return 2;
  }
  std::cout << text;
  return 0;
}
