// Convex hull (collidoscope/hull.h): invariants on > 5 000 random and
// degenerate clouds, compared with an independent brute force on small ones.
//
// Every hull is checked by hullcheck::check (hull_reference.h): inputIndex
// and vertices agree with the input; every input point within 2τ of every
// face plane; faces planar, convex, CCW and outward; triangles outward, a
// closed consistently oriented manifold with V − E + F = 2, each an exact
// piece of one face; adjacency = the triangles' edges; no two vertices
// within τ; polygons/segments/points checked in their own dimension.
// Clouds with ≤ kBruteMax distinct points are also compared with the brute
// force extreme points (vertices and kind). Families: random in a ball, on a
// sphere, integer grids, many duplicates, flat, collinear, exactly 4 points,
// cube with points on its faces, cylinders, tiny inputs; placed at scales
// 1e-6 … 1e6, rotated, some offset by 1e6. A failing cloud is shrunk
// (points removed while it still fails) and printed as a C++ literal.
#include <gtest/gtest.h>


#include <chrono>
#if defined(__unix__)
#include <sys/wait.h>
#include <unistd.h>
#endif
#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <functional>
#include <limits>

#include "hull_reference.h"

namespace {

using collidoscope::ConvexHull;
using collidoscope::HullError;
using collidoscope::HullKind;
using collidoscope::HullSettings;
using collidoscope::Vec3;
using ref::Rng;

constexpr std::size_t kBruteMax = 64;  // distinct points; O(n⁴) brute force

struct Cloud {
  std::vector<Vec3> pts;
  int kind = -1;      // expected HullKind, -1 = not known by construction
  int vertices = -1;  // expected vertex count
  int faces = -1;     // expected merged face count (polyhedra)
  int triangles = -1;
  std::string note;   // how it was made
  bool brute = true;  // compare with the brute force (small clouds)
};

ConvexHull build(const std::vector<Vec3>& pts, bool* okOut = nullptr, HullError* errOut = nullptr) {
  ConvexHull h;
  HullError err;
  const bool ok = collidoscope::buildHull(pts, &h, &err);
  if (okOut) *okOut = ok;
  if (errOut) *errOut = err;
  return h;
}

struct FamilyStats {
  long clouds = 0, brute = 0, ambiguous = 0, failures = 0;
};

// Everything we can say about one cloud's hull; "" if all holds.
std::string checkCloud(const Cloud& c, FamilyStats* fs = nullptr) {
  bool ok = false;
  HullError err;
  const ConvexHull h = build(c.pts, &ok, &err);
  if (!ok) return "buildHull failed: " + err.field + " " + err.message;
  std::string e = hullcheck::check(c.pts, h);
  if (!e.empty()) return e;
  if (c.kind >= 0 && h.kind != static_cast<HullKind>(c.kind))
    return std::string("kind ") + collidoscope::hullKindName(h.kind) + ", want " +
           collidoscope::hullKindName(static_cast<HullKind>(c.kind));
  if (c.vertices >= 0 && static_cast<int>(h.vertices.size()) != c.vertices)
    return std::to_string(h.vertices.size()) + " vertices, want " + std::to_string(c.vertices);
  if (c.faces >= 0 && static_cast<int>(h.faces.size()) != c.faces)
    return std::to_string(h.faces.size()) + " faces, want " + std::to_string(c.faces);
  if (c.triangles >= 0 && static_cast<int>(h.triangles.size()) != c.triangles)
    return std::to_string(h.triangles.size()) + " triangles, want " + std::to_string(c.triangles);
  if (c.brute && hullref::distinct(c.pts).size() <= kBruteMax) {
    const hullcheck::BruteResult b = hullcheck::compareWithBruteForce(c.pts, h);
    if (fs) {
      ++fs->brute;
      if (b.ambiguous) ++fs->ambiguous;
    }
    if (!b.error.empty()) return b.error;
  }
  return "";
}

// With HULL_TEST_FORK=1 each cloud is checked in a child process, so that a
// crash of the library is reported as a failure of that cloud (with its
// repro) instead of ending the whole run. Off by default (POSIX only).
bool forkEnabled() {
  const char* f = std::getenv("HULL_TEST_FORK");
  return f && *f == '1';
}
std::string checkCloudGuarded(const Cloud& c, FamilyStats* fs) {
#if defined(__unix__)
  if (forkEnabled()) {
    int fd[2];
    if (pipe(fd) != 0) return checkCloud(c, fs);
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
      close(fd[0]);
      FamilyStats local;
      const std::string e = checkCloud(c, &local);
      const long counts[2] = {local.brute, local.ambiguous};
      if (write(fd[1], counts, sizeof counts) < 0 || write(fd[1], e.data(), e.size()) < 0) _exit(2);
      _exit(0);
    }
    close(fd[1]);
    long counts[2] = {0, 0};
    std::string e;
    bool gotCounts = read(fd[0], counts, sizeof counts) == static_cast<ssize_t>(sizeof counts);
    char buf[4096];
    for (ssize_t r; (r = read(fd[0], buf, sizeof buf)) > 0;) e.append(buf, static_cast<std::size_t>(r));
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) return "the library crashed (signal " + std::to_string(WTERMSIG(status)) + ")";
    if (gotCounts && fs) fs->brute += counts[0], fs->ambiguous += counts[1];
    return e;
  }
#endif
  return checkCloud(c, fs);
}

// Greedy shrink: drop points one at a time while the cloud still fails.
std::vector<Vec3> shrink(std::vector<Vec3> pts, const std::function<bool(const std::vector<Vec3>&)>& fails) {
  if (pts.size() > 400) return pts;
  bool progress = true;
  int budget = 4000;
  while (progress && budget > 0) {
    progress = false;
    for (std::size_t i = 0; i < pts.size() && budget > 0; --budget) {
      std::vector<Vec3> t = pts;
      t.erase(t.begin() + static_cast<long>(i));
      if (!t.empty() && fails(t)) {
        pts = t;
        progress = true;
      } else {
        ++i;
      }
    }
  }
  return pts;
}

