# Included by CMakeLists.txt inside if(COLLIDOSCOPE_BENCH). One target:
#
#   collidoscope_mesh_mesh_bench   bench/mesh_mesh_bench.cpp: mesh–mesh queries on
#                                  two OBB trees (1k–1M triangles each, against brute
#                                  force at 1k) and the seed's frame-rate experiment
#
# npm run bench runs it through bench/frame_rate.mjs; by hand:
#   build/bench/collidoscope_mesh_mesh_bench [--quick]
add_executable(collidoscope_mesh_mesh_bench "${CMAKE_CURRENT_LIST_DIR}/mesh_mesh_bench.cpp")
target_link_libraries(collidoscope_mesh_mesh_bench PRIVATE collidoscope)
