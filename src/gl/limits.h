/* What a driver allows, asked of it or measured, once per context: the largest storage block,
 * the workgroups of a dispatch, and the loop iterations of one shader invocation. A world is
 * checked against them before any of its buffers is made. */
#ifndef BOIDS_GL_LIMITS_H
#define BOIDS_GL_LIMITS_H

#include <stddef.h>

#include "gl/gl.h"

typedef struct boids_gpu_limits {
    uint64_t block_bytes; /* GL_MAX_SHADER_STORAGE_BLOCK_SIZE: the largest buffer a pass binds */
    uint32_t groups_x;    /* GL_MAX_COMPUTE_WORK_GROUP_COUNT along x and y: a pass's groups go */
    uint32_t groups_y;    /* on in y past x (boids_gpu_dispatch) */
    uint64_t texels;      /* GL_MAX_TEXTURE_BUFFER_SIZE: the slots a buffer texture shows */
    uint32_t loop;        /* measured by boids_gpu_loop_limit; 0 until then */
    bool lowered;         /* BOIDS_GPU_LIMIT_* lowered one (tests emulate a smaller driver) */
} boids_gpu_limits;

/* The limits the current context's driver reports, lowered where the environment asks:
 * BOIDS_GPU_LIMIT_BLOCK_BYTES, BOIDS_GPU_LIMIT_GROUPS_X and BOIDS_GPU_LIMIT_TEXELS (whole
 * numbers, never raising a limit). A bad value is BOIDS_E_ENVIRONMENT naming the variable. The
 * loop limit stays 0. */
boids_status boids_gpu_limits_query(boids_gpu_limits *out);

/* A storage buffer a world needs, for boids_gpu_limits_check: base + unit * count bytes. */
typedef struct boids_gpu_need {
    const char *what; /* "the boids' positions and velocities" */
    uint64_t base, unit, count;
    const char *per; /* the item counted ("boid", "cell"), for saying how many would fit */
} boids_gpu_need;

/* Whether every buffer fits the driver's storage block; else BOIDS_E_GPU_LIMIT naming the
 * buffer, its size, the limit and the driver (renderer), and how many items would fit. */
boids_status boids_gpu_limits_check(const boids_gpu_limits *l, const char *renderer,
                                    const boids_gpu_need *needs, size_t n);

/* Whether `count` slots fit a buffer texture (the neighbour walks read the boids through them);
 * else BOIDS_E_GPU_LIMIT naming the limit and the driver. */
boids_status boids_gpu_limits_check_texels(const boids_gpu_limits *l, const char *renderer,
                                           uint64_t count);

#endif
