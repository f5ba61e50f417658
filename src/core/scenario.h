/* Scenario files: a world definition as `key = value` lines, e.g.
 *
 *   ; docs/models.md (adams), "Recommended parameter values"
 *   model = adams
 *   boids = 20000
 *   world = 1920x1080
 *   steps = 600
 *   visual_range = 40        ; a comment may follow a value after blanks
 *
 * Keys: the world settings of core/options.h (model, boids, swarms, world (WxH), seed, steps,
 * dt, layout, obstacle: X,Y,R (X,Y,Z,R in 3D), one obstacle, the only key that may repeat; they
 * replace the random ones), and every parameter of the model by its --set name (edges among them).
 * The model is read first wherever it stands, with its preset parameters and world (kit: the
 * paper's 35 boids in 4000 x 4000 px at dt 0.08); the others are applied over it.
 *
 * The format is strict, and says so with the file, line and key: a line that is not `key =
 * value` (`key: value`, a [section], a key with no value), an unknown or repeated key (but
 * obstacle), a bad value, a NUL byte, a file over 1 MiB. Blank lines and lines starting with ;
 * or # are comments; blanks around keys and values, a UTF-8 byte-order mark and CRLF line ends
 * are accepted. The file is read once, so a pipe works. */
#ifndef BOIDS_CORE_SCENARIO_H
#define BOIDS_CORE_SCENARIO_H

#include <stdio.h>

#include "boids.h"
#include "core/options.h"

#define BOIDS_SCENARIO_MAX_KEYS 128
#define BOIDS_SCENARIO_MAX_BYTES (1 << 20)
#define BOIDS_SCENARIO_MAX_OBSTACLES 4096

typedef struct boids_scenario {
    /* boids_default_world_def() with the model's preset and the file's values */
    boids_world_def def;
    uint32_t steps; /* the file's steps, the model's world's, or the caller's default */
    uint32_t default_steps;
    bool given[BOIDS_SETTING_COUNT]; /* the world settings (core/options.h) the file set */
    bool preset_size;      /* the world's size is the model's preset (see boids_scenario_finish) */
    uint32_t preset_count; /* the boids the preset's world is for */
    float model_dt;        /* the dt the model's world brings (a frame-based model's pace) */
    char model_dir_error[512]; /* a model_dir that did not load, said if its model is unknown */
    uint32_t dims;             /* `dims` as set: 0 (not set: the world's size says), 2 or 3 */
    struct {
        char key[64]; /* a key the file set (model, boids, a parameter, ...) */
        long line;    /* and its line, so later errors about it can name the file and line */
    } keys[BOIDS_SCENARIO_MAX_KEYS];
    int key_count;
    boids_obstacle obstacles[BOIDS_SCENARIO_MAX_OBSTACLES]; /* `obstacle = X,Y[,Z],R` lines */
    long obstacle_lines[BOIDS_SCENARIO_MAX_OBSTACLES];      /* and the line of each */
    uint32_t obstacle_count;
} boids_scenario;

/* Keys beyond a scenario's, for files that carry a world and more (an experiment's manifest):
 * owns() says whether a key is one of them (those may repeat), set() takes its value (an error
 * names the key; the loader adds the file and line). */
typedef struct boids_scenario_extras {
    bool (*owns)(void *ctx, const char *key);
    boids_status (*set)(void *ctx, const char *key, const char *value);
    void *ctx;
} boids_scenario_extras;

/* The file a scenario argument names: `name` itself where it exists; else, for a bare name (no
 * '/', with or without ".ini"), the preset of that name among the installed scenarios
 * (PREFIX/share/boids/scenarios beside the running program's PREFIX/bin) or the source tree's
 * (a program run from its build directory). out gets the path; BOIDS_E_FILE_OPEN naming `name`
 * and where it looked when there is none. */
boids_status boids_scenario_locate(const char *name, char *out, size_t size);

/* An empty scenario: boids_default_world_def(), default_steps. */
void boids_scenario_init(boids_scenario *sc, uint32_t default_steps);
/* Sets one key, as a file's line would: `model` brings the model's preset (parameters, layout,
 * and its world: the manifest's world text over the default world) and forgets the world keys
 * set before; the world keys; every parameter of the model. An error names the key (a file's
 * reader adds the file and line, the command line the flag). */
boids_status boids_scenario_set(boids_scenario *sc, const char *key, const char *value);

/* After the last key: a boid count given without a world size scales the model's own world to it
 * at its density, in its dimension (vicsek's 31.6 x 31.6 px is for 4000 particles, 4 a unit
 * area: 100 get 5 x 5; couzin's 100 x 100 x 100 cube stays a cube); a world given (a file's, the
 * command line's) is kept as given. */
void boids_scenario_finish(boids_scenario *sc);
/* After the last source of keys (the command line's flags, a library call's settings): checks
 * what only the whole can tell, then boids_scenario_finish. `dims 2` with a world given with a
 * depth is refused (it flattens a model's own 3D world only), and so is a sphere (X,Y,Z,R) in a
 * world that ends up flat. */
boids_status boids_scenario_resolve(boids_scenario *sc);

/* "X,Y,R" or "X,Y,Z,R" -> an obstacle (replica 0; z NaN from "X,Y,R", which only a flat world
 * takes); false unless three or four finite numbers, R >= 0. */
bool boids_obstacle_from_text(const char *text, boids_obstacle *out);

/* Reads path into *out (def from boids_default_world_def(), steps from default_steps, then the
 * file). BOIDS_ERR_PARSE "FILE:LINE: KEY: ..." for bad content, BOIDS_ERR_IO if it cannot be read.
 */
boids_status boids_scenario_load(const char *path, uint32_t default_steps, boids_scenario *out);
/* As boids_scenario_load, with the keys of `extras` (NULL: none) handed to it, in file order. */
boids_status boids_scenario_load_extras(const char *path, uint32_t default_steps,
                                        const boids_scenario_extras *extras, boids_scenario *out);
/* Writes def as scenario lines (model, boids, swarms, world, dt, layout, the obstacles, every
 * parameter of the model; not the seed, which callers write where they want it): what
 * boids_scenario_load reads back into the same definition. */
void boids_scenario_write(FILE *f, const boids_world_def *def);
/* As boids_scenario_write, saying only what was given of the world: its size where `size` (else
 * a comment: the model's own world, or the default, follows the count), `dims` where not 0. */
void boids_scenario_write_given(FILE *f, const boids_world_def *def, bool size, uint32_t dims);
/* The line of the file that set key, 0 if none. */
long boids_scenario_line(const boids_scenario *sc, const char *key);

#endif
