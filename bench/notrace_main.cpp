// Does the NoTrace build cost anything? The same benchmark translation units
// (bench/notrace_bench.cpp, one per algorithm) are linked three times into this binary (see
// bench/notrace_api.h): hooked (the library's headers), stripped (the hooks
// deleted mechanically) and deep (trace-only code outside the hooks deleted
// too). Per algorithm, the three run the same inputs interleaved — the order
// rotates every repeat — after a warm-up; the time of each run is divided by
// its query count, and each repeat gives the ratios hooked/stripped and
// hooked/deep of runs adjacent in time. Prints one JSON object.
//
//   collidoscope_notrace [--quick] [--repeats N] [--ms T]
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "notrace_api.h"

#define NTB_DECLARE_ALL(NS)                                                                                     \
  NTB_DECLARE(NS, notrace_bench_0)                                                                              \
  NTB_DECLARE(NS, notrace_bench_1)                                                                              \
  NTB_DECLARE(NS, notrace_bench_2)                                                                              \
  NTB_DECLARE(NS, notrace_bench_3)                                                                              \
  NTB_DECLARE(NS, notrace_bench_4)                                                                              \
  NTB_DECLARE(NS, notrace_bench_5)                                                                              \
  NTB_DECLARE(NS, notrace_bench_6)                                                                              \
  NTB_DECLARE(NS, notrace_bench_7)
NTB_DECLARE_ALL(collidoscope)
NTB_DECLARE_ALL(collidoscope_stripped)
NTB_DECLARE_ALL(collidoscope_deep)

