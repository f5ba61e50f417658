/* The CPU reference backend. Per step:
 *
 *   models with predators: the predators' grid (a counting sort of their positions) and the
 *     catches (cpu/predators.c), which kill boids and may stop replicas;
 *   the boids' grid (counting sort; dead boids and stopped replicas to the graveyard), the boids
 *     copied into cell order as structure-of-arrays so neighbour reads are coherent;
 *   the model's rules over the sorted slots on the thread pool, reading step t there and writing
 *     step t+1 by slot (synchronous update) into the state's arrays, which the copy has freed;
 *   models with predators: the predators' steering, likewise.
 *
 * The state lives in the last step's slot order, with each entry's id beside it (cur_id); the
 * attributes of the model live in id order, one array of 32-bit words each. A boid of a flat
 * world costs two copies of its 16 bytes (the state and the candidates) and seven words (its id,
 * its swarm in id and in candidate order, the grid's four), 60 bytes: the rules write step t+1
 * over the state that the candidates copied, and its ids are the grid's order, taken by swapping
 * the arrays.
 * Brute-force neighbour search is the same walk on a grid of one cell per replica. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/attributes.h"
#include "core/id_order.h"
#include "core/step.h"
#include "base/clock.h"
#include "base/error.h"
#include "base/interrupt.h"
#include "base/memory.h"
#include "cpu/cpu_backend.h"
#include "cpu/steer.h"
#include "base/thread_pool.h"

/* The rules of each model, from the manifest. */
static const boids_cpu_rules_fn rules[BOIDS_MODEL_COUNT] = {
#define BOIDS_X_RULES_ROW(ID, name, time, blocks, rules, ...)                                      \
    [BOIDS_MODEL_##ID] = boids_cpu_rules_##rules,
    BOIDS_MODEL_LIST(BOIDS_X_RULES_ROW)
#undef BOIDS_X_RULES_ROW
};
/* The rules of the models loaded at run time (world/model_load.c), by id after the built-in ones:
 * written before the model is visible, never after. */
static boids_cpu_rules_fn loaded_rules[BOIDS_LOADED_MAX][2];

void boids_cpu_add_rules(boids_model model, boids_cpu_rules_fn flat, boids_cpu_rules_fn three)
{
    const unsigned k = (unsigned)model - BOIDS_MODEL_COUNT;
    if (k < BOIDS_LOADED_MAX) loaded_rules[k][0] = flat, loaded_rules[k][1] = three;
}

static boids_cpu_rules_fn rules_of(boids_model model, bool three)
{
    if ((unsigned)model < BOIDS_MODEL_COUNT) return three ? boids_cpu_rules3[model] : rules[model];
    return loaded_rules[(unsigned)model - BOIDS_MODEL_COUNT][three];
}

typedef struct cpu_state {
    float *x, *y, *vx, *vy;
    float *z, *vz; /* a 3D world's; NULL in a flat one */
} cpu_state;

typedef struct cpu_backend {
    const boids_sim *sim;
    boids_grid_dims dims; /* sim->grid, or one cell per replica for brute force */
    boids_cpu_grid grid;
    /* The boids' state in the last step's slot order, which the rules write, with the ids in
     * that order: the next step's count reads it in order and its sort moves few boids, where
     * state in id order was read and written all over (ids are scattered in space), and two
     * threads' stores shared its cache lines. */
    cpu_state cur;
    uint32_t *cur_id;
    uint32_t *swarm; /* id order; no step changes it */
    bool one_swarm;  /* every swarm is 0: cand.swarm is all 0, not copied per step */
    uint32_t *attr[BOIDS_ATTR_COUNT]; /* the model's attributes, id order */
    boids_cpu_soa cand;               /* step t in candidate order */
    /* models with predators: */
    uint8_t *dead;        /* per boid, this step: to the graveyard */
    boids_catch *catches; /* the step's catches found (one per boid at most) */
    uint32_t catch_count;
    /* predators (models with BOIDS_FEATURE_PREDATORS) */
    boids_cpu_grid pred_grid;
    cpu_state pred_cur, pred_next;
    uint32_t predators; /* the predators the arrays hold (sim->predator_count since configure) */
    boids_cpu_soa pred; /* step t in cell order */
    boids_replica_record *replicas; /* per replica: catches, stop step */
    /* What a step's catches changed, to undo them when a stop (a signal, boids_world_interrupt)
     * ends its steering: the caught
     * boids' alive words before, the replicas' records, the event log's length */
    uint32_t (*caught_alive)[2];
    boids_replica_record *replicas_before;
    size_t events_before;
    uint64_t lost_before;
    boids_pool *pool;
    boids_cpu_event_sink events;
    boids_profile_acc profile;
} cpu_backend;

typedef void (*slot_fn)(const boids_cpu_step *s, uint32_t begin, uint32_t end);
typedef struct job {
    boids_cpu_step step;
    slot_fn fn;
    bool stoppable;          /* the steering: each thread looks for a stop every STOP_BLOCK slots */
    const int *stop_request; /* the world's (boids_world_interrupt) */
    int stopped;             /* a thread saw one (atomic) */
} job;

/* A kit step of 100 000 boids takes seconds on two cores: the steering, its bulk, stops within a
 * few hundred boids of a stop (boids_should_stop: the programs' Ctrl-C, or a library caller's
 * boids_world_interrupt), and the step is undone (cpu_step). The rules compute each boid from the
 * step's inputs alone, so the blocks give the same bits as one run. */
#define STOP_BLOCK 256u

static void run_chunk(void *ctx, uint32_t begin, uint32_t end)
{
    job *j = ctx;
    if (!j->stoppable) {
        j->fn(&j->step, begin, end);
        return;
    }
    for (uint32_t k = begin; k < end; k += STOP_BLOCK) {
        if (boids_should_stop(j->stop_request)) {
            __atomic_store_n(&j->stopped, 1, __ATOMIC_RELAXED);
            return;
        }
        j->fn(&j->step, k, end - k > STOP_BLOCK ? k + STOP_BLOCK : end);
    }
}

/* Adds the time since *t to pass p, and moves *t on. */
static void lap(cpu_backend *b, boids_pass p, double *t)
{
    double t1 = 1e3 * boids_clock_seconds();
    b->profile.sum_ms[p] += t1 - *t;
    b->profile.samples[p]++;
    *t = t1;
}

/* The grid the backend walks: the world's, or one cell per replica for brute force. */
static boids_grid_dims walk_dims(const boids_sim *sim)
{
    boids_grid_dims d = sim->grid;
    if (sim->def.neighbors == BOIDS_NEIGHBORS_BRUTE) {
        d.w = d.h = d.d = d.fine_w = d.fine_h = d.fine_d = 1;
        d.cell_w = sim->def.width;
        d.cell_h = sim->def.height;
        d.inv_cell_w = 1.0f / sim->def.width;
        d.inv_cell_h = 1.0f / sim->def.height;
        d.cell_d = sim->def.depth;
        d.inv_cell_d = sim->three ? 1.0f / sim->def.depth : 0.0f;
    }
    return d;
}

/* The predators of step t sorted by cell (their grid), and the catches: the first part of a
 * step of a model with predators. */
static void predators_and_catches(cpu_backend *b, job *j)
{
    const boids_sim *sim = b->sim;
    const uint32_t np = sim->predator_count;
    boids_cpu_grid_build(&b->pred_grid, b->pred_cur.x, b->pred_cur.y, b->pred_cur.z, np,
                         sim->predators_per_replica, NULL);
    for (uint32_t k = 0; k < np; ++k) {
        uint32_t id = b->pred_grid.order[k];
        b->pred.x[k] = b->pred_cur.x[id];
        b->pred.y[k] = b->pred_cur.y[id];
        b->pred.vx[k] = b->pred_cur.vx[id];
        b->pred.vy[k] = b->pred_cur.vy[id];
        if (sim->three) b->pred.z[k] = b->pred_cur.z[id], b->pred.vz[k] = b->pred_cur.vz[id];
        b->pred.id[k] = id;
    }
    j->step.cur_x = b->cur.x;
    j->step.cur_y = b->cur.y;
    j->step.cur_z = b->cur.z;
    j->step.cur_id = b->cur_id;
    j->step.catches = b->catches;
    j->step.catch_count = &b->catch_count;
    b->catch_count = 0;
    j->fn = sim->three ? boids_cpu_catch3 : boids_cpu_catch;
    boids_pool_run(b->pool, run_chunk, j, sim->def.count);
    b->events_before = b->events.log.count, b->lost_before = b->events.log.lost;
    memcpy(b->replicas_before, b->replicas, sizeof *b->replicas * sim->def.replicas);
    for (uint32_t i = 0; i < b->catch_count; ++i) { /* (one catch a boid at most) */
        const uint32_t boid = b->catches[i].boid;
        b->caught_alive[i][0] = boid, b->caught_alive[i][1] = b->attr[BOIDS_ATTR_ALIVE][boid];
    }
    boids_cpu_apply_catches(&j->step); /* in order, up to stop_after_catches; the replicas stop */
}

/* The step's catches undone: its steering was stopped, so the step is as if never begun. */
static void undo_catches(cpu_backend *b)
{
    for (uint32_t i = 0; i < b->catch_count; ++i)
        b->attr[BOIDS_ATTR_ALIVE][b->caught_alive[i][0]] = b->caught_alive[i][1];
    memcpy(b->replicas, b->replicas_before, sizeof *b->replicas * b->sim->def.replicas);
    b->events.log.count = b->events_before, b->events.log.lost = b->lost_before;
}

/* The grid's count and scatter of the state, one part per thread (the threads past the grid's
 * parts have none). */
#define GRID_PARTS_MAX                                                                             \
    8 /* each part has a histogram as large as the grid; the passes are short                      \
       */
static void count_part(void *ctx, uint32_t part, uint32_t parts)
{
    cpu_backend *b = ctx;
    (void)parts;
    if (part >= b->grid.parts) return;
    const bool predators = (b->sim->features & BOIDS_FEATURE_PREDATORS) != 0;
    boids_cpu_grid_count(&b->grid, part, b->cur.x, b->cur.y, b->cur.z, b->cur_id, b->sim->def.count,
                         b->sim->per_replica, predators ? b->dead : NULL);
}

static void scatter_part(void *ctx, uint32_t part, uint32_t parts)
{
    cpu_backend *b = ctx;
    (void)parts;
    if (part >= b->grid.parts) return;
    boids_cpu_grid_scatter(&b->grid, part, b->cur_id, b->sim->def.count);
}

/* The cells that start in slots [begin, end) sorted by id, then step t into candidate order in
 * their slots: a gather from the last step's order, most boids from nearby entries. The ids in
 * that order are the grid's own order array, and with one swarm every slot's swarm is 0 (set
 * once, when the state is written), so neither is copied. */
static void reorder_chunk(void *ctx, uint32_t begin, uint32_t end)
{
    cpu_backend *b = ctx;
    boids_cpu_grid_cell_span(&b->grid, begin, end, &begin, &end);
    boids_cpu_grid_sort_cells(&b->grid, begin, end);
    float *const dst[] = {b->cand.x, b->cand.y, b->cand.vx, b->cand.vy, b->cand.z, b->cand.vz};
    const float *const src[] = {b->cur.x, b->cur.y, b->cur.vx, b->cur.vy, b->cur.z, b->cur.vz};
    boids_cpu_grid_gather(&b->grid, begin, end, b->sim->three ? 6 : 4, dst, src);
    if (!b->one_swarm)
        for (uint32_t k = begin; k < end; ++k) b->cand.swarm[k] = b->swarm[b->grid.order[k]];
}

/* ---- the passes of a step (core/step.h's table), each on the thread pool ----------------------
 */

typedef boids_status (*cpu_pass)(cpu_backend *b, job *j);

static boids_status pass_predators(cpu_backend *b, job *j)
{
    const boids_sim *sim = b->sim;
    predators_and_catches(b, j);
    for (uint32_t r = 0; r < sim->def.replicas;
         ++r) { /* the caught and the stopped leave the grid */
        const uint32_t first = r * sim->per_replica, last = first + sim->per_replica;
        const uint8_t stopped = b->replicas[r].stop_step != BOIDS_RUNNING;
        for (uint32_t i = first; i < last && i < sim->def.count; ++i)
            b->dead[i] = stopped | (b->attr[BOIDS_ATTR_ALIVE][i] == 0);
    }
    return BOIDS_OK;
}

/* The grid: a counting sort by cell, the count and scatter split over the threads. */
static boids_status pass_grid(cpu_backend *b, job *j)
{
    (void)j;
    boids_pool_run_parts(b->pool, count_part, b, b->sim->def.count);
    return BOIDS_OK;
}

static boids_status pass_scan(cpu_backend *b, job *j)
{
    (void)j;
    boids_cpu_grid_scan(&b->grid);
    return BOIDS_OK;
}

static boids_status pass_scatter(cpu_backend *b, job *j)
{
    (void)j;
    boids_pool_run_parts(b->pool, scatter_part, b, b->sim->def.count);
    return BOIDS_OK;
}

static boids_status pass_reorder(cpu_backend *b, job *j)
{
    boids_pool_run(b->pool, reorder_chunk, b, b->sim->def.count);
    j->step.cand = b->cand;
    j->step.cand.id = b->grid.order;
    j->step.out_x = b->cur.x; /* (step t is in cand now) */
    j->step.out_y = b->cur.y;
    j->step.out_vx = b->cur.vx;
    j->step.out_vy = b->cur.vy;
    j->step.out_z = b->cur.z;
    j->step.out_vz = b->cur.vz;
    return BOIDS_OK;
}

/* Step t+1's ids: the grid's order, which the rules wrote by; the old ids become the order the
 * next scatter writes. */
static void take_order(cpu_backend *b)
{
    uint32_t *ids = b->cur_id;
    b->cur_id = b->grid.order;
    b->grid.order = ids;
}

/* A stopped steering wrote part of step t+1 over the state: step t comes back whole from the
 * candidates, in their order (an order of the entries is no part of a state: the next grid sorts
 * them alike). */
static void keep_step_t(cpu_backend *b)
{
    const size_t bytes = sizeof(float) * b->sim->def.count;
    memcpy(b->cur.x, b->cand.x, bytes), memcpy(b->cur.y, b->cand.y, bytes);
    memcpy(b->cur.vx, b->cand.vx, bytes), memcpy(b->cur.vy, b->cand.vy, bytes);
    if (b->sim->three) memcpy(b->cur.z, b->cand.z, bytes), memcpy(b->cur.vz, b->cand.vz, bytes);
    take_order(b);
}

/* The model's rules; the one pass a stop request ends inside, leaving step t as it was. */
static boids_status pass_steer(cpu_backend *b, job *j)
{
    const boids_sim *sim = b->sim;
    j->fn = rules_of(sim->def.model, sim->three);
    j->stoppable = true, j->stopped = 0;
    boids_pool_run(b->pool, run_chunk, j, sim->def.count);
    j->stoppable = false;
    if (!j->stopped) return BOIDS_OK;
    keep_step_t(b);
    if (sim->features & BOIDS_FEATURE_PREDATORS) undo_catches(b);
    return boids_fail(BOIDS_E_INTERRUPTED, "step %u of %u boids stopped by %s", j->step.step,
                      sim->def.count, boids_stop_reason());
}

static boids_status pass_hunt(cpu_backend *b, job *j)
{
    j->step.pred_out_x = b->pred_next.x;
    j->step.pred_out_y = b->pred_next.y;
    j->step.pred_out_vx = b->pred_next.vx;
    j->step.pred_out_vy = b->pred_next.vy;
    j->step.pred_out_z = b->pred_next.z; /* (NULL in a flat world) */
    j->step.pred_out_vz = b->pred_next.vz;
    j->fn = b->sim->three ? boids_cpu_hunt3 : boids_cpu_hunt;
    boids_pool_run(b->pool, run_chunk, j, b->sim->predator_count);
    cpu_state tmp = b->pred_cur;
    b->pred_cur = b->pred_next;
    b->pred_next = tmp;
    return BOIDS_OK;
}

static const cpu_pass cpu_passes[BOIDS_PASS_COUNT] = {
    [BOIDS_PASS_PREDATORS] = pass_predators, [BOIDS_PASS_GRID] = pass_grid,
    [BOIDS_PASS_SCAN] = pass_scan,           [BOIDS_PASS_SCATTER] = pass_scatter,
    [BOIDS_PASS_REORDER] = pass_reorder,     [BOIDS_PASS_STEER] = pass_steer,
    [BOIDS_PASS_HUNT] = pass_hunt,
};

static boids_status cpu_step(void *impl, uint32_t steps, uint32_t *done)
{
    cpu_backend *b = impl;
    const boids_sim *sim = b->sim;
    job j;
    memset(&j, 0, sizeof j);
    j.step.sim = sim;
    j.stop_request = &sim->stop_request;
    j.step.params = &sim->def.params;
    j.step.grid = &b->grid;
    j.step.events = &b->events;
    j.step.pred_grid = &b->pred_grid;
    j.step.replicas = b->replicas;
    memcpy(j.step.attr, b->attr, sizeof b->attr);

    for (uint32_t s = 0; s < steps; ++s) {
        double t = 1e3 * boids_clock_seconds();
        j.step.step = (uint32_t)(sim->steps + s);
        j.step.pred = b->pred;
        for (int k = 0; k < BOIDS_STEP_PASS_COUNT; ++k) {
            if (!boids_step_pass_runs(k, sim->features)) continue;
            const boids_pass p = boids_step_passes[k].pass;
            const boids_status st = cpu_passes[p](b, &j);
            if (st != BOIDS_OK) {
                *done = s;
                return st;
            }
            lap(b, p, &t);
        }
        take_order(b);
    }
    *done = steps;
    return BOIDS_OK;
}

static void cpu_finish(void *impl) { (void)impl; }

/* The candidates and the grid's arrays are written afresh by each step before they are read:
 * their pages go back between steps, for a summary's room (38 bytes a boid of a flat world at
 * the default density). */
static void cpu_trim(void *impl)
{
    cpu_backend *b = impl;
    boids_cpu_grid *g = &b->grid;
    const size_t words = sizeof(uint32_t) * b->sim->def.count,
                 cells = sizeof(uint32_t) * (g->cells + 1u);
    float *cand[] = {b->cand.x, b->cand.y, b->cand.vx, b->cand.vy, b->cand.z, b->cand.vz};
    for (size_t k = 0; k < sizeof cand / sizeof *cand; ++k) boids_pages_release(cand[k], words);
    boids_pages_release(g->cell_of, words), boids_pages_release(g->order, words);
    boids_pages_release(g->src, words), boids_pages_release(g->slot_cell, words);
    boids_pages_release(g->part_count, cells * g->parts);
    boids_pages_release(g->cell_start, cells);
}

typedef struct read_job {
    const cpu_backend *b;
    boids_boid *out;
} read_job;

/* Slots [begin, end) into their boids' places (each a place of its own: the threads share). */
static void read_chunk(void *ctx, uint32_t begin, uint32_t end)
{
    const read_job *j = ctx;
    const cpu_backend *b = j->b;
    boids_boid *out = j->out;
    for (uint32_t e = begin; e < end; ++e) {
        const uint32_t i = b->cur_id[e];
        out[i].x = b->cur.x[e];
        out[i].y = b->cur.y[e];
        out[i].vx = b->cur.vx[e];
        out[i].vy = b->cur.vy[e];
        out[i].z = b->cur.z ? b->cur.z[e] : 0.0f;
        out[i].vz = b->cur.vz ? b->cur.vz[e] : 0.0f;
        out[i].swarm = b->swarm[i];
        for (int a = 0; a < BOIDS_ATTR_COUNT; ++a)
            if (b->attr[a]) boids_boid_set_attr_bits(&out[i], (boids_attribute)a, b->attr[a][i]);
    }
}

static boids_status cpu_read(void *impl, boids_boid *out)
{
    cpu_backend *b = impl;
    read_job j = {b, out};
    boids_pool_run(b->pool, read_chunk, &j, b->sim->def.count);
    return BOIDS_OK;
}

static boids_status cpu_read_columns(void *impl, void *const columns[BOIDS_COLUMN_COUNT])
{
    cpu_backend *b = impl;
    const uint32_t n = b->sim->def.count;
    /* the positions and velocities by slot, as bits; the swarms are in id order already */
    const uint32_t *from[BOIDS_SCATTER_COLUMNS] = {
        (const uint32_t *)b->cur.x, (const uint32_t *)b->cur.y, (const uint32_t *)b->cur.vx,
        (const uint32_t *)b->cur.vy, NULL};
    const size_t stride[BOIDS_SCATTER_COLUMNS] = {1, 1, 1, 1, 1};
    uint32_t bad = UINT32_MAX;
    if (columns[BOIDS_COLUMN_X] || columns[BOIDS_COLUMN_Y] || columns[BOIDS_COLUMN_VX] ||
        columns[BOIDS_COLUMN_VY]) {
        boids_status st = boids_scatter_by_id(n, b->cur_id, from, stride,
                                              (uint32_t *const *)columns, b->pool, &bad);
        if (st != BOIDS_OK) return st;
    }
    if (b->sim->three && (columns[BOIDS_COLUMN_Z] || columns[BOIDS_COLUMN_VZ])) {
        const uint32_t *from_z[BOIDS_SCATTER_COLUMNS] = {(const uint32_t *)b->cur.z,
                                                         (const uint32_t *)b->cur.vz};
        uint32_t *const to_z[BOIDS_SCATTER_COLUMNS] = {columns[BOIDS_COLUMN_Z],
                                                       columns[BOIDS_COLUMN_VZ]};
        boids_status st = boids_scatter_by_id(n, b->cur_id, from_z, stride, to_z, b->pool, &bad);
        if (st != BOIDS_OK) return st;
    }
    if (bad != UINT32_MAX)
        return boids_fail(BOIDS_E_STATE_CORRUPT,
                          "the state is corrupt: id %u is out of range or in two slots", bad);
    if (columns[BOIDS_COLUMN_SWARM])
        memcpy(columns[BOIDS_COLUMN_SWARM], b->swarm, sizeof(uint32_t) * n);
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a)
        if (columns[BOIDS_COLUMN_ATTR + a] && b->attr[a])
            memcpy(columns[BOIDS_COLUMN_ATTR + a], b->attr[a], sizeof(uint32_t) * n);
    return BOIDS_OK;
}

