#include "core/id_order.h"

#include <stdlib.h>

#include "base/error.h"

/* 2^13 ids a block: four columns' windows of 32 KiB each stay in L2 while a block is written. */
#define BLOCK_BITS 13

typedef struct entry {
    uint32_t id;
    float v[4];
} entry;

boids_status boids_scatter_by_id(uint32_t n, const uint32_t *ids, const float *const src[4],
                                 size_t stride, float *const dst[4])
{
    const uint32_t blocks = (n >> BLOCK_BITS) + 1;
    uint32_t *start = calloc(blocks + 1, sizeof *start);
    entry *tmp = malloc(sizeof *tmp * (n ? n : 1));
    if (!start || !tmp) {
        free(start);
        free(tmp);
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory reading %u boids", n);
    }
    /* Pass 1: the entries grouped by block of ids (a counting sort), each block's stream written
     * in order. */
    for (uint32_t k = 0; k < n; ++k) ++start[(ids[k] >> BLOCK_BITS) + 1];
    for (uint32_t b = 0; b < blocks; ++b) start[b + 1] += start[b];
    for (uint32_t k = 0; k < n; ++k) {
        entry *e = &tmp[start[ids[k] >> BLOCK_BITS]++];
        e->id = ids[k];
        for (int c = 0; c < 4; ++c) e->v[c] = src[c][k * stride];
    }
    /* Pass 2: each block's writes land within its window (one read of the entries when every
     * column is wanted). */
    if (dst[0] && dst[1] && dst[2] && dst[3]) {
        for (uint32_t j = 0; j < n; ++j) {
            const entry *e = &tmp[j];
            dst[0][e->id] = e->v[0], dst[1][e->id] = e->v[1];
            dst[2][e->id] = e->v[2], dst[3][e->id] = e->v[3];
        }
    } else {
        for (int c = 0; c < 4; ++c)
            if (dst[c])
                for (uint32_t j = 0; j < n; ++j) dst[c][tmp[j].id] = tmp[j].v[c];
    }
    free(start);
    free(tmp);
    return BOIDS_OK;
}
