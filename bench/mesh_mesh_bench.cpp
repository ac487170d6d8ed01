// Native micro-benchmark of mesh–mesh intersection on two OBB trees
// (mesh_mesh.h), in two parts.
//
// 1. Pairs. Two copies of a torus of n triangles (n = 1 000 … 1 000 000: the
//    contact-pair matrix has n² = 10⁶ … 10¹² cells) in random poses whose
//    centres are 0.2 … 2.6 apart (the tori reach 1.35 from their centre):
//    from interlocked through touching to apart. For each n: the time of a
//    First query and of an All query (median over the configurations), the
//    counts (node pairs = volume tests, triangle tests, contacts), and the
//    seed's bounds for those counts. At n = 1 000 the answers are checked
//    against brute force over all 10⁶ triangle pairs, which is timed too.
//
// 2. The seed's frame-rate experiment (Rasku 2003, §9): N meshes moving and
//    spinning at random inside a box; every frame, a broad phase on cubes
//    (an axis-aligned cube around each mesh that holds it in any
//    orientation: half-side = its largest distance from its origin), sorted
//    on x and checked on y and z; then an All query on every pair of
//    overlapping cubes. Per frame: cube pairs, volume tests, triangle
//    tests, intersecting triangle pairs and the time; next to the volume
//    tests of the pairs with contacts (mean per pair), the seed's lower and
//    upper bounds for their k contacts (§8.8, §8.9; mean per pair) —
//    yardsticks for an ideal volume on balanced trees. Meshes: the seed's cube (12 triangles) and spheres of 80 to
//    20 480 triangles (the seed's had 960), 10 and 20 of them.
//
//   collidoscope_mesh_mesh_bench [--quick]     --quick: pairs up to 100k triangles, fewer frames
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "collidoscope/mesh.h"
#include "collidoscope/mesh_mesh.h"
#include "collidoscope/obbtree.h"
#include "collidoscope/triangle.h"
#include "../tests/cpp/mesh_gen.h"

using namespace collidoscope;

