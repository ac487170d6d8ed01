// The native half of bench/wasm.mjs ("the cost of wasm"): the same shapes,
// poses and queries that the wasm package answers in Node, answered here by
// the same C++ (api::Registry, the code behind the package's object API) in
// a native build, so that wasm time / native time is the price of
// WebAssembly on identical inputs.
//
//   collidoscope_wasm_native INPUT.json [--results]
//
// INPUT.json (written by bench/wasm.mjs into the bench build directory):
//   { "batchN": 10000, "targetMs": 4, "warmupMs": 10,
//     "queries": ["intersect", "distance", "penetration"],
//     "cells": [ { "id": "box/separated",
//                  "shapes": [SHAPE, ...],                 // scene-format shapes, no pose
//                  "instances": [[ia, ib, poseA 7, poseB 7], ...] } ] }
//
// Per cell and query, after a warm-up of `warmupMs`, one sample of
//   single  one Registry::query per instance, in passes over all instances;
//           ns per query
//   batch   Registry::batch over batchN pairs (the instances cycled, two
//           shape slots with their own poses per pair, as the package's
//           batch() gets them); ns per pair
// taken as bench/wasm.mjs takes its own: up to 3 sub-rounds of whole passes
// until `targetMs` each (fewer when one pass is long), the fastest one.
// bench/wasm.mjs runs this program once per repeat, between its own rounds,
// and takes medians over the repeats.
// With --results the answers of the single queries are printed too (17
// significant digits, NaN as null) so that the JS side can check that wasm
// and native give the same bits.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "collidoscope/api.h"
#include "collidoscope/json.h"
#include "collidoscope/scene.h"
#include "collidoscope/shapes.h"

using namespace collidoscope;
using Clock = std::chrono::steady_clock;

namespace {

[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "collidoscope_wasm_native: %s\n", why.c_str());
  std::exit(1);
}

double number(const JsonValue& v, const char* what) {
  if (!v.isNumber()) die(std::string(what) + ": expected a number");
  return v.number;
}

struct Cell {
  std::string id;
  std::vector<int> handles;          // registry handles of the cell's shapes
  std::vector<int> ia, ib;           // per instance: indices into handles
  std::vector<double> inputs;        // per instance: kInputSize doubles (poseA, poseB, unused extra)
  // Batch input: batchN pairs, 2 shape slots each.
  std::vector<int> batchHandles;
  std::vector<double> batchPoses;
  std::vector<std::uint32_t> batchPairs;
};

double elapsedNs(Clock::time_point t0) {
  return std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
}

volatile double g_sink = 0;