static void reset_replicas(cpu_backend *b)
{
    for (uint32_t r = 0; r < b->sim->def.replicas; ++r)
        b->replicas[r] = (boids_replica_record){0, BOIDS_RUNNING};
}

static boids_status cpu_write(void *impl, const boids_boid *in)
{
    cpu_backend *b = impl;
    b->one_swarm = true;
    for (uint32_t i = 0; i < b->sim->def.count; ++i) { /* in id order */
        b->cur.x[i] = in[i].x;
        b->cur.y[i] = in[i].y;
        b->cur.vx[i] = in[i].vx;
        b->cur.vy[i] = in[i].vy;
        if (b->sim->three) b->cur.z[i] = in[i].z, b->cur.vz[i] = in[i].vz;
        b->cur_id[i] = i;
        b->swarm[i] = in[i].swarm;
        b->one_swarm &= in[i].swarm == 0;
        for (int a = 0; a < BOIDS_ATTR_COUNT; ++a)
            if (b->attr[a]) b->attr[a][i] = boids_boid_attr_bits(&in[i], (boids_attribute)a);
    }
    if (b->one_swarm) { /* zeros, which pages given back read as: held by no memory */
        boids_pages_zero(b->swarm, sizeof(uint32_t) * b->sim->def.count);
        boids_pages_zero(b->cand.swarm, sizeof(uint32_t) * b->sim->def.count);
    }
    reset_replicas(b);                     /* a new state: no catches yet, every replica running */
    boids_event_log_clear(&b->events.log); /* events belong to the state they came from */
    return BOIDS_OK;
}

