#include "cpu/grid.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/thread_pool.h"
#include "cpu/avx512.h"
#include "rules/simd.h"
#if BOIDS_CPU_AVX512
#include <immintrin.h>
#endif

boids_status boids_cpu_grid_init(boids_cpu_grid *g, const boids_grid_dims *dims, uint32_t capacity,
                                 uint32_t parts)
{
    memset(g, 0, sizeof *g);
    g->dims = *dims;
    g->cells = boids_grid_cells(dims);
    g->capacity = capacity;
    g->parts = parts ? parts : 1;
    size_t n = capacity ? capacity : 1;
    g->part_count = malloc(sizeof(uint32_t) * (g->cells + 1u) * g->parts);
    g->cell_start = calloc(g->cells + 2u + BOIDS_CPU_GRID_PAD, sizeof(uint32_t));
    g->cell_of = malloc(sizeof(uint32_t) * n);
    g->order = malloc(sizeof(uint32_t) * n);
    g->slot_cell = calloc(n + BOIDS_CPU_GRID_PAD, sizeof(uint32_t));
    g->src = malloc(sizeof(uint32_t) * n);
    if (!g->part_count || !g->cell_start || !g->cell_of || !g->order || !g->slot_cell || !g->src) {
        boids_cpu_grid_free(g);
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for a grid of %u cells", g->cells);
    }
    return BOIDS_OK;
}

boids_status boids_cpu_grid_track_blocks(boids_cpu_grid *g)
{
    if (!g->block_any && !(g->block_any = calloc(g->cells, 1)))
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for a grid of %u cells", g->cells);
    return BOIDS_OK;
}

void boids_cpu_grid_free(boids_cpu_grid *g)
{
    free(g->block_any);
    free(g->part_count);
    free(g->cell_start);
    free(g->cell_of);
    free(g->order);
    free(g->slot_cell);
    free(g->src);
    memset(g, 0, sizeof *g);
}

/* Part p's histogram, then its cursors: cells + 1 words. */
static uint32_t *part_counts(const boids_cpu_grid *g, uint32_t p)
{
    return g->part_count + (size_t)p * (g->cells + 1u);
}

/* The count of entries [begin, end): the cells into cell_of, their runs into count. `flat` and
 * `plain` (one replica and no graveyard: the ids are not read) are constants where this is
 * inlined, so the loop has no test of them; the dimensions are a copy, which the stores cannot
 * change (read through the grid, each was loaded again for every boid). */
static inline void count_range(const boids_grid_dims dims, uint32_t cells,
                               uint32_t *restrict cell_of, uint32_t *restrict count, const float *x,
                               const float *y, const float *z, const uint32_t *ids,
                               uint32_t per_replica, bool one_replica, const uint8_t *dead,
                               uint32_t begin, uint32_t end, const bool flat, const bool plain)
{
    /* The entries come nearly in cell order (the last step's), so most follow one of their own
     * cell: their run is counted in a register and added once, where count[c]++ for each would
     * wait on the store before it. */
    uint32_t run_cell = 0, run = 0;
    for (uint32_t k = begin; k < end; ++k) {
        uint32_t c;
        if (plain) {
            c = boids_cell_of(&dims, 0, x[k], y[k], flat ? 0.0f : z[k]);
        } else {
            const uint32_t id = ids ? ids[k] : k;
            const uint32_t replica = one_replica ? 0 : id / per_replica;
            c = dead && dead[id] ? cells
                                 : boids_cell_of(&dims, replica, x[k], y[k], flat ? 0.0f : z[k]);
        }
        cell_of[k] = c;
        if (c != run_cell) count[run_cell] += run, run_cell = c, run = 0;
        ++run;
    }
    count[run_cell] += run;
}

#if BOIDS_CPU_AVX512
/* The length of the run in a[k, end) from k on, at most 16: the words a[k + i] = a[k] + i step
 * (step 0: one cell's entries; 1: consecutive entries). One compare: the passes below go run by
 * run with no branch on where a run ends, which a scalar loop mispredicts about once a run. */
BOIDS_V4 static inline uint32_t run_at(const uint32_t *a, uint32_t k, uint32_t end, const bool step)
{
    const __mmask16 in = end - k >= 16 ? 0xffff : (__mmask16)((1u << (end - k)) - 1u);
    const __m512i lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i first = _mm512_set1_epi32((int)a[k]);
    const __mmask16 same = _mm512_mask_cmpeq_epi32_mask(
        in, _mm512_maskz_loadu_epi32(in, a + k), step ? _mm512_add_epi32(first, lane) : first);
    return (uint32_t)__builtin_ctz(~(uint32_t)same); /* (lane 0 is in the run: at least 1) */
}

