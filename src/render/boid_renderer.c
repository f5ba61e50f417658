#include "render/boid_renderer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "boids_shared.h"
#include "base/error.h"
#include "core/attributes.h"
#include "gl/checks.h"
#include "gl/context.h"
#include "gl/program.h"
#include "gl/timer.h"

/* A buffer the renderer fills for a CPU world (a GPU world has its own). */
typedef struct upload {
    GLuint buffer;
    size_t cap; /* bytes */
} upload;

/* The 3D program's uniforms (boids3d.vert). */
typedef struct uniforms_3d {
    GLint view, eye, proj_scale, viewport, size, min_px, fog, color_mode, speed, alive, age, pulled,
        predators;
} uniforms_3d;

struct boids_renderer {
    GLuint prog_boids, prog_lines, prog_boids3d;
    GLint u_view, u_viewport, u_size, u_color_mode, u_speed, u_alive, u_age, u_predators, u_pulled;
    uniforms_3d u3;
    GLint ul_viewport;
    GLuint vao, lines_vao, lines_vbo;
    size_t lines_cap; /* floats the lines buffer holds */
    float *lines;     /* the frame's border and obstacles: x, y, r, g, b, a per vertex */
    size_t lines_len;
    /* a CPU world's state, in the GPU's layout */
    upload pv, pv_z, swarm, id, attributes, pred_pv, pred_pv_z;
    boids_boid *cpu_state;
    boids_predator *cpu_preds;
    boids_obstacle *obstacles; /* the world's, read each frame (boids_world_read_obstacles) */
    size_t obstacles_cap;
    void *scratch;
    size_t scratch_cap;
    bool vertex_ssbo;      /* the driver lets a vertex shader read a storage buffer */
    bool pulled;           /* ... five of them: one plain draw pulls the state (boids.vert) */
    boids_gpu_timer timer; /* the draw's GPU time, reported to the world's profile */
};

boids_draw_style boids_default_draw_style(const boids_world *w)
{
    boids_world_info info;
    boids_world_get_info(w, &info);
    /* a boid at least 3 screen px; a small flock in a large world (kit's 35 in 4000 x 4000 px)
     * larger still, or it is a scatter of specks at the zoom that fits the world */
    const float min_px = info.count <= 500 ? 12.0f : 3.0f;
    /* 8 world px long, or less in a dense world (Vicsek's 4 particles per unit area): at most
     * 0.3 of the mean spacing, so neighbours do not overlap once the zoom draws them larger than
     * min_px (the default density's spacing, 31.6 px, leaves 8) */
    const double per = info.replicas > 0 ? (double)info.count / info.replicas : info.count;
    const double space = info.depth > 0 ? (double)info.width * info.height * info.depth
                                        : (double)info.width * info.height;
    const double spacing = per > 0 ? pow(space / per, info.depth > 0 ? 1.0 / 3 : 0.5) : 8;
    const float length = (float)fmin(8.0, 0.3 * spacing);
    boids_draw_style s = {BOIDS_COLOR_SWARM,          length, min_px, info.params.base.min_speed,
                          info.params.base.max_speed, NULL};
    if (info.swarms <= 1) s.color_mode = BOIDS_COLOR_HEADING;
    if (boids_model_attributes(info.model) & BOIDS_ATTR_BIT(AGE)) s.color_mode = BOIDS_COLOR_AGE;
    return s;
}

