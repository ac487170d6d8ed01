# Included by CMakeLists.txt inside if(COLLIDOSCOPE_BENCH). One target:
#
#   collidoscope_mesh_convex_bench   bench/mesh_convex_bench.cpp: mesh–convex intersect,
#                                    distance, contacts and shape cast through the OBB
#                                    tree against brute force, 1k–1M triangles
#
# Run it by hand: build/bench/collidoscope_mesh_convex_bench [--quick]
add_executable(collidoscope_mesh_convex_bench "${CMAKE_CURRENT_LIST_DIR}/mesh_convex_bench.cpp")
target_link_libraries(collidoscope_mesh_convex_bench PRIVATE collidoscope)
