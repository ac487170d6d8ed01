// collidoscope — a coherent order for a batch of rays on one mesh.
//
// Rays of a batch are independent, but consecutive rays of a game's (or a
// benchmark's) batch often go to unrelated parts of a large mesh: each one
// then fetches its own path of tree nodes from memory, which at a million
// triangles (tens of megabytes of ray layout, obbtree_rays.h) is far beyond
// the cache. Tracing the rays sorted by a Morton key of the point where
// each enters the mesh's root box makes neighbours in the order walk mostly
// the same nodes while those are cached. The key only orders the work: each
// answer is written to its own row, so a batch answers exactly what its
// rays answer one by one, bit for bit.
//
// The gain needs the whole run sorted at once: the denser the rays in the
// order, the deeper neighbours share their paths (20 000 random rays on a
// torus of a million triangles: 12–21 % less time sorted whole, at most
// 3 % sorted in chunks of 4 096). So the scratch is the caller's, 2 words per ray,
// reserved with the batch's buffers (Registry::batch's rayOrder), not a
// fixed array on the stack.
#pragma once

#include <cstddef>
#include <cstdint>

#include "collidoscope/obb.h"

namespace collidoscope {

// Fewer rays than this run in the caller's order: sorting them would cost
// more than the few cache misses it saves.
constexpr int kRayOrderMinRays = 64;

// Rays on a mesh of fewer triangles run in the caller's order: its ray
// layout (55–90 bytes per triangle) then stays in the cache anyway, and
// the sorted order reads the rays and writes the answers out of order,
// which costs more than it saves (20 000 rays on a torus of 10 000
// triangles: about 15 % slower sorted; of 100 000: about 12 % faster).
constexpr std::size_t kRayOrderMinTriangles = 32768;

// Most rays one call orders (a ray's index takes the low 22 bits of its item).
constexpr int kRayOrderIndexBits = 22;
constexpr std::int64_t kRayOrderMaxRays = std::int64_t{1} << kRayOrderIndexBits;

// Orders the rays rays[7·i .. 7·i + 6] (origin, direction, maxT: the batch
// layout), 0 ≤ i < count ≤ kRayOrderMaxRays, by the Morton key of where
// each enters box (in the rays' frame; the point for a ray that misses it
// lies on its line, somewhere). items and swap: count words each, the
// scratch; on return rayOfItem(items[k]) is the k-th ray of the order.
// Equal keys keep their input order, so the order is the same on every
// platform. Non-finite numbers get some key (the ray's own query reports
// them).
void coherentRayOrder(const double* rays, std::int64_t count, const Obb& box, std::uint64_t* items,
                      std::uint64_t* swap);

inline std::int64_t rayOfItem(std::uint64_t item) {
  return static_cast<std::int64_t>(item & ((std::uint64_t{1} << kRayOrderIndexBits) - 1));
}

}  // namespace collidoscope