boids_status boids_renderer_create(boids_renderer **out)
{
    *out = NULL;
    boids_renderer *r = calloc(1, sizeof *r);
    if (!r) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the renderer");
    boids_status st = boids_program_graphics("boids.vert", "boids.frag", &r->prog_boids);
    if (st == BOIDS_OK) st = boids_program_graphics("ui.vert", "ui.frag", &r->prog_lines);
    if (st == BOIDS_OK) st = boids_program_graphics("boids3d.vert", "boids.frag", &r->prog_boids3d);
    if (st != BOIDS_OK) {
        boids_renderer_destroy(r);
        return st;
    }
    const char *names[] = {"u_view",       "u_viewport",    "u_size_px",
                           "u_color_mode", "u_speed_range", "u_alive_base",
                           "u_age_base",   "u_predators",   "u_pulled"};
    GLint *locs[] = {&r->u_view,  &r->u_viewport, &r->u_size,      &r->u_color_mode, &r->u_speed,
                     &r->u_alive, &r->u_age,      &r->u_predators, &r->u_pulled};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        *locs[i] = glGetUniformLocation(r->prog_boids, names[i]);
    r->ul_viewport = glGetUniformLocation(r->prog_lines, "u_viewport");
    const char *names3[] = {"u_view",        "u_eye",        "u_proj_scale", "u_viewport",
                            "u_size",        "u_min_px",     "u_fog",        "u_color_mode",
                            "u_speed_range", "u_alive_base", "u_age_base",   "u_pulled",
                            "u_predators"};
    GLint *locs3[] = {&r->u3.view,     &r->u3.eye,    &r->u3.proj_scale, &r->u3.viewport,
                      &r->u3.size,     &r->u3.min_px, &r->u3.fog,        &r->u3.color_mode,
                      &r->u3.speed,    &r->u3.alive,  &r->u3.age,        &r->u3.pulled,
                      &r->u3.predators};
    for (size_t i = 0; i < sizeof names3 / sizeof names3[0]; ++i)
        *locs3[i] = glGetUniformLocation(r->prog_boids3d, names3[i]);
    GLint vertex_blocks = 0;
    glGetIntegerv(GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS, &vertex_blocks);
    r->vertex_ssbo = vertex_blocks > 0; /* without it: caught boids drawn, no age colours */
    r->pulled = vertex_blocks >= 5; /* the attributes, the three state buffers, a 3D world's z */
    glGenVertexArrays(1, &r->vao);
    glGenVertexArrays(1, &r->lines_vao);
    glGenBuffers(1, &r->lines_vbo);
    glBindVertexArray(r->lines_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->lines_vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)(2 * sizeof(float)));
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    boids_gpu_timer_init(&r->timer);
    *out = r;
    return boids_gl_check("creating the renderer");
}

void boids_renderer_destroy(boids_renderer *r)
{
    if (!r) return;
    if (r->prog_boids) glDeleteProgram(r->prog_boids);
    if (r->prog_lines) glDeleteProgram(r->prog_lines);
    if (r->prog_boids3d) glDeleteProgram(r->prog_boids3d);
    if (r->vao) glDeleteVertexArrays(1, &r->vao);
    if (r->lines_vao) glDeleteVertexArrays(1, &r->lines_vao);
    if (r->lines_vbo) glDeleteBuffers(1, &r->lines_vbo);
    upload *ups[] = {&r->pv,         &r->pv_z,    &r->swarm,    &r->id,
                     &r->attributes, &r->pred_pv, &r->pred_pv_z};
    for (size_t i = 0; i < sizeof ups / sizeof ups[0]; ++i)
        if (ups[i]->buffer) glDeleteBuffers(1, &ups[i]->buffer);
    boids_gpu_timer_destroy(&r->timer);
    free(r->lines);
    free(r->cpu_state);
    free(r->cpu_preds);
    free(r->obstacles);
    free(r->scratch);
    free(r);
}

/* The buffer holds `bytes` of data afterwards; it always has storage (16 bytes at least), since
 * the vertex shader's blocks need a buffer behind them even where a model has nothing to put in
 * (a model without attributes). */
static void upload_bytes(upload *u, const void *data, size_t bytes)
{
    if (!u->buffer) glGenBuffers(1, &u->buffer);
    glBindBuffer(GL_ARRAY_BUFFER, u->buffer);
    if (bytes > u->cap || !u->cap) {
        u->cap = bytes > 16 ? bytes : 16;
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)u->cap, NULL, GL_STREAM_DRAW);
    }
    if (bytes) glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes, data);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

static void *scratch(boids_renderer *r, size_t bytes)
{
    if (bytes > r->scratch_cap) {
        void *p = realloc(r->scratch, bytes);
        if (!p) return NULL;
        r->scratch = p;
        r->scratch_cap = bytes;
    }
    return r->scratch;
}

/* A CPU world's state into buffers of the GPU's layout (what a GPU world has already): pos_vel
 * (and a 3D world's pos_vel_z), swarm and id per boid, the model's attributes one after another,
 * the predators. context: the one to draw in after the reads (boids_draw_style's), or NULL. */
