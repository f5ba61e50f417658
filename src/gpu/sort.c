#include "gpu/sort.h"

#include <string.h>

#include "base/error.h"
#include "gpu/buffers.h"
#include "gpu/program.h"

boids_status boids_gpu_sorter_create(boids_gpu_sorter *s, int dims)
{
    memset(s, 0, sizeof *s);
    boids_status st;
    if ((st = boids_program_compute("grid_cell.comp", dims, &s->prog_cell)) != BOIDS_OK) return st;
    if ((st = boids_program_compute("scan.comp", 2, &s->prog_scan)) != BOIDS_OK) return st;
    if ((st = boids_program_compute("scan_add.comp", 2, &s->prog_scan_add)) != BOIDS_OK) return st;
    if ((st = boids_program_compute("scatter.comp", 2, &s->prog_scatter)) != BOIDS_OK) return st;
    if ((st = boids_program_compute("reorder.comp", dims, &s->prog_reorder)) != BOIDS_OK) return st;
    s->u_scan.n = glGetUniformLocation(s->prog_scan, "u_n");
    s->u_scan.in_off = glGetUniformLocation(s->prog_scan, "u_in_off");
    s->u_scan.out_off = glGetUniformLocation(s->prog_scan, "u_out_off");
    s->u_scan.sums_off = glGetUniformLocation(s->prog_scan, "u_sums_off");
    s->u_scan.write_sums = glGetUniformLocation(s->prog_scan, "u_write_sums");
    s->u_scan.zero_in = glGetUniformLocation(s->prog_scan, "u_zero_in");
    s->u_add.n = glGetUniformLocation(s->prog_scan_add, "u_n");
    s->u_add.out_off = glGetUniformLocation(s->prog_scan_add, "u_out_off");
    s->u_add.sums_off = glGetUniformLocation(s->prog_scan_add, "u_sums_off");
    s->u_agents.cell = glGetUniformLocation(s->prog_cell, "u_agents");
    s->u_agents.scatter = glGetUniformLocation(s->prog_scatter, "u_agents");
    s->u_agents.reorder = glGetUniformLocation(s->prog_reorder, "u_agents");
    s->u_keep_stopped = glGetUniformLocation(s->prog_cell, "u_keep_stopped");
    return BOIDS_OK;
}

void boids_gpu_sorter_destroy(boids_gpu_sorter *s)
{
    GLuint progs[] = {s->prog_cell, s->prog_scan, s->prog_scan_add, s->prog_scatter,
                      s->prog_reorder};
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; ++i)
        if (progs[i]) glDeleteProgram(progs[i]);
    memset(s, 0, sizeof *s);
}

/* Plans the scan hierarchy over the cells + 1 counts: level k holds ceil(n_{k-1} / BLOCK) block
 * totals, up to one block. The last count is the graveyard's, so cell_start[cells] counts the
 * living and every cell c's slots are [start[c], start[c + 1]). */
static boids_status plan_scan(boids_gpu_grid *g)
{
    uint32_t n = g->cells + 1, aux = 0, k = 0;
    g->levels[0] = (boids_gpu_scan_level){n, g->cell_count, g->cell_start, 0, 0, 0};
    while (n > BOIDS_SCAN_BLOCK) {
        if (k + 1 >= BOIDS_GPU_MAX_SCAN_LEVELS)
            return boids_fail(BOIDS_E_GRID_TOO_LARGE,
                              "a grid of %u cells needs too many scan levels", g->cells);
        uint32_t blocks = boids_gpu_groups(n, BOIDS_SCAN_BLOCK);
        g->levels[k].sums_off = aux;
        g->levels[k + 1] = (boids_gpu_scan_level){blocks, 0, 0, aux, aux, 0};
        aux += blocks;
        n = blocks;
        ++k;
    }
    g->level_count = k + 1;
    g->scan_aux = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * (aux ? aux : 1));
    for (uint32_t l = 1; l < g->level_count; ++l) g->levels[l].in = g->levels[l].out = g->scan_aux;
    return BOIDS_OK;
}

boids_status boids_gpu_grid_make(boids_gpu_grid *g, uint32_t cells, uint32_t agents)
{
    GLuint old[] = {g->cell_count, g->cell_start, g->scan_aux};
    boids_gpu_delete(old, sizeof old / sizeof old[0]);
    g->cells = cells;
    size_t bytes = sizeof(uint32_t) * ((size_t)g->cells + 1);
    g->cell_count = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, bytes);
    boids_gpu_clear(g->cell_count); /* the only clear: each scan leaves the counts zero again */
    g->cell_start = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, bytes);
    if (g->agents != agents || !g->cell_of) {
        GLuint per_agent[] = {g->cell_of, g->cell_rank, g->slot_id};
        boids_gpu_delete(per_agent, sizeof per_agent / sizeof per_agent[0]);
        g->agents = agents;
        g->cell_of = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * agents);
        g->cell_rank = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * agents);
        g->slot_id = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * agents);
    }
    return plan_scan(g);
}

void boids_gpu_grid_free(boids_gpu_grid *g)
{
    GLuint b[] = {g->cell_of, g->cell_rank, g->cell_count, g->cell_start, g->slot_id, g->scan_aux};
    boids_gpu_delete(b, sizeof b / sizeof b[0]);
    memset(g, 0, sizeof *g);
}