std::string describeFailure(const Cloud& c, const std::string& error) {
  // Shrink against the invariants and the brute force only (the family's
  // expected counts need not survive removing points).
  Cloud bare = c;
  bare.kind = bare.vertices = bare.faces = bare.triangles = -1;
  std::vector<Vec3> min = c.pts;
  // HULL_TEST_NO_SHRINK=1 skips shrinking (a subset may crash the library).
  const char* noShrink = std::getenv("HULL_TEST_NO_SHRINK");
  if (!(noShrink && *noShrink == '1') && !checkCloudGuarded(bare, nullptr).empty())
    min = shrink(c.pts, [&](const std::vector<Vec3>& p) {
      bare.pts = p;
      return !checkCloudGuarded(bare, nullptr).empty();
    });
  bare.pts = min;
  std::ostringstream o;
  o << "\n  cloud: " << c.note << ", " << c.pts.size() << " points\n  error: " << error;
  if (min.size() < c.pts.size()) {
    o << "\n  original: " << hullref::cloudLiteral(c.pts);
    o << "\n  shrunk to " << min.size() << " points, error: " << checkCloudGuarded(bare, nullptr);
  }
  o << "\n  repro: " << hullref::cloudLiteral(min) << "\n";
  return o.str();
}

// Runs `count` clouds from `gen`, checks each; reports failures (the first
// few in full, shrunk) and the family's numbers.
void runFamily(const char* name, int count, std::uint64_t seed, const std::function<Cloud(Rng&, int)>& gen) {
  Rng rng(seed);
  FamilyStats fs;
  hullcheck::stats() = {};  // per-family worst ratios (not collected in HULL_TEST_FORK mode)
  std::string firstFailures;
  std::map<std::string, int> failuresByKind;  // "<cloud kind>: <error head>"
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < count; ++i) {
    const Cloud c = gen(rng, i);
    ++fs.clouds;
    const std::string e = checkCloudGuarded(c, &fs);
    if (!e.empty()) {
      if (fs.failures < 3) firstFailures += describeFailure(c, e);
      ++fs.failures;
      ++failuresByKind[c.note.substr(0, c.note.find(',')) + ": " + e.substr(0, std::min(e.find_first_of("0123456789"), std::size_t{48}))];
    }
  }
  for (const auto& [k, v] : failuresByKind) std::printf("[hull]   %4d × %s\n", v, k.c_str());
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[hull] %-14s %5ld clouds, %5ld vs brute force (%ld ambiguous), %ld failures, %.2fs; max inside/τ %.3g, "
              "planarity/τ %.3g\n",
              name, fs.clouds, fs.brute, fs.ambiguous, fs.failures, secs, hullcheck::stats().insideOverTol,
              hullcheck::stats().planarityOverTol);
  EXPECT_EQ(fs.failures, 0) << name << ": " << fs.failures << " of " << fs.clouds << " clouds fail" << firstFailures;
  // The brute-force comparison means something only if clouds are rarely
  // ambiguous (within a factor 8 of τ).
  EXPECT_LE(fs.ambiguous * 50, fs.brute) << name << ": too many ambiguous clouds";
}

// ---- placement: scale, rotation, offset -------------------------------------

constexpr double kScales[] = {1e-6, 1e-3, 1, 1e3, 1e6};

struct Placement {
  double scale = 1;
  bool rotate = false;
  ref::Mat3 R{};
  Vec3 offset;
  std::string describe() const {
    std::ostringstream o;
    o << "scale " << scale << (rotate ? ", rotated" : "") << ", offset [" << offset.x << ", " << offset.y << ", "
      << offset.z << "]";
    return o.str();
  }
  Vec3 apply(const Vec3& p) const { return offset + (rotate ? R.mul(p * scale) : p * scale); }
  std::vector<Vec3> apply(const std::vector<Vec3>& ps) const {
    std::vector<Vec3> out;
    out.reserve(ps.size());
    for (const Vec3& p : ps) out.push_back(apply(p));
    return out;
  }
};

// Scale cycles through 1e-6 … 1e6 with i; half the clouds rotated; one in
// six offset by ~1e6 (then scale ≥ 1e-3 so that the cloud stays far larger
// than the rounding of its coordinates, ~1e-10).
Placement place(Rng& rng, int i, bool allowRotate = true) {
  Placement p;
  p.scale = kScales[i % 5];
  p.rotate = allowRotate && rng.integer(0, 1) == 1;
  p.R = ref::matrixOf(rng.rotation());
  if (rng.integer(0, 5) == 0) {
    p.scale = kScales[1 + i % 3];
    p.offset = Vec3{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)} * 1e6;
  }
  return p;
}

Cloud placed(std::vector<Vec3> base, const Placement& p, const std::string& what) {
  Cloud c;
  c.pts = p.apply(base);
  c.note = what + ", " + p.describe();
  return c;
}

int smallN(Rng& rng, int lo = 4, int hi = 60) { return rng.integer(lo, hi); }

// ---- the reference itself ------------------------------------------------------

TEST(HullReference, BruteForceKnownSets) {
  // Unit-cube grid 3³: the 8 corners.
  std::vector<Vec3> g;
  for (int x = 0; x < 3; ++x)
    for (int y = 0; y < 3; ++y)
      for (int z = 0; z < 3; ++z) g.push_back({double(x), double(y), double(z)});
  int dim = -1;
  EXPECT_EQ(hullref::extremePoints(g, 1e-9, 0, &dim).size(), 8u);
  EXPECT_EQ(dim, 3);
  // Square with its centre and edge midpoints: 4 corners, dimension 2.
  std::vector<Vec3> sq{{0, 0, 1}, {2, 0, 1}, {2, 2, 1}, {0, 2, 1}, {1, 1, 1}, {1, 0, 1}, {2, 1, 1}};
  EXPECT_EQ(hullref::extremePoints(sq, 1e-9, 0, &dim), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(dim, 2);
  // Collinear: the two ends.
  std::vector<Vec3> line{{1, 1, 1}, {3, 3, 3}, {0, 0, 0}, {2, 2, 2}};
  EXPECT_EQ(hullref::extremePoints(line, 1e-9, 0, &dim), (std::vector<int>{1, 2}));
  EXPECT_EQ(dim, 1);
  // Octahedron plus its centre and a point inside a face.
  std::vector<Vec3> oct{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}, {0, 0, 0},
                        {1.0 / 3, 1.0 / 3, 1.0 / 3}};
  EXPECT_EQ(hullref::extremePoints(oct, 1e-9, 0, &dim).size(), 6u);
  // Points on a sphere: all extreme.
  Rng rng(7);
  std::vector<Vec3> s;
  for (int i = 0; i < 40; ++i) s.push_back(rng.direction());
  EXPECT_EQ(hullref::extremePoints(s, 1e-9, 0, &dim).size(), 40u);
  // A point just above a face is extreme, just below is not.
  std::vector<Vec3> t{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.3, 0.3, 0.4 + 1e-6}};
  EXPECT_EQ(hullref::extremePoints(t, 1e-9, 0, &dim).size(), 5u);
  t.back().z = 0.4 - 1e-6;
  EXPECT_EQ(hullref::extremePoints(t, 1e-9, 0, &dim).size(), 4u);
}

