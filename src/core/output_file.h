/* Files the program writes (states, predators, events, metrics, tables, PNGs): written to a
 * temporary name beside the target (NAME.tmp.PID) and renamed over it only when complete, so a
 * failure or an interruption never leaves a half-written file under the target's name, nor
 * destroys an older one. The rename replaces only a regular file or makes a new name: a symlink
 * is written through (its target replaced, the link kept); a directory, device, FIFO or socket,
 * an empty name, a file in /proc or /sys, or a name too long once the suffix is added are
 * refused (BOIDS_E_FILE_WRITE naming the path), by the check before a run as by the open. */
#ifndef BOIDS_CORE_OUTPUT_FILE_H
#define BOIDS_CORE_OUTPUT_FILE_H

#include <stdio.h>

#include "boids.h"

typedef struct boids_output_file {
    FILE *f;            /* write to this */
    char path[4096];    /* the target */
    char tmp[4096];     /* the temporary name */
} boids_output_file;

/* Checks that `path` could be written (a regular file or a new name in a writable directory)
 * before any work is done, so a long run does not fail at its end. */
boids_status boids_output_check(const char *path);
/* Opens the temporary file of `path`. */
boids_status boids_output_open(boids_output_file *o, const char *path);
/* Flushes, syncs and renames it into place; on a write error removes it and fails. */
boids_status boids_output_commit(boids_output_file *o);
/* Removes the temporary file (after a failure elsewhere). */
void boids_output_abort(boids_output_file *o);

#endif
