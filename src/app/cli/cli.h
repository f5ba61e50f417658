/* Command lines of `boids` and `boids experiment`, parsed after the table of app/cli/options.h.
 * Parsing only: no side effects. The parsed options remember where each setting came from (a
 * flag, --set, or a line of the scenario file), so an error about a setting names what the user
 * wrote (boids_cli_origin). */
#ifndef BOIDS_APP_CLI_CLI_H
#define BOIDS_APP_CLI_CLI_H

#include <stdio.h>

#include "app/cli/options.h"
#include "boids.h"
#include "core/scenario.h"

#define BOIDS_CLI_MAX_SETS 128
#define BOIDS_CLI_MAX_SWEEPS 8

typedef struct boids_cli {
    boids_world_def def; /* model, params (with --set applied), backend, sizes, ... */
    bool count_given, swarms_given, world_given; /* by a flag or the scenario file */
    uint32_t steps;            /* steps to run (headless default 600; a window runs until closed
                                  unless --steps is given) */
    bool steps_given;          /* by --steps */
    const char *scenario_path; /* SCENARIO.ini as found (a bare preset name located), or NULL */
    char scenario_buf[4096];
    boids_scenario scenario; /* what the file set, and on which lines; the flags then */
    const char *given[BOIDS_OPTION_COUNT]; /* each option as typed ("-n", "--boids"), or NULL */
    const char *sets[BOIDS_CLI_MAX_SETS];  /* the --set KEY=VALUE texts, in order */
    int nsets;
    const char *init_path;             /* --init, or NULL */
    const char *dump_path;             /* --dump, or NULL */
    const char *predators_path;        /* --predators, or NULL */
    const char *dump_predators_path;   /* --dump-predators, or NULL */
    const char *events_path;           /* --events: the run's catches, or NULL */
    const char *metrics_path;          /* --metrics: observables over time, or NULL */
    uint32_t metrics_every;            /* --metrics-every: steps between its rows */
    bool field;                        /* --field: the field measures in --metrics' rows */
    boids_field_options field_options; /* --field R[,BINS[,RANKS]] */
    const char *field_profile_path;    /* --field-profile: the last state's C(r) and gamma(n) */
    boids_obstacle obstacles[BOIDS_SCENARIO_MAX_OBSTACLES];  /* --obstacle X,Y[,Z],R (repeatable) */
    const char *obstacle_text[BOIDS_SCENARIO_MAX_OBSTACLES]; /* and each as written */
    uint32_t obstacle_count;
    const char *frames_dir; /* --frames: PNG sequence directory, or NULL */
    int size_w, size_h;     /* --size: frame size for --frames and headless --screenshot */
    uint32_t frame_steps;   /* --frame-steps: simulation steps per exported frame */
    const char *screenshot; /* --screenshot FILE: a PNG of the last frame, or NULL */
    const char *video_path; /* --video FILE.mp4 (through ffmpeg), or NULL */
    float fps;              /* --fps: the video's frame rate (default 30) */
    uint32_t warmup;        /* --warmup K: steps before the first frame */
    bool has_view;          /* --view X,Y,W,H: the region of the world exported */
    bool has_camera;        /* --camera: a 3D world's exported eye, target and field of view */
    float camera[7];
    float orbit; /* --orbit: degrees per second of video the 3D view turns by */
    float view[4];
    float boid_size;        /* --boid-size: a boid's drawn length in world px (0: the default) */
    bool backend_auto;      /* --backend auto (the default): see boids_cli_resolve_backend */
    char backend_note[256]; /* why auto chose what it chose, for the header line */
    bool headless;
    bool help, version;
    /* boids experiment's own */
    uint32_t runs, jobs, batch;               /* --runs, --jobs, --batch (0: not given) */
    uint32_t shard, shards;                   /* --shard I/K (1/1 when not given) */
    const char *out, *resume;                 /* --out, --resume */
    const char *sweeps[BOIDS_CLI_MAX_SWEEPS]; /* the --sweep texts */
    int nsweeps;
} boids_cli;

