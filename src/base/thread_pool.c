#include "base/thread_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

/* Items per chunk: large enough to amortise the atomic, small enough to balance dense cells. */
#define CHUNK 512u
/* Jobs of at most this many items run on the caller alone. Handing a job to a polling worker
 * (below) and waiting for it costs a microsecond or two, so sharing pays from a chunk on: at 1 000
 * boids two threads step in 0.7 of one's time. (When the workers slept between jobs, tens of
 * microseconds a job, it took 2048 items.) */
#define SHARE_MIN CHUNK

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

/* A job is handed over without a system call where it can be: the caller publishes it by bumping
 * `generation`, and a worker that finished the last job less than about SPIN_ROUNDS pauses ago
 * is still polling it; the caller in turn polls `pending` for the workers' end. Only a thread
 * that polled that long sleeps on a condition variable (so an idle pool costs nothing), and the
 * other side then wakes it under the lock. Waking a sleeping thread on this machine's VM took
 * tens of microseconds, several times a step's pass at 10 000 boids; a handoff to a polling
 * worker takes about a microsecond. A pool of more threads than processors does not poll: a
 * polling thread would hold the processor that the thread it waits for needs. */
#define SPIN_ROUNDS 4096u /* each a pause: about 100 us on this machine */

struct boids_pool {
    int threads;
    uint32_t spin_rounds; /* SPIN_ROUNDS, or 0 where the threads outnumber the processors */
    pthread_t *workers;
    struct worker_arg *args; /* [threads - 1] */
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    _Atomic uint64_t generation; /* bumped for each job, after its fields are set */
    _Atomic int pending;         /* workers still on the current job */
    _Atomic int quit;
    int sleepers;       /* workers asleep on `wake`, under lock */
    bool caller_asleep; /* the caller asleep on `done`, under lock */
    /* current job: fn over the parts' chunks, or part_fn once per thread */
    boids_pool_fn fn;
    boids_pool_part_fn part_fn;
    void *ctx;
    part *parts; /* [threads] */
};

/* One round of polling: a pause, which lets the other hyperthread run and saves power. */
static inline void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

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

/* The next job's generation after `seen`: polled, then slept for. */
static uint64_t next_job(boids_pool *p, uint64_t seen)
{
    uint64_t g = atomic_load_explicit(&p->generation, memory_order_acquire);
    for (uint32_t k = 0; g == seen && k < p->spin_rounds; ++k) {
        spin_pause();
        g = atomic_load_explicit(&p->generation, memory_order_acquire);
    }
    if (g != seen) return g;
    pthread_mutex_lock(&p->lock);
    p->sleepers++;
    while ((g = atomic_load_explicit(&p->generation, memory_order_acquire)) == seen)
        pthread_cond_wait(&p->wake, &p->lock);
    p->sleepers--;
    pthread_mutex_unlock(&p->lock);
    return g;
}

static void *worker_main(void *arg)
{
    const worker_arg *w = arg;
    boids_pool *p = w->p;
    uint64_t seen = 0;
    for (;;) {
        seen = next_job(p, seen);
        if (atomic_load_explicit(&p->quit, memory_order_acquire)) break;
        work(p, w->index);
        if (atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel) == 1) {
            pthread_mutex_lock(&p->lock); /* the last one out wakes a caller that sleeps */
            if (p->caller_asleep) pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->lock);
        }
    }
    return NULL;
}

boids_pool *boids_pool_create(int threads)
{
    boids_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->threads = threads < 1 ? 1 : threads;
    p->spin_rounds = p->threads <= boids_cpu_count() ? SPIN_ROUNDS : 0;
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
    atomic_store_explicit(&p->quit, 1, memory_order_release);
    atomic_fetch_add_explicit(&p->generation, 1, memory_order_release);
    pthread_mutex_lock(&p->lock);
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
    atomic_store_explicit(&p->pending, p->threads - 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&p->generation, 1, memory_order_release); /* the job, published */
    pthread_mutex_lock(&p->lock);
    if (p->sleepers > 0) pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    work(p, 0);
    for (uint32_t k = 0;
         atomic_load_explicit(&p->pending, memory_order_acquire) > 0 && k < p->spin_rounds; ++k)
        spin_pause();
    if (atomic_load_explicit(&p->pending, memory_order_acquire) == 0) return;
    pthread_mutex_lock(&p->lock);
    p->caller_asleep = true;
    while (atomic_load_explicit(&p->pending, memory_order_acquire) > 0)
        pthread_cond_wait(&p->done, &p->lock);
    p->caller_asleep = false;
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
