/* The CPU reference backend: per step, build the grid (counting sort), copy the boids into cell
 * order as structure-of-arrays so neighbour reads are coherent, then run the model's rules over
 * the sorted slots on the thread pool, writing step t+1 into a second set of arrays, by id
 * (synchronous update). The state lives in id order; the attributes of the model too, one array
 * of 32-bit words each. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/attributes.h"
#include "core/error.h"
#include "cpu/cpu_backend.h"
#include "cpu/steer.h"
#include "cpu/thread_pool.h"

/* The rules of each model, from the manifest. */
static const boids_cpu_rules_fn rules[BOIDS_MODEL_COUNT] = {
#define BOIDS_X_RULES_ROW(ID, name, time, blocks, rules, attrs, features, preset, summary)          \
    [BOIDS_MODEL_##ID] = boids_cpu_rules_##rules,
    BOIDS_MODEL_LIST(BOIDS_X_RULES_ROW)
#undef BOIDS_X_RULES_ROW
};

struct boids_cpu_event_sink {
    pthread_mutex_t lock;
    boids_event_log log;
};

typedef struct cpu_state {
    float *x, *y, *vx, *vy; /* id order */
} cpu_state;

typedef struct cpu_backend {
    const boids_sim *sim;
    boids_cpu_grid grid;
    cpu_state cur, next;
    uint32_t *swarm;                  /* id order; no step changes it */
    uint32_t *attr[BOIDS_ATTR_COUNT]; /* the model's attributes, id order */
    boids_cpu_soa cand;               /* step t in candidate order */
    boids_pool *pool;
    boids_cpu_event_sink events;
    boids_profile_acc profile;
} cpu_backend;

typedef struct job {
    boids_cpu_step step;
    boids_cpu_rules_fn fn;
} job;

static void run_chunk(void *ctx, uint32_t begin, uint32_t end)
{
    const job *j = ctx;
    j->fn(&j->step, begin, end);
}

void boids_cpu_emit(const boids_cpu_step *s, uint32_t kind, uint32_t subject, uint32_t other,
                    float v0, float v1, float v2, float v3)
{
    boids_event e = {kind, s->step, subject, other, {v0, v1, v2, v3}};
    pthread_mutex_lock(&s->events->lock);
    boids_event_log_push(&s->events->log, &e);
    pthread_mutex_unlock(&s->events->lock);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* Adds the time since *t to pass p, and moves *t on. */
static void lap(cpu_backend *b, boids_pass p, double *t)
{
    double t1 = now_ms();
    b->profile.sum_ms[p] += t1 - *t;
    b->profile.samples[p]++;
    *t = t1;
}

static boids_status cpu_step(void *impl, uint32_t steps)
{
    cpu_backend *b = impl;
    const boids_sim *sim = b->sim;
    const uint32_t n = sim->def.count;
    const bool brute = sim->def.neighbors == BOIDS_NEIGHBORS_BRUTE;
    job j;
    memset(&j, 0, sizeof j);
    j.fn = rules[sim->def.model];
    j.step.sim = sim;
    j.step.params = &sim->def.params;
    j.step.grid = &b->grid;
    j.step.brute = brute;
    j.step.events = &b->events;
    memcpy(j.step.attr, b->attr, sizeof b->attr);

    for (uint32_t s = 0; s < steps; ++s) {
        double t = now_ms();
        if (!brute) { /* the grid: a counting sort by cell */
            boids_cpu_grid_count(&b->grid, b->cur.x, b->cur.y, n);
            lap(b, BOIDS_PASS_GRID, &t);
            boids_cpu_grid_scan(&b->grid);
            lap(b, BOIDS_PASS_SCAN, &t);
            boids_cpu_grid_scatter(&b->grid, n);
            lap(b, BOIDS_PASS_SCATTER, &t);
        }
        for (uint32_t k = 0; k < n; ++k) {
            uint32_t id = brute ? k : b->grid.order[k];
            b->cand.x[k] = b->cur.x[id];
            b->cand.y[k] = b->cur.y[id];
            b->cand.vx[k] = b->cur.vx[id];
            b->cand.vy[k] = b->cur.vy[id];
            b->cand.swarm[k] = b->swarm[id];
            b->cand.id[k] = id;
        }
        lap(b, BOIDS_PASS_REORDER, &t);
        j.step.cand = b->cand;
        j.step.out_x = b->next.x;
        j.step.out_y = b->next.y;
        j.step.out_vx = b->next.vx;
        j.step.out_vy = b->next.vy;
        j.step.step = (uint32_t)(sim->steps + s);
        boids_pool_run(b->pool, run_chunk, &j, n);
        lap(b, BOIDS_PASS_STEER, &t);
        cpu_state tmp = b->cur;
        b->cur = b->next;
        b->next = tmp;
    }
    return BOIDS_OK;
}

static void cpu_finish(void *impl) { (void)impl; }

static boids_status cpu_read(void *impl, boids_boid *out)
{
    cpu_backend *b = impl;
    for (uint32_t i = 0; i < b->sim->def.count; ++i) {
        out[i].x = b->cur.x[i];
        out[i].y = b->cur.y[i];
        out[i].vx = b->cur.vx[i];
        out[i].vy = b->cur.vy[i];
        out[i].swarm = b->swarm[i];
        for (int a = 0; a < BOIDS_ATTR_COUNT; ++a)
            if (b->attr[a]) boids_boid_set_attr_bits(&out[i], (boids_attribute)a, b->attr[a][i]);
    }
    return BOIDS_OK;
}

static boids_status cpu_write(void *impl, const boids_boid *in)
{
    cpu_backend *b = impl;
    for (uint32_t i = 0; i < b->sim->def.count; ++i) {
        b->cur.x[i] = in[i].x;
        b->cur.y[i] = in[i].y;
        b->cur.vx[i] = in[i].vx;
        b->cur.vy[i] = in[i].vy;
        b->swarm[i] = in[i].swarm;
        for (int a = 0; a < BOIDS_ATTR_COUNT; ++a)
            if (b->attr[a]) b->attr[a][i] = boids_boid_attr_bits(&in[i], (boids_attribute)a);
    }
    boids_event_log_clear(&b->events.log); /* events belong to the state they came from */
    return BOIDS_OK;
}

static boids_status cpu_configure(void *impl, bool grid_changed)
{
    cpu_backend *b = impl;
    if (!grid_changed) return BOIDS_OK; /* the rules read the parameters and the tool each step */
    boids_cpu_grid_free(&b->grid);
    return boids_cpu_grid_init(&b->grid, &b->sim->grid, b->sim->def.count);
}

static boids_status cpu_take_events(void *impl, boids_event_log *log)
{
    cpu_backend *b = impl;
    for (size_t i = 0; i < b->events.log.count; ++i) boids_event_log_push(log, &b->events.log.events[i]);
    log->lost += b->events.log.lost;
    boids_event_log_clear(&b->events.log);
    return BOIDS_OK;
}

static void cpu_profile(void *impl, boids_profile_acc *acc)
{
    cpu_backend *b = impl;
    for (int p = 0; p < BOIDS_PASS_COUNT; ++p) {
        acc->sum_ms[p] += b->profile.sum_ms[p];
        acc->samples[p] += b->profile.samples[p];
    }
}

static void cpu_reset_profile(void *impl) { memset(&((cpu_backend *)impl)->profile, 0, sizeof(boids_profile_acc)); }

static boids_gl_state cpu_gl_state(const void *impl)
{
    (void)impl;
    return (boids_gl_state){0, 0, 0};
}

static void cpu_destroy(void *impl)
{
    cpu_backend *b = impl;
    if (!b) return;
    boids_cpu_grid_free(&b->grid);
    float *arrays[] = {b->cur.x, b->cur.y, b->cur.vx, b->cur.vy, b->next.x, b->next.y, b->next.vx,
                       b->next.vy, b->cand.x, b->cand.y, b->cand.vx, b->cand.vy};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) free(arrays[i]);
    free(b->swarm);
    free(b->cand.swarm);
    free(b->cand.id);
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a) free(b->attr[a]);
    if (b->pool) boids_pool_destroy(b->pool);
    boids_event_log_free(&b->events.log);
    pthread_mutex_destroy(&b->events.lock);
    free(b);
}