/* count[c] of the cells c in cell_of[begin, end), run by run (as count_range counts them). */
BOIDS_V4 static void count_avx512(const uint32_t *cell_of, uint32_t *count, uint32_t begin,
                                  uint32_t end)
{
    for (uint32_t e = begin; e < end;) {
        const uint32_t r = run_at(cell_of, e, end, false);
        count[cell_of[e]] += r;
        e += r;
    }
}

bool boids_cpu_count_avx512_on = true;

/* An axis's cell of 16 positions, as boids_fine_coord on a grid that is not folded along it: 0
 * below 0 (and for NaN, whose compare fails), fine - 1 from fine on, else the truncation. */
BOIDS_V4 static inline __m512i fine_coords(__m512 p, float inv, uint32_t fine)
{
    const __m512 c = _mm512_mul_ps(p, _mm512_set1_ps(inv));
    const __mmask16 at_least_0 = _mm512_cmp_ps_mask(c, _mm512_setzero_ps(), _CMP_GE_OQ);
    const __mmask16 below_fine = _mm512_cmp_ps_mask(c, _mm512_set1_ps((float)fine), _CMP_LT_OQ);
    const __m512i last = _mm512_set1_epi32((int)(fine - 1));
    /* (a lane at or past fine, or below 0, converts to anything: its mask replaces it) */
    const __m512i i = _mm512_min_epu32(_mm512_cvttps_epu32(c), last);
    return _mm512_maskz_mov_epi32(at_least_0, _mm512_mask_mov_epi32(last, below_fine, i));
}

/* The cells of entries [begin, end) of a flat world of one replica and no graveyard, not folded:
 * boids_cell_of's, 16 entries at a time. */
BOIDS_V4 static void cells_avx512(const boids_grid_dims *d, uint32_t *restrict cell_of,
                                  const float *x, const float *y, uint32_t begin, uint32_t end)
{
    const __m512i w = _mm512_set1_epi32((int)d->w);
    for (uint32_t k = begin; k < end; k += 16) {
        const __mmask16 in = end - k >= 16 ? 0xffff : (__mmask16)((1u << (end - k)) - 1u);
        const __m512i cx = fine_coords(_mm512_maskz_loadu_ps(in, x + k), d->inv_cell_w, d->w);
        const __m512i cy = fine_coords(_mm512_maskz_loadu_ps(in, y + k), d->inv_cell_h, d->h);
        _mm512_mask_storeu_epi32(cell_of + k, in, _mm512_add_epi32(_mm512_mullo_epi32(cy, w), cx));
    }
}
#endif

bool boids_cpu_count_lanes_on = true;

/* An axis's cells of BOIDS_LANES positions, as boids_fine_coord on a grid that is not folded
 * along it: 0 below 0 (and for NaN, whose compare fails), fine - 1 from fine on, else the
 * truncation (a lane out of range converts to anything: the selects replace it). */
BOIDS_VINLINE boids_vi fine_coords_lanes(boids_vf p, float inv, uint32_t fine)
{
    const boids_vf c = p * boids_vf_all(inv);
    const boids_vi last = (boids_vi)boids_vu_all(fine - 1);
    boids_vi i = __builtin_convertvector(c, boids_vi);
    i = (boids_vi)boids_vselect(i < last, (boids_vf)i, (boids_vf)last);
    i = (boids_vi)boids_vselect(c < boids_vf_all((float)fine), (boids_vf)i, (boids_vf)last);
    return i & (c >= boids_vf_all(0.0f));
}

/* The cells of entries [begin, end) of a flat world of one replica and no graveyard, not folded
 * (boids_cell_of's), BOIDS_LANES entries at a time; then their runs counted as count_range
 * counts them. */
