#include "render/boid_renderer.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "gpu/program.h"
#include "gpu/timer.h"
#include "world/world.h"

struct boids_renderer {
    GLuint prog_boids, prog_lines;
    GLint u_view, u_viewport, u_size, u_color_mode, u_speed;
    GLint ul_viewport;
    GLuint vao, upload_pv, upload_swarm, border_vao, border_vbo;
    size_t upload_cap;
    boids_boid *cpu_state;
    float *cpu_pv;
    uint32_t *cpu_swarm;
    size_t cpu_cap;
    boids_gpu_timer timer; /* the draw's GPU time, reported to the world's profile */
};

boids_draw_style boids_default_draw_style(const boids_world *w)
{
    boids_world_info info;
    boids_world_get_info(w, &info);
    boids_draw_style s = {BOIDS_COLOR_SWARM, 8.0f, 3.0f, info.params.base.min_speed, info.params.base.max_speed};
    if (info.swarms <= 1) s.color_mode = BOIDS_COLOR_HEADING;
    return s;
}

boids_status boids_renderer_create(boids_renderer **out)
{
    *out = NULL;
    boids_renderer *r = calloc(1, sizeof *r);
    if (!r) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the renderer");
    boids_status st = boids_program_graphics("boids.vert", "boids.frag", &r->prog_boids);
    if (st == BOIDS_OK) st = boids_program_graphics("ui.vert", "ui.frag", &r->prog_lines);
    if (st != BOIDS_OK) {
        boids_renderer_destroy(r);
        return st;
    }
    r->u_view = glGetUniformLocation(r->prog_boids, "u_view");
    r->u_viewport = glGetUniformLocation(r->prog_boids, "u_viewport");
    r->u_size = glGetUniformLocation(r->prog_boids, "u_size_px");
    r->u_color_mode = glGetUniformLocation(r->prog_boids, "u_color_mode");
    r->u_speed = glGetUniformLocation(r->prog_boids, "u_speed_range");
    r->ul_viewport = glGetUniformLocation(r->prog_lines, "u_viewport");
    glGenVertexArrays(1, &r->vao);
    glGenVertexArrays(1, &r->border_vao);
    glGenBuffers(1, &r->border_vbo);
    glBindVertexArray(r->border_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->border_vbo);
    glBufferData(GL_ARRAY_BUFFER, 4 * 12 * sizeof(float), NULL, GL_DYNAMIC_DRAW);
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
    if (r->vao) glDeleteVertexArrays(1, &r->vao);
    if (r->border_vao) glDeleteVertexArrays(1, &r->border_vao);
    if (r->border_vbo) glDeleteBuffers(1, &r->border_vbo);
    if (r->upload_pv) glDeleteBuffers(1, &r->upload_pv);
    if (r->upload_swarm) glDeleteBuffers(1, &r->upload_swarm);
    boids_gpu_timer_destroy(&r->timer);
    free(r->cpu_state);
    free(r->cpu_pv);
    free(r->cpu_swarm);
    free(r);
}

/* A CPU world's state into buffers of the GPU's layout (what a GPU world has already). */
static boids_status upload_cpu_state(boids_renderer *r, boids_world *w, uint32_t n, boids_gl_state *out)
{
    if (r->cpu_cap < n) {
        free(r->cpu_state);
        free(r->cpu_pv);
        free(r->cpu_swarm);
        r->cpu_state = malloc(sizeof *r->cpu_state * n);
        r->cpu_pv = malloc(sizeof(float) * 4 * n);
        r->cpu_swarm = malloc(sizeof(uint32_t) * n);
        r->cpu_cap = r->cpu_state && r->cpu_pv && r->cpu_swarm ? n : 0;
        if (!r->cpu_cap) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory drawing %u boids", n);
    }
    boids_status st = boids_world_read(w, r->cpu_state, n);
    if (st != BOIDS_OK) return st;
    for (uint32_t i = 0; i < n; ++i) {
        const boids_boid *b = &r->cpu_state[i];
        float *pv = &r->cpu_pv[4 * i];
        pv[0] = b->x;
        pv[1] = b->y;
        pv[2] = b->vx;
        pv[3] = b->vy;
        r->cpu_swarm[i] = b->swarm;
    }
    if (!r->upload_pv) glGenBuffers(1, &r->upload_pv);
    if (!r->upload_swarm) glGenBuffers(1, &r->upload_swarm);
    if (n > r->upload_cap) {
        glBindBuffer(GL_ARRAY_BUFFER, r->upload_pv);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(float) * 4 * n), NULL, GL_STREAM_DRAW);
        glBindBuffer(GL_ARRAY_BUFFER, r->upload_swarm);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(uint32_t) * n), NULL, GL_STREAM_DRAW);
        r->upload_cap = n;
    }
    glBindBuffer(GL_ARRAY_BUFFER, r->upload_pv);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(sizeof(float) * 4 * n), r->cpu_pv);
    glBindBuffer(GL_ARRAY_BUFFER, r->upload_swarm);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(sizeof(uint32_t) * n), r->cpu_swarm);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    memset(out, 0, sizeof *out);
    out->pos_vel = r->upload_pv;
    out->swarm = r->upload_swarm;
    return BOIDS_OK;
}