// The checker has teeth: each kind of damage to a valid hull is reported.
TEST(HullReference, CheckerRejectsBrokenHulls) {
  std::vector<Vec3> cube;
  for (int i = 0; i < 8; ++i) cube.push_back({double(i & 1), double((i >> 1) & 1), double((i >> 2) & 1)});
  cube.push_back({0.5, 0.5, 0.5});
  const ConvexHull good = build(cube);
  ASSERT_EQ(hullcheck::check(cube, good), "");
  ASSERT_EQ(hullcheck::compareWithBruteForce(cube, good).error, "");
  auto broken = [&](const char* what, const std::function<void(ConvexHull&)>& damage,
                    const std::vector<Vec3>& pts) {
    ConvexHull h = good;
    damage(h);
    EXPECT_NE(hullcheck::check(pts, h) + hullcheck::compareWithBruteForce(pts, h).error, "") << what;
  };
  broken("flipped triangle", [](ConvexHull& h) { std::swap(h.triangles[0][1], h.triangles[0][2]); }, cube);
  broken("missing triangle", [](ConvexHull& h) { h.triangles.pop_back(); }, cube);
  broken("missing face", [](ConvexHull& h) { h.faces.pop_back(); }, cube);
  broken("reversed face", [](ConvexHull& h) { std::reverse(h.faces[0].begin(), h.faces[0].end()); }, cube);
  broken("adjacency entry missing", [](ConvexHull& h) { h.adjacency[0].pop_back(); }, cube);
  broken("wrong inputIndex", [](ConvexHull& h) { h.inputIndex[0] = 8; }, cube);
  broken("tolerance too large", [](ConvexHull& h) { h.tolerance = 1e-3; }, cube);
  broken("kind", [](ConvexHull& h) { h.kind = HullKind::Polygon; }, cube);
  std::vector<Vec3> more = cube;
  more.push_back({0.5, 0.5, 1 + 1e-9});  // outside the top face by 1e-9 ≫ τ ≈ 1.5e-12
  broken("a point outside", [](ConvexHull&) {}, more);
  // Polygon: a normal flipped without reversing the order.
  const std::vector<Vec3> sq{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 0}};
  ConvexHull poly = build(sq);
  ASSERT_EQ(hullcheck::check(sq, poly), "");
  poly.normal = -poly.normal;
  EXPECT_NE(hullcheck::check(sq, poly), "");
  // Brute force: an interior point reported as a vertex is caught.
  ConvexHull extra = good;
  extra.vertices.push_back(cube[8]);
  EXPECT_NE(hullcheck::compareWithBruteForce(cube, extra).error, "");
  // The sandwich: a vertex that is not extreme is caught even where it is
  // measured against the hull's own vertices (the needle case below): the
  // middle of an edge, and the centre.
  std::vector<Vec3> edged = cube;
  edged.push_back({0.5, 0, 0});
  ConvexHull mid = build(edged);
  ASSERT_EQ(hullref::bruteForceSandwich(edged, mid), "");
  mid.vertices.push_back(edged.back());
  EXPECT_NE(hullref::bruteForceSandwich(edged, mid), "");
  mid.vertices.back() = cube[8];
  EXPECT_NE(hullref::bruteForceSandwich(edged, mid), "");
}

// Where a needle's long edges meet at a tiny angle, points along the bend
// within the tolerance of one another stand for the same corner. The
// brute force at τ/8 calls the ends of such a run extreme and its middle
// not; a hull keeping the middle one is within τ, and the sandwich
// accepts it because it is extreme among the hull's own vertices.
TEST(HullReference, SandwichAcceptsAnyCornerOfANeedleBend) {
  // Far ends along ±z, a run of three points along z near the bend at
  // (10, 10), the middle one 2.5e-4 inside the segment of the other two.
  const std::vector<Vec3> pts{{0, 0, -1e12}, {-8, -2, 1e8}, {10, 10, -8}, {10, 9.99975, -4}, {10, 10, 10},
                              {-8, -8, 0}, {0, -8, -8}, {2, 1e8, 0}};
  ConvexHull h = build(pts);
  ASSERT_EQ(hullcheck::check(pts, h), "");
  const double tau = h.tolerance;
  ASSERT_GT(tau, 1e-3);  // the run (18 long) is within the tolerance's reach of a straight edge
  // The hull keeps one point of the run; make it the middle one.
  ConvexHull middle = h;
  int kept = 0;
  for (std::size_t k = 0; k < middle.vertices.size(); ++k)
    if (middle.inputIndex[k] >= 2 && middle.inputIndex[k] <= 4) {
      middle.vertices[k] = pts[3];
      middle.inputIndex[k] = 3;
      ++kept;
    }
  ASSERT_EQ(kept, 1);
  // The brute force alone does not call the middle extreme ...
  const std::vector<int> lo = hullref::extremePoints(pts, tau / 8, hullref::inputUncertainty(pts));
  EXPECT_EQ(std::find(lo.begin(), lo.end(), 3), lo.end());
  // ... and the sandwich accepts it.
  EXPECT_EQ(hullref::bruteForceSandwich(pts, middle), "");
}