BOIDS_SIMD_CLONES static void count_lanes(const boids_grid_dims *d, uint32_t *restrict cell_of,
                                          uint32_t *restrict count, const float *x, const float *y,
                                          uint32_t begin, uint32_t end)
{
    const boids_vi w = (boids_vi)boids_vu_all(d->w);
    for (uint32_t k = begin; k < end; k += BOIDS_LANES) {
        const uint32_t n = end - k < BOIDS_LANES ? end - k : BOIDS_LANES;
        const boids_vi cx = fine_coords_lanes(boids_vf_load(x + k, n, 0.0f), d->inv_cell_w, d->w);
        const boids_vi cy = fine_coords_lanes(boids_vf_load(y + k, n, 0.0f), d->inv_cell_h, d->h);
        const boids_vf c = (boids_vf)(cy * w + cx);
        boids_vf_store((float *)cell_of + k, n, c);
    }
    uint32_t run_cell = 0, run = 0;
    for (uint32_t k = begin; k < end; ++k) {
        const uint32_t c = cell_of[k];
        if (c != run_cell) count[run_cell] += run, run_cell = c, run = 0;
        ++run;
    }
    count[run_cell] += run;
}

void boids_cpu_grid_count(boids_cpu_grid *g, uint32_t part, const float *x, const float *y,
                          const float *z, const uint32_t *ids, uint32_t n, uint32_t per_replica,
                          const uint8_t *dead)
{
    uint32_t *count = part_counts(g, part), begin, end;
    memset(count, 0, sizeof(uint32_t) * (g->cells + 1u));
    if (per_replica == 0) per_replica = 1;
    boids_pool_part_range(n, part, g->parts, &begin, &end);
    /* one replica needs no division for its index; ids matter only to find it or the dead */
    const bool one_replica = per_replica >= n, plain = one_replica && !dead;
    const boids_grid_dims d = g->dims;
#if BOIDS_CPU_AVX512
    if (plain && !z && d.d == 1 && d.fine_w == d.w && d.fine_h == d.h &&
        boids_cpu_count_avx512_on && boids_cpu_has_avx512()) {
        cells_avx512(&d, g->cell_of, x, y, begin, end);
        count_avx512(g->cell_of, count, begin, end);
        return;
    }
#endif
    if (plain && !z && d.d == 1 && d.fine_w == d.w && d.fine_h == d.h && boids_cpu_count_lanes_on) {
        count_lanes(&d, g->cell_of, count, x, y, begin, end);
        return;
    }
    if (plain && !z && d.d == 1)
        count_range(d, g->cells, g->cell_of, count, x, y, z, ids, per_replica, one_replica, dead,
                    begin, end, true, true);
    else
        count_range(d, g->cells, g->cell_of, count, x, y, z, ids, per_replica, one_replica, dead,
                    begin, end, !z, false);
}

#if BOIDS_CPU_AVX512
bool boids_cpu_scan_avx512_on = true;

/* boids_cpu_grid_scan 16 cells at a time: their boids (the parts' counts added), the inclusive
 * prefix sum of those in the vector (four shifts and adds), then each part's cursors. A scalar
 * loop carried the sum from cell to cell, a few cycles each, on one thread while the others
 * waited: a fortieth of a step of 100 000 boids on two. */
BOIDS_V4 static void scan_avx512(boids_cpu_grid *g)
{
    const uint32_t n = g->cells + 1u; /* (the graveyard's count too) */
    const __m512i zero = _mm512_setzero_si512(), last = _mm512_set1_epi32(15);
    __m512i before = zero; /* the boids of the cells before, in every lane */
    for (uint32_t c = 0; c < n; c += 16) {
        const __mmask16 in = n - c >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - c)) - 1u);
        __m512i here = zero;
        for (uint32_t p = 0; p < g->parts; ++p)
            here = _mm512_add_epi32(here, _mm512_maskz_loadu_epi32(in, part_counts(g, p) + c));
        __m512i upto = here; /* lane i: cells c .. c + i */
        upto = _mm512_add_epi32(upto, _mm512_alignr_epi32(upto, zero, 15));
        upto = _mm512_add_epi32(upto, _mm512_alignr_epi32(upto, zero, 14));
        upto = _mm512_add_epi32(upto, _mm512_alignr_epi32(upto, zero, 12));
        upto = _mm512_add_epi32(upto, _mm512_alignr_epi32(upto, zero, 8));
        __m512i cursor = _mm512_add_epi32(before, _mm512_sub_epi32(upto, here));
        _mm512_mask_storeu_epi32(g->cell_start + c, in, cursor);
        for (uint32_t p = 0; p < g->parts; ++p) { /* each part's count becomes its cursor */
            uint32_t *count = part_counts(g, p) + c;
            const __m512i m = _mm512_maskz_loadu_epi32(in, count);
            _mm512_mask_storeu_epi32(count, in, cursor);
            cursor = _mm512_add_epi32(cursor, m);
        }
        before = _mm512_add_epi32(before, _mm512_permutexvar_epi32(last, upto));
    }
    g->cell_start[n] = (uint32_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(before));
}
#endif

