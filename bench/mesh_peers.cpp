// Triangle-mesh ray casts natively: collidoscope's mesh (its OBB tree and the
// tree's ray layout, obbtree_rays.h; the build times count both) against Bullet's
// btBvhTriangleMeshShape (a quantized AABB tree), on the same meshes and
// rays; driven by bench/meshes.mjs, which prints the markdown.
//
// Meshes: closed tori and random triangle soups of 1 000 to 1 000 000
// triangles (tests/cpp/mesh_gen.h and bench/timing.h). Rays:
// origins on a sphere of radius 4 around the mesh, aimed at random points
// of its bounds (about half hit); closest hit, two-sided, unbounded.
//
// Bullet: libbullet's double-precision build when Debian has it (as in
// bench/peers.cpp), so both read the same doubles; btTriangleIndexVertexArray
// over the same index and vertex arrays, btBvhTriangleMeshShape with
// quantized AABB compression (its default), performRaycast with a
// btTriangleRaycastCallback that keeps the nearest hit (returning the hit's
// fraction clips the rest of the walk to it). Its ray is a segment: the
// ray's end is origin + 8·direction, beyond the mesh.
//
// Agreement: on every ray, both hit or both miss, and a common hit has the
// same triangle or the same t within 1e-9 (two triangles can share the hit
// point: an edge or a vertex). A disagreement whose Bullet triangle does not
// contain the point where the ray meets its plane (least barycentric
// coordinate below −1e-12, in long double) is counted as "bulletOutside":
// btTriangleRaycastCallback accepts hits slightly beyond a triangle's edges
// (its edge tolerance). Ours equal brute force (tests/cpp/test_mesh.cpp).
//
// Output: one JSON object on stdout. Times: thread CPU, median of 5 passes
// (builds: of 3).
//
//   collidoscope_mesh_peers [--quick]     (--quick: up to 100k triangles)
#include <BulletCollision/CollisionShapes/btBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>
#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <memory>
#include <vector>

#include "collidoscope/mesh.h"
#include "collidoscope/mesh_raycast.h"
#include "collidoscope/obbtree.h"
#include "mesh_gen.h"
#include "rng.h"
#include "timing.h"

using namespace collidoscope;

