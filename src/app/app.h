/* The program's two ways to run, and what they share: opening the world from the command line
 * (with --init's state), reporting errors under what the user typed, and the closing summary and
 * dump. Each returns the process exit status: 0, 2 (bad usage or input), 1 (runtime failure),
 * having printed a one-line reason on stderr. */
#ifndef BOIDS_APP_APP_H
#define BOIDS_APP_APP_H

#include "app/cli/cli.h"
#include "app/session.h"

enum { BOIDS_EXIT_OK = 0, BOIDS_EXIT_RUNTIME = 1, BOIDS_EXIT_USAGE = 2 };
/* boids_viewer_run's answer when no window can be opened (never an exit status: main then runs
 * headless). */
enum { BOIDS_EXIT_NO_WINDOW = -1 };
/* The directory part of path ("." for a bare name), in buf. */
const char *path_dir(const char *path, char *buf, size_t size);

/* What --init and --predators read: the states in id order and the file line of each id. */
typedef struct boids_init_state {
    boids_boid *boids;
    long *lines;
    unsigned attributes; /* the attribute columns the file had */
    boids_predator *predators;
    long *predator_lines;
    uint32_t predator_count;
} boids_init_state;

/* Prints the last error (boids_last_error_info) on stderr under what the user wrote: the flag,
 * the --set key or the scenario file's line that set the key it is about (from its id and key,
 * never its text), with `context` ("--init", "--dump", ...) in front where given; returns the
 * exit status its class calls for (2 for bad input, 1 for the rest). */
int boids_app_error(const boids_cli *cli, const char *context);
int boids_app_exit_code(boids_status st);
/* Prints, as `program`, why no GL context was made, and returns the exit status: a bad BOIDS_*
 * setting (BOIDS_E_ENVIRONMENT) is the user's to fix (2, the message alone); otherwise the GPU
 * failed (1) and `hint` says what to do. */
int boids_app_gl_error(const char *program, const char *hint);
/* `boids check MODEL` (app/check.c): the model on both backends, and a verdict. */
int boids_check_main(int argc, char **argv);
/* Opens the session of cli->def on gl (NULL: a headless context of its own), with init's state. */
/* A note on stderr (once a process) where the world is so large that its positions' floats lie a
 * top step apart or more: the boids would not move as the model says. */
void boids_app_warn_floats(const boids_world_def *def);
int boids_app_open(const boids_cli *cli, boids_gl *gl, const boids_init_state *init,
                   boids_session *s);
/* Prints the header line of a run (model, backend, renderer, sizes). */
void boids_app_print_header(const boids_session *s, const boids_cli *cli);
/* Says on stderr, as `program`, when a world's steps cost far more than its size suggests (its
 * radii reach most of it): before the wait, for runs and experiments alike. */
void boids_app_cost_note(boids_world *w, const char *program);
/* Prints the timing and the observables, writes --dump. */
int boids_app_finish(const boids_cli *cli, boids_session *s, uint64_t steps, double wall_s);
/* The ffmpeg command that turns a frame directory into a video. */
void boids_app_print_ffmpeg(const char *dir, double fps);

int boids_headless_run(const boids_cli *cli, const boids_init_state *init);
int boids_viewer_run(const boids_cli *cli, const boids_init_state *init);

#endif
