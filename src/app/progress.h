/* A progress line on the terminal for long work: what is done of how much, the rate and the time
 * left, rewritten in place at most four times a second on stderr, shown only once the work has
 * taken a second (short runs stay clean) and only when stderr is a terminal (a log or a pipe
 * gets nothing). Runs, experiments and the benchmark share it. */
#ifndef BOIDS_APP_PROGRESS_H
#define BOIDS_APP_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct boids_progress {
    bool tty, shown;
    double t0, last;
    uint64_t total;   /* 0: unknown (no time left is estimated) */
    const char *unit; /* "steps", "runs", "rows" */
    char note[96];    /* more to say after the counts (may be empty) */
} boids_progress;

/* Starts the clock on `total` items of `unit`. */
void boids_progress_start(boids_progress *p, uint64_t total, const char *unit);
/* `done` of the items are done: the line, when due. */
void boids_progress_update(boids_progress *p, uint64_t done);
/* Clears the line (where one was shown), so what follows starts on a clean line. */
void boids_progress_end(boids_progress *p);
/* Seconds as "42 s", "3 min 5 s", "2 h 10 min" into buf. */
const char *boids_duration_text(double seconds, char *buf, int size);

#endif
