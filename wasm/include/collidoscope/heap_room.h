// collidoscope — room on the heap for a build whose size the caller chose.
//
// The wasm module is compiled without exceptions: an allocation that fails
// inside a build (std::vector growing, a shape's tree) aborts the module,
// and everything in it is lost. A plain malloc, though, fails cleanly
// (wasm memory grows up to 2 GB, then malloc returns null). So every entry
// point that allocates in proportion to its input first asks for the most
// that build will hold at once, in one block, and gives it straight back:
// when the block came, the build's smaller pieces fit where it was; when it
// did not, the entry point refuses with the error code kOutOfMemoryCode and
// the module stays as it was. A refusal's message needs a little memory
// too: 64 KB are held back for it, given up by the check that fails and
// taken back by the next one, which passes nothing until it can. Natively the same checks run (malloc seldom
// fails there; where a check fails, the answer is the same error).
//
// The peaks per element are measured (the growth of the wasm memory while
// building, rounded up), for the worst inputs: a check may refuse a build
// that would just have fitted, never let one through that cannot.
#pragma once

#include <cstddef>
#include <string>

namespace collidoscope {

// The error code of a build refused for want of memory.
constexpr const char* kOutOfMemoryCode = "out-of-memory";

// A mesh's triangles and OBB tree while the tree is built (≈ 640 bytes a
// triangle for 10⁵ to 4·10⁵ triangles, 442 kept), and its vertices. The
// object API's mesh() checks the same figures before copying its arrays
// (MESH_PEAK_BYTES_PER_* in web/lib/objects.ts).
constexpr double kMeshPeakBytesPerTriangle = 768;
constexpr double kMeshPeakBytesPerVertex = 64;
// A polytope's support walk (polytope_support.h) or a compound child's SAT
// hull while its hull is built, worst when every point is a vertex (10⁶
// points on a sphere: ≈ 1 470 a point).
constexpr double kPolytopePeakBytesPerPoint = 1536;

// A mesh build's peak (makeMeshShape): its triangles, tree and vertices.
inline double meshPeakBytes(double triangles, double vertices) {
  return kMeshPeakBytesPerTriangle * triangles + kMeshPeakBytesPerVertex * vertices;
}

// Whether malloc can give `bytes` in one block now (taken and freed at
// once). False for a negative or NaN size, and above 4 GiB (wasm32's
// address space) without asking.
bool heapHasRoom(double bytes);

// The sentence of an out-of-memory error: "<what> needs about N MB of
// memory at its peak, more than is left …" (KB below a megabyte).
std::string outOfMemoryMessage(const std::string& what, double bytes);

}  // namespace collidoscope