static boids_status cpu_read_predators(void *impl, boids_predator *out)
{
    cpu_backend *b = impl;
    const bool three = b->sim->three;
    for (uint32_t i = 0; i < b->sim->predator_count; ++i)
        out[i] = (boids_predator){b->pred_cur.x[i],
                                  b->pred_cur.y[i],
                                  b->pred_cur.vx[i],
                                  b->pred_cur.vy[i],
                                  three ? b->pred_cur.z[i] : 0.0f,
                                  three ? b->pred_cur.vz[i] : 0.0f};
    return BOIDS_OK;
}

static boids_status cpu_write_predators(void *impl, const boids_predator *in)
{
    cpu_backend *b = impl;
    for (uint32_t i = 0; i < b->sim->predator_count; ++i) {
        b->pred_cur.x[i] = in[i].x;
        b->pred_cur.y[i] = in[i].y;
        b->pred_cur.vx[i] = in[i].vx;
        b->pred_cur.vy[i] = in[i].vy;
        if (b->sim->three) b->pred_cur.z[i] = in[i].z, b->pred_cur.vz[i] = in[i].vz;
    }
    return BOIDS_OK;
}

static boids_status cpu_replicas(void *impl, boids_replica_record *out)
{
    cpu_backend *b = impl;
    memcpy(out, b->replicas, sizeof *out * b->sim->def.replicas);
    return BOIDS_OK;
}