static const boids_backend_ops cpu_ops = {
    cpu_step,    cpu_finish,        cpu_read,          cpu_write,    cpu_configure,
    cpu_take_events, cpu_profile, cpu_reset_profile, cpu_gl_state, cpu_destroy,
};

boids_status boids_cpu_backend_create(const boids_sim *sim, const boids_backend_ops **ops, void **impl,
                                      const char **renderer, int *threads)
{
    cpu_backend *b = calloc(1, sizeof *b);
    if (!b) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the CPU backend");
    b->sim = sim;
    pthread_mutex_init(&b->events.lock, NULL);
    size_t n = sim->def.count ? sim->def.count : 1;
    float **arrays[] = {&b->cur.x, &b->cur.y, &b->cur.vx, &b->cur.vy, &b->next.x, &b->next.y,
                        &b->next.vx, &b->next.vy, &b->cand.x, &b->cand.y, &b->cand.vx, &b->cand.vy};
    bool ok = true;
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) ok &= (*arrays[i] = malloc(sizeof(float) * n)) != NULL;
    ok &= (b->swarm = malloc(sizeof(uint32_t) * n)) != NULL;
    ok &= (b->cand.swarm = malloc(sizeof(uint32_t) * n)) != NULL;
    ok &= (b->cand.id = malloc(sizeof(uint32_t) * n)) != NULL;
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a)
        if (sim->attributes & (1u << a)) ok &= (b->attr[a] = malloc(sizeof(uint32_t) * n)) != NULL;
    int t = sim->def.threads > 0 ? sim->def.threads : boids_cpu_count();
    ok &= (b->pool = boids_pool_create(t)) != NULL;
    boids_status st = ok ? BOIDS_OK
                         : boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u boids on the CPU", sim->def.count);
    if (st == BOIDS_OK) st = boids_event_log_init(&b->events.log, sim->def.event_capacity);
    if (st == BOIDS_OK) st = boids_cpu_grid_init(&b->grid, &sim->grid, sim->def.count);
    if (st != BOIDS_OK) {
        cpu_destroy(b);
        return st;
    }
    *ops = &cpu_ops;
    *impl = b;
    *renderer = "CPU reference";
    *threads = t;
    return BOIDS_OK;
}

const boids_cpu_grid *boids_cpu_backend_grid(const void *impl)
{
    const cpu_backend *b = impl;
    return b->sim->def.neighbors == BOIDS_NEIGHBORS_BRUTE ? NULL : &b->grid;
}
