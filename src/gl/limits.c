#include "gl/limits.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/environment.h"
#include "base/error.h"
#include "base/parse.h"

/* An environment variable's whole number (above 0), lowering *limit; unset leaves it. */
static boids_status lower_by(const char *name, uint64_t *limit, bool *lowered)
{
    uint64_t x = 0;
    bool set = false;
    boids_status st = boids_env_whole(name, 1, &x, &set);
    if (set && x < *limit) *limit = x, *lowered = true;
    return st;
}

boids_status boids_gpu_limits_query(boids_gpu_limits *out)
{
    memset(out, 0, sizeof *out);
    GLint64 block = 0;
    GLint gx = 0, gy = 0, tx = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &tx);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &gx);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 1, &gy);
    /* a query that gives nothing: OpenGL 4.3's minimums */
    uint64_t b = block > 0 ? (uint64_t)block : (uint64_t)1 << 27, x = gx > 0 ? (uint64_t)gx : 65535;
    uint64_t t = tx > 0 ? (uint64_t)tx : 65536;
    out->groups_y = gy > 0 ? (uint32_t)gy : 65535u;
    boids_status st = lower_by("BOIDS_GPU_LIMIT_BLOCK_BYTES", &b, &out->lowered);
    if (st == BOIDS_OK) st = lower_by("BOIDS_GPU_LIMIT_GROUPS_X", &x, &out->lowered);
    if (st == BOIDS_OK) st = lower_by("BOIDS_GPU_LIMIT_TEXELS", &t, &out->lowered);
    out->block_bytes = b;
    out->texels = t;
    out->groups_x = x > UINT32_MAX ? UINT32_MAX : (uint32_t)x;
    return st;
}

boids_status boids_gpu_limits_check(const boids_gpu_limits *l, const char *renderer,
                                    const boids_gpu_need *needs, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        const boids_gpu_need *d = &needs[i];
        const uint64_t bytes = d->base + d->unit * d->count;
        if (bytes <= l->block_bytes) continue;
        const uint64_t fit = l->block_bytes > d->base ? (l->block_bytes - d->base) / d->unit : 0;
        return boids_fail(BOIDS_E_GPU_LIMIT,
                          "%" PRIu64 " %ss: %s need %" PRIu64 " bytes in one storage buffer, "
                          "more than %s allows (GL_MAX_SHADER_STORAGE_BLOCK_SIZE %" PRIu64
                          " bytes%s): at most %" PRIu64 " %ss on this driver; the CPU backend "
                          "(--backend cpu) is bound only by memory",
                          d->count, d->per, d->what, bytes, renderer, l->block_bytes,
                          l->lowered ? ", lowered by BOIDS_GPU_LIMIT_BLOCK_BYTES" : "", fit,
                          d->per);
    }
    return BOIDS_OK;
}

boids_status boids_gpu_limits_check_texels(const boids_gpu_limits *l, const char *renderer,
                                           uint64_t count)
{
    if (count <= l->texels) return BOIDS_OK;
    return boids_fail(
        BOIDS_E_GPU_LIMIT,
        "%" PRIu64 " boids: the neighbour walks read them through a buffer texture, "
        "which shows at most %" PRIu64 " texels on %s (GL_MAX_TEXTURE_BUFFER_SIZE%s): "
        "at most %" PRIu64 " boids on this driver; the CPU backend (--backend cpu) is "
        "bound only by memory",
        count, l->texels, renderer, l->lowered ? ", lowered by BOIDS_GPU_LIMIT_TEXELS" : "",
        l->texels);
}
