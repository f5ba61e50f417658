/* The viewer's parameter panel: every parameter of the world's model with its name, value and
 * unit; keyboard (select with up/down, change with left/right, coarse with shift) and mouse
 * (drag a slider). Switches (include_protected, dynamic_bias, mean_set_length) show on/off and
 * toggle; edges shows its names (wrap, bounded, processing) and cycles, or a click picks one.
 *
 * Hand-written on the 150-line UI of render/ui.c rather than Dear ImGui (Debian's libimgui-dev):
 * ImGui is C++ and Debian packages no C binding (cimgui), so it would bring a C++ compiler and
 * a wrapper file into a C17 build for a panel of sliders and switches; what the panel needs
 * (rows, a slider, a switch, a choice, scaling) is small and tested here. Every change goes through
 * boids_panel_set(), which is the --set path: boids_params_set() on the text of the value, then
 * boids_world_set_params() (or, for what a world fixes when it is made, the predators' number, the
 * world made anew: session.h). */
#ifndef BOIDS_APP_VIEWER_PANEL_H
#define BOIDS_APP_VIEWER_PANEL_H

#include <stdbool.h>

#include "app/session.h"
#include "boids.h"
#include "render/ui.h"

typedef struct boids_panel {
    bool visible;
    int selected; /* row with the keyboard focus */
    int dragging; /* row whose slider the mouse holds, -1 if none */
    int first;    /* the first row shown, where not all fit the window (they scroll) */
    /* layout of the last draw, for the mouse (framebuffer pixels) */
    float x, y, w, row_h, bar_x, bar_w;
    int rows; /* rows shown */
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
 * more parameters than fit is drawn smaller, and where that would be illegible its rows scroll
 * with the selection. */
void boids_panel_draw(boids_panel *p, boids_ui *ui, const boids_world *w, float fb_w, float fb_h,
                      float top);

#endif
