// The interface between bench/notrace_main.cpp (the driver) and
// bench/notrace_bench.cpp, which is compiled once per algorithm (-DNTB_ALGO)
// and three times over into one binary:
//
//   hooked    against wasm/include (the library as shipped; NoTrace policy)
//   stripped  against a copy with every `if constexpr (Trace::enabled)` hook
//             deleted (bench/strip_trace.mjs), with -Dcollidoscope=collidoscope_stripped
//   deep      stripped plus the trace-only code found outside `if constexpr`
//             (strip_trace.mjs --deep), with -Dcollidoscope=collidoscope_deep
//
// Only plain types cross this interface (the three copies of Vec3 & co. live
// in different namespaces). Each copy generates its inputs from the same seed
// with the same code, so they are identical bit for bit; inputHash() lets the
// driver check that.
#pragma once

#include <cstdint>

namespace ntb {

enum Algo {
  kGjkDistance,
  kGjkIntersect,
  kEpa,
  kRayCast,
  kChungWang,
  kHull,
  kSatBoxes,
  kSatHulls,
  kAlgoCount,
};

struct RunStats {
  std::int64_t queries = 0;     // queries answered in this run (all passes)
  std::int64_t iterations = 0;  // sum of the algorithm's iteration counts (GJK/EPA/CW/ray; hull: vertices)
};

}  // namespace ntb

// The namespace of one algorithm's translation unit (NTB_ALGO = its ntb::Algo).
#define NTB_CAT2(a, b) a##b
#define NTB_CAT(a, b) NTB_CAT2(a, b)
#define NTB_NS NTB_CAT(notrace_bench_, NTB_ALGO)

// The entry points of one copy of one algorithm, in namespace NS::SUB.
#define NTB_DECLARE(NS, SUB)                                                          \
  namespace NS {                                                                      \
  namespace SUB {                                                                     \
  struct Suite;                                                                       \
  Suite* makeSuite(std::uint64_t seed, int count);                                    \
  void freeSuite(Suite* s);                                                           \
  ntb::RunStats run(Suite* s, int passes);                                            \
  std::uint64_t inputHash(const Suite* s);                                            \
  std::uint64_t resultHash(const Suite* s);                                           \
  int queryCount(const Suite* s);                                                     \
  }                                                                                   \
  }
