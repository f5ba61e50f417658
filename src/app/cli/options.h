/* Every option of `boids` and `boids experiment`, one row each: the world's settings
 * (core/options.h's BOIDS_WORLD_SETTINGS, which scenario files read too) among the options of the
 * command line alone, in the order --help prints them. The parser (app/cli/cli.c), --help and
 * the README's option list (a test compares them) follow from this table: adding an option is
 * one row.
 *
 *   O(ID, key, flag, short, metavar, kind, lo, hi, dest, error key, commands, help)
 *       an option of the command line only (key NULL); dest is a member of boids_cli
 *       (app/cli/cli.h), or for CUSTOM the function of app/cli/cli.c that reads it
 *   W(...)  a world setting, as core/options.h describes it
 */
#ifndef BOIDS_APP_CLI_OPTIONS_H
#define BOIDS_APP_CLI_OPTIONS_H

#include <stdio.h>

#include "core/options.h"

/* clang-format off */
#define BOIDS_OPTIONS(W, O)                                                                        \
    O(BACKEND, NULL, "--backend", NULL, "auto|gpu|cpu", CUSTOM, 0, 0, read_backend, "backend",     \
      BOIDS_IN_BOTH,                                                                               \
      "auto (default): the GPU on a hardware GPU, else the CPU; an experiment on the GPU runs a "  \
      "combination's runs as the replicas of one world")                                           \
    BOIDS_WORLD_SETTINGS(W)                                                                        \
    O(SET, NULL, "--set", NULL, "KEY=VALUE", CUSTOM, 0, 0, read_set, NULL, BOIDS_IN_BOTH,          \
      "set a model parameter by name (repeatable; the lists below)")                               \
    O(INIT, NULL, "--init", NULL, "FILE.csv", TEXT, 0, 0, init_path, NULL, BOIDS_IN_RUN,           \
      "start from this state (id,x,y,vx,vy,swarm,...) instead of a random one")                    \
    O(DUMP, NULL, "--dump", NULL, "FILE.csv", TEXT, 0, 0, dump_path, NULL, BOIDS_IN_RUN,           \
      "write the final state")                                                                     \
    O(PREDATORS, NULL, "--predators", NULL, "FILE.csv", TEXT, 0, 0, predators_path, NULL,          \
      BOIDS_IN_RUN, "start the predators from this file (kit; id,x,y,vx,vy or id,x,y,z,vx,vy,vz)") \
    O(DUMP_PREDATORS, NULL, "--dump-predators", NULL, "FILE.csv", TEXT, 0, 0, dump_predators_path, \
      NULL, BOIDS_IN_RUN, "write the predators' final state (kit)")                                \
    O(EVENTS, NULL, "--events", NULL, "FILE.csv", TEXT, 0, 0, events_path, NULL, BOIDS_IN_RUN,     \
      "write the run's catches: step,time,boid,age,predator (kit)")                                \
    O(METRICS, NULL, "--metrics", NULL, "FILE.csv", TEXT, 0, 0, metrics_path, NULL, BOIDS_IN_RUN,  \
      "write the observables every --metrics-every steps and at the end (columns step, time, "     \
      "alive, polarization, mean_nn, mean_speed, min_speed, max_speed, groups, catches, milling)")\
    O(METRICS_EVERY, NULL, "--metrics-every", NULL, "K", U32, 1, UINT32_MAX, metrics_every, NULL,  \
      BOIDS_IN_BOTH,                                                                               \
      "steps between rows of --metrics (default 10); of an experiment's metrics.csv (default: "    \
      "none)")                                                                                     \
    O(FIELD, NULL, "--field", NULL, "R[,BINS[,RANKS]][,FLOCK]", CUSTOM, 0, 0, read_field, NULL,   \
      BOIDS_IN_BOTH,                                                                               \
      "add xi, xi_speed (correlation lengths within R px; ,from:X: from X px on), n_c (of the "    \
      "RANKS nearest), the diameter (FLOCK: replica, swarm or group) to --metrics, experiments")   \
    O(FIELD_PROFILE, NULL, "--field-profile", NULL, "FILE.csv", TEXT, 0, 0, field_profile_path,    \
      NULL, BOIDS_IN_RUN, "the last state's C(r) and gamma(n) (rows step,measure,x,value)")        \
    O(THREADS, NULL, "--threads", NULL, "N", CUSTOM, 0, 256, read_threads, "threads",              \
      BOIDS_IN_RUN, "CPU backend worker threads (default: one per core)")                          \
    O(SEARCH, NULL, "--search", NULL, "grid|brute", CUSTOM, 0, 0, read_search, "neighbors",        \
      BOIDS_IN_RUN, "CPU backend neighbour search (brute force is O(N^2), for tests)")            \
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
    O(CAMERA, NULL, "--camera", NULL, "X,Y,Z,TX,TY,TZ[,FOV]", CUSTOM, 0, 0, read_camera,           \
      NULL, BOIDS_IN_RUN,                                                                          \
      "a 3D world's exported view: the eye at (X, Y, Z) looking at (TX, TY, TZ), FOV degrees "     \
      "high (default 45; without --camera: the whole box from above a corner)")                    \
    O(ORBIT, NULL, "--orbit", NULL, "DEG", FLOAT, -3600, 3600, orbit, NULL, BOIDS_IN_RUN,          \
      "turn a 3D world's exported view about its target by DEG degrees per second of video (at "   \
      "--fps)")                                                                                    \
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
      "a parameter over COUNT values from A to B, or KEY=v1,v2,...; or a world setting: boids, "   \
      "world, dims, neighbours, swarms, dt, layout, cell_size (repeatable: every combination, R "  \
      "runs each; the first sweep varies slowest)")                                                \
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
      "usage, options, the models; --help MODEL|keys|all: a model's parameters, the viewer's "    \
      "keys, everything")                                                                         \
    O(VERSION, NULL, "--version", NULL, NULL, SWITCH, 0, 0, version, NULL, BOIDS_IN_RUN,           \
      "the version")
/* clang-format on */

typedef enum boids_option_id {
#define BOIDS_X_OPTION_ENUM(ID, ...) BOIDS_OPT_##ID,
    BOIDS_OPTIONS(BOIDS_X_OPTION_ENUM, BOIDS_X_OPTION_ENUM)
#undef BOIDS_X_OPTION_ENUM
        BOIDS_OPTION_COUNT
} boids_option_id;

/* The table, in its order. */
const boids_option *boids_options(size_t *count);
const boids_option *boids_option_of(boids_option_id id);
/* The row of a flag ("--boids" or "-n"; a value after '=' is ignored), NULL if unknown. */
const boids_option *boids_option_find(const char *arg);
/* The known flag closest to an unknown one ("--step" -> "--steps"), or NULL. */
const char *boids_option_guess(const char *arg);
/* A short flag glued to its value ("-n10", "-n=10"): its row, the value in *value; else NULL. */
const boids_option *boids_option_glued(const char *arg, const char **value);
/* The option lines of --help for a command (BOIDS_IN_RUN or BOIDS_IN_EXPERIMENT), wrapped to
 * 100 columns. */
void boids_options_print(FILE *out, unsigned command);
/* Text wrapped to `width` columns, each line after the first indented by `indent`; the first
 * continues a line already `col` columns long. */
void boids_print_wrapped(FILE *out, const char *text, int col, int indent, int width);

/* A world setting's option (its row in this table). */
const boids_option *boids_option_of_setting(boids_setting_id id);

#endif
