// collidoscope — room on the heap for a build (see heap_room.h).
#include "collidoscope/heap_room.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "collidoscope/scene.h"
#include "collidoscope/shapes.h"

namespace collidoscope {

namespace {

// Called through a volatile pointer: a compiler may drop a malloc whose block
// is only freed, and assume it succeeded, which is the answer wanted here.
void* (*volatile allocate)(std::size_t) = std::malloc;

// A refusal's own words are allocated after the check (the message, the
// error's JSON, the reply string: a few hundred bytes), so a block is held
// back from the start and given up when a check fails: the error then has
// room even when the caller's data filled memory to the last byte. The next
// check takes it back first, and passes nothing while it cannot: its room
// stays kept for errors.
constexpr std::size_t kErrorReserveBytes = 64 * 1024;
void* reserve = allocate(kErrorReserveBytes);

// wasm32's whole address space: no build of the library's limits comes near
// it, natively either, and nothing above it is asked of malloc (a
// sanitizer's malloc stops the program on a request it cannot meet).
constexpr double kLargestBuild = 4294967296.0 - 2 * kErrorReserveBytes;

}  // namespace

bool heapHasRoom(double bytes) {
  if (reserve == nullptr) reserve = allocate(kErrorReserveBytes);
  void* p = nullptr;
  if (reserve != nullptr && bytes >= 0 && bytes <= kLargestBuild)
    p = allocate(static_cast<std::size_t>(std::ceil(bytes)) + 1);
  if (p == nullptr) {
    std::free(reserve);
    reserve = nullptr;
    return false;
  }
  std::free(p);
  return true;
}

std::string outOfMemoryMessage(double bytes, const char* what, double count, const char* unit) {
  const bool kb = bytes < 1e6;
  const double n = std::max(1.0, std::ceil(bytes / (kb ? 1e3 : 1e6)));
  // The longest sentence (a prefix, 20 digits, a unit and the advice) is well under this.
  char text[384];
  char amount[48] = "";
  if (count >= 0) std::snprintf(amount, sizeof amount, "%.0f%s", count, unit);
  std::snprintf(text, sizeof text,
                "%s%s needs about %.0f %s of memory at its peak, more than is left (wasm memory grows to 2 GB at "
                "most): dispose shapes, meshes, worlds and batches that are no longer needed",
                what, amount, n, kb ? "KB" : "MB");
  return text;
}

bool heapHasRoom(double bytes, SceneError* err, const char* field, const char* what, double count, const char* unit) {
  if (heapHasRoom(bytes)) return true;
  // Field by field: a brace-initialized SceneError would build three strings here and move them.
  err->code = kOutOfMemoryCode;
  err->field = field;
  err->message = outOfMemoryMessage(bytes, what, count, unit);
  return false;
}

bool heapHasRoom(double bytes, ShapeError* err, const char* field, const char* what, double count, const char* unit) {
  if (heapHasRoom(bytes)) return true;
  err->field = field;
  err->message = outOfMemoryMessage(bytes, what, count, unit);
  err->outOfMemory = true;
  return false;
}

}  // namespace collidoscope