// ---- fixed cases ---------------------------------------------------------------

TEST(HullFixed, CubeTetrahedronOctahedron) {
  std::vector<Vec3> cube;
  for (int i = 0; i < 8; ++i) cube.push_back({double(i & 1), double((i >> 1) & 1), double((i >> 2) & 1)});
  cube.push_back({0.5, 0.5, 0.5});  // inside
  cube.push_back({0.5, 0.5, 1});    // centre of a face
  cube.push_back({0.5, 0, 0});      // middle of an edge
  Cloud c{cube, int(HullKind::Polyhedron), 8, 6, 12, "unit cube + centre, face centre, edge midpoint"};
  EXPECT_EQ(checkCloud(c), "");
  const ConvexHull h = build(cube);
  for (const auto& f : h.faces) EXPECT_EQ(f.size(), 4u);
  for (int k : h.inputIndex) EXPECT_LT(k, 8);

  Cloud tet{{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, int(HullKind::Polyhedron), 4, 4, 4, "tetrahedron"};
  EXPECT_EQ(checkCloud(tet), "");
  Cloud oct{{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}, {0, 0, 0}},
            int(HullKind::Polyhedron), 6, 8, 8, "octahedron + centre"};
  EXPECT_EQ(checkCloud(oct), "");
}

TEST(HullFixed, TinyAndRepeatedInputs) {
  EXPECT_EQ(checkCloud({{{1, 2, 3}}, int(HullKind::Point), 1, -1, -1, "one point"}), "");
  EXPECT_EQ(checkCloud({{{1, 2, 3}, {1, 2, 3}}, int(HullKind::Point), 1, -1, -1, "one point twice"}), "");
  EXPECT_EQ(checkCloud({{{1, 2, 3}, {4, 5, 6}}, int(HullKind::Segment), 2, -1, -1, "two points"}), "");
  EXPECT_EQ(checkCloud({{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, int(HullKind::Polygon), 3, 1, 1, "triangle"}), "");
  EXPECT_EQ(checkCloud({{{0, 0, 0}, {1, 1, 1}, {2, 2, 2}}, int(HullKind::Segment), 2, -1, -1, "3 collinear"}), "");
  EXPECT_EQ(checkCloud({std::vector<Vec3>(1000, Vec3{-3.5, 1e6, 2e-7}), int(HullKind::Point), 1, -1, -1,
                        "a point 1000 times"}),
            "");
  EXPECT_EQ(checkCloud({std::vector<Vec3>(1000, Vec3{0, 0, 0}), int(HullKind::Point), 1, -1, -1, "origin 1000 times"}),
            "");
  // Duplicates of a tetrahedron's corners only.
  std::vector<Vec3> dup;
  for (int r = 0; r < 50; ++r)
    for (const Vec3& v : {Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}}) dup.push_back(v);
  EXPECT_EQ(checkCloud({dup, int(HullKind::Polyhedron), 4, 4, 4, "tetrahedron corners ×50"}), "");
}

TEST(HullFixed, ErrorsAreTypedNotCrashes) {
  bool ok = true;
  HullError err;
  build({}, &ok, &err);
  EXPECT_FALSE(ok);
  EXPECT_EQ(err.field, "points");
  const double bad[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                        -std::numeric_limits<double>::infinity()};
  for (double b : bad) {
    ok = true;
    err = {};
    build({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, b}}, &ok, &err);
    EXPECT_FALSE(ok);
    EXPECT_EQ(err.field.rfind("points", 0), 0u) << err.field;
    EXPECT_FALSE(err.message.empty());
  }
}

TEST(HullFixed, DeterministicAndPermutationInvariant) {
  Rng rng(99);
  for (int i = 0; i < 100; ++i) {
    std::vector<Vec3> p(static_cast<std::size_t>(smallN(rng, 4, 200)));
    for (Vec3& v : p) v = rng.inBall(1);
    if (i % 2) p.insert(p.end(), p.begin(), p.begin() + static_cast<long>(p.size() / 2));  // duplicates
    const ConvexHull a = build(p), b = build(p);
    ASSERT_EQ(a.vertices, b.vertices);
    ASSERT_EQ(a.triangles, b.triangles);
    ASSERT_EQ(a.faces, b.faces);
    std::vector<Vec3> q = p;
    std::shuffle(q.begin(), q.end(), rng.gen);
    const ConvexHull c = build(q);
    EXPECT_EQ(hullref::compareSets(a.vertices, c.vertices, 0.0), "") << "shuffled input, cloud " << i;
  }
}

// ---- minimal repros of failures found by the families ------------------------------

// Three nearly collinear points (a thin needle's shrunk failure): the third
// is ~1900τ off the line of the first two, so the plane through them is
// ill-conditioned; a hull of 3 points can only be a point, segment or
// polygon. (Found crashing in hull.h mergeCoplanar: the tetrahedron was
// built with a repeated vertex.)
TEST(HullRegression, ThreeNearlyCollinearPoints) {
  const std::vector<std::vector<Vec3>> clouds = {
      {{-1.5545224627028327e-05, 0.00031409702129832579, -0.00011330269873653718},
       {2.4572352953662761e-05, -0.00049649348067762854, 0.00017909768872663805},
       {3.0637855611837807e-05, -0.0006190492149335435, 0.0002233066266404326}},
      {{6.0452328541986947e-05, -0.00039350804667838115, 0.00063002431802916645},
       {7.7464353834632359e-05, -0.00050424600141438073, 0.00080732081700970949},
       {-6.5619529530356409e-05, 0.00042714339626313195, -0.00068387602841524057}}};
  for (const auto& pts : clouds) {
    bool ok = false;
    const ConvexHull h = build(pts, &ok);
    ASSERT_TRUE(ok);
    EXPECT_NE(h.kind, HullKind::Polyhedron) << hullref::cloudLiteral(pts);
    EXPECT_EQ(hullcheck::check(pts, h), "") << hullref::cloudLiteral(pts);
  }
}


// ---- families (> 5 000 clouds in all) ----------------------------------------------