static void draw_border(boids_renderer *r, const boids_world_info *info, const boids_camera *cam)
{
    /* The world's edge as a 1-pixel frame of four thin quads, in framebuffer pixels. */
    float x0 = (0 - cam->cx) * cam->zoom + cam->view_w * 0.5f, x1 = (info->width - cam->cx) * cam->zoom + cam->view_w * 0.5f;
    float y0 = (0 - cam->cy) * cam->zoom + cam->view_h * 0.5f, y1 = (info->height - cam->cy) * cam->zoom + cam->view_h * 0.5f;
    const float c[4] = {0.25f, 0.28f, 0.34f, 1.0f};
    float v[4 * 6 * 6];
    const float rects[4][4] = {{x0, y0, x1, y0 + 1}, {x0, y1 - 1, x1, y1}, {x0, y0, x0 + 1, y1}, {x1 - 1, y0, x1, y1}};
    int k = 0;
    for (int i = 0; i < 4; ++i) {
        const float *q = rects[i];
        const float pts[6][2] = {{q[0], q[1]}, {q[2], q[1]}, {q[2], q[3]}, {q[0], q[1]}, {q[2], q[3]}, {q[0], q[3]}};
        for (int p = 0; p < 6; ++p) {
            v[k++] = pts[p][0];
            v[k++] = pts[p][1];
            for (int j = 0; j < 4; ++j) v[k++] = c[j];
        }
    }
    glBindBuffer(GL_ARRAY_BUFFER, r->border_vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof v, v, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glUseProgram(r->prog_lines);
    glUniform2f(r->ul_viewport, cam->view_w, cam->view_h);
    glBindVertexArray(r->border_vao);
    glDrawArrays(GL_TRIANGLES, 0, 24);
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
    glClear(GL_COLOR_BUFFER_BIT);
    draw_border(r, &info, cam);
    if (info.count == 0) return boids_gl_check("drawing");

    boids_gl_state state = boids_world_gl_state(w);
    if (!state.pos_vel) {
        boids_status st = upload_cpu_state(r, w, info.count, &state);
        if (st != BOIDS_OK) return st;
    }
    boids_gpu_timer_poll(&r->timer);
    bool timed = boids_gpu_timer_begin(&r->timer);
    /* The state buffers, bound as per-instance vertex data: (px, py, vx, vy) and swarm. */
    glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT);
    glBindVertexArray(r->vao);
    glBindBuffer(GL_ARRAY_BUFFER, state.pos_vel);
    glEnableVertexAttribArray(BOIDS_ATTR_POS_VEL);
    glVertexAttribPointer(BOIDS_ATTR_POS_VEL, 4, GL_FLOAT, GL_FALSE, 4 * sizeof(float), (void *)0);
    glVertexAttribDivisor(BOIDS_ATTR_POS_VEL, 1);
    glBindBuffer(GL_ARRAY_BUFFER, state.swarm);
    glEnableVertexAttribArray(BOIDS_ATTR_SWARM);
    glVertexAttribIPointer(BOIDS_ATTR_SWARM, 1, GL_UNSIGNED_INT, sizeof(uint32_t), (void *)0);
    glVertexAttribDivisor(BOIDS_ATTR_SWARM, 1);
    glBindBuffer(GL_ARRAY_BUFFER, 0);

    mat4 view;
    boids_camera_matrix(cam, view); /* orthographic, y down, the same zoom on both axes */
    float size = style->boid_px * cam->zoom;
    if (size < style->min_px) size = style->min_px;
    if (size > 64.0f) size = 64.0f;
    glUseProgram(r->prog_boids);
    glUniformMatrix4fv(r->u_view, 1, GL_FALSE, (const float *)view);
    glUniform2f(r->u_viewport, cam->view_w, cam->view_h);
    glUniform1f(r->u_size, size);
    glUniform1i(r->u_color_mode, style->color_mode);
    glUniform2f(r->u_speed, style->speed_lo, style->speed_hi);
    glDrawArraysInstanced(GL_TRIANGLES, 0, 3, (GLsizei)info.count);
    glBindVertexArray(0);
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
