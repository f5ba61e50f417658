/* The camera of the viewer and the exporter: which part of the world fills the viewport. World y
 * points down, as in the papers' sketches (Processing): world (0, 0) is the top left. A flat world
 * is seen from above, orthographically; a 3D world through an orbit camera in perspective, the
 * picture's up being the world's -y. */
#ifndef BOIDS_RENDER_CAMERA_H
#define BOIDS_RENDER_CAMERA_H

#include <cglm/cglm.h>

typedef struct boids_camera {
    float cx, cy;         /* world point at the viewport's centre, px */
    float zoom;           /* framebuffer pixels per world px */
    float view_w, view_h; /* viewport, framebuffer pixels */
    /* A 3D world's orbit camera (three): the eye looks at target from `distance` px, turned yaw
     * degrees about the world's y axis and raised pitch degrees above the x-z plane; fov_deg is
     * the vertical field of view. */
    bool three;
    float target[3];
    float yaw, pitch, distance, fov_deg;
} boids_camera;

/* ---- a 3D world's orbit camera -------------------------------------------------------------- */

/* Looks at the middle of a width x height x depth box from above one corner, the whole box in
 * view (its bounding sphere within the field of view). */
void boids_camera_fit_3d(boids_camera *c, float w, float h, float d, float view_w, float view_h);
/* Sets the orbit from an eye position, the point it looks at and the vertical field of view. */
void boids_camera_look(boids_camera *c, const float eye[3], const float target[3], float fov_deg);
/* The eye's position. */
void boids_camera_eye(const boids_camera *c, float eye[3]);
/* Turns the orbit by dyaw and dpitch degrees (the pitch kept within +-89). */
void boids_camera_orbit(boids_camera *c, float dyaw, float dpitch);
/* The point under framebuffer pixel (px, py) on the plane through the target that faces the
 * eye: where the mouse tool acts in 3D. */
void boids_camera_to_world_3d(const boids_camera *c, float px, float py, float out[3]);
/* Framebuffer pixels per world px at unit distance along a 3D camera's view (at distance w:
 * boids_camera_focal(c) / w, as boids_camera_project() makes them). */
float boids_camera_focal(const boids_camera *c);
/* Framebuffer pixels per world px: the zoom, or a 3D camera's at its target's distance. */
float boids_camera_scale(const boids_camera *c);
/* World px -> framebuffer pixels (sx, sy) and the distance along the view (w: not in front of
 * the eye where <= 0). */
void boids_camera_project(const boids_camera *c, const float p[3], float *sx, float *sy, float *w);

/* Zooms so the whole world fits the viewport, centred. */
void boids_camera_fit(boids_camera *c, float world_w, float world_h, float view_w, float view_h);
/* Zooms so the world rectangle (x, y, w, h) fits the viewport, centred on it. */
void boids_camera_frame(boids_camera *c, float x, float y, float w, float h, float view_w,
                        float view_h);
/* Keeps the centre and zoom for a new viewport size (a resized window). */
void boids_camera_resize(boids_camera *c, float view_w, float view_h);
/* Multiplies the zoom by factor, keeping the world point under (px, py) (framebuffer pixels) still
 * (a 3D camera comes nearer by the factor instead). */
void boids_camera_zoom_at(boids_camera *c, float factor, float px, float py);
/* Moves the view by a drag of (dx, dy) framebuffer pixels (a 3D camera's target, across the
 * view). */
void boids_camera_pan(boids_camera *c, float dx, float dy);
/* World point under framebuffer pixel (px, py). */
void boids_camera_to_world(const boids_camera *c, float px, float py, float *wx, float *wy);
/* World px -> clip space (a 3D camera's: perspective). */
void boids_camera_matrix(const boids_camera *c, mat4 dest);

#endif
