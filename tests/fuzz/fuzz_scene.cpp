// Fuzz target: the scene format (scene.h, json.h), as permalinks, the CLI
// and the page feed it: arbitrary bytes → parseScene → runScene.
//
// Invariants (each failure prints "INVARIANT fuzz_scene: ..." and aborts):
//   * parseScene either succeeds or returns an error with a known code
//     (invalid-json, invalid-scene, unsupported-query) and a non-empty
//     message — valid UTF-8 whenever the input was (messages echo input);
//   * a parsed scene round-trips: sceneToJson → parseScene → sceneToJson
//     gives the same text (so the same bits: 17 significant digits), and
//     that text is JSON the reader accepts;
//   * runScene, with and without a trace, never crashes, hangs or aborts;
//     on success its text is JSON, and every number the result promises is
//     a number (the writer prints non-finite values as null, so a NaN
//     distance would show up as a null where none is allowed); iteration
//     counts stay within their caps; the traced run's "result" equals the
//     untraced result (the trace policy must not change the answer); on
//     failure the error has a code and a message.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "collidoscope/chung_wang.h"
#include "collidoscope/epa.h"
#include "collidoscope/json.h"
#include "collidoscope/scene.h"
#include "fuzz_common.h"

namespace {

using collidoscope::JsonValue;
using collidoscope::QueryKind;
using collidoscope::Scene;
using collidoscope::SceneError;

constexpr const char* kTarget = "fuzz_scene";
constexpr int kMaxTracedEpaIterations = 64;
// Longest error field and message: a field path is a few names and indices
// plus at most one clipped key (64 bytes + "…"); messages quote at most one
// clipped name.
constexpr std::size_t kMaxFieldBytes = 200;
constexpr std::size_t kMaxMessageBytes = 600;

bool validUtf8(const std::string& s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    int len = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xe0) == 0xc0) {
      len = 2, cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      len = 3, cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      len = 4, cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > n) return false;
    for (int k = 1; k < len; ++k) {
      const unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3f);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
      return false;
    i += len;
  }
  return true;
}

// Bitwise structural equality of two JSON values (numbers compared as bits,
// so −0 ≠ 0: the writer is deterministic and both sides come from it).
bool same(const JsonValue& a, const JsonValue& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case JsonValue::Kind::Null: return true;
    case JsonValue::Kind::Bool: return a.boolean == b.boolean;
    case JsonValue::Kind::Number: return std::memcmp(&a.number, &b.number, sizeof a.number) == 0;
    case JsonValue::Kind::String: return a.string == b.string;
    case JsonValue::Kind::Array:
      if (a.items.size() != b.items.size()) return false;
      for (std::size_t i = 0; i < a.items.size(); ++i)
        if (!same(a.items[i], b.items[i])) return false;
      return true;
    case JsonValue::Kind::Object:
      if (a.members.size() != b.members.size()) return false;
      for (std::size_t i = 0; i < a.members.size(); ++i)
        if (a.members[i].first != b.members[i].first || !same(a.members[i].second, b.members[i].second)) return false;
      return true;
  }
  return false;
}

void checkError(const SceneError& err, const std::string& what, const std::string& input, bool messageMustBeUtf8) {
  static const std::set<std::string> kCodes = {"invalid-json", "invalid-scene", "unsupported-query"};
  if (kCodes.count(err.code) == 0) fuzz::fail(kTarget, what + ": unknown error code \"" + err.code + "\"", input);
  if (err.message.empty()) fuzz::fail(kTarget, what + ": error without a message (code " + err.code + ")", input);
  // Errors echo input (unknown keys, type names) clipped to 64 bytes: a
  // hostile key must not make a megabyte error (before the fix, the field
  // carried the whole key).
  if (err.field.size() > kMaxFieldBytes || err.message.size() > kMaxMessageBytes)
    fuzz::fail(kTarget, what + ": error field or message too long (" + std::to_string(err.field.size()) + " / " +
                            std::to_string(err.message.size()) + " bytes)", input);
  if (messageMustBeUtf8 && !validUtf8(err.message))
    fuzz::fail(kTarget, what + ": error message is not valid UTF-8 (input was)", input + "\nmessage: " + err.message);
  if (messageMustBeUtf8 && !validUtf8(err.field))
    fuzz::fail(kTarget, what + ": error field is not valid UTF-8 (input was)", input + "\nfield: " + err.field);
}

