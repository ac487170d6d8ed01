// Mesh generators shared by the mesh tests and the mesh benchmarks: a seeded
// generator, random triangle soups and slivers, closed meshes (icosphere, torus), a flat
// grid and an unwelded copy. Plain data makers: no library call but the
// vector maths of math.h.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "collidoscope/mesh.h"

namespace meshgen {

using collidoscope::Quat;
using collidoscope::TriangleMesh;
using collidoscope::Vec3;
using collidoscope::length;
using collidoscope::maxAbs;
using Tri = std::array<int, 3>;

struct Rng {
  std::uint64_t s;
  explicit Rng(std::uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 7) {}
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
  double uniform(double a, double b) { return a + (b - a) * uniform(); }
  int integer(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
  Vec3 inCube(double h) { return {uniform(-h, h), uniform(-h, h), uniform(-h, h)}; }
  Vec3 unit() {
    for (;;) {
      const Vec3 v = inCube(1);
      const double l = length(v);
      if (l > 1e-3 && l <= 1) return v / l;
    }
  }
  Quat rotation() {
    const double u1 = uniform(), u2 = 2 * M_PI * uniform(), u3 = 2 * M_PI * uniform();
    const double a = std::sqrt(1 - u1), b = std::sqrt(u1);
    return {a * std::sin(u2), a * std::cos(u2), b * std::sin(u3), b * std::cos(u3)};
  }
};

// ------------------------------------------------------------ mesh makers
inline TriangleMesh randomSoup(Rng& rng, int n, double spread, double size) {
  TriangleMesh m;
  for (int i = 0; i < n; ++i) {
    const Vec3 c = rng.inCube(spread);
    const int base = static_cast<int>(m.vertices.size());
    for (int k = 0; k < 3; ++k) m.vertices.push_back(c + rng.inCube(size));
    m.triangles.push_back({base, base + 1, base + 2});
  }
  return m;
}

// Needle-thin triangles: two corners at random within `size` (per
// coordinate) of a random centre, the third `thickness` (relative to the
// segment between them) off the segment's midpoint, so
// their area is tiny against their extent; every fourth has no offset (its
// apex is the rounded midpoint: collinear or off the line by an ulp).
inline TriangleMesh slivers(Rng& rng, int n, double spread, double size, double thickness) {
  TriangleMesh m;
  for (int i = 0; i < n; ++i) {
    const Vec3 c = rng.inCube(spread);
    const Vec3 p = c + rng.inCube(size), q = c + rng.inCube(size);
    const double off = i % 4 == 3 ? 0.0 : thickness * length(q - p);
    const int base = static_cast<int>(m.vertices.size());
    m.vertices.push_back(p);
    m.vertices.push_back(q);
    m.vertices.push_back((p + q) * 0.5 + rng.unit() * off);
    m.triangles.push_back({base, base + 1, base + 2});
  }
  return m;
}

// Icosahedron subdivided `levels` times, vertices pushed onto the unit sphere
// (closed, outward CCW, welded).
inline TriangleMesh icosphere(int levels) {
  const double t = (1 + std::sqrt(5.0)) / 2;
  TriangleMesh m;
  m.vertices = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  for (Vec3& v : m.vertices) v = v / length(v);
  m.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                 {11, 10, 2}, {10, 7, 6}, {7, 1, 8},   {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                 {3, 8, 9},  {4, 9, 5},  {2, 4, 11},  {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int l = 0; l < levels; ++l) {
    std::map<std::pair<int, int>, int> mid;
    auto midpoint = [&](int a, int b) {
      const auto key = std::make_pair(std::min(a, b), std::max(a, b));
      auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      const Vec3 p = m.vertices[a] + m.vertices[b];
      m.vertices.push_back(p / length(p));
      const int i = static_cast<int>(m.vertices.size()) - 1;
      mid[key] = i;
      return i;
    };
    std::vector<Tri> next;
    for (const Tri& f : m.triangles) {
      const int a = midpoint(f[0], f[1]), b = midpoint(f[1], f[2]), c = midpoint(f[2], f[0]);
      next.push_back({f[0], a, c});
      next.push_back({f[1], b, a});
      next.push_back({f[2], c, b});
      next.push_back({a, b, c});
    }
    m.triangles = next;
  }
  return m;
}

// Torus around y: major radius R, minor r, nu × nv quads split in two
// (closed, outward CCW, welded).
inline TriangleMesh torus(int nu, int nv, double R, double r) {
  TriangleMesh m;
  for (int i = 0; i < nu; ++i)
    for (int j = 0; j < nv; ++j) {
      const double u = 2 * M_PI * i / nu, v = 2 * M_PI * j / nv;
      m.vertices.push_back({(R + r * std::cos(v)) * std::cos(u), r * std::sin(v), (R + r * std::cos(v)) * std::sin(u)});
    }
  auto id = [&](int i, int j) { return ((i + nu) % nu) * nv + (j + nv) % nv; };
  for (int i = 0; i < nu; ++i)
    for (int j = 0; j < nv; ++j) {
      const int a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
      m.triangles.push_back({a, c, b});
      m.triangles.push_back({a, d, c});
    }
  return m;
}

// Flat n × n grid of unit squares in z = 0, each split along its diagonal.
inline TriangleMesh grid(int n) {
  TriangleMesh m;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) m.vertices.push_back({static_cast<double>(i), static_cast<double>(j), 0});
  auto id = [&](int i, int j) { return i * (n + 1) + j; };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      m.triangles.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      m.triangles.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  return m;
}

// Every triangle with its own three vertices (an unwelded copy).
inline TriangleMesh unweld(const TriangleMesh& in) {
  TriangleMesh m;
  for (const Tri& t : in.triangles) {
    const int base = static_cast<int>(m.vertices.size());
    for (int k = 0; k < 3; ++k) m.vertices.push_back(in.vertices[t[k]]);
    m.triangles.push_back({base, base + 1, base + 2});
  }
  return m;
}

// Needles: n triangles of length 3 whose third corner lies at distances
// from 1e-1 down to 1e-12 off their long edge (nearly degenerate, not
// exactly), around the cube of half-size `spread`.
inline TriangleMesh sliverSoup(Rng& rng, int n, double spread) {
  TriangleMesh m;
  for (int i = 0; i < n; ++i) {
    const Vec3 a = rng.inCube(spread), dir = rng.unit();
    Vec3 side = collidoscope::cross(dir, rng.unit());
    const double l = length(side);
    side = l > 1e-6 ? side / l : Vec3{0, 1, 0};
    const int base = static_cast<int>(m.vertices.size());
    m.vertices.push_back(a);
    m.vertices.push_back(a + dir * 3);
    m.vertices.push_back(a + dir * 1.5 + side * std::pow(10.0, -rng.uniform(1, 12)));
    m.triangles.push_back({base, base + 1, base + 2});
  }
  return m;
}

// Coplanar stacks: n overlapping triangles, half exactly in the plane z = z0,
// the others in parallel planes 1e-9 to 6e-9 above it; then `repeats`
// triangles repeated (same indices) and one exactly degenerate triangle
// (a repeated corner), as an unclean level mesh has.
inline TriangleMesh coplanarStack(Rng& rng, int n, double z0, int repeats) {
  TriangleMesh m;
  for (int i = 0; i < n; ++i) {
    const double z = i % 2 ? z0 : z0 + 1e-9 * (i % 7);
    const int base = static_cast<int>(m.vertices.size());
    const Vec3 c{rng.uniform(-1, 1), rng.uniform(-1, 1), z};
    m.vertices.push_back(c + Vec3{-1, -1, 0});
    m.vertices.push_back(c + Vec3{1, -0.5, 0});
    m.vertices.push_back(c + Vec3{0, 1, 0});
    m.triangles.push_back({base, base + 1, base + 2});
  }
  for (int i = 0; i < repeats; ++i) m.triangles.push_back(m.triangles[rng.integer(n)]);
  m.triangles.push_back({0, 0, 1});
  return m;
}

inline double meshScale(const TriangleMesh& m) {
  double s = 0;
  for (const Vec3& v : m.vertices) s = std::max(s, maxAbs(v));
  return s;
}

// Torus of about n triangles (2·nu·nv with nu ≈ 4·nv), major radius 1,
// minor radius 0.35: the benchmarks' closed mesh of a given size.
inline TriangleMesh torusOfAbout(int n) {
  const int nv = std::max(3, static_cast<int>(std::lround(std::sqrt(n / 8.0))));
  const int nu = std::max(3, n / (2 * nv));
  return torus(nu, nv, 1.0, 0.35);
}

}  // namespace meshgen
