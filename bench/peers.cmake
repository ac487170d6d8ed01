# collidoscope_peers: collidoscope against libccd, Bullet and qhull on identical
# inputs (bench/peers.cpp, driven by bench/peers.mjs). Included by CMakeLists.txt
# inside if(COLLIDOSCOPE_BENCH). Debian: libccd-dev libbullet-dev libqhull-dev pkg-config.
find_package(PkgConfig)
if(PkgConfig_FOUND)
  pkg_check_modules(CDS_PEER_CCD IMPORTED_TARGET ccd)
  pkg_check_modules(CDS_PEER_QHULL IMPORTED_TARGET qhull_r)
  # Bullet in double precision (Debian ships *-float64 libraries) so that every
  # contender reads the same doubles; the single-precision build is the fallback.
  pkg_check_modules(CDS_PEER_BULLET bullet-float64)
  set(_cds_bullet_suffix "-float64")
  if(NOT CDS_PEER_BULLET_FOUND)
    pkg_check_modules(CDS_PEER_BULLET bullet)
    set(_cds_bullet_suffix "")
  endif()
endif()
if(CDS_PEER_BULLET_FOUND)
  # Only BulletCollision and LinearMath (pkg-config also lists Dynamics and SoftBody).
  find_library(CDS_PEER_BULLET_COLLISION NAMES BulletCollision${_cds_bullet_suffix}
               HINTS ${CDS_PEER_BULLET_LIBRARY_DIRS})
  find_library(CDS_PEER_BULLET_LINEARMATH NAMES LinearMath${_cds_bullet_suffix}
               HINTS ${CDS_PEER_BULLET_LIBRARY_DIRS})
endif()
if(CDS_PEER_CCD_FOUND AND CDS_PEER_QHULL_FOUND AND CDS_PEER_BULLET_COLLISION AND CDS_PEER_BULLET_LINEARMATH)
  add_executable(collidoscope_peers "${CMAKE_CURRENT_SOURCE_DIR}/bench/peers.cpp")
  target_include_directories(collidoscope_peers PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/tests/cpp")
  target_include_directories(collidoscope_peers SYSTEM PRIVATE ${CDS_PEER_BULLET_INCLUDE_DIRS})
  target_compile_options(collidoscope_peers PRIVATE ${CDS_PEER_BULLET_CFLAGS_OTHER})
  target_link_libraries(collidoscope_peers PRIVATE collidoscope PkgConfig::CDS_PEER_CCD PkgConfig::CDS_PEER_QHULL
                        ${CDS_PEER_BULLET_COLLISION} ${CDS_PEER_BULLET_LINEARMATH})
endif()
# collidoscope_mesh_peers: mesh ray casts against Bullet's btBvhTriangleMeshShape
# (bench/mesh_peers.cpp, driven by bench/meshes.mjs).
if(CDS_PEER_BULLET_COLLISION AND CDS_PEER_BULLET_LINEARMATH)
  add_executable(collidoscope_mesh_peers "${CMAKE_CURRENT_SOURCE_DIR}/bench/mesh_peers.cpp")
  target_include_directories(collidoscope_mesh_peers PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/tests/cpp")
  target_include_directories(collidoscope_mesh_peers SYSTEM PRIVATE ${CDS_PEER_BULLET_INCLUDE_DIRS})
  target_compile_options(collidoscope_mesh_peers PRIVATE ${CDS_PEER_BULLET_CFLAGS_OTHER})
  target_link_libraries(collidoscope_mesh_peers PRIVATE collidoscope ${CDS_PEER_BULLET_COLLISION}
                        ${CDS_PEER_BULLET_LINEARMATH})
endif()
if(NOT (CDS_PEER_CCD_FOUND AND CDS_PEER_QHULL_FOUND AND CDS_PEER_BULLET_COLLISION AND CDS_PEER_BULLET_LINEARMATH))
  message(WARNING "collidoscope_peers not built: needs pkg-config modules ccd, qhull_r and bullet-float64 (or bullet) "
                  "(Debian: libccd-dev libqhull-dev libbullet-dev pkg-config)")
endif()