static void run_scan(const boids_gpu_sorter *s, const boids_gpu_grid *grid)
{
    glUseProgram(s->prog_scan);
    for (uint32_t l = 0; l < grid->level_count; ++l) {
        const boids_gpu_scan_level *v = &grid->levels[l];
        int top = l + 1 == grid->level_count;
        boids_gpu_bind(BOIDS_BIND_SCAN_IN, v->in);
        boids_gpu_bind(BOIDS_BIND_SCAN_OUT, v->out);
        boids_gpu_bind(BOIDS_BIND_SCAN_SUMS, grid->scan_aux);
        glUniform1ui(s->u_scan.n, v->n);
        glUniform1ui(s->u_scan.in_off, v->in_off);
        glUniform1ui(s->u_scan.out_off, v->out_off);
        glUniform1ui(s->u_scan.sums_off, v->sums_off);
        glUniform1ui(s->u_scan.write_sums, top ? 0u : 1u);
        glUniform1ui(s->u_scan.zero_in, l == 0 ? 1u : 0u); /* the counts, for the next sort */
        boids_gpu_dispatch("grid: scan", boids_gpu_groups(v->n, BOIDS_SCAN_BLOCK));
        boids_gpu_barrier();
    }
    if (grid->level_count < 2) return;
    glUseProgram(s->prog_scan_add);
    for (uint32_t l = grid->level_count - 1; l-- > 0;) {
        const boids_gpu_scan_level *v = &grid->levels[l];
        boids_gpu_bind(BOIDS_BIND_SCAN_OUT, v->out);
        boids_gpu_bind(BOIDS_BIND_SCAN_SUMS, grid->scan_aux);
        glUniform1ui(s->u_add.n, v->n);
        glUniform1ui(s->u_add.out_off, v->out_off);
        glUniform1ui(s->u_add.sums_off, v->sums_off);
        boids_gpu_dispatch("grid: scan totals", boids_gpu_groups(v->n, BOIDS_SCAN_BLOCK));
        boids_gpu_barrier();
    }
}

void boids_gpu_sort_pass(const boids_gpu_sorter *s, const boids_gpu_sort_job *job, boids_pass pass)
{
    const uint32_t n_groups = boids_gpu_groups(job->count, BOIDS_WG_SIZE);
    const boids_gpu_grid *grid = job->grid;
    const boids_gpu_hot in = job->in, out = job->out;
    switch (pass) {
    case BOIDS_PASS_GRID:
        glUseProgram(s->prog_cell);
        glUniform1ui(s->u_agents.cell, job->which);
        glUniform1ui(s->u_keep_stopped, job->keep_stopped ? 1u : 0u);
        boids_gpu_bind(BOIDS_BIND_POS_VEL_IN, in.pos_vel);
        boids_gpu_bind(BOIDS_BIND_ID_IN, in.id);
        boids_gpu_bind(BOIDS_BIND_CELL_OF, grid->cell_of);
        boids_gpu_bind(BOIDS_BIND_CELL_COUNT, grid->cell_count);
        boids_gpu_bind(BOIDS_BIND_CELL_RANK, grid->cell_rank);
        boids_gpu_dispatch("grid: cells", n_groups);
        boids_gpu_barrier();
        break;
    case BOIDS_PASS_SCAN: run_scan(s, grid); break;
    case BOIDS_PASS_SCATTER:
        glUseProgram(s->prog_scatter);
        glUniform1ui(s->u_agents.scatter, job->which);
        boids_gpu_bind(BOIDS_BIND_CELL_OF, grid->cell_of);
        boids_gpu_bind(BOIDS_BIND_CELL_START, grid->cell_start);
        boids_gpu_bind(BOIDS_BIND_CELL_RANK, grid->cell_rank);
        boids_gpu_bind(BOIDS_BIND_ID_IN, in.id);
        boids_gpu_bind(BOIDS_BIND_SLOT_ID, grid->slot_id);
        boids_gpu_dispatch("grid: scatter", n_groups);
        boids_gpu_barrier();
        break;
    case BOIDS_PASS_REORDER:
        glUseProgram(s->prog_reorder);
        glUniform1ui(s->u_agents.reorder, job->which);
        boids_gpu_bind(BOIDS_BIND_POS_VEL_IN, in.pos_vel);
        boids_gpu_bind(BOIDS_BIND_POS_VEL_OUT, out.pos_vel);
        boids_gpu_bind(BOIDS_BIND_SWARM_IN, in.swarm);
        boids_gpu_bind(BOIDS_BIND_SWARM_OUT, out.swarm);
        boids_gpu_bind(BOIDS_BIND_ID_IN, in.id);
        boids_gpu_bind(BOIDS_BIND_ID_OUT, out.id);
        boids_gpu_bind(BOIDS_BIND_CELL_OF, grid->cell_of);
        boids_gpu_bind(BOIDS_BIND_CELL_START, grid->cell_start);
        boids_gpu_bind(BOIDS_BIND_CELL_RANK, grid->cell_rank);
        boids_gpu_bind(BOIDS_BIND_SLOT_ID, grid->slot_id);
        boids_gpu_dispatch("grid: reorder", n_groups);
        boids_gpu_barrier();
        break;
    default: /* not a pass of the sort */ break;
    }
}

void boids_gpu_sort(const boids_gpu_sorter *s, const boids_gpu_sort_job *job)
{
    const boids_pass passes[] = {BOIDS_PASS_GRID, BOIDS_PASS_SCAN, BOIDS_PASS_SCATTER,
                                 BOIDS_PASS_REORDER};
    for (size_t k = 0; k < sizeof passes / sizeof passes[0]; ++k)
        boids_gpu_sort_pass(s, job, passes[k]);
}
