// The mesh shape's deferred builds (mesh_shape.h "What is built when"):
// making a mesh builds only what ray casts read; the OBB hierarchy is built
// by the first entry point that needs it, the report on its first read.
//
//   * the lazily built tree equals buildObbTree's (obbtree.h) bit for bit,
//     node by node, on meshes with mean and median splits and degenerate
//     triangles: the reference is the eager build, run separately;
//   * the report equals validateMesh's own (mesh.h), found independently;
//   * ray casts (single, batch in coherent order, scene, world) never build
//     the tree, and a batch in coherent order answers what the rays answer
//     one by one (the order's box comes from the ray layout);
//   * every other entry point builds it before its query runs (the
//     registry's queries, batches and contacts, the scene runner, the
//     obbtree view, compounds against a mesh, a world's add), so no query
//     reaches an unbuilt tree (meshTreeLateBuilds stays where it was), and
//     the answers equal those on a mesh prepared beforehand.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/compound.h"
#include "collidoscope/mesh_shape.h"
#include "collidoscope/obbtree.h"
#include "collidoscope/ray_order.h"
#include "collidoscope/scene.h"
#include "collidoscope/world.h"
#include "mesh_gen.h"

namespace collidoscope {
namespace {

using api::Kind;
using api::Registry;
using api::World;

template <class T>
bool sameBits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

bool sameVec(const Vec3& a, const Vec3& b) { return sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z); }

Shape meshShape(const TriangleMesh& m) {
  Shape s;
  ShapeError err;
  EXPECT_TRUE(makeMeshShape(m, &s, &err)) << err.field << ": " << err.message;
  return s;
}

// Meshes whose trees take mean and median splits, with degenerate and duplicate triangles.
std::vector<TriangleMesh> sampleMeshes() {
  meshgen::Rng rng(1807);
  std::vector<TriangleMesh> out = {meshgen::torusOfAbout(5000), meshgen::randomSoup(rng, 3000, 1, 0.1),
                                   meshgen::sliverSoup(rng, 800, 1), meshgen::icosphere(3),
                                   meshgen::coplanarStack(rng, 200, 0.5, 3)};
  TriangleMesh withDegenerate = meshgen::grid(12);
  withDegenerate.vertices.push_back(withDegenerate.vertices[0]);
  const int last = static_cast<int>(withDegenerate.vertices.size()) - 1;
  withDegenerate.triangles.push_back({0, last, 1});  // two corners at one point: no normal
  withDegenerate.triangles.push_back(withDegenerate.triangles[3]);  // a duplicate
  out.push_back(withDegenerate);
  return out;
}

TEST(MeshLazy, TheLazyTreeIsTheEagerTreeBitForBit) {
  for (const TriangleMesh& m : sampleMeshes()) {
    ObbTree eager;
    ShapeError err;
    ASSERT_TRUE(buildObbTree(m, ObbTreeSettings{}, &eager, &err)) << err.message;
    const Shape s = meshShape(m);
    ASSERT_FALSE(s.meshData->treeBuilt());
    EXPECT_TRUE(s.meshData->forRays().nodes.empty());
    const ObbTree& lazy = s.meshData->buildTree();
    ASSERT_TRUE(s.meshData->treeBuilt());
    ASSERT_EQ(lazy.nodes.size(), eager.nodes.size());
    EXPECT_EQ(lazy.depth, eager.depth);
    EXPECT_EQ(lazy.order, eager.order);
    EXPECT_TRUE(sameBits(lazy.scale, eager.scale));
    ASSERT_EQ(lazy.normals.size(), eager.normals.size());
    for (std::size_t t = 0; t < lazy.normals.size(); ++t) ASSERT_TRUE(sameVec(lazy.normals[t], eager.normals[t])) << t;
    int mean = 0, median = 0;
    for (std::size_t i = 0; i < lazy.nodes.size(); ++i) {
      const ObbTreeNode &a = lazy.nodes[i], &b = eager.nodes[i];
      ASSERT_TRUE(sameVec(a.box.center, b.box.center) && sameVec(a.box.halfExtents, b.box.halfExtents) &&
                  sameVec(a.box.axes[0], b.box.axes[0]) && sameVec(a.box.axes[1], b.box.axes[1]) &&
                  sameVec(a.box.axes[2], b.box.axes[2]))
          << "node " << i;
      ASSERT_TRUE(sameBits(a.splitValue, b.splitValue) && a.first == b.first && a.count == b.count &&
                  a.right == b.right && a.splitAxis == b.splitAxis && a.split == b.split)
          << "node " << i;
      mean += a.split == ObbSplit::Mean;
      median += a.split == ObbSplit::Median;
    }
    EXPECT_GT(mean, 0);
    // The ray layout: the same build from the same normals.
    const RayTree &ra = lazy.rays, &rb = eager.rays;
    EXPECT_EQ(ra.triangles, rb.triangles);
    EXPECT_EQ(ra.root, rb.root);
    EXPECT_EQ(ra.floatCorners, rb.floatCorners);
    ASSERT_EQ(ra.nodes.size(), rb.nodes.size());
    EXPECT_EQ(std::memcmp(ra.nodes.data(), rb.nodes.data(), ra.nodes.size() * sizeof(RayNode)), 0);
    EXPECT_EQ(std::memcmp(ra.rootBox, rb.rootBox, sizeof ra.rootBox), 0);
    // A second call builds nothing more: the same nodes, in place.
    EXPECT_EQ(&s.meshData->buildTree().nodes[0], &lazy.nodes[0]);
    (void)median;
  }
}

TEST(MeshLazy, TheReportIsFoundOnFirstReadAndEqualsValidation) {
  for (const TriangleMesh& m : sampleMeshes()) {
    MeshReport reference;
    ShapeError err;
    ASSERT_TRUE(validateMesh(m, &err, &reference));
    const Shape s = meshShape(m);
    const MeshReport& r = s.meshData->report();
    EXPECT_EQ(r.degenerate, reference.degenerate);
    EXPECT_EQ(r.duplicates, reference.duplicates);
    EXPECT_EQ(&s.meshData->report(), &r);
    EXPECT_FALSE(s.meshData->treeBuilt());  // the report needs only the normals
  }
  // The sample with a degenerate triangle and a duplicate reports both.
  const Shape s = meshShape(sampleMeshes().back());
  EXPECT_EQ(s.meshData->report().degenerate.size(), 1u);
  EXPECT_EQ(s.meshData->report().duplicates.size(), 1u);
}

// Posed input of one query (identity poses unless set).
struct Input {
  double in[api::kInputSize] = {};
  Input() { in[6] = in[13] = 1; }
};

TEST(MeshLazy, RayCastsNeverBuildTheTree) {
  // Large enough for the batch's coherent order (kRayOrderMinTriangles).
  const TriangleMesh m = meshgen::torusOfAbout(40000);
  ASSERT_GE(m.triangles.size(), kRayOrderMinTriangles);
  Registry reg;
  SceneError err;
  const int h = reg.add(meshShape(m), &err);
  ASSERT_GT(h, 0) << err.message;
  const Shape& s = *reg.find(h);
  meshgen::Rng rng(18);
  const int n = 300;
  std::vector<double> extras(static_cast<std::size_t>(api::kExtraSize * n));
  for (int q = 0; q < n; ++q) {
    const Vec3 o = rng.unit() * 4, d = rng.inCube(1) - o;
    const double v[7] = {o.x, o.y, o.z, d.x, d.y, d.z, 1e9};
    std::memcpy(&extras[static_cast<std::size_t>(api::kExtraSize * q)], v, sizeof v);
  }
  const double pose[7] = {0.25, -0.5, 0.125, 0, std::sin(0.2), 0, std::cos(0.2)};
  const int stride = api::kResultStride[static_cast<int>(Kind::Raycast)];
  std::vector<std::uint32_t> pairs(n, 0);
  std::vector<double> ordered(static_cast<std::size_t>(stride * n)), plain(ordered.size()), one(ordered.size());
  std::vector<std::uint64_t> scratch(2 * static_cast<std::size_t>(n));
  std::vector<int> featOrdered(2 * n), featPlain(2 * n);
  ASSERT_TRUE(reg.batch(Kind::Raycast, &h, 1, pose, pairs.data(), n, extras.data(), nullptr, ordered.data(), &err,
                        featOrdered.data(), nullptr, scratch.data()))
      << err.message;
  ASSERT_TRUE(reg.batch(Kind::Raycast, &h, 1, pose, pairs.data(), n, extras.data(), nullptr, plain.data(), &err,
                        featPlain.data()))
      << err.message;
  int hits = 0;
  for (int q = 0; q < n; ++q) {
    Input x;
    std::memcpy(x.in, pose, sizeof pose);
    std::memcpy(x.in + 2 * api::kPoseSize, &extras[static_cast<std::size_t>(api::kExtraSize * q)],
                sizeof(double) * 7);
    ASSERT_TRUE(reg.query(Kind::Raycast, h, 0, x.in, nullptr, &one[static_cast<std::size_t>(stride * q)], &err));
    hits += one[static_cast<std::size_t>(stride * q)] != 0;
  }
  EXPECT_GT(hits, n / 2);
  EXPECT_EQ(std::memcmp(ordered.data(), one.data(), sizeof(double) * ordered.size()), 0);
  EXPECT_EQ(std::memcmp(plain.data(), one.data(), sizeof(double) * plain.size()), 0);
  EXPECT_EQ(featOrdered, featPlain);
  // The scene runner's ray cast.
  std::string sceneJson, json;
  Input x;
  std::memcpy(x.in + 2 * api::kPoseSize, extras.data(), sizeof(double) * 7);
  ASSERT_TRUE(reg.scene(Kind::Raycast, h, 0, x.in, &sceneJson, &err)) << err.message;
  Scene scene;
  ASSERT_TRUE(parseScene(sceneJson, &scene, &err)) << err.message;
  ASSERT_TRUE(runScene(scene, false, &json, &err)) << err.message;
  ASSERT_TRUE(runScene(scene, true, &json, &err)) << err.message;
  EXPECT_FALSE(scene.shapes[0].meshData->treeBuilt());  // the scene's own copy of the mesh
  EXPECT_FALSE(s.meshData->treeBuilt());
}

TEST(MeshLazy, EveryOtherEntryPointBuildsTheTreeFirst) {
  const TriangleMesh m = meshgen::torusOfAbout(2000);
  const long late = meshTreeLateBuilds();
  const Shape ball = Shape::sphere(0.3);
  Input x;
  x.in[api::kPoseSize] = 1.1;  // the ball on the torus's tube
  x.in[2 * api::kPoseSize] = 0.05;  // a contact margin, a point's x
  x.in[2 * api::kPoseSize + 3] = -1;  // shapecast: B moves towards the tube
  double out[api::kMaxResultStride], contacts[api::kContactsHeader + 64 * api::kContactSize];
  SceneError err;
  // Single queries, and their answers on a mesh prepared beforehand.
  for (Kind kind : {Kind::Intersect, Kind::Distance, Kind::Shapecast, Kind::Project}) {
    Registry reg, prepared;
    const int h = reg.add(meshShape(m), &err), b = reg.add(ball, &err);
    const Shape pre = meshShape(m);
    ASSERT_TRUE(prepareMeshTree(pre, "shape", &err));
    ASSERT_TRUE(pre.meshData->treeBuilt());
    const int hp = prepared.add(pre, &err), bp = prepared.add(ball, &err);
    ASSERT_FALSE(reg.find(h)->meshData->treeBuilt());
    ASSERT_TRUE(reg.query(kind, h, b, x.in, nullptr, out, &err)) << err.message;
    EXPECT_TRUE(reg.find(h)->meshData->treeBuilt()) << api::kindName(kind);
    double ref[api::kMaxResultStride];
    ASSERT_TRUE(prepared.query(kind, hp, bp, x.in, nullptr, ref, &err)) << err.message;
    const int stride = api::kResultStride[static_cast<int>(kind)];
    EXPECT_EQ(std::memcmp(out, ref, sizeof(double) * stride), 0) << api::kindName(kind);
    // B the mesh.
    Registry swapped;
    const int sb = swapped.add(ball, &err), sh = swapped.add(meshShape(m), &err);
    if (kind != Kind::Project) {
      ASSERT_TRUE(swapped.query(kind, sb, sh, x.in, nullptr, out, &err)) << err.message;
      EXPECT_TRUE(swapped.find(sh)->meshData->treeBuilt()) << api::kindName(kind);
    }
  }
  EXPECT_EQ(meshTreeLateBuilds(), late) << "single queries";
  // Contacts, and batches.
  {
    Registry reg;
    const int h = reg.add(meshShape(m), &err), b = reg.add(ball, &err);
    ASSERT_TRUE(reg.contacts(b, h, x.in, contacts, 64, &err)) << err.message;
    EXPECT_GT(contacts[0], 0);
    EXPECT_TRUE(reg.find(h)->meshData->treeBuilt());
  }
  for (Kind kind : {Kind::Intersect, Kind::Distance, Kind::Shapecast, Kind::Project}) {
    Registry reg;
    const int handles[2] = {reg.add(ball, &err), reg.add(meshShape(m), &err)};
    const double poses[14] = {1.1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1};
    const std::uint32_t pairs[2] = {kind == Kind::Project ? 1u : 0u, 1};
    double extras[api::kExtraSize] = {0.05, 0, 0, -1, 0, 0, 0};
    ASSERT_TRUE(reg.batch(kind, handles, 2, poses, pairs, 1, extras, nullptr, out, &err)) << err.message;
    EXPECT_TRUE(reg.find(handles[1])->meshData->treeBuilt()) << api::kindName(kind);
  }
  {
    Registry reg;
    const int handles[2] = {reg.add(ball, &err), reg.add(meshShape(m), &err)};
    const double poses[14] = {1.1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1};
    const std::uint32_t pairs[2] = {1, 0};
    const double margins[1] = {0.05};
    std::vector<double> records(64 * api::kContactSize);
    std::uint32_t offsets[2];  // n + 1
    double perPair[2];
    ASSERT_TRUE(api::contactsBatch(reg, handles, 2, poses, pairs, 1, margins, records.data(), 64, offsets, perPair,
                                   &err))
        << err.message;
    EXPECT_TRUE(reg.find(handles[1])->meshData->treeBuilt());
  }
  EXPECT_EQ(meshTreeLateBuilds(), late) << "contacts and batches";
  // The scene runner: pair queries, project, the obbtree view, a compound against the mesh.
  for (QueryKind query : {QueryKind::Intersect, QueryKind::Distance, QueryKind::Contacts, QueryKind::ObbTree}) {
    Scene scene;
    scene.shapes = {meshShape(m), ball};
    scene.shapes[1].pose.position = {1.1, 0, 0};
    scene.query = query;
    std::string json;
    ASSERT_TRUE(runScene(scene, false, &json, &err)) << queryName(query) << ": " << err.message;
    EXPECT_TRUE(scene.shapes[0].meshData->treeBuilt()) << queryName(query);
  }
  {
    Scene scene;
    scene.shapes = {meshShape(m)};
    scene.query = QueryKind::Project;
    scene.point = {1.1, 0.5, 0};
    std::string json;
    ASSERT_TRUE(runScene(scene, false, &json, &err)) << err.message;
    EXPECT_TRUE(scene.shapes[0].meshData->treeBuilt());
  }
  {
    Shape compound;
    ShapeError se;
    ASSERT_TRUE(makeCompoundShape({Shape::sphere(0.2), Shape::box({0.1, 0.2, 0.1})}, &compound, &se)) << se.message;
    compound.pose.position = {1.1, 0, 0};
    Scene scene;
    scene.shapes = {compound, meshShape(m)};
    scene.query = QueryKind::Distance;
    std::string json;
    ASSERT_TRUE(runScene(scene, false, &json, &err)) << err.message;
    EXPECT_TRUE(scene.shapes[1].meshData->treeBuilt());
    Registry reg;
    const int c = reg.add(compound, &err), h = reg.add(meshShape(m), &err);
    ASSERT_TRUE(reg.query(Kind::Intersect, c, h, x.in, nullptr, out, &err)) << err.message;
    EXPECT_TRUE(reg.find(h)->meshData->treeBuilt());
  }
  EXPECT_EQ(meshTreeLateBuilds(), late) << "scenes";
  // A world builds it when the mesh body is added; its steps then find it built.
  {
    Registry reg;
    const int h = reg.add(meshShape(m), &err), b = reg.add(ball, &err);
    World world(&reg);
    const double at[7] = {0, 0, 0, 0, 0, 0, 1}, above[7] = {1, 0.5, 0, 0, 0, 0, 1};
    ASSERT_FALSE(reg.find(h)->meshData->treeBuilt());
    ASSERT_GT(world.add(h, at, &err), 0) << err.message;
    EXPECT_TRUE(reg.find(h)->meshData->treeBuilt());
    const int body = world.add(b, above, &err);
    ASSERT_TRUE(world.setMass(body, 1, &err)) << err.message;
    StepSettings settings;
    for (int i = 0; i < 30; ++i) ASSERT_TRUE(world.step(settings, &err)) << err.message;
  }
  EXPECT_EQ(meshTreeLateBuilds(), late) << "a query reached a mesh whose tree no entry point built";
}

// The library's own late build (a missed entry point) still answers right.
// (A debug build asserts there instead.)
#ifdef NDEBUG
TEST(MeshLazy, AQueryOnAnUnpreparedTreeBuildsItLateAndCountsIt) {
  const TriangleMesh m = meshgen::torusOfAbout(1000);
  const Shape s = meshShape(m);
  const long late = meshTreeLateBuilds();
  ASSERT_FALSE(s.meshData->treeBuilt());
  EXPECT_FALSE(s.meshData->tree().nodes.empty());
  EXPECT_TRUE(s.meshData->treeBuilt());
  EXPECT_EQ(meshTreeLateBuilds(), late + 1);
  s.meshData->tree();
  EXPECT_EQ(meshTreeLateBuilds(), late + 1);
}
#endif

}  // namespace
}  // namespace collidoscope
