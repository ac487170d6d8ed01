// collidoscope — JSON reader and writer (see json.h).
#include "collidoscope/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

// Scenes are read and answers written once per scene, not per query: in
// wasm (clang) this file is built for size, as scene.cpp is.
#if defined(__clang__)
#pragma clang attribute push (__attribute__((minsize)), apply_to = function)
#endif

namespace collidoscope {

namespace {

class Reader {
 public:
  Reader(const std::string& text, std::size_t maxValues) : s_(text), maxValues_(maxValues) {}

  bool document(JsonValue* out, std::string* error) {
    skipSpace();
    if (!value(out, 0)) {
      *error = error_;
      return false;
    }
    skipSpace();
    if (pos_ != s_.size()) {
      fail("unexpected text after the JSON value");
      *error = error_;
      return false;
    }
    return true;
  }

 private:
  bool fail(const char* what) {
    if (error_.empty()) error_ = std::string(what) + " at byte " + std::to_string(pos_);
    return false;
  }
  void skipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }
  bool literal(const char* word) {
    std::size_t i = 0;
    for (; word[i]; ++i)
      if (pos_ + i >= s_.size() || s_[pos_ + i] != word[i]) return fail("invalid literal");
    pos_ += i;
    return true;
  }

  bool value(JsonValue* out, int depth) {
    if (depth > kJsonMaxDepth) return fail("JSON nested too deeply (more than 64 levels)");
    if (++values_ > maxValues_) return fail(("JSON has too many values (more than " + std::to_string(maxValues_) + ")").c_str());
    if (pos_ >= s_.size()) return fail("unexpected end of input");
    const char c = s_[pos_];
    switch (c) {
      case '{': return object(out, depth);
      case '[': return array(out, depth);
      case '"': out->kind = JsonValue::Kind::String; return string(&out->string);
      case 't': out->kind = JsonValue::Kind::Bool; out->boolean = true; return literal("true");
      case 'f': out->kind = JsonValue::Kind::Bool; out->boolean = false; return literal("false");
      case 'n': out->kind = JsonValue::Kind::Null; return literal("null");
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return number(out);
        return fail("unexpected character");
    }
  }

  // Member indices of one object ordered by key, for the duplicate check of
  // large objects (see object()).
  struct KeyLess {
    using is_transparent = void;
    const std::vector<std::pair<std::string, JsonValue>>* m;
    bool operator()(std::size_t a, std::size_t b) const { return (*m)[a].first < (*m)[b].first; }
    bool operator()(std::size_t a, const std::string& k) const { return (*m)[a].first < k; }
    bool operator()(const std::string& k, std::size_t b) const { return k < (*m)[b].first; }
  };
  // Objects with fewer members than this (every object of a scene) are
  // searched for a duplicate key in order; larger ones through a std::set, so
  // a hostile object of a million keys costs n log n comparisons, not n².
  static constexpr std::size_t kLinearKeys = 16;

  bool object(JsonValue* out, int depth) {
    out->kind = JsonValue::Kind::Object;
    std::set<std::size_t, KeyLess> keys(KeyLess{&out->members});
    ++pos_;
    skipSpace();
    if (pos_ < s_.size() && s_[pos_] == '}') { ++pos_; return true; }
    for (;;) {
      skipSpace();
      if (pos_ >= s_.size() || s_[pos_] != '"') return fail("expected a quoted key");
      std::string key;
      if (!string(&key)) return false;
      skipSpace();
      if (pos_ >= s_.size() || s_[pos_] != ':') return fail("expected ':'");
      ++pos_;
      skipSpace();
      auto& members = out->members;
      const bool duplicate = members.size() < kLinearKeys ? out->find(key) != nullptr : keys.find(key) != keys.end();
      if (duplicate) return fail(("duplicate key \"" + clipForMessage(key) + "\"").c_str());
      members.emplace_back(std::move(key), JsonValue{});
      if (members.size() == kLinearKeys) {
        for (std::size_t i = 0; i < members.size(); ++i) keys.insert(i);
      } else if (members.size() > kLinearKeys) {
        keys.insert(members.size() - 1);
      }
      if (!value(&members.back().second, depth + 1)) return false;
      skipSpace();
      if (pos_ < s_.size() && s_[pos_] == ',') { ++pos_; continue; }
      if (pos_ < s_.size() && s_[pos_] == '}') { ++pos_; return true; }
      return fail("expected ',' or '}'");
    }
  }

