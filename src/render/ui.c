#include "render/ui.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <stb_easy_font.h>
#pragma GCC diagnostic pop

#include "base/error.h"
#include "gl/checks.h"
#include "gl/context.h"
#include "gl/program.h"

/* stb_easy_font glyphs are about 7 px tall on a 12 px line; we draw them at 2x scale. */
#define FONT_SCALE 2.0f

typedef struct vertex {
    float x, y;
    boids_rgba c;
} vertex;

struct boids_ui {
    GLuint prog, vao, vbo;
    GLint u_viewport;
    float fb_w, fb_h, scale;
    vertex *verts;
    size_t count, cap;
    size_t vbo_cap;
};

boids_status boids_ui_create(boids_ui **out)
{
    *out = NULL;
    boids_ui *ui = calloc(1, sizeof *ui);
    if (!ui) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the UI");
    boids_status st = boids_program_graphics("ui.vert", "ui.frag", &ui->prog);
    if (st != BOIDS_OK) {
        free(ui);
        return st;
    }
    ui->u_viewport = glGetUniformLocation(ui->prog, "u_viewport");
    glGenVertexArrays(1, &ui->vao);
    glGenBuffers(1, &ui->vbo);
    glBindVertexArray(ui->vao);
    glBindBuffer(GL_ARRAY_BUFFER, ui->vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(vertex), (void *)offsetof(vertex, x));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(vertex),
                          (void *)offsetof(vertex, c));
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    *out = ui;
    return boids_gl_check("creating the UI");
}

void boids_ui_destroy(boids_ui *ui)
{
    if (!ui) return;
    if (ui->prog) glDeleteProgram(ui->prog);
    if (ui->vao) glDeleteVertexArrays(1, &ui->vao);
    if (ui->vbo) glDeleteBuffers(1, &ui->vbo);
    free(ui->verts);
    free(ui);
}

void boids_ui_begin(boids_ui *ui, float fb_w, float fb_h, float scale)
{
    ui->fb_w = fb_w;
    ui->fb_h = fb_h;
    ui->scale = scale > 0 ? scale : 1.0f;
    ui->count = 0;
}

static vertex *reserve(boids_ui *ui, size_t n)
{
    if (ui->count + n > ui->cap) {
        size_t cap = ui->cap ? ui->cap * 2 : 4096;
        while (cap < ui->count + n) cap *= 2;
        vertex *v = realloc(ui->verts, sizeof *v * cap);
        if (!v) return NULL;
        ui->verts = v;
        ui->cap = cap;
    }
    vertex *v = ui->verts + ui->count;
    ui->count += n;
    return v;
}

static void quad(boids_ui *ui, float x0, float y0, float x1, float y1, boids_rgba c)
{
    vertex *v = reserve(ui, 6);
    if (!v) return; /* out of memory: the UI misses a rectangle, the simulation goes on */
    v[0] = (vertex){x0, y0, c};
    v[1] = (vertex){x1, y0, c};
    v[2] = (vertex){x1, y1, c};
    v[3] = (vertex){x0, y0, c};
    v[4] = (vertex){x1, y1, c};
    v[5] = (vertex){x0, y1, c};
}

void boids_ui_rect(boids_ui *ui, float x, float y, float w, float h, boids_rgba c)
{
    quad(ui, x, y, x + w, y + h, c);
}

void boids_ui_line(boids_ui *ui, float x0, float y0, float x1, float y1, float width, boids_rgba c)
{
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    if (!(len > 0)) return;
    float nx = -dy / len * width * 0.5f, ny = dx / len * width * 0.5f;
    vertex *v = reserve(ui, 6);
    if (!v) return;
    v[0] = (vertex){x0 + nx, y0 + ny, c};
    v[1] = (vertex){x1 + nx, y1 + ny, c};
    v[2] = (vertex){x1 - nx, y1 - ny, c};
    v[3] = (vertex){x0 + nx, y0 + ny, c};
    v[4] = (vertex){x1 - nx, y1 - ny, c};
    v[5] = (vertex){x0 - nx, y0 - ny, c};
}

