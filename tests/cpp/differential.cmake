# collidoscope_differential_tests: collidoscope against peer libraries installed from Debian —
# libccd (ccdGJKIntersect, ccdMPRIntersect, ccdGJKPenetration) and qhull (libqhull_r, qh_new_qhull) on thousands
# of seeded random inputs; where they disagree, the brute-force references of tests/cpp decide.
# Included by CMakeLists.txt inside the GoogleTest section, after collidoscope_tests is defined.
# Debian: libccd-dev libqhull-dev pkg-config (scripts/bootstrap.sh installs them).

# Every tests/cpp/test_differential_*.cpp links the peers, except test_differential_regressions.cpp (the
# regression scenes the peers helped find, shared/vectors/differential), which needs none and stays in
# collidoscope_tests.
file(GLOB COLLIDOSCOPE_DIFFERENTIAL_SOURCES CONFIGURE_DEPENDS
     "${CMAKE_CURRENT_SOURCE_DIR}/tests/cpp/test_differential_*.cpp")
list(FILTER COLLIDOSCOPE_DIFFERENTIAL_SOURCES EXCLUDE REGEX "/test_differential_regressions\\.cpp$")

# CMakeLists.txt globs every tests/cpp/*.cpp into collidoscope_tests; the peer tests live in their own
# executable only.
get_target_property(_cds_main_test_sources collidoscope_tests SOURCES)
foreach(_cds_src ${COLLIDOSCOPE_DIFFERENTIAL_SOURCES})
  list(REMOVE_ITEM _cds_main_test_sources "${_cds_src}")
endforeach()
set_property(TARGET collidoscope_tests PROPERTY SOURCES ${_cds_main_test_sources})

find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(CDS_DIFF_CCD QUIET IMPORTED_TARGET ccd)
  pkg_check_modules(CDS_DIFF_QHULL QUIET IMPORTED_TARGET qhull_r)
endif()

if(COLLIDOSCOPE_DIFFERENTIAL_SOURCES AND CDS_DIFF_CCD_FOUND AND CDS_DIFF_QHULL_FOUND)
  add_executable(collidoscope_differential_tests ${COLLIDOSCOPE_DIFFERENTIAL_SOURCES})
  target_include_directories(collidoscope_differential_tests PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/tests/cpp")
  target_link_libraries(collidoscope_differential_tests PRIVATE
    collidoscope PkgConfig::CDS_DIFF_CCD PkgConfig::CDS_DIFF_QHULL GTest::gtest_main)
  target_compile_definitions(collidoscope_differential_tests PRIVATE
    COLLIDOSCOPE_SOURCE_DIR="${CMAKE_CURRENT_SOURCE_DIR}"
    COLLIDOSCOPE_SHARED_DIR="${CMAKE_CURRENT_SOURCE_DIR}/shared")
  gtest_discover_tests(collidoscope_differential_tests
    WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
    DISCOVERY_TIMEOUT 60
    PROPERTIES TIMEOUT 300)
elseif(COLLIDOSCOPE_DIFFERENTIAL_SOURCES)
  # Not skipped silently: without the peer libraries the suite has one failing test that says why.
  message(WARNING "collidoscope_differential_tests not built: needs the pkg-config modules ccd and qhull_r "
                  "(Debian: libccd-dev libqhull-dev pkg-config; scripts/bootstrap.sh installs them)")
  set(_cds_diff_missing "${CMAKE_CURRENT_BINARY_DIR}/differential_missing.cmake")
  file(WRITE "${_cds_diff_missing}"
       "message(FATAL_ERROR \"the differential tests need libccd and qhull_r (pkg-config modules ccd, qhull_r; "
       "Debian: libccd-dev libqhull-dev pkg-config): install them and configure again\")\n")
  add_test(NAME Differential.PeerLibrariesInstalled COMMAND "${CMAKE_COMMAND}" -P "${_cds_diff_missing}")
endif()
