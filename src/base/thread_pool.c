#include "base/thread_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

/* Items per chunk: large enough to amortise the atomic, small enough to balance dense cells. */
#define CHUNK 512u
/* Jobs of at most this many items run on the caller alone: waking a worker and waiting for it
 * costs tens of microseconds, about what 2000 boids' rules take on one core. */
#define SHARE_MIN (4u * CHUNK)

/* Each job's items are split into one contiguous part per thread. A thread takes chunks from the
 * front of its own part, then, when that is done, from the back of the others' (work stealing).
 * So in a step's passes over the same slots (the reorder, the rules) a thread mostly touches the
 * slots it touched in the pass before, still in its own cache; chunks handed out to whichever
 * thread asked next (the earlier scheme) moved about half of every pass's data between cores.
 * A part's [front, back) is one 64-bit word, changed by compare-and-swap, so the owner and a
 * thief never take the same items. */
typedef struct part {
    _Alignas(64) _Atomic uint64_t range; /* front in the low 32 bits, back in the high */
} part;

struct boids_pool {
    int threads;
    pthread_t *workers;
    struct worker_arg *args; /* [threads - 1] */
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    uint64_t generation; /* bumped for each job, under lock */
    int busy;            /* workers still on the current job, under lock */
    int quit;
    /* current job: fn over the parts' chunks, or part_fn once per thread */
    boids_pool_fn fn;
    boids_pool_part_fn part_fn;
    void *ctx;
    part *parts; /* [threads] */
};

/* A worker's index (the caller is 0). */
typedef struct worker_arg {
    boids_pool *p;
    int index;
} worker_arg;

int boids_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static uint64_t pack(uint32_t front, uint32_t back) { return (uint64_t)back << 32 | front; }

/* A chunk from the front (own part) or the back (stolen) of part q; false when it is empty. */
static bool take(part *q, bool from_back, uint32_t *begin, uint32_t *end)
{
    uint64_t r = atomic_load_explicit(&q->range, memory_order_relaxed);
    for (;;) {
        const uint32_t front = (uint32_t)r, back = (uint32_t)(r >> 32);
        if (front >= back) return false;
        const uint32_t n = back - front < CHUNK ? back - front : CHUNK;
        const uint64_t next = from_back ? pack(front, back - n) : pack(front + n, back);
        if (atomic_compare_exchange_weak(&q->range, &r, next)) {
            *begin = from_back ? back - n : front;
            *end = from_back ? back : front + n;
            return true;
        }
    }
}

static void work(boids_pool *p, int self)
{
    if (p->part_fn) {
        p->part_fn(p->ctx, (uint32_t)self, (uint32_t)p->threads);
        return;
    }
    uint32_t begin, end;
    while (take(&p->parts[self], false, &begin, &end)) p->fn(p->ctx, begin, end);
    for (int k = 1; k < p->threads; ++k) {
        part *q = &p->parts[(self + k) % p->threads];
        while (take(q, true, &begin, &end)) p->fn(p->ctx, begin, end);
    }
}

static void *worker_main(void *arg)
{
    const worker_arg *w = arg;
    boids_pool *p = w->p;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->generation == seen) pthread_cond_wait(&p->wake, &p->lock);
        if (p->quit) break;
        seen = p->generation;
        pthread_mutex_unlock(&p->lock);
        work(p, w->index);
        pthread_mutex_lock(&p->lock);
        if (--p->busy == 0) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

boids_pool *boids_pool_create(int threads)
{
    boids_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->threads = threads < 1 ? 1 : threads;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    int extra = p->threads - 1;
    if (extra > 0) {
        p->workers = calloc((size_t)extra, sizeof *p->workers);
        p->args = calloc((size_t)extra, sizeof *p->args);
        p->parts = aligned_alloc(_Alignof(part), sizeof(part) * (size_t)p->threads);
        if (!p->workers || !p->args || !p->parts) {
            p->threads = 1; /* no workers to join */
            boids_pool_destroy(p);
            return NULL;
        }
        for (int i = 0; i < extra; ++i) {
            p->args[i] = (worker_arg){p, i + 1};
            if (pthread_create(&p->workers[i], NULL, worker_main, &p->args[i]) != 0) {
                p->threads = i + 1; /* keep the ones that started, so destroy joins them */
                boids_pool_destroy(p);
                return NULL;
            }
        }
    }
    return p;
}

void boids_pool_destroy(boids_pool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    p->quit = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->threads - 1 && p->workers; ++i) pthread_join(p->workers[i], NULL);
    free(p->workers);
    free(p->args);
    free(p->parts);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    free(p);
}

int boids_pool_threads(const boids_pool *p) { return p ? p->threads : 1; }

/* Starts the current job on the workers, works on it, and waits for them. */
static void run_job(boids_pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->busy = p->threads - 1;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    work(p, 0);
    pthread_mutex_lock(&p->lock);
    while (p->busy > 0) pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

void boids_pool_run(boids_pool *p, boids_pool_fn fn, void *ctx, uint32_t n)
{
    if (!p || p->threads == 1 || n <= SHARE_MIN) {
        if (n) fn(ctx, 0, n);
        return;
    }
    p->fn = fn;
    p->part_fn = NULL;
    p->ctx = ctx;
    for (int k = 0; k < p->threads; ++k) {
        uint32_t begin, end;
        boids_pool_part_range(n, (uint32_t)k, (uint32_t)p->threads, &begin, &end);
        atomic_store_explicit(&p->parts[k].range, pack(begin, end), memory_order_relaxed);
    }
    run_job(p);
}

void boids_pool_run_parts(boids_pool *p, boids_pool_part_fn fn, void *ctx, uint32_t n)
{
    if (!p || p->threads == 1 || n <= SHARE_MIN) {
        const int threads = boids_pool_threads(p);
        for (int t = 0; t < threads; ++t) fn(ctx, (uint32_t)t, (uint32_t)threads);
        return;
    }
    p->fn = NULL;
    p->part_fn = fn;
    p->ctx = ctx;
    run_job(p);
}
