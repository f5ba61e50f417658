/* A loaded model's steering program, made when the model is loaded (world/model_load.c): the
 * built-in programs' head (gpu/steer_head.h) with its blocks in the parameter struct, and its
 * rules.h with every #include resolved, the folder's files from disk and the library's from the
 * texts embedded at build time. Added to the shaders (gl/shader_sources.h) as
 * steer_<name>.comp, which the GPU backend compiles as it does a built-in model's; its legend
 * names the folder's files by their paths, so a driver's error points at the user's file. */
#ifndef BOIDS_GPU_STEER_SOURCE_H
#define BOIDS_GPU_STEER_SOURCE_H

#include "core/loaded.h"

boids_status boids_steer_source_add(boids_model model, const boids_manifest_row *row,
                                    const boids_loaded_block *blocks, size_t block_count,
                                    const boids_param_row *params, size_t param_count,
                                    const char *folder);

#endif