// The result fields DESIGN.md promises as numbers or vectors of numbers, per
// query; the ones that may be null (a miss's t and point, a separated pair's
// axis, ...) are listed separately.
struct Fields {
  std::set<std::string> numbers;   // must be a finite number, or an array of them
  std::set<std::string> nullable;  // null or as above
};

const Fields& fieldsOf(QueryKind q) {
  static const Fields kIntersect{{"iterations"}, {}};
  static const Fields kDistance{{"distance", "pointA", "pointB", "iterations"}, {}};
  static const Fields kPenetration{{"depth", "normal", "pointA", "pointB", "iterations"}, {}};
  static const Fields kChungWang{{"iterations"}, {"separatingAxis"}};
  static const Fields kRaycast{{"iterations"}, {"t", "point", "normal"}};
  static const Fields kShapecast{{"iterations"}, {"t", "normal", "pointA", "pointB"}};
  static const Fields kHull{{"vertices", "faces", "tolerance"}, {"normal"}};
  static const Fields kObb{{"center", "axes", "halfExtents"}, {}};
  static const Fields kSat{{"axis", "depth"}, {}};
  switch (q) {
    case QueryKind::Intersect: return kIntersect;
    case QueryKind::Distance: return kDistance;
    case QueryKind::Penetration: return kPenetration;
    case QueryKind::ChungWang: return kChungWang;
    case QueryKind::Raycast: return kRaycast;
    case QueryKind::Shapecast: return kShapecast;
    case QueryKind::Hull: return kHull;
    case QueryKind::Obb: return kObb;
    case QueryKind::Sat: return kSat;
  }
  return kIntersect;
}

// Every leaf of v is a number (arrays nest: points, faces, axes).
bool allNumbers(const JsonValue& v) {
  if (v.isNumber()) return std::isfinite(v.number);
  if (!v.isArray()) return false;
  for (const JsonValue& item : v.items)
    if (!allNumbers(item)) return false;
  return true;
}

// Largest iteration count each query may report (the caps of the headers:
// GjkSettings, EpaSettings, ChungWangSettings, RayCastSettings).
int iterationCap(QueryKind q) {
  switch (q) {
    case QueryKind::Penetration: return collidoscope::EpaSettings{}.maxIterations;
    case QueryKind::ChungWang: return collidoscope::kChungWangMaxDirections;
    default: return 256;
  }
}

void checkResult(const JsonValue& r, QueryKind q, const std::string& input, const char* mode) {
  const std::string where = std::string("runScene (") + mode + ", query " + collidoscope::queryName(q) + ")";
  if (!r.isObject()) fuzz::fail(kTarget, where + ": the result is not a JSON object", input);
  const Fields& f = fieldsOf(q);
  for (const std::string& k : f.numbers) {
    const JsonValue* v = r.find(k);
    if (v == nullptr || !allNumbers(*v))
      fuzz::fail(kTarget, where + ": result field \"" + k + "\" is missing, null or not finite", input);
  }
  for (const std::string& k : f.nullable) {
    const JsonValue* v = r.find(k);
    if (v == nullptr || !(v->kind == JsonValue::Kind::Null || allNumbers(*v)))
      fuzz::fail(kTarget, where + ": result field \"" + k + "\" is missing or not finite", input);
  }
  if (const JsonValue* it = r.find("iterations")) {
    if (!(it->number >= 0 && it->number <= iterationCap(q)))
      fuzz::fail(kTarget, where + ": " + fuzz::str(it->number) + " iterations, above the cap", input);
  }
  for (const char* k : {"distance", "depth", "t"}) {
    const JsonValue* v = r.find(k);
    if (v != nullptr && v->isNumber() && !(v->number >= 0))
      fuzz::fail(kTarget, where + ": negative \"" + k + "\" " + fuzz::str(v->number), input);
  }
}