static boids_status upload_cpu_state(boids_renderer *r, boids_world *w,
                                     const boids_world_info *info, boids_gl *context,
                                     boids_gl_state *out)
{
    const uint32_t n = info->count, np = info->predators;
    boids_boid *state = realloc(r->cpu_state, sizeof *state * (n ? n : 1));
    if (state) r->cpu_state = state;
    boids_predator *preds = realloc(r->cpu_preds, sizeof *preds * (np ? np : 1));
    if (preds) r->cpu_preds = preds;
    const bool three = info->dims == 3;
    float *buf = scratch(r, sizeof(float) * (three ? 8 : 4) * ((n > np ? n : np) + 1));
    if (!state || !preds || !buf)
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory drawing %u boids", n);
    boids_status st = boids_world_read(w, state, n);
    if (st == BOIDS_OK && np) st = boids_world_read_predators(w, preds, np);
    if (st == BOIDS_OK && context) st = boids_gl_make_current(context); /* a GPU world's reads */
    if (st != BOIDS_OK) return st;
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < n; ++i)
        memcpy(&buf[4 * i], &state[i], sizeof(float) * 4); /* x, y, vx, vy */
    for (uint32_t i = 0; three && i < n; ++i) {            /* a 3D world's depths: (z, vz) */
        float *d = &buf[4 * (size_t)n + 2 * i];
        d[0] = state[i].z, d[1] = state[i].vz;
    }
    upload_bytes(&r->pv, buf, sizeof(float) * 4 * n);
    if (three) upload_bytes(&r->pv_z, buf + 4 * (size_t)n, sizeof(float) * 2 * n);
    uint32_t *u = (uint32_t *)buf;
    for (uint32_t i = 0; i < n; ++i) u[i] = state[i].swarm;
    upload_bytes(&r->swarm, u, sizeof(uint32_t) * n);
    for (uint32_t i = 0; i < n; ++i) u[i] = i;
    upload_bytes(&r->id, u, sizeof(uint32_t) * n);
    /* the model's attributes, as the GPU backend lays them out */
    unsigned attrs = boids_model_attributes(info->model);
    uint32_t words = 0;
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a) words += attrs & (1u << a) ? n : 0;
    uint32_t *aw = scratch(r, sizeof(uint32_t) * (words + 1));
    if (!aw) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory drawing %u boids", n);
    uint32_t base = 0;
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a) {
        if (!(attrs & (1u << a))) continue;
        out->attr_base[a] = base;
        for (uint32_t i = 0; i < n; ++i)
            aw[base + i] = boids_boid_attr_bits(&state[i], (boids_attribute)a);
        base += n;
    }
    upload_bytes(&r->attributes, aw, sizeof(uint32_t) * words);
    if (np) { /* (x, y, vx, vy), then a 3D world's (z, vz) */
        float *pv = scratch(r, sizeof(float) * (three ? 6 : 4) * np);
        if (!pv) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory drawing predators");
        for (uint32_t i = 0; i < np; ++i) {
            float *a = &pv[4 * i], *d = &pv[4 * (size_t)np + 2 * i];
            a[0] = preds[i].x, a[1] = preds[i].y, a[2] = preds[i].vx, a[3] = preds[i].vy;
            if (three) d[0] = preds[i].z, d[1] = preds[i].vz;
        }
        upload_bytes(&r->pred_pv, pv, sizeof(float) * 4 * np);
        if (three) upload_bytes(&r->pred_pv_z, pv + 4 * (size_t)np, sizeof(float) * 2 * np);
    }
    out->pos_vel = r->pv.buffer;
    out->pos_vel_z = three ? r->pv_z.buffer : 0;
    out->swarm = r->swarm.buffer;
    out->id = r->id.buffer;
    out->attributes = r->attributes.buffer;
    out->pred_pos_vel = np ? r->pred_pv.buffer : 0;
    out->pred_pos_vel_z = np && three ? r->pred_pv_z.buffer : 0;
    out->predators = np;
    return BOIDS_OK;
}

/* Appends a triangle to the frame's lines (framebuffer pixels, colour c). */
static void line_triangle(boids_renderer *r, const float p[6], const float c[4])
{
    if (r->lines_len + 18 > r->lines_cap) {
        size_t cap = r->lines_cap ? r->lines_cap * 2 : 4096;
        float *l = realloc(r->lines, sizeof(float) * cap);
        if (!l) return; /* an outline less: nothing else depends on it */
        r->lines = l;
        r->lines_cap = cap;
    }
    for (int v = 0; v < 3; ++v) {
        float *o = &r->lines[r->lines_len];
        o[0] = p[2 * v];
        o[1] = p[2 * v + 1];
        memcpy(&o[2], c, sizeof(float) * 4);
        r->lines_len += 6;
    }
}

