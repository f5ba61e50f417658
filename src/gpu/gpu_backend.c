/* The GPU backend: OpenGL 4.3 compute shaders on SSBOs. One step is a fixed sequence of passes,
 * recorded without any read-back:
 *
 *   clear counts    glClearBufferData (cell_count, cell_fill)
 *   grid_cell.comp  cell of each boid, atomic histogram
 *   scan.comp       exclusive prefix sum of the histogram, level by level (scan_add.comp adds
 *                   each block's scanned total back), so any number of cells works
 *   scatter.comp    each boid takes a slot of its cell (atomic cursor)
 *   reorder.comp    boids copied whole into id order inside each cell (deterministic)
 *   steer_*.comp    the model's rules: reads the sorted step t, writes step t+1 to the same slots
 *
 * The state therefore always lives in buffer `state` (sorted by the last step's cells) and
 * `sorted` is scratch. Ids travel with the boids; read() puts them back in id order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "gpu/gpu_backend.h"
#include "gpu/program.h"

#define MAX_SCAN_LEVELS 8

static const char *const steer_shader[BOIDS_MODEL_COUNT] = {
    [BOIDS_MODEL_SHIFFMAN_PER_SECOND] = "steer_shiffman.comp",
    [BOIDS_MODEL_SHIFFMAN_PROCESSING] = "steer_shiffman.comp",
    [BOIDS_MODEL_SHIFFMAN_NOC] = "steer_shiffman.comp",
    [BOIDS_MODEL_ADAMS] = "steer_adams.comp",
    [BOIDS_MODEL_HYBRID] = "steer_hybrid.comp",
    [BOIDS_MODEL_PRIORITY] = "steer_priority.comp",
    [BOIDS_MODEL_MEAN] = "steer_mean.comp",
};

typedef struct scan_level {
    uint32_t n;          /* values in this level */
    GLuint in, out;      /* buffers: level 0 reads cell_count and writes cell_start */
    uint32_t in_off, out_off;
    uint32_t sums_off;   /* where its block totals go in scan_aux (next level's values) */
} scan_level;

struct boids_backend_impl {
    boids_gl *gl;        /* the context the world's objects live in (made current at each call) */
    boids_gl *owned_gl;  /* == gl when the world created it */
    uint32_t loop_limit;
    GLuint prog_cell, prog_scan, prog_scan_add, prog_scatter, prog_reorder, prog_steer;
    GLint u_scan[5];     /* u_n, u_in_off, u_out_off, u_sums_off, u_write_sums */
    GLint u_add[3];      /* u_n, u_out_off, u_sums_off */
    GLuint state, sorted, cell_of, cell_count, cell_start, cell_fill, slot_src, scan_aux, frame, status;
    uint32_t cells;
    scan_level levels[MAX_SCAN_LEVELS];
    uint32_t level_count;
    boids_gpu_boid *staging; /* host copy for read/write */
};

static uint32_t groups(uint32_t n, uint32_t size) { return (n + size - 1) / size; }

static GLuint make_buffer(GLenum target, size_t bytes)
{
    GLuint b;
    glGenBuffers(1, &b);
    glBindBuffer(target, b);
    glBufferData(target, (GLsizeiptr)(bytes ? bytes : 16), NULL, GL_DYNAMIC_DRAW);
    glBindBuffer(target, 0);
    return b;
}

/* Plans the scan hierarchy: level k holds ceil(n_{k-1} / BLOCK) block totals, up to one block. */
static boids_status plan_scan(boids_backend_impl *g)
{
    uint32_t n = g->cells, aux = 0, k = 0;
    g->levels[0] = (scan_level){n, g->cell_count, g->cell_start, 0, 0, 0};
    while (n > BOIDS_SCAN_BLOCK) {
        if (k + 1 >= MAX_SCAN_LEVELS)
            return boids_fail(BOIDS_ERR_INVALID, "grid of %u cells needs too many scan levels", g->cells);
        uint32_t blocks = groups(n, BOIDS_SCAN_BLOCK);
        g->levels[k].sums_off = aux;
        g->levels[k + 1] = (scan_level){blocks, 0, 0, aux, aux, 0};
        aux += blocks;
        n = blocks;
        ++k;
    }
    g->level_count = k + 1;
    g->scan_aux = make_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * (aux ? aux : 1));
    for (uint32_t l = 1; l < g->level_count; ++l) g->levels[l].in = g->levels[l].out = g->scan_aux;
    return BOIDS_OK;
}