constexpr int kBall = 1200, kSphere = 600, kGrid = 400, kDuplicates = 600, kFlat = 600, kCollinear = 400, kFour = 500,
              kOffset = 300, kCube = 300, kCylinders = 300, kScaleSweepBases = 200, kNearlyDegenerate = 600;

TEST(HullFamilies, RandomInBall) {
  runFamily("ball", kBall, 101, [](Rng& rng, int i) {
    std::vector<Vec3> b(static_cast<std::size_t>(smallN(rng)));
    for (Vec3& v : b) v = rng.inBall(1);
    Cloud c = placed(b, place(rng, i), "random in a ball");
    c.kind = int(HullKind::Polyhedron);
    return c;
  });
}

TEST(HullFamilies, OnASphere) {
  runFamily("sphere", kSphere, 102, [](Rng& rng, int i) {
    std::vector<Vec3> b(static_cast<std::size_t>(smallN(rng)));
    for (Vec3& v : b) v = rng.direction();
    Cloud c = placed(b, place(rng, i), "on a sphere");
    c.kind = int(HullKind::Polyhedron);
    c.vertices = static_cast<int>(b.size());  // strictly convex: every point extreme
    return c;
  });
}

TEST(HullFamilies, IntegerGrids) {
  runFamily("grid", kGrid, 103, [](Rng& rng, int i) {
    const int kx = rng.integer(2, 4), ky = rng.integer(2, 4), kz = i % 4 == 0 ? 5 : rng.integer(2, 4);
    std::vector<Vec3> b;
    for (int x = 0; x < kx; ++x)
      for (int y = 0; y < ky; ++y)
        for (int z = 0; z < kz; ++z) b.push_back({double(x), double(y), double(z)});
    std::shuffle(b.begin(), b.end(), rng.gen);
    // Exact integers half the time (no rotation, scale 1, offset integer).
    Placement p = place(rng, i);
    if (i % 2 == 0) {
      p = Placement{};
      p.offset = Vec3{double(rng.integer(-1000, 1000)), double(rng.integer(-1000, 1000)), 0};
    }
    Cloud c = placed(b, p, "integer grid " + std::to_string(kx) + "x" + std::to_string(ky) + "x" + std::to_string(kz));
    c.kind = int(HullKind::Polyhedron);
    c.vertices = 8;
    c.faces = 6;
    c.triangles = 12;
    return c;
  });
}

TEST(HullFamilies, ManyDuplicates) {
  runFamily("duplicates", kDuplicates, 104, [](Rng& rng, int i) {
    const int m = i % 10 == 0 ? rng.integer(1, 3) : rng.integer(4, 15);
    std::vector<Vec3> pool(static_cast<std::size_t>(m));
    for (Vec3& v : pool) v = rng.inBall(1);
    std::vector<Vec3> b = pool;
    const int extra = rng.integer(0, 60 - m);
    for (int k = 0; k < extra; ++k) b.push_back(pool[static_cast<std::size_t>(rng.integer(0, m - 1))]);
    std::shuffle(b.begin(), b.end(), rng.gen);
    Cloud c = placed(b, place(rng, i), "pool of " + std::to_string(m) + " with duplicates");
    c.kind = int(hullcheck::kindOfDim(std::min(m - 1, 3)));
    return c;
  });
}

TEST(HullFamilies, Flat) {
  runFamily("flat", kFlat, 105, [](Rng& rng, int i) {
    std::vector<Vec3> b;
    std::string what;
    int expectV = -1;
    switch (i % 3) {
      case 0:  // random in a disc
        for (int k = smallN(rng, 3, 60); k > 0; --k) {
          const double r = std::sqrt(rng.uniform(0, 1)), t = rng.uniform(0, 2 * hullcheck::kPi);
          b.push_back({r * std::cos(t), r * std::sin(t), 0});
        }
        what = "flat: random in a disc";
        break;
      case 1: {  // integer lattice k×l plus duplicates: 4 corners
        const int kx = rng.integer(2, 7), ky = rng.integer(2, 7);
        for (int x = 0; x < kx; ++x)
          for (int y = 0; y < ky; ++y) b.push_back({double(x), double(y), 0});
        for (int k = rng.integer(0, 10); k > 0; --k) b.push_back(b[static_cast<std::size_t>(rng.integer(0, kx * ky - 1))]);
        std::shuffle(b.begin(), b.end(), rng.gen);
        what = "flat: integer lattice";
        expectV = 4;
        break;
      }
      default:  // on a circle: all extreme
        for (int k = smallN(rng, 3, 40); k > 0; --k) {
          const double t = rng.uniform(0, 2 * hullcheck::kPi);
          b.push_back({std::cos(t), std::sin(t), 0});
        }
        what = "flat: on a circle";
        expectV = static_cast<int>(b.size());
    }
    // Always rotated (a random plane) except for some exact lattices.
    Placement p = place(rng, i);
    p.rotate = !(i % 3 == 1 && i % 2 == 0);
    Cloud c = placed(b, p, what);
    c.kind = int(HullKind::Polygon);
    c.vertices = expectV;
    return c;
  });
}

TEST(HullFamilies, Collinear) {
  runFamily("collinear", kCollinear, 106, [](Rng& rng, int i) {
    const Vec3 a = rng.inBall(1), d = rng.direction();
    std::vector<Vec3> b;
    const bool integer = i % 3 == 0;
    const int k = rng.integer(2, 60);
    for (int j = 0; j < k; ++j)
      b.push_back(integer ? Vec3{double(j), 2.0 * j, -3.0 * j} : a + d * rng.uniform(-1, 1));
    for (int j = rng.integer(0, 5); j > 0; --j) b.push_back(b[static_cast<std::size_t>(rng.integer(0, k - 1))]);
    std::shuffle(b.begin(), b.end(), rng.gen);
    Cloud c = placed(b, place(rng, i), integer ? "collinear integer points" : "collinear random points");
    c.kind = int(HullKind::Segment);
    c.vertices = 2;
    return c;
  });
}

