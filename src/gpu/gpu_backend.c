/* The GPU backend: OpenGL 4.3 compute shaders on SSBOs. One step is a fixed sequence of passes,
 * recorded without any read-back:
 *
 *   models with predators: the predators' grid (the four grid passes below on the predators),
 *     catch.comp (the catches found), catch_apply.comp (those stop_after_catches leaves room
 *     for, in the order (predator, boid)), stop.comp (the replicas count them, and stop)
 *   grid_cell.comp  cell of each boid (the graveyard for the dead and the stopped), atomic
 *                   histogram whose atomic gives each boid its rank in its cell; a model without
 *                   predators runs it only after a write (or a new grid): its steering sorts the
 *                   boids it moves for the next step
 *   scan_blocks.comp, scan.comp  exclusive prefix sum of the histogram in two dispatches for any
 *                   number of cells; it zeroes the counts behind it (no clear in a step)
 *   scatter.comp    each boid's id to its cell's start plus its rank
 *   reorder.comp    the hot data (position and velocity, swarm, id) moved into id order inside
 *                   each cell (deterministic)
 *   steer_<model>   the model's rules (generated from the manifest): reads the sorted step t,
 *                   writes the positions and velocities of step t+1 to the same slots
 *   models with predators: hunt.comp, the predators' steering
 *
 * (The grid passes are gpu/sort.c's; the metrics, on demand, gpu/metrics.c's; a read's ordering
 * by id, on the device, gpu/id_order.c's.)
 *
 * The state therefore lives in pos_vel[0] (slots sorted by the last step's cells; a 3D world's
 * (z, vz) in depth[0]) with the swarm and id buffers of index `key`, which alternate each step;
 * pos_vel[1], depth[1] and the other swarm/id buffers are the reorder's output. The predators
 * likewise. No buffer a pass binds holds more than 16 bytes an agent, so a world is bound by the
 * driver's storage block only past block / 16 agents (134M on NVIDIA's 2 GiB). Attributes stay in
 * id order in one buffer; the replicas' catches and stop steps in another; status flags and events
 * go to the report buffer, read back only when asked. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/environment.h"
#include "base/error.h"
#include "base/interrupt.h"
#include "core/attributes.h"
#include "core/id_order.h"
#include "core/models.h"
#include "core/step.h"
#include "gl/context.h"
#include "gl/limits.h"
#include "gl/program.h"
#include "gl/timer.h"
#include "gpu/buffers.h"
#include "gpu/gpu_backend.h"
#include "gpu/id_order.h"
#include "gpu/loop_limit.h"
#include "gpu/metrics.h"
#include "gpu/sort.h"

/* A set of agents: the state's pos_vel[0] and depth[0] (a 3D world's (z, vz); 0 in a flat one) with
 * swarm/id[key], the sorted copies in the others. */
typedef struct gpu_agents {
    uint32_t count;
    GLuint pos_vel[2], depth[2], swarm[2], id[2];
    int key;
    boids_gpu_grid grid;
} gpu_agents;

typedef struct gpu_backend {
    const boids_sim *sim;
    boids_gl *gl;       /* the context the world's objects live in (made current at each call) */
    boids_gl *owned_gl; /* == gl when the world created it */
    uint32_t loop_limit;
    bool warm; /* a step has run: every step program has been dispatched once */
    /* The last step's steering sorted the boids it moved (a model without predators,
     * steer_common.glsl) on the grid sorted_grid: the boids' cells, ranks and counts hold that
     * sort. The next step skips its grid pass, unless the host wrote the state since
     * (state_written) or the grid changed (a change of the radii, say; the mouse tool does not):
     * then that sort's counts are cleared first, the one clear of a step, and only such a step. */
    bool sorted_by_steer, state_written;
    boids_grid_dims sorted_grid;
    boids_gpu_sorter sorter;
    boids_gpu_metrics metrics;
    boids_gpu_id_order order; /* reads in id order on the device */
    enum { GPU_READ_UNMEASURED, GPU_READ_ON_DEVICE, GPU_READ_ON_HOST } read_place;
    boids_pool *read_pool; /* the host's threads, for reads ordered on the host */
    GLuint prog_steer, prog_catch, prog_stop, prog_hunt,
        prog_catch_apply; /* all but steer: predators */
    /* each program's u_step uniform, the step's number (-1: a program the model has not) */
    GLint u_step_steer, u_step_catch, u_step_stop, u_step_hunt, u_step_catch_apply;
    gpu_agents boids, preds;
    GLuint frame, attributes, report, replicas, obstacles, obs_cell_start, catches;
    uint32_t attr_base[BOIDS_ATTR_COUNT]; /* where each attribute starts in `attributes` */
    uint32_t attr_words;
    GLuint staging;       /* host-memory copy of the slots for reads ordered on the host */
    size_t staging_bytes; /* its size (0: none yet) */
    float *staging_pv;    /* host copies for read/write (reads: four columns one after another) */
    uint32_t
        staging_agents; /* the agents staging_pv, staging_u and staging_id hold (size_staging) */
    uint32_t *staging_u, *staging_id, *staging_attr;
    boids_gpu_timer timer;
    boids_profile_acc commands; /* the steps' GL commands (steps, dispatches, barriers, clears) */
} gpu_backend;

static void make_agents(gpu_agents *a, uint32_t count, bool three)
{
    a->count = count;
    for (int i = 0; i < 2; ++i) {
        a->pos_vel[i] = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(float) * 4 * count);
        a->depth[i] =
            three ? boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(float) * 2 * count) : 0;
        a->swarm[i] = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * count);
        a->id[i] = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * count);
    }
}

/* A set of agents' buffers (their grid's aside), in b. */
#define AGENT_BUFFERS 8
static size_t agent_buffers(const gpu_agents *a, GLuint b[AGENT_BUFFERS])
{
    const GLuint all[AGENT_BUFFERS] = {a->pos_vel[0], a->pos_vel[1], a->depth[0], a->depth[1],
                                       a->swarm[0],   a->swarm[1],   a->id[0],    a->id[1]};
    memcpy(b, all, sizeof all);
    return AGENT_BUFFERS;
}

static void free_agents(gpu_agents *a)
{
    GLuint b[AGENT_BUFFERS];
    boids_gpu_delete(b, agent_buffers(a, b));
    boids_gpu_grid_free(&a->grid);
}

/* The sort of a set of agents (which: 0 boids, 1 predators) from their state into the other
 * buffers (pos_vel[1], swarm/id[1 - key]). */
static boids_gpu_sort_job sort_job(gpu_agents *a, uint32_t which)
{
    const int cur = a->key, other = 1 - a->key;
    return (boids_gpu_sort_job){.which = which,
                                .count = a->count,
                                .in = {a->pos_vel[0], a->depth[0], a->swarm[cur], a->id[cur]},
                                .out = {a->pos_vel[1], a->depth[1], a->swarm[other], a->id[other]},
                                .grid = &a->grid};
}

/* The cells of the predators' grid: the boids' for a model with predators (its walks read the
 * predators of the boids' cells, even with none), else none but the graveyard, a buffer to bind
 * (bind_predators): a model without predators pays for no grid it never reads. */
static uint32_t predator_cells(const gpu_backend *g, uint32_t cells)
{
    return (boids_model_features(g->sim->def.model) & BOIDS_FEATURE_PREDATORS) ? cells : 0;
}

