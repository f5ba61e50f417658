/* A small persistent thread pool for data-parallel loops: run(fn, ctx, n) calls fn on disjoint
 * chunks [begin, end) covering [0, n), on the workers and the calling thread, and returns when
 * all are done. Results never depend on the thread count: each item is computed alone. */
#ifndef BOIDS_BASE_THREAD_POOL_H
#define BOIDS_BASE_THREAD_POOL_H

#include <stdint.h>

typedef struct boids_pool boids_pool;
typedef void (*boids_pool_fn)(void *ctx, uint32_t begin, uint32_t end);
typedef void (*boids_pool_part_fn)(void *ctx, uint32_t part, uint32_t parts);

/* threads: total threads including the caller (>= 1). NULL on failure. Every call below takes a
 * NULL pool too: the calling thread alone (one thread, one part). */
boids_pool *boids_pool_create(int threads);
void boids_pool_destroy(boids_pool *pool);
int boids_pool_threads(const boids_pool *pool);
void boids_pool_run(boids_pool *pool, boids_pool_fn fn, void *ctx, uint32_t n);
/* Calls fn(ctx, t, threads) once for each part t, on thread t (the caller is 0), for work of n
 * items split into one fixed part per thread (no stealing: two such runs give thread t the same
 * part). A job too small to share (a chunk of items, 512) runs every part on the caller. */
void boids_pool_run_parts(boids_pool *pool, boids_pool_part_fn fn, void *ctx, uint32_t n);
/* Part `part` of [0, n) cut into `parts` equal parts: [n * part / parts, n * (part + 1) / parts).
 * The split the pool starts each job from, and the grid's count and scatter use. */
static inline void boids_pool_part_range(uint32_t n, uint32_t part, uint32_t parts, uint32_t *begin,
                                         uint32_t *end)
{
    *begin = (uint32_t)((uint64_t)n * part / parts);
    *end = (uint32_t)((uint64_t)n * (part + 1) / parts);
}
/* Number of online processors (>= 1). */
int boids_cpu_count(void);

#endif