/* Parses the arguments of a command (BOIDS_IN_RUN: argv[0] is the program; BOIDS_IN_EXPERIMENT:
 * argv[0] is "experiment"). On a usage error returns BOIDS_ERR_INVALID (or the scenario file's
 * error) with a message naming the flag or the file and line: an unknown flag (with the nearest
 * known one), one the command does not take, a value out of its range. */
boids_status boids_cli_parse_command(int argc, char **argv, unsigned command, boids_cli *cli);
/* boids_cli_parse_command(..., BOIDS_IN_RUN, ...). */
boids_status boids_cli_parse(int argc, char **argv, boids_cli *cli);
/* --backend auto: the GPU backend where OpenGL 4.3 runs on a hardware GPU; the CPU backend where
 * the only OpenGL runs on the CPU (llvmpipe, zink over lavapipe: slower than the CPU backend at
 * every flock size measured; the EGL device says so) or none at all. Probes a headless context
 * once; fills def.backend and the note. */
void boids_cli_resolve_backend(boids_cli *cli);
/* Once it is known whether the run opens a window: an option that would do nothing in it is
 * refused (BOIDS_E_USAGE naming it and what it needs), not taken without a word: a picture's
 * option (--size, --fps, --view, --camera, --orbit, --boid-size, --frame-steps) where no picture
 * it applies to is made (a window draws and records its own view, at --size and --frame-steps),
 * --metrics-every without --metrics, and a headless run's --layout where --init gives the whole
 * start. */
boids_status boids_cli_check_run(const boids_cli *cli, bool window);
/* --field's R[,BINS[,RANKS]][,FLOCK][,from:X] into *out (a BINS or RANKS of 0 or left out: the
 * library's default; the words in either order); false where the text is not that. An
 * experiment's manifest records the option in this form. */
bool boids_cli_field_parse(const char *text, boids_field_options *out);
/* Prints the usage text, with the models and their parameters. */
void boids_cli_usage(FILE *out);
/* The model folders, before anything names their models: BOIDS_MODEL_PATH's (folders separated
 * by ':'; one that fails to load is passed over with a warning, as PATH's are), then each
 * --model-dir of the command line; each load, these and any later (a scenario's model_dir, a
 * manifest's), says what it did on stderr. */
boids_status boids_cli_load_model_dirs(int argc, char **argv, unsigned command);
/* What a load did, on stderr (the program sets it as the library's boids_model_load_reporter):
 * its models, and whether they were compiled now or taken from the cache, in how long. */
void boids_cli_report_load(const char *folder, const boids_model_load_info *info);
/* --help TOPIC: a model's parameters (its name), the viewer's keys (keys) or everything (all);
 * BOIDS_E_USAGE for another, its message listing the topics. */
boids_status boids_cli_help_topic(FILE *out, const char *topic);

/* Where a setting came from, as the user wrote it: "--boids", "--set max_speed", "scen.ini:3:
 * boids", or NULL for a default. key: a world-definition field (model, count, swarms, world,
 * dt, seed, threads, neighbors, backend) or a parameter name. */
const char *boids_cli_origin(const boids_cli *cli, const char *key, char *buf, size_t size);
/* Where the world's explicit obstacle i came from: "--obstacle X,Y,R" or "scen.ini:7: obstacle". */
const char *boids_cli_obstacle_origin(const boids_cli *cli, size_t i, char *buf, size_t size);
/* What a message about obstacle i that prints `detail` should add where the obstacle was written
 * on the command line with a number that reads as another float, which the message prints (exactly)
 * and the user did not write: " (99999999 reads as the float 100000000)" for --obstacle
 * 99999999,2,3; else "". */
const char *boids_cli_obstacle_note(const boids_cli *cli, size_t i, const char *detail, char *buf,
                                    size_t size);

#endif
