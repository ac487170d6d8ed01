// The object API's result doubles against the scene format's result JSON
// (tests/cpp): a scene result flattened into the layout's doubles, by the
// names of api::layoutJson() — vectors as .x/.y/.z (null → NaN), booleans
// 0/1, status and axisKind as their index — and a bit-for-bit comparison.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "collidoscope/json.h"

namespace collidoscope {
namespace apitest {

inline std::vector<double> flatten(const JsonValue& result, const JsonValue& layout) {
  std::vector<double> out;
  for (const JsonValue& f : layout.find("fields")->items) {
    const std::string name = f.string;
    const std::size_t dot = name.find('.');
    const JsonValue* v = result.find(name.substr(0, dot));
    EXPECT_NE(v, nullptr) << name;
    if (v == nullptr) return out;
    if (dot != std::string::npos) {
      const int axis = name[dot + 1] - 'x';
      out.push_back(v->kind == JsonValue::Kind::Null ? std::nan("") : v->items[static_cast<std::size_t>(axis)].number);
    } else if (v->kind == JsonValue::Kind::Bool) {
      out.push_back(v->boolean ? 1 : 0);
    } else if (v->kind == JsonValue::Kind::String) {
      const JsonValue* names = layout.find(name == "status" ? "status" : "axisKind");
      double index = -1;
      for (std::size_t i = 0; i < names->items.size(); ++i)
        if (names->items[i].string == v->string) index = static_cast<double>(i);
      EXPECT_GE(index, 0) << name << " = " << v->string;
      out.push_back(index);
    } else if (v->kind == JsonValue::Kind::Null) {
      out.push_back(std::nan(""));
    } else {
      out.push_back(v->number);
    }
  }
  return out;
}

inline bool sameBits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
}

}  // namespace apitest
}  // namespace collidoscope
