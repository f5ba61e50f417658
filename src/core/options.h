/* Every option of `boids` and `boids experiment`, one row each: its flag, its short form, what it
 * takes, the scenario file's key that sets the same thing, the key the library's errors use for
 * it, which commands take it, and its help text. The parsers (app/cli.c, app/experiment.c),
 * --help and the README's option list (a test compares them) all follow from this table: adding
 * an option is a row here and the line that stores its value.
 *
 *   O(ID, flag, short, metavar, file key, error key, commands, help)
 *
 *   metavar     what follows the flag, or NULL for a switch that takes no value
 *   file key    the scenario file's key for it (core/scenario.h sets it, for both), or NULL
 *   error key   the world-definition field or parameter a library error names for it, or NULL
 *   commands    BOIDS_IN_RUN (boids [SCENARIO.ini]), BOIDS_IN_EXPERIMENT (boids experiment)
 */
#ifndef BOIDS_APP_OPTIONS_H
#define BOIDS_APP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define BOIDS_IN_RUN 1u
#define BOIDS_IN_EXPERIMENT 2u
#define BOIDS_IN_BOTH (BOIDS_IN_RUN | BOIDS_IN_EXPERIMENT)

#define BOIDS_OPTION_LIST(O)                                                                        \
    O(BACKEND, "--backend", NULL, "auto|gpu|cpu", NULL, "backend", BOIDS_IN_BOTH,                   \
      "auto (default): the GPU on a hardware GPU, else the CPU; an experiment on the GPU runs a "   \
      "combination's runs as the replicas of one world")                                            \
    O(MODEL, "--model", NULL, "NAME", "model", "model", BOIDS_IN_BOTH,                              \
      "the model, with its preset parameters and world (default shiffman-per-second; the list "     \
      "below); options still override them")                                                       \
    O(COUNT, "--boids", "-n", "N", "boids", "count", BOIDS_IN_BOTH,                                 \
      "number of boids (default 100000, or the model's world: kit's 35)")                           \
    O(SWARMS, "--swarms", NULL, "K", "swarms", "swarms", BOIDS_IN_BOTH,                             \
      "number of swarms; boid i starts in swarm i mod K (default 1)")                               \
    O(WORLD, "--world", NULL, "WxH", "world", "world", BOIDS_IN_BOTH,                               \
      "world size in px (default: 16:9, one boid per 1000 px^2, or the model's world)")             \
    O(STEPS, "--steps", NULL, "K", "steps", NULL, BOIDS_IN_BOTH,                                    \
      "steps to run (default 600, or the model's world: kit's 3000; a window runs until closed "    \
      "unless --steps is given); a run also ends on its model's stop condition")                    \
    O(DT, "--dt", NULL, "SECONDS", "dt", "dt", BOIDS_IN_BOTH,                                       \
      "fixed step of per-second models (default 1/60, or the model's world: kit's 0.08)")           \
    O(SEED, "--seed", NULL, "S", "seed", "seed", BOIDS_IN_BOTH,                                     \
      "seed of the initial state (default 1); an experiment's first run")                           \
    O(LAYOUT, "--layout", NULL, "NAME", "layout", "layout", BOIDS_IN_BOTH,                          \
      "the random start: uniform (over the world), centre (the kit authors' centre square); "       \
      "default: the model's")                                                                       \
    O(OBSTACLE, "--obstacle", NULL, "X,Y,R", "obstacle", "obstacle", BOIDS_IN_BOTH,                 \
      "an obstacle, a circle (repeatable): replaces the random ones")                               \
    O(SET, "--set", NULL, "KEY=VALUE", NULL, NULL, BOIDS_IN_BOTH,                                   \
      "set a model parameter by name (repeatable; the lists below)")                                \
    O(INIT, "--init", NULL, "FILE.csv", NULL, NULL, BOIDS_IN_RUN,                                   \
      "start from this state (id,x,y,vx,vy,swarm,...) instead of a random one")                     \
    O(DUMP, "--dump", NULL, "FILE.csv", NULL, NULL, BOIDS_IN_RUN, "write the final state")          \
    O(PREDATORS, "--predators", NULL, "FILE.csv", NULL, NULL, BOIDS_IN_RUN,                         \
      "start the predators from this file (kit; id,x,y,vx,vy)")                                     \
    O(DUMP_PREDATORS, "--dump-predators", NULL, "FILE.csv", NULL, NULL, BOIDS_IN_RUN,               \
      "write the predators' final state (kit)")                                                     \
    O(EVENTS, "--events", NULL, "FILE.csv", NULL, NULL, BOIDS_IN_RUN,                               \
      "write the run's catches: step,time,boid,age,predator (kit)")                                 \
    O(METRICS, "--metrics", NULL, "FILE.csv", NULL, NULL, BOIDS_IN_RUN,                             \
      "write the observables every --metrics-every steps and at the end (columns step, time, "      \
      "alive, polarization, mean_nn, mean_speed, min_speed, max_speed, groups, catches)")           \
    O(METRICS_EVERY, "--metrics-every", NULL, "K", NULL, NULL, BOIDS_IN_BOTH,                       \
      "steps between rows of --metrics (default 10); of an experiment's metrics.csv (default: "     \
      "none)")                                                                                      \
    O(THREADS, "--threads", NULL, "N", NULL, "threads", BOIDS_IN_RUN,                               \
      "CPU backend worker threads (default: one per core)")                                         \
    O(NEIGHBORS, "--neighbors", NULL, "grid|brute", NULL, "neighbors", BOIDS_IN_RUN,                \
      "CPU backend neighbour search (brute force is O(N^2), for tests)")                            \
    O(HEADLESS, "--headless", NULL, NULL, NULL, NULL, BOIDS_IN_RUN,                                 \
      "no window even if a display exists")                                                         \
    O(FRAMES, "--frames", NULL, "DIR", NULL, NULL, BOIDS_IN_RUN,                                    \
      "write a PNG sequence into DIR (made with its parents if missing; frame_000000.png, ...)")    \
    O(VIDEO, "--video", NULL, "FILE.mp4", NULL, NULL, BOIDS_IN_RUN,                                 \
      "write an H.264 video through ffmpeg (a headless run; apt install ffmpeg)")                   \
    O(FPS, "--fps", NULL, "F", NULL, NULL, BOIDS_IN_RUN,                                            \
      "frame rate of --video and of the printed ffmpeg command, in [0.1, 1000] (default 30)")        \
    O(SIZE, "--size", NULL, "WxH", NULL, NULL, BOIDS_IN_RUN,                                        \
      "frame size for --frames, --video and a headless --screenshot (default 1920x1080)")           \
    O(FRAME_STEPS, "--frame-steps", NULL, "K", NULL, NULL, BOIDS_IN_RUN,                            \
      "simulation steps per exported frame (default 1)")                                            \
    O(WARMUP, "--warmup", NULL, "K", NULL, NULL, BOIDS_IN_RUN,                                      \
      "steps run before the first frame, not exported or timed")                                    \
    O(VIEW, "--view", NULL, "X,Y,W,H", NULL, NULL, BOIDS_IN_RUN,                                    \
      "export this rectangle of the world (default: all of it)")                                    \
    O(BOID_SIZE, "--boid-size", NULL, "PX", NULL, NULL, BOIDS_IN_RUN,                               \
      "a boid's drawn length in world px (default 8; at least 3 screen px)")                        \
    O(SCREENSHOT, "--screenshot", NULL, "FILE", NULL, NULL, BOIDS_IN_RUN,                           \
      "a PNG of the last frame (in a window: with the HUD)")                                        \
    O(RUNS, "--runs", NULL, "R", NULL, NULL, BOIDS_IN_EXPERIMENT,                                   \
      "runs per combination of the sweeps, seeds S .. S+R-1 (at most 10^7 runs in all)")           \
    O(OUT, "--out", NULL, "DIR", NULL, NULL, BOIDS_IN_EXPERIMENT,                                   \
      "where the tables go (created; refused if it holds anything)")                                \
    O(SWEEP, "--sweep", NULL, "KEY=A:B:COUNT", NULL, NULL, BOIDS_IN_EXPERIMENT,                     \
      "a parameter over COUNT values from A to B, or KEY=v1,v2,... (repeatable: every "             \
      "combination, R runs each; the first sweep varies slowest)")                                  \
    O(JOBS, "--jobs", NULL, "J", NULL, NULL, BOIDS_IN_EXPERIMENT,                                   \
      "CPU runs at once (default: one per core)")                                                   \
    O(BATCH, "--batch", NULL, "B", NULL, NULL, BOIDS_IN_EXPERIMENT,                                 \
      "GPU runs per world (default: up to 2^20 boids a world)")                                     \
    O(SHARD, "--shard", NULL, "I/K", NULL, NULL, BOIDS_IN_EXPERIMENT,                               \
      "run only the I-th of K slices of the runs (1 <= I <= K); experiment-merge joins them")       \
    O(RESUME, "--resume", NULL, "DIR", NULL, NULL, BOIDS_IN_EXPERIMENT,                             \
      "finish an interrupted experiment (or shard) in DIR (with --jobs and --batch only)")          \
    O(HELP, "--help", "-h", NULL, NULL, NULL, BOIDS_IN_BOTH,                                        \
      "usage, viewer keys, examples, every model parameter with its default and unit")              \
    O(VERSION, "--version", NULL, NULL, NULL, NULL, BOIDS_IN_RUN, "the version")

