/* A very small immediate-mode UI drawn with the GPU: filled rectangles and text (Sean Barrett's
 * stb_easy_font, from Debian's libstb-dev), batched into one draw per frame. Coordinates are
 * framebuffer pixels from the top left; `scale` multiplies text and sizes (HiDPI). No widget
 * state lives here: callers keep their own (see app/viewer/panel.c). */
#ifndef BOIDS_RENDER_UI_H
#define BOIDS_RENDER_UI_H

#include <stdint.h>

#include "boids.h"

typedef struct boids_ui boids_ui;

typedef struct boids_rgba {
    uint8_t r, g, b, a;
} boids_rgba;

boids_status boids_ui_create(boids_ui **out);
void boids_ui_destroy(boids_ui *ui);

/* Starts a frame for a framebuffer of fb_w x fb_h pixels. */
void boids_ui_begin(boids_ui *ui, float fb_w, float fb_h, float scale);
void boids_ui_rect(boids_ui *ui, float x, float y, float w, float h, boids_rgba c);
/* A line segment `width` pixels wide, and a circle's outline. */
void boids_ui_line(boids_ui *ui, float x0, float y0, float x1, float y1, float width, boids_rgba c);
void boids_ui_circle(boids_ui *ui, float cx, float cy, float r, float width, boids_rgba c);
/* Text with its top left at (x, y); returns its width. Lines break at '\n'. O is drawn wide and
 * round, 0 narrow and slashed, so they never read alike. */
float boids_ui_text(boids_ui *ui, float x, float y, const char *text, boids_rgba c);
float boids_ui_text_width(const boids_ui *ui, const char *text);
/* The scale of what follows (text and line height); begin() sets it. */
float boids_ui_get_scale(const boids_ui *ui);
void boids_ui_set_scale(boids_ui *ui, float scale);
/* Height of one line of text. */
float boids_ui_line_height(const boids_ui *ui);
/* Draws everything since begin (alpha-blended over the bound framebuffer). */
boids_status boids_ui_end(boids_ui *ui);

#endif
