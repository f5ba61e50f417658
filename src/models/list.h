/* The models, a folder each (src/models/<folder>/: model.h, rules.h, oracle.c and, where the
 * CPU runs its pair rule on lane groups of its own, walk.c: kit's). Part of the
 * library's own view of its models, src/core/manifest.h, which makes the manifest
 * (BOIDS_MODEL_LIST) and the blocks (BOIDS_PARAM_BLOCK_LIST) from the folders named here (never
 * installed).
 *
 * A folder is one line below, in BOIDS_MODEL_FOLDERS, whose order is the order of the built-in
 * models' ids (the models' rows within a folder keep theirs) and of the folders' parameter blocks
 * in boids_params. Its model.h comes in through boids_model_folders.h, which the build writes from
 * the folders present (cmake/model_folders.cmake; installed beside it in share/boids/include,
 * for models loaded at run time). A folder holds one
 * rule set and every model that runs on it (shiffman's three variants; priority and mean). */
#ifndef BOIDS_MODELS_LIST_H
#define BOIDS_MODELS_LIST_H

#include "boids_model_folders.h"

/* F(FOLDER, A): the folder's macros are BOIDS_MODELS_<FOLDER> and BOIDS_BLOCKS_<FOLDER>. */
/* clang-format off */
#define BOIDS_MODEL_FOLDERS(F, A) \
    F(SHIFFMAN, A)                \
    F(ADAMS, A)                   \
    F(HYBRID, A)                  \
    F(ALLOCATION, A)              \
    F(KIT, A)                     \
    F(VICSEK, A)                  \
    F(COUZIN, A)                  \
    F(GREGOIRE, A)                \
    /* (a new folder's line goes above this one) */
/* clang-format on */

#endif