static void line_rect(boids_renderer *r, float x0, float y0, float x1, float y1, const float c[4])
{
    const float a[6] = {x0, y0, x1, y0, x1, y1}, b[6] = {x0, y0, x1, y1, x0, y1};
    line_triangle(r, a, c);
    line_triangle(r, b, c);
}

static void to_screen(const boids_camera *cam, float wx, float wy, float *sx, float *sy)
{
    *sx = (wx - cam->cx) * cam->zoom + cam->view_w * 0.5f;
    *sy = (wy - cam->cy) * cam->zoom + cam->view_h * 0.5f;
}

/* The world's obstacles, in a buffer of the renderer's; NULL when there is no memory for them. */
static const boids_obstacle *read_obstacles(boids_renderer *r, const boids_world *w, uint32_t n)
{
    if (n > r->obstacles_cap) {
        boids_obstacle *o = realloc(r->obstacles, sizeof *o * n);
        if (!o) return NULL;
        r->obstacles = o;
        r->obstacles_cap = n;
    }
    if (n && boids_world_read_obstacles(w, r->obstacles, n) != BOIDS_OK) return NULL;
    return r->obstacles;
}

/* Draws the frame's lines (line_triangle's) with the lines program. */
static void flush_lines(boids_renderer *r, const boids_camera *cam)
{
    glBindBuffer(GL_ARRAY_BUFFER, r->lines_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(float) * r->lines_len), r->lines,
                 GL_STREAM_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(r->prog_lines);
    glUniform2f(r->ul_viewport, cam->view_w, cam->view_h);
    glBindVertexArray(r->lines_vao);
    boids_gpu_check_bindings("drawing the obstacles");
    glDrawArrays(GL_TRIANGLES, 0, (GLsizei)(r->lines_len / 6));
    glDisable(GL_BLEND);
}

/* A line of w framebuffer pixels from (x0, y0) to (x1, y1), as two triangles. */
static void line_segment(boids_renderer *r, float x0, float y0, float x1, float y1, float w,
                         const float c[4])
{
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    if (!(len > 0.0f)) return;
    const float nx = -dy / len * w * 0.5f, ny = dx / len * w * 0.5f;
    const float a[6] = {x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny},
                b[6] = {x0 + nx, y0 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny};
    line_triangle(r, a, c);
    line_triangle(r, b, c);
}

/* An obstacle as a filled disc with a rim, centre (cx, cy) and radius rad in framebuffer pixels;
 * nothing where it lies outside the view. */
static void obstacle_disc(boids_renderer *r, const boids_camera *cam, float cx, float cy, float rad)
{
    const float fill[4] = {0.55f, 0.50f, 0.42f, 0.45f}, rim[4] = {0.85f, 0.78f, 0.62f, 0.9f};
    if (cx + rad < 0 || cy + rad < 0 || cx - rad > cam->view_w || cy - rad > cam->view_h) return;
    const int seg = 24;
    for (int i = 0; i < seg; ++i) {
        float a0 = 6.2831853f * (float)i / seg, a1 = 6.2831853f * (float)(i + 1) / seg;
        float c0 = cosf(a0), s0 = sinf(a0), c1 = cosf(a1), s1 = sinf(a1);
        const float t[6] = {cx, cy, cx + rad * c0, cy + rad * s0, cx + rad * c1, cy + rad * s1};
        line_triangle(r, t, fill);
        const float o = rad + 1.2f, rt0[6] = {cx + rad * c0, cy + rad * s0, cx + o * c0,
                                              cy + o * s0,   cx + o * c1,   cy + o * s1};
        const float rt1[6] = {cx + rad * c0, cy + rad * s0, cx + o * c1,
                              cy + o * s1,   cx + rad * c1, cy + rad * s1};
        line_triangle(r, rt0, rim);
        line_triangle(r, rt1, rim);
    }
}