/* The sorted predators and their grid, at their bindings. The passes that meet predators declare
 * them (the catches, the hunt, the steering of a model with predators; the candidate walk serves
 * all three grids), and a world without predators binds its empty set too: a driver may drop a
 * pass whose program has a block with no buffer behind it (zink does), and GL leaves it
 * undefined. */
static void bind_predators(gpu_backend *g)
{
    gpu_agents *p = &g->preds;
    boids_gpu_bind_pos_vel(BOIDS_BIND_PRED_POS_VEL_IN, BOIDS_BIND_PRED_POS_VEL_Z_IN, p->pos_vel[1],
                           p->depth[1]);
    boids_gpu_bind(BOIDS_BIND_PRED_ID_IN, p->id[1 - p->key]);
    boids_gpu_bind(BOIDS_BIND_PRED_CELL_START, p->grid.cell_start);
}

/* The predators' grid, the catches and the stops: the first part of a step of a model with
 * predators. After it the sorted predators are pred_pos_vel[1] with id[1 - key]. */
static void predators_and_catches(gpu_backend *g, uint32_t step)
{
    gpu_agents *p = &g->preds, *b = &g->boids;
    const boids_gpu_sort_job sort = sort_job(p, 1);
    boids_gpu_sort(&g->sorter, &sort); /* with none, an empty grid: the walks read its cells */
    boids_gpu_clear_head(g->catches, sizeof(GLuint) * 4); /* none found yet */
    glUseProgram(g->prog_catch);
    glUniform1ui(g->u_step_catch, step);
    /* the boids' state */
    boids_gpu_bind_pos_vel(BOIDS_BIND_POS_VEL_IN, BOIDS_BIND_POS_VEL_Z_IN, b->pos_vel[0],
                           b->depth[0]);
    boids_gpu_bind(BOIDS_BIND_ID_IN, b->id[b->key]);
    bind_predators(g);
    boids_gpu_dispatch("catches", boids_gpu_groups(b->count, BOIDS_WG_SIZE));
    boids_gpu_barrier();
    glUseProgram(g->prog_catch_apply);
    glUniform1ui(g->u_step_catch_apply, step);
    boids_gpu_dispatch("catches made", boids_gpu_groups(b->count, BOIDS_WG_SIZE));
    boids_gpu_barrier();
    glUseProgram(g->prog_stop);
    glUniform1ui(g->u_step_stop, step);
    boids_gpu_dispatch("stops", boids_gpu_groups(g->sim->def.replicas, BOIDS_WG_SIZE));
    boids_gpu_barrier();
}

/* The world's context current, with what every pass reads bound: the frame, the report, the
 * attributes, the replicas, the obstacles, the sorted predators. */
static boids_status make_current_and_bind(gpu_backend *g)
{
    boids_status st = boids_gl_make_current(g->gl);
    if (st != BOIDS_OK) return st;
    glBindBufferBase(GL_UNIFORM_BUFFER, BOIDS_BIND_FRAME, g->frame);
    boids_gpu_bind(BOIDS_BIND_REPORT, g->report);
    boids_gpu_bind(BOIDS_BIND_ATTRIBUTES, g->attributes);
    boids_gpu_bind(BOIDS_BIND_REPLICAS, g->replicas);
    boids_gpu_bind(BOIDS_BIND_OBSTACLES, g->obstacles);
    boids_gpu_bind(BOIDS_BIND_OBS_CELL_START, g->obs_cell_start);
    boids_gpu_bind(BOIDS_BIND_CATCHES, g->catches);
    bind_predators(g);
    return BOIDS_OK;
}

/* ---- the passes of a step (core/step.h's table) --------------------------------------------- */

typedef void (*gpu_pass)(gpu_backend *g, uint32_t step);

static void pass_predators(gpu_backend *g, uint32_t step) { predators_and_catches(g, step); }

/* The boids' sort, pass by pass: GRID, SCAN, SCATTER, REORDER (gpu/sort.h). */
static void pass_sort(gpu_backend *g, boids_pass pass)
{
    const boids_gpu_sort_job sort = sort_job(&g->boids, 0);
    boids_gpu_sort_pass(&g->sorter, &sort, pass);
}
static void pass_grid(gpu_backend *g, uint32_t step) { (void)step, pass_sort(g, BOIDS_PASS_GRID); }
static void pass_scan(gpu_backend *g, uint32_t step) { (void)step, pass_sort(g, BOIDS_PASS_SCAN); }
static void pass_scatter(gpu_backend *g, uint32_t step)
{
    (void)step, pass_sort(g, BOIDS_PASS_SCATTER);
}
static void pass_reorder(gpu_backend *g, uint32_t step)
{
    (void)step, pass_sort(g, BOIDS_PASS_REORDER);
}

/* The model's steering program: step t, sorted, into step t+1 in the same slots. */
static void pass_steer(gpu_backend *g, uint32_t step)
{
    gpu_agents *b = &g->boids;
    const int sorted = 1 - b->key;
    glUseProgram(g->prog_steer);
    glUniform1ui(g->u_step_steer, step);
    boids_gpu_bind_pos_vel(BOIDS_BIND_POS_VEL_IN, BOIDS_BIND_POS_VEL_Z_IN, b->pos_vel[1],
                           b->depth[1]);
    boids_gpu_bind_pos_vel(BOIDS_BIND_POS_VEL_OUT, BOIDS_BIND_POS_VEL_Z_OUT, b->pos_vel[0],
                           b->depth[0]);
    boids_gpu_bind(BOIDS_BIND_SWARM_IN, b->swarm[sorted]);
    boids_gpu_bind(BOIDS_BIND_ID_IN, b->id[sorted]);
    boids_gpu_bind(BOIDS_BIND_CELL_START, b->grid.cell_start);
    /* (a model without predators sorts the boids it moves into the next step's cells) */
    boids_gpu_bind(BOIDS_BIND_CELL_OF, b->grid.cell_of);
    boids_gpu_bind(BOIDS_BIND_CELL_COUNT, b->grid.cell_count);
    boids_gpu_bind(BOIDS_BIND_CELL_RANK, b->grid.cell_rank);
    bind_predators(g);
    boids_gpu_dispatch("steering", boids_gpu_groups(b->count, BOIDS_WG_SIZE));
    boids_gpu_barrier();
    b->key = sorted; /* the sorted swarms and ids are the state's now */
    g->sorted_by_steer = !(g->sim->features & BOIDS_FEATURE_PREDATORS);
    g->sorted_grid = g->sim->grid;
}

static void pass_hunt(gpu_backend *g, uint32_t step)
{
    gpu_agents *b = &g->boids, *p = &g->preds;
    if (!p->count) return;
    glUseProgram(g->prog_hunt);
    glUniform1ui(g->u_step_hunt, step);
    /* the boids of step t, sorted */
    boids_gpu_bind_pos_vel(BOIDS_BIND_POS_VEL_IN, BOIDS_BIND_POS_VEL_Z_IN, b->pos_vel[1],
                           b->depth[1]);
    boids_gpu_bind(BOIDS_BIND_CELL_START, b->grid.cell_start);
    bind_predators(g);
    boids_gpu_bind_pos_vel(BOIDS_BIND_PRED_POS_VEL_OUT, BOIDS_BIND_PRED_POS_VEL_Z_OUT,
                           p->pos_vel[0], p->depth[0]);
    boids_gpu_dispatch("predators' hunt", boids_gpu_groups(p->count, BOIDS_WG_SIZE));
    boids_gpu_barrier();
    p->key = 1 - p->key;
}

