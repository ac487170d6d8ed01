// The heap check every sized build runs before allocating (heap_room.h):
// sizes the heap cannot give, or that are no sizes at all, are refused, and
// a refusal leaves the next check answering as before.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "collidoscope/heap_room.h"
#include "collidoscope/scene.h"
#include "collidoscope/shapes.h"

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
  const std::string m = outOfMemoryMessage(1536.0 * 100000, "a polytope of ", 100000, " points");
  EXPECT_EQ(m.rfind("a polytope of 100000 points needs about 154 MB of memory at its peak, more than is left", 0), 0u) << m;
  // Below a megabyte in KB, at least 1; no count when none is given.
  EXPECT_EQ(outOfMemoryMessage(2500, "a new world").rfind("a new world needs about 3 KB of memory", 0), 0u);
  EXPECT_EQ(outOfMemoryMessage(0, "one more shape (", 0, " are live)").rfind("one more shape (0 are live) needs about 1 KB of memory", 0), 0u);
}

TEST(HeapRoom, ARefusalIsAnOutOfMemoryErrorNamingTheField) {
  SceneError se{"invalid-scene", "radius", "stale"};
  EXPECT_TRUE(heapHasRoom(64, &se, "points", "a polytope of ", 4, " points"));
  EXPECT_EQ(se.code, "invalid-scene");  // untouched when there is room
  EXPECT_FALSE(heapHasRoom(4294967296.0, &se, "points", "a polytope of ", 4, " points"));
  EXPECT_EQ(se.code, kOutOfMemoryCode);
  EXPECT_EQ(se.field, "points");
  EXPECT_EQ(se.message.rfind("a polytope of 4 points needs about 4295 MB of memory", 0), 0u) << se.message;
  ShapeError he;
  EXPECT_FALSE(heapHasRoom(-1, &he, "children", "a compound of ", 1, " child"));
  EXPECT_TRUE(he.outOfMemory);
  EXPECT_EQ(he.field, "children");
  EXPECT_EQ(he.message.rfind("a compound of 1 child needs about 1 KB", 0), 0u) << he.message;
}

}  // namespace
}  // namespace collidoscope