TEST(HullFamilies, ExactlyFourPoints) {
  runFamily("four points", kFour, 107, [](Rng& rng, int i) {
    std::vector<Vec3> b(4);
    for (Vec3& v : b) v = rng.inBall(1);
    int kind = int(HullKind::Polyhedron), nv = 4;
    std::string what = "4 points: tetrahedron";
    switch (i % 6) {
      case 1:  // coplanar: the 4th an affine combination in the plane z = 0
        for (Vec3& v : b) v.z = 0;
        kind = int(HullKind::Polygon), nv = -1, what = "4 coplanar points";
        break;
      case 2:  // collinear
        for (Vec3& v : b) v = Vec3{1, 2, 3} * rng.uniform(-1, 1);
        kind = int(HullKind::Segment), nv = 2, what = "4 collinear points";
        break;
      case 3:  // all equal
        b = std::vector<Vec3>(4, b[0]);
        kind = int(HullKind::Point), nv = 1, what = "4 equal points";
        break;
      case 4:  // two pairs of duplicates
        b[2] = b[0], b[3] = b[1];
        kind = int(HullKind::Segment), nv = 2, what = "2 points twice";
        break;
      case 5:  // three distinct, one repeated
        b[3] = b[rng.integer(0, 2)];
        kind = int(HullKind::Polygon), nv = 3, what = "3 points + a duplicate";
        break;
    }
    Cloud c = placed(b, place(rng, i), what);
    c.kind = kind;
    c.vertices = nv;
    if (kind == int(HullKind::Polyhedron)) c.faces = c.triangles = 4;
    return c;
  });
}

TEST(HullFamilies, OffsetByOneMillion) {
  runFamily("offset 1e6", kOffset, 108, [](Rng& rng, int i) {
    std::vector<Vec3> b;
    Cloud c;
    switch (i % 3) {
      case 0:
        for (int k = smallN(rng); k > 0; --k) b.push_back(rng.inBall(1));
        c.kind = int(HullKind::Polyhedron);
        break;
      case 1:
        for (int k = smallN(rng); k > 0; --k) b.push_back(rng.direction());
        c.kind = int(HullKind::Polyhedron);
        c.vertices = static_cast<int>(b.size());
        break;
      default:
        for (int x = 0; x < 3; ++x)
          for (int y = 0; y < 3; ++y)
            for (int z = 0; z < 3; ++z) b.push_back({double(x), double(y), double(z)});
        c.kind = int(HullKind::Polyhedron);
        c.vertices = 8;
        c.faces = 6;
    }
    Placement p;
    p.scale = kScales[1 + i % 3];  // 1e-3, 1, 1e3
    p.rotate = rng.integer(0, 1) == 1;
    p.R = ref::matrixOf(rng.rotation());
    const Vec3 dir = rng.integer(0, 1) ? Vec3{1, 1, 1} : rng.direction();
    p.offset = dir * (1e6 * (rng.integer(0, 1) ? 1 : -1));
    Cloud out = placed(b, p, i % 3 == 0 ? "ball" : i % 3 == 1 ? "sphere" : "grid 3x3x3");
    out.kind = c.kind;
    out.vertices = c.vertices;
    out.faces = c.faces;
    return out;
  });
}

TEST(HullFamilies, CubeWithPointsOnFaces) {
  runFamily("cube faces", kCube, 109, [](Rng& rng, int i) {
    std::vector<Vec3> b;
    const bool corners = i % 4 != 3;
    if (corners)
      for (int k = 0; k < 8; ++k) b.push_back({k & 1 ? 1.0 : -1.0, k & 2 ? 1.0 : -1.0, k & 4 ? 1.0 : -1.0});
    for (int k = rng.integer(4, 50); k > 0; --k) {
      Vec3 p = rng.inCube(1);
      const int axis = rng.integer(0, 2);
      p[axis] = rng.integer(0, 1) ? 1.0 : -1.0;
      if (rng.integer(0, 3) == 0) p[(axis + 1) % 3] = rng.integer(0, 1) ? 1.0 : -1.0;  // on an edge
      if (rng.integer(0, 5) == 0) p = Vec3{0.5, -0.25, 0.125};  // an interior point
      b.push_back(p);
    }
    std::shuffle(b.begin(), b.end(), rng.gen);
    Cloud c = placed(b, place(rng, i), corners ? "cube corners + points on faces/edges" : "points on cube faces");
    if (corners) c.kind = int(HullKind::Polyhedron), c.vertices = 8, c.faces = 6, c.triangles = 12;
    return c;
  });
}

TEST(HullFamilies, Cylinders) {
  runFamily("cylinders", kCylinders, 110, [](Rng& rng, int i) {
    const int k = rng.integer(3, 24);
    const bool twisted = i % 2 == 1;
    const double h = rng.uniform(0.2, 2);
    std::vector<Vec3> b;
    for (int j = 0; j < k; ++j) {
      const double t0 = 2 * hullcheck::kPi * j / k, t1 = t0 + (twisted ? hullcheck::kPi / k : 0);
      b.push_back({std::cos(t0), std::sin(t0), -h});
      b.push_back({std::cos(t1), std::sin(t1), h});
    }
    for (int j = rng.integer(0, 5); j > 0; --j) b.push_back({0, 0, rng.uniform(-h, h)});  // on the axis: inside
    std::shuffle(b.begin(), b.end(), rng.gen);
    Cloud c = placed(b, place(rng, i), std::string(twisted ? "twisted" : "straight") + " cylinder, " +
                                           std::to_string(k) + " points per circle");
    c.kind = int(HullKind::Polyhedron);
    c.vertices = 2 * k;
    c.faces = twisted ? 2 + 2 * k : 2 + k;
    c.triangles = 4 * k - 4;  // 2V − 4
    return c;
  });
}