static const gpu_pass gpu_passes[BOIDS_PASS_COUNT] = {
    [BOIDS_PASS_PREDATORS] = pass_predators, [BOIDS_PASS_GRID] = pass_grid,
    [BOIDS_PASS_SCAN] = pass_scan,           [BOIDS_PASS_SCATTER] = pass_scatter,
    [BOIDS_PASS_REORDER] = pass_reorder,     [BOIDS_PASS_STEER] = pass_steer,
    [BOIDS_PASS_HUNT] = pass_hunt,
};

/* Whether the boids' grid buffers hold the state's sort, made by the last steering, for this
 * step to use: a sort the host's write or a new grid outdated has its counts cleared instead. */
static bool take_sort_by_steer(gpu_backend *g)
{
    const boids_grid_dims *a = &g->sorted_grid, *b = &g->sim->grid;
    const bool made = g->sorted_by_steer, written = g->state_written;
    g->sorted_by_steer = g->state_written = false;
    if (!made) return false;
    if (!written && a->w == b->w && a->h == b->h && a->d == b->d && a->replicas == b->replicas &&
        a->wrap == b->wrap && a->inv_cell_w == b->inv_cell_w && a->inv_cell_h == b->inv_cell_h &&
        a->inv_cell_d == b->inv_cell_d && a->fine_w == b->fine_w && a->fine_h == b->fine_h &&
        a->fine_d == b->fine_d)
        return true;
    boids_gpu_clear(g->boids.grid.cell_count); /* the grid pass counts from zero */
    return false;
}

static boids_status gpu_step(void *impl, uint32_t steps, uint32_t *done)
{
    *done = 0;
    gpu_backend *g = impl;
    boids_status st = make_current_and_bind(g);
    if (st != BOIDS_OK) return st;
    boids_gpu_timer_poll(&g->timer);
    const boids_gpu_command_count before = boids_gpu_commands;
    uint32_t s = 0;
    /* A stop is looked for between steps: a step is a few dispatches, and the driver holds the
     * loop back once its queue is full, so the loop runs at the GPU's pace. */
    for (; s < steps && !boids_should_stop(&g->sim->stop_request); ++s) {
        const uint32_t step = (uint32_t)(g->sim->steps + s);
        /* The first step of each call is timed, pass by pass (never waited for), but never the
         * world's first step: drivers compile a program at its first dispatch (llvmpipe and zink
         * do, and a GPU may), which made one timed step take longer than the whole run. */
        bool timed = s == 0 && g->warm && boids_gpu_timer_begin(&g->timer);
        g->warm = true;
        const bool sorted = take_sort_by_steer(g);
        for (int k = 0; k < BOIDS_STEP_PASS_COUNT; ++k) {
            if (!boids_step_pass_runs(k, g->sim->features)) continue;
            const boids_pass p = boids_step_passes[k].pass;
            if (p == BOIDS_PASS_GRID && sorted) continue; /* done by the last steering */
            gpu_passes[p](g, step);
            if (timed) boids_gpu_timer_mark(&g->timer, p);
        }
        if (timed) boids_gpu_timer_end(&g->timer);
    }
    g->commands.steps += s;
    g->commands.dispatches += boids_gpu_commands.dispatches - before.dispatches;
    g->commands.barriers += boids_gpu_commands.barriers - before.barriers;
    g->commands.clears += boids_gpu_commands.clears - before.clears;
    glUseProgram(0);
    st = boids_gl_check("GPU step");
    if (st != BOIDS_OK) return st;
    *done = s;
    if (s < steps)
        return boids_fail(BOIDS_E_INTERRUPTED, "step %llu of %u boids not begun: stopped by %s",
                          (unsigned long long)(g->sim->steps + s), g->sim->def.count,
                          boids_stop_reason());
    return BOIDS_OK;
}

static void gpu_finish(void *impl)
{
    gpu_backend *g = impl;
    if (boids_gl_make_current(g->gl) == BOIDS_OK) glFinish();
}

/* What the report says of the state: a loop stopped short, or a read found slots that do not hold
 * every id once (gpu/id_order.c). */
static boids_status check_report(gpu_backend *g)
{
    boids_gpu_report head;
    boids_gpu_read(g->report, 0, sizeof head, &head);
    if (head.status & BOIDS_STATUS_LOOP_LIMIT && g->sim->def.nearest > 0)
        return boids_fail(BOIDS_E_GPU_LOOP_LIMIT,
                          "a boid's search for its %u nearest read more than %u cells or boids, "
                          "beyond what %s runs in one shader invocation (a world so sparse that "
                          "the nearest lie many cells away, or a neighbourhood that dense): the "
                          "state since is wrong (fewer neighbours, a denser world, or --backend "
                          "cpu)",
                          g->sim->def.nearest, g->loop_limit, boids_gl_renderer(g->gl));
    if (head.status & BOIDS_STATUS_LOOP_LIMIT)
        return boids_fail(BOIDS_E_GPU_LOOP_LIMIT,
                          "a neighbourhood held more than %u boids, beyond what %s runs in one "
                          "shader invocation: the state since is wrong (lower the density or the "
                          "radii, or use --backend cpu)",
                          g->loop_limit, boids_gl_renderer(g->gl));
    if (head.bad_slots)
        return boids_fail(BOIDS_E_GPU_CORRUPT,
                          "GPU state is corrupt: %u slots hold an id out of range or twice",
                          head.bad_slots);
    return BOIDS_OK;
}

/* A set of agents' wanted columns (cols: x, y, vx, vy, then swarm for the boids; NULL skips one)
 * in id order, ordered on the device (gpu/id_order.c: one dispatch, then one copy a column),
 * checked there: the report's flags, and every id exactly once in the slots. */
static boids_status order_on_device(gpu_backend *g, gpu_agents *a, uint32_t which,
                                    void *const cols[BOIDS_COLUMN_ATTR])
{
    boids_status st = make_current_and_bind(g);
    if (st != BOIDS_OK) return st;
    boids_gpu_clear_range(g->report, offsetof(boids_gpu_report, bad_slots), sizeof(uint32_t));
    boids_gpu_hot slots = {a->pos_vel[0], a->depth[0], a->swarm[a->key], a->id[a->key]};
    st = boids_gpu_id_order_run(&g->order, which, a->count, slots);
    if (st == BOIDS_OK) st = check_report(g);
    for (uint32_t c = BOIDS_COLUMN_X; st == BOIDS_OK && c <= BOIDS_COLUMN_VY; ++c)
        if (cols[c])
            boids_gpu_read(g->order.columns, boids_gpu_id_order_column(c, a->count),
                           sizeof(float) * a->count, cols[c]);
    for (uint32_t c = 0; st == BOIDS_OK && g->sim->three && c < 2; ++c)
        if (cols[BOIDS_COLUMN_Z + c]) /* a 3D world's z and vz: the order's fifth and sixth */
            boids_gpu_read(g->order.columns_z, sizeof(float) * c * a->count,
                           sizeof(float) * a->count, cols[BOIDS_COLUMN_Z + c]);
    if (st == BOIDS_OK && cols[BOIDS_COLUMN_SWARM])
        boids_gpu_read(g->order.swarm, 0, sizeof(uint32_t) * a->count, cols[BOIDS_COLUMN_SWARM]);
    return st;
}

