// collidoscope — support mapping of a large convex polytope in sublinear
// time, precomputed once from its point set.
//
// s(d) = argmax over the points x of d·x. Brute force reads every point.
// On the convex hull it is enough to walk the hull's edge graph:
//
//   Hill climbing. From a start vertex, move to the neighbour with the
//   largest d·x while that is strictly larger; stop at a vertex no neighbour
//   improves. On a convex polytope a local maximum of a linear function over
//   the vertex graph is a global one (the vertices with d·x above any level
//   form a connected subgraph), so the walk ends at a maximizer. Strict
//   improvement visits no vertex twice, so the walk is at most V steps; the
//   loop carries that cap anyway. Expected cost on round hulls: O(√V) steps.
//
//   Dobkin–Kirkpatrick hierarchy (D. P. Dobkin, D. G. Kirkpatrick, "Determining
//   the separation of preprocessed polyhedra — a unified approach", ICALP
//   1990). P_0 = the hull; P_{i+1} = conv(vert(P_i) − S_i)
//   where S_i is an independent set of vertices of degree ≤ 8, chosen
//   greedily, until a level has at most kTopVertices vertices. A query takes
//   the extreme vertex v of the top level by brute force, then descends: the
//   extreme vertex of P_i is v or one of v's neighbours in P_i that is not in
//   P_{i+1} (if some vertex m of P_i beats v, m is not in P_{i+1}; the
//   vertices of P_i above the plane d·x = d·v form a connected subgraph and
//   S_i is independent, so m is the only one, and hill climbing from v
//   reaches it in one step). So each level costs the few "down" neighbours
//   of v (≈ 2 on average).
//   Departures from the paper: each level is rebuilt by buildHull on the
//   survivors instead of retriangulating the holes (simpler, O(n log n)
//   overall, preprocessing only); and the descent ends with a full hill
//   climb on P_0 — so correctness rests only on the hill-climbing argument
//   above, even where the hull tolerance dropped a near-coplanar survivor
//   from a level and the independence argument no longer holds exactly.
//
// Exactness. Every walk compares the same doubles brute force compares
// (dot(x, d) on the stored vertices), so on the hull's vertex set the value
// d·s(d) is the brute-force maximum up to ties. Relative to the original
// point set the only difference is the hull's tolerance: points within
// `tolerance` of a hull face (near-coplanar, scale-relative 1e-12, see
// hull.h) are not vertices, so d·s(d) ≥ max d·x − tolerance·|d|.
// Ties: brute force keeps the first maximal vertex; the walks keep the first
// vertex they reach. All choices depend only on the input, so the same scene
// gives the same support point, bit for bit, natively and in wasm.
//
// A query allocates nothing and changes nothing: one structure can be
// shared (std::shared_ptr<const PolytopeSupport>) by copies of a shape and
// by threads.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "collidoscope/math.h"

namespace collidoscope {

struct ConvexHull;

class PolytopeSupport {
 public:
  enum class Method {
    BruteForce,  // scan the hull's vertices
    HillClimb,   // walk the hull's edge graph from vertex 0 (or a hint)
    Hierarchy,   // Dobkin–Kirkpatrick descent, then a hill climb on P_0
    Auto,        // by hull vertex count: BruteForce < kHillClimbMinVertices ≤ HillClimb
                 //   < kHierarchyMinVertices ≤ Hierarchy (bench/results.md)
  };

  // Hull vertex count from which hill climbing beats scanning the vertices.
  // bench/results.md (support/* on points of a sphere, native -O2): the scan
  // wins at 64 vertices, the climb at 128; the crossover is near 96.
  static constexpr std::size_t kHillClimbMinVertices = 96;
  // Hull vertex count from which Auto builds the Dobkin–Kirkpatrick
  // hierarchy. Its queries tie with hill climbing near 1 000 vertices and win
  // by a factor that grows with the vertex count (bench/results.md), but its
  // construction rebuilds a hull per level, so below this size plain hill
  // climbing is kept.
  static constexpr std::size_t kHierarchyMinVertices = 2048;
  // Top level of the hierarchy: brute force over at most this many vertices.
  static constexpr std::size_t kTopVertices = 16;
  // The greedy independent set takes vertices of degree at most this (the
  // bound of Dobkin–Kirkpatrick: on a polytope ≥ 1/2 of the vertices qualify).
  static constexpr int kMaxRemovedDegree = 8;

  // Builds the structure for conv(points). Returns null when the points are
  // empty or not finite (callers then scan the points). Auto picks per the
  // constants above and bench/results.md.
  static std::shared_ptr<const PolytopeSupport> build(const std::vector<Vec3>& points, Method method = Method::Auto);
  // From a hull already built with buildHull (its vertices and adjacency).
  PolytopeSupport(const ConvexHull& hull, std::size_t inputCount, Method method);

  // Index into vertices() of a point maximizing d·x. d may be any vector;
  // for d = 0 (or NaN) the start vertex is returned.
  int supportIndex(const Vec3& d) const;
  // Hill climbing from a caller-cached vertex (e.g. the previous answer of
  // a GJK loop, whose directions change little). Any valid index works.
  int supportIndexFrom(const Vec3& d, int start) const;
  Vec3 support(const Vec3& d) const { return vertices_[static_cast<std::size_t>(supportIndex(d))]; }

  const std::vector<Vec3>& vertices() const { return vertices_; }
  Method method() const { return method_; }
  // Number of points the structure was built from (a cheap staleness check
  // for Shape::points, see shapes.h).
  std::size_t inputCount() const { return inputCount_; }
  // Hull plane tolerance (see Exactness above).
  double tolerance() const { return tolerance_; }
  // Levels of the hierarchy including P_0 (1 when not Hierarchy).
  std::size_t levels() const { return levels_.size() + 1; }

  // The three walks, whatever method() is (benchmarks and tests compare them).
  int bruteForceIndex(const Vec3& d) const;
  int hillClimbIndex(const Vec3& d, int start) const;
  int hierarchyIndex(const Vec3& d) const;  // == hillClimbIndex(d, 0) when no hierarchy was built

 private:
  // Level i ≥ 1 of the hierarchy. Local index k of this level is vertex
  // ids[k] of P_0 and vertex below[k] of level i − 1.
  struct Level {
    std::vector<int> ids;
    std::vector<int> below;
  };
  // Per level i ≥ 0 except the top, compressed: for local vertex k of level
  // i, its neighbours in level i that are not in level i + 1 (local indices).
  struct DownLists {
    std::vector<int> start;  // size n_i + 1
    std::vector<int> items;
  };

  void buildHierarchy();

  std::vector<Vec3> vertices_;
  std::vector<int> adjStart_;  // CSR adjacency of P_0: neighbours of k are adj_[adjStart_[k] .. adjStart_[k+1])
  std::vector<int> adj_;
  std::vector<Level> levels_;    // levels 1..L (empty unless Hierarchy)
  std::vector<DownLists> down_;  // down_[i] for levels 0..L−1
  Method method_ = Method::BruteForce;
  std::size_t inputCount_ = 0;
  double tolerance_ = 0;
};

}  // namespace collidoscope
