/* Every setting of `boids`, `boids experiment` and scenario files, one row each: where it is
 * read (a scenario file's key, a flag, its short form), what it takes (the kind and the range),
 * where it goes, and its help text. The command-line parser (app/cli/cli.c), the scenario reader
 * (core/scenario.c), --help and the README's option list (a test compares them) all follow from
 * this table: adding a setting is one row.
 *
 *   W(ID, key, flag, short, metavar, kind, lo, hi, dest, error key, commands, help)
 *       a setting of the world: a scenario file's `key = value` line and a flag; dest is a
 *       member of boids_scenario (core/scenario.h), or for CUSTOM the function of scenario.c
 *       that reads it
 *   O(ID, key, flag, short, metavar, kind, lo, hi, dest, error key, commands, help)
 *       an option of the command line only (key NULL); dest is a member of boids_cli
 *       (app/cli/cli.h), or for CUSTOM the function of app/cli/cli.c that reads it
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
#define BOIDS_OPTIONS(W, O)                                                                        \
    O(BACKEND, NULL, "--backend", NULL, "auto|gpu|cpu", CUSTOM, 0, 0, read_backend, "backend",     \
      BOIDS_IN_BOTH,                                                                               \
      "auto (default): the GPU on a hardware GPU, else the CPU; an experiment on the GPU runs a "  \
      "combination's runs as the replicas of one world")                                           \
    W(MODEL, "model", "--model", NULL, "NAME", CUSTOM, 0, 0, set_model, "model", BOIDS_IN_BOTH,    \
      "the model, with its preset parameters and world (default shiffman-per-second; the list "    \
      "below); options still override them")                                                       \
    W(COUNT, "boids", "--boids", "-n", "N", U32, 0, UINT32_MAX, def.count, "count", BOIDS_IN_BOTH, \
      "number of boids (default 100000, or the model's world: kit's 35)")                          \
    W(SWARMS, "swarms", "--swarms", NULL, "K", U32, 1, BOIDS_MAX_SWARMS, def.swarms, "swarms",     \
      BOIDS_IN_BOTH, "number of swarms; boid i starts in swarm i mod K (default 1)")               \
    W(WORLD, "world", "--world", NULL, "WxH", CUSTOM, 0, 0, set_world, "world", BOIDS_IN_BOTH,     \
      "world size in px (default: 16:9, one boid per 1000 px^2, or the model's world)")            \
    W(STEPS, "steps", "--steps", NULL, "K", U32, 0, UINT32_MAX, steps, NULL, BOIDS_IN_BOTH,        \
      "steps to run (default 600, or the model's world: kit's 3000; a window runs until closed "   \
      "unless --steps is given); a run also ends on its model's stop condition")                   \
    W(DT, "dt", "--dt", NULL, "SECONDS", FLOAT, 0, FLT_MAX, def.dt, "dt", BOIDS_IN_BOTH,           \
      "fixed step of per-second models (default 1/60, or the model's world: kit's 0.08)")          \
    W(SEED, "seed", "--seed", NULL, "S", U64, 0, UINT64_MAX, def.seed, "seed", BOIDS_IN_BOTH,      \
      "seed of the initial state (default 1); an experiment's first run")                          \
    W(LAYOUT, "layout", "--layout", NULL, "NAME", CUSTOM, 0, 0, set_layout, "layout",              \
      BOIDS_IN_BOTH,                                                                               \
      "the random start: uniform (over the world), centre (the kit authors' centre square); "      \
      "default: the model's")                                                                      \
    W(OBSTACLE, "obstacle", "--obstacle", NULL, "X,Y,R", CUSTOM, 0, 0, add_obstacle, "obstacle",   \
      BOIDS_IN_BOTH, "an obstacle, a circle (repeatable): replaces the random ones")               \
    O(SET, NULL, "--set", NULL, "KEY=VALUE", CUSTOM, 0, 0, read_set, NULL, BOIDS_IN_BOTH,          \
      "set a model parameter by name (repeatable; the lists below)")                               \
    O(INIT, NULL, "--init", NULL, "FILE.csv", TEXT, 0, 0, init_path, NULL, BOIDS_IN_RUN,           \
      "start from this state (id,x,y,vx,vy,swarm,...) instead of a random one")                    \
    O(DUMP, NULL, "--dump", NULL, "FILE.csv", TEXT, 0, 0, dump_path, NULL, BOIDS_IN_RUN,           \
      "write the final state")                                                                     \
    O(PREDATORS, NULL, "--predators", NULL, "FILE.csv", TEXT, 0, 0, predators_path, NULL,          \
      BOIDS_IN_RUN, "start the predators from this file (kit; id,x,y,vx,vy)")                      \
    O(DUMP_PREDATORS, NULL, "--dump-predators", NULL, "FILE.csv", TEXT, 0, 0, dump_predators_path, \
      NULL, BOIDS_IN_RUN, "write the predators' final state (kit)")                                \
    O(EVENTS, NULL, "--events", NULL, "FILE.csv", TEXT, 0, 0, events_path, NULL, BOIDS_IN_RUN,     \
      "write the run's catches: step,time,boid,age,predator (kit)")                                \
    O(METRICS, NULL, "--metrics", NULL, "FILE.csv", TEXT, 0, 0, metrics_path, NULL, BOIDS_IN_RUN,  \
      "write the observables every --metrics-every steps and at the end (columns step, time, "     \
      "alive, polarization, mean_nn, mean_speed, min_speed, max_speed, groups, catches)")          \
    O(METRICS_EVERY, NULL, "--metrics-every", NULL, "K", U32, 1, UINT32_MAX, metrics_every, NULL,  \
      BOIDS_IN_BOTH,                                                                               \
      "steps between rows of --metrics (default 10); of an experiment's metrics.csv (default: "    \
      "none)")                                                                                     \
    O(THREADS, NULL, "--threads", NULL, "N", CUSTOM, 0, 256, read_threads, "threads",              \
      BOIDS_IN_RUN, "CPU backend worker threads (default: one per core)")                          \
    O(NEIGHBORS, NULL, "--neighbors", NULL, "grid|brute", CUSTOM, 0, 0, read_neighbors,            \
      "neighbors", BOIDS_IN_RUN, "CPU backend neighbour search (brute force is O(N^2), for tests)")\
    O(HEADLESS, NULL, "--headless", NULL, NULL, SWITCH, 0, 0, headless, NULL, BOIDS_IN_RUN,        \
      "no window even if a display exists")                                                        \
    O(FRAMES, NULL, "--frames", NULL, "DIR", TEXT, 0, 0, frames_dir, NULL, BOIDS_IN_RUN,           \
      "write a PNG sequence into DIR (made with its parents if missing; frame_000000.png, ...)")   \
    O(VIDEO, NULL, "--video", NULL, "FILE.mp4", TEXT, 0, 0, video_path, NULL, BOIDS_IN_RUN,        \
      "write an H.264 video through ffmpeg (a headless run; apt install ffmpeg)")                  \
    O(FPS, NULL, "--fps", NULL, "F", FLOAT, 0.1, 1000, fps, NULL, BOIDS_IN_RUN,                    \
      "frame rate of --video and of the printed ffmpeg command, in [0.1, 1000] (default 30)")      \
    O(SIZE, NULL, "--size", NULL, "WxH", CUSTOM, 1, 16384, read_frame_size, NULL, BOIDS_IN_RUN,    \
      "frame size for --frames, --video and a headless --screenshot (default 1920x1080)")          \
    O(FRAME_STEPS, NULL, "--frame-steps", NULL, "K", U32, 1, 100000, frame_steps, NULL,            \
      BOIDS_IN_RUN, "simulation steps per exported frame (default 1)")                             \
    O(WARMUP, NULL, "--warmup", NULL, "K", U32, 0, UINT32_MAX, warmup, NULL, BOIDS_IN_RUN,         \
      "steps run before the first frame, not exported or timed")                                   \
    O(VIEW, NULL, "--view", NULL, "X,Y,W,H", CUSTOM, 0, 0, read_view, NULL, BOIDS_IN_RUN,          \
      "export this rectangle of the world (default: all of it)")                                   \
    O(BOID_SIZE, NULL, "--boid-size", NULL, "PX", FLOAT, 0, 1e5, boid_size, NULL, BOIDS_IN_RUN,    \
      "a boid's drawn length in world px (default 8; at least 3 screen px)")                       \
    O(SCREENSHOT, NULL, "--screenshot", NULL, "FILE", TEXT, 0, 0, screenshot, NULL, BOIDS_IN_RUN,  \
      "a PNG of the last frame (in a window: with the HUD)")                                       \
    O(RUNS, NULL, "--runs", NULL, "R", U32, 1, 10000000, runs, NULL, BOIDS_IN_EXPERIMENT,          \
      "runs per combination of the sweeps, seeds S .. S+R-1 (at most 10^7 runs in all)")           \
    O(OUT, NULL, "--out", NULL, "DIR", TEXT, 0, 0, out, NULL, BOIDS_IN_EXPERIMENT,                 \
      "where the tables go (created; refused if it holds anything)")                               \
    O(SWEEP, NULL, "--sweep", NULL, "KEY=A:B:COUNT", CUSTOM, 0, 0, read_sweep, NULL,               \
      BOIDS_IN_EXPERIMENT,                                                                         \
      "a parameter over COUNT values from A to B, or KEY=v1,v2,... (repeatable: every "            \
      "combination, R runs each; the first sweep varies slowest)")                                 \
    O(JOBS, NULL, "--jobs", NULL, "J", U32, 1, 1024, jobs, NULL, BOIDS_IN_EXPERIMENT,              \
      "CPU runs at once (default: one per core)")                                                  \
    O(BATCH, NULL, "--batch", NULL, "B", U32, 1, BOIDS_MAX_REPLICAS, batch, NULL,                  \
      BOIDS_IN_EXPERIMENT, "GPU runs per world (default: up to 2^20 boids a world)")               \
    O(SHARD, NULL, "--shard", NULL, "I/K", CUSTOM, 1, 1000000, read_shard, NULL,                   \
      BOIDS_IN_EXPERIMENT,                                                                         \
      "run only the I-th of K slices of the runs (1 <= I <= K); experiment-merge joins them")      \
    O(RESUME, NULL, "--resume", NULL, "DIR", TEXT, 0, 0, resume, NULL, BOIDS_IN_EXPERIMENT,        \
      "finish an interrupted experiment (or shard) in DIR (with --jobs and --batch only)")         \
    O(HELP, NULL, "--help", "-h", NULL, SWITCH, 0, 0, help, NULL, BOIDS_IN_BOTH,                   \
      "usage, options, examples, the models; --help MODEL: its parameters, defaults and units "  \
      "(--help all: every model's and the viewer's keys; --help keys: the keys)")             \
    O(VERSION, NULL, "--version", NULL, NULL, SWITCH, 0, 0, version, NULL, BOIDS_IN_RUN,           \
      "the version")
/* clang-format on */