namespace {




// The nearest hit: returning the fraction makes Bullet clip the ray there.
struct Nearest : btTriangleRaycastCallback {
  int triangle = -1;
  Nearest(const btVector3& from, const btVector3& to) : btTriangleRaycastCallback(from, to) {}
  btScalar reportHit(const btVector3&, btScalar fraction, int, int triangleIndex) override {
    if (fraction < m_hitFraction) {
      triangle = triangleIndex;
      return fraction;
    }
    return m_hitFraction;
  }
};

// The ray's segment for Bullet: [o, o + kReach·d] covers the whole mesh.
constexpr double kReach = 8.0;

struct Bullet {
  std::vector<int> indices;
  std::vector<btScalar> vertices;
  std::unique_ptr<btTriangleIndexVertexArray> array;
  std::unique_ptr<btBvhTriangleMeshShape> shape;
  void build(const TriangleMesh& m) {
    shape.reset();
    array.reset();
    indices.clear();
    vertices.clear();
    for (const auto& t : m.triangles) indices.insert(indices.end(), {t[0], t[1], t[2]});
    for (const Vec3& v : m.vertices)
      vertices.insert(vertices.end(), {btScalar(v.x), btScalar(v.y), btScalar(v.z)});
    array = std::make_unique<btTriangleIndexVertexArray>(
        static_cast<int>(m.triangles.size()), indices.data(), 3 * static_cast<int>(sizeof(int)),
        static_cast<int>(m.vertices.size()), vertices.data(), 3 * static_cast<int>(sizeof(btScalar)));
    shape = std::make_unique<btBvhTriangleMeshShape>(array.get(), true, true);
  }
  // t in units of the ray's direction, or −1 on a miss.
  double cast(const Vec3& o, const Vec3& d, int* triangle) const {
    const btVector3 from(o.x, o.y, o.z);
    const btVector3 to(o.x + kReach * d.x, o.y + kReach * d.y, o.z + kReach * d.z);
    Nearest cb(from, to);
    shape->performRaycast(&cb, from, to);
    *triangle = cb.triangle;
    return cb.triangle < 0 ? -1.0 : double(cb.m_hitFraction) * kReach;
  }
};

struct Ray {
  Vec3 o, d;
};

// Least barycentric coordinate of where the ray meets triangle t's plane
// (long double; negative = outside the triangle).
long double leastBarycentric(const TriangleMesh& m, int t, const Ray& r) {
  using L = long double;
  const Vec3 &a = m.vertices[m.triangles[t][0]], &b = m.vertices[m.triangles[t][1]], &c = m.vertices[m.triangles[t][2]];
  const L e1[3] = {L(b.x) - a.x, L(b.y) - a.y, L(b.z) - a.z}, e2[3] = {L(c.x) - a.x, L(c.y) - a.y, L(c.z) - a.z};
  const L d[3] = {r.d.x, r.d.y, r.d.z}, s[3] = {L(r.o.x) - a.x, L(r.o.y) - a.y, L(r.o.z) - a.z};
  auto cr = [](const L* u, const L* v, L* w) {
    w[0] = u[1] * v[2] - u[2] * v[1], w[1] = u[2] * v[0] - u[0] * v[2], w[2] = u[0] * v[1] - u[1] * v[0];
  };
  auto dt = [](const L* u, const L* v) { return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; };
  L p[3], q[3];
  cr(d, e2, p);
  const L det = dt(e1, p);
  cr(s, e1, q);
  const L u = dt(s, p) / det, v = dt(d, q) / det;
  return std::min({1 - u - v, u, v});
}

void run(const char* kind, int n, bool first) {
  bench::Rng rng{0x5eedull + static_cast<unsigned>(n)};
  const TriangleMesh m = std::strcmp(kind, "torus") == 0 ? meshgen::torusOfAbout(n) : bench::soup(n, rng);
  const int builds = 3;
  std::vector<double> oursBuild, bulletBuild;
  ObbTree tree;
  Bullet bullet;
  for (int i = 0; i < builds; ++i) {
    double t0 = bench::cpuMs();
    ShapeError err;
    if (!buildObbTree(m, ObbTreeSettings{}, &tree, &err)) {
      std::fprintf(stderr, "%s: %s\n", err.field.c_str(), err.message.c_str());
      std::exit(1);
    }
    oursBuild.push_back(bench::cpuMs() - t0);
    t0 = bench::cpuMs();
    bullet.build(m);
    bulletBuild.push_back(bench::cpuMs() - t0);
  }
  const int rays = 20000;
  std::vector<Ray> rs(rays);
  for (Ray& r : rs) {
    const Vec3 o = rng.direction() * 4.0;
    const Vec3 target{rng.uniform(-1.2, 1.2), rng.uniform(-0.4, 0.4), rng.uniform(-1.2, 1.2)};
    r = {o, target - o};
  }
  // Agreement first (untimed).
  int hits = 0, disagreements = 0, bulletOutside = 0;
  for (const Ray& r : rs) {
    const MeshRayHit h = rayCastMeshLocal(m, tree, r.o, r.d, std::numeric_limits<double>::infinity());
    int bt = -1;
    const double t = bullet.cast(r.o, r.d, &bt);
    hits += h.hit;
    if (h.hit != (bt >= 0) || (h.hit && h.triangle != bt && std::fabs(h.t - t) > 1e-9)) {
      ++disagreements;
      if (bt >= 0 && leastBarycentric(m, bt, r) < -1e-12L) ++bulletOutside;
      if (std::getenv("MESH_PEERS_DEBUG"))
        std::fprintf(stderr, "ours hit %d tri %d t %.17g bary %.3g %.3g %.3g | bullet tri %d t %.17g\n", h.hit,
                     h.triangle, h.t, h.barycentric.x, h.barycentric.y, h.barycentric.z, bt, t);
    }
  }
  std::vector<double> ours, theirs;
  volatile double sink = 0;
  for (int pass = 0; pass < 5; ++pass) {
    double t0 = bench::cpuMs();
    for (const Ray& r : rs) sink = sink + rayCastMeshLocal(m, tree, r.o, r.d, std::numeric_limits<double>::infinity()).t;
    ours.push_back((bench::cpuMs() - t0) * 1e3 / rays);
    t0 = bench::cpuMs();
    int tri;
    for (const Ray& r : rs) sink = sink + bullet.cast(r.o, r.d, &tri);
    theirs.push_back((bench::cpuMs() - t0) * 1e3 / rays);
  }
  std::printf("%s{\"mesh\":\"%s\",\"triangles\":%zu,\"rays\":%d,\"hits\":%d,\"disagreements\":%d,\"bulletOutside\":%d,"
              "\"buildMs\":{\"ours\":%.3f,\"bullet\":%.3f},\"rayUs\":{\"ours\":%.4f,\"bullet\":%.4f}}\n",
              first ? "" : ",", kind, m.triangles.size(), rays, hits, disagreements, bulletOutside, bench::median(oursBuild),
              bench::median(bulletBuild), bench::median(ours), bench::median(theirs));
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  std::printf("{\"bulletDouble\":%s,\"rows\":[\n", sizeof(btScalar) == 8 ? "true" : "false");
  bool first = true;
  for (const char* kind : {"torus", "soup"})
    for (int n : {1000, 10000, 100000, 1000000}) {
      if (quick && n > 100000) continue;
      run(kind, n, first);
      first = false;
    }
  std::printf("]}\n");
  return 0;
}
