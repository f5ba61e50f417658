#include "render/camera.h"

#include <math.h>
#include <string.h>

void boids_camera_fit(boids_camera *c, float world_w, float world_h, float view_w, float view_h)
{
    c->three = false;
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
    if (c->three) {
        c->distance = fminf(fmaxf(c->distance / factor, 1.0f), 1e8f);
        return;
    }
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

/* The view's unit right and up vectors and forward (eye to target) in world px. */
static void view_axes(const boids_camera *c, vec3 right, vec3 up, vec3 forward)
{
    float eye[3];
    boids_camera_eye(c, eye);
    glm_vec3_sub((float *)c->target, eye, forward);
    glm_vec3_normalize(forward);
    vec3 world_up = {0.0f, -1.0f, 0.0f}; /* y points down */
    glm_vec3_cross(forward, world_up, right);
    glm_vec3_normalize(right);
    glm_vec3_cross(right, forward, up);
}

float boids_camera_focal(const boids_camera *c)
{
    return fmaxf(c->view_h, 1.0f) * 0.5f / tanf(glm_rad(c->fov_deg) * 0.5f);
}

float boids_camera_scale(const boids_camera *c)
{
    return c->three ? boids_camera_focal(c) / c->distance : c->zoom;
}

/* World px per framebuffer pixel at the target's distance. */
static float px_at_target(const boids_camera *c) { return c->distance / boids_camera_focal(c); }

void boids_camera_pan(boids_camera *c, float dx, float dy)
{
    if (c->three) {
        vec3 right, up, forward;
        view_axes(c, right, up, forward);
        const float s = px_at_target(c);
        for (int k = 0; k < 3; ++k) c->target[k] += (-dx * right[k] + dy * up[k]) * s;
        return;
    }
    c->cx -= dx / c->zoom;
    c->cy -= dy / c->zoom;
}

void boids_camera_matrix(const boids_camera *c, mat4 dest)
{
    if (c->three) {
        float eye[3];
        boids_camera_eye(c, eye);
        mat4 proj, view;
        const float near = fmaxf(c->distance * 0.01f, 0.1f), far = c->distance * 20.0f + 10.0f;
        glm_perspective(glm_rad(c->fov_deg), c->view_w / fmaxf(c->view_h, 1.0f), near, far, proj);
        glm_lookat(eye, (float *)c->target, (vec3){0.0f, -1.0f, 0.0f}, view);
        glm_mat4_mul(proj, view, dest);
        return;
    }
    float hw = c->view_w * 0.5f / c->zoom, hh = c->view_h * 0.5f / c->zoom;
    /* y down: the top of the view (cy - hh) maps to clip +1 */
    glm_ortho(c->cx - hw, c->cx + hw, c->cy + hh, c->cy - hh, -1.0f, 1.0f, dest);
}

/* ---- a 3D world's orbit camera -------------------------------------------------------------- */

void boids_camera_fit_3d(boids_camera *c, float w, float h, float d, float view_w, float view_h)
{
    c->three = true;
    c->view_w = view_w, c->view_h = view_h;
    c->target[0] = w * 0.5f, c->target[1] = h * 0.5f, c->target[2] = d * 0.5f;
    c->yaw = 35.0f, c->pitch = 25.0f, c->fov_deg = 45.0f;
    /* the bounding sphere within the narrower half-angle of the view */
    const float radius = 0.5f * sqrtf(w * w + h * h + d * d);
    const float half_v = glm_rad(c->fov_deg) * 0.5f,
                half_h = atanf(tanf(half_v) * view_w / fmaxf(view_h, 1.0f));
    c->distance = radius / sinf(fminf(half_v, half_h)) * 1.02f;
    c->zoom = 1.0f, c->cx = c->target[0], c->cy = c->target[1];
}

void boids_camera_look(boids_camera *c, const float eye[3], const float target[3], float fov_deg)
{
    c->three = true;
    memcpy(c->target, target, sizeof c->target);
    const float dx = eye[0] - target[0], dy = eye[1] - target[1], dz = eye[2] - target[2];
    c->distance = fmaxf(sqrtf(dx * dx + dy * dy + dz * dz), 1e-3f);
    c->pitch = glm_deg(asinf(fminf(fmaxf(-dy / c->distance, -1.0f), 1.0f)));
    c->yaw = glm_deg(atan2f(dx, dz));
    c->fov_deg = fov_deg;
}

void boids_camera_eye(const boids_camera *c, float eye[3])
{
    const float yaw = glm_rad(c->yaw), pitch = glm_rad(c->pitch);
    eye[0] = c->target[0] + c->distance * cosf(pitch) * sinf(yaw);
    eye[1] = c->target[1] - c->distance * sinf(pitch); /* up is -y */
    eye[2] = c->target[2] + c->distance * cosf(pitch) * cosf(yaw);
}

void boids_camera_orbit(boids_camera *c, float dyaw, float dpitch)
{
    c->yaw = fmodf(c->yaw + dyaw, 360.0f);
    c->pitch = fminf(fmaxf(c->pitch + dpitch, -89.0f), 89.0f);
}

void boids_camera_to_world_3d(const boids_camera *c, float px, float py, float out[3])
{
    vec3 right, up, forward;
    view_axes(c, right, up, forward);
    const float s = px_at_target(c), sx = (px - c->view_w * 0.5f) * s,
                sy = (c->view_h * 0.5f - py) * s;
    for (int k = 0; k < 3; ++k) out[k] = c->target[k] + sx * right[k] + sy * up[k];
}

void boids_camera_project(const boids_camera *c, const float p[3], float *sx, float *sy, float *w)
{
    mat4 m;
    boids_camera_matrix(c, m);
    vec4 v = {p[0], p[1], p[2], 1.0f}, clip;
    glm_mat4_mulv(m, v, clip);
    *w = clip[3];
    const float iw = clip[3] != 0.0f ? 1.0f / clip[3] : 0.0f;
    *sx = (clip[0] * iw * 0.5f + 0.5f) * c->view_w;
    *sy = (0.5f - clip[1] * iw * 0.5f) * c->view_h; /* framebuffer rows from the top */
}
