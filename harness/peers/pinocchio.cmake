# ---------------------------------------------------------------- Pinocchio
# One Pinocchio per configure (CMakeLists.txt); where it comes from, first
# match wins:
#  1. PINOCCHIO_DIR naming a source tree laid out as include/, generated/
#     (the headers Pinocchio's configure step writes) and src/parsers/urdf/:
#     header-only, with the URDF parser sources compiled in; Eigen3, Boost
#     (filesystem, serialization) and urdfdom from Debian (scripts/setup);
#  2. an install find_package(pinocchio) finds, under PINOCCHIO_DIR when it
#     names a prefix (the PyPI wheel libpinocchio's is
#     site-packages/cmeel.prefix), else pinocchio_DIR or CMAKE_PREFIX_PATH:
#     linked as its users link it, pinocchio::pinocchio, which brings its
#     own Boost, urdfdom and coal, and (Pinocchio 4) the library's
#     precompiled double instantiations (PINOCCHIO_ENABLE_TEMPLATE_INSTANTIATION);
#  3. a folder shared/peers/pinocchio-3.7.0 beside the repository (the
#     project's shared folder, laid out as in 1), when it is there.
# Pinocchio 4 needs C++17 (3 builds as C++14); 4 moved the algorithms'
# bodies to pinocchio/src/**.hxx, but the headers pinocchio.cpp includes
# (pinocchio/algorithm/*.hpp, multibody/, parsers/urdf.hpp) are in both.
set(PINOCCHIO_DIR "$ENV{PINOCCHIO_DIR}" CACHE PATH "Pinocchio install prefix or source tree")
set(_pin_src "")
set(_pin_how "")
set(_pin_ver "")
if(PINOCCHIO_DIR AND EXISTS "${PINOCCHIO_DIR}/generated/pinocchio/config.hpp")
  set(_pin_src "${PINOCCHIO_DIR}")
  set(_pin_how "source tree ${PINOCCHIO_DIR}")
else()
  if(PINOCCHIO_DIR)
    # first, so its own dependencies (coal, Boost, urdfdom of the wheel) are found there too
    list(PREPEND CMAKE_PREFIX_PATH "${PINOCCHIO_DIR}")
    find_package(pinocchio CONFIG QUIET PATHS "${PINOCCHIO_DIR}" NO_DEFAULT_PATH)
  else()
    find_package(pinocchio CONFIG QUIET)
  endif()
  if(pinocchio_FOUND)
    set(_pin_how "install ${pinocchio_DIR}")
    set(_pin_ver "${pinocchio_VERSION}")
  elseif(NOT PINOCCHIO_DIR
         AND EXISTS "${RBD_TOP_PARENT}/shared/peers/pinocchio-3.7.0/generated/pinocchio/config.hpp")
    set(_pin_src "${RBD_TOP_PARENT}/shared/peers/pinocchio-3.7.0")
    # named as it sits beside the clone, not by this machine's path
    set(_pin_how "source tree shared/peers/pinocchio-3.7.0 beside the clone")
  endif()
endif()
if(_pin_src)
  file(STRINGS "${_pin_src}/generated/pinocchio/config.hpp" _v REGEX "define PINOCCHIO_VERSION \"")
  string(REGEX REPLACE ".*PINOCCHIO_VERSION \"([0-9.]+)\".*" "\\1" _pin_ver "${_v}")
endif()
if(RBD_PEER_ORIGIN)
  set(_pin_how "${RBD_PEER_ORIGIN}")
endif()

if(NOT _pin_how)
  if(PINOCCHIO_DIR)
    peer_status(pinocchio "skipped: PINOCCHIO_DIR ${PINOCCHIO_DIR} is neither a source tree (generated/pinocchio/config.hpp) nor a prefix with lib/cmake/pinocchio")
  else()
    peer_status(pinocchio "skipped: Pinocchio not found (no install for find_package, PINOCCHIO_DIR unset, no shared/peers/pinocchio-3.7.0 beside the repository)")
  endif()
  return()