typedef enum boids_option_id {
#define BOIDS_X_OPTION_ENUM(ID, flag, alias, metavar, key, error_key, where, help) BOIDS_OPT_##ID,
    BOIDS_OPTION_LIST(BOIDS_X_OPTION_ENUM)
#undef BOIDS_X_OPTION_ENUM
        BOIDS_OPTION_COUNT
} boids_option_id;

typedef struct boids_option {
    boids_option_id id;
    const char *flag, *alias, *metavar, *key, *error_key;
    unsigned where;
    const char *help;
} boids_option;

/* The table, in its order. */
const boids_option *boids_options(size_t *count);
const boids_option *boids_option_of(boids_option_id id);
/* The row of a flag ("--boids" or "-n"; a value after '=' is ignored), NULL if unknown. */
const boids_option *boids_option_find(const char *arg);
/* The known flag closest to an unknown one ("--step" -> "--steps"), or NULL. */
const char *boids_option_guess(const char *arg);
/* The option lines of --help for a command (BOIDS_IN_RUN or BOIDS_IN_EXPERIMENT), wrapped to
 * 100 columns. */
void boids_options_print(FILE *out, unsigned command);
/* Text wrapped to `width` columns, each line after the first indented by `indent`; the first
 * continues a line already `col` columns long. */
void boids_print_wrapped(FILE *out, const char *text, int col, int indent, int width);

#endif