// Documents the query's decision (for the trace/no-trace comparison).
void run(const Scene& scene, const std::string& input) {
  std::string plain, traced;
  SceneError e1, e2;
  const bool ok1 = collidoscope::runScene(scene, false, &plain, &e1);
  if (!ok1) checkError(e1, "runScene", input, false);
  JsonValue plainJson;
  std::string why;
  if (ok1) {
    if (!collidoscope::parseJson(plain, &plainJson, &why))
      fuzz::fail(kTarget, "runScene wrote JSON its own reader rejects: " + why, input + "\noutput: " + plain);
    checkResult(plainJson, scene.query, input, "no trace");
  }

  // A penetration trace snapshots EPA's whole polytope in every frame, so
  // it grows quadratically with the iterations: ~140 MB of JSON for a curved
  // pair at EPA's capacity (two coincident cones: shared/vectors/epa/
  // identical-cones.json), 10 s per run under the sanitizers. Those are
  // left to the C++ trace tests; the fuzzer traces the cheap ones.
  if (ok1 && scene.query == QueryKind::Penetration) {
    const JsonValue* it = plainJson.find("iterations");
    if (it != nullptr && it->number > kMaxTracedEpaIterations) return;
  }
  const bool ok2 = collidoscope::runScene(scene, true, &traced, &e2);
  if (!ok2) {
    checkError(e2, "runScene (trace)", input, false);
    // The only queries a trace may refuse where the plain run answers: obb
    // (no trace: not iterative), a hull too large to trace, and SAT over too
    // many axes to record.
    if (ok1 && scene.query != QueryKind::Obb && scene.query != QueryKind::Hull && scene.query != QueryKind::Sat)
      fuzz::fail(kTarget, "runScene answers without a trace but fails with one: " + e2.message, input);
    return;
  }
  JsonValue traceJson;
  if (!collidoscope::parseJson(traced, &traceJson, &why))
    fuzz::fail(kTarget, "runScene (trace) wrote JSON its own reader rejects: " + why, input);
  if (!traceJson.isObject()) fuzz::fail(kTarget, "a trace is not a JSON object", input);
  const JsonValue* result = traceJson.find("result");
  const JsonValue* frames = traceJson.find("frames");
  if (result == nullptr || frames == nullptr || !frames->isArray())
    fuzz::fail(kTarget, "a trace without \"result\" or \"frames\"", input);
  checkResult(*result, scene.query, input, "trace");
  if (!ok1) fuzz::fail(kTarget, "runScene fails without a trace but answers with one: " + e1.message, input);
  if (!same(*result, plainJson))
    fuzz::fail(kTarget, "the traced result differs from the untraced one (a trace must not change the answer)",
               input + "\nplain: " + plain);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  Scene scene;
  SceneError err;
  if (!collidoscope::parseScene(input, &scene, &err)) {
    checkError(err, "parseScene", input, validUtf8(input) && input.find("\\u") == std::string::npos);
    return 0;
  }

  // Round trip: the written scene reads back to the same scene.
  const std::string written = collidoscope::sceneToJson(scene);
  Scene again;
  SceneError err2;
  if (!collidoscope::parseScene(written, &again, &err2))
    fuzz::fail(kTarget, "sceneToJson wrote a scene parseScene rejects: " + err2.field + ": " + err2.message,
               input + "\nwritten: " + written);
  const std::string rewritten = collidoscope::sceneToJson(again);
  if (rewritten != written)
    fuzz::fail(kTarget, "sceneToJson(parseScene(sceneToJson(scene))) differs from sceneToJson(scene)",
               input + "\nfirst:  " + written + "\nsecond: " + rewritten);

  run(scene, input);
  return 0;
}