/* A 3D world's box, its 12 edges (those whose ends are both in front of the eye), and the
 * spheres of replica 0 as discs of their outline's size at their centre's distance, drawn under
 * the boids (no depth test: a sphere is a landmark, not a wall). */
static void draw_box(boids_renderer *r, boids_world *w, const boids_world_info *info,
                     const boids_camera *cam)
{
    r->lines_len = 0;
    const float edge[4] = {0.25f, 0.28f, 0.34f, 1.0f};
    float sx[8], sy[8], ws[8];
    for (int k = 0; k < 8; ++k) { /* corner k: bit 0 x, bit 1 y, bit 2 z */
        const float p[3] = {k & 1 ? info->width : 0.0f, k & 2 ? info->height : 0.0f,
                            k & 4 ? info->depth : 0.0f};
        boids_camera_project(cam, p, &sx[k], &sy[k], &ws[k]);
    }
    for (int a = 0; a < 8; ++a)
        for (int bit = 1; bit < 8; bit <<= 1) {
            const int b = a | bit;
            if (b == a || ws[a] <= 0.0f || ws[b] <= 0.0f) continue;
            line_segment(r, sx[a], sy[a], sx[b], sy[b], 1.5f, edge);
        }
    const boids_obstacle *obs = read_obstacles(r, w, info->obstacles);
    const float focal = boids_camera_focal(cam);
    for (uint32_t k = 0; obs && k < info->obstacles && k < 100000; ++k) {
        const float p[3] = {obs[k].x, obs[k].y, obs[k].z};
        float cx, cy, cw;
        boids_camera_project(cam, p, &cx, &cy, &cw);
        if (obs[k].replica == 0 && cw > obs[k].radius) /* (wholly in front of the eye) */
            obstacle_disc(r, cam, cx, cy, fmaxf(obs[k].radius * focal / cw, 1.5f));
    }
    flush_lines(r, cam);
}

/* The world's edge as a 1-pixel frame, and every obstacle of replica 0 as a filled disc with a
 * rim, in framebuffer pixels (the lines program). */
static void draw_lines(boids_renderer *r, boids_world *w, const boids_world_info *info,
                       const boids_camera *cam)
{
    r->lines_len = 0;
    float x0, y0, x1, y1;
    to_screen(cam, 0, 0, &x0, &y0);
    to_screen(cam, info->width, info->height, &x1, &y1);
    const float edge[4] = {0.25f, 0.28f, 0.34f, 1.0f};
    line_rect(r, x0, y0, x1, y0 + 1, edge);
    line_rect(r, x0, y1 - 1, x1, y1, edge);
    line_rect(r, x0, y0, x0 + 1, y1, edge);
    line_rect(r, x1 - 1, y0, x1, y1, edge);
    /* (no memory for the obstacles: the frame without them rather than no frame) */
    const boids_obstacle *obs = read_obstacles(r, w, info->obstacles);
    for (uint32_t k = 0; obs && k < info->obstacles && k < 100000; ++k) {
        if (obs[k].replica != 0) continue;
        float cx, cy;
        to_screen(cam, obs[k].x, obs[k].y, &cx, &cy);
        obstacle_disc(r, cam, cx, cy, fmaxf(obs[k].radius * cam->zoom, 1.5f));
    }
    flush_lines(r, cam);
}