/* The same, ordered on the host: the slots copied on the device into a staging buffer in the
 * host's memory (the state's buffers stay in the device's and are never mapped), that buffer
 * mapped, then scattered by id on a pool of the host's threads (core/id_order.c), which checks on
 * the way that they hold every id once. */
static boids_status order_on_host(gpu_backend *g, gpu_agents *a,
                                  void *const cols[BOIDS_COLUMN_ATTR])
{
    const uint32_t n = a->count;
    boids_status st = boids_gl_make_current(g->gl);
    if (st != BOIDS_OK) return st;
    if ((st = check_report(g)) != BOIDS_OK) return st;
    if (!g->read_pool && !(g->read_pool = boids_pool_create(boids_cpu_count())))
        return boids_fail(BOIDS_E_NO_MEMORY, "no threads for reading the GPU state");
    /* (x, y, vx, vy) by slot, a 3D world's (z, vz) by slot after them, ids, swarms */
    const size_t xy_bytes = sizeof(float) * 4 * n, z_bytes = g->sim->three ? xy_bytes / 2 : 0,
                 pv_bytes = xy_bytes + z_bytes, u_bytes = sizeof(uint32_t) * n;
    const size_t total = pv_bytes + 2 * u_bytes;
    if (g->staging_bytes < total) {
        boids_gpu_delete(&g->staging, 1);
        g->staging = boids_gpu_staging(total);
        g->staging_bytes = total;
    }
    boids_gpu_copy(a->pos_vel[0], 0, g->staging, 0, xy_bytes);
    if (a->depth[0]) boids_gpu_copy(a->depth[0], 0, g->staging, xy_bytes, z_bytes);
    boids_gpu_copy(a->id[a->key], 0, g->staging, pv_bytes, u_bytes);
    boids_gpu_copy(a->swarm[a->key], 0, g->staging, pv_bytes + u_bytes, u_bytes);
    const uint32_t *map = boids_gpu_map_read(g->staging, total);
    uint32_t bad = UINT32_MAX;
    if (!map) {
        st = boids_fail(BOIDS_E_GL, "%s would not map the staging buffer of a read",
                        boids_gl_renderer(g->gl));
    } else {
        const uint32_t *ids = map + pv_bytes / sizeof(uint32_t), *swarms = ids + n;
        const uint32_t *from[BOIDS_SCATTER_COLUMNS] = {map, map + 1, map + 2, map + 3, swarms};
        const size_t stride[BOIDS_SCATTER_COLUMNS] = {4, 4, 4, 4, 1};
        st = boids_scatter_by_id(n, ids, from, stride, (uint32_t *const *)cols, g->read_pool, &bad);
        if (st == BOIDS_OK && g->sim->three && (cols[BOIDS_COLUMN_Z] || cols[BOIDS_COLUMN_VZ])) {
            const uint32_t *depth = map + 4 * (size_t)n; /* (z, vz) by slot */
            const uint32_t *from_z[BOIDS_SCATTER_COLUMNS] = {depth, depth + 1};
            const size_t stride_z[BOIDS_SCATTER_COLUMNS] = {2, 2};
            uint32_t *const to_z[BOIDS_SCATTER_COLUMNS] = {cols[BOIDS_COLUMN_Z],
                                                           cols[BOIDS_COLUMN_VZ]};
            st = boids_scatter_by_id(n, ids, from_z, stride_z, to_z, g->read_pool, &bad);
        }
        boids_gpu_unmap(g->staging);
    }
    if (st == BOIDS_OK) st = boids_gl_check("reading the GPU state");
    if (st == BOIDS_OK && bad != UINT32_MAX)
        st = boids_fail(BOIDS_E_GPU_CORRUPT,
                        "GPU state is corrupt: id %u is out of range or in two slots", bad);
    return st;
}

/* Where the boids are put in id order for a read. A GPU runs the device's pass in a fraction of a
 * millisecond, and then copies only the columns asked for; a driver that runs shaders on the CPU
 * (llvmpipe, lavapipe) pays tens of nanoseconds an invocation for any pass, several times the
 * host's scatter. So it is measured, never guessed from the renderer's name: a world's first read
 * orders both ways and keeps the faster (the device's pass runs once untimed before, for the
 * driver to compile it). The bits are the same either way; BOIDS_GPU_READ=device or host fixes
 * the place (test_columns reads both). */
static boids_status read_boid_columns(gpu_backend *g, void *const cols[BOIDS_COLUMN_ATTR])
{
    gpu_agents *a = &g->boids;
    if (g->read_place == GPU_READ_UNMEASURED) {
        boids_status st;
        if ((st = order_on_device(g, a, 0, cols)) != BOIDS_OK) return st;
        const double t0 = boids_clock_seconds();
        if ((st = order_on_device(g, a, 0, cols)) != BOIDS_OK) return st;
        const double t1 = boids_clock_seconds();
        if ((st = order_on_host(g, a, cols)) != BOIDS_OK) return st;
        const double t2 = boids_clock_seconds();
        g->read_place = t1 - t0 <= t2 - t1 ? GPU_READ_ON_DEVICE : GPU_READ_ON_HOST;
        return BOIDS_OK;
    }
    return g->read_place == GPU_READ_ON_DEVICE ? order_on_device(g, a, 0, cols)
                                               : order_on_host(g, a, cols);
}

/* The columns into the staging arrays (x, y, vx, vy one after another in staging_pv, the swarms
 * in staging_u), then interleaved into boids. */
static boids_status gpu_read(void *impl, boids_boid *out)
{
    gpu_backend *g = impl;
    const uint32_t n = g->sim->def.count;
    const float *col = g->staging_pv;
    void *cols[BOIDS_COLUMN_ATTR] = {g->staging_pv,
                                     g->staging_pv + n,
                                     g->staging_pv + 2 * (size_t)n,
                                     g->staging_pv + 3 * (size_t)n,
                                     g->staging_u,
                                     g->sim->three ? g->staging_pv + 4 * (size_t)n : NULL,
                                     g->sim->three ? g->staging_pv + 5 * (size_t)n : NULL};
    boids_status st = read_boid_columns(g, cols);
    if (st == BOIDS_OK && g->attr_words)
        boids_gpu_read(g->attributes, 0, sizeof(uint32_t) * g->attr_words, g->staging_attr);
    for (uint32_t i = 0; st == BOIDS_OK && i < n; ++i) {
        out[i].x = col[i];
        out[i].y = col[n + i];
        out[i].vx = col[2 * (size_t)n + i];
        out[i].vy = col[3 * (size_t)n + i];
        out[i].z = g->sim->three ? col[4 * (size_t)n + i] : 0.0f;
        out[i].vz = g->sim->three ? col[5 * (size_t)n + i] : 0.0f;
        out[i].swarm = g->staging_u[i];
        for (int a = 0; a < BOIDS_ATTR_COUNT; ++a)
            if (g->sim->attributes & (1u << a))
                boids_boid_set_attr_bits(&out[i], (boids_attribute)a,
                                         g->staging_attr[g->attr_base[a] + i]);
    }
    return st == BOIDS_OK ? boids_gl_check("reading the GPU state") : st;
}