  bool array(JsonValue* out, int depth) {
    out->kind = JsonValue::Kind::Array;
    ++pos_;
    skipSpace();
    if (pos_ < s_.size() && s_[pos_] == ']') { ++pos_; return true; }
    for (;;) {
      skipSpace();
      out->items.emplace_back();
      if (!value(&out->items.back(), depth + 1)) return false;
      skipSpace();
      if (pos_ < s_.size() && s_[pos_] == ',') { ++pos_; continue; }
      if (pos_ < s_.size() && s_[pos_] == ']') { ++pos_; return true; }
      return fail("expected ',' or ']'");
    }
  }

  static void appendUtf8(std::string* out, unsigned cp) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  bool hex4(unsigned* out) {
    if (pos_ + 4 > s_.size()) return fail("truncated \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = s_[pos_ + i];
      v <<= 4;
      if (h >= '0' && h <= '9') v |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f') v |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') v |= static_cast<unsigned>(h - 'A' + 10);
      else return fail("invalid \\u escape");
    }
    pos_ += 4;
    *out = v;
    return true;
  }

  bool string(std::string* out) {
    ++pos_;  // opening quote
    for (;;) {
      if (pos_ >= s_.size()) return fail("unterminated string");
      const unsigned char c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') { ++pos_; return true; }
      if (c < 0x20) return fail("control character in string");
      if (c != '\\') { out->push_back(static_cast<char>(c)); ++pos_; continue; }
      ++pos_;
      if (pos_ >= s_.size()) return fail("unterminated string");
      const char e = s_[pos_++];
      switch (e) {
        case '"': out->push_back('"'); break;
        case '\\': out->push_back('\\'); break;
        case '/': out->push_back('/'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'n': out->push_back('\n'); break;
        case 'r': out->push_back('\r'); break;
        case 't': out->push_back('\t'); break;
        case 'u': {
          unsigned cp = 0;
          if (!hex4(&cp)) return false;
          // A surrogate escape without its partner is valid JSON (RFC 8259
          // section 8.2; JSON.stringify writes one for a JS string holding a
          // lone surrogate) but no Unicode character: it reads as U+FFFD, as
          // TextDecoder reads invalid UTF-8, and the scene checks then name
          // the field ("unknown shape type") instead of failing the document.
          if (cp >= 0xD800 && cp < 0xDC00 && pos_ + 6 <= s_.size() && s_[pos_] == '\\' && s_[pos_ + 1] == 'u') {
            const std::size_t back = pos_;
            unsigned lo = 0;
            pos_ += 2;
            if (!hex4(&lo)) return false;
            if (lo >= 0xDC00 && lo < 0xE000) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            else pos_ = back;  // not a pair: the next escape is read on its own
          }
          if (cp >= 0xD800 && cp < 0xE000) cp = 0xFFFD;
          appendUtf8(out, cp);
          break;
        }
        default:
          return fail("invalid escape");
      }
    }
  }

  bool number(JsonValue* out) {
    const std::size_t start = pos_;
    if (s_[pos_] == '-') ++pos_;
    if (pos_ >= s_.size()) return fail("invalid number");
    if (s_[pos_] == '0') {
      ++pos_;
    } else if (s_[pos_] >= '1' && s_[pos_] <= '9') {
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    } else {
      return fail("invalid number");
    }
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (pos_ >= s_.size() || !(s_[pos_] >= '0' && s_[pos_] <= '9')) return fail("invalid number");
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (pos_ >= s_.size() || !(s_[pos_] >= '0' && s_[pos_] <= '9')) return fail("invalid number");
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    }
    if (pos_ - start > 400) return fail("number too long");
    const std::string token = s_.substr(start, pos_ - start);
    out->kind = JsonValue::Kind::Number;
    out->number = std::strtod(token.c_str(), nullptr);  // ±inf on overflow: rejected by the scene checks
    return true;
  }

  const std::string& s_;
  std::size_t pos_ = 0;
  const std::size_t maxValues_;
  std::size_t values_ = 0;
  std::string error_;
};

void appendEscaped(std::string* out, const std::string& s) {
  out->push_back('"');
  for (const char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          *out += buf;
        } else {
          out->push_back(ch);
        }
    }
  }
  out->push_back('"');
}

}  // namespace