// The same cloud at every scale: the same input points are extreme.
TEST(HullFamilies, ScaleSweep) {
  Rng rng(111);
  int mismatches = 0;
  std::string first;
  FamilyStats fs;
  for (int i = 0; i < kScaleSweepBases; ++i) {
    std::vector<Vec3> b(static_cast<std::size_t>(smallN(rng)));
    for (Vec3& v : b) v = i % 2 ? rng.inBall(1) : rng.direction();
    std::vector<int> want;
    for (int s = 0; s < 5; ++s) {
      Placement p;
      p.scale = kScales[s];
      Cloud c = placed(b, p, "scale sweep");
      c.kind = int(HullKind::Polyhedron);
      ++fs.clouds;
      const std::string e = checkCloud(c, &fs);
      if (!e.empty()) {
        ++fs.failures;
        if (first.empty()) first = describeFailure(c, e);
        continue;
      }
      std::vector<int> got = build(c.pts).inputIndex;
      std::sort(got.begin(), got.end());
      if (s == 0) want = got;
      else if (got != want) {
        ++mismatches;
        if (first.empty()) first = "\n  extreme set changes with scale: " + hullref::cloudLiteral(b);
      }
    }
  }
  std::printf("[hull] %-14s %5ld clouds, %5ld vs brute force (%ld ambiguous), %ld failures\n", "scale sweep",
              fs.clouds, fs.brute, fs.ambiguous, fs.failures);
  EXPECT_EQ(fs.failures, 0) << first;
  EXPECT_EQ(mismatches, 0) << first;
}

// ctest runs each test in its own process, so the total is counted from
// the per-family constants (each family asserts its own count ran).
static_assert(kBall + kSphere + kGrid + kDuplicates + kFlat + kCollinear + kFour + kOffset + kCube + kCylinders +
                      5 * kScaleSweepBases >=
                  5000,
              "the issue asks for at least 5 000 clouds");

// ---- large clouds: invariants only -----------------------------------------------------

TEST(HullLarge, InvariantsOnLargeClouds) {
  Rng rng(112);
  std::vector<Cloud> clouds;
  auto add = [&](std::vector<Vec3> p, const std::string& what, int kind, int nv = -1, int nf = -1) {
    Cloud c;
    c.pts = std::move(p);
    c.note = what;
    c.kind = kind;
    c.vertices = nv;
    c.faces = nf;
    clouds.push_back(std::move(c));
  };
  const ref::Mat3 R = ref::matrixOf(rng.rotation());
  {
    std::vector<Vec3> p(100000);
    for (Vec3& v : p) v = rng.inBall(1);
    add(p, "100 000 in a ball", int(HullKind::Polyhedron));
  }
  {
    std::vector<Vec3> p(50000);
    for (Vec3& v : p) v = Vec3{1e6, -2e6, 3e5} + rng.inBall(10);
    add(p, "50 000 in a ball at 1e6", int(HullKind::Polyhedron));
  }
  {
    std::vector<Vec3> p(10000);
    for (Vec3& v : p) v = rng.direction() * 1e3;
    add(p, "10 000 on a sphere", int(HullKind::Polyhedron), 10000);
  }
  {
    std::vector<Vec3> p;
    for (int x = 0; x < 40; ++x)
      for (int y = 0; y < 40; ++y)
        for (int z = 0; z < 40; ++z) p.push_back({double(x), double(y), double(z)});
    std::shuffle(p.begin(), p.end(), rng.gen);
    add(p, "grid 40³", int(HullKind::Polyhedron), 8, 6);
    for (Vec3& v : p) v = R.mul(v * 1e-3);
    add(p, "grid 40³ rotated, scale 1e-3", int(HullKind::Polyhedron), 8, 6);
  }
  {
    std::vector<Vec3> p;
    for (int k = 0; k < 8; ++k) p.push_back({k & 1 ? 1.0 : -1.0, k & 2 ? 1.0 : -1.0, k & 4 ? 1.0 : -1.0});
    for (int k = 0; k < 50000; ++k) {
      Vec3 v = rng.inCube(1);
      v[rng.integer(0, 2)] = rng.integer(0, 1) ? 1.0 : -1.0;
      p.push_back(v);
    }
    add(p, "cube with 50 000 points on its faces", int(HullKind::Polyhedron), 8, 6);
  }
  {
    std::vector<Vec3> pool(500), p;
    for (Vec3& v : pool) v = rng.inBall(1);
    for (int k = 0; k < 100000; ++k) p.push_back(pool[static_cast<std::size_t>(rng.integer(0, 499))]);
    add(p, "100 000 from a pool of 500", int(HullKind::Polyhedron));
  }
  {
    std::vector<Vec3> p;
    for (int k = 0; k < 50000; ++k) p.push_back(R.mul(Vec3{rng.uniform(-5, 5), rng.uniform(-5, 5), 0}));
    add(p, "50 000 flat, rotated", int(HullKind::Polygon));
  }
  {
    std::vector<Vec3> p;
    for (int k = 0; k < 20000; ++k) p.push_back(Vec3{1, 2, 3} + R.mul(Vec3{rng.uniform(-5, 5), 0, 0}));
    add(p, "20 000 collinear", int(HullKind::Segment), 2);
  }
  {
    std::vector<Vec3> p;
    for (int j = 0; j < 5000; ++j) {
      const double t = 2 * hullcheck::kPi * j / 5000;
      p.push_back({std::cos(t), std::sin(t), -1});
      p.push_back({std::cos(t), std::sin(t), 1});
    }
    add(p, "cylinder, 2 × 5000", int(HullKind::Polyhedron), 10000, 5002);
  }
  add(std::vector<Vec3>(100000, Vec3{3, -4, 5e5}), "a point 100 000 times", int(HullKind::Point), 1);

  for (const Cloud& c : clouds) {
    const auto t0 = std::chrono::steady_clock::now();
    const ConvexHull h = build(c.pts);
    const double buildSecs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(checkCloud(c), "") << c.note;
    std::printf("[hull] large: %-40s built in %.3fs: %s, %zu vertices, %zu faces\n", c.note.c_str(), buildSecs,
                collidoscope::hullKindName(h.kind), h.vertices.size(), h.faces.size());
  }
}

}  // namespace



// Five points of a slab 7.7e-8 thick at offset ~1e6 (τ ≈ 3.3e-9): a thin
// polyhedron whose quadrilateral {0, 1, 2, 3} is twisted by ~3τ; the build
// once took the reflex diagonal of it.
TEST(HullRegression, ThinSlabFarFromTheOrigin) {
  const std::vector<Vec3> pts{{-921247.45795057784, 567263.55827502767, 75072.89583744503},
                              {-921247.96277566557, 567262.52132321766, 75072.895837473581},
                              {-921248.38581273961, 567263.26573153178, 75072.895837466567},
                              {-921247.39351629908, 567263.14662972221, 75072.895837454722},
                              {-921248.23780467897, 567261.89995454741, 75072.895837395932}};
  const ConvexHull h = build(pts);
  EXPECT_EQ(h.kind, HullKind::Polyhedron) << collidoscope::hullKindName(h.kind) << ", τ = " << h.tolerance;
  EXPECT_EQ(hullcheck::check(pts, h), "");
}