/* Allocates the float arrays of a state of n entries (z and vz in a 3D world only). */
static bool alloc_state(cpu_state *s, size_t n, bool three)
{
    float **f[] = {&s->x, &s->y, &s->vx, &s->vy, &s->z, &s->vz};
    bool ok = true;
    for (int i = 0; i < (three ? 6 : 4); ++i)
        ok &= (*f[i] = malloc(sizeof(float) * (n ? n : 1))) != NULL;
    return ok;
}

static void free_state(cpu_state *s)
{
    free(s->x), free(s->y), free(s->vx), free(s->vy), free(s->z), free(s->vz);
}

/* The boids' candidates have swarms, and their ids are the grid's order (set each step); the
 * predators' have ids of their own. */
static bool alloc_soa(boids_cpu_soa *s, size_t n, bool boids, bool three)
{
    n = n ? n : 1;
    bool ok = (s->x = malloc(sizeof(float) * n)) && (s->y = malloc(sizeof(float) * n)) &&
              (s->vx = malloc(sizeof(float) * n)) && (s->vy = malloc(sizeof(float) * n));
    ok = ok &&
         (!three || ((s->z = malloc(sizeof(float) * n)) && (s->vz = malloc(sizeof(float) * n))));
    uint32_t **ints = boids ? &s->swarm : &s->id;
    return ok && (*ints = malloc(sizeof(uint32_t) * n)) != NULL;
}

