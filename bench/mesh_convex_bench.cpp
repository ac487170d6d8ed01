// Native micro-benchmark of the mesh–convex queries (mesh_convex.h): each
// query through the OBB tree against brute force over every triangle (the
// same leaf query on each triangle in turn), on closed tori of 1 000 to
// 1 000 000 triangles.
//
// Shapes: capsules (radius 0.05, half-height 0.1; the torus has major
// radius 1 and minor radius 0.35) at random rotations, centred at random
// points of the torus's bounding box, so some touch the surface, some are
// inside the tube and some are outside. The shape cast moves each by a
// random motion of length 0.5. Contacts use a margin of 0.01 and a buffer
// of 256. The tree's answers are checked against brute force on the
// shapes brute force is timed on (intersect exactly; distance and time of
// impact within 1e-9).
//
// Prints a markdown table: µs per query (median of 3 passes), box and
// triangle tests per query, brute force µs per query and the speed-up.
//
//   collidoscope_mesh_convex_bench [--quick]     --quick: up to 100k triangles
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "collidoscope/gjk.h"
#include "collidoscope/mesh.h"
#include "collidoscope/mesh_convex.h"
#include "collidoscope/obbtree.h"
#include "collidoscope/raycast.h"
#include "collidoscope/triangle.h"
#include "../tests/cpp/mesh_gen.h"
#include "rng.h"
#include "timing.h"

using namespace collidoscope;

namespace {

using bench::Clock;
using bench::median;
using bench::ms;


enum class Query { Intersect, Distance, Contacts, Cast };
const char* queryName(Query q) {
  switch (q) {
    case Query::Intersect: return "intersect";
    case Query::Distance: return "distance";
    case Query::Contacts: return "contacts";
    case Query::Cast: return "shapecast";
  }
  return "";
}

struct Answer {
  bool yes = false;
  double value = 0;
  int count = 0;
  int boxTests = 0, triangleTests = 0;
};

MeshContact g_buffer[256];

Answer viaTree(Query q, const TriangleMesh& m, const ObbTree& tree, const Shape& s, const Vec3& motion) {
  Answer a;
  switch (q) {
    case Query::Intersect: {
      const MeshIntersectResult r = meshConvexIntersect(m, tree, Transform{}, s);
      a = {r.intersecting, 0, 0, r.boxTests, r.triangleTests};
      break;
    }
    case Query::Distance: {
      const MeshDistanceResult r = meshConvexDistance(m, tree, Transform{}, s);
      a = {r.intersecting, r.distance, 0, r.boxTests, r.triangleTests};
      break;
    }
    case Query::Contacts: {
      const MeshContactsResult r = meshConvexContacts(m, tree, Transform{}, s, 0.01, g_buffer, 256);
      a = {r.found > 0, 0, r.found, r.boxTests, r.triangleTests};
      break;
    }
    case Query::Cast: {
      const MeshShapeCastResult r = meshConvexShapeCast(m, tree, Transform{}, s, motion);
      a = {r.hit, r.t, 0, r.boxTests, r.triangleTests};
      break;
    }
  }
  return a;
}

Answer brute(Query q, const TriangleMesh& m, const Shape& s, const Vec3& motion) {
  Answer a;
  const PosedShape shape(s);
  a.value = q == Query::Cast ? 2.0 : std::numeric_limits<double>::infinity();
  for (const auto& t : m.triangles) {
    const TriangleShape tri{{m.vertices[t[0]], m.vertices[t[1]], m.vertices[t[2]]}};
    switch (q) {
      case Query::Intersect:
        if (gjkIntersect(tri, shape).intersecting) return {true, 0, 0, 0, 0};
        break;
      case Query::Distance:
        a.value = std::min(a.value, gjkDistance(tri, shape).distance);
        break;
      case Query::Contacts:
        a.count += triangleContact(tri.v[0], tri.v[1], tri.v[2], shape, 0.01).contact;
        break;
      case Query::Cast: {
        const ShapeCastResult r = gjkShapeCast(tri, shape, Vec3{}, motion);
        if (r.hit) a.value = std::min(a.value, r.t);
        break;
      }
    }
  }
  if (q == Query::Distance) a.yes = a.value == 0;
  if (q == Query::Contacts) a.yes = a.count > 0;
  if (q == Query::Cast) a.yes = a.value <= 1;
  return a;
}

void run(int n, bool quick) {
  const TriangleMesh m = meshgen::torusOfAbout(n);
  ObbTree tree;
  ShapeError err;
  if (!buildObbTree(m, ObbTreeSettings{}, &tree, &err)) {
    std::fprintf(stderr, "%s: %s\n", err.field.c_str(), err.message.c_str());
    return;
  }
  bench::Rng rng{0xc0ffeeull + static_cast<unsigned>(n)};
  const int shapes = 2000;
  std::vector<Shape> ss;
  std::vector<Vec3> motions;
  for (int i = 0; i < shapes; ++i) {
    Shape s = Shape::capsule(0.05, 0.1);
    s.pose.position = {rng.uniform(-1.4, 1.4), rng.uniform(-0.4, 0.4), rng.uniform(-1.4, 1.4)};
    s.pose.rotation = rng.rotation();
    ss.push_back(s);
    motions.push_back(rng.direction() * 0.5);
  }
  for (Query q : {Query::Intersect, Query::Distance, Query::Contacts, Query::Cast}) {
    std::vector<double> treeTimes;
    long long box = 0, tri = 0, yes = 0;
    for (int pass = 0; pass < 3; ++pass) {
      box = tri = yes = 0;
      const auto t0 = Clock::now();
      for (int i = 0; i < shapes; ++i) {
        const Answer a = viaTree(q, m, tree, ss[i], motions[i]);
        box += a.boxTests;
        tri += a.triangleTests;
        yes += a.yes;
      }
      treeTimes.push_back(ms(t0, Clock::now()) * 1000.0 / shapes);
    }
    // Brute force on a subset sized to ~1 s at ~0.3 µs per triangle query.
    const int bruteShapes = std::max(3, std::min(shapes, static_cast<int>((quick ? 1e6 : 3e6) / n)));
    int mismatches = 0;
    const auto t0 = Clock::now();
    std::vector<Answer> bs;
    for (int i = 0; i < bruteShapes; ++i) bs.push_back(brute(q, m, ss[i], motions[i]));
    const double bt = ms(t0, Clock::now()) * 1000.0 / bruteShapes;
    for (int i = 0; i < bruteShapes; ++i) {
      const Answer a = viaTree(q, m, tree, ss[i], motions[i]);
      const Answer& b = bs[i];
      bool same = a.yes == b.yes;
      if (q == Query::Distance) same = std::fabs(a.value - b.value) <= 1e-9 * 1.35;
      if (q == Query::Contacts) same = a.count == b.count;
      if (q == Query::Cast && a.yes && b.yes) same = std::fabs(a.value - b.value) * 0.5 <= 1e-9 * 1.35;
      mismatches += !same;
    }
    const double tt = median(treeTimes);
    std::printf("| %d | %s | %.2f | %.1f | %.1f | %.0f%% | %.0f | %.0f× | %d/%d |\n",
                static_cast<int>(m.triangles.size()), queryName(q), tt, double(box) / shapes,
                double(tri) / shapes, 100.0 * yes / shapes, bt, bt / tt, mismatches, bruteShapes);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
  std::printf("| triangles | query | tree µs/query | box tests | tri tests | yes | brute µs/query | speed-up | "
              "mismatches/shapes |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (int n : {1000, 10000, 100000, 1000000}) {
    if (quick && n > 100000) continue;
    run(n, quick);
  }
  return 0;
}