void appendNumber(std::string* s, double v) {
  if (!std::isfinite(v)) {
    *s += "null";
    return;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  *s += buf;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: collidoscope_wasm_native INPUT.json [--results]\n");
    return 2;
  }
  const bool withResults = argc > 2 && std::string(argv[2]) == "--results";
  std::ifstream file(argv[1], std::ios::binary);
  if (!file) die(std::string("cannot open ") + argv[1]);
  std::stringstream text;
  text << file.rdbuf();
  JsonValue root;
  std::string why;
  if (!parseJson(text.str(), &root, &why)) die("input: " + why);
  const JsonValue* jn = root.find("batchN");
  const JsonValue* jt = root.find("targetMs");
  const JsonValue* jw = root.find("warmupMs");
  const JsonValue* jq = root.find("queries");
  const JsonValue* jc = root.find("cells");
  if (!jn || !jt || !jw || !jq || !jc || !jq->isArray() || !jc->isArray()) die("input: missing fields");
  const auto batchN = static_cast<std::int64_t>(number(*jn, "batchN"));
  const double targetNs = number(*jt, "targetMs") * 1e6;
  const double warmupNs = number(*jw, "warmupMs") * 1e6;
  std::vector<api::Kind> kinds;
  std::vector<std::string> kindNames;
  for (const JsonValue& q : jq->items) {
    api::Kind k;
    if (!q.isString() || !api::parseKind(q.string, &k)) die("input: unknown query");
    kinds.push_back(k);
    kindNames.push_back(q.string);
  }

  api::Registry registry;
  std::vector<Cell> cells;
  for (const JsonValue& jcell : jc->items) {
    Cell c;
    const JsonValue* id = jcell.find("id");
    const JsonValue* shapes = jcell.find("shapes");
    const JsonValue* inst = jcell.find("instances");
    if (!id || !shapes || !inst || !shapes->isArray() || !inst->isArray()) die("input: bad cell");
    c.id = id->string;
    for (const JsonValue& js : shapes->items) {
      Shape s;
      SceneError err;
      if (!parseShape(js, c.id, &s, &err)) die(c.id + ": " + err.field + ": " + err.message);
      preparePolytopeSupport(&s);  // as the package's constructors do (bindings.cpp, addShape)
      const int h = registry.add(std::move(s), &err);
      if (h == 0) die(err.message);
      c.handles.push_back(h);
    }
    for (const JsonValue& ji : inst->items) {
      if (!ji.isArray() || ji.items.size() != 2 + 2 * api::kPoseSize) die(c.id + ": bad instance");
      c.ia.push_back(static_cast<int>(number(ji.items[0], "ia")));
      c.ib.push_back(static_cast<int>(number(ji.items[1], "ib")));
      for (int k = 0; k < 2 * api::kPoseSize; ++k) c.inputs.push_back(number(ji.items[2 + k], "pose"));
      for (int k = 0; k < api::kExtraSize; ++k) c.inputs.push_back(0);
    }
    const std::size_t m = c.ia.size();
    if (m == 0) die(c.id + ": no instances");
    for (std::int64_t p = 0; p < batchN; ++p) {
      const std::size_t i = static_cast<std::size_t>(p) % m;
      c.batchHandles.push_back(c.handles[c.ia[i]]);
      c.batchHandles.push_back(c.handles[c.ib[i]]);
      const double* in = &c.inputs[i * api::kInputSize];
      c.batchPoses.insert(c.batchPoses.end(), in, in + 2 * api::kPoseSize);
      c.batchPairs.push_back(static_cast<std::uint32_t>(2 * p));
      c.batchPairs.push_back(static_cast<std::uint32_t>(2 * p + 1));
    }
    cells.push_back(std::move(c));
  }

  std::string out = "{\"cells\": [";
  std::vector<double> result(api::kMaxResultStride);
  std::vector<double> batchOut;
  for (std::size_t ci = 0; ci < cells.size(); ++ci) {
    Cell& c = cells[ci];
    const std::size_t m = c.ia.size();
    out += ci ? ",\n" : "\n";
    out += "{\"id\": \"" + c.id + "\"";
    for (std::size_t qi = 0; qi < kinds.size(); ++qi) {
      const api::Kind kind = kinds[qi];
      const int stride = api::kResultStride[static_cast<int>(kind)];
      SceneError err;
      auto pass = [&](std::vector<double>* keep) {
        double sink = 0;
        for (std::size_t i = 0; i < m; ++i) {
          if (!registry.query(kind, c.handles[c.ia[i]], c.handles[c.ib[i]], &c.inputs[i * api::kInputSize], nullptr,
                              result.data(), &err))
            die(c.id + ": " + err.field + ": " + err.message);
          sink += result[0];
          if (keep) keep->insert(keep->end(), result.begin(), result.begin() + stride);
        }
        g_sink = g_sink + sink;
      };
      batchOut.resize(static_cast<std::size_t>(stride * batchN));
      auto runBatch = [&]() {
        if (!registry.batch(kind, c.batchHandles.data(), static_cast<int>(c.batchHandles.size()), c.batchPoses.data(),
                            c.batchPairs.data(), batchN, nullptr, nullptr, batchOut.data(), &err))
          die(c.id + ": batch: " + err.field + ": " + err.message);
        g_sink = g_sink + batchOut[0];
      };
      // Warm-up (and the answers, when asked for).
      std::vector<double> answers;
      auto t0 = Clock::now();
      pass(withResults ? &answers : nullptr);
      while (elapsedNs(t0) < warmupNs) pass(nullptr);
      runBatch();
      // One sample as bench/wasm.mjs takes it: up to 3 sub-rounds of whole passes (calls) until targetNs
      // each, fewer when one pass is long; the fastest sub-round's time per pass.
      auto sample = [&](auto&& fn) {
        double best = 1e300, total = 0;
        for (int sub = 0; sub < 3 && total < 3 * targetNs; ++sub) {
          int passes = 0;
          const auto start = Clock::now();
          double ns;
          do {
            fn();
            ++passes;
            ns = elapsedNs(start);
          } while (ns < targetNs);
          total += ns;
          best = std::min(best, ns / passes);
        }
        return best;
      };
      const double singleNs = sample([&] { pass(nullptr); }) / static_cast<double>(m);
      const double batchNs = sample(runBatch) / static_cast<double>(batchN);
      out += ", \"" + kindNames[qi] + "\": {\"singleNs\": ";
      appendNumber(&out, singleNs);
      out += ", \"batchNs\": ";
      appendNumber(&out, batchNs);
      if (withResults) {
        out += ", \"stride\": " + std::to_string(stride) + ", \"results\": [";
        for (std::size_t k = 0; k < answers.size(); ++k) {
          if (k) out += ",";
          appendNumber(&out, answers[k]);
        }
        out += "]";
      }
      out += "}";
    }
    out += "}";
  }
  out += "\n]}\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}
