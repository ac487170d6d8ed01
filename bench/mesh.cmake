# Included by CMakeLists.txt inside if(COLLIDOSCOPE_BENCH). One target:
#
#   collidoscope_mesh_bench   bench/mesh_bench.cpp: OBB tree build and closest-hit
#                             ray casts against brute force, 1k–1M triangles
#
# Run it by hand: build/bench/collidoscope_mesh_bench [--quick]
add_executable(collidoscope_mesh_bench "${CMAKE_CURRENT_LIST_DIR}/mesh_bench.cpp")
target_link_libraries(collidoscope_mesh_bench PRIVATE collidoscope)
