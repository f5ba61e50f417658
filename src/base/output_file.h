/* Files the program writes (states, predators, events, metrics, tables, PNGs, videos): written
 * to a temporary name beside the target (.boids-tmp-XXXXXX, as short whatever the target's name)
 * and renamed over it only when complete, so a failure or an interruption never leaves a
 * half-written file under the target's name, nor destroys an older one; a signal's handler
 * removes the temporary files open at that moment (boids_output_remove_temps). The rename
 * replaces only a regular file or makes a new name: a symlink is written through (its target
 * replaced, the link kept); a directory, device, FIFO or socket, an empty name or a file in /proc
 * or /sys are refused (BOIDS_E_FILE_WRITE naming the path), by the check before a run as by the
 * open. */
#ifndef BOIDS_BASE_OUTPUT_FILE_H
#define BOIDS_BASE_OUTPUT_FILE_H

#include <stdio.h>

#include "boids.h"

/* The temporary files' names start with this (then six random characters). */
#define BOIDS_TEMP_PREFIX ".boids-tmp-"

typedef struct boids_output_file {
    FILE *f;         /* write to this */
    char path[4096]; /* the target */
    char tmp[4096];  /* the temporary name */
} boids_output_file;

/* Checks that `path` could be written (a regular file or a new name in a writable directory)
 * before any work is done, so a long run does not fail at its end. */
boids_status boids_output_check(const char *path);
/* Opens the temporary file of `path`. */
boids_status boids_output_open(boids_output_file *o, const char *path);
/* Flushes, syncs and renames it into place; on a write error removes it and fails. */
boids_status boids_output_commit(boids_output_file *o);
/* For a file another program or library writes by name (ffmpeg, PLplot): the temporary name is
 * made (o->tmp, an empty file) and nothing is open; that writer writes o->tmp, then
 * boids_output_commit_named() syncs it and renames it into place (or boids_output_abort). */
boids_status boids_output_reserve(boids_output_file *o, const char *path);
boids_status boids_output_commit_named(boids_output_file *o);
/* Removes the temporary file (after a failure elsewhere). */
void boids_output_abort(boids_output_file *o);
/* Removes every temporary file open now. Async-signal-safe: for a signal handler that ends the
 * process. */
void boids_output_remove_temps(void);

#endif
