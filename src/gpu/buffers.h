/* The small GL buffer moves every GPU file makes: create, clear, read, write, bind, and the
 * barrier between compute passes. The context must be current. */
#ifndef BOIDS_GPU_BUFFERS_H
#define BOIDS_GPU_BUFFERS_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/checks.h"
#include "gpu/gl.h"

/* Workgroups of `size` that cover n items. */
static inline uint32_t boids_gpu_groups(uint32_t n, uint32_t size) { return (n + size - 1) / size; }

/* A new buffer of `bytes` (at least 16: GL refuses empty storage buffers). Its contents are
 * undefined until written (a GPU hands out whatever was there; the check mode poisons them). */
static inline GLuint boids_gpu_buffer(GLenum target, size_t bytes)
{
    GLuint b;
    glGenBuffers(1, &b);
    glBindBuffer(target, b);
    glBufferData(target, (GLsizeiptr)(bytes ? bytes : 16), NULL, GL_DYNAMIC_DRAW);
    glBindBuffer(target, 0);
    boids_gpu_poison(b);
    return b;
}

/* Deletes the non-zero buffers of b[0..n) and zeroes them. */
static inline void boids_gpu_delete(GLuint *b, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (b[i]) glDeleteBuffers(1, &b[i]), b[i] = 0;
}

/* Every 32-bit word of the buffer to 0. */
static inline void boids_gpu_clear(GLuint buffer)
{
    const GLuint zero = 0;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

/* `bytes` of the buffer from `offset` (both multiples of 4) to 0. */
static inline void boids_gpu_clear_range(GLuint buffer, size_t offset, size_t bytes)
{
    const GLuint zero = 0;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, (GLintptr)offset, (GLsizeiptr)bytes,
                         GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

/* The first `bytes` of the buffer (a multiple of 4) to 0. */
static inline void boids_gpu_clear_head(GLuint buffer, size_t bytes)
{
    boids_gpu_clear_range(buffer, 0, bytes);
}

static inline void boids_gpu_read(GLuint buffer, size_t offset, size_t bytes, void *out)
{
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, (GLintptr)offset, (GLsizeiptr)bytes, out);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

/* The first `bytes` of the buffer, mapped for reading (NULL if the driver would not); the buffer
 * is used by no GL command until boids_gpu_unmap. A driver whose buffers live in host memory hands
 * out the memory itself: no copy. */
static inline const void *boids_gpu_map_read(GLuint buffer, size_t bytes)
{
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    const void *p =
        glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)bytes, GL_MAP_READ_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    return p;
}

static inline void boids_gpu_unmap(GLuint buffer)
{
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

static inline void boids_gpu_write(GLuint buffer, size_t offset, size_t bytes, const void *in)
{
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, (GLintptr)offset, (GLsizeiptr)bytes, in);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

/* *b becomes a buffer holding `bytes` of `data` (created if 0, its storage replaced). */
static inline void boids_gpu_upload(GLuint *b, const void *data, size_t bytes)
{
    if (!*b) glGenBuffers(1, b);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, *b);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(bytes ? bytes : 16), data, GL_STATIC_DRAW);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

static inline void boids_gpu_bind(GLuint binding, GLuint buffer)
{
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer);
}

/* Runs the current compute program over `groups` workgroups; `what` names the pass for the check
 * mode, which first checks that every block of the program has a buffer behind it. */
static inline void boids_gpu_dispatch(const char *what, uint32_t groups)
{
    boids_gpu_check_bindings(what);
    glDispatchCompute(groups, 1, 1);
}

/* What one compute pass wrote to storage buffers is visible to the next. */
static inline void boids_gpu_barrier(void) { glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT); }

#endif
