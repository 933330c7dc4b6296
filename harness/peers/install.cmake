# cmake --install: the peer modules scripts/peers built (in $RBD_PEER_DIR,
# else build/peers of the source tree) go to PREFIX/<libdir>/rbdiff/peers,
# where the installed rbdiff looks for them (peer.c, peer_dir).  Run at
# install time, so modules built after the configure step are taken; none
# built is no error (the program then says, per run, which peer is missing).
# Set by the install(CODE) before this script: RBD_SRC, RBD_PEER_DEST.
set(_peers "$ENV{RBD_PEER_DIR}")
if(NOT _peers)
  set(_peers "${RBD_SRC}/build/peers")
endif()
# with the untimed halves some modules link beside them (pinocchio.cmake:
# pinocchio-setup@VERSION.so, found through the module's $ORIGIN)
file(GLOB _mods "${_peers}/rbdpeer-*.so" "${_peers}/pinocchio-setup@*.so")
if(_mods)
  if(EXISTS "${_peers}/peers.txt")
    list(APPEND _mods "${_peers}/peers.txt")
  endif()
  file(INSTALL ${_mods} DESTINATION "${CMAKE_INSTALL_PREFIX}/${RBD_PEER_DEST}")
  # pinocchio-cg's generated libraries (scripts/codegen), found beside its module
  if(IS_DIRECTORY "${_peers}/cg")
    file(INSTALL "${_peers}/cg" DESTINATION "${CMAKE_INSTALL_PREFIX}/${RBD_PEER_DEST}" PATTERN "*.tmp*" EXCLUDE)
  endif()
else()
  message(STATUS "No peer modules in ${_peers} (scripts/peers builds them): none installed")
endif()