/* The columns asked for straight into the caller's arrays (attributes live in id order already:
 * one copy each). */
static boids_status gpu_read_columns(void *impl, void *const columns[BOIDS_COLUMN_COUNT])
{
    gpu_backend *g = impl;
    const uint32_t n = g->boids.count;
    boids_status st = read_boid_columns(g, columns);
    if (st != BOIDS_OK) return st;
    for (int at = 0; at < BOIDS_ATTR_COUNT; ++at)
        if (columns[BOIDS_COLUMN_ATTR + at] && (g->sim->attributes & (1u << at)))
            boids_gpu_read(g->attributes, sizeof(uint32_t) * g->attr_base[at], sizeof(uint32_t) * n,
                           columns[BOIDS_COLUMN_ATTR + at]);
    return boids_gl_check("reading the GPU state");
}

static void upload_frame(gpu_backend *g)
{
    const boids_sim *sim = g->sim;
    boids_gpu_frame f;
    memset(&f, 0, sizeof f);
    f.world_w = sim->def.width;
    f.world_h = sim->def.height;
    f.half_w = sim->half_w; /* +infinity where the world does not wrap: plain offsets */
    f.half_h = sim->half_h;
    f.inv_cell_w = sim->grid.inv_cell_w;
    f.inv_cell_h = sim->grid.inv_cell_h;
    f.world_d = sim->def.depth;
    f.half_d = sim->half_d;
    f.inv_cell_d = sim->grid.inv_cell_d;
    f.fine_w = sim->grid.fine_w, f.fine_h = sim->grid.fine_h, f.fine_d = sim->grid.fine_d;
    f.grid_d = sim->grid.d;
    f.grid_span = sim->grid.span;
    f.dt = sim->dt;
    f.seed = (uint32_t)sim->def.seed, f.seed_hi = (uint32_t)(sim->def.seed >> 32);
    f.count = sim->def.count;
    f.grid_w = sim->grid.w;
    f.grid_h = sim->grid.h;
    f.swarms = sim->def.swarms;
    f.nearest = sim->def.nearest;
    f.loop_limit = g->loop_limit;
    f.event_mask = sim->def.event_mask;
    f.event_capacity = sim->def.event_capacity;
    f.flags = (sim->attributes & BOIDS_ATTR_BIT(ALIVE) ? BOIDS_FRAME_HAS_ALIVE : 0u) |
              (sim->obstacle_push ? BOIDS_FRAME_OBSTACLE_PUSH : 0u);
    f.replicas = sim->def.replicas;
    f.per_replica = sim->per_replica;
    f.cells_per_replica = boids_grid_cells_per_replica(&sim->grid);
    f.predator_count = sim->predator_count;
    f.predators_per_replica = sim->predators_per_replica ? sim->predators_per_replica : 1;
    f.obstacle_count = sim->obstacle_count;
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a) f.attr_base[a] = g->attr_base[a];
    f.tool = sim->tool;
    memcpy(&f.params, &sim->def.params, sizeof f.params); /* the blocks in use */
    glBindBuffer(GL_UNIFORM_BUFFER, g->frame);
    glBufferSubData(GL_UNIFORM_BUFFER, 0, sizeof f, &f);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
}

/* Writes agents' states in id order (slot = id, key 0): pv 4 floats each (x, y, vx, vy), in a 3D
 * world followed by 2 each (z, vz); swarms or NULL. */
static void write_agents(gpu_backend *g, gpu_agents *a, const float *pv, const uint32_t *swarm)
{
    for (uint32_t i = 0; i < a->count; ++i) g->staging_id[i] = i;
    a->key = 0;
    const size_t xy_bytes = sizeof(float) * 4 * a->count;
    boids_gpu_write(a->pos_vel[0], 0, xy_bytes, pv);
    if (a->depth[0]) boids_gpu_write(a->depth[0], 0, xy_bytes / 2, pv + 4 * (size_t)a->count);
    if (swarm) boids_gpu_write(a->swarm[0], 0, sizeof(uint32_t) * a->count, swarm);
    boids_gpu_write(a->id[0], 0, sizeof(uint32_t) * a->count, g->staging_id);
}

static boids_status reset_replicas(gpu_backend *g)
{
    const uint32_t R = g->sim->def.replicas;
    boids_replica_record *rs = malloc(sizeof *rs * R);
    if (!rs) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u replicas", R);
    for (uint32_t r = 0; r < R; ++r) rs[r] = (boids_replica_record){0, BOIDS_RUNNING};
    boids_gpu_write(g->replicas, 0, sizeof *rs * R, rs);
    free(rs);
    return BOIDS_OK;
}

static boids_status gpu_write(void *impl, const boids_boid *in)
{
    gpu_backend *g = impl;
    g->state_written = true; /* the next step sorts the state anew */
    const uint32_t n = g->sim->def.count;
    boids_status st = boids_gl_make_current(g->gl);
    if (st != BOIDS_OK) return st;
    for (uint32_t i = 0; i < n; ++i) {
        float *pv = &g->staging_pv[4 * i];
        pv[0] = in[i].x;
        pv[1] = in[i].y;
        pv[2] = in[i].vx;
        pv[3] = in[i].vy;
        g->staging_u[i] = in[i].swarm;
        if (g->sim->three) { /* after them: (z, vz) */
            float *d = &g->staging_pv[4 * (size_t)n + 2 * i];
            d[0] = in[i].z, d[1] = in[i].vz;
        }
    }
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a)
        if (g->sim->attributes & (1u << a))
            for (uint32_t i = 0; i < n; ++i)
                g->staging_attr[g->attr_base[a] + i] =
                    boids_boid_attr_bits(&in[i], (boids_attribute)a);
    write_agents(g, &g->boids, g->staging_pv, g->staging_u);
    if (g->attr_words)
        boids_gpu_write(g->attributes, 0, sizeof(uint32_t) * g->attr_words, g->staging_attr);
    boids_gpu_clear(g->report); /* a new state starts with a clean slate: no flags, no events, */
    st = reset_replicas(g);     /* no catches, every replica running */
    if (st != BOIDS_OK) return st;
    upload_frame(g);
    return boids_gl_check("uploading the state");
}

/* The predators are few: ordered on the device, whatever the boids' reads do. */
static boids_status gpu_read_predators(void *impl, boids_predator *out)
{
    gpu_backend *g = impl;
    const uint32_t n = g->preds.count;
    float *col = g->staging_pv;
    const bool three = g->sim->three;
    void *cols[BOIDS_COLUMN_ATTR] = {col,
                                     col + n,
                                     col + 2 * (size_t)n,
                                     col + 3 * (size_t)n,
                                     NULL,
                                     three ? col + 4 * (size_t)n : NULL,
                                     three ? col + 5 * (size_t)n : NULL};
    boids_status st = order_on_device(g, &g->preds, 1, cols);
    for (uint32_t i = 0; st == BOIDS_OK && i < n; ++i)
        out[i] = (boids_predator){col[i],
                                  col[n + i],
                                  col[2 * (size_t)n + i],
                                  col[3 * (size_t)n + i],
                                  three ? col[4 * (size_t)n + i] : 0.0f,
                                  three ? col[5 * (size_t)n + i] : 0.0f};
    return st == BOIDS_OK ? boids_gl_check("reading the predators") : st;
}