void boids_ui_circle(boids_ui *ui, float cx, float cy, float r, float width, boids_rgba c)
{
    const int n = 64;
    for (int i = 0; i < n; ++i) {
        float a0 = 6.2831853f * (float)i / n, a1 = 6.2831853f * (float)(i + 1) / n;
        boids_ui_line(ui, cx + r * cosf(a0), cy + r * sinf(a0), cx + r * cosf(a1),
                      cy + r * sinf(a1), width, c);
    }
}

/* stb_easy_font draws O and 0 alike but for a faint slash; our O is drawn half again as wide,
 * round next to the narrow slashed zero, so the two never read alike. */
#define WIDE_O_EXTRA 2 /* font units */

static float char_advance(char ch)
{
    char one[2] = {ch, '\0'};
    return (float)stb_easy_font_width(one) + (ch == 'O' ? WIDE_O_EXTRA : 0);
}

float boids_ui_text_width(const boids_ui *ui, const char *text)
{
    float w = 0, line = 0;
    for (const char *p = text; *p; ++p) {
        line = *p == '\n' ? 0 : line + char_advance(*p);
        if (line > w) w = line;
    }
    return w * FONT_SCALE * ui->scale;
}

float boids_ui_line_height(const boids_ui *ui) { return 12.0f * FONT_SCALE * ui->scale; }

float boids_ui_get_scale(const boids_ui *ui) { return ui->scale; }

void boids_ui_set_scale(boids_ui *ui, float scale) { ui->scale = scale > 0 ? scale : ui->scale; }

float boids_ui_text(boids_ui *ui, float x, float y, const char *text, boids_rgba c)
{
    /* stb_easy_font writes quads of 4 vertices (x, y, z, rgba) into a buffer: one character at a
     * time, so the O can be widened. */
    char buf[4096];
    unsigned char col[4] = {c.r, c.g, c.b, c.a};
    float s = FONT_SCALE * ui->scale, pen = 0, row = 0;
    for (const char *p = text; *p; ++p) {
        if (*p == '\n') {
            pen = 0;
            row += 12;
            continue;
        }
        char one[2] = {*p, '\0'};
        int quads = stb_easy_font_print(0, 0, one, col, buf, (int)sizeof buf);
        float widen = *p == 'O' ? 1.5f : 1.0f;
        for (int q = 0; q < quads; ++q) {
            const float *v0 = (const float *)(buf + (size_t)(q * 4) * 16);
            const float *v2 = (const float *)(buf + (size_t)(q * 4 + 2) * 16);
            quad(ui, x + (pen + v0[0] * widen) * s, y + (row + v0[1]) * s,
                 x + (pen + v2[0] * widen) * s, y + (row + v2[1]) * s, c);
        }
        pen += char_advance(*p);
    }
    return boids_ui_text_width(ui, text);
}

boids_status boids_ui_end(boids_ui *ui)
{
    if (ui->count == 0) return BOIDS_OK;
    glViewport(0, 0, (GLsizei)ui->fb_w, (GLsizei)ui->fb_h);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glBindBuffer(GL_ARRAY_BUFFER, ui->vbo);
    size_t bytes = sizeof(vertex) * ui->count;
    if (bytes > ui->vbo_cap) {
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_DRAW);
        ui->vbo_cap = bytes;
    }
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes, ui->verts);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glUseProgram(ui->prog);
    glUniform2f(ui->u_viewport, ui->fb_w, ui->fb_h);
    glBindVertexArray(ui->vao);
    boids_gpu_check_bindings("drawing the overlay");
    glDrawArrays(GL_TRIANGLES, 0, (GLsizei)ui->count);
    glBindVertexArray(0);
    glUseProgram(0);
    glDisable(GL_BLEND);
    return boids_gl_check("drawing the UI");
}
