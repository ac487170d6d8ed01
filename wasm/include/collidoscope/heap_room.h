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
#include <vector>

namespace collidoscope {

struct SceneError;
struct ShapeError;

// The error code of a build refused for want of memory.
constexpr const char* kOutOfMemoryCode = "out-of-memory";

// v.reserve(n), kept out of line: one copy per element type in the whole
// module (a world's growth reserves up to sixteen arrays at once; each reserve
// written out would be a copy of the vector's growth code in the download).
template <class T>
[[gnu::noinline]] void reserveExactly(std::vector<T>& v, std::size_t n) {
  v.reserve(n);
}

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

// The sentence of an out-of-memory error: "<what><count><unit> needs about
// N MB of memory at its peak, more than is left …" (KB below a megabyte; no
// count when it is negative), e.g. what "a mesh of ", count 5000, unit
// " triangles". Written by one function for every check, so that the checks
// themselves stay a call each (the default flavour is a size-budgeted download).
std::string outOfMemoryMessage(double bytes, const char* what, double count = -1, const char* unit = "");

// heapHasRoom(bytes); when it is false, *err is the kOutOfMemoryCode error
// naming `field`, with outOfMemoryMessage's sentence. The ShapeError form
// (for the shape builders) sets its outOfMemory flag.
bool heapHasRoom(double bytes, SceneError* err, const char* field, const char* what, double count = -1,
                 const char* unit = "");
bool heapHasRoom(double bytes, ShapeError* err, const char* field, const char* what, double count = -1,
                 const char* unit = "");

}  // namespace collidoscope
