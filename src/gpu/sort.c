#include "gpu/sort.h"

#include <string.h>

#include "base/error.h"
#include "gl/program.h"
#include "gpu/buffers.h"

boids_status boids_gpu_sorter_create(boids_gpu_sorter *s, int dims)
{
    memset(s, 0, sizeof *s);
    boids_status st;
    if ((st = boids_program_compute("grid_cell.comp", dims, &s->prog_cell)) != BOIDS_OK) return st;
    if ((st = boids_program_compute("scan_blocks.comp", 2, &s->prog_scan_blocks)) != BOIDS_OK)
        return st;
    if ((st = boids_program_compute("scan.comp", 2, &s->prog_scan)) != BOIDS_OK) return st;
    if ((st = boids_program_compute("scatter.comp", 2, &s->prog_scatter)) != BOIDS_OK) return st;
    if ((st = boids_program_compute("reorder.comp", dims, &s->prog_reorder)) != BOIDS_OK) return st;
    s->u_scan_blocks_n = glGetUniformLocation(s->prog_scan_blocks, "u_n");
    s->u_scan_n = glGetUniformLocation(s->prog_scan, "u_n");
    s->u_agents.cell = glGetUniformLocation(s->prog_cell, "u_agents");
    s->u_agents.scatter = glGetUniformLocation(s->prog_scatter, "u_agents");
    s->u_agents.reorder = glGetUniformLocation(s->prog_reorder, "u_agents");
    s->u_keep_stopped = glGetUniformLocation(s->prog_cell, "u_keep_stopped");
    return BOIDS_OK;
}

void boids_gpu_sorter_destroy(boids_gpu_sorter *s)
{
    GLuint progs[] = {s->prog_cell, s->prog_scan_blocks, s->prog_scan, s->prog_scatter,
                      s->prog_reorder};
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; ++i)
        if (progs[i]) glDeleteProgram(progs[i]);
    memset(s, 0, sizeof *s);
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
    /* the scan's counter (zero: the scan leaves it so too) and a word per block */
    g->scan_blocks = boids_gpu_groups(cells + 1, BOIDS_SCAN_BLOCK);
    g->scan_aux =
        boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * (1 + (size_t)g->scan_blocks));
    boids_gpu_clear(g->scan_aux);
    if (g->agents != agents || !g->cell_of) {
        GLuint per_agent[] = {g->cell_of, g->cell_rank, g->slot_id};
        boids_gpu_delete(per_agent, sizeof per_agent / sizeof per_agent[0]);
        g->agents = agents;
        g->cell_of = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * agents);
        g->cell_rank = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * agents);
        g->slot_id = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * agents);
    }
    return BOIDS_OK;
}

/* The grid's buffers, in b[0..6). */
static size_t grid_buffers(const boids_gpu_grid *g, GLuint b[6])
{
    const GLuint all[6] = {g->cell_of,    g->cell_rank, g->cell_count,
                           g->cell_start, g->slot_id,   g->scan_aux};
    memcpy(b, all, sizeof all);
    return 6;
}

uint64_t boids_gpu_grid_bytes(const boids_gpu_grid *g)
{
    GLuint b[6];
    return boids_gpu_buffers_bytes(b, grid_buffers(g, b));
}

void boids_gpu_grid_free(boids_gpu_grid *g)
{
    GLuint b[6];
    boids_gpu_delete(b, grid_buffers(g, b));
    memset(g, 0, sizeof *g);
}

/* The histogram's exclusive prefix sum, cells + 1 counts (the graveyard's last, so
 * cell_start[cells] counts the living and cell c's slots are [start[c], start[c + 1])): two
 * dispatches whatever the number of cells. */
static void run_scan(const boids_gpu_sorter *s, const boids_gpu_grid *grid)
{
    boids_gpu_bind(BOIDS_BIND_CELL_COUNT, grid->cell_count);
    boids_gpu_bind(BOIDS_BIND_CELL_START, grid->cell_start);
    boids_gpu_bind(BOIDS_BIND_SCAN_SUMS, grid->scan_aux);
    glUseProgram(s->prog_scan_blocks);
    glUniform1ui(s->u_scan_blocks_n, grid->cells + 1);
    boids_gpu_dispatch("grid: scan's blocks", grid->scan_blocks);
    boids_gpu_barrier();
    glUseProgram(s->prog_scan);
    glUniform1ui(s->u_scan_n, grid->cells + 1);
    boids_gpu_dispatch("grid: scan", grid->scan_blocks);
    boids_gpu_barrier();
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
        boids_gpu_bind_pos_vel(BOIDS_BIND_POS_VEL_IN, BOIDS_BIND_POS_VEL_Z_IN, in.pos_vel,
                               in.depth);
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
        boids_gpu_bind_pos_vel(BOIDS_BIND_POS_VEL_IN, BOIDS_BIND_POS_VEL_Z_IN, in.pos_vel,
                               in.depth);
        boids_gpu_bind_pos_vel(BOIDS_BIND_POS_VEL_OUT, BOIDS_BIND_POS_VEL_Z_OUT, out.pos_vel,
                               out.depth);
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
