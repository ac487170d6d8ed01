// collidoscope — a small JSON reader and writer for the scene format.
//
// Scenes arrive from permalinks and files, i.e. from strangers, so the
// reader is strict (RFC 8259, no comments, no trailing commas, no NaN), caps
// nesting depth and input size, keeps object key order (for errors that name
// the first offending field), and reports the byte offset of a syntax error.
// Numbers are read with strtod, so every double round-trips bit for bit;
// the writer prints 17 significant digits for the same reason.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace collidoscope {

// Deepest nesting accepted: a scene needs 4 levels (scene → shapes → shape
// → points → point); 64 leaves room for future fields and still stops a
// hostile "[[[[…" from exhausting the stack.
constexpr int kJsonMaxDepth = 64;
// Largest document accepted: a polytope of 1e6 points at ~70 bytes per point.
constexpr std::size_t kJsonMaxBytes = 96u * 1024u * 1024u;
// Most values (numbers, strings, arrays, objects, ...) in one document. The
// byte limit alone does not bound memory: "[0,0,0,…" spends 2 bytes per value
// and every value costs a JsonValue (56 bytes in wasm32, twice that while a
// vector grows), so 96 MiB of it would need ~5 GiB and abort the wasm module.
// The largest scene, two polytopes of 1e6 points (4 values per point), has
// 8e6 values; this cap keeps the worst document well under wasm's 2 GiB.
constexpr std::size_t kJsonMaxValues = 8'100'000;

class JsonValue {
 public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> items;                            // Array
  std::vector<std::pair<std::string, JsonValue>> members;  // Object, in input order

  const JsonValue* find(const std::string& key) const {
    for (const auto& m : members)
      if (m.first == key) return &m.second;
    return nullptr;
  }
  bool isNumber() const { return kind == Kind::Number; }
  bool isString() const { return kind == Kind::String; }
  bool isArray() const { return kind == Kind::Array; }
  bool isObject() const { return kind == Kind::Object; }
};

// Name of a kind for error messages ("a number", "an array", ...).
const char* jsonKindName(JsonValue::Kind k);

// Text from the input echoed in an error message (a key, a type name): at
// most 64 bytes of output (escapes included), cut at a UTF-8 character
// boundary and marked with "…", so
// a hostile 10 MB key cannot blow up the message; control characters and
// bidi overrides written as \uXXXX, so it cannot drive a terminal or turn
// the page's banner around.
std::string clipForMessage(const std::string& s);

// Parses text into *out. On failure returns false and sets *error to a
// sentence with the byte offset. maxValues: see kJsonMaxValues (smaller in
// tests).
bool parseJson(const std::string& text, JsonValue* out, std::string* error,
               std::size_t maxValues = kJsonMaxValues);

// Appends JSON text to an output string.
class JsonWriter {
 public:
  JsonWriter& beginObject();
  JsonWriter& endObject();
  JsonWriter& beginArray();
  JsonWriter& endArray();
  JsonWriter& key(const char* k);
  JsonWriter& value(double d);  // non-finite values are written as null
  JsonWriter& value(int i);
  JsonWriter& value(bool b);
  JsonWriter& value(const char* s);
  JsonWriter& value(const std::string& s);
  JsonWriter& null();
  JsonWriter& raw(const std::string& json);  // an already-serialized value
  JsonWriter& vec(const double* v, int n);
  const std::string& str() const { return out_; }
  // Vectors of a 2D scene (in the plane z = 0) are written as [x, y]: the
  // scene writer reads this flag for every Vec3 it writes.
  void setPlanar(bool planar) { planar_ = planar; }
  bool planar() const { return planar_; }

 private:
  void separate();
  std::string out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool afterKey_ = false;
  bool planar_ = false;
};

}  // namespace collidoscope
