# The models' folders, found by the build: src/models/list.h orders the models (one line per
# folder), and includes the folders' model.h through boids_model_folders.h, which this writes
# from the folders present (src/models/*/model.h). So a new model is its folder plus its one line
# in list.h. Two copies: one for the build, which names each model.h by its path (the build's
# copy lies outside the source tree), and one installed beside list.h, which names them as
# <folder>/model.h. The order of the includes does not matter (a model.h only defines macros);
# a folder list.h does not name is included and unused. It runs when CMake configures, which a
# new or removed folder makes it do (CONFIGURE_DEPENDS); the headers change only when the list
# of folders does.
set(BOIDS_MODEL_FOLDERS_DIR ${PROJECT_BINARY_DIR}/model_folders)
file(GLOB boids_model_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/models/*/model.h)
list(SORT boids_model_headers)
set(boids_in_build "")
set(boids_installed "")
foreach(header IN LISTS boids_model_headers)
  file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR}/src/models ${header})
  string(APPEND boids_in_build "#include \"${header}\"\n")
  string(APPEND boids_installed "#include \"${rel}\"\n")
endforeach()
string(CONCAT boids_head "/* Written by CMake (cmake/model_folders.cmake) from the folders of "
       "src/models/: each\n * folder's model.h. src/models/list.h includes it, and orders the "
       "models. */\n")
file(CONFIGURE OUTPUT ${BOIDS_MODEL_FOLDERS_DIR}/boids_model_folders.h
     CONTENT "${boids_head}${boids_in_build}" @ONLY)
file(CONFIGURE OUTPUT ${BOIDS_MODEL_FOLDERS_DIR}/installed/boids_model_folders.h
     CONTENT "${boids_head}${boids_installed}" @ONLY)