/* The per-cell buffers and the scan hierarchy for the world's grid (freed first if present). */
static boids_status make_grid_buffers(boids_world *w)
{
    boids_backend_impl *g = w->impl;
    GLuint old[] = {g->cell_count, g->cell_start, g->cell_fill, g->scan_aux};
    for (size_t i = 0; i < sizeof old / sizeof old[0]; ++i)
        if (old[i]) glDeleteBuffers(1, &old[i]);
    g->cells = w->grid.w * w->grid.h;
    g->cell_count = make_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * g->cells);
    g->cell_start = make_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * g->cells);
    g->cell_fill = make_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * g->cells);
    return plan_scan(g);
}

static void barrier(void) { glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT); }

static void bind(GLuint binding, GLuint buffer)
{
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer);
}

static void run_scan(boids_backend_impl *g)
{
    glUseProgram(g->prog_scan);
    for (uint32_t l = 0; l < g->level_count; ++l) {
        const scan_level *s = &g->levels[l];
        int top = l + 1 == g->level_count;
        bind(BOIDS_BIND_SCAN_IN, s->in);
        bind(BOIDS_BIND_SCAN_OUT, s->out);
        bind(BOIDS_BIND_SCAN_SUMS, g->scan_aux);
        glUniform1ui(g->u_scan[0], s->n);
        glUniform1ui(g->u_scan[1], s->in_off);
        glUniform1ui(g->u_scan[2], s->out_off);
        glUniform1ui(g->u_scan[3], s->sums_off);
        glUniform1ui(g->u_scan[4], top ? 0u : 1u);
        glDispatchCompute(groups(s->n, BOIDS_SCAN_BLOCK), 1, 1);
        barrier();
    }
    if (g->level_count < 2) return;
    glUseProgram(g->prog_scan_add);
    for (uint32_t l = g->level_count - 1; l-- > 0;) {
        const scan_level *s = &g->levels[l];
        bind(BOIDS_BIND_SCAN_OUT, s->out);
        bind(BOIDS_BIND_SCAN_SUMS, g->scan_aux);
        glUniform1ui(g->u_add[0], s->n);
        glUniform1ui(g->u_add[1], s->out_off);
        glUniform1ui(g->u_add[2], s->sums_off);
        glDispatchCompute(groups(s->n, BOIDS_SCAN_BLOCK), 1, 1);
        barrier();
    }
}

