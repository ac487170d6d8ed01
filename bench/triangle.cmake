# Included by CMakeLists.txt inside if(COLLIDOSCOPE_BENCH):
#   collidoscope_triangle_bench   bench/triangle_bench.cpp: trianglesIntersect, ns per pair by family
add_executable(collidoscope_triangle_bench "${CMAKE_CURRENT_LIST_DIR}/triangle_bench.cpp")
target_link_libraries(collidoscope_triangle_bench PRIVATE collidoscope)
