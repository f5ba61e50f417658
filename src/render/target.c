#include "render/target.h"

#include <string.h>

#include "base/error.h"
#include "gl/context.h"

boids_status boids_target_create(boids_target *t, int width, int height)
{
    memset(t, 0, sizeof *t);
    GLint max = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max);
    if (width < 1 || height < 1 || width > max || height > max)
        return boids_fail_key(BOIDS_E_EXPORT_SIZE, "size",
                              "%dx%d is outside 1..%d pixels a side on %s", width, height, (int)max,
                              (const char *)glGetString(GL_RENDERER));
    t->width = width;
    t->height = height;
    glGenRenderbuffers(1, &t->color);
    glBindRenderbuffer(GL_RENDERBUFFER, t->color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glGenRenderbuffers(1, &t->depth);
    glBindRenderbuffer(GL_RENDERBUFFER, t->depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glGenFramebuffers(1, &t->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, t->color);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, t->depth);
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        boids_target_destroy(t);
        return boids_fail(BOIDS_E_GL, "offscreen framebuffer %dx%d incomplete (0x%x)", width,
                          height, (unsigned)status);
    }
    return boids_gl_check("creating the offscreen framebuffer");
}

void boids_target_destroy(boids_target *t)
{
    if (t->fbo) glDeleteFramebuffers(1, &t->fbo);
    if (t->color) glDeleteRenderbuffers(1, &t->color);
    if (t->depth) glDeleteRenderbuffers(1, &t->depth);
    memset(t, 0, sizeof *t);
}

void boids_target_bind(const boids_target *t) { glBindFramebuffer(GL_FRAMEBUFFER, t->fbo); }

void boids_target_bind_window(void) { glBindFramebuffer(GL_FRAMEBUFFER, 0); }

void boids_target_read_window(void)
{
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
}