static boids_status gpu_step(boids_world *w, uint32_t steps)
{
    boids_backend_impl *g = w->impl;
    const uint32_t n = w->def.count, boid_groups = groups(n, BOIDS_WG_SIZE);
    const GLuint zero = 0;
    boids_status st = boids_gl_make_current(g->gl);
    if (st != BOIDS_OK) return st;
    glBindBufferBase(GL_UNIFORM_BUFFER, BOIDS_BIND_FRAME, g->frame);
    bind(BOIDS_BIND_STATUS, g->status);
    for (uint32_t s = 0; s < steps; ++s) {
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, g->cell_count);
        glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, g->cell_fill);
        glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);

        glUseProgram(g->prog_cell);
        bind(BOIDS_BIND_BOIDS_IN, g->state);
        bind(BOIDS_BIND_CELL_OF, g->cell_of);
        bind(BOIDS_BIND_CELL_COUNT, g->cell_count);
        glDispatchCompute(boid_groups, 1, 1);
        barrier();

        run_scan(g);

        glUseProgram(g->prog_scatter);
        bind(BOIDS_BIND_CELL_OF, g->cell_of);
        bind(BOIDS_BIND_CELL_START, g->cell_start);
        bind(BOIDS_BIND_CELL_FILL, g->cell_fill);
        bind(BOIDS_BIND_SLOT_SRC, g->slot_src);
        glDispatchCompute(boid_groups, 1, 1);
        barrier();

        glUseProgram(g->prog_reorder);
        bind(BOIDS_BIND_BOIDS_IN, g->state);
        bind(BOIDS_BIND_BOIDS_OUT, g->sorted);
        bind(BOIDS_BIND_CELL_COUNT, g->cell_count);
        glDispatchCompute(boid_groups, 1, 1);
        barrier();

        glUseProgram(g->prog_steer);
        bind(BOIDS_BIND_BOIDS_IN, g->sorted);
        bind(BOIDS_BIND_BOIDS_OUT, g->state);
        glDispatchCompute(boid_groups, 1, 1);
        barrier();
    }
    glUseProgram(0);
    return boids_gl_check("GPU step");
}

static void gpu_finish(boids_world *w)
{
    if (boids_gl_make_current(w->impl->gl) == BOIDS_OK) glFinish();
}

static boids_status gpu_read(boids_world *w, boids_boid *out)
{
    boids_backend_impl *g = w->impl;
    const uint32_t n = w->def.count;
    boids_status st = boids_gl_make_current(g->gl);
    if (st != BOIDS_OK) return st;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    GLuint status = 0;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, g->status);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof status, &status);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, g->state);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(sizeof *g->staging * n), g->staging);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    st = boids_gl_check("reading the GPU state");
    if (st != BOIDS_OK) return st;
    if (status & BOIDS_STATUS_LOOP_LIMIT)
        return boids_fail(BOIDS_ERR_LIMIT,
                          "a neighbourhood held more than %u boids, beyond what %s runs in one "
                          "shader invocation: the state since is wrong (lower the density or the "
                          "radii, or use --backend cpu)",
                          g->loop_limit, boids_gl_renderer(g->gl));
    /* Every id exactly once: anything else means a pass went wrong; say so, never return junk. */
    memset(out, 0xff, sizeof *out * n);
    for (uint32_t k = 0; k < n; ++k) {
        const boids_gpu_boid *b = &g->staging[k];
        if (b->id >= n || out[b->id].swarm != UINT32_MAX)
            return boids_fail(BOIDS_ERR_GL, "GPU state is corrupt: slot %u holds id %u", k, b->id);
        out[b->id] = (boids_boid){b->px, b->py, b->vx, b->vy, b->swarm, b->bias};
    }
    return BOIDS_OK;
}

static void upload_frame(boids_world *w)
{
    boids_gpu_frame f;
    memset(&f, 0, sizeof f);
    f.world_w = w->def.width;
    f.world_h = w->def.height;
    /* +infinity where the world does not wrap: offsets are then plain differences (common.glsl) */
    int wrap = w->def.params.edges == BOIDS_EDGES_WRAP;
    f.half_w = wrap ? w->def.width * 0.5f : INFINITY;
    f.half_h = wrap ? w->def.height * 0.5f : INFINITY;
    f.inv_cell_w = w->grid.inv_cell_w;
    f.inv_cell_h = w->grid.inv_cell_h;
    /* frame-based models advance one frame per step */
    f.dt = boids_model_time_base(w->def.model) == BOIDS_TIME_PER_SECOND ? w->def.dt : 1.0f;
    f.count = w->def.count;
    f.grid_w = w->grid.w;
    f.grid_h = w->grid.h;
    f.swarms = w->def.swarms;
    f.loop_limit = w->impl->loop_limit;
    f.tool = w->tool;
    f.params = w->def.params;
    glBindBuffer(GL_UNIFORM_BUFFER, w->impl->frame);
    glBufferSubData(GL_UNIFORM_BUFFER, 0, sizeof f, &f);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
}

