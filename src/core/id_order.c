#include "core/id_order.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"

/* 2^10 ids a block: the second pass writes each column's window of 4 KiB (in L1), and the first
 * keeps a thousand block streams going (in L2). Measured on a million boids against 2^9 to 2^16:
 * 2^9 falls off a cliff (too many streams), above 2^12 the windows leave L1. */
#define BLOCK_BITS 10
#define BLOCK (1u << BLOCK_BITS)
#define COLS BOIDS_SCATTER_COLUMNS

typedef struct entry {
    uint32_t id;
    uint32_t v[COLS];
} entry;

typedef struct scatter_job {
    uint32_t n, blocks;
    const uint32_t *ids;
    const uint32_t *const *src;
    const size_t *stride;
    uint32_t *dst[COLS]; /* NULL where src or dst is */
    entry *tmp;
    uint32_t *cursor;      /* [part][block]: the part's count, then where its next entry goes */
    uint32_t *block_start; /* blocks + 1: where each block's entries start in tmp */
    uint32_t *bad;         /* [part]: the first bad id the part found, UINT32_MAX if none */
} scatter_job;

static void count_part(void *ctx, uint32_t part, uint32_t parts)
{
    scatter_job *j = ctx;
    uint32_t *count = j->cursor + (size_t)part * j->blocks, begin, end;
    memset(count, 0, sizeof(uint32_t) * j->blocks);
    boids_pool_part_range(j->n, part, parts, &begin, &end);
    for (uint32_t k = begin; k < end; ++k) {
        const uint32_t id = j->ids[k];
        if (id < j->n)
            ++count[id >> BLOCK_BITS];
        else if (j->bad[part] == UINT32_MAX)
            j->bad[part] = id;
    }
}

/* Each part's counts become its cursors: a block's entries, part after part, so the order within
 * a block does not depend on the thread count (nor, then, does anything). */
static void place_parts(scatter_job *j, uint32_t parts)
{
    uint32_t run = 0;
    for (uint32_t b = 0; b < j->blocks; ++b) {
        j->block_start[b] = run;
        for (uint32_t p = 0; p < parts; ++p) {
            uint32_t *c = &j->cursor[(size_t)p * j->blocks + b], m = *c;
            *c = run;
            run += m;
        }
    }
    j->block_start[j->blocks] = run;
}

/* Pass 1: the part's entries grouped by block of ids, each block's stream written in order. A
 * column not wanted reads a zero word in place (no branch in the loop). */
static void group_part(void *ctx, uint32_t part, uint32_t parts)
{
    static const uint32_t zero = 0;
    const scatter_job *j = ctx;
    const uint32_t *src[COLS];
    size_t stride[COLS];
    for (int c = 0; c < COLS; ++c) {
        src[c] = j->dst[c] ? j->src[c] : &zero;
        stride[c] = j->dst[c] ? j->stride[c] : 0;
    }
    const uint32_t *restrict ids = j->ids;
    entry *restrict tmp = j->tmp;
    uint32_t *restrict cursor = j->cursor + (size_t)part * j->blocks, begin, end;
    boids_pool_part_range(j->n, part, parts, &begin, &end);
    for (uint32_t k = begin; k < end; ++k) {
        const uint32_t id = ids[k];
        entry *e = &tmp[cursor[id >> BLOCK_BITS]++];
        e->id = id;
        for (int c = 0; c < COLS; ++c) e->v[c] = src[c][k * stride[c]];
    }
}

/* Pass 2: the part's blocks, each block's writes within its window, and each id of a block seen
 * once (a bit each). */
static void write_part(void *ctx, uint32_t part, uint32_t parts)
{
    scatter_job *j = ctx;
    uint32_t *dst[COLS], b0, b1, bad = UINT32_MAX;
    memcpy(dst, j->dst, sizeof dst);
    boids_pool_part_range(j->blocks, part, parts, &b0, &b1);
    for (uint32_t b = b0; b < b1; ++b) {
        uint64_t seen[BLOCK / 64] = {0};
        const entry *first = j->tmp + j->block_start[b], *last = j->tmp + j->block_start[b + 1];
        for (const entry *e = first; e < last; ++e) {
            const uint32_t id = e->id, i = id & (BLOCK - 1);
            if ((seen[i / 64] >> (i % 64)) & 1u) {
                bad = bad == UINT32_MAX ? id : bad;
                continue;
            }
            seen[i / 64] |= (uint64_t)1 << (i % 64);
            for (int c = 0; c < COLS; ++c)
                if (dst[c]) dst[c][id] = e->v[c];
        }
    }
    if (j->bad[part] == UINT32_MAX) j->bad[part] = bad;
}

/* The passes, on the pool or the caller; only the first when it found an id out of range. */
static void run_passes(scatter_job *j, boids_pool *pool, uint32_t parts)
{
    boids_pool_run_parts(pool, count_part, j, j->n);
    for (uint32_t p = 0; p < parts; ++p)
        if (j->bad[p] != UINT32_MAX) return;
    place_parts(j, parts);
    boids_pool_run_parts(pool, group_part, j, j->n);
    boids_pool_run_parts(pool, write_part, j, j->n);
}

boids_status boids_scatter_by_id(uint32_t n, const uint32_t *ids, const uint32_t *const src[COLS],
                                 const size_t stride[COLS], uint32_t *const dst[COLS],
                                 boids_pool *pool, uint32_t *bad_id)
{
    const uint32_t parts = (uint32_t)boids_pool_threads(pool);
    scatter_job j = {
        .n = n, .blocks = (n >> BLOCK_BITS) + 1, .ids = ids, .src = src, .stride = stride};
    for (int c = 0; c < COLS; ++c) j.dst[c] = src[c] ? dst[c] : NULL;
    j.tmp = malloc(sizeof *j.tmp * (n ? n : 1));
    j.cursor = malloc(sizeof(uint32_t) * j.blocks * parts);
    j.block_start = malloc(sizeof(uint32_t) * (j.blocks + 1));
    j.bad = malloc(sizeof(uint32_t) * parts);
    boids_status st = BOIDS_OK;
    *bad_id = UINT32_MAX;
    if (!j.tmp || !j.cursor || !j.block_start || !j.bad) {
        st = boids_fail(BOIDS_E_NO_MEMORY, "out of memory reading %u boids", n);
    } else {
        for (uint32_t p = 0; p < parts; ++p) j.bad[p] = UINT32_MAX;
        run_passes(&j, pool, parts);
        for (uint32_t p = 0; p < parts && *bad_id == UINT32_MAX; ++p) *bad_id = j.bad[p];
    }
    free(j.tmp);
    free(j.cursor);
    free(j.block_start);
    free(j.bad);
    return st;
}