void boids_cpu_grid_scan(boids_cpu_grid *g)
{
#if BOIDS_CPU_AVX512
    if (boids_cpu_scan_avx512_on && boids_cpu_has_avx512()) {
        scan_avx512(g);
        return;
    }
#endif
    uint32_t sum = 0;
    for (uint32_t c = 0; c <= g->cells; ++c) {
        g->cell_start[c] = sum;
        uint32_t in_cell = 0;
        for (uint32_t p = 0; p < g->parts; ++p) { /* each part's count becomes its cursor */
            uint32_t *count = part_counts(g, p) + c, m = *count;
            *count = sum + in_cell;
            in_cell += m;
        }
        sum += in_cell;
    }
    g->cell_start[g->cells + 1] = sum;
}

#if BOIDS_CPU_AVX512
bool boids_cpu_scatter_avx512_on = true;

/* boids_cpu_grid_scatter's entries [begin, end) a run of one cell at a time: three masked stores
 * write its consecutive slots. */
BOIDS_V4 static void scatter_avx512(boids_cpu_grid *g, uint32_t *cursor, const uint32_t *ids,
                                    uint32_t begin, uint32_t end)
{
    const __m512i lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    for (uint32_t e = begin; e < end;) {
        const uint32_t c = g->cell_of[e], r = run_at(g->cell_of, e, end, false), k = cursor[c];
        const __mmask16 run = (__mmask16)((1u << r) - 1u);
        const __m512i entries = _mm512_add_epi32(_mm512_set1_epi32((int)e), lane);
        _mm512_mask_storeu_epi32(g->order + k, run,
                                 ids ? _mm512_maskz_loadu_epi32(run, ids + e) : entries);
        _mm512_mask_storeu_epi32(g->src + k, run, entries);
        _mm512_mask_storeu_epi32(g->slot_cell + k, run, _mm512_set1_epi32((int)c));
        cursor[c] = k + r;
        e += r;
    }
}
#endif

void boids_cpu_grid_scatter(boids_cpu_grid *g, uint32_t part, const uint32_t *ids, uint32_t n)
{
    uint32_t *cursor = part_counts(g, part), begin, end;
    boids_pool_part_range(n, part, g->parts, &begin, &end);
#if BOIDS_CPU_AVX512
    if (boids_cpu_scatter_avx512_on && boids_cpu_has_avx512()) {
        scatter_avx512(g, cursor, ids, begin, end);
        return;
    }
#endif
    /* a run of one cell's entries (most are, as in the count) keeps its cursor in a register */
    uint32_t run_cell = UINT32_MAX, k = 0;
    for (uint32_t e = begin; e < end; ++e) {
        const uint32_t c = g->cell_of[e];
        if (c != run_cell) {
            if (run_cell != UINT32_MAX) cursor[run_cell] = k;
            run_cell = c, k = cursor[c];
        }
        g->order[k] = ids ? ids[e] : e;
        g->src[k] = e;
        g->slot_cell[k++] = c;
    }
    if (run_cell != UINT32_MAX) cursor[run_cell] = k;
}

void boids_cpu_grid_cell_span(const boids_cpu_grid *g, uint32_t begin, uint32_t end, uint32_t *from,
                              uint32_t *to)
{
    /* a cell that starts before begin belongs to the span before; one that starts before end and
     * runs on, to this one */
    const uint32_t *cell = g->slot_cell, *start = g->cell_start;
    *from = begin > 0 && cell[begin - 1] == cell[begin] ? start[cell[begin] + 1] : begin;
    *to = start[cell[end - 1] +
                1]; /* (from = to where one cell covers [begin, end) and began before) */
}

/* Slot k (whose id is below its predecessor's in the same cell) moved down past those of higher
 * id in its cell, as an insertion sort's step. */
static inline void sort_in(boids_cpu_grid *g, uint32_t from, uint32_t k)
{
    const uint32_t id = g->order[k], e = g->src[k], c = g->slot_cell[k];
    uint32_t j = k;
    for (; j > from && g->slot_cell[j - 1] == c && g->order[j - 1] > id; --j) {
        g->order[j] = g->order[j - 1];
        g->src[j] = g->src[j - 1];
    }
    g->order[j] = id;
    g->src[j] = e;
}

#if BOIDS_CPU_AVX512
bool boids_cpu_sort_avx512_on = true;