static boids_status gpu_write(boids_world *w, const boids_boid *in)
{
    boids_backend_impl *g = w->impl;
    const uint32_t n = w->def.count;
    const GLuint zero = 0;
    boids_status st = boids_gl_make_current(g->gl);
    if (st != BOIDS_OK) return st;
    for (uint32_t i = 0; i < n; ++i)
        g->staging[i] = (boids_gpu_boid){.px = in[i].x, .py = in[i].y, .vx = in[i].vx, .vy = in[i].vy,
                                         .id = i, .swarm = in[i].swarm, .flags = BOIDS_FLAG_ALIVE,
                                         .bias = in[i].bias};
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, g->state);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(sizeof *g->staging * n), g->staging);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, g->status); /* a new state starts with a clean slate */
    glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    upload_frame(w);
    return boids_gl_check("uploading the state");
}

static boids_status gpu_configure(boids_world *w, bool grid_changed)
{
    boids_status st = boids_gl_make_current(w->impl->gl);
    if (st != BOIDS_OK) return st;
    while (glGetError() != GL_NO_ERROR) {
    }
    if (grid_changed && (st = make_grid_buffers(w)) != BOIDS_OK) return st;
    upload_frame(w);
    return boids_gl_check("reconfiguring the GPU world");
}

static void gpu_destroy(boids_world *w)
{
    boids_backend_impl *g = w->impl;
    if (!g) return;
    boids_gl_make_current(g->gl);
    GLuint progs[] = {g->prog_cell, g->prog_scan, g->prog_scan_add, g->prog_scatter, g->prog_reorder,
                      g->prog_steer};
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; ++i)
        if (progs[i]) glDeleteProgram(progs[i]);
    GLuint bufs[] = {g->state, g->sorted, g->cell_of, g->cell_count, g->cell_start, g->cell_fill,
                     g->slot_src, g->scan_aux, g->frame, g->status};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i)
        if (bufs[i]) glDeleteBuffers(1, &bufs[i]);
    free(g->staging);
    if (g->owned_gl) boids_gl_destroy(g->owned_gl);
    free(g);
    w->impl = NULL;
}

static const boids_backend_vtable gpu_vtable = {gpu_step,  gpu_finish,    gpu_read,
                                                gpu_write, gpu_configure, gpu_destroy};

static boids_status create_programs(boids_backend_impl *g, boids_model model)
{
    boids_status st;
    if ((st = boids_program_compute("grid_cell.comp", &g->prog_cell)) != BOIDS_OK) return st;
    if ((st = boids_program_compute("scan.comp", &g->prog_scan)) != BOIDS_OK) return st;
    if ((st = boids_program_compute("scan_add.comp", &g->prog_scan_add)) != BOIDS_OK) return st;
    if ((st = boids_program_compute("scatter.comp", &g->prog_scatter)) != BOIDS_OK) return st;
    if ((st = boids_program_compute("reorder.comp", &g->prog_reorder)) != BOIDS_OK) return st;
    if ((st = boids_program_compute(steer_shader[model], &g->prog_steer)) != BOIDS_OK) return st;
    const char *scan_u[5] = {"u_n", "u_in_off", "u_out_off", "u_sums_off", "u_write_sums"};
    for (int i = 0; i < 5; ++i) g->u_scan[i] = glGetUniformLocation(g->prog_scan, scan_u[i]);
    const char *add_u[3] = {"u_n", "u_out_off", "u_sums_off"};
    for (int i = 0; i < 3; ++i) g->u_add[i] = glGetUniformLocation(g->prog_scan_add, add_u[i]);
    return BOIDS_OK;
}