static void free_soa(boids_cpu_soa *s)
{
    free(s->x), free(s->y), free(s->vx), free(s->vy), free(s->z), free(s->vz), free(s->swarm),
        free(s->id);
}

/* The predators' arrays for sim->predator_count (their values are the world's to write next);
 * on failure the old ones stay. */
static boids_status size_predators(cpu_backend *b)
{
    const uint32_t np = b->sim->predator_count;
    cpu_state cur = {0}, next = {0};
    boids_cpu_soa sorted = {0};
    const bool three = b->sim->three;
    if (!alloc_state(&cur, np, three) || !alloc_state(&next, np, three) ||
        !alloc_soa(&sorted, np, false, three)) {
        free_state(&cur), free_state(&next), free_soa(&sorted);
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u predators", np);
    }
    free_state(&b->pred_cur), free_state(&b->pred_next), free_soa(&b->pred);
    b->pred_cur = cur, b->pred_next = next, b->pred = sorted;
    b->predators = np;
    return BOIDS_OK;
}

static boids_status cpu_configure(void *impl, bool grid_changed)
{
    cpu_backend *b = impl;
    const bool resized = b->predators != b->sim->predator_count;
    boids_status st = resized ? size_predators(b) : BOIDS_OK;
    if (st != BOIDS_OK || (!grid_changed && !resized))
        return st; /* the rules read the parameters, tool and obstacles each step */
    if (grid_changed) {
        b->dims = walk_dims(b->sim);
        boids_cpu_grid_free(&b->grid);
        const int threads = boids_pool_threads(b->pool);
        st = boids_cpu_grid_init(&b->grid, &b->dims, b->sim->def.count,
                                 threads < GRID_PARTS_MAX ? (uint32_t)threads : GRID_PARTS_MAX);
    }
    boids_cpu_grid_free(&b->pred_grid);
    if (st == BOIDS_OK)
        st = boids_cpu_grid_init(&b->pred_grid, &b->dims, b->sim->predator_count, 1);
    if (st == BOIDS_OK && b->sim->predator_count) /* sparse: most blocks are empty */
        st = boids_cpu_grid_track_blocks(&b->pred_grid);
    return st;
}

