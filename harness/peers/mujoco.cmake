# ---------------------------------------------------------------- MuJoCo
# One MuJoCo per configure (CMakeLists.txt): MUJOCO_ROOT naming a folder with
# include/mujoco/mujoco.h and the library in lib/ or in the folder itself
# (the PyPI wheel mujoco-core lays out site-packages/mujoco so, with
# libmujoco.so.<version> and no unversioned link), else Debian's
# libmujoco-dev (2.2.2) or any install CMAKE_PREFIX_PATH finds.  Found by
# header and library rather than by Debian's mujocoConfig.cmake, whose target
# names /usr/include/libqhull_r, a folder libmujoco-dev does not install.
# MuJoCo is a compiled C library: the module only calls it, so its own flags
# matter little; it gets the same ones.
set(MUJOCO_ROOT "$ENV{MUJOCO_ROOT}" CACHE PATH "MuJoCo install folder (include/, lib/)")
if(MUJOCO_ROOT)
  find_path(MUJOCO_INCLUDE_DIR mujoco/mujoco.h PATHS ${MUJOCO_ROOT}/include NO_DEFAULT_PATH)
  file(GLOB _mj_libs ${MUJOCO_ROOT}/lib/libmujoco.so ${MUJOCO_ROOT}/lib/libmujoco.so.*
       ${MUJOCO_ROOT}/libmujoco.so ${MUJOCO_ROOT}/libmujoco.so.*)
  if(_mj_libs)
    list(GET _mj_libs 0 _mj_lib)
    set(MUJOCO_LIBRARY "${_mj_lib}" CACHE FILEPATH "libmujoco")
  endif()
else()
  find_path(MUJOCO_INCLUDE_DIR mujoco/mujoco.h)
  find_library(MUJOCO_LIBRARY mujoco)
endif()
if(NOT MUJOCO_INCLUDE_DIR OR NOT MUJOCO_LIBRARY)
  if(MUJOCO_ROOT)
    peer_status(mujoco "skipped: no include/mujoco/mujoco.h and libmujoco.so* under MUJOCO_ROOT ${MUJOCO_ROOT}")
  else()
    peer_status(mujoco "skipped: MuJoCo not found (libmujoco-dev, the mujoco-core wheel, or MUJOCO_ROOT)")
  endif()
else()
  # mjVERSION_HEADER is 222 up to 3.x (one digit each) and 4000000 from 4.0
  # (major * 10^6 + minor * 10^3 + patch).
  file(STRINGS "${MUJOCO_INCLUDE_DIR}/mujoco/mujoco.h" _mj_ver REGEX "define mjVERSION_HEADER")
  string(REGEX REPLACE ".*mjVERSION_HEADER[ \t]+([0-9]+).*" "\\1" _mj_num "${_mj_ver}")
  if(_mj_num GREATER_EQUAL 1000000)
    math(EXPR _a "${_mj_num} / 1000000")
    math(EXPR _b "(${_mj_num} / 1000) % 1000")
    math(EXPR _c "${_mj_num} % 1000")
    set(_mj_ver "${_a}.${_b}.${_c}")
  else()
    string(REGEX REPLACE "^([0-9])([0-9])([0-9]+)$" "\\1.\\2.\\3" _mj_ver "${_mj_num}")
  endif()
  set(_mj_origin "${RBD_PEER_ORIGIN}")
  if(NOT _mj_origin)
    set(_mj_origin "${MUJOCO_LIBRARY}")
  endif()
  add_library(rbdpeer-mujoco MODULE mujoco.c mujoco_model.c mujoco_conv.c)
  peer_module(rbdpeer-mujoco mujoco ${_mj_ver})
  set_target_properties(rbdpeer-mujoco PROPERTIES C_STANDARD 11 C_VISIBILITY_PRESET hidden)
  # a function another MuJoCo version removed must not link as implicit
target_compile_options(rbdpeer-mujoco PRIVATE ${RBD_PEER_OPT} -Wall -Wextra -Werror=implicit-function-declaration)
  target_include_directories(rbdpeer-mujoco PRIVATE ${MUJOCO_INCLUDE_DIR})
  target_link_libraries(rbdpeer-mujoco PRIVATE ${MUJOCO_LIBRARY} m)
  get_filename_component(_mj_libdir "${MUJOCO_LIBRARY}" DIRECTORY)
  set_target_properties(rbdpeer-mujoco PROPERTIES BUILD_RPATH "${_mj_libdir}")
  set(_mj_flags "${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_RELEASE} ${RBD_PEER_OPT}")
  string(REPLACE ";" " " _mj_flags "${_mj_flags}")
  string(STRIP "${_mj_flags}" _mj_flags)
  target_compile_definitions(rbdpeer-mujoco PRIVATE
    "RBD_PEER_BUILD=\"${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION} ${_mj_flags}, calling libmujoco (prebuilt)\""
    "RBD_PEER_SOURCE=\"${_mj_origin}\"")
  peer_status(mujoco@${_mj_ver} "found MuJoCo ${_mj_ver} from ${_mj_origin}")
endif()
