#include "cpu/thread_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

/* Items per chunk: large enough to amortise the atomic, small enough to balance dense cells. */
#define CHUNK 512u

struct boids_pool {
    int threads;
    pthread_t *workers;
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    uint64_t generation; /* bumped for each job, under lock */
    int busy;            /* workers still on the current job, under lock */
    int quit;
    /* current job */
    boids_pool_fn fn;
    void *ctx;
    uint32_t n;
    atomic_uint next;
};

int boids_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static void work(boids_pool *p)
{
    for (;;) {
        uint32_t begin = atomic_fetch_add(&p->next, CHUNK);
        if (begin >= p->n) break;
        uint32_t end = p->n - begin < CHUNK ? p->n : begin + CHUNK;
        p->fn(p->ctx, begin, end);
    }
}

static void *worker_main(void *arg)
{
    boids_pool *p = arg;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->generation == seen) pthread_cond_wait(&p->wake, &p->lock);
        if (p->quit) break;
        seen = p->generation;
        pthread_mutex_unlock(&p->lock);
        work(p);
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
        if (!p->workers) {
            boids_pool_destroy(p);
            return NULL;
        }
        for (int i = 0; i < extra; ++i) {
            if (pthread_create(&p->workers[i], NULL, worker_main, p) != 0) {
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
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    free(p);
}

int boids_pool_threads(const boids_pool *p) { return p->threads; }

void boids_pool_run(boids_pool *p, boids_pool_fn fn, void *ctx, uint32_t n)
{
    if (p->threads == 1 || n <= CHUNK) {
        if (n) fn(ctx, 0, n);
        return;
    }
    pthread_mutex_lock(&p->lock);
    p->fn = fn;
    p->ctx = ctx;
    p->n = n;
    atomic_store(&p->next, 0);
    p->busy = p->threads - 1;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    work(p);
    pthread_mutex_lock(&p->lock);
    while (p->busy > 0) pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}
