/* The viewer's parameter panel: every parameter of the world's model with its name, value and
 * unit; keyboard (select with up/down, change with left/right, coarse with shift) and mouse
 * (drag a slider). Every change goes through boids_panel_set(), which is the --set path:
 * boids_params_set() on the text of the value, then boids_world_set_params() (or, for what a
 * world fixes when it is made, the predators' number, the world made anew: session.h). */
#ifndef BOIDS_APP_PANEL_H
#define BOIDS_APP_PANEL_H

#include <stdbool.h>

#include "app/session.h"
#include "boids.h"
#include "render/ui.h"

typedef struct boids_panel {
    bool visible;
    int selected;     /* row with the keyboard focus */
    int dragging;     /* row whose slider the mouse holds, -1 if none */
    /* layout of the last draw, for the mouse (framebuffer pixels) */
    float x, y, w, row_h, bar_x, bar_w;
    int rows;
} boids_panel;

void boids_panel_init(boids_panel *p);
/* Sets one parameter of a running world by name from text, exactly as --set KEY=VALUE would. */
boids_status boids_panel_set(boids_session *s, const char *key, const char *value);
/* Moves the selected row's value one step (1 % of its slider range; 10 % with coarse). */
boids_status boids_panel_nudge(boids_panel *p, boids_session *s, int direction, bool coarse);
void boids_panel_select(boids_panel *p, boids_world *w, int delta);
/* Mouse: press at (x, y) starts a slider drag if it hits one (returns true: the panel took it). */
bool boids_panel_press(boids_panel *p, boids_session *s, float x, float y);
void boids_panel_drag(boids_panel *p, boids_session *s, float x);
void boids_panel_release(boids_panel *p);
/* True if (x, y) lies on the panel (clicks there do not reach the world). */
bool boids_panel_hit(const boids_panel *p, float x, float y);
/* Draws the panel at the right edge of a framebuffer fb_w x fb_h, from `top` down; a model with
 * more parameters than fit is drawn smaller. */
void boids_panel_draw(boids_panel *p, boids_ui *ui, const boids_world *w, float fb_w, float fb_h, float top);

#endif
