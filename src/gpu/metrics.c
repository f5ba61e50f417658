#include "gpu/metrics.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "gl/context.h"
#include "gl/program.h"
#include "gpu/buffers.h"

/* The metrics' buffers (their grid's aside), in b. */
#define METRICS_BUFFERS 8
static size_t metrics_buffers(const boids_gpu_metrics *m, GLuint b[METRICS_BUFFERS])
{
    const GLuint all[METRICS_BUFFERS] = {m->sorted.pos_vel, m->sorted.depth, m->sorted.swarm,
                                         m->sorted.id,      m->slot,         m->slot_z,
                                         m->parent,         m->sums};
    memcpy(b, all, sizeof all);
    return METRICS_BUFFERS;
}

uint64_t boids_gpu_metrics_bytes(const boids_gpu_metrics *m)
{
    GLuint b[METRICS_BUFFERS];
    return boids_gpu_buffers_bytes(b, metrics_buffers(m, b)) + boids_gpu_grid_bytes(&m->grid);
}

void boids_gpu_metrics_free(boids_gpu_metrics *m)
{
    GLuint progs[] = {m->prog_nn, m->prog_link, m->prog_reduce};
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; ++i)
        if (progs[i]) glDeleteProgram(progs[i]);
    GLuint bufs[METRICS_BUFFERS];
    boids_gpu_delete(bufs, metrics_buffers(m, bufs));
    boids_gpu_grid_free(&m->grid);
    memset(m, 0, sizeof *m);
}

/* Programs once; buffers for this many boids, cells and replicas (made anew when they change). */
static boids_status prepare(boids_gpu_metrics *m, uint32_t count, uint32_t cells, uint32_t replicas)
{
    boids_status st = BOIDS_OK;
    if (!m->prog_nn) {
        if ((st = boids_program_compute("metrics_nn.comp", m->dims, &m->prog_nn)) != BOIDS_OK)
            return st;
        if ((st = boids_program_compute("metrics_link.comp", m->dims, &m->prog_link)) != BOIDS_OK)
            return st;
        if ((st = boids_program_compute("metrics_reduce.comp", m->dims, &m->prog_reduce)) !=
            BOIDS_OK)
            return st;
        m->u_radius = glGetUniformLocation(m->prog_link, "u_radius");
    }
    const size_t vec4s = sizeof(float) * 4 * (size_t)count;
    const bool three = m->dims == 3; /* and buffers of (z, vz) and the heading's z */
    if (m->count != count || !m->slot) {
        GLuint bufs[] = {m->sorted.pos_vel, m->sorted.depth, m->sorted.swarm, m->sorted.id,
                         m->slot,           m->slot_z,       m->parent};
        boids_gpu_delete(bufs, sizeof bufs / sizeof bufs[0]);
        m->count = count;
        m->sorted.pos_vel = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, vec4s);
        m->sorted.depth = three ? boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, vec4s / 2) : 0;
        m->slot_z =
            three ? boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(float) * (size_t)count) : 0;
        m->sorted.swarm = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * count);
        m->sorted.id = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * count);
        m->slot = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, vec4s);
        m->parent = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * count);
        m->grid.cells = 0; /* the grid anew, its per-agent buffers for this many */
    }
    if (m->grid.cells != cells || !m->grid.cell_start)
        st = boids_gpu_grid_make(&m->grid, cells, count);
    if (st == BOIDS_OK && m->replicas != replicas) {
        boids_gpu_delete(&m->sums, 1);
        m->sums =
            boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(boids_gpu_metric_sums) * replicas);
        m->replicas = replicas;
    }
    return st;
}

boids_status boids_gpu_metrics_compute(boids_gpu_metrics *m, const boids_gpu_sorter *sorter,
                                       boids_gpu_hot state, uint32_t count, uint32_t cells,
                                       uint32_t replicas, uint32_t cells_per_replica,
                                       float group_radius, boids_metric_sums *out)
{
    (void)cells_per_replica; /* the shaders read it from the frame */
    boids_status st = prepare(m, count, cells, replicas);
    if (st != BOIDS_OK) return st;
    const boids_gpu_sort_job sort = {.which = 0,
                                     .count = count,
                                     .in = state,
                                     .out = m->sorted,
                                     .grid = &m->grid,
                                     .keep_stopped = true};
    boids_gpu_sort(sorter, &sort);
    const uint32_t n_groups = boids_gpu_groups(count, BOIDS_WG_SIZE);
    boids_gpu_bind_pos_vel(BOIDS_BIND_POS_VEL_IN, BOIDS_BIND_POS_VEL_Z_IN, m->sorted.pos_vel,
                           m->sorted.depth);
    boids_gpu_bind(BOIDS_BIND_ID_IN, m->sorted.id);
    boids_gpu_bind(BOIDS_BIND_CELL_START, m->grid.cell_start);
    boids_gpu_bind(BOIDS_BIND_METRIC_SLOT, m->slot);
    boids_gpu_bind(BOIDS_BIND_METRIC_PARENT, m->parent);
    boids_gpu_bind(BOIDS_BIND_METRIC_SUMS, m->sums);
    if (m->slot_z) boids_gpu_bind(BOIDS_BIND_METRIC_SLOT_Z, m->slot_z);
    glUseProgram(m->prog_nn);
    boids_gpu_dispatch("metrics: nearest neighbours", n_groups);
    boids_gpu_barrier();
    glUseProgram(m->prog_link);
    glUniform1f(m->u_radius, group_radius);
    boids_gpu_dispatch("metrics: groups", n_groups);
    boids_gpu_barrier();
    glUseProgram(m->prog_reduce);
    boids_gpu_dispatch("metrics: sums", replicas); /* a workgroup per replica */
    glUseProgram(0);
    boids_gpu_metric_sums *raw = malloc(sizeof *raw * replicas);
    if (!raw)
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u replicas' metrics", replicas);
    boids_gpu_read(m->sums, 0, sizeof *raw * replicas, raw);
    for (uint32_t r = 0; r < replicas; ++r)
        out[r] =
            (boids_metric_sums){raw[r].alive, raw[r].groups,   raw[r].nn_sum,    raw[r].speed_sum,
                                raw[r].hx,    raw[r].hy,       raw[r].min_speed, raw[r].max_speed,
                                raw[r].hz,    raw[r].mill_num, raw[r].mill_den};
    free(raw);
    return boids_gl_check("the GPU metrics");
}
