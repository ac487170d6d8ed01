// Native hull timing for bench/hull.mjs: reads a cloud (little-endian
// float64 x, y, z triples) from the file named on the command line, builds
// its hull `warmup` times untimed and then once timed, and prints
//   {"ms": <build time>, "vertices": <hull vertex count>, "triangles": <count>}
// bench/hull.mjs calls it once per repeat, interleaved with three.js.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "collidoscope/hull.h"

int main(int argc, char** argv) {
  using namespace collidoscope;
  if (argc < 2) {
    std::fprintf(stderr, "usage: collidoscope_hull_timing CLOUD.f64 [warmup]\n");
    return 2;
  }
  const int warmup = argc > 2 ? std::atoi(argv[2]) : 1;
  std::FILE* f = std::fopen(argv[1], "rb");
  if (!f) {
    std::fprintf(stderr, "cannot open %s\n", argv[1]);
    return 1;
  }
  std::vector<double> raw;
  double buf[3 * 1024];
  std::size_t got;
  while ((got = std::fread(buf, sizeof(double), 3 * 1024, f)) > 0) raw.insert(raw.end(), buf, buf + got);
  std::fclose(f);
  std::vector<Vec3> pts(raw.size() / 3);
  for (std::size_t i = 0; i < pts.size(); ++i) pts[i] = {raw[3 * i], raw[3 * i + 1], raw[3 * i + 2]};
  ConvexHull h;
  HullError err;
  for (int i = 0; i < warmup; ++i) buildHull(pts, &h, &err);
  const auto t0 = std::chrono::steady_clock::now();
  const bool ok = buildHull(pts, &h, &err);
  const auto t1 = std::chrono::steady_clock::now();
  if (!ok) {
    std::fprintf(stderr, "%s: %s\n", err.field.c_str(), err.message.c_str());
    return 1;
  }
  std::printf("{\"ms\": %.6f, \"vertices\": %zu, \"triangles\": %zu}\n",
              std::chrono::duration<double, std::milli>(t1 - t0).count(), h.vertices.size(), h.triangles.size());
  return 0;
}
