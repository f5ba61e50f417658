#include "render/camera.h"

void boids_camera_fit(boids_camera *c, float world_w, float world_h, float view_w, float view_h)
{
    c->view_w = view_w;
    c->view_h = view_h;
    c->cx = world_w * 0.5f;
    c->cy = world_h * 0.5f;
    float zx = view_w / world_w, zy = view_h / world_h;
    c->zoom = zx < zy ? zx : zy;
}

void boids_camera_frame(boids_camera *c, float x, float y, float w, float h, float view_w,
                        float view_h)
{
    boids_camera_fit(c, w, h, view_w, view_h);
    c->cx = x + w * 0.5f;
    c->cy = y + h * 0.5f;
}

void boids_camera_resize(boids_camera *c, float view_w, float view_h)
{
    c->view_w = view_w;
    c->view_h = view_h;
}

void boids_camera_to_world(const boids_camera *c, float px, float py, float *wx, float *wy)
{
    *wx = c->cx + (px - c->view_w * 0.5f) / c->zoom;
    *wy = c->cy + (py - c->view_h * 0.5f) / c->zoom;
}

void boids_camera_zoom_at(boids_camera *c, float factor, float px, float py)
{
    float wx, wy;
    boids_camera_to_world(c, px, py, &wx, &wy);
    float z = c->zoom * factor;
    if (z < 1e-5f) z = 1e-5f;
    if (z > 1e3f) z = 1e3f;
    c->zoom = z;
    /* keep (wx, wy) under the cursor */
    c->cx = wx - (px - c->view_w * 0.5f) / c->zoom;
    c->cy = wy - (py - c->view_h * 0.5f) / c->zoom;
}

void boids_camera_pan(boids_camera *c, float dx, float dy)
{
    c->cx -= dx / c->zoom;
    c->cy -= dy / c->zoom;
}

void boids_camera_matrix(const boids_camera *c, mat4 dest)
{
    float hw = c->view_w * 0.5f / c->zoom, hh = c->view_h * 0.5f / c->zoom;
    /* y down: the top of the view (cy - hh) maps to clip +1 */
    glm_ortho(c->cx - hw, c->cx + hw, c->cy + hh, c->cy - hh, -1.0f, 1.0f, dest);
}
