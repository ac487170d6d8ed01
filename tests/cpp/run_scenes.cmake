# collidoscope_run_scenes (tests/tools/run_scenes.cpp): scenes in, the native
# build's answers and traces out, for tests/js/native-wasm.test.ts.
add_executable(collidoscope_run_scenes "${CMAKE_CURRENT_SOURCE_DIR}/tests/tools/run_scenes.cpp")
target_link_libraries(collidoscope_run_scenes PRIVATE collidoscope)
