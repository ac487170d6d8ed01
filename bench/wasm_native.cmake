# bench/wasm.mjs, "the cost of wasm": the package's queries on the same inputs, natively (api::Registry).
add_executable(collidoscope_wasm_native "${CMAKE_CURRENT_SOURCE_DIR}/bench/wasm_native.cpp")
target_link_libraries(collidoscope_wasm_native PRIVATE collidoscope)
