/* A world's picture for a program that has no window or exporter of its own (Python's
 * World.image, save_png and a notebook's display): the renderer of --frames, in a headless
 * context made for the picture and destroyed after it. The state is read, so the picture is the
 * same for both backends and for a GPU world whose context is its own. */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "gl/context.h"
#include "gl/gl.h"
#include "render/boid_renderer.h"
#include "render/camera.h"
#include "render/png_writer.h"
#include "render/target.h"

#define IMAGE_SIDE_MAX 16384u

/* The picture into rgb, bottom row first (as GL reads it). */
static boids_status draw_locked(boids_world *w, uint32_t width, uint32_t height, uint8_t *rgb)
{
    boids_world_info info;
    boids_world_get_info(w, &info);
    if (!(info.width > 0)) return boids_last_error_info()->status; /* refused: it says why */
    boids_gl *gl = NULL;
    boids_status st = boids_gl_create_headless(&gl);
    if (st != BOIDS_OK) return st;
    boids_renderer *r = NULL;
    boids_target t;
    memset(&t, 0, sizeof t);
    st = boids_target_create(&t, (int)width, (int)height);
    if (st == BOIDS_OK) st = boids_renderer_create(&r);
    if (st == BOIDS_OK) {
        boids_camera cam;
        memset(&cam, 0, sizeof cam);
        if (info.dims == 3)
            boids_camera_fit_3d(&cam, info.width, info.height, info.depth, (float)width,
                                (float)height);
        else
            boids_camera_fit(&cam, info.width, info.height, (float)width, (float)height);
        boids_draw_style style = boids_default_draw_style(w);
        style.context = gl;
        boids_target_bind(&t);
        st = boids_renderer_draw(r, w, &cam, &style);
    }
    if (st == BOIDS_OK) st = boids_gl_make_current(gl); /* (after the world's last call) */
    if (st == BOIDS_OK) {
        boids_target_bind(&t);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, (GLsizei)width, (GLsizei)height, GL_RGB, GL_UNSIGNED_BYTE, rgb);
        st = boids_gl_check("reading the picture");
    }
    if (r) boids_renderer_destroy(r);
    boids_target_destroy(&t);
    boids_gl_destroy(gl);
    return st;
}

/* The picture into rgb, bottom row first (as GL reads it), of one state: the world is locked
 * from the read of its count to the read of its boids (a set_count on another thread between
 * the two once failed 20 pictures in 50, "read of 4000 boids from a world of 2000"). */
static boids_status draw_rows(boids_world *w, uint32_t width, uint32_t height, uint8_t *rgb)
{
    boids_status st = boids_world_lock(w);
    if (st != BOIDS_OK) return st;
    st = draw_locked(w, width, height, rgb);
    boids_world_unlock(w);
    return st;
}

static boids_status check_size(uint32_t width, uint32_t height)
{
    if (width >= 1 && height >= 1 && width <= IMAGE_SIDE_MAX && height <= IMAGE_SIDE_MAX)
        return BOIDS_OK;
    return boids_fail_key(BOIDS_E_ARGUMENT, "width", "a picture of %ux%u: each side in [1, %u]",
                          width, height, IMAGE_SIDE_MAX);
}

boids_status boids_world_image(boids_world *w, uint32_t width, uint32_t height, uint8_t *rgb)
{
    BOIDS_REQUIRE(w, "world");
    BOIDS_REQUIRE(rgb, "rgb");
    boids_status st = check_size(width, height);
    if (st == BOIDS_OK) st = draw_rows(w, width, height, rgb);
    if (st != BOIDS_OK) return st;
    const size_t row = (size_t)width * 3; /* top row first */
    uint8_t tmp[3 * 1024];
    for (uint32_t y = 0; y < height / 2; ++y) {
        uint8_t *a = rgb + row * y, *b = rgb + row * (height - 1 - y);
        for (size_t x = 0; x < row; x += sizeof tmp) {
            const size_t n = row - x < sizeof tmp ? row - x : sizeof tmp;
            memcpy(tmp, a + x, n), memcpy(a + x, b + x, n), memcpy(b + x, tmp, n);
        }
    }
    return BOIDS_OK;
}

boids_status boids_world_save_png(boids_world *w, uint32_t width, uint32_t height, const char *path)
{
    BOIDS_REQUIRE(w, "world");
    BOIDS_REQUIRE(path, "path");
    boids_status st = check_size(width, height);
    if (st != BOIDS_OK) return st;
    uint8_t *rgb = malloc((size_t)width * height * 3);
    if (!rgb)
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for a %ux%u picture", width, height);
    st = draw_rows(w, width, height, rgb);
    if (st == BOIDS_OK) st = boids_png_write_rgb(path, (int)width, (int)height, rgb);
    free(rgb);
    return st;
}
