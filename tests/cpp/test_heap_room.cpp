// The heap check every sized build runs before allocating (heap_room.h):
// sizes the heap cannot give, or that are no sizes at all, are refused, and
// a refusal leaves the next check answering as before.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "collidoscope/heap_room.h"

namespace collidoscope {
namespace {

TEST(HeapRoom, GivesWhatMallocCanAndRefusesMoreThanWasmCanAddress) {
  EXPECT_TRUE(heapHasRoom(0));
  EXPECT_TRUE(heapHasRoom(1 << 20));
  // 4 GiB: more than wasm32 can address, refused natively too, without asking malloc.
  EXPECT_FALSE(heapHasRoom(4294967296.0));
  EXPECT_FALSE(heapHasRoom(std::ldexp(1.0, 62)));
  // After a refusal (which gives up the error reserve) the next check takes it back and answers as before.
  EXPECT_TRUE(heapHasRoom(1 << 20));
}

TEST(HeapRoom, RefusesSizesThatAreNotSizes) {
  EXPECT_FALSE(heapHasRoom(-1));
  EXPECT_FALSE(heapHasRoom(std::nan("")));
  EXPECT_FALSE(heapHasRoom(std::numeric_limits<double>::infinity()));
  EXPECT_FALSE(heapHasRoom(static_cast<double>(std::numeric_limits<std::size_t>::max())));
}

TEST(HeapRoom, MessageNamesTheWorkAndItsSizeInMegabytes) {
  // 153.6 MB rounds up to 154.
  const std::string m = outOfMemoryMessage("a polytope of 100000 points", 1536.0 * 100000);
  EXPECT_EQ(m.rfind("a polytope of 100000 points needs about 154 MB of memory at its peak, more than is left", 0), 0u) << m;
  // Below a megabyte in KB, at least 1.
  EXPECT_EQ(outOfMemoryMessage("a new world", 2500).rfind("a new world needs about 3 KB of memory", 0), 0u);
  EXPECT_EQ(outOfMemoryMessage("one more shape", 0).rfind("one more shape needs about 1 KB of memory", 0), 0u);
}

}  // namespace
}  // namespace collidoscope
