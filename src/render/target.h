/* An offscreen framebuffer of a fixed size (PNG export and screenshots, independent of any
 * window). */
#ifndef BOIDS_RENDER_TARGET_H
#define BOIDS_RENDER_TARGET_H

#include "gl/gl.h"

typedef struct boids_target {
    GLuint fbo, color, depth; /* depth: for a 3D world's picture */
    int width, height;
} boids_target;

/* BOIDS_ERR_INVALID if the size exceeds GL_MAX_RENDERBUFFER_SIZE (the message names it). */
boids_status boids_target_create(boids_target *t, int width, int height);
void boids_target_destroy(boids_target *t);
/* Binds it for drawing (and reading). */
void boids_target_bind(const boids_target *t);
/* Binds the window's framebuffer for drawing (what the viewer shows). */
void boids_target_bind_window(void);
/* Makes the window's back buffer what the next read (a capture) reads. */
void boids_target_read_window(void);

#endif