// A needle 1e-9 thick at offset ~5e5 that is flat within τ: the polygon's
// chain once sorted across the needle and dropped its ends (2 vertices).
TEST(HullRegression, FlatNeedleKeepsItsEnds) {
  const std::vector<Vec3> pts{{-453372.02478492295, 182391.86423831538, -27782.17207332615},
                              {-453370.29789883882, 182391.86423831381, -27782.1720733281},
                              {-453371.73682367679, 182391.86423831436, -27782.172073328031},
                              {-453371.27595844277, 182391.86423831354, -27782.172073327489}};
  const ConvexHull h = build(pts);
  EXPECT_EQ(hullcheck::check(pts, h), "");
  // The two ends of the needle (smallest and largest x) are hull vertices.
  EXPECT_NE(std::find(h.inputIndex.begin(), h.inputIndex.end(), 0), h.inputIndex.end());
  EXPECT_NE(std::find(h.inputIndex.begin(), h.inputIndex.end(), 1), h.inputIndex.end());
}

// A slab ~3τ thick at offset ~1e6 whose vertex 0 is nearly coplanar with
// its whole ring: pairwise merging once split the ring into two faces, one
// of which turned the wrong way at vertex 0.
TEST(HullRegression, NearlyCoplanarRingIsOneFace) {
  const std::vector<Vec3> pts{
      {-474307.79232615139, 562784.19749979069, -856662.30782742682}, {-474307.97808320238, 562783.47351877822, -856662.30782743567},
      {-474308.75326050282, 562785.34087612038, -856662.30782742763}, {-474308.88400037779, 562784.45296323102, -856662.30782743392},
      {-474307.38098195702, 562785.44821898162, -856662.30782743439}, {-474308.56939383561, 562783.59415145486, -856662.30782742728},
      {-474306.98840267753, 562783.62145379605, -856662.3078274302},  {-474308.1633729582, 562785.07306093758, -856662.30782744568},
      {-474307.19099871395, 562784.85323702276, -856662.3078274267},  {-474306.97991345735, 562783.71249826776, -856662.30782744067}};
  const ConvexHull h = build(pts);
  EXPECT_EQ(h.kind, HullKind::Polyhedron);
  EXPECT_EQ(hullcheck::check(pts, h), "");
}

// Near-degenerate: flat or collinear clouds with noise 1e-9 … 1e-6 of their
// size (thin but 3D: above τ ≈ 1e-12 of the size, except at offset 1e6
// where τ's rounding term ~3e-9 makes the thinnest slabs flat), grids
// jittered by 1e-14 (below τ: still 8 corners), two tight clusters far
// apart (size 1e-6 … 1e-3), corners of a random polytope plus points on
// their chords.
TEST(HullFamilies, NearlyDegenerate) {
  // HULL_NEARLY_DEGENERATE_CLOUDS=N runs N clouds instead (a longer stress
  // run; see the README's known limits).
  const char* env = std::getenv("HULL_NEARLY_DEGENERATE_CLOUDS");
  const int count = env && std::atoi(env) > 0 ? std::atoi(env) : kNearlyDegenerate;
  runFamily("nearly degen.", count, 113, [](Rng& rng, int i) {
    std::vector<Vec3> b;
    Cloud c;
    std::string what;
    const double noise = std::pow(10.0, -rng.integer(6, 9));
    switch (i % 5) {
      case 0:
        for (int k = smallN(rng); k > 0; --k) b.push_back({rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-noise, noise)});
        what = "thin slab";
        break;
      case 1:
        for (int k = smallN(rng); k > 0; --k)
          b.push_back({rng.uniform(-1, 1), rng.uniform(-noise, noise), rng.uniform(-noise, noise)});
        what = "thin needle";
        break;
      case 2:
        for (int x = 0; x < 3; ++x)
          for (int y = 0; y < 3; ++y)
            for (int z = 0; z < 3; ++z)
              b.push_back(Vec3{double(x), double(y), double(z)} + rng.inCube(1e-14));
        c.kind = int(HullKind::Polyhedron), c.vertices = 8, c.faces = 6;
        what = "grid 3³ jittered by 1e-14";
        break;
      case 3:
        for (int k = smallN(rng); k > 0; --k) b.push_back((k % 2 ? Vec3{1, 0, 0} : Vec3{-1, 0, 0}) + rng.inBall(noise * 1e3));
        what = "two tight clusters";
        break;
      default: {
        std::vector<Vec3> corners(static_cast<std::size_t>(rng.integer(4, 8)));
        for (Vec3& v : corners) v = rng.direction();
        b = corners;
        for (int k = smallN(rng); k > 0; --k) {
          const Vec3 &p = corners[static_cast<std::size_t>(rng.integer(0, int(corners.size()) - 1))],
                     &q = corners[static_cast<std::size_t>(rng.integer(0, int(corners.size()) - 1))];
          b.push_back(p + (q - p) * rng.uniform(0, 1));
        }
        what = "corners + points on chords";
      }
    }
    std::ostringstream nm;
    nm << what << (i % 5 < 2 || i % 5 == 3 ? ", noise " : "");
    if (i % 5 < 2 || i % 5 == 3) nm << noise;
    Cloud out = placed(b, place(rng, i), nm.str());
    out.kind = c.kind, out.vertices = c.vertices, out.faces = c.faces;
    // Slabs, needles and clusters have features within a few τ of their
    // planes, where "extreme" depends on how distances are measured: the
    // facet-based brute force (a vertex of an approximate facet) and the
    // contract's "farther than τ from the others' hull" may differ there.
    // Invariants only.
    out.brute = i % 5 == 2 || i % 5 == 4;
    return out;
  });
}
