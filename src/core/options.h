/* The settings of a world, one row each: a scenario file's key (and the flag that sets it the
 * same way), what it takes (the kind and the range), where it goes, and its help text. The
 * scenario reader (core/scenario.c) follows from this table; the program's table of options
 * (app/cli/options.h) takes these rows among its own, so its parser, --help and the README's
 * option list (a test compares them) follow too: adding a world setting is one row.
 *
 *   W(ID, key, flag, short, metavar, kind, lo, hi, dest, error key, commands, help)
 *       dest is a member of boids_scenario (core/scenario.h), or for CUSTOM the function of
 *       scenario.c that reads it
 *
 *   metavar    what follows the flag; NULL for a SWITCH
 *   kind       SWITCH (a bool set true), TEXT (the argument itself, a const char *), U32, U64
 *              or FLOAT (a number in [lo, hi]; a FLOAT with lo 0 must be above it), CUSTOM
 *   error key  the world-definition field or parameter a library error names for it, or NULL
 *   commands   BOIDS_IN_RUN (boids [SCENARIO.ini]), BOIDS_IN_EXPERIMENT (boids experiment)
 */
#ifndef BOIDS_CORE_OPTIONS_H
#define BOIDS_CORE_OPTIONS_H

#include <float.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "boids.h"

#define BOIDS_IN_RUN 1u
#define BOIDS_IN_EXPERIMENT 2u
#define BOIDS_IN_BOTH (BOIDS_IN_RUN | BOIDS_IN_EXPERIMENT)

/* clang-format off */
#define BOIDS_WORLD_SETTINGS(W)                                                                    \
    W(MODEL, "model", "--model", NULL, "NAME", CUSTOM, 0, 0, set_model, "model", BOIDS_IN_BOTH,    \
      "the model, with its preset parameters and world (default shiffman-per-second; the list "    \
      "below); options still override them")                                                       \
    W(MODEL_DIR, "model_dir", "--model-dir", NULL, "DIR", CUSTOM, 0, 0, set_model_dir,          \
      "model_dir", BOIDS_IN_BOTH,                                                                  \
      "load your own model from its folder DIR (model.h, rules.h: docs/writing-a-model.md), "      \
      "compiled for both backends; repeatable, and BOIDS_MODEL_PATH=DIR:DIR does the same")        \
    W(COUNT, "boids", "--boids", "-n", "N", U32, 0, UINT32_MAX, def.count, "count", BOIDS_IN_BOTH, \
      "number of boids (default 100000, or the model's world: kit's 35)")                          \
    W(SWARMS, "swarms", "--swarms", NULL, "K", U32, 1, BOIDS_MAX_SWARMS, def.swarms, "swarms",     \
      BOIDS_IN_BOTH, "number of swarms; boid i starts in swarm i mod K (default 1)")               \
    W(WORLD, "world", "--world", NULL, "WxH[xD]", CUSTOM, 0, 0, set_world, "world", BOIDS_IN_BOTH, \
      "world size in px; WxHxD makes a 3D world (default: 16:9, one boid per 1000 px^2; a "        \
      "model's own at its density)")                                                               \
    W(DIMS, "dims", "--dims", NULL, "2|3", U32, 2, 3, dims, "depth", BOIDS_IN_BOTH,                \
      "2: a flat world; 3: a 3D world, deep as the smaller side of WxH, or by default a cube "     \
      "with the flat default's spacing (one boid per 31 623 px^3)")                                \
    W(STEPS, "steps", "--steps", NULL, "K", U32, 0, UINT32_MAX, steps, NULL, BOIDS_IN_BOTH,        \
      "steps to run (default 600, or the model's world: kit's 3000; a window runs until closed "   \
      "unless --steps is given); a run also ends on its model's stop condition")                   \
    W(DT, "dt", "--dt", NULL, "SECONDS", FLOAT, 0, FLT_MAX, def.dt, "dt", BOIDS_IN_BOTH,           \
      "fixed step of per-second models (default 1/60, or the model's world: kit's 0.08)")          \
    W(SEED, "seed", "--seed", NULL, "S", U64, 0, UINT64_MAX, def.seed, "seed", BOIDS_IN_BOTH,      \
      "seed of the initial state (default 1); an experiment's first run")                          \
    W(LAYOUT, "layout", "--layout", NULL, "NAME", CUSTOM, 0, 0, set_layout, "layout",              \
      BOIDS_IN_BOTH,                                                                               \
      "the start: uniform (over the world), centre (the kit authors' centre square), flock "       \
      "(there, one heading); default: model's")                                                   \
    W(NEIGHBOURS, "neighbours", "--neighbours", NULL, "metric|nearest:K", CUSTOM, 0, 0,            \
      set_neighbours, "nearest", BOIDS_IN_BOTH,                                                    \
      "whom a boid flocks with: metric, the model's radii (default), or nearest:K, its K nearest " \
      "of its swarm whatever their distance (K <= 32; separation stays metric; not kit)")          \
    W(CELL_SIZE, "cell_size", "--cell-size", NULL, "PX", FLOAT, 0, FLT_MAX, def.cell_size,         \
      "cell_size", BOIDS_IN_BOTH,                                                                  \
      "grid cell in px, at least half the largest radius (default: it)")                          \
    W(OBSTACLE, "obstacle", "--obstacle", NULL, "X,Y[,Z],R", CUSTOM, 0, 0, add_obstacle,           \
      "obstacle", BOIDS_IN_BOTH,                                                                   \
      "an obstacle, a circle (a sphere in 3D: X,Y,Z,R; repeatable): replaces the random ones")
