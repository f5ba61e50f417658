/* The small GL buffer moves every GPU file makes: create, clear, read, write, bind, and the
 * barrier between compute passes. The context must be current.
 *
 * Ordering, by the letter of the spec: a shader's writes reach a clear, an upload, a read or a map
 * of the same buffer only after glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT), and each of those
 * moves here issues it first (a GPU runs passes ahead; llvmpipe would forgive its absence). */
#ifndef BOIDS_GPU_BUFFERS_H
#define BOIDS_GPU_BUFFERS_H

#include <stddef.h>
#include <stdint.h>

#include "gl/checks.h"
#include "gl/context.h"
#include "boids_shared.h"
#include "gl/gl.h"

/* Workgroups of `size` that cover n items. */
static inline uint32_t boids_gpu_groups(uint32_t n, uint32_t size) { return (n + size - 1) / size; }

/* A new buffer of `bytes` (at least 16: GL refuses empty storage buffers), meant to stay in the
 * device's memory: immutable storage that only GL commands touch (glBufferStorage with
 * GL_DYNAMIC_STORAGE_BIT alone, for uploads; never mapped, so no driver moves it to the host's
 * memory), or, on a driver without ARB_buffer_storage (core in 4.4), DYNAMIC_COPY (written and read
 * by GL). The host reads such buffers through a copy (boids_gpu_staging). Its contents are
 * undefined until written (a GPU hands out whatever was there; the check mode poisons them). */
static inline GLuint boids_gpu_buffer(GLenum target, size_t bytes)
{
    GLuint b;
    glGenBuffers(1, &b);
    glBindBuffer(target, b);
    const GLsizeiptr size = (GLsizeiptr)(bytes ? bytes : 16);
    if (GLAD_GL_ARB_buffer_storage)
        glBufferStorage(target, size, NULL, GL_DYNAMIC_STORAGE_BIT);
    else
        glBufferData(target, size, NULL, GL_DYNAMIC_COPY);
    glBindBuffer(target, 0);
    boids_gpu_poison(b);
    return b;
}

/* A host-side buffer of `bytes` for reading the device's buffers back: copies go in
 * (glCopyBufferSubData), the host maps it for reading. */
static inline GLuint boids_gpu_staging(size_t bytes)
{
    GLuint b;
    glGenBuffers(1, &b);
    glBindBuffer(GL_COPY_WRITE_BUFFER, b);
    const GLsizeiptr size = (GLsizeiptr)(bytes ? bytes : 16);
    if (GLAD_GL_ARB_buffer_storage)
        glBufferStorage(GL_COPY_WRITE_BUFFER, size, NULL, GL_MAP_READ_BIT | GL_CLIENT_STORAGE_BIT);
    else
        glBufferData(GL_COPY_WRITE_BUFFER, size, NULL, GL_STREAM_READ);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    return b;
}

/* `bytes` of src from src_offset into dst at dst_offset, on the device. */
static inline void boids_gpu_copy(GLuint src, size_t src_offset, GLuint dst, size_t dst_offset,
                                  size_t bytes)
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    boids_gpu_commands.barriers++, boids_gpu_commands.copies++;
    glBindBuffer(GL_COPY_READ_BUFFER, src);
    glBindBuffer(GL_COPY_WRITE_BUFFER, dst);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, (GLintptr)src_offset,
                        (GLintptr)dst_offset, (GLsizeiptr)bytes);
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
}

/* The sizes of the buffers b[0..n) added up. */
static inline uint64_t boids_gpu_buffers_bytes(const GLuint *b, size_t n)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; ++i) sum += boids_gpu_buffer_bytes(b[i]);
    return sum;
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
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    boids_gpu_commands.barriers++, boids_gpu_commands.clears++;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

/* `bytes` of the buffer from `offset` (both multiples of 4) to 0. */
static inline void boids_gpu_clear_range(GLuint buffer, size_t offset, size_t bytes)
{
    const GLuint zero = 0;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    boids_gpu_commands.barriers++, boids_gpu_commands.clears++;
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
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, (GLintptr)offset, (GLsizeiptr)bytes, out);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

/* The first `bytes` of a staging buffer (boids_gpu_staging), mapped for reading (NULL if the
 * driver would not); the buffer is used by no GL command until boids_gpu_unmap. */
static inline const void *boids_gpu_map_read(GLuint buffer, size_t bytes)
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
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
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
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

_Static_assert(BOIDS_TEX_UNITS <= BOIDS_GL_TEXEL_VIEWS, "a texture unit without its view");

/* The buffer at a storage binding; the three blocks whose slots the neighbour walks read are
 * also read as buffer textures (BOIDS_TEX_*, boids_shared.h says why), pointed here too. */
static inline void boids_gpu_bind(GLuint binding, GLuint buffer)
{
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer);
    if (binding == BOIDS_BIND_POS_VEL_IN)
        boids_gl_texel_view(BOIDS_TEX_POS_VEL_IN, GL_RGBA32F, buffer);
    else if (binding == BOIDS_BIND_POS_VEL_Z_IN)
        boids_gl_texel_view(BOIDS_TEX_POS_VEL_Z_IN, GL_RG32F, buffer);
    else if (binding == BOIDS_BIND_SWARM_IN)
        boids_gl_texel_view(BOIDS_TEX_SWARM_IN, GL_R32UI, buffer);
}

/* Runs the current compute program over `groups` workgroups; `what` names the pass for the check
 * mode, which first checks that every block of the program has a buffer behind it. Past the
 * driver's limit along x the groups go on in rows along y, as even as they can be (shaders number
 * them with BOIDS_GROUP_INDEX and leave the last row's extra items alone). */
static inline void boids_gpu_dispatch(const char *what, uint32_t groups)
{
    boids_gpu_check_bindings(what);
    boids_gpu_commands.dispatches++;
    const uint32_t x_max = boids_gl_dispatch_groups_x();
    if (groups <= x_max) {
        glDispatchCompute(groups, 1, 1);
        return;
    }
    const uint32_t rows = (groups + x_max - 1) / x_max;
    glDispatchCompute((groups + rows - 1) / rows, rows, 1);
}

/* What one compute pass wrote to storage buffers is visible to the next. */
static inline void boids_gpu_barrier(void)
{
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    boids_gpu_commands.barriers++;
}

#endif
