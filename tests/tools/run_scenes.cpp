// collidoscope_run_scenes: the native build's answer to scenes, for the test
// that the same scene gives the same bits natively and in wasm
// (tests/js/native-wasm.test.ts): a link must replay the same steps in any
// build.
//
//   collidoscope_run_scenes < scenes.jsonl
//
// Reads one scene per line (the scene format's JSON) and writes two lines per
// scene: its run() answer and its trace, each the JSON runScene writes
// (numbers with 17 significant digits), or "error <field>: <message>" when
// the scene is refused. Nothing else is printed, so line 2k and 2k + 1 belong
// to input line k.
#include <iostream>
#include <string>

#include "collidoscope/scene.h"

namespace {

void answer(const collidoscope::Scene& scene, bool trace) {
  std::string json;
  collidoscope::SceneError err;
  if (collidoscope::runScene(scene, trace, &json, &err))
    std::cout << json << '\n';
  else
    std::cout << "error " << err.field << ": " << err.message << '\n';
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    collidoscope::Scene scene;
    collidoscope::SceneError err;
    if (!collidoscope::parseScene(line, &scene, &err)) {
      const std::string refused = "error " + err.field + ": " + err.message + '\n';
      std::cout << refused << refused;
      continue;
    }
    answer(scene, false);
    answer(scene, true);
  }
  return 0;
}
