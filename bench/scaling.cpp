// The scaling experiment of the rigid-body thesis (chapter 7, table 7.1),
// natively: how three collision tests cope as the polygon count of the two
// bodies grows.
//
//   tri     every triangle of A against every triangle of B with a
//           triangle–triangle overlap test (Möller's interval test, written
//           here), stopping at the first overlapping pair
//   sphere  bounding spheres first; only when they overlap, `tri`
//   gjk     collidoscope's gjkIntersect on the two convex polytopes (the
//           mesh vertices), warm-started from the previous frame's v
//           (GjkCache), as the thesis's GJK uses its witness
//   gjkCold the same without the cache (every test starts from scratch)
//
// The setting of the thesis: a pair of convex bodies — there octahedra refined
// into meshes of 8 … 80 triangles — at random in a cube, the two bodies
// together 1 % of the cube's volume, moving with a 2 ms time step. Here:
//   * mesh of F triangles: V = F/2 + 2 points on the unit sphere, the
//     octahedron's 6 vertices first, then farthest-point sampling of a
//     Fibonacci lattice (so F = 8 is the octahedron itself); the mesh is the
//     convex hull (collidoscope buildHull, checked to have F triangles),
//     scaled to volume 1. Cube: 2 / 0.01 = 200 = L³.
//   * P independent worlds, each a pair A, B with a seeded random position
//     (inside the cube), orientation, velocity (1 unit/s) and spin (1 rad/s),
//     stepped T frames of 2 ms; bodies bounce off the walls and pass through
//     each other (only detection is measured). Every method answers the same
//     P·T tests, frame by frame across the worlds.
//   * time per test: median over repeats of (time of a pass over all tests)
//     / (tests), the four methods interleaved in a rotating order each repeat,
//     after a warm-up pass; passes per timing chosen for ~target ms.
//   * counts: on the timed tests, and on a larger set of static random poses
//     (equal bodies, and B shrunk to 1/27 of A's volume, where containment
//     becomes possible): how many pairs each method reports colliding. The
//     triangle tests see surface intersection only, GJK overlap of the
//     solids: every GJK-only answer is checked to be a containment (a vertex
//     of one body inside the other while no triangles cross).
//
// Prints one JSON object (bench/scaling.mjs turns it into markdown).
//
//   collidoscope_scaling [--quick] [--sizes 8,16,...] [--worlds P] [--frames T]
//                        [--repeats R] [--ms T] [--count Q]
#include <algorithm>
#include <array>
#include <ctime>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "collidoscope/gjk.h"
#include "collidoscope/hull.h"
#include "collidoscope/polytope_support.h"
#include "collidoscope/support.h"
#include "rng.h"

using namespace collidoscope;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kBodyVolume = 1.0;       // each body (equal pair)
constexpr double kDensity = 0.01;         // both bodies / cube volume (the thesis: 1 %)
constexpr double kTimeStep = 0.002;       // 2 ms per frame (the thesis)
constexpr double kSpeed = 1.0;            // units per second (cube side ≈ 5.85)
constexpr double kSpin = 1.0;             // radians per second
constexpr int kLatticePoints = 20000;     // Fibonacci candidates for the mesh vertices

using bench::Rng;  // bench/rng.h

// CPU time of this thread, in seconds: on a shared machine, time the process
// spends preempted is not counted (wall-clock medians drift with the load).
double now() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