static boids_status gpu_write_predators(void *impl, const boids_predator *in)
{
    gpu_backend *g = impl;
    g->state_written = true; /* the next step sorts the state anew */
    boids_status st = boids_gl_make_current(g->gl);
    if (st != BOIDS_OK) return st;
    const uint32_t n = g->preds.count;
    for (uint32_t i = 0; i < n; ++i) {
        float *pv = &g->staging_pv[4 * i];
        pv[0] = in[i].x, pv[1] = in[i].y, pv[2] = in[i].vx, pv[3] = in[i].vy;
        if (g->sim->three) { /* after them: (z, vz) */
            float *d = &g->staging_pv[4 * (size_t)n + 2 * i];
            d[0] = in[i].z, d[1] = in[i].vz;
        }
    }
    write_agents(g, &g->preds, g->staging_pv, NULL);
    return boids_gl_check("uploading the predators");
}

static boids_status gpu_replicas(void *impl, boids_replica_record *out)
{
    gpu_backend *g = impl;
    boids_status st = boids_gl_make_current(g->gl);
    if (st != BOIDS_OK) return st;
    boids_gpu_read(g->replicas, 0, sizeof *out * g->sim->def.replicas, out);
    return boids_gl_check("reading the replicas");
}

static boids_status gpu_metrics(void *impl, float group_radius, boids_metric_sums *out)
{
    gpu_backend *g = impl;
    const boids_sim *sim = g->sim;
    if (sim->def.count == 0) {
        memset(out, 0, sizeof *out * sim->def.replicas);
        return BOIDS_OK;
    }
    boids_status st = make_current_and_bind(g);
    if (st == BOIDS_OK) st = check_report(g); /* the state's own flags first */
    if (st != BOIDS_OK) return st;
    const boids_gpu_hot state = {g->boids.pos_vel[0], g->boids.depth[0],
                                 g->boids.swarm[g->boids.key], g->boids.id[g->boids.key]};
    st = boids_gpu_metrics_compute(&g->metrics, &g->sorter, state, sim->def.count,
                                   boids_grid_cells(&sim->grid), sim->def.replicas,
                                   boids_grid_cells_per_replica(&sim->grid), group_radius, out);
    if (st != BOIDS_OK) return st;
    /* A flag the metrics raised is theirs, not the state's: cleared, and said so. */
    boids_gpu_report head;
    boids_gpu_read(g->report, 0, sizeof head, &head);
    if (!(head.status & BOIDS_STATUS_LOOP_LIMIT)) return BOIDS_OK;
    const uint32_t clear = head.status & ~(uint32_t)BOIDS_STATUS_LOOP_LIMIT;
    boids_gpu_write(g->report, offsetof(boids_gpu_report, status), sizeof clear, &clear);
    return boids_fail(BOIDS_E_GPU_LOOP_LIMIT,
                      "the metrics of this flock need longer loops than %s runs in one shader "
                      "invocation (a group or a nearest-neighbour search that large): they are "
                      "refused, the state is fine (--backend cpu measures them)",
                      boids_gl_renderer(g->gl));
}

/* The obstacles and their grid (host-built, world.c): uploaded whenever they or the grid change. */
static void upload_obstacles(gpu_backend *g)
{
    const boids_obstacle_grid *og = &g->sim->obstacle_grid;
    boids_gpu_upload(&g->obstacles, og->sorted, sizeof(float) * 4 * og->count);
    boids_gpu_upload(&g->obs_cell_start, og->cell_start,
                     sizeof(uint32_t) * ((size_t)og->cells + 1));
}

/* Whether the world's largest storage buffers fit the driver's storage block: checked before any
 * buffer is made (and before a grid is remade), so a world too large is refused, never run on
 * buffers a driver may clip. */
static boids_status check_fits(const gpu_backend *g)
{
    const boids_sim *sim = g->sim;
    const uint64_t n = sim->def.count, most = n > sim->predator_count ? n : sim->predator_count;
    const uint64_t attrs = n ? g->attr_words / n : 0;
    const boids_gpu_need needs[] = {
        /* the state and its sorted copy, a 3D world's depths, the read's id-ordered columns, the
         * metrics' copies: 16 bytes an agent each; the catches, a head and a catch per boid, are
         * one more of the same */
        {"their positions and velocities", sizeof(boids_catch), 16, most, "boid"},
        {"their attributes", 0, 4 * attrs, n, "boid"},
        {"the grid's counts and starts", 4, 4, boids_grid_cells(&sim->grid), "cell"},
        {"the events held between two takes", sizeof(boids_gpu_report), sizeof(boids_event),
         sim->def.event_capacity, "event"},
        {"the replicas' metrics", 0, sizeof(boids_gpu_metric_sums), sim->def.replicas, "replica"},
        {"the obstacles", 0, 16, sim->obstacle_count, "obstacle"},
    };
    boids_status st = boids_gpu_limits_check(boids_gl_limits(g->gl), boids_gl_renderer(g->gl),
                                             needs, sizeof needs / sizeof needs[0]);
    if (st != BOIDS_OK) return st;
    return boids_gpu_limits_check_texels(boids_gl_limits(g->gl), boids_gl_renderer(g->gl), n);
}

/* The host's staging arrays for reads and writes of up to `agents` boids or predators: float
 * columns (3D: 6 columns, 8 floats an agent to write), swarms and ids. Kept when large enough. */
static boids_status size_staging(gpu_backend *g, uint32_t agents)
{
    if (agents <= g->staging_agents) return BOIDS_OK;
    float *pv = malloc(sizeof(float) * (g->sim->three ? 8 : 4) * agents);
    uint32_t *u = malloc(sizeof(uint32_t) * agents), *id = malloc(sizeof(uint32_t) * agents);
    if (!pv || !u || !id) {
        free(pv), free(u), free(id);
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u agents", agents);
    }
    free(g->staging_pv), free(g->staging_u), free(g->staging_id);
    g->staging_pv = pv, g->staging_u = u, g->staging_id = id;
    g->staging_agents = agents;
    return BOIDS_OK;
}

static boids_status gpu_configure(void *impl, bool grid_changed)
{
    gpu_backend *g = impl;
    boids_status st = boids_gl_make_current(g->gl);
    if (st != BOIDS_OK) return st;
    if ((st = check_fits(g)) != BOIDS_OK) return st;
    while (glGetError() != GL_NO_ERROR) {
    }
    const uint32_t cells = boids_grid_cells(&g->sim->grid);
    const bool resized = g->preds.count != g->sim->predator_count;
    /* more predators than the staging arrays hold: larger ones, before any is written */
    if (resized && (st = size_staging(g, g->sim->predator_count)) != BOIDS_OK) return st;
    if (resized) { /* another number of predators: their buffers anew, for the world to write */
        free_agents(&g->preds);
        memset(&g->preds, 0, sizeof g->preds);
        make_agents(&g->preds, g->sim->predator_count, g->sim->three);
    }
    if (grid_changed) g->sorted_by_steer = false; /* its counts are in the buffers going now */
    if (grid_changed &&
        (st = boids_gpu_grid_make(&g->boids.grid, cells, g->boids.count)) != BOIDS_OK)
        return st;
    if ((grid_changed || resized) &&
        (st = boids_gpu_grid_make(&g->preds.grid, predator_cells(g, cells), g->preds.count)) !=
            BOIDS_OK)
        return st;
    upload_obstacles(g);
    upload_frame(g);
    return boids_gl_check("reconfiguring the GPU world");
}