static boids_status cpu_take_events(void *impl, boids_event_log *log)
{
    cpu_backend *b = impl;
    for (size_t i = 0; i < b->events.log.count; ++i)
        boids_event_log_push(log, &b->events.log.events[i]);
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

static void cpu_reset_profile(void *impl)
{
    memset(&((cpu_backend *)impl)->profile, 0, sizeof(boids_profile_acc));
}

static boids_gl_state cpu_gl_state(const void *impl)
{
    (void)impl;
    boids_gl_state none;
    memset(&none, 0, sizeof none);
    return none;
}

static void cpu_destroy(void *impl)
{
    cpu_backend *b = impl;
    if (!b) return;
    boids_cpu_grid_free(&b->grid);
    boids_cpu_grid_free(&b->pred_grid);
    free_state(&b->cur);
    free_state(&b->pred_cur);
    free_state(&b->pred_next);
    free_soa(&b->cand);
    free_soa(&b->pred);
    free(b->swarm);
    free(b->cur_id);
    free(b->dead);
    free(b->catches);
    free(b->replicas);
    free(b->replicas_before);
    free(b->caught_alive);
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a) free(b->attr[a]);
    if (b->pool) boids_pool_destroy(b->pool);
    boids_event_log_free(&b->events.log);
    pthread_mutex_destroy(&b->events.lock);
    free(b);
}

