# boids_version_script(HEADER OUT): writes OUT, the version script of the public libboids.so, from
# the BOIDS_API marks of HEADER (src/boids.h): `global:` the marked names, `local: *` the rest
# (every internal boids_ function and glad's GL pointers). No version node: the symbols stay
# unversioned, as they were. It runs when CMake configures, which an edit of boids.h makes it do
# (CMAKE_CONFIGURE_DEPENDS); OUT changes only when the list does, and the library is relinked then.
# A mark begins its line, and the line names what it marks (clang-format keeps a declaration's
# name beside its return type): the name is the last word before the line's first "(" (a
# function), or before its ";" or "[" (data).
function(boids_version_script header out)
  file(STRINGS ${header} marked REGEX "^BOIDS_API ")
  set(names "")
  foreach(line IN LISTS marked)
    if(line MATCHES "^BOIDS_API [^(;[]*[^A-Za-z0-9_(;[]([A-Za-z_][A-Za-z0-9_]*) *[(;[]")
      list(APPEND names ${CMAKE_MATCH_1})
    else()
      message(FATAL_ERROR "${header}: a BOIDS_API line that names nothing: '${line}'")
    endif()
  endforeach()
  if(NOT names)
    message(FATAL_ERROR "${header}: no BOIDS_API declaration")
  endif()
  list(JOIN names ";\n    " body)
  file(CONFIGURE OUTPUT ${out} CONTENT "{\n  global:\n    ${body};\n  local:\n    *;\n};\n"
       @ONLY)
endfunction()
