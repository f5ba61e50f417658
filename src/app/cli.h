/* Command-line options of `boids` (PRODUCT.md, "Interfaces"). Parsing only: no side effects. */
#ifndef BOIDS_APP_CLI_H
#define BOIDS_APP_CLI_H

#include <stdio.h>

#include "boids.h"

#define BOIDS_CLI_MAX_SETS 128

typedef struct boids_cli {
    boids_world_def def;     /* model, params (with --set applied), backend, sizes, ... */
    bool count_given, swarms_given, world_given;
    uint32_t steps;          /* steps to run (headless default 600; a window runs until closed
                                unless --steps is given) */
    bool steps_given;
    const char *scenario_path; /* SCENARIO.ini, or NULL */
    const char *init_path;   /* --init, or NULL */
    const char *dump_path;   /* --dump, or NULL */
    const char *frames_dir;  /* --frames: PNG sequence directory, or NULL */
    int size_w, size_h;      /* --size: frame size for --frames and headless --screenshot */
    uint32_t frame_steps;    /* --frame-steps: simulation steps per exported frame */
    const char *screenshot;  /* --screenshot FILE: a PNG of the last frame, or NULL */
    bool headless;
    bool help, version;
} boids_cli;

/* Parses argv. On a usage error returns BOIDS_ERR_INVALID with a message naming the flag. */
boids_status boids_cli_parse(int argc, char **argv, boids_cli *cli);
/* Prints the usage text, with the models and their parameters. */
void boids_cli_usage(FILE *out);

#endif
