# libFuzzer targets (tests/fuzz/fuzz_*.cpp), built when the project is
# configured with -DCOLLIDOSCOPE_FUZZ=ON and clang:
#
#   cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
#         -DCOLLIDOSCOPE_FUZZ=ON -DCOLLIDOSCOPE_BUILD_TESTS=OFF
#   cmake --build build/fuzz --target collidoscope_fuzzers
#
# scripts/fuzz.mjs does both and runs the targets. The library is compiled
# again for the fuzzers (collidoscope_fuzzlib) with AddressSanitizer,
# UndefinedBehaviorSanitizer and libFuzzer's coverage instrumentation: the
# main `collidoscope` target has none, and a fuzzer only explores the code it
# can see branch coverage of.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "COLLIDOSCOPE_FUZZ needs clang (configure with -DCMAKE_CXX_COMPILER=clang++)")
endif()

# Any undefined behaviour aborts (no recovery), so the fuzzer records it as a
# crash; frame pointers give readable stacks in ASan reports.
set(COLLIDOSCOPE_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)

add_library(collidoscope_fuzzlib STATIC ${COLLIDOSCOPE_SOURCES})
target_include_directories(collidoscope_fuzzlib PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}/wasm/include")
target_compile_features(collidoscope_fuzzlib PUBLIC cxx_std_17)
target_compile_options(collidoscope_fuzzlib PUBLIC ${COLLIDOSCOPE_SANITIZE_FLAGS})
# Edge coverage for the library, without comparison tracing: the geometry
# compares doubles in every loop (EPA's face scans), where trace-cmp costs
# half the run time and guides nothing; string compares (scene keys) are
# still seen through libFuzzer's memcmp/strcmp hooks.
target_compile_options(collidoscope_fuzzlib PRIVATE -fsanitize=fuzzer-no-link -fno-sanitize-coverage=trace-cmp)
target_link_options(collidoscope_fuzzlib PUBLIC -fsanitize=address,undefined)

file(GLOB COLLIDOSCOPE_FUZZ_SOURCES CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/tests/fuzz/fuzz_*.cpp")
add_custom_target(collidoscope_fuzzers)
foreach(src ${COLLIDOSCOPE_FUZZ_SOURCES})
  get_filename_component(name "${src}" NAME_WE)
  add_executable(${name} "${src}")
  # tests/cpp for reference.h (independent closed-form support values).
  target_include_directories(${name} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/tests/fuzz" "${CMAKE_CURRENT_SOURCE_DIR}/tests/cpp")
  target_compile_options(${name} PRIVATE -fsanitize=fuzzer)
  if(NOT name STREQUAL "fuzz_scene")
    # The geometry targets instantiate GJK/EPA/hull templates in their own
    # translation unit: no comparison tracing there either (see above).
    target_compile_options(${name} PRIVATE -fno-sanitize-coverage=trace-cmp)
  endif()
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  target_link_libraries(${name} PRIVATE collidoscope_fuzzlib)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/fuzz")
  add_dependencies(collidoscope_fuzzers ${name})
endforeach()

# fuzz_hull_full: the hull target on any doubles (fuzz_hull.cpp documents
# the two domains). Known to fail today; scripts/fuzz.mjs runs it only when
# asked and replays its recorded failures (tests/fuzz/known/).
add_executable(fuzz_hull_full "${CMAKE_CURRENT_SOURCE_DIR}/tests/fuzz/fuzz_hull.cpp")
target_compile_definitions(fuzz_hull_full PRIVATE COLLIDOSCOPE_FUZZ_HULL_FULL)
target_include_directories(fuzz_hull_full PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/tests/fuzz" "${CMAKE_CURRENT_SOURCE_DIR}/tests/cpp")
target_compile_options(fuzz_hull_full PRIVATE -fsanitize=fuzzer -fno-sanitize-coverage=trace-cmp)
target_link_options(fuzz_hull_full PRIVATE -fsanitize=fuzzer)
target_link_libraries(fuzz_hull_full PRIVATE collidoscope_fuzzlib)
set_target_properties(fuzz_hull_full PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/fuzz")
add_dependencies(collidoscope_fuzzers fuzz_hull_full)