endif()
set(_pin_missing "")
if(_pin_src)
  find_package(Eigen3 3.3 CONFIG QUIET)
  if(NOT Eigen3_FOUND)
    list(APPEND _pin_missing "Eigen3 (libeigen3-dev)")
  endif()
  find_package(Boost 1.65 QUIET COMPONENTS filesystem serialization)
  if(NOT Boost_FOUND)
    list(APPEND _pin_missing "Boost filesystem+serialization (libboost-filesystem-dev libboost-serialization-dev)")
  endif()
  find_path(URDFDOM_INCLUDE_DIR urdf_model/model.h PATH_SUFFIXES urdfdom)
  find_library(URDFDOM_MODEL_LIBRARY urdfdom_model)
  if(NOT URDFDOM_INCLUDE_DIR OR NOT URDFDOM_MODEL_LIBRARY)
    list(APPEND _pin_missing "urdfdom (liburdfdom-dev)")
  endif()
endif()
if(_pin_missing)
  list(JOIN _pin_missing ", " _m)
  peer_status(pinocchio@${_pin_ver} "skipped: found ${_pin_how} but not ${_m}")
  return()
endif()

set(_pin_std 14)
if(_pin_ver VERSION_GREATER_EQUAL 4)
  set(_pin_std 17)
endif()
# Two files, so that the algorithms compile on both cores (pinocchio_peer.hpp),
# as an object library: they start compiling at once, not after
# pinocchio-setup (below), which a Makefile build would wait for before
# compiling anything of a target that links it; the derivatives first, the
# longest file of a header-only Pinocchio (115-127 CPU-s for 3.7.0).
add_library(rbdpeer-pinocchio-obj OBJECT pinocchio_derivs.cpp pinocchio.cpp)
set_target_properties(rbdpeer-pinocchio-obj PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(rbdpeer-pinocchio-obj PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
add_library(rbdpeer-pinocchio MODULE $<TARGET_OBJECTS:rbdpeer-pinocchio-obj>)
set_target_properties(rbdpeer-pinocchio PROPERTIES LINKER_LANGUAGE CXX)
peer_module(rbdpeer-pinocchio pinocchio ${_pin_ver})
# The untimed side (pinocchio_setup.cpp: the model from the URDF, each
# bound function's Data, the results for the check).  From a source tree,
# where Pinocchio's URDF parser is header-only templates compiled here (a
# quarter of pinocchio.cpp's compile time, harness/peers/README.md, "Cost"),
# it and the parser's two sources are compiled at -O1 into a shared object
# of their own beside the module, pinocchio-setup@VERSION.so, found through
# the module's RPATH ($ORIGIN): apart, so that none of its -O1 template
# instantiations can be the copy the timed code calls, as one link of both
# could make it.  With a prebuilt Pinocchio the parser is the library's and
# a second file would only parse Pinocchio's headers again, so pinocchio.cpp
# includes it (RBD_PIN_SETUP_HERE), at -O3 as the rest.
set(_pin_targets rbdpeer-pinocchio-obj)
if(_pin_src)
  add_library(rbdpeer-pinocchio-setup SHARED pinocchio_setup.cpp ${_pin_src}/src/parsers/urdf/model.cpp
              ${_pin_src}/src/parsers/urdf/utils.cpp)
  set_target_properties(rbdpeer-pinocchio-setup PROPERTIES PREFIX "" OUTPUT_NAME "pinocchio-setup@${_pin_ver}"
                        LIBRARY_OUTPUT_DIRECTORY "${RBD_PEER_OUT}")
  target_include_directories(rbdpeer-pinocchio-setup PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(rbdpeer-pinocchio PRIVATE rbdpeer-pinocchio-setup)
  set_target_properties(rbdpeer-pinocchio PROPERTIES BUILD_RPATH "\$ORIGIN")
  list(APPEND _pin_targets rbdpeer-pinocchio-setup)
else()
  target_compile_definitions(rbdpeer-pinocchio-obj PRIVATE RBD_PIN_SETUP_HERE)
endif()
foreach(_t ${_pin_targets} rbdpeer-pinocchio)
  set_target_properties(${_t} PROPERTIES CXX_STANDARD ${_pin_std} CXX_STANDARD_REQUIRED ON
                        CXX_EXTENSIONS OFF CXX_VISIBILITY_PRESET hidden)
endforeach()
# Linked against a prebuilt Pinocchio, the module must share its Eigen ABI:
# -march=native turns on AVX and 32-byte alignment of Eigen's fixed-size
# types, the wheel's library was built for baseline x86-64 with 16, and a
# Model built by its URDF parser then crashes on assignment here (seen with
# the 4.1.0 wheel).  So -march=native only where every algorithm is compiled
# here (a source tree); the prebuilt one runs as it was built.  Keeping
# Eigen's alignment at the wheel's (-DEIGEN_MAX_ALIGN_BYTES=16) and
# instantiating every algorithm here (-UPINOCCHIO_ENABLE_TEMPLATE_INSTANTIATION)
# still crashed, in ~ModelTpl after the wheel's parser filled the Model
# (harness/peers/README.md, "Flags").
set(_pin_opt ${RBD_PEER_OPT})
if(NOT _pin_src)
  list(REMOVE_ITEM _pin_opt -march=native)
  # pinocchio::pinocchio brings -fopenmp (OpenMP::OpenMP_CXX: the wheel was
  # built with it), and with it clang's OpenMPOpt pass runs over the whole
  # module: with clang 14 it was 60% of the 4.1.0 module's compile time,
  # and turning it off left every instruction of the timed functions as it
  # was (only Eigen's parallel-GEMM regions, which a one-thread run never
  # enters, allocate registers otherwise; harness/peers/README.md, "Cost").
  # Spelled through -Xclang, the same cc1 arguments: ccache 4.7 hands a bare
  # -mllvm to its preprocessor run without the option after it, which fails
  # and leaves the file uncached (scripts/peers).
  include(CheckCXXCompilerFlag)
  check_cxx_compiler_flag("-Xclang -mllvm -Xclang -openmp-opt-disable" RBD_PEER_NO_OMPOPT_XCLANG)
  if(RBD_PEER_NO_OMPOPT_XCLANG)
    set(RBD_PEER_NO_OMPOPT ON)
    list(APPEND _pin_opt "SHELL:-Xclang -mllvm -Xclang -openmp-opt-disable")
  endif()
endif()
target_compile_options(rbdpeer-pinocchio-obj PRIVATE ${_pin_opt} -w)
set(_pin_link "header-only, every algorithm compiled here")
if(_pin_src)
  # the same flags but -O1: the same Eigen ABI (-march=native) on both sides
  string(REPLACE "-O3" "-O1" _pin_setup_opt "${_pin_opt}")
  target_compile_options(rbdpeer-pinocchio-setup PRIVATE ${_pin_setup_opt} -w)
  set(_pin_link "${_pin_link} but the untimed model, Data and results: -O1, pinocchio-setup@${_pin_ver}.so")
  # The header-only algorithms; the URDF parser sources are the setup's.
  foreach(_t ${_pin_targets} rbdpeer-pinocchio)
    target_include_directories(${_t} PRIVATE ${_pin_src}/generated ${_pin_src}/include ${URDFDOM_INCLUDE_DIR})
    target_compile_definitions(${_t} PRIVATE BOOST_MPL_LIMIT_LIST_SIZE=30
      BOOST_MPL_LIMIT_VECTOR_SIZE=30 PINOCCHIO_URDFDOM_TYPEDEF_SHARED_PTR
      PINOCCHIO_URDFDOM_USE_STD_SHARED_PTR PINOCCHIO_WITH_URDFDOM)
    target_link_libraries(${_t} PRIVATE Eigen3::Eigen Boost::filesystem Boost::serialization
                          ${URDFDOM_MODEL_LIBRARY})
  endforeach()
else()
  target_link_libraries(rbdpeer-pinocchio-obj PRIVATE pinocchio::pinocchio)
  target_link_libraries(rbdpeer-pinocchio PRIVATE pinocchio::pinocchio)
  get_target_property(_pin_defs pinocchio::pinocchio_default INTERFACE_COMPILE_DEFINITIONS)
  if(_pin_defs MATCHES "PINOCCHIO_ENABLE_TEMPLATE_INSTANTIATION")
    set(_pin_link "pinocchio::pinocchio: double instantiations precompiled in libpinocchio_default.so")
  else()
    set(_pin_link "pinocchio::pinocchio")
  endif()
endif()
set(_pin_flags "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_RELEASE} ${_pin_opt} -std=c++${_pin_std}")
string(REPLACE ";" " " _pin_flags "${_pin_flags}")
string(REPLACE "SHELL:" "" _pin_flags "${_pin_flags}")
string(STRIP "${_pin_flags}" _pin_flags)
target_compile_definitions(rbdpeer-pinocchio-obj PRIVATE
  "RBD_PEER_BUILD=\"${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION} ${_pin_flags}, ${_pin_link}\""
  "RBD_PEER_SOURCE=\"${_pin_how}\"")
peer_status(pinocchio@${_pin_ver} "found Pinocchio ${_pin_ver} from the ${_pin_how}, ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION} ${_pin_flags}")
