/* The thread pool hands out every item of a job exactly once, whatever the thread count and the
 * job's size: its parts, the chunks taken from their fronts, and the chunks stolen from their
 * backs tile [0, n) with no gap and no overlap. A chunk also stays within the job. A job of fixed
 * parts runs each part once, whether the workers were polling for it or asleep. A NULL pool is
 * the caller alone: one thread, one part. */
#include <stdatomic.h>
#include <time.h>

#include "base/thread_pool.h"
#include "test.h"

typedef struct job {
    _Atomic uint32_t *seen; /* [n] times each item was handed out */
    uint32_t n;
    _Atomic uint32_t bad_chunks;
} job;

static void visit(void *ctx, uint32_t begin, uint32_t end)
{
    job *j = ctx;
    if (!(begin < end && end <= j->n)) {
        atomic_fetch_add(&j->bad_chunks, 1);
        return;
    }
    /* uneven work, so that some threads finish their part early and steal */
    volatile uint32_t spin = 0;
    for (uint32_t k = begin; k < end; ++k) {
        atomic_fetch_add(&j->seen[k], 1);
        if (k % 7 == 0)
            for (uint32_t s = 0; s < 200; ++s) spin += s;
    }
}

static void test_every_item_once(void)
{
    static const uint32_t sizes[] = {0, 1, 511, 512, 513, 1024, 1025, 4099, 100003};
    for (int threads = 1; threads <= 5; ++threads) {
        boids_pool *p = boids_pool_create(threads);
        if (!p) {
            CHECK(!"boids_pool_create");
            return;
        }
        CHECK(boids_pool_threads(p) == threads);
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
            const uint32_t n = sizes[s];
            job j = {calloc(n ? n : 1, sizeof(_Atomic uint32_t)), n, 0};
            if (!j.seen) {
                CHECK(!"calloc");
                break;
            }
            for (int rep = 0; rep < 3; ++rep) boids_pool_run(p, visit, &j, n);
            uint32_t wrong = 0;
            for (uint32_t k = 0; k < n; ++k) wrong += atomic_load(&j.seen[k]) != 3;
            CHECK_MSG(
                wrong == 0 && atomic_load(&j.bad_chunks) == 0,
                "%d threads, %u items: %u items not handed out exactly once a run, %u bad chunks",
                threads, n, wrong, atomic_load(&j.bad_chunks));
            free(j.seen);
        }
        boids_pool_destroy(p);
    }
}

typedef struct parts_job {
    _Atomic uint32_t calls[8]; /* per part */
    _Atomic uint32_t bad;      /* calls with the wrong number of parts */
    uint32_t parts;
} parts_job;

static void visit_part(void *ctx, uint32_t part, uint32_t parts)
{
    parts_job *j = ctx;
    if (parts != j->parts || part >= parts) {
        atomic_fetch_add(&j->bad, 1);
        return;
    }
    atomic_fetch_add(&j->calls[part], 1);
}

/* boids_pool_run_parts calls each part exactly once, on as many parts as threads, for jobs large
 * and small. */
static void test_each_part_once(void)
{
    for (int threads = 1; threads <= 5; ++threads) {
        boids_pool *p = boids_pool_create(threads);
        if (!p) {
            CHECK(!"boids_pool_create");
            return;
        }
        parts_job j = {.parts = (uint32_t)threads};
        for (int rep = 0; rep < 2; ++rep) boids_pool_run_parts(p, visit_part, &j, 100000);
        for (int rep = 0; rep < 2; ++rep)
            boids_pool_run_parts(p, visit_part, &j, 10); /* all on the caller */
        uint32_t wrong = 0;
        for (int t = 0; t < threads; ++t) wrong += atomic_load(&j.calls[t]) != 4;
        CHECK_MSG(wrong == 0 && atomic_load(&j.bad) == 0,
                  "%d threads: %u parts not called once a run, %u bad calls", threads, wrong,
                  atomic_load(&j.bad));
        boids_pool_destroy(p);
    }
}

/* A part that takes a while (the last, 3 ms): the caller, done with its own part at once, polls
 * for it, then sleeps until the worker is done. */
static void slow_part(void *ctx, uint32_t part, uint32_t parts)
{
    if (part + 1 == parts && parts > 1) nanosleep(&(struct timespec){0, 3000000}, NULL);
    visit_part(ctx, part, parts);
}

/* Jobs handed over both ways (the handoff: base/thread_pool.c): back to back, to workers still
 * polling for the next; after a pause, to workers asleep; and one that outlasts the caller's
 * polling, so the caller sleeps until the last worker wakes it. Each part still runs once. */
static void test_polling_and_asleep(void)
{
    for (int threads = 2; threads <= 4; ++threads) {
        boids_pool *p = boids_pool_create(threads);
        if (!p) {
            CHECK(!"boids_pool_create");
            return;
        }
        parts_job j = {.parts = (uint32_t)threads};
        uint32_t runs = 0;
        for (int rep = 0; rep < 200; ++rep, ++runs) boids_pool_run_parts(p, visit_part, &j, 100000);
        for (int rep = 0; rep < 4; ++rep, ++runs) { /* the workers fall asleep between these */
            nanosleep(&(struct timespec){0, 5000000}, NULL);
            boids_pool_run_parts(p, visit_part, &j, 100000);
        }
        for (int rep = 0; rep < 3; ++rep, ++runs) boids_pool_run_parts(p, slow_part, &j, 100000);
        uint32_t wrong = 0;
        for (int t = 0; t < threads; ++t) wrong += atomic_load(&j.calls[t]) != runs;
        CHECK_MSG(wrong == 0 && atomic_load(&j.bad) == 0,
                  "%d threads: %u parts not called once in each of %u runs, %u bad calls", threads,
                  wrong, runs, atomic_load(&j.bad));
        boids_pool_destroy(p);
    }
}

static void test_no_pool(void)
{
    CHECK(boids_pool_threads(NULL) == 1);
    job j = {calloc(1000, sizeof(_Atomic uint32_t)), 1000, 0};
    if (!j.seen) return;
    boids_pool_run(NULL, visit, &j, 1000);
    uint32_t wrong = 0;
    for (uint32_t k = 0; k < 1000; ++k) wrong += atomic_load(&j.seen[k]) != 1;
    CHECK(wrong == 0 && atomic_load(&j.bad_chunks) == 0);
    free(j.seen);
    parts_job pj = {.parts = 1};
    boids_pool_run_parts(NULL, visit_part, &pj, 100000);
    CHECK(atomic_load(&pj.calls[0]) == 1 && atomic_load(&pj.bad) == 0);
}

TEST_MAIN(TEST(test_every_item_once), TEST(test_each_part_once), TEST(test_polling_and_asleep),
          TEST(test_no_pool))