/* Per-instance vertex data from a buffer (0: the constant `value` for every instance). */
static void instance_attr(GLuint location, GLuint buffer, bool integer, int size, uint32_t value)
{
    if (!buffer) {
        glDisableVertexAttribArray(location);
        glVertexAttribI4ui(location, value, 0, 0, 0);
        return;
    }
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glEnableVertexAttribArray(location);
    if (integer)
        glVertexAttribIPointer(location, size, GL_UNSIGNED_INT, 0, (void *)0);
    else
        glVertexAttribPointer(location, size, GL_FLOAT, GL_FALSE, 0, (void *)0);
    glVertexAttribDivisor(location, 1);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

/* `count` agents from their state buffers (swarm and id 0: the predators, which have neither):
 * pulled by a plain draw of their vertices (3 a boid, boids.vert; a 3D world's dart 6,
 * boids3d.vert), or fed per instance to an instanced draw. A 3D world's (z, vz) are the
 * buffer depth (0 in a flat world): read by the pulled draw, or a per-instance attribute. */
static void draw_agents(const boids_renderer *r, GLuint pos_vel, GLuint depth, GLuint swarm,
                        GLuint id, uint32_t count)
{
    const bool three = depth != 0;
    const GLsizei vertices = three ? 6 : 3;
    if (r->pulled) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BOIDS_BIND_DRAW_POS_VEL, pos_vel);
        if (three) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BOIDS_BIND_DRAW_POS_VEL_Z, depth);
        if (swarm) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BOIDS_BIND_DRAW_SWARM, swarm);
        if (id) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BOIDS_BIND_DRAW_ID, id);
        boids_gpu_check_bindings("drawing the agents");
        glDrawArrays(GL_TRIANGLES, 0, vertices * (GLsizei)count);
        return;
    }
    instance_attr(BOIDS_ATTR_POS_VEL, pos_vel, false, 4, 0);
    instance_attr(BOIDS_ATTR_SWARM, swarm, true, 1, 0);
    instance_attr(BOIDS_ATTR_ID, id, true, 1, 0);
    if (three) {
        glBindBuffer(GL_ARRAY_BUFFER, depth);
        glEnableVertexAttribArray(BOIDS_ATTR_DEPTH);
        glVertexAttribPointer(BOIDS_ATTR_DEPTH, 2, GL_FLOAT, GL_FALSE, 0, (void *)0);
        glVertexAttribDivisor(BOIDS_ATTR_DEPTH, 1);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
    }
    boids_gpu_check_bindings("drawing the agents");
    glDrawArraysInstanced(GL_TRIANGLES, 0, vertices, (GLsizei)count);
    if (three) glDisableVertexAttribArray(BOIDS_ATTR_DEPTH);
}

/* The end of a frame's draw: its timing handed to the world's profile. */
static boids_status finish_draw(boids_renderer *r, boids_world *w, bool timed)
{
    glUseProgram(0);
    if (timed) {
        boids_gpu_timer_mark(&r->timer, BOIDS_PASS_DRAW);
        boids_gpu_timer_end(&r->timer);
    }
    /* Hand finished draw timings to the world's profile (one call gives every pass). */
    boids_gpu_timer_poll(&r->timer);
    boids_world_profile_add(w, BOIDS_PASS_DRAW, r->timer.acc.sum_ms[BOIDS_PASS_DRAW],
                            r->timer.acc.samples[BOIDS_PASS_DRAW]);
    memset(&r->timer.acc, 0, sizeof r->timer.acc);
    return boids_gl_check("drawing the boids");
}

/* A 3D world's boids (boids3d.vert): folded darts in perspective, the depth test on; then its
 * predators. */
static void draw_boids_3d(const boids_renderer *r, const boids_world_info *info,
                          const boids_gl_state *state, const boids_camera *cam,
                          const boids_draw_style *style)
{
    mat4 view;
    boids_camera_matrix(cam, view);
    float eye[3];
    boids_camera_eye(cam, eye);
    /* depth cueing from the near side of the box's bounding sphere to its far side */
    const float c[3] = {info->width * 0.5f, info->height * 0.5f, info->depth * 0.5f};
    const float radius = sqrtf(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    const float to_c = sqrtf((eye[0] - c[0]) * (eye[0] - c[0]) + (eye[1] - c[1]) * (eye[1] - c[1]) +
                             (eye[2] - c[2]) * (eye[2] - c[2]));
    const unsigned attrs = boids_model_attributes(info->model);
    const bool read_attrs = r->vertex_ssbo && state->attributes;
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glUseProgram(r->prog_boids3d);
    glUniformMatrix4fv(r->u3.view, 1, GL_FALSE, (const float *)view);
    glUniform3f(r->u3.eye, eye[0], eye[1], eye[2]);
    glUniform1f(r->u3.proj_scale, 1.0f / tanf(glm_rad(cam->fov_deg) * 0.5f));
    glUniform2f(r->u3.viewport, cam->view_w, cam->view_h);
    glUniform1f(r->u3.size, style->boid_px);
    glUniform1f(r->u3.min_px, style->min_px);
    glUniform2f(r->u3.fog, fmaxf(to_c - radius, 0.0f), to_c + radius);
    glUniform1i(r->u3.color_mode, style->color_mode);
    glUniform2f(r->u3.speed, style->speed_lo, style->speed_hi);
    glUniform1ui(r->u3.alive, read_attrs && (attrs & BOIDS_ATTR_BIT(ALIVE))
                                  ? state->attr_base[BOIDS_ATTR_ALIVE]
                                  : BOIDS_NO_ATTRIBUTE);
    glUniform1ui(r->u3.age, read_attrs && (attrs & BOIDS_ATTR_BIT(AGE))
                                ? state->attr_base[BOIDS_ATTR_AGE]
                                : BOIDS_NO_ATTRIBUTE);
    glUniform1i(r->u3.pulled, r->pulled);
    if (read_attrs)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BOIDS_BIND_ATTRIBUTES, state->attributes);
    glBindVertexArray(r->vao);
    glUniform1i(r->u3.predators, 0);
    draw_agents(r, state->pos_vel, state->pos_vel_z, state->swarm, state->id, info->count);
    if (state->pred_pos_vel && state->predators) { /* then the predators, larger and red */
        glUniform1i(r->u3.predators, 1);
        draw_agents(r, state->pred_pos_vel, state->pred_pos_vel_z, 0, 0, state->predators);
    }
    glBindVertexArray(0);
    glDisable(GL_DEPTH_TEST);
}