static boids_status gpu_take_events(void *impl, boids_event_log *log)
{
    gpu_backend *g = impl;
    boids_status st = boids_gl_make_current(g->gl);
    if (st != BOIDS_OK) return st;
    boids_gpu_report head;
    boids_gpu_read(g->report, 0, sizeof head, &head);
    uint32_t cap = g->sim->def.event_capacity,
             kept = head.event_count < cap ? head.event_count : cap;
    for (uint32_t done = 0; done < kept;) { /* through a bounded host buffer */
        boids_event chunk[256];
        uint32_t k = kept - done < 256 ? kept - done : 256;
        boids_gpu_read(g->report, sizeof head + sizeof(boids_event) * done, sizeof(boids_event) * k,
                       chunk);
        for (uint32_t i = 0; i < k; ++i) boids_event_log_push(log, &chunk[i]);
        done += k;
    }
    log->lost += head.event_count - kept;
    const GLuint zero = 0; /* a new list; the status flags stay */
    boids_gpu_write(g->report, offsetof(boids_gpu_report, event_count), sizeof zero, &zero);
    return boids_gl_check("reading the GPU events");
}

static void gpu_profile(void *impl, boids_profile_acc *acc)
{
    gpu_backend *g = impl;
    if (boids_gl_make_current(g->gl) == BOIDS_OK) boids_gpu_timer_poll(&g->timer);
    for (int p = 0; p < BOIDS_PASS_COUNT; ++p) {
        acc->sum_ms[p] += g->timer.acc.sum_ms[p];
        acc->samples[p] += g->timer.acc.samples[p];
    }
    acc->steps += g->commands.steps;
    acc->dispatches += g->commands.dispatches;
    acc->barriers += g->commands.barriers;
    acc->clears += g->commands.clears;
}

static void gpu_reset_profile(void *impl)
{
    gpu_backend *g = impl;
    if (boids_gl_make_current(g->gl) == BOIDS_OK) boids_gpu_timer_poll(&g->timer);
    memset(&g->timer.acc, 0, sizeof g->timer.acc);
    memset(&g->commands, 0, sizeof g->commands);
}

static boids_gl_state gpu_gl_state(const void *impl)
{
    const gpu_backend *g = impl;
    boids_gl_state s;
    memset(&s, 0, sizeof s);
    s.pos_vel = g->boids.pos_vel[0];
    s.pos_vel_z = g->boids.depth[0];
    s.swarm = g->boids.swarm[g->boids.key];
    s.id = g->boids.id[g->boids.key];
    s.cell_start = g->boids.grid.cell_start;
    s.alive_at = g->boids.grid.cells;
    s.pred_pos_vel = g->preds.count ? g->preds.pos_vel[0] : 0;
    s.pred_pos_vel_z = g->preds.count ? g->preds.depth[0] : 0;
    s.predators = g->preds.count;
    s.attributes = g->attributes;
    memcpy(s.attr_base, g->attr_base, sizeof s.attr_base);
    return s;
}

static uint64_t agents_bytes(const gpu_agents *a)
{
    GLuint b[AGENT_BUFFERS];
    return boids_gpu_buffers_bytes(b, agent_buffers(a, b)) + boids_gpu_grid_bytes(&a->grid);
}

/* Every buffer the world made on the device, asked of the driver (the staging buffer of reads
 * ordered on the host lives in the host's memory: not counted). */
static uint64_t gpu_device_bytes(void *impl)
{
    gpu_backend *g = impl;
    if (boids_gl_make_current(g->gl) != BOIDS_OK) return 0;
    const GLuint b[] = {g->frame,     g->attributes,     g->report, g->replicas,
                        g->obstacles, g->obs_cell_start, g->catches};
    return agents_bytes(&g->boids) + agents_bytes(&g->preds) +
           boids_gpu_metrics_bytes(&g->metrics) + boids_gpu_id_order_bytes(&g->order) +
           boids_gpu_buffers_bytes(b, sizeof b / sizeof b[0]);
}

static void gpu_release(void *impl)
{
    const gpu_backend *g = impl;
    if (g->owned_gl) boids_gl_release(g->owned_gl); /* a context the caller gave stays theirs */
}

static void gpu_destroy(void *impl)
{
    gpu_backend *g = impl;
    if (!g) return;
    boids_gl_make_current(g->gl);
    GLuint progs[] = {g->prog_steer, g->prog_catch, g->prog_stop, g->prog_hunt,
                      g->prog_catch_apply};
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; ++i)
        if (progs[i]) glDeleteProgram(progs[i]);
    boids_gpu_sorter_destroy(&g->sorter);
    boids_gpu_metrics_free(&g->metrics);
    boids_gpu_id_order_free(&g->order);
    if (g->read_pool) boids_pool_destroy(g->read_pool);
    free_agents(&g->boids);
    free_agents(&g->preds);
    GLuint bufs[] = {g->frame,     g->attributes,     g->report,  g->replicas,
                     g->obstacles, g->obs_cell_start, g->catches, g->staging};
    boids_gpu_delete(bufs, sizeof bufs / sizeof bufs[0]);
    boids_gpu_timer_destroy(&g->timer);
    free(g->staging_pv);
    free(g->staging_u);
    free(g->staging_id);
    free(g->staging_attr);
    if (g->owned_gl) boids_gl_destroy(g->owned_gl);
    free(g);
}

static const boids_backend_ops gpu_ops = {
    .step = gpu_step,
    .finish = gpu_finish,
    .read = gpu_read,
    .read_columns = gpu_read_columns,
    .write = gpu_write,
    .read_predators = gpu_read_predators,
    .write_predators = gpu_write_predators,
    .replicas = gpu_replicas,
    .metrics = gpu_metrics,
    .configure = gpu_configure,
    .take_events = gpu_take_events,
    .profile = gpu_profile,
    .reset_profile = gpu_reset_profile,
    .gl_state = gpu_gl_state,
    .device_bytes = gpu_device_bytes,
    .release = gpu_release,
    .destroy = gpu_destroy,
};

/* Where a program's u_step uniform is (-1: no program, the model has not this pass). */
static GLint step_uniform(GLuint program)
{
    return program ? glGetUniformLocation(program, "u_step") : -1;
}

static boids_status create_programs(gpu_backend *g, boids_model model)
{
    char steer[128];
    snprintf(steer, sizeof steer, "steer_%s.comp", boids_model_name(model)); /* glsl_gen's name */
    boids_status st;
    const int dims = g->sim->three ? 3 : 2;
    g->order.dims = dims;
    g->metrics.dims = dims;
    if ((st = boids_gpu_sorter_create(&g->sorter, dims)) != BOIDS_OK) return st;
    /* The K-nearest search is compiled in only for a world of nearest:K: its list (three arrays
     * of K words an invocation) and its loops cost a metric world a third of its step on llvmpipe
     * even where a uniform branch never enters them. */
    const char *variant = g->sim->def.nearest ? "#define BOIDS_NEAREST 1\n" : NULL;
    if ((st = boids_program_compute_with(steer, dims, variant, &g->prog_steer)) != BOIDS_OK)
        return st;
    if (boids_model_features(model) & BOIDS_FEATURE_PREDATORS) {
        /* (the catches and the hunt measure in the world's dimension; the stops count) */
        if ((st = boids_program_compute("catch.comp", dims, &g->prog_catch)) != BOIDS_OK) return st;
        if ((st = boids_program_compute("stop.comp", 2, &g->prog_stop)) != BOIDS_OK) return st;
        if ((st = boids_program_compute("hunt.comp", dims, &g->prog_hunt)) != BOIDS_OK) return st;
        if ((st = boids_program_compute("catch_apply.comp", 2, &g->prog_catch_apply)) != BOIDS_OK)
            return st;
    }
    g->u_step_steer = step_uniform(g->prog_steer);
    g->u_step_catch = step_uniform(g->prog_catch);
    g->u_step_stop = step_uniform(g->prog_stop);
    g->u_step_hunt = step_uniform(g->prog_hunt);
    g->u_step_catch_apply = step_uniform(g->prog_catch_apply);
    return BOIDS_OK;
}