boids_status boids_gpu_backend_create(boids_world *w)
{
    boids_backend_impl *g = calloc(1, sizeof *g);
    if (!g) return boids_fail(BOIDS_ERR_NO_MEMORY, "out of memory for the GPU backend");
    boids_gl *gl = w->def.gl;
    if (!gl) {
        boids_status st = boids_gl_create_headless(&g->owned_gl);
        if (st != BOIDS_OK) {
            free(g);
            return st;
        }
        gl = g->owned_gl;
    } else {
        boids_status st = boids_gl_make_current(gl);
        if (st != BOIDS_OK) {
            free(g);
            return st;
        }
    }
    g->gl = gl;
    /* llvmpipe stops a shader invocation after about 65535 loop iterations in all; a little
     * below that, passes stop on their own and say so. Real GPUs have no such limit. */
    g->loop_limit = strstr(boids_gl_renderer(gl), "llvmpipe") ? 65000u : UINT32_MAX;
    w->impl = g;
    w->vt = &gpu_vtable;
    w->renderer = boids_gl_renderer(gl);

    const uint32_t n = w->def.count;
    g->staging = malloc(sizeof *g->staging * (n ? n : 1));
    boids_status st = g->staging ? create_programs(g, w->def.model)
                                 : boids_fail(BOIDS_ERR_NO_MEMORY, "out of memory for %u boids", n);
    if (st == BOIDS_OK) {
        while (glGetError() != GL_NO_ERROR) {
        }
        g->state = make_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(boids_gpu_boid) * n);
        g->sorted = make_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(boids_gpu_boid) * n);
        g->cell_of = make_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * n);
        g->slot_src = make_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(uint32_t) * n);
        g->frame = make_buffer(GL_UNIFORM_BUFFER, sizeof(boids_gpu_frame));
        g->status = make_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(GLuint));
        st = make_grid_buffers(w);
        GLenum err = glGetError();
        if (st == BOIDS_OK && err == GL_OUT_OF_MEMORY)
            st = boids_fail(BOIDS_ERR_NO_MEMORY, "GPU out of memory for %u boids and %u cells", n,
                            g->cells);
        else if (st == BOIDS_OK && err != GL_NO_ERROR)
            st = boids_fail(BOIDS_ERR_GL, "allocating GPU buffers: GL error 0x%x", (unsigned)err);
    }
    if (st != BOIDS_OK) {
        gpu_destroy(w);
        w->vt = NULL;
        return st;
    }
    w->def.threads = 1;
    return BOIDS_OK;
}

unsigned boids_world_gl_buffer(const boids_world *w)
{
    return w->def.backend == BOIDS_BACKEND_GPU ? w->impl->state : 0;
}

void boids_gpu_backend_set_loop_limit(boids_world *w, uint32_t limit)
{
    if (w->def.backend != BOIDS_BACKEND_GPU) return;
    w->impl->loop_limit = limit;
    if (boids_gl_make_current(w->impl->gl) == BOIDS_OK) upload_frame(w);
}

uint32_t boids_gpu_backend_scan_levels(const boids_world *w)
{
    return w->def.backend == BOIDS_BACKEND_GPU ? w->impl->level_count : 0;
}

static void read_u32(GLuint buf, uint32_t *out, uint32_t n)
{
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(sizeof(uint32_t) * n), out);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

boids_status boids_gpu_backend_read_grid(boids_world *w, uint32_t *cell_count, uint32_t *cell_start,
                                         uint32_t *sorted_ids)
{
    if (w->def.backend != BOIDS_BACKEND_GPU)
        return boids_fail(BOIDS_ERR_INVALID, "not a GPU world");
    boids_backend_impl *g = w->impl;
    boids_status st = boids_gl_make_current(g->gl);
    if (st != BOIDS_OK) return st;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    read_u32(g->cell_count, cell_count, g->cells);
    read_u32(g->cell_start, cell_start, g->cells);
    const uint32_t n = w->def.count;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, g->sorted);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(sizeof *g->staging * n), g->staging);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    for (uint32_t k = 0; k < n; ++k) sorted_ids[k] = g->staging[k].id;
    return boids_gl_check("reading the GPU grid");
}