Quat multiply(const Quat& a, const Quat& b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
Quat normalized(const Quat& q) {
  const double l = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  return {q.x / l, q.y / l, q.z / l, q.w / l};
}

// ---------------------------------------------------------------- meshes

struct Tri {
  Vec3 p[3];
  Vec3 n;       // unnormalized normal (p1 − p0) × (p2 − p0), outward
  double d;     // n·p0
};

struct Mesh {
  int polygons = 0;
  std::vector<Vec3> vertices;              // local, centred on the origin
  std::vector<std::array<int, 3>> triangles;
  std::vector<Tri> tris;                   // local
  double radius = 0;                       // bounding sphere about the origin (max |v|)
  double volume = 0;
  Shape shape;                             // Shape::polytope(vertices)
};

// V points on the unit sphere: the octahedron's vertices, then greedily the
// lattice point farthest from those chosen.
std::vector<Vec3> spherePoints(int count) {
  std::vector<Vec3> chosen = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  if (count <= 6) return chosen;
  std::vector<Vec3> lattice(kLatticePoints);
  const double golden = kPi * (3 - std::sqrt(5.0));
  for (int i = 0; i < kLatticePoints; ++i) {
    const double z = 1 - (2.0 * i + 1) / kLatticePoints;
    const double r = std::sqrt(std::max(0.0, 1 - z * z));
    lattice[i] = Vec3{r * std::cos(golden * i), r * std::sin(golden * i), z};
  }
  std::vector<double> nearest(kLatticePoints, 1e300);
  auto update = [&](const Vec3& p) {
    for (int i = 0; i < kLatticePoints; ++i) nearest[i] = std::min(nearest[i], lengthSquared(lattice[i] - p));
  };
  for (const Vec3& p : chosen) update(p);
  while (static_cast<int>(chosen.size()) < count) {
    const int best = static_cast<int>(std::max_element(nearest.begin(), nearest.end()) - nearest.begin());
    chosen.push_back(lattice[best]);
    update(lattice[best]);
  }
  return chosen;
}

// The two mesh families (see the header comment).
enum class Family { Sphere, Flat };
const char* familyName(Family f) { return f == Family::Sphere ? "sphere" : "flat"; }

// Flat: the octahedron's 8 faces, each cut into F/8 triangles by longest-edge
// bisection (the largest triangle first), so the body stays the octahedron.
// A cut edge shared with the next face leaves a T-junction there: the surface
// is still exactly covered, which is all the triangle tests need.
void flatOctahedron(int polygons, std::vector<Vec3>* vertices, std::vector<std::array<int, 3>>* triangles) {
  const Vec3 c[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  const int faces[8][3] = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
  const int perFace = std::max(1, polygons / 8);
  vertices->clear();
  triangles->clear();
  auto index = [&](const Vec3& p) {
    for (std::size_t i = 0; i < vertices->size(); ++i)
      if ((*vertices)[i] == p) return static_cast<int>(i);
    vertices->push_back(p);
    return static_cast<int>(vertices->size()) - 1;
  };
  for (const auto& f : faces) {
    std::vector<std::array<Vec3, 3>> tris = {{c[f[0]], c[f[1]], c[f[2]]}};
    while (static_cast<int>(tris.size()) < perFace) {
      std::size_t big = 0;
      double bigArea = -1;
      for (std::size_t i = 0; i < tris.size(); ++i) {
        const double a = lengthSquared(cross(tris[i][1] - tris[i][0], tris[i][2] - tris[i][0]));
        if (a > bigArea) bigArea = a, big = i;
      }
      const auto t = tris[big];
      int e = 0;  // longest edge (t[e], t[e+1])
      for (int k = 1; k < 3; ++k)
        if (lengthSquared(t[(k + 1) % 3] - t[k]) > lengthSquared(t[(e + 1) % 3] - t[e])) e = k;
      const Vec3 a = t[e], b = t[(e + 1) % 3], o = t[(e + 2) % 3];
      const Vec3 m = (a + b) * 0.5;
      tris[big] = {a, m, o};
      tris.push_back({m, b, o});
    }
    for (const auto& t : tris) triangles->push_back({index(t[0]), index(t[1]), index(t[2])});
  }
}

bool makeMesh(Family family, int polygons, double volume, Mesh* m, std::string* error) {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;
  if (family == Family::Flat) {
    if (polygons % 8 != 0) {
      *error = "flat meshes need a multiple of 8 triangles";
      return false;
    }
    flatOctahedron(polygons, &vertices, &triangles);
  } else {
    const int v = polygons / 2 + 2;  // a closed triangulated convex surface: F = 2V − 4
    ConvexHull hull;
    HullError err;
    if (!buildHull(spherePoints(v), &hull, &err) || hull.kind != HullKind::Polyhedron) {
      *error = "hull failed: " + err.message;
      return false;
    }
    if (static_cast<int>(hull.triangles.size()) != polygons || static_cast<int>(hull.vertices.size()) != v) {
      *error = "hull of " + std::to_string(v) + " sphere points has " + std::to_string(hull.triangles.size()) +
               " triangles, " + std::to_string(hull.vertices.size()) + " vertices";
      return false;
    }
    vertices = hull.vertices;
    triangles = hull.triangles;
  }
  double vol = 0;
  for (const auto& t : triangles) vol += dot(vertices[t[0]], cross(vertices[t[1]], vertices[t[2]])) / 6;
  const double s = std::cbrt(volume / vol);
  m->polygons = static_cast<int>(triangles.size());
  m->vertices.clear();
  for (const Vec3& p : vertices) m->vertices.push_back(p * s);
  m->triangles = triangles;
  m->tris.clear();
  m->radius = 0;
  for (const Vec3& p : m->vertices) m->radius = std::max(m->radius, length(p));
  for (const auto& t : m->triangles) {
    Tri x;
    for (int k = 0; k < 3; ++k) x.p[k] = m->vertices[t[k]];
    x.n = cross(x.p[1] - x.p[0], x.p[2] - x.p[0]);
    x.d = dot(x.n, x.p[0]);
    m->tris.push_back(x);
  }
  m->volume = vol * s * s * s;
  m->shape = Shape::polytope(m->vertices);
  return true;
}

// ---------------------------------------------------------------- triangle–triangle

// Möller, "A fast triangle-triangle intersection test", JGT 2(2), 1997: the
// plane of each triangle rejects the other when its vertices lie strictly on
// one side; otherwise both triangles cut the line L = plane A ∩ plane B in an
// interval, and they overlap iff the intervals do. Closed triangles (touching
// counts). Coplanar triangles: a 2D test. Exact comparisons, no epsilon.

// Interval of a triangle on L: projections p (on the dominant axis of L's
// direction) and signed distances d to the other plane, not all of one strict
// sign. Returns false for the coplanar case (all d zero).
inline bool interval(const double p[3], const double d[3], double* lo, double* hi) {
  int alone;
  if (d[0] * d[1] > 0) alone = 2;
  else if (d[0] * d[2] > 0) alone = 1;
  else if (d[1] * d[2] > 0 || d[0] != 0) alone = 0;
  else if (d[1] != 0) alone = 1;
  else if (d[2] != 0) alone = 2;
  else return false;
  const int i = (alone + 1) % 3, j = (alone + 2) % 3;
  const double ti = p[alone] + (p[i] - p[alone]) * (d[alone] / (d[alone] - d[i]));
  const double tj = p[alone] + (p[j] - p[alone]) * (d[alone] / (d[alone] - d[j]));
  *lo = std::min(ti, tj);
  *hi = std::max(ti, tj);
  return true;
}

// 2D: closed segments ab and cd intersect.
inline double orient2(const double* a, const double* b, const double* c) {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}
inline bool onSegment2(const double* a, const double* b, const double* c) {
  return std::min(a[0], b[0]) <= c[0] && c[0] <= std::max(a[0], b[0]) && std::min(a[1], b[1]) <= c[1] &&
         c[1] <= std::max(a[1], b[1]);
}
inline bool segments2(const double* a, const double* b, const double* c, const double* d) {
  const double o1 = orient2(a, b, c), o2 = orient2(a, b, d), o3 = orient2(c, d, a), o4 = orient2(c, d, b);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
  return (o1 == 0 && onSegment2(a, b, c)) || (o2 == 0 && onSegment2(a, b, d)) || (o3 == 0 && onSegment2(c, d, a)) ||
         (o4 == 0 && onSegment2(c, d, b));
}
inline bool inside2(const double t[3][2], const double* p) {
  const double a = orient2(t[0], t[1], p), b = orient2(t[1], t[2], p), c = orient2(t[2], t[0], p);
  return (a >= 0 && b >= 0 && c >= 0) || (a <= 0 && b <= 0 && c <= 0);
}

bool coplanar(const Tri& a, const Tri& b) {
  // Drop the dominant axis of the normal.
  const Vec3 n{std::fabs(a.n.x), std::fabs(a.n.y), std::fabs(a.n.z)};
  const int drop = n.x >= n.y && n.x >= n.z ? 0 : (n.y >= n.z ? 1 : 2);
  const int u = drop == 0 ? 1 : 0, v = drop == 2 ? 1 : 2;
  double ta[3][2], tb[3][2];
  for (int k = 0; k < 3; ++k) {
    ta[k][0] = a.p[k][u], ta[k][1] = a.p[k][v];
    tb[k][0] = b.p[k][u], tb[k][1] = b.p[k][v];
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (segments2(ta[i], ta[(i + 1) % 3], tb[j], tb[(j + 1) % 3])) return true;
  return inside2(tb, ta[0]) || inside2(ta, tb[0]);
}

inline bool triTri(const Tri& a, const Tri& b) {
  double db[3];
  for (int k = 0; k < 3; ++k) db[k] = dot(a.n, b.p[k]) - a.d;
  if ((db[0] > 0 && db[1] > 0 && db[2] > 0) || (db[0] < 0 && db[1] < 0 && db[2] < 0)) return false;
  double da[3];
  for (int k = 0; k < 3; ++k) da[k] = dot(b.n, a.p[k]) - b.d;
  if ((da[0] > 0 && da[1] > 0 && da[2] > 0) || (da[0] < 0 && da[1] < 0 && da[2] < 0)) return false;
  if (db[0] == 0 && db[1] == 0 && db[2] == 0) return coplanar(a, b);
  const Vec3 line = cross(a.n, b.n);
  const double ax = std::fabs(line.x), ay = std::fabs(line.y), az = std::fabs(line.z);
  const int axis = ax >= ay && ax >= az ? 0 : (ay >= az ? 1 : 2);
  const double pa[3] = {a.p[0][axis], a.p[1][axis], a.p[2][axis]};
  const double pb[3] = {b.p[0][axis], b.p[1][axis], b.p[2][axis]};
  double a0, a1, b0, b1;
  if (!interval(pa, da, &a0, &a1) || !interval(pb, db, &b0, &b1)) return coplanar(a, b);
  return a0 <= b1 && b0 <= a1;
}

// ---------------------------------------------------------------- the methods

struct Scratch {
  std::vector<Tri> b;  // B's triangles in A's frame
};

// B's vertices in A's frame: x_A = R_A^T (R_B x + p_B − p_A).
inline Vec3 toA(const Transform& pa, const Transform& pb, const Vec3& x) {
  return inverseRotate(pa.rotation, rotate(pb.rotation, x) + (pb.position - pa.position));
}

bool meshesTouch(const Mesh& a, const Transform& pa, const Mesh& b, const Transform& pb, Scratch* s) {
  // B moved into A's frame once per test (O(F)); then all F_A · F_B pairs.
  s->b.resize(b.tris.size());
  const Quat rel = multiply(conjugate(pa.rotation), pb.rotation);
  const Vec3 off = inverseRotate(pa.rotation, pb.position - pa.position);
  for (std::size_t j = 0; j < b.tris.size(); ++j) {
    Tri& t = s->b[j];
    for (int k = 0; k < 3; ++k) t.p[k] = rotate(rel, b.tris[j].p[k]) + off;
    t.n = cross(t.p[1] - t.p[0], t.p[2] - t.p[0]);
    t.d = dot(t.n, t.p[0]);
  }
  for (const Tri& ta : a.tris)
    for (const Tri& tb : s->b)
      if (triTri(ta, tb)) return true;
  return false;
}

inline bool spheresTouch(const Mesh& a, const Transform& pa, const Mesh& b, const Transform& pb) {
  const double r = a.radius + b.radius;
  return lengthSquared(pa.position - pb.position) <= r * r;
}

// A point of B (in world space) inside A's solid: no triangle plane of A has it strictly in front.
bool pointInside(const Mesh& a, const Transform& pa, const Vec3& world) {
  const Vec3 x = inverseRotate(pa.rotation, world - pa.position);
  for (const Tri& t : a.tris)
    if (dot(t.n, x) - t.d > 0) return false;
  return true;
}

// ---------------------------------------------------------------- worlds

struct World {
  Vec3 pos[2], vel[2], spin[2];
  Quat rot[2];
};

// Random worlds (positions as fractions of the free range, so the same seed
// gives the same configuration for every mesh).
std::vector<World> makeWorlds(int count, std::uint64_t seed) {
  Rng rng{seed};
  std::vector<World> w(static_cast<std::size_t>(count));
  for (World& x : w)
    for (int k = 0; k < 2; ++k) {
      x.pos[k] = Vec3{rng.uniform(), rng.uniform(), rng.uniform()};
      x.rot[k] = rng.rotation();
      x.vel[k] = rng.direction() * kSpeed;
      x.spin[k] = rng.direction() * kSpin;
    }
  return w;
}

// poses[(frame · worlds + world) · 2 + body]
std::vector<Transform> simulate(const std::vector<World>& worlds, int frames, double side, const double radius[2]) {
  std::vector<Transform> poses(static_cast<std::size_t>(frames) * worlds.size() * 2);
  for (std::size_t w = 0; w < worlds.size(); ++w) {
    World x = worlds[w];
    Vec3 p[2];
    for (int k = 0; k < 2; ++k) {
      const double lo = radius[k], span = side - 2 * radius[k];
      p[k] = Vec3{lo + span * x.pos[k].x, lo + span * x.pos[k].y, lo + span * x.pos[k].z};
    }
    for (int f = 0; f < frames; ++f) {
      for (int k = 0; k < 2; ++k) {
        poses[(static_cast<std::size_t>(f) * worlds.size() + w) * 2 + k] = Transform{p[k], x.rot[k]};
        // Step: move, bounce off the walls (the bounding sphere stays inside), spin.
        p[k] += x.vel[k] * kTimeStep;
        for (int a = 0; a < 3; ++a) {
          if (p[k][a] < radius[k] && x.vel[k][a] < 0) x.vel[k][a] = -x.vel[k][a];
          if (p[k][a] > side - radius[k] && x.vel[k][a] > 0) x.vel[k][a] = -x.vel[k][a];
        }
        const Vec3 h = x.spin[k] * (0.5 * kTimeStep);
        const double angle = length(h);
        const Vec3 axis = angle > 0 ? h / angle : Vec3{1, 0, 0};
        const Quat dq{axis.x * std::sin(angle), axis.y * std::sin(angle), axis.z * std::sin(angle), std::cos(angle)};
        x.rot[k] = normalized(multiply(dq, x.rot[k]));
      }
    }
  }
  return poses;
}

// ---------------------------------------------------------------- counts

struct Counts {
  long tests = 0;
  long spheres = 0;     // bounding spheres overlap
  long tri = 0;         // some triangle pair overlaps (surfaces intersect)
  long sphereTri = 0;   // spheres, then triangles
  long gjk = 0;         // GJK: the solids overlap
  long containment = 0; // GJK yes, triangles no, and one body holds a vertex of the other
  long gjkOnlyOther = 0;   // GJK yes, triangles no, no containment (touching within rounding)
  long triOnly = 0;        // triangles yes, GJK no (must not happen)
  long sphereMismatch = 0; // sphere+tri differs from tri (must not happen)
  long warmColdMismatch = 0;  // timed tests: GJK with and without the cache differ (must not happen)
};

void countOne(Counts* c, bool sph, bool tri, bool sphereTri, bool gjk, bool contained) {
  ++c->tests;
  c->spheres += sph, c->tri += tri, c->sphereTri += sphereTri, c->gjk += gjk;
  c->sphereMismatch += sphereTri != tri;
  if (gjk && !tri) (contained ? c->containment : c->gjkOnlyOther) += 1;
  c->triOnly += tri && !gjk;
}

bool contains(const Mesh& a, const Transform& pa, const Mesh& b, const Transform& pb) {
  return pointInside(a, pa, pb.apply(b.vertices[0])) || pointInside(b, pb, pa.apply(a.vertices[0]));
}

// Static random poses (the first frame of fresh worlds), all four answers per pose.
// The full triangle test runs only where the spheres overlap (elsewhere it
// cannot find a pair); that it agrees with sphere+tri is checked on the timed set.
Counts countStatic(const Mesh& a, const Mesh& b, int count, std::uint64_t seed, double side) {
  const std::vector<World> worlds = makeWorlds(count, seed);
  const double radius[2] = {a.radius, b.radius};
  const std::vector<Transform> poses = simulate(worlds, 1, side, radius);
  Shape sa = a.shape, sb = b.shape;
  Scratch scratch;
  Counts c;
  for (int w = 0; w < count; ++w) {
    const Transform& pa = poses[2 * static_cast<std::size_t>(w)];
    const Transform& pb = poses[2 * static_cast<std::size_t>(w) + 1];
    const bool sph = spheresTouch(a, pa, b, pb);
    const bool tri = sph && meshesTouch(a, pa, b, pb, &scratch);
    sa.pose = pa, sb.pose = pb;
    const bool g = gjkIntersect(PosedShape(sa), PosedShape(sb)).intersecting;
    countOne(&c, sph, tri, tri, g, g && !tri && contains(a, pa, b, pb));
  }
  return c;
}

void printCounts(const char* key, const Counts& c) {
  std::printf("\"%s\":{\"tests\":%ld,\"spheres\":%ld,\"tri\":%ld,\"sphereTri\":%ld,\"gjk\":%ld,\"containment\":%ld,"
              "\"gjkOnlyOther\":%ld,\"triOnly\":%ld,\"sphereMismatch\":%ld,\"warmColdMismatch\":%ld}",
              key, c.tests, c.spheres, c.tri, c.sphereTri, c.gjk, c.containment, c.gjkOnlyOther, c.triOnly,
              c.sphereMismatch, c.warmColdMismatch);
}

// ---------------------------------------------------------------- tri–tri check

// Möller's test against collidoscope's GJK on triangle shapes (closed
// triangles; GJK calls touching within rounding intersecting): random pairs,
// and coplanar pairs for the 2D branch. Disagreements must be near-touching.
void validateTriTri(int count) {
  Rng rng{99};
  long agree = 0, disagree = 0, nearTouching = 0, hits = 0, coplanarPairs = 0;
  double worstDistance = 0;
  for (int i = 0; i < count; ++i) {
    Tri a, b;
    const bool flat = i % 8 == 0;
    for (int k = 0; k < 3; ++k) {
      a.p[k] = Vec3{rng.uniform(-1, 1), rng.uniform(-1, 1), flat ? 0.25 : rng.uniform(-1, 1)};
      b.p[k] = Vec3{rng.uniform(-1, 1) + 0.5, rng.uniform(-1, 1), flat ? 0.25 : rng.uniform(-1, 1)};
    }
    coplanarPairs += flat;
    for (Tri* t : {&a, &b}) {
      t->n = cross(t->p[1] - t->p[0], t->p[2] - t->p[0]);
      t->d = dot(t->n, t->p[0]);
    }
    const bool mine = triTri(a, b);
    Shape sa = Shape::triangle(a.p[0], a.p[1], a.p[2]), sb = Shape::triangle(b.p[0], b.p[1], b.p[2]);
    const bool ref = gjkIntersect(PosedShape(sa), PosedShape(sb)).intersecting;
    hits += ref;
    if (mine == ref) {
      ++agree;
      continue;
    }
    ++disagree;
    const double d = gjkDistance(PosedShape(sa), PosedShape(sb)).distance;
    worstDistance = std::max(worstDistance, d);
    nearTouching += d <= 1e-12;
  }
  std::printf("\"triTriCheck\":{\"pairs\":%d,\"coplanarPairs\":%ld,\"intersecting\":%ld,\"agree\":%ld,"
              "\"disagree\":%ld,\"disagreeNearTouching\":%ld,\"worstDistance\":%.3g}",
              count, coplanarPairs, hits, agree, disagree, nearTouching, worstDistance);
}

std::vector<int> parseList(const char* s) {
  std::vector<int> out;
  while (*s) {
    out.push_back(std::atoi(s));
    while (*s && *s != ',') ++s;
    if (*s == ',') ++s;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::vector<int> sizes;
  int worlds = 0, frames = 0, repeats = 0, count = 0;
  double targetMs = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") quick = true;
    else if (a == "--sizes" && i + 1 < argc) sizes = parseList(argv[++i]);
    else if (a == "--worlds" && i + 1 < argc) worlds = std::atoi(argv[++i]);
    else if (a == "--frames" && i + 1 < argc) frames = std::atoi(argv[++i]);
    else if (a == "--repeats" && i + 1 < argc) repeats = std::atoi(argv[++i]);
    else if (a == "--ms" && i + 1 < argc) targetMs = std::atof(argv[++i]);
    else if (a == "--count" && i + 1 < argc) count = std::atoi(argv[++i]);
  }
  if (sizes.empty())
    sizes = quick ? std::vector<int>{8, 16, 40, 80, 256} : std::vector<int>{8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 128, 256, 512, 1024};
  if (worlds <= 0) worlds = quick ? 32 : 128;
  if (frames <= 0) frames = 8;
  if (repeats <= 0) repeats = quick ? 5 : 9;
  if (targetMs <= 0) targetMs = quick ? 10 : 20;
  if (count <= 0) count = quick ? 4000 : 20000;

  const double side = std::cbrt(2 * kBodyVolume / kDensity);
  std::printf("{\"settings\":{\"bodyVolume\":%g,\"density\":%g,\"cubeSide\":%.6g,\"timeStep\":%g,\"speed\":%g,"
              "\"spin\":%g,\"worlds\":%d,\"frames\":%d,\"repeats\":%d,\"targetMs\":%g,\"staticPoses\":%d},",
              kBodyVolume, kDensity, side, kTimeStep, kSpeed, kSpin, worlds, frames, repeats, targetMs, count);
  validateTriTri(quick ? 20000 : 100000);
  std::printf(",\"families\":{");
  std::fflush(stdout);

  const std::vector<World> world = makeWorlds(worlds, 2024);
  for (Family family : {Family::Sphere, Family::Flat}) {
  std::printf("%s\"%s\":[", family == Family::Sphere ? "" : ",", familyName(family));
  bool firstSize = true;
  for (int polygons : sizes) {
    Mesh mesh;
    std::string error;
    if (!makeMesh(family, polygons, kBodyVolume, &mesh, &error)) {
      std::printf("%s{\"polygons\":%d,\"error\":\"%s\"}", firstSize ? "" : ",", polygons, error.c_str());
      firstSize = false;
      continue;
    }
    const double radius[2] = {mesh.radius, mesh.radius};
    const std::vector<Transform> poses = simulate(world, frames, side, radius);
    const int tests = worlds * frames;

    // The four methods over all tests (one pass). Answers go to `answer`.
    Shape shapeA = mesh.shape, shapeB = mesh.shape;
    std::vector<GjkCache> cache(static_cast<std::size_t>(worlds));
    Scratch scratch;
    std::vector<char> answer[4];
    for (auto& a : answer) a.assign(static_cast<std::size_t>(tests), 0);
    long gjkIterations[2] = {0, 0};
    // One pass of a method over the first `limit` tests (frame-major: all worlds' frame 0, then frame 1, ...).
    auto pass = [&](int method, int limit) {
      long hits = 0;
      if (method == 2)
        for (GjkCache& c : cache) c = GjkCache{};
      long iterations = 0;
      for (int f = 0, t = 0; f < frames; ++f) {
        for (int w = 0; w < worlds && t < limit; ++w, ++t) {
          const Transform& pa = poses[static_cast<std::size_t>(t) * 2];
          const Transform& pb = poses[static_cast<std::size_t>(t) * 2 + 1];
          bool hit;
          switch (method) {
            case 0: hit = meshesTouch(mesh, pa, mesh, pb, &scratch); break;
            case 1: hit = spheresTouch(mesh, pa, mesh, pb) && meshesTouch(mesh, pa, mesh, pb, &scratch); break;
            default: {
              shapeA.pose = pa;
              shapeB.pose = pb;
              const IntersectResult r = gjkIntersect(PosedShape(shapeA), PosedShape(shapeB), GjkSettings{},
                                                     method == 2 ? &cache[static_cast<std::size_t>(w)] : nullptr);
              hit = r.intersecting;
              iterations += r.iterations;
            }
          }
          answer[method][static_cast<std::size_t>(t)] = hit;
          hits += hit;
        }
      }
      if (method >= 2) gjkIterations[method - 2] = iterations;
      return hits;
    };

    // Warm-up per method on the first frame of every world (a sample of the poses), which
    // also estimates a full pass and so the passes per timing. When a triangle pass takes
    // seconds (F ≥ 512), 5 repeats.
    int passes[4];
    double estimate[4];
    const int sample = std::min(tests, worlds);
    for (int m = 0; m < 4; ++m) {
      const double t0 = now();
      pass(m, sample);
      estimate[m] = std::max(now() - t0, 1e-7) * tests / sample;
      passes[m] = std::max(1, static_cast<int>(targetMs * 1e-3 / estimate[m] + 0.5));
    }
    const int reps = estimate[0] > 0.5 ? std::min(repeats, 5) : repeats;
    std::vector<double> ns[4];
    for (int r = 0; r < reps; ++r) {
      for (int k = 0; k < 4; ++k) {
        const int m = (r + k) % 4;
        const double t0 = now();
        for (int p = 0; p < passes[m]; ++p) pass(m, tests);
        ns[m].push_back((now() - t0) / (static_cast<double>(passes[m]) * tests) * 1e9);
      }
    }

    // Counts on the timed tests.
    Counts timed;
    for (int t = 0; t < tests; ++t) {
      const Transform& pa = poses[static_cast<std::size_t>(t) * 2];
      const Transform& pb = poses[static_cast<std::size_t>(t) * 2 + 1];
      const bool tri = answer[0][t], g = answer[2][t];
      countOne(&timed, spheresTouch(mesh, pa, mesh, pb), tri, answer[1][t], g,
               g && !tri && contains(mesh, pa, mesh, pb));
      timed.warmColdMismatch += answer[3][t] != answer[2][t];
    }
    // Static poses: equal bodies, and B at 1/27 of A's volume (A grown so the pair stays at 1 %).
    const int staticCount = polygons <= 128 ? count : std::max(500, count / (polygons / 64));
    const Counts equal = countStatic(mesh, mesh, staticCount, 777, side);
    Mesh big, small;
    makeMesh(family, polygons, 2 * kBodyVolume * 27 / 28, &big, &error);
    makeMesh(family, polygons, 2 * kBodyVolume / 28, &small, &error);
    const Counts unequal = countStatic(big, small, staticCount, 778, side);

    std::printf("%s{\"polygons\":%d,\"vertices\":%zu,\"supportVertices\":%zu,\"radius\":%.6g,\"volume\":%.6g,\"hillClimb\":%s,"
                "\"tests\":%d,\"repeats\":%d,\"passes\":[%d,%d,%d,%d],"
                "\"nsPerTest\":{\"tri\":%.6g,\"sphere\":%.6g,\"gjk\":%.6g,\"gjkCold\":%.6g},"
                "\"nsRepeats\":{\"tri\":[",
                firstSize ? "" : ",", polygons, mesh.vertices.size(),
                mesh.shape.polytopeSupport ? mesh.shape.polytopeSupport->vertices().size() : mesh.vertices.size(),
                mesh.radius, mesh.volume,
                mesh.shape.polytopeSupport ? "true" : "false", tests, reps, passes[0], passes[1], passes[2], passes[3],
                median(ns[0]), median(ns[1]), median(ns[2]), median(ns[3]));
    const char* names[4] = {"tri", "sphere", "gjk", "gjkCold"};
    for (int m = 0; m < 4; ++m) {
      if (m) std::printf("],\"%s\":[", names[m]);
      for (std::size_t r = 0; r < ns[m].size(); ++r) std::printf("%s%.5g", r ? "," : "", ns[m][r]);
    }
    std::printf("]},\"gjkIterationsPerTest\":{\"warm\":%.5g,\"cold\":%.5g},",
                static_cast<double>(gjkIterations[0]) / tests, static_cast<double>(gjkIterations[1]) / tests);
    printCounts("timedCounts", timed);
    std::printf(",");
    printCounts("staticCounts", equal);
    std::printf(",\"staticSmallB\":{\"volumeRatio\":%.6g,", small.volume / big.volume);
    printCounts("counts", unequal);
    std::printf("}}");
    std::fflush(stdout);
    firstSize = false;
  }
  std::printf("]");
  }
  std::printf("}}\n");
  return 0;
}