/* boids_cpu_grid_sort_cells' scan for the slots out of order, 16 slots a compare: most are in
 * order (the entries came in the last step's), and a scalar test of each was a branch per slot.
 * A slot out of order is sorted in at once, and the scan goes on from the slot after it (the
 * move changed the slots before, one of them that slot's predecessor). */
BOIDS_V4 static void sort_avx512(boids_cpu_grid *g, uint32_t from, uint32_t to)
{
    for (uint32_t k = from + 1; k < to;) {
        const __mmask16 in = to - k >= 16 ? 0xffff : (__mmask16)((1u << (to - k)) - 1u);
        const __m512i c = _mm512_maskz_loadu_epi32(in, g->slot_cell + k),
                      before_c = _mm512_maskz_loadu_epi32(in, g->slot_cell + k - 1),
                      id = _mm512_maskz_loadu_epi32(in, g->order + k),
                      before_id = _mm512_maskz_loadu_epi32(in, g->order + k - 1);
        const __mmask16 out_of_order = _mm512_mask_cmpgt_epu32_mask(
            _mm512_mask_cmpeq_epi32_mask(in, c, before_c), before_id, id);
        if (!out_of_order) {
            k += 16;
            continue;
        }
        k += (uint32_t)__builtin_ctz(out_of_order);
        sort_in(g, from, k++);
    }
}
#endif

void boids_cpu_grid_sort_cells(boids_cpu_grid *g, uint32_t from, uint32_t to)
{
#if BOIDS_CPU_AVX512
    if (boids_cpu_sort_avx512_on && boids_cpu_has_avx512()) {
        sort_avx512(g, from, to);
        return;
    }
#endif
    /* An insertion sort, over cells at once: a slot whose id is below its predecessor's in the
     * same cell moves down past those of higher id. Where the entries came in the last step's
     * order, few slots move, and not far. */
    for (uint32_t k = from + 1; k < to; ++k)
        if ((g->slot_cell[k - 1] == g->slot_cell[k]) & (g->order[k - 1] > g->order[k]))
            sort_in(g, from, k);
}

#if BOIDS_CPU_AVX512
bool boids_cpu_gather_avx512_on = true;

/* boids_cpu_grid_gather a run of consecutive entries at a time (most slots follow the entry
 * before theirs: the boids that stayed in their cell), each array's run one masked load and one
 * masked store. */
BOIDS_V4 static void gather_avx512(const boids_cpu_grid *g, uint32_t from, uint32_t to, uint32_t n,
                                   float *const dst[], const float *const src[])
{
    for (uint32_t k = from; k < to;) {
        const uint32_t e = g->src[k], r = run_at(g->src, k, to, true);
        const __mmask16 run = (__mmask16)((1u << r) - 1u);
        for (uint32_t a = 0; a < n; ++a)
            _mm512_mask_storeu_ps(dst[a] + k, run, _mm512_maskz_loadu_ps(run, src[a] + e));
        k += r;
    }
}
#endif

/* The scalar gather, n a constant where it is inlined. */
static inline void gather_slots(const boids_cpu_grid *g, uint32_t from, uint32_t to,
                                const uint32_t n, float *const dst[], const float *const src[])
{
    for (uint32_t k = from; k < to; ++k) {
        const uint32_t e = g->src[k];
        for (uint32_t a = 0; a < n; ++a) dst[a][k] = src[a][e];
    }
}

void boids_cpu_grid_gather(const boids_cpu_grid *g, uint32_t from, uint32_t to, uint32_t n,
                           float *const dst[], const float *const src[])
{
#if BOIDS_CPU_AVX512
    if (boids_cpu_gather_avx512_on && boids_cpu_has_avx512()) {
        gather_avx512(g, from, to, n, dst, src);
        return;
    }
#endif
    if (n == 4)
        gather_slots(g, from, to, 4, dst, src);
    else
        gather_slots(g, from, to, n, dst, src);
}

void boids_cpu_grid_build(boids_cpu_grid *g, const float *x, const float *y, const float *z,
                          uint32_t n, uint32_t per_replica, const uint8_t *dead)
{
    for (uint32_t p = 0; p < g->parts; ++p)
        boids_cpu_grid_count(g, p, x, y, z, NULL, n, per_replica, dead);
    boids_cpu_grid_scan(g);
    for (uint32_t p = 0; p < g->parts; ++p)
        boids_cpu_grid_scatter(g, p, NULL, n); /* ids ascend: sorted */
    if (g->block_any) boids_grid_mark_blocks(&g->dims, g->cell_start, g->cells, g->block_any);
}