typedef enum boids_option_id {
#define BOIDS_X_OPTION_ENUM(ID, ...) BOIDS_OPT_##ID,
    BOIDS_OPTIONS(BOIDS_X_OPTION_ENUM, BOIDS_X_OPTION_ENUM)
#undef BOIDS_X_OPTION_ENUM
        BOIDS_OPTION_COUNT
} boids_option_id;

typedef enum boids_option_kind {
    BOIDS_OPTION_SWITCH,
    BOIDS_OPTION_TEXT,
    BOIDS_OPTION_U32,
    BOIDS_OPTION_U64,
    BOIDS_OPTION_FLOAT,
    BOIDS_OPTION_CUSTOM,
} boids_option_kind;

typedef struct boids_option {
    boids_option_id id;
    const char *key, *flag, *alias, *metavar;
    boids_option_kind kind;
    double lo, hi;
    const char *error_key;
    unsigned where;
    const char *help;
} boids_option;

/* The table, in its order. */
const boids_option *boids_options(size_t *count);
const boids_option *boids_option_of(boids_option_id id);
/* The row of a flag ("--boids" or "-n"; a value after '=' is ignored), NULL if unknown. */
const boids_option *boids_option_find(const char *arg);
/* The row of a scenario file's key ("boids"), NULL if none. */
const boids_option *boids_option_of_key(const char *key);
/* The known flag closest to an unknown one ("--step" -> "--steps"), or NULL. */
const char *boids_option_guess(const char *arg);
/* A value of a U32, U64 or FLOAT row, read into *dest (a uint32_t, uint64_t or float) when it
 * is a number within the row's range; otherwise false, and `what` says what it should be ("a
 * whole number in [1, 1024]"). */
bool boids_option_value(const boids_option *o, const char *text, void *dest, char *what,
                        size_t size);
/* The option lines of --help for a command (BOIDS_IN_RUN or BOIDS_IN_EXPERIMENT), wrapped to
 * 100 columns. */
void boids_options_print(FILE *out, unsigned command);
/* Text wrapped to `width` columns, each line after the first indented by `indent`; the first
 * continues a line already `col` columns long. */
void boids_print_wrapped(FILE *out, const char *text, int col, int indent, int width);

/* The size of what a row of each kind stores, for the static checks beside each table of
 * destinations (app/cli/cli.c, core/scenario.c). */
#define BOIDS_OPTION_SIZE_SWITCH sizeof(bool)
#define BOIDS_OPTION_SIZE_TEXT sizeof(const char *)
#define BOIDS_OPTION_SIZE_U32 sizeof(uint32_t)
#define BOIDS_OPTION_SIZE_U64 sizeof(uint64_t)
#define BOIDS_OPTION_SIZE_FLOAT sizeof(float)

#endif
