# ---------------------------------------------------------------- pinocchio-cg
# Pinocchio's generated code (pinocchio_cg.cpp) beside the Pinocchio that
# pinocchio.cmake found: the module rbdpeer-pinocchio-cg@<version>.so and the
# generator rbdpeer-cg-generate that scripts/peers --codegen runs per model.
# Opt-in (RBD_PEER_CG, which scripts/peers --codegen turns on and which then
# stays on in this folder's cache): the module instantiates Pinocchio's
# algorithms on CppAD<CG<double>> scalars, minutes of compiling, and each
# model's code takes minutes more (harness/peers/README.md).
# Needs an installed Pinocchio 4 with its codegen headers
# (pinocchio/codegen/cppadcg-algo.hpp: the libpinocchio wheel has them) and
# CppAD (cppad/cg.hpp, libcppad_lib: the cmeel-cppad and cmeel-cppadcodegen
# wheels, under the same prefix).
option(RBD_PEER_CG "build the pinocchio-cg peer (scripts/peers --codegen)" OFF)
# Pinocchio's own defaults (CodeGenBase::loadLib / compileLib): gcc, -Ofast.
set(RBD_CG_CC "/usr/bin/gcc" CACHE FILEPATH "C compiler of the generated code")
set(RBD_CG_FLAGS "-Ofast" CACHE STRING "its flags (compileLib's compile_options)")

if(NOT _pin_how)
  return()   # no Pinocchio: pinocchio.cmake said why
endif()
if(_pin_src OR _pin_ver VERSION_LESS 4)
  return()   # the codegen headers this builds on are Pinocchio 4's, as installed
endif()
if(NOT RBD_PEER_CG)
  peer_status(pinocchio-cg "skipped: opt-in, scripts/peers --codegen builds it and generates the code of the robots")
  return()
endif()
find_path(RBD_CG_ALGO pinocchio/codegen/cppadcg-algo.hpp HINTS "${PINOCCHIO_DIR}/include" ${CMAKE_PREFIX_PATH})
find_path(RBD_CG_CPPADCG cppad/cg.hpp HINTS "${PINOCCHIO_DIR}/include" ${CMAKE_PREFIX_PATH})
find_library(RBD_CG_CPPAD_LIB cppad_lib HINTS "${PINOCCHIO_DIR}/lib")
if(NOT RBD_CG_ALGO OR NOT RBD_CG_CPPADCG OR NOT RBD_CG_CPPAD_LIB)
  peer_status(pinocchio-cg@${_pin_ver} "skipped: needs pinocchio/codegen/cppadcg-algo.hpp (${RBD_CG_ALGO}), CppADCodeGen's cppad/cg.hpp (${RBD_CG_CPPADCG}) and libcppad_lib (${RBD_CG_CPPAD_LIB}): pip install cmeel-cppad cmeel-cppadcodegen")
  return()
endif()
if(NOT EXISTS "${RBD_CG_CC}")
  peer_status(pinocchio-cg@${_pin_ver} "skipped: no C compiler ${RBD_CG_CC} for the generated code (RBD_CG_CC)")
  return()
endif()
execute_process(COMMAND "${RBD_CG_CC}" --version OUTPUT_VARIABLE _cg_ccv ERROR_QUIET)
string(REGEX REPLACE "\n.*" "" _cg_ccv "${_cg_ccv}")
set(_cg_cppadcg "")
if(EXISTS "${RBD_CG_CPPADCG}/../share/pkgconfig/cppadcg.pc")
  file(STRINGS "${RBD_CG_CPPADCG}/../share/pkgconfig/cppadcg.pc" _v REGEX "^Version:")
  string(REGEX REPLACE "^Version: *" "" _cg_cppadcg "${_v}")
endif()

add_library(rbdpeer-pinocchio-cg MODULE pinocchio_cg.cpp pinocchio_cg_model.cpp pinocchio_cg_gen.cpp)
peer_module(rbdpeer-pinocchio-cg pinocchio-cg ${_pin_ver})
set_target_properties(rbdpeer-pinocchio-cg PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF
                      CXX_VISIBILITY_PRESET hidden)
# As the Pinocchio module: the wheel's Eigen ABI, so no -march=native here;
# the generated C has no Eigen in it and gets RBD_CG_FLAGS.
target_compile_options(rbdpeer-pinocchio-cg PRIVATE ${_pin_opt} -w)
target_link_libraries(rbdpeer-pinocchio-cg PRIVATE pinocchio::pinocchio ${RBD_CG_CPPAD_LIB} ${CMAKE_DL_LIBS})
target_include_directories(rbdpeer-pinocchio-cg PRIVATE "${RBD_CG_CPPADCG}")
target_compile_definitions(rbdpeer-pinocchio-cg PRIVATE
  "RBD_PEER_BUILD=\"${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION} ${_pin_flags}, pinocchio::pinocchio\""
  "RBD_PEER_SOURCE=\"${_pin_how}\"" "RBD_CG_CC=\"${RBD_CG_CC}\"" "RBD_CG_FLAGS=\"${RBD_CG_FLAGS}\""
  "RBD_CG_CC_ID=\"${_cg_ccv}\"" "RBD_CG_CPPADCG=\"${_cg_cppadcg}\"")
add_executable(rbdpeer-cg-generate cg_generate.c)
set_target_properties(rbdpeer-cg-generate PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${RBD_PEER_OUT}")
target_link_libraries(rbdpeer-cg-generate PRIVATE ${CMAKE_DL_LIBS})
peer_status(pinocchio-cg@${_pin_ver} "found Pinocchio ${_pin_ver}'s code generation (CppADCodeGen ${_cg_cppadcg}) from the ${_pin_how}, module ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION} ${_pin_flags}, generated code ${_cg_ccv} ${RBD_CG_FLAGS}")