const char* jsonKindName(JsonValue::Kind k) {
  switch (k) {
    case JsonValue::Kind::Null: return "null";
    case JsonValue::Kind::Bool: return "a boolean";
    case JsonValue::Kind::Number: return "a number";
    case JsonValue::Kind::String: return "a string";
    case JsonValue::Kind::Array: return "an array";
    case JsonValue::Kind::Object: return "an object";
  }
  return "a value";
}

std::string clipForMessage(const std::string& s) {
  // At most kMax bytes of output, escapes included (a key of 64 DEL bytes
  // would otherwise become 384 bytes of "\u007f"), cut
  // between characters and escapes, never inside one.
  constexpr std::size_t kMax = 64;
  // Characters that would act rather than show, in a terminal (ESC sequences,
  // C1 controls) or on the page (bidi overrides, line separators), are written
  // as \uXXXX escapes.
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const unsigned char c1 = i + 1 < s.size() ? static_cast<unsigned char>(s[i + 1]) : 0;
    const unsigned char c2 = i + 2 < s.size() ? static_cast<unsigned char>(s[i + 2]) : 0;
    unsigned cp = 0;
    std::size_t len = 0;
    if (c < 0x20 || c == 0x7F) {
      cp = c, len = 1;
    } else if (c == 0xC2 && c1 >= 0x80 && c1 <= 0x9F) {
      cp = c1, len = 2;
    } else if (c == 0xE2 && (c1 & 0xC0) == 0x80 && (c2 & 0xC0) == 0x80) {
      const unsigned u = 0x2000u | ((c1 & 0x3Fu) << 6) | (c2 & 0x3Fu);
      if (u == 0x200E || u == 0x200F || (u >= 0x2028 && u <= 0x202E) || (u >= 0x2066 && u <= 0x2069)) cp = u, len = 3;
    }
    std::string piece;
    if (len > 0) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", cp);
      piece = buf;
    } else {
      // One whole UTF-8 character (a lead byte and its continuation bytes).
      len = 1;
      while (i + len < s.size() && (static_cast<unsigned char>(s[i + len]) & 0xC0) == 0x80) ++len;
      piece = s.substr(i, len);
    }
    if (out.size() + piece.size() > kMax) return out + "…";
    out += piece;
    i += len;
  }
  return out;
}

bool parseJson(const std::string& text, JsonValue* out, std::string* error, std::size_t maxValues) {
  if (text.size() > kJsonMaxBytes) {
    *error = "JSON text too large (" + std::to_string(text.size()) + " bytes; the limit is 96 MiB)";
    return false;
  }
  *out = JsonValue{};
  return Reader(text, maxValues).document(out, error);
}

void JsonWriter::separate() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_.push_back(',');
    first_.back() = false;
  }
}

JsonWriter& JsonWriter::beginObject() { separate(); out_.push_back('{'); first_.push_back(true); return *this; }
JsonWriter& JsonWriter::endObject() { out_.push_back('}'); first_.pop_back(); return *this; }
JsonWriter& JsonWriter::beginArray() { separate(); out_.push_back('['); first_.push_back(true); return *this; }
JsonWriter& JsonWriter::endArray() { out_.push_back(']'); first_.pop_back(); return *this; }

JsonWriter& JsonWriter::key(const char* k) {
  separate();
  appendEscaped(&out_, k);
  out_.push_back(':');
  afterKey_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(double d) {
  separate();
  if (!std::isfinite(d)) {
    out_ += "null";
    return *this;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  out_ += buf;
  return *this;
}

JsonWriter& JsonWriter::value(int i) { separate(); out_ += std::to_string(i); return *this; }
JsonWriter& JsonWriter::value(bool b) { separate(); out_ += b ? "true" : "false"; return *this; }
JsonWriter& JsonWriter::value(const char* s) { separate(); appendEscaped(&out_, s); return *this; }
JsonWriter& JsonWriter::value(const std::string& s) { separate(); appendEscaped(&out_, s); return *this; }
JsonWriter& JsonWriter::null() { separate(); out_ += "null"; return *this; }
JsonWriter& JsonWriter::raw(const std::string& json) { separate(); out_ += json; return *this; }

JsonWriter& JsonWriter::vec(const double* v, int n) {
  beginArray();
  for (int i = 0; i < n; ++i) value(v[i]);
  return endArray();
}

}  // namespace collidoscope

#if defined(__clang__)
#pragma clang attribute pop
#endif
