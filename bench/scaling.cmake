# Included by CMakeLists.txt inside if(COLLIDOSCOPE_BENCH). Two targets:
#
#   collidoscope_scaling   bench/scaling.cpp: the scaling experiment of the rigid-body thesis, table 7.1
#                          (triangle pairs, bounding spheres + triangle pairs, GJK on hulls)
#   collidoscope_notrace   bench/notrace_*.cpp: the NoTrace build against hook-free copies of
#                          the headers, made at build time by bench/strip_trace.mjs (needs node)
#
# bench/scaling.mjs builds both and runs them (and objdump on the notrace objects).

set(_cds_bench_dir "${CMAKE_CURRENT_LIST_DIR}")
set(_cds_root "${CMAKE_CURRENT_LIST_DIR}/..")

add_executable(collidoscope_scaling "${_cds_bench_dir}/scaling.cpp")
target_link_libraries(collidoscope_scaling PRIVATE collidoscope)

# ---------------------------------------------------------------- NoTrace vs hook-free
find_program(COLLIDOSCOPE_NODE NAMES node nodejs)
if(NOT COLLIDOSCOPE_NODE)
  message(WARNING "node not found: collidoscope_notrace (hook-free headers made by bench/strip_trace.mjs) is not built")
  return()
endif()

set(_nt_dir "${CMAKE_BINARY_DIR}/notrace")
file(GLOB _nt_headers CONFIGURE_DEPENDS "${_cds_root}/wasm/include/collidoscope/*.h")
add_custom_command(
  OUTPUT "${_nt_dir}/stripped/collidoscope/strip_report.json" "${_nt_dir}/deep/collidoscope/strip_report.json"
  COMMAND "${COLLIDOSCOPE_NODE}" "${_cds_bench_dir}/strip_trace.mjs" "${_cds_root}/wasm/include/collidoscope"
          "${_nt_dir}/stripped/collidoscope"
  COMMAND "${COLLIDOSCOPE_NODE}" "${_cds_bench_dir}/strip_trace.mjs" "${_cds_root}/wasm/include/collidoscope"
          "${_nt_dir}/deep/collidoscope" --deep
  DEPENDS ${_nt_headers} "${_cds_bench_dir}/strip_trace.mjs"
  COMMENT "bench: hook-free copies of the collidoscope headers (bench/strip_trace.mjs)"
  VERBATIM)
add_custom_target(collidoscope_notrace_headers
  DEPENDS "${_nt_dir}/stripped/collidoscope/strip_report.json" "${_nt_dir}/deep/collidoscope/strip_report.json")

# The library sources the benchmark needs, compiled once per variant with the same flags
# (the variant's headers, its namespace), so that no code is shared between variants.
set(_nt_lib_sources
  "${_cds_root}/wasm/src/shapes.cpp" "${_cds_root}/wasm/src/support.cpp"
  "${_cds_root}/wasm/src/polytope_support.cpp" "${_cds_root}/wasm/src/hull.cpp"
  "${_cds_root}/wasm/src/predicates.cpp"
  "${_cds_root}/wasm/src/gjk.cpp" "${_cds_root}/wasm/src/epa.cpp"
  # bakeScale rebuilds a scaled mesh's tree (shapes.cpp → mesh_shape.cpp and what it needs).
  "${_cds_root}/wasm/src/mesh_shape.cpp" "${_cds_root}/wasm/src/mesh.cpp" "${_cds_root}/wasm/src/obbtree.cpp"
  "${_cds_root}/wasm/src/obbtree_rays.cpp"
  "${_cds_root}/wasm/src/obb.cpp" "${_cds_root}/wasm/src/json.cpp"
  # mesh_shape.cpp's heap checks.
  "${_cds_root}/wasm/src/heap_room.cpp"
  "${_cds_root}/wasm/src/portable_math.cpp")
# One translation unit per algorithm (NTB_ALGO = its ntb::Algo): unit-wide inlining
# decisions then depend on that algorithm alone, which keeps the machine-code comparison
# per algorithm meaningful.
set(_nt_tu_sources "")
foreach(k RANGE 7)
  set(_f "${_nt_dir}/algo_${k}.cpp")
  file(CONFIGURE OUTPUT "${_f}" CONTENT "#define NTB_ALGO ${k}\n#include \"${_cds_bench_dir}/notrace_bench.cpp\"\n")
  list(APPEND _nt_tu_sources "${_f}")
endforeach()
# -ffunction-sections: one section per function, so objdump shows each at offset 0.
set(_nt_flags -ffunction-sections)

function(_cds_notrace_variant name include_dir namespace)
  add_library(${name}_lib STATIC ${_nt_lib_sources})
  add_library(${name}_tu OBJECT ${_nt_tu_sources})
  foreach(t ${name}_lib ${name}_tu)
    target_include_directories(${t} PRIVATE "${include_dir}")
    target_compile_features(${t} PRIVATE cxx_std_17)
    target_compile_options(${t} PRIVATE ${_nt_flags})
    if(namespace)
      target_compile_definitions(${t} PRIVATE "collidoscope=${namespace}")
    endif()
    add_dependencies(${t} collidoscope_notrace_headers)
  endforeach()
  set_property(TARGET ${name}_tu APPEND PROPERTY OBJECT_DEPENDS "${_cds_bench_dir}/notrace_bench.cpp" "${_cds_bench_dir}/notrace_api.h")
endfunction()

_cds_notrace_variant(collidoscope_nt_hooked "${_cds_root}/wasm/include" "")
_cds_notrace_variant(collidoscope_nt_stripped "${_nt_dir}/stripped" collidoscope_stripped)
_cds_notrace_variant(collidoscope_nt_deep "${_nt_dir}/deep" collidoscope_deep)

add_executable(collidoscope_notrace "${_cds_bench_dir}/notrace_main.cpp"
  $<TARGET_OBJECTS:collidoscope_nt_hooked_tu> $<TARGET_OBJECTS:collidoscope_nt_stripped_tu>
  $<TARGET_OBJECTS:collidoscope_nt_deep_tu>)
target_compile_features(collidoscope_notrace PRIVATE cxx_std_17)
target_link_libraries(collidoscope_notrace PRIVATE
  collidoscope_nt_hooked_lib collidoscope_nt_stripped_lib collidoscope_nt_deep_lib)

# Where the three benchmark objects are, for the machine-code comparison.
file(GENERATE OUTPUT "${_nt_dir}/objects.txt" CONTENT
  "hooked=$<TARGET_OBJECTS:collidoscope_nt_hooked_tu>
stripped=$<TARGET_OBJECTS:collidoscope_nt_stripped_tu>
deep=$<TARGET_OBJECTS:collidoscope_nt_deep_tu>
hooked_lib=$<TARGET_FILE:collidoscope_nt_hooked_lib>
stripped_lib=$<TARGET_FILE:collidoscope_nt_stripped_lib>
deep_lib=$<TARGET_FILE:collidoscope_nt_deep_lib>
")
