/* What a model folder loaded at run time (world/model_load.c) and the library say to each other:
 * its manifest rows, parameter blocks and rows (here), and its CPU rules and the library's
 * functions they call (cpu/loaded.h).
 *
 * The folder's C units are compiled apart, with the system's C compiler, into a shared object of
 * their own (the cache's <folder>-<key>.so). The object exports one symbol, its manifest
 * (BOIDS_LOADED_SYMBOL): the folder's manifest rows, its parameter blocks and rows, as its
 * model.h declares them, and its CPU rules for flat and 3D worlds. Everything else in it is
 * hidden. It cannot reach the library's internal functions by name (libboids.so exports only the
 * API, the program links the static library), so the few the rules call go through `imports`,
 * a table the library fills before it calls anything, behind trampolines of the same names
 * (BOIDS_LOADED_TRAMPOLINES): the rules read as they do built in. BOIDS_LOADED_ABI changes with
 * any of these structs, and the library refuses an object of another (the cache's key holds the
 * library's identity as well, so that is a last guard). */
#ifndef BOIDS_CORE_LOADED_H
#define BOIDS_CORE_LOADED_H

#include "boids.h"

/* The models a process may load (their ids follow the built-in ones). */
#define BOIDS_LOADED_MAX 32
/* Every model's id, built in or loaded, is below this: the registry's tables are this long. */
#define BOIDS_MODEL_SLOTS (BOIDS_MODEL_COUNT + BOIDS_LOADED_MAX)

/* One manifest row (core/manifest.h's columns): a built-in model's (core/models.c) and a loaded
 * folder's (its object's manifest) are made by the same macro from the same model.h, and
 * registered the same way (boids_model_register). */
typedef struct boids_manifest_row {
    const char *name;
    boids_time_base time_base;
    unsigned blocks, attributes, features;
    const char *rules;
    boids_layout init;
    const char *preset, *world, *summary, *at_scale;
} boids_manifest_row;
#define BOIDS_X_MANIFEST_ROW(ID, name, time, blocks, rules, attrs, features, init, preset, world,  \
                             summary, at_scale)                                                    \
    {name,  BOIDS_TIME_##time, blocks,  attrs, features, #rules, BOIDS_LAYOUT_##init, preset,      \
     world, summary,           at_scale},

/* One of the folder's parameter blocks: its id (after the built-in ones), field and size. */
typedef struct boids_loaded_block {
    unsigned id;
    const char *field;
    size_t size;
} boids_loaded_block;

/* One parameter row (core/manifest.h's columns), its offset within boids_params and its unit with
 * "T" for the model's time unit: the library's table of the built-in blocks (core/params.c) and a
 * folder's own rows. */
typedef struct boids_param_row {
    const char *name;
    boids_param_block block;
    size_t offset;
    const char *unit;
    float min, max, ui_max_s, ui_max_f;
    unsigned flags;
    float def;
    const char *description;
} boids_param_row;
#define BOIDS_X_PARAM_ROW(B, F, field, type, unit, lo, hi, ui_s, ui_f, flags, def, desc)           \
    {#field,                                                                                       \
     BOIDS_BLOCK_##B,                                                                              \
     offsetof(boids_params, F.field),                                                              \
     unit,                                                                                         \
     lo,                                                                                           \
     hi,                                                                                           \
     ui_s,                                                                                         \
     ui_f,                                                                                         \
     (flags) | BOIDS_PARAM_TYPE_FLAGS_##type,                                                      \
     def,                                                                                          \
     desc},

#endif