static boids_status make_buffers(gpu_backend *g)
{
    const boids_sim *sim = g->sim;
    while (glGetError() != GL_NO_ERROR) {
    }
    make_agents(&g->boids, sim->def.count, sim->three);
    make_agents(&g->preds, sim->predator_count, sim->three);
    g->frame = boids_gpu_buffer(GL_UNIFORM_BUFFER, sizeof(boids_gpu_frame));
    g->attributes = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * g->attr_words);
    g->report = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER,
                                 sizeof(boids_gpu_report) +
                                     sizeof(boids_event) * (size_t)sim->def.event_capacity);
    g->replicas = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER,
                                   sizeof(boids_replica_record) * sim->def.replicas);
    g->catches = boids_gpu_buffer(
        GL_SHADER_STORAGE_BUFFER, /* the count, then a catch per boid at most */
        sizeof(GLuint) * 4 +
            sizeof(boids_catch) * (size_t)(sim->predator_count ? sim->def.count : 1));
    const uint32_t cells = boids_grid_cells(&sim->grid);
    boids_status st = boids_gpu_grid_make(&g->boids.grid, cells, g->boids.count);
    if (st == BOIDS_OK)
        st = boids_gpu_grid_make(&g->preds.grid, predator_cells(g, cells), g->preds.count);
    GLenum err = glGetError();
    if (st == BOIDS_OK && err == GL_OUT_OF_MEMORY)
        return boids_fail(BOIDS_E_NO_MEMORY, "GPU out of memory for %u boids and %u cells",
                          sim->def.count, cells);
    if (st == BOIDS_OK && err != GL_NO_ERROR)
        return boids_fail(BOIDS_E_GL, "allocating GPU buffers: GL error 0x%x", (unsigned)err);
    if (st == BOIDS_OK) {
        upload_obstacles(g);
        st = reset_replicas(g);
    }
    return st;
}

/* BOIDS_GPU_READ: device or host fixes where a read orders the boids (read_boid_columns); unset or
 * empty, the first read measures. Checked when the world is made, not at its first read. */
static boids_status read_place_setting(gpu_backend *g)
{
    int place;
    boids_status st = boids_env_choice("BOIDS_GPU_READ", boids_env_gpu_reads, &place);
    if (st == BOIDS_OK && place >= 0)
        g->read_place = place == 0 ? GPU_READ_ON_DEVICE : GPU_READ_ON_HOST;
    return st;
}

boids_status boids_gpu_backend_create(const boids_sim *sim, const boids_backend_ops **ops,
                                      void **impl, const char **renderer, const char **device,
                                      int *threads)
{
    gpu_backend *g = calloc(1, sizeof *g);
    if (!g) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the GPU backend");
    g->sim = sim;
    boids_status st = boids_environment_check(); /* every setting, not only those read below */
    if (st == BOIDS_OK) st = read_place_setting(g);
    if (st != BOIDS_OK) {
        free(g);
        return st;
    }
    boids_gl *gl = sim->def.gl;
    st = gl ? boids_gl_make_current(gl) : boids_gl_create_headless(&g->owned_gl);
    if (st != BOIDS_OK) {
        free(g);
        return st;
    }
    g->gl = gl ? gl : g->owned_gl;
    const uint32_t n = sim->def.count, most = n > sim->predator_count ? n : sim->predator_count;
    const uint32_t n1 = most ? most : 1;
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a) /* the model's attributes, one after another */
        if (sim->attributes & (1u << a)) {
            g->attr_base[a] = g->attr_words;
            g->attr_words += n;
        }
    /* A world the driver cannot hold is refused before anything is made. Then the loop limit:
     * some drivers end a shader invocation after so many loop iterations (llvmpipe's 65535); a
     * little below that, passes stop on their own and say so. Measured, once per context. */
    st = check_fits(g);
    if (st == BOIDS_OK) st = boids_gpu_loop_limit(g->gl, &g->loop_limit);
    if (st != BOIDS_OK) {
        if (g->owned_gl) boids_gl_destroy(g->owned_gl);
        free(g);
        return st;
    }
    g->staging_attr = malloc(sizeof(uint32_t) * (g->attr_words ? g->attr_words : 1));
    st = size_staging(g, n1);
    if (st == BOIDS_OK && !g->staging_attr)
        st = boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u boids", n);
    if (st == BOIDS_OK) st = create_programs(g, sim->def.model);
    if (st == BOIDS_OK) st = make_buffers(g);
    if (st == BOIDS_OK) boids_gpu_timer_init(&g->timer);
    if (st != BOIDS_OK) {
        gpu_destroy(g);
        return st;
    }
    *ops = &gpu_ops;
    *impl = g;
    *renderer = boids_gl_renderer(g->gl);
    *device = boids_gl_device(g->gl);
    *threads = 1;
    return BOIDS_OK;
}

void boids_gpu_backend_set_loop_limit(void *impl, uint32_t limit)
{
    gpu_backend *g = impl;
    g->loop_limit = limit;
    if (boids_gl_make_current(g->gl) == BOIDS_OK) upload_frame(g);
}

uint32_t boids_gpu_backend_scan_blocks(const void *impl)
{
    return ((const gpu_backend *)impl)->boids.grid.scan_blocks;
}

boids_status boids_gpu_backend_read_grid(void *impl, uint32_t *cell_count, uint32_t *cell_start,
                                         uint32_t *sorted_ids, uint32_t *histogram)
{
    gpu_backend *g = impl;
    boids_status st = boids_gl_make_current(g->gl);
    if (st != BOIDS_OK) return st;
    const boids_gpu_grid *grid = &g->boids.grid;
    const size_t words = (size_t)grid->cells + 1;
    uint32_t *start = malloc(sizeof(uint32_t) * words);
    if (!start) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory reading the GPU grid");
    boids_gpu_read(grid->cell_start, 0, sizeof(uint32_t) * words, start);
    boids_gpu_read(grid->cell_count, 0, sizeof(uint32_t) * grid->cells, histogram);
    for (uint32_t c = 0; c < grid->cells; ++c) {
        cell_start[c] = start[c];
        cell_count[c] = start[c + 1] - start[c]; /* (the histogram is the next step's) */
    }
    free(start);
    /* After a step the sorted ids are the state's. */
    boids_gpu_read(g->boids.id[g->boids.key], 0, sizeof(uint32_t) * g->boids.count, sorted_ids);
    return boids_gl_check("reading the GPU grid");
}