namespace {

using Clock = std::chrono::steady_clock;
double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

ObbTree buildTree(const TriangleMesh& m, double* buildMs) {
  ObbTree tree;
  ShapeError err;
  const auto t0 = Clock::now();
  if (!buildObbTree(m, ObbTreeSettings{}, &tree, &err)) {
    std::fprintf(stderr, "%s: %s\n", err.field.c_str(), err.message.c_str());
    std::exit(1);
  }
  if (buildMs) *buildMs = ms(t0, Clock::now());
  return tree;
}

long long bruteCount(const TriangleMesh& a, const Transform& pa, const TriangleMesh& b, const Transform& pb) {
  std::vector<std::array<Vec3, 3>> wa, wb;
  for (const auto& t : a.triangles)
    wa.push_back({pa.apply(a.vertices[t[0]]), pa.apply(a.vertices[t[1]]), pa.apply(a.vertices[t[2]])});
  for (const auto& t : b.triangles)
    wb.push_back({pb.apply(b.vertices[t[0]]), pb.apply(b.vertices[t[1]]), pb.apply(b.vertices[t[2]])});
  long long n = 0;
  for (const auto& x : wa)
    for (const auto& y : wb) n += trianglesIntersect(x[0], x[1], x[2], y[0], y[1], y[2]);
  return n;
}

void pairs(int n, bool quick) {
  meshgen::Rng rng(0xB0B + n);
  const TriangleMesh m = meshgen::torusOfAbout(n);
  double buildMs = 0;
  const ObbTree tree = buildTree(m, &buildMs);
  const int configs = n >= 1000000 ? 10 : n >= 100000 ? 30 : 100;
  std::vector<double> firstMs, allMs;
  long long nodePairs = 0, triTests = 0, contacts = 0, withContact = 0;
  double lower = 0, upper = 0, single = 0;
  long long bruteMismatch = 0;
  double bruteMs = 0;
  int bruteRuns = 0;
  for (int c = 0; c < configs; ++c) {
    Transform pa, pb;
    pa.rotation = rng.rotation();
    pb.rotation = rng.rotation();
    pb.position = rng.unit() * rng.uniform(0.2, 2.6);
    auto t0 = Clock::now();
    const MeshMeshResult f = meshesIntersect(m, tree, pa, m, tree, pb);
    firstMs.push_back(ms(t0, Clock::now()));
    MeshMeshSettings s;
    s.mode = MeshMeshMode::All;
    t0 = Clock::now();
    const MeshMeshResult r = meshesIntersect(m, tree, pa, m, tree, pb, s);
    allMs.push_back(ms(t0, Clock::now()));
    if (f.intersecting != r.intersecting) ++bruteMismatch;
    nodePairs += r.nodePairs;
    triTests += r.triangleTests;
    contacts += r.pairCount;
    if (r.pairCount > 0) {
      ++withContact;
      const SeedTestBounds b = seedTestBounds(m.triangles.size(), m.triangles.size(), r.pairCount);
      lower += b.lower;
      upper += b.upper;
      single += b.singleContact;
    }
    if (n <= 1000 && (!quick || c < 10)) {
      t0 = Clock::now();
      const long long k = bruteCount(m, pa, m, pb);
      bruteMs += ms(t0, Clock::now());
      ++bruteRuns;
      if (k != r.pairCount) ++bruteMismatch;
    }
  }
  const double cfg = configs;
  std::printf("| %d | %.0f | %d | %d/%d | %.4f | %.4f | %.0f | %.0f | %.0f | %.0f | %.0f | %s | %lld |\n",
              static_cast<int>(m.triangles.size()), buildMs, tree.depth, static_cast<int>(withContact), configs,
              median(firstMs), median(allMs), nodePairs / cfg, triTests / cfg, contacts / cfg,
              withContact ? lower / withContact : 0.0, withContact ? upper / withContact : 0.0,
              bruteRuns ? (std::to_string(bruteMs / bruteRuns).substr(0, 6)).c_str() : "—", bruteMismatch);
  std::fflush(stdout);
}

// ------------------------------------------------------------ frame rate

struct Body {
  Transform pose;
  Vec3 velocity, spin;  // spin: rotation vector per frame (axis · angle)
};

Quat mul(const Quat& a, const Quat& b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

Quat normalized(const Quat& q) {
  const double l = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  return {q.x / l, q.y / l, q.z / l, q.w / l};
}

void frameRate(const char* kind, const TriangleMesh& mesh, int count, int frames) {
  double buildMs = 0;
  const ObbTree tree = buildTree(mesh, &buildMs);
  double radius = 0;
  for (const Vec3& v : mesh.vertices) radius = std::max(radius, length(v));
  // A box holding the meshes at about 4% of its volume in cubes: frequent contacts.
  const double side = radius * std::cbrt(count * 8.0 / 0.04);
  meshgen::Rng rng(0xF4A3 + count);
  std::vector<Body> bodies(count);
  for (Body& b : bodies) {
    b.pose.position = rng.inCube(side / 2 - radius);
    b.pose.rotation = rng.rotation();
    b.velocity = rng.unit() * (0.05 * radius);
    b.spin = rng.unit() * 0.05;
  }
  struct Interval {
    double lo, hi;
    int body;
  };
  std::vector<Interval> xs(count);
  std::vector<double> frameMs;
  long long cubePairs = 0, volumeTests = 0, triTests = 0, contacts = 0, pairsWithContact = 0, contactPairTests = 0;
  double lower = 0, upper = 0;
  MeshMeshSettings s;
  s.mode = MeshMeshMode::All;  // counts every contact, writes none
  for (int f = 0; f < frames; ++f) {
    for (Body& b : bodies) {
      b.pose.position += b.velocity;
      for (int k = 0; k < 3; ++k)
        if (std::fabs(b.pose.position[k]) > side / 2 - radius) b.velocity[k] = -b.velocity[k];
      const double angle = length(b.spin);
      const Vec3 axis = b.spin / angle;
      const Quat dq{axis.x * std::sin(angle / 2), axis.y * std::sin(angle / 2), axis.z * std::sin(angle / 2),
                    std::cos(angle / 2)};
      b.pose.rotation = normalized(mul(dq, b.pose.rotation));
    }
    const auto t0 = Clock::now();
    // Broad phase: cubes of half-side `radius`, sorted by their x interval.
    for (int i = 0; i < count; ++i)
      xs[i] = {bodies[i].pose.position.x - radius, bodies[i].pose.position.x + radius, i};
    std::sort(xs.begin(), xs.end(), [](const Interval& a, const Interval& b) { return a.lo < b.lo; });
    for (int i = 0; i < count; ++i) {
      for (int j = i + 1; j < count && xs[j].lo <= xs[i].hi; ++j) {
        const Body &a = bodies[xs[i].body], &b = bodies[xs[j].body];
        if (std::fabs(a.pose.position.y - b.pose.position.y) > 2 * radius ||
            std::fabs(a.pose.position.z - b.pose.position.z) > 2 * radius)
          continue;
        ++cubePairs;
        const MeshMeshResult r = meshesIntersect(mesh, tree, a.pose, mesh, tree, b.pose, s);
        volumeTests += r.nodePairs;
        triTests += r.triangleTests;
        contacts += r.pairCount;
        if (r.pairCount > 0) {
          ++pairsWithContact;
          contactPairTests += r.nodePairs;
          const SeedTestBounds bd = seedTestBounds(mesh.triangles.size(), mesh.triangles.size(), r.pairCount);
          lower += bd.lower;
          upper += bd.upper;
        }
      }
    }
    frameMs.push_back(ms(t0, Clock::now()));
  }
  double mean = 0;
  for (double t : frameMs) mean += t;
  mean /= frames;
  const double fr = frames;
  std::printf("| %s | %d | %d | %.2f | %.2f | %.1f | %.1f | %.1f | %.1f | %.0f | %.0f | %.4f | %.4f |\n", kind,
              static_cast<int>(mesh.triangles.size()), count, cubePairs / fr, pairsWithContact / fr,
              volumeTests / fr, triTests / fr, contacts / fr,
              pairsWithContact ? static_cast<double>(contactPairTests) / pairsWithContact : 0.0,
              pairsWithContact ? lower / pairsWithContact : 0.0, pairsWithContact ? upper / pairsWithContact : 0.0,
              mean, median(frameMs));
  std::fflush(stdout);
}

TriangleMesh cube() {
  TriangleMesh m;
  for (int i = 0; i < 8; ++i) m.vertices.push_back({i & 1 ? 1.0 : -1.0, i & 2 ? 1.0 : -1.0, i & 4 ? 1.0 : -1.0});
  // Two CCW triangles per face (outward normals).
  m.triangles = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                 {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;

  std::printf("## Pairs of tori in random poses (centres 0.2–2.6 apart)\n\n");
  std::printf("| triangles | build ms | depth | with contact | First ms | All ms | volume tests | tri tests | "
              "contacts | seed lower | seed upper | brute ms | mismatches |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int n : {1000, 10000, 100000, 1000000}) {
    if (quick && n > 100000) continue;
    pairs(n, quick);
  }
  std::printf("\nvolume tests, tri tests, contacts: means over all configurations (All mode); seed lower/upper: "
              "means over the configurations with contacts; brute ms: all n² pairs, checked against All.\n");

  std::printf("\n## The seed's frame-rate experiment (§9)\n\n");
  std::printf("| mesh | triangles | meshes | cube pairs/frame | pairs with contact/frame | volume tests/frame | "
              "tri tests/frame | contacts/frame | volume tests/contact pair | seed lower/contact pair | "
              "seed upper/contact pair | mean ms/frame | median ms/frame |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  const int frames = quick ? 100 : 600;
  for (int count : {10, 20}) {
    frameRate("cube", cube(), count, frames);
    for (int level = 1; level <= (quick ? 3 : 5); ++level) frameRate("sphere", meshgen::icosphere(level), count, frames);
  }
  return 0;
}
