// Native micro-benchmark of triangle meshes: OBB tree build time, and
// closest-hit ray casts through the tree against brute force over every
// triangle, on closed tori of 1 000 to 1 000 000 triangles (and random
// triangle soups of the same sizes).
//
// Rays: origins on a sphere of three times the mesh's radius, aimed at
// random points within its bounds (about half hit). The same seeded rays
// for both methods; each tree answer is checked to equal brute force's
// (triangle and t) on the rays brute force is timed on.
//
// Prints a markdown table. Times: median of 5 passes (build: of 3 builds,
// one at 1M triangles).
//
//   collidoscope_mesh_bench [--quick] [--leaf N]
//     --quick: up to 100k triangles; --leaf: triangles per leaf (default 1)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "collidoscope/mesh.h"
#include "collidoscope/mesh_raycast.h"
#include "collidoscope/obbtree.h"
#include "../tests/cpp/mesh_gen.h"
#include "rng.h"
#include "timing.h"

using namespace collidoscope;

namespace {

using bench::Clock;
using bench::median;
using bench::ms;


TriangleMesh torus(int n) { return meshgen::torusOfAbout(n); }


struct Ray {
  Vec3 o, d;
};

MeshRayHit brute(const TriangleMesh& m, const ObbTree& tree, const Ray& r) {
  MeshRayHit out;
  const ShearedRay ray = ShearedRay::make(r.o, r.d);
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < static_cast<int>(m.triangles.size()); ++i) {
    const Vec3& n = tree.normals[i];
    if (n.x == 0 && n.y == 0 && n.z == 0) continue;
    const auto& t = m.triangles[i];
    RayTriangleHit h;
    if (!rayTriangle(ray, m.vertices[t[0]], m.vertices[t[1]], m.vertices[t[2]], best, &h)) continue;
    if (!out.hit || h.t < best || (h.t == best && i < out.triangle)) {
      out.hit = true;
      best = out.t = h.t;
      out.triangle = i;
    }
  }
  return out;
}

void run(const char* kind, int n, bool quick, int leaf) {
  bench::Rng rng{0x5eedull + static_cast<unsigned>(n)};
  const TriangleMesh m = std::strcmp(kind, "torus") == 0 ? torus(n) : bench::soup(n, rng);
  std::vector<double> builds;
  ObbTree tree;
  ShapeError err;
  for (int i = 0; i < (n >= 1000000 ? 1 : 3); ++i) {
    const auto t0 = Clock::now();
    ObbTreeSettings settings;
    settings.leafTriangles = leaf;
    if (!buildObbTree(m, settings, &tree, &err)) {
      std::fprintf(stderr, "%s: %s\n", err.field.c_str(), err.message.c_str());
      return;
    }
    builds.push_back(ms(t0, Clock::now()));
  }
  const int rays = 20000;
  std::vector<Ray> rs(rays);
  for (Ray& r : rs) {
    const Vec3 o = rng.direction() * 4.0;
    const Vec3 target{rng.uniform(-1.2, 1.2), rng.uniform(-0.4, 0.4), rng.uniform(-1.2, 1.2)};
    r = {o, target - o};
  }
  std::vector<double> treeTimes;
  long long boxTests = 0, triTests = 0, hits = 0;
  for (int pass = 0; pass < 5; ++pass) {
    boxTests = triTests = hits = 0;
    const auto t0 = Clock::now();
    for (const Ray& r : rs) {
      const MeshRayHit h = rayCastMeshLocal(m, tree, r.o, r.d, std::numeric_limits<double>::infinity());
      boxTests += h.boxTests;
      triTests += h.triangleTests;
      hits += h.hit;
    }
    treeTimes.push_back(ms(t0, Clock::now()) * 1000.0 / rays);  // µs per ray
  }
  // Brute force on a subset sized to ~0.5 s at ~10 ns per triangle test.
  const int bruteRays = std::max(5, std::min(rays, static_cast<int>(5e7 / n)));
  std::vector<double> bruteTimes;
  int mismatches = 0;
  for (int pass = 0; pass < (quick ? 1 : 3); ++pass) {
    const auto t0 = Clock::now();
    for (int i = 0; i < bruteRays; ++i) {
      const MeshRayHit b = brute(m, tree, rs[i]);
      if (pass == 0) {
        const MeshRayHit h = rayCastMeshLocal(m, tree, rs[i].o, rs[i].d, std::numeric_limits<double>::infinity());
        if (h.hit != b.hit || (h.hit && (h.triangle != b.triangle || h.t != b.t))) ++mismatches;
      }
    }
    bruteTimes.push_back(ms(t0, Clock::now()) * 1000.0 / bruteRays);
  }
  const double tt = median(treeTimes), bt = median(bruteTimes);
  std::printf("| %s | %d | %zu | %d | %.1f | %.3f | %.1f | %.1f | %.0f | %.0f× | %d/%d |\n", kind,
              static_cast<int>(m.triangles.size()), tree.nodes.size(), tree.depth, median(builds), tt,
              double(boxTests) / rays, double(triTests) / rays, bt, bt / tt, mismatches, bruteRays);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  int leaf = kObbTreeLeafTriangles;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--leaf") == 0 && i + 1 < argc) leaf = std::atoi(argv[++i]);
  }
  std::printf("leaf triangles: %d\n\n", leaf);
  std::printf("| mesh | triangles | nodes | depth | build ms | tree µs/ray | box tests/ray | tri tests/ray | "
              "brute µs/ray | speed-up | mismatches/rays |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const char* kind : {"torus", "soup"})
    for (int n : {1000, 10000, 100000, 1000000}) {
      if (quick && n > 100000) continue;
      run(kind, n, quick, leaf);
    }
  return 0;
}
