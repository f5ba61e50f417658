/* The CPU reference backend: per step, build the grid (counting sort), copy the boids into cell
 * order as structure-of-arrays so neighbour reads are coherent and vectorise, then run the
 * model's rules over the sorted slots on the thread pool, writing step t+1 into a second buffer
 * (synchronous update). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "cpu/cpu_backend.h"
#include "cpu/thread_pool.h"

struct boids_backend_impl {
    boids_cpu_grid grid;
    boids_boid *cur, *next;
    boids_cpu_soa cand; /* step t in candidate order */
    boids_pool *pool;
};

static const boids_cpu_rules_fn rules[BOIDS_MODEL_COUNT] = {
    [BOIDS_MODEL_SHIFFMAN_PER_SECOND] = boids_cpu_rules_shiffman,
    [BOIDS_MODEL_SHIFFMAN_PROCESSING] = boids_cpu_rules_shiffman,
    [BOIDS_MODEL_SHIFFMAN_NOC] = boids_cpu_rules_shiffman,
    [BOIDS_MODEL_ADAMS] = boids_cpu_rules_adams,
    [BOIDS_MODEL_HYBRID] = boids_cpu_rules_hybrid,
    [BOIDS_MODEL_PRIORITY] = boids_cpu_rules_allocation,
    [BOIDS_MODEL_MEAN] = boids_cpu_rules_allocation,
};

typedef struct job {
    boids_cpu_step step;
    boids_cpu_rules_fn fn;
} job;

static void run_chunk(void *ctx, uint32_t begin, uint32_t end)
{
    const job *j = ctx;
    j->fn(&j->step, begin, end);
}

static boids_status cpu_step(boids_world *w, uint32_t steps)
{
    boids_backend_impl *b = w->impl;
    const uint32_t n = w->def.count;
    job j;
    j.fn = rules[w->def.model];
    j.step.def = &w->def;
    j.step.grid = &b->grid;
    j.step.brute = w->def.neighbors == BOIDS_NEIGHBORS_BRUTE;
    j.step.tool = &w->tool;
    j.step.edges = (unsigned)w->def.params.edges;
    j.step.wrap = j.step.edges == BOIDS_EDGES_WRAP;
    j.step.half_w = j.step.wrap ? w->def.width * 0.5f : INFINITY;
    j.step.half_h = j.step.wrap ? w->def.height * 0.5f : INFINITY;
    j.step.dt = boids_model_time_base(w->def.model) == BOIDS_TIME_PER_SECOND ? w->def.dt : 1.0f;

    for (uint32_t s = 0; s < steps; ++s) {
        if (!j.step.brute) boids_cpu_grid_build(&b->grid, b->cur, n);
        for (uint32_t k = 0; k < n; ++k) {
            uint32_t id = j.step.brute ? k : b->grid.order[k];
            const boids_boid *o = &b->cur[id];
            b->cand.x[k] = o->x;
            b->cand.y[k] = o->y;
            b->cand.vx[k] = o->vx;
            b->cand.vy[k] = o->vy;
            b->cand.swarm[k] = o->swarm;
            b->cand.id[k] = id;
        }
        j.step.cur = b->cur;
        j.step.cand = b->cand;
        j.step.next = b->next;
        boids_pool_run(b->pool, run_chunk, &j, n);
        boids_boid *t = b->cur;
        b->cur = b->next;
        b->next = t;
    }
    return BOIDS_OK;
}

static void cpu_finish(boids_world *w) { (void)w; }

static boids_status cpu_read(boids_world *w, boids_boid *out)
{
    memcpy(out, w->impl->cur, sizeof *out * w->def.count);
    return BOIDS_OK;
}

static boids_status cpu_write(boids_world *w, const boids_boid *in)
{
    memcpy(w->impl->cur, in, sizeof *in * w->def.count);
    return BOIDS_OK;
}

static boids_status cpu_configure(boids_world *w, bool grid_changed)
{
    if (!grid_changed) return BOIDS_OK; /* the rules read def.params and the tool each step */
    boids_cpu_grid_free(&w->impl->grid);
    return boids_cpu_grid_init(&w->impl->grid, &w->grid, w->def.count);
}

static void cpu_destroy(boids_world *w)
{
    boids_backend_impl *b = w->impl;
    if (!b) return;
    boids_cpu_grid_free(&b->grid);
    free(b->cur);
    free(b->next);
    free(b->cand.x);
    free(b->cand.y);
    free(b->cand.vx);
    free(b->cand.vy);
    free(b->cand.swarm);
    free(b->cand.id);
    if (b->pool) boids_pool_destroy(b->pool);
    free(b);
    w->impl = NULL;
}

static const boids_backend_vtable cpu_vtable = {cpu_step,  cpu_finish,    cpu_read,
                                                cpu_write, cpu_configure, cpu_destroy};

boids_status boids_cpu_backend_create(boids_world *w)
{
    boids_backend_impl *b = calloc(1, sizeof *b);
    if (!b) return boids_fail(BOIDS_ERR_NO_MEMORY, "out of memory for the CPU backend");
    w->impl = b;
    w->vt = &cpu_vtable;
    size_t n = w->def.count ? w->def.count : 1;
    b->cur = malloc(sizeof *b->cur * n);
    b->next = malloc(sizeof *b->next * n);
    b->cand.x = malloc(sizeof(float) * n);
    b->cand.y = malloc(sizeof(float) * n);
    b->cand.vx = malloc(sizeof(float) * n);
    b->cand.vy = malloc(sizeof(float) * n);
    b->cand.swarm = malloc(sizeof(uint32_t) * n);
    b->cand.id = malloc(sizeof(uint32_t) * n);
    int threads = w->def.threads > 0 ? w->def.threads : boids_cpu_count();
    b->pool = boids_pool_create(threads);
    boids_status st = BOIDS_OK;
    if (!b->cur || !b->next || !b->cand.x || !b->cand.y || !b->cand.vx || !b->cand.vy ||
        !b->cand.swarm || !b->cand.id || !b->pool)
        st = boids_fail(BOIDS_ERR_NO_MEMORY, "out of memory for %u boids on the CPU", w->def.count);
    else
        st = boids_cpu_grid_init(&b->grid, &w->grid, w->def.count);
    if (st != BOIDS_OK) {
        cpu_destroy(w);
        w->vt = NULL;
        return st;
    }
    w->def.threads = threads;
    w->renderer = "CPU reference";
    return BOIDS_OK;
}

const boids_cpu_grid *boids_cpu_backend_grid(const boids_world *w)
{
    return w->def.backend == BOIDS_BACKEND_CPU ? &w->impl->grid : NULL;
}