boids_status boids_renderer_draw(boids_renderer *r, boids_world *w, const boids_camera *cam,
                                 const boids_draw_style *style)
{
    boids_world_info info;
    boids_world_get_info(w, &info);
    glViewport(0, 0, (GLsizei)cam->view_w, (GLsizei)cam->view_h);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glClearColor(BOIDS_BACKGROUND_R, BOIDS_BACKGROUND_G, BOIDS_BACKGROUND_B, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    const bool three = info.dims == 3 && cam->three;
    if (three)
        draw_box(r, w, &info, cam);
    else
        draw_lines(r, w, &info, cam);
    if (info.count == 0) return boids_gl_check("drawing");

    boids_gl_state state = style->context ? (boids_gl_state){0} : boids_world_gl_state(w);
    if (!state.pos_vel) {
        boids_status st = upload_cpu_state(r, w, &info, style->context, &state);
        if (st != BOIDS_OK) return st;
    }
    boids_gpu_timer_poll(&r->timer);
    bool timed = boids_gpu_timer_begin(&r->timer);
    glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    if (three) {
        draw_boids_3d(r, &info, &state, cam, style);
        return finish_draw(r, w, timed);
    }

    mat4 view;
    boids_camera_matrix(cam, view); /* orthographic, y down, the same zoom on both axes */
    float size = style->boid_px * cam->zoom;
    if (size < style->min_px) size = style->min_px;
    if (size > 64.0f) size = 64.0f;
    unsigned attrs = boids_model_attributes(info.model);
    glUseProgram(r->prog_boids);
    glUniformMatrix4fv(r->u_view, 1, GL_FALSE, (const float *)view);
    glUniform2f(r->u_viewport, cam->view_w, cam->view_h);
    glUniform1f(r->u_size, size);
    glUniform1i(r->u_color_mode, style->color_mode);
    glUniform2f(r->u_speed, style->speed_lo, style->speed_hi);
    bool read_attrs = r->vertex_ssbo && state.attributes;
    glUniform1ui(r->u_alive, read_attrs && (attrs & BOIDS_ATTR_BIT(ALIVE))
                                 ? state.attr_base[BOIDS_ATTR_ALIVE]
                                 : BOIDS_NO_ATTRIBUTE);
    glUniform1ui(r->u_age, read_attrs && (attrs & BOIDS_ATTR_BIT(AGE))
                               ? state.attr_base[BOIDS_ATTR_AGE]
                               : BOIDS_NO_ATTRIBUTE);
    if (read_attrs)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BOIDS_BIND_ATTRIBUTES, state.attributes);

    /* The boids, then the predators (larger and red). */
    glBindVertexArray(r->vao);
    glUniform1i(r->u_pulled, r->pulled);
    glUniform1i(r->u_predators, 0);
    draw_agents(r, state.pos_vel, 0, state.swarm, state.id, info.count);
    if (state.pred_pos_vel && state.predators) {
        glUniform1i(r->u_predators, 1);
        draw_agents(r, state.pred_pos_vel, 0, 0, 0, state.predators);
    }
    glBindVertexArray(0);
    return finish_draw(r, w, timed);
}
