/* Draws a world's boids: one triangle per boid, read straight from the GPU world's state buffers
 * (a CPU world's state is uploaded into buffers of the same layout) by a plain draw that pulls
 * them in the vertex shader, or an instanced draw where vertex shaders cannot read them.
 * Also draws the world's border. Needs the world's GL context current. */
#ifndef BOIDS_RENDER_BOID_RENDERER_H
#define BOIDS_RENDER_BOID_RENDERER_H

#include "boids.h"
#include "boids_draw.h"
#include "render/camera.h"

typedef struct boids_renderer boids_renderer;

typedef struct boids_draw_style {
    int color_mode;           /* BOIDS_COLOR_* */
    float boid_px;            /* boid length in world px (drawn at least min_px on screen) */
    float min_px;             /* framebuffer pixels */
    float speed_lo, speed_hi; /* speed colour ramp */
    boids_gl *context; /* NULL: the world's own context (or a CPU world's state, uploaded); else
                          another one, current, this draws in (a picture of a GPU world with a
                          context of its own): the state is drawn from a read of it, and this
                          context made current again after the world's calls */
} boids_draw_style;

boids_draw_style boids_default_draw_style(const boids_world *w);

boids_status boids_renderer_create(boids_renderer **out);
void boids_renderer_destroy(boids_renderer *r);
/* Clears the bound framebuffer (viewport set to the camera's) and draws the world. For a CPU
 * world this reads its state (a memcpy) and uploads it. */
boids_status boids_renderer_draw(boids_renderer *r, boids_world *w, const boids_camera *cam,
                                 const boids_draw_style *style);

/* The background colour (tests look for anything else): BOIDS_BACKGROUND_R, _G, _B in
 * boids_draw.h, which the 3D boids fade into. */

#endif
