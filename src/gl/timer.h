/* GL timer queries for per-pass timings, read back without ever waiting: a sample is a sequence
 * of timestamps taken between passes (begin, then a mark after each pass); finished samples are
 * read a few frames later and summed per pass. */
#ifndef BOIDS_GL_TIMER_H
#define BOIDS_GL_TIMER_H

#include "core/backend.h"
#include "gl/gl.h"

#define BOIDS_TIMER_RING 4
#define BOIDS_TIMER_MARKS (BOIDS_PASS_COUNT + 1)

typedef struct boids_gpu_timer {
    GLuint queries[BOIDS_TIMER_RING][BOIDS_TIMER_MARKS];
    int pass_of[BOIDS_TIMER_RING][BOIDS_TIMER_MARKS]; /* the pass that ended at mark i (i >= 1) */
    int marks[BOIDS_TIMER_RING];
    int next, pending; /* the set to record next; sets recorded and not yet read */
    int open;          /* the set being recorded, -1 if none */
    boids_profile_acc acc;
} boids_gpu_timer;

void boids_gpu_timer_init(boids_gpu_timer *t);
void boids_gpu_timer_destroy(boids_gpu_timer *t);
/* Starts a sample; false (and the marks do nothing) when every set is still in flight. */
bool boids_gpu_timer_begin(boids_gpu_timer *t);
/* The pass that just ended (the GPU time since the previous mark goes to it). */
void boids_gpu_timer_mark(boids_gpu_timer *t, boids_pass pass);
void boids_gpu_timer_end(boids_gpu_timer *t);
/* Reads every finished sample into t->acc, without waiting. */
void boids_gpu_timer_poll(boids_gpu_timer *t);

#endif
