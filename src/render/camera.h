/* The 2-D camera of the viewer and the exporter: which part of the world fills the viewport.
 * World y points down, as in the papers' sketches (Processing): world (0, 0) is the top left. */
#ifndef BOIDS_RENDER_CAMERA_H
#define BOIDS_RENDER_CAMERA_H

#include <cglm/cglm.h>

typedef struct boids_camera {
    float cx, cy;         /* world point at the viewport's centre, px */
    float zoom;           /* framebuffer pixels per world px */
    float view_w, view_h; /* viewport, framebuffer pixels */
} boids_camera;

/* Zooms so the whole world fits the viewport, centred. */
void boids_camera_fit(boids_camera *c, float world_w, float world_h, float view_w, float view_h);
/* Zooms so the world rectangle (x, y, w, h) fits the viewport, centred on it. */
void boids_camera_frame(boids_camera *c, float x, float y, float w, float h, float view_w,
                        float view_h);
/* Keeps the centre and zoom for a new viewport size (a resized window). */
void boids_camera_resize(boids_camera *c, float view_w, float view_h);
/* Multiplies the zoom by factor, keeping the world point under (px, py) (framebuffer pixels) still.
 */
void boids_camera_zoom_at(boids_camera *c, float factor, float px, float py);
/* Moves the view by a drag of (dx, dy) framebuffer pixels. */
void boids_camera_pan(boids_camera *c, float dx, float dy);
/* World point under framebuffer pixel (px, py). */
void boids_camera_to_world(const boids_camera *c, float px, float py, float *wx, float *wy);
/* World px -> clip space. */
void boids_camera_matrix(const boids_camera *c, mat4 dest);

#endif