static const boids_backend_ops cpu_ops = {
    .step = cpu_step,
    .finish = cpu_finish,
    .read = cpu_read,
    .read_columns = cpu_read_columns,
    .write = cpu_write,
    .read_predators = cpu_read_predators,
    .write_predators = cpu_write_predators,
    .replicas = cpu_replicas,
    .configure = cpu_configure,
    .take_events = cpu_take_events,
    .profile = cpu_profile,
    .reset_profile = cpu_reset_profile,
    .gl_state = cpu_gl_state,
    .trim = cpu_trim,
    .destroy = cpu_destroy,
};

boids_status boids_cpu_backend_create(const boids_sim *sim, const boids_backend_ops **ops,
                                      void **impl, const char **renderer, const char **device,
                                      int *threads)
{
    cpu_backend *b = calloc(1, sizeof *b);
    if (!b) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the CPU backend");
    b->sim = sim;
    pthread_mutex_init(&b->events.lock, NULL);
    const size_t n = sim->def.count, np = sim->predator_count;
    const bool three = sim->three;
    bool ok = alloc_state(&b->cur, n, three) && alloc_state(&b->pred_cur, np, three) &&
              alloc_state(&b->pred_next, np, three) && alloc_soa(&b->cand, n, true, three) &&
              alloc_soa(&b->pred, np, false, three);
    b->predators = (uint32_t)np;
    ok = ok && (b->swarm = malloc(sizeof(uint32_t) * (n ? n : 1))) != NULL;
    ok = ok && (b->cur_id = malloc(sizeof(uint32_t) * (n ? n : 1))) != NULL;
    for (size_t i = 0; ok && i < n; ++i) b->cur_id[i] = (uint32_t)i; /* (until the first write) */
    const bool predators = (sim->features & BOIDS_FEATURE_PREDATORS) != 0;
    const size_t per_boid = predators && n ? n : 1; /* (the arrays of the catches) */
    ok = ok && (b->dead = malloc(per_boid)) != NULL;
    ok = ok && (b->catches = malloc(sizeof *b->catches * per_boid)) != NULL;
    ok = ok && (b->replicas = malloc(sizeof *b->replicas * sim->def.replicas)) != NULL;
    ok = ok && (b->replicas_before = malloc(sizeof *b->replicas * sim->def.replicas)) != NULL;
    ok = ok && (b->caught_alive = malloc(sizeof *b->caught_alive * per_boid)) != NULL;
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a)
        if (sim->attributes & (1u << a))
            ok = ok && (b->attr[a] = malloc(sizeof(uint32_t) * (n ? n : 1))) != NULL;
    int t = sim->def.threads > 0 ? sim->def.threads : boids_cpu_count();
    ok = ok && (b->pool = boids_pool_create(t)) != NULL;
    boids_status st =
        ok ? BOIDS_OK
           : boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u boids on the CPU", sim->def.count);
    if (st == BOIDS_OK) st = boids_event_log_init(&b->events.log, sim->def.event_capacity);
    if (st == BOIDS_OK) st = cpu_configure(b, true);
    if (st != BOIDS_OK) {
        cpu_destroy(b);
        return st;
    }
    reset_replicas(b);
    *ops = &cpu_ops;
    *impl = b;
    *renderer = "CPU reference";
    *device = "";
    *threads = t;
    return BOIDS_OK;
}