namespace {

struct Variant {
  const char* name;
  void* (*make)(std::uint64_t, int);
  void (*free)(void*);
  ntb::RunStats (*run)(void*, int);
  std::uint64_t (*inputHash)(const void*);
  std::uint64_t (*resultHash)(const void*);
  int (*count)(const void*);
};

#define NTB_VARIANT(NS, SUB, LABEL)                                                                  \
  Variant {                                                                                          \
    LABEL, [](std::uint64_t s, int c) -> void* { return NS::SUB::makeSuite(s, c); },                 \
        [](void* p) { NS::SUB::freeSuite(static_cast<NS::SUB::Suite*>(p)); },                        \
        [](void* p, int n) { return NS::SUB::run(static_cast<NS::SUB::Suite*>(p), n); },             \
        [](const void* p) { return NS::SUB::inputHash(static_cast<const NS::SUB::Suite*>(p)); },     \
        [](const void* p) { return NS::SUB::resultHash(static_cast<const NS::SUB::Suite*>(p)); },    \
        [](const void* p) { return NS::SUB::queryCount(static_cast<const NS::SUB::Suite*>(p)); }     \
  }
#define NTB_ROW(SUB)                                                                                  \
  {                                                                                                  \
    NTB_VARIANT(collidoscope, SUB, "hooked"), NTB_VARIANT(collidoscope_stripped, SUB, "stripped"),   \
        NTB_VARIANT(collidoscope_deep, SUB, "deep")                                                  \
  }

const char* const kAlgoNames[ntb::kAlgoCount] = {"gjkDistance", "gjkIntersect", "penetration (GJK+EPA)",
                                                 "gjkRayCast",  "chungWangIntersect", "buildHull",
                                                 "satBoxes",    "satHulls"};
const int kCounts[ntb::kAlgoCount] = {810, 810, 405, 900, 810, 12, 1000, 400};

// CPU time of this thread, in seconds: on a shared machine, time the process
// spends preempted is not counted (wall-clock medians drift with the load).
double now() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const std::size_t i = static_cast<std::size_t>(pos);
  const double f = pos - static_cast<double>(i);
  return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

std::string hex(std::uint64_t h) {
  char b[24];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(h));
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  int repeats = 0;
  double targetMs = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc) repeats = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--ms") && i + 1 < argc) targetMs = std::atof(argv[++i]);
  }
  // Many short runs: the ratios of runs adjacent in time, and the minima.
  if (repeats <= 0) repeats = quick ? 21 : 101;
  if (targetMs <= 0) targetMs = quick ? 2 : 3;

  const Variant table[ntb::kAlgoCount][3] = {NTB_ROW(notrace_bench_0), NTB_ROW(notrace_bench_1), NTB_ROW(notrace_bench_2),
                                              NTB_ROW(notrace_bench_3), NTB_ROW(notrace_bench_4), NTB_ROW(notrace_bench_5),
                                              NTB_ROW(notrace_bench_6), NTB_ROW(notrace_bench_7)};
  std::printf("{\"repeats\":%d,\"targetMs\":%g,\"algorithms\":[", repeats, targetMs);
  for (int algo = 0; algo < ntb::kAlgoCount; ++algo) {
    const Variant* variants = table[algo];
    void* suite[3];
    for (int v = 0; v < 3; ++v) suite[v] = variants[v].make(7 + static_cast<std::uint64_t>(algo), kCounts[algo]);
    const int n = variants[0].count(suite[0]);
    bool inputsSame = true;
    for (int v = 1; v < 3; ++v)
      inputsSame = inputsSame && variants[v].inputHash(suite[v]) == variants[0].inputHash(suite[0]) &&
                   variants[v].count(suite[v]) == n;

    // Warm-up (one pass each), then passes per run for ~targetMs.
    for (int v = 0; v < 3; ++v) variants[v].run(suite[v], 1);
    double t0 = now();
    variants[0].run(suite[0], 1);
    const double one = std::max(now() - t0, 1e-7);
    const int passes = std::max(1, static_cast<int>(targetMs * 1e-3 / one + 0.5));

    std::vector<double> perQuery[3], ratioStripped, ratioDeep;
    ntb::RunStats stats[3];
    for (int r = 0; r < repeats; ++r) {
      double t[3];
      for (int k = 0; k < 3; ++k) {
        const int v = (r + k) % 3;  // rotate the order: H S D, S D H, D H S, ...
        t0 = now();
        stats[v] = variants[v].run(suite[v], passes);
        t[v] = now() - t0;
      }
      for (int v = 0; v < 3; ++v) perQuery[v].push_back(t[v] / static_cast<double>(stats[v].queries) * 1e9);
      ratioStripped.push_back(t[0] / t[1]);
      ratioDeep.push_back(t[0] / t[2]);
    }
    bool resultsSame = true, iterationsSame = true;
    for (int v = 1; v < 3; ++v) {
      resultsSame = resultsSame && variants[v].resultHash(suite[v]) == variants[0].resultHash(suite[0]);
      iterationsSame = iterationsSame && stats[v].iterations == stats[0].iterations;
    }
    std::printf("%s{\"name\":\"%s\",\"queries\":%d,\"passes\":%d,\"inputsIdentical\":%s,\"resultsIdentical\":%s,"
                "\"iterationsIdentical\":%s,\"resultHash\":\"%s\",\"iterationsPerQuery\":[%.6g,%.6g,%.6g],"
                "\"nsPerQuery\":{",
                algo ? "," : "", kAlgoNames[algo], n, passes, inputsSame ? "true" : "false",
                resultsSame ? "true" : "false", iterationsSame ? "true" : "false",
                hex(variants[0].resultHash(suite[0])).c_str(),
                static_cast<double>(stats[0].iterations) / static_cast<double>(stats[0].queries),
                static_cast<double>(stats[1].iterations) / static_cast<double>(stats[1].queries),
                static_cast<double>(stats[2].iterations) / static_cast<double>(stats[2].queries));
    for (int v = 0; v < 3; ++v)
      std::printf("%s\"%s\":%.6g", v ? "," : "", variants[v].name, quantile(perQuery[v], 0.5));
    std::printf("},\"minNsPerQuery\":{");
    for (int v = 0; v < 3; ++v)
      std::printf("%s\"%s\":%.6g", v ? "," : "", variants[v].name, quantile(perQuery[v], 0));
    // Ratios: median [quartiles] of the per-repeat ratios, and the ratio of the minima.
    auto ratio = [&](const char* key, const std::vector<double>& x, int v) {
      std::printf(",\"%s\":{\"median\":%.5f,\"q25\":%.5f,\"q75\":%.5f,\"min\":%.5f,\"max\":%.5f,\"ofMinima\":%.5f}",
                  key, quantile(x, 0.5), quantile(x, 0.25), quantile(x, 0.75), quantile(x, 0), quantile(x, 1),
                  quantile(perQuery[0], 0) / quantile(perQuery[v], 0));
    };
    std::printf("}");
    ratio("hookedOverStripped", ratioStripped, 1);
    ratio("hookedOverDeep", ratioDeep, 2);
    std::printf("}");
    std::fflush(stdout);
    for (int v = 0; v < 3; ++v) variants[v].free(suite[v]);
  }
  std::printf("]}\n");
  return 0;
}
