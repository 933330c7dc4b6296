# Writes OUT = rbd_buildinfo.h with RBD_GIT, the commit the sources are at
# when the program is built ("-dirty" when tracked files differ from it),
# at every build rather than at configure time.  The file is rewritten only
# when its content changes, so an unchanged commit rebuilds nothing.
execute_process(COMMAND git -C "${SRC}" rev-parse HEAD OUTPUT_VARIABLE hash
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR hash STREQUAL "")
  set(hash "")
else()
  execute_process(COMMAND git -C "${SRC}" status --porcelain --untracked-files=no
                  OUTPUT_VARIABLE dirty ERROR_QUIET)
  if(NOT dirty STREQUAL "")
    set(hash "${hash}-dirty")
  endif()
endif()
file(WRITE "${OUT}.tmp" "#define RBD_GIT \"${hash}\"\n")
configure_file("${OUT}.tmp" "${OUT}" COPYONLY)
file(REMOVE "${OUT}.tmp")