/* clang-format on */

typedef enum boids_setting_id {
#define BOIDS_X_SETTING_ENUM(ID, ...) BOIDS_SET_##ID,
    BOIDS_WORLD_SETTINGS(BOIDS_X_SETTING_ENUM)
#undef BOIDS_X_SETTING_ENUM
        BOIDS_SETTING_COUNT
} boids_setting_id;

typedef enum boids_option_kind {
    BOIDS_OPTION_SWITCH,
    BOIDS_OPTION_TEXT,
    BOIDS_OPTION_U32,
    BOIDS_OPTION_U64,
    BOIDS_OPTION_FLOAT,
    BOIDS_OPTION_CUSTOM,
} boids_option_kind;

/* A row: of this table (id a boids_setting_id) or of the program's (app/cli/options.h, id a
 * boids_option_id). */
typedef struct boids_option {
    int id;
    const char *key, *flag, *alias, *metavar;
    boids_option_kind kind;
    double lo, hi;
    const char *error_key;
    unsigned where;
    const char *help;
} boids_option;

/* The row of a scenario file's key ("boids"), NULL if none. */
const boids_option *boids_setting_of_key(const char *key);
/* Row i of the settings (i < BOIDS_SETTING_COUNT). */
const boids_option *boids_setting_at(size_t i);
/* A value of a U32, U64 or FLOAT row, read into *dest (a uint32_t, uint64_t or float) when it
 * is a number within the row's range; otherwise false, and `what` says what it should be ("a
 * whole number in [1, 1024]"). */
bool boids_option_value(const boids_option *o, const char *text, void *dest, char *what,
                        size_t size);

/* The size of what a row of each kind stores, for the static checks beside each table of
 * destinations (core/scenario.c, app/cli/cli.c). */
#define BOIDS_OPTION_SIZE_SWITCH sizeof(bool)
#define BOIDS_OPTION_SIZE_TEXT sizeof(const char *)
#define BOIDS_OPTION_SIZE_U32 sizeof(uint32_t)
#define BOIDS_OPTION_SIZE_U64 sizeof(uint64_t)
#define BOIDS_OPTION_SIZE_FLOAT sizeof(float)

#endif
