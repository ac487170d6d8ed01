// collidoscope — results and frames as JSON, from their schemas (schema.h):
// the writers the scene runner (scene.cpp) and the mesh scenes
// (mesh_scene.cpp) share. Internal to the library's sources.
#pragma once

#include <array>
#include <type_traits>
#include <utility>
#include <vector>

#include "collidoscope/json.h"
#include "collidoscope/schema.h"

namespace collidoscope {
namespace jsonout {

// A 2D scene's writer (planar) drops z, which every point of such a scene
// has 0: its shapes, rays and motions lie in the plane, and so do the
// support points, simplices and results computed from them.
inline void writeVec(JsonWriter& w, const Vec3& v) {
  const double d[3] = {v.x, v.y, v.z};
  w.vec(d, w.planar() ? 2 : 3);
}

// Result vectors: −0 is written as 0 (x + 0.0 maps −0 to +0 and changes
// nothing else), so a normal reads [0, 1, 0], not [0, 1, -0]. Scenes are
// written with writeVec, bit for bit.
inline void writeResultVec(JsonWriter& w, const Vec3& v) {
  const double d[3] = {v.x + 0.0, v.y + 0.0, v.z + 0.0};
  w.vec(d, w.planar() ? 2 : 3);
}

inline void put(JsonWriter& w, double d) { w.value(d); }
inline void put(JsonWriter& w, int i) { w.value(i); }
inline void put(JsonWriter& w, bool b) { w.value(b); }
inline void put(JsonWriter& w, const Vec3& v) { writeVec(w, v); }
inline void put(JsonWriter& w, const ResultVec3& v) { writeResultVec(w, v.v); }
inline void put(JsonWriter& w, const std::pair<int, int>& e) { w.beginArray().value(e.first).value(e.second).endArray(); }
template <class E, std::enable_if_t<std::is_enum<E>::value, int> = 0>
void put(JsonWriter& w, E e) {
  w.value(EnumNames<E>::name(e));
}
template <class T, std::enable_if_t<IsDescribed<T>::value, int> = 0>
void put(JsonWriter& w, const T& x);
template <class T>
void put(JsonWriter& w, const std::vector<T>& xs);
template <class T, std::size_t N>
void put(JsonWriter& w, const T (&xs)[N]);
template <class T, std::size_t N>
void put(JsonWriter& w, const std::array<T, N>& xs);
template <class At>
void put(JsonWriter& w, const Each<At>& xs);

template <class List>
void putList(JsonWriter& w, const List& xs) {
  w.beginArray();
  for (const auto& x : xs) put(w, x);
  w.endArray();
}
template <class T>
void put(JsonWriter& w, const std::vector<T>& xs) {
  putList(w, xs);
}
template <class T, std::size_t N>
void put(JsonWriter& w, const T (&xs)[N]) {
  putList(w, xs);
}
template <class T, std::size_t N>
void put(JsonWriter& w, const std::array<T, N>& xs) {
  putList(w, xs);
}
template <class At>
void put(JsonWriter& w, const Each<At>& xs) {
  w.beginArray();
  for (int i = 0; i < xs.n; ++i) put(w, xs.at(i));
  w.endArray();
}

// The visitor of Schema<T>::fields that writes JSON; the docs are not used.
struct JsonFields {
  JsonWriter& w;
  template <class T>
  void field(const char* name, const T& value, const char* /*doc*/) {
    put(w.key(name), value);
  }
  template <class T>
  void orNull(const char* name, bool present, const T& value, const char* /*doc*/) {
    if (present) put(w.key(name), value);
    else w.key(name).null();
  }
  template <class T>
  void base(const T& value) {
    Schema<T>::fields(*this, value);
  }
};

// The fields of a described value, into the object being written.
template <class T>
void writeFields(JsonWriter& w, const T& x) {
  JsonFields v{w};
  Schema<T>::fields(v, x);
}

template <class T, std::enable_if_t<IsDescribed<T>::value, int>>
void put(JsonWriter& w, const T& x) {
  w.beginObject();
  writeFields(w, x);
  w.endObject();
}

}  // namespace jsonout
}  // namespace collidoscope
