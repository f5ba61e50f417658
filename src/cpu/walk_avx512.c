/* The Reynolds walk of a lane group (walk_reynolds.c's walk_lanes) in AVX-512's own terms, for the
 * processors that have it. GCC's vector extensions say a mask as a vector of -1s and 0s, so there
 * every masked term is an AND then an add, and each compare on AVX-512's upper registers takes a
 * copy first (the compares into vectors have no encoding for them): 43 instructions a candidate.
 * Here the compares write mask registers, a compare under a mask is the AND, and a masked add
 * leaves a lane's sum untouched where walk_lanes adds +0: 24 instructions a candidate (GCC 12,
 * one flock, flat).
 *
 * The bits are walk_lanes': the same operations in the same order, lane by lane. A masked-out
 * lane keeps its sum where walk_lanes adds (or subtracts) +0.0, which changes no bit of a sum that
 * is never -0.0, and these never are: they start at +0.0, and in round-to-nearest a sum or a
 * difference is -0.0 only where its first operand already is. test_avx512 holds the two walks
 * equal, test_agreement both against the GPU's walk (the sanitizers' build, where no instruction
 * set is chosen at run time, runs walk_lanes).
 * Adams' box walks walk_lanes everywhere (one model, and the compares of its box in a vector). */
#include "cpu/walk_avx512.h"

#if BOIDS_CPU_AVX512
#include <immintrin.h>

bool boids_cpu_walk_avx512_on = true;

/* walk_lanes' boids_vmin_image: b - a, less the size above half of it, plus it below -half. */
BOIDS_V4_INLINE __m256 min_image(__m256 a, __m256 b, __m256 size, __m256 half, __m256 neg_half)
{
    const __m256 d = _mm256_sub_ps(b, a);
    const __mmask8 above = _mm256_cmp_ps_mask(d, half, _CMP_GT_OQ);
    const __mmask8 below = _mm256_cmp_ps_mask(d, neg_half, _CMP_LT_OQ);
    const __m256 r = _mm256_mask_add_ps(d, below, d, size);
    return _mm256_mask_sub_ps(r, above, d, size);
}

/* One axis of the offsets to candidate value c: plain where the group is unwrapped. */
BOIDS_V4_INLINE __m256 axis_offset(__m256 origin, float c, const bool unwrapped, __m256 size,
                                   __m256 half, __m256 neg_half)
{
    const __m256 b = _mm256_set1_ps(c);
    return unwrapped ? _mm256_sub_ps(b, origin) : min_image(origin, b, size, half, neg_half);
}

/* Where the group's lanes stand, the world's sizes (and half of each, both signs), and the
 * candidates' positions: as cpu/steer.h's boids_lane_origin. */
typedef struct origin {
    __m256 x, y, z, w, h, d, hw, hh, hd, nhw, nhh, nhd;
    const float *cx, *cy, *cz;
} origin;
/* A part's shifts (boids_cpu_group's `shifted`), each added to its axis' offsets in the lanes
 * of its mask, where it is not 0: d + shift is the bits of the minimum image's d -+ size. */
typedef struct part_shift {
    __m256 x, y, z;
    __mmask8 on_x, on_y, on_z;
} part_shift;
/* The offsets from the lanes to candidate k and their squared length, added as
 * boids_lane_offset_to adds them (`shifting`: sh's shifts added, to plain offsets). */
typedef struct offsets {
    __m256 dx, dy, dz, d2;
} offsets;
BOIDS_V4_INLINE offsets offsets_to(const origin *o, uint32_t k, const bool unwrapped,
                                   const part_shift *sh, const bool shifting, const bool three)
{
    offsets r;
    r.dx = axis_offset(o->x, o->cx[k], unwrapped, o->w, o->hw, o->nhw);
    r.dy = axis_offset(o->y, o->cy[k], unwrapped, o->h, o->hh, o->nhh);
    if (shifting) {
        r.dx = _mm256_mask_add_ps(r.dx, sh->on_x, r.dx, sh->x);
        r.dy = _mm256_mask_add_ps(r.dy, sh->on_y, r.dy, sh->y);
    }
    if (three) {
        r.dz = axis_offset(o->z, o->cz[k], unwrapped, o->d, o->hd, o->nhd);
        if (shifting) r.dz = _mm256_mask_add_ps(r.dz, sh->on_z, r.dz, sh->z);
        r.d2 = _mm256_add_ps(_mm256_mul_ps(r.dx, r.dx),
                             _mm256_add_ps(_mm256_mul_ps(r.dy, r.dy), _mm256_mul_ps(r.dz, r.dz)));
    } else {
        r.dz = _mm256_setzero_ps();
        r.d2 = _mm256_add_ps(_mm256_mul_ps(r.dx, r.dx), _mm256_mul_ps(r.dy, r.dy));
    }
    return r;
}

/* The group's lanes from slot on (`used`: theirs) and the world, for offsets_to. */
BOIDS_V4_INLINE origin origin_at(const boids_cpu_step *s, uint32_t slot, __mmask8 used,
                                 const bool three)
{
    const boids_sim *sim = s->sim;
    return (origin){
        _mm256_maskz_loadu_ps(used, s->cand.x + slot),
        _mm256_maskz_loadu_ps(used, s->cand.y + slot),
        three ? _mm256_maskz_loadu_ps(used, s->cand.z + slot) : _mm256_setzero_ps(),
        _mm256_set1_ps(sim->def.width),
        _mm256_set1_ps(sim->def.height),
        _mm256_set1_ps(sim->def.depth),
        _mm256_set1_ps(sim->half_w),
        _mm256_set1_ps(sim->half_h),
        _mm256_set1_ps(sim->half_d),
        _mm256_set1_ps(-sim->half_w),
        _mm256_set1_ps(-sim->half_h),
        _mm256_set1_ps(-sim->half_d),
        s->cand.x,
        s->cand.y,
        s->cand.z,
    };
}

/* A group's sums as they are added, and what each candidate is compared with: the lanes' swarms
 * and the radii as boids_vdist_key compares (the radii's integer keys). */
typedef struct sums {
    __m256 sep_x, sep_y, sep_z, ali_x, ali_y, ali_z, coh_x, coh_y, coh_z;
    __m256i sep_n, ali_n, coh_n;
} sums;
typedef struct lanes_in {
    __m256i swarm, below_s, below_a, below_c;
} lanes_in;

/* The candidates [begin, end) of one part of a row into the sums; lane l's own are those where
 * its `at` (begin less its own range's begin, biased) is below `own` (its range's length,
 * biased): boids_vslot_from and _bound. `raw`, `unwrapped`, `one_flock`, `three` as walk_lanes',
 * `shifting` as offsets_to's. */
BOIDS_V4_INLINE void walk_part(const boids_cpu_step *s, const origin *o, const lanes_in *in,
                               uint32_t begin, uint32_t end, __m256i own, __m256i at,
                               const part_shift *sh, const bool shifting, const bool raw,
                               const bool unwrapped, const bool one_flock, const bool three,
                               sums *a)
{
    const float *cvx = s->cand.vx, *cvy = s->cand.vy, *cvz = s->cand.vz;
    const uint32_t *cswarm = s->cand.swarm;
    const __m256i key_bias = _mm256_set1_epi32(0x7fffffff), one_i = _mm256_set1_epi32(1);
    const __m256 one = _mm256_set1_ps(1.0f);
    for (uint32_t k = begin; k < end; ++k) {
        const offsets d = offsets_to(o, k, unwrapped, sh, shifting, three);
        /* boids_vdist_key: d2 > 0 and each radius as one integer compare */
        const __m256i key = _mm256_add_epi32(_mm256_castps_si256(d.d2), key_bias);
        const __mmask8 mine = _mm256_cmpgt_epi32_mask(own, at);
        at = _mm256_add_epi32(at, one_i);
        const __mmask8 same =
            one_flock
                ? mine
                : _mm256_mask_cmpeq_epi32_mask(mine, _mm256_set1_epi32((int)cswarm[k]), in->swarm);
        const __mmask8 sep = _mm256_mask_cmpgt_epi32_mask(mine, in->below_s, key);
        const __mmask8 ali = _mm256_mask_cmpgt_epi32_mask(same, in->below_a, key);
        const __mmask8 coh = one_flock ? ali : _mm256_mask_cmpgt_epi32_mask(same, in->below_c, key);
        /* -(dx, dy, dz) / d^2 (as walk_lanes: one division, then products), or the offsets
         * themselves (raw) */
        const __m256 inv_d2 = raw ? one : _mm256_div_ps(one, d.d2);
        a->sep_x =
            _mm256_mask_sub_ps(a->sep_x, sep, a->sep_x, raw ? d.dx : _mm256_mul_ps(d.dx, inv_d2));
        a->sep_y =
            _mm256_mask_sub_ps(a->sep_y, sep, a->sep_y, raw ? d.dy : _mm256_mul_ps(d.dy, inv_d2));
        if (three)
            a->sep_z = _mm256_mask_sub_ps(a->sep_z, sep, a->sep_z,
                                          raw ? d.dz : _mm256_mul_ps(d.dz, inv_d2));
        a->ali_x = _mm256_mask_add_ps(a->ali_x, ali, a->ali_x, _mm256_set1_ps(cvx[k]));
        a->ali_y = _mm256_mask_add_ps(a->ali_y, ali, a->ali_y, _mm256_set1_ps(cvy[k]));
        a->coh_x = _mm256_mask_add_ps(a->coh_x, coh, a->coh_x, d.dx);
        a->coh_y = _mm256_mask_add_ps(a->coh_y, coh, a->coh_y, d.dy);
        if (three) {
            a->ali_z = _mm256_mask_add_ps(a->ali_z, ali, a->ali_z, _mm256_set1_ps(cvz[k]));
            a->coh_z = _mm256_mask_add_ps(a->coh_z, coh, a->coh_z, d.dz);
        }
        a->sep_n = _mm256_mask_add_epi32(a->sep_n, sep, a->sep_n, one_i);
        a->ali_n = _mm256_mask_add_epi32(a->ali_n, ali, a->ali_n, one_i);
        if (!one_flock) a->coh_n = _mm256_mask_add_epi32(a->coh_n, coh, a->coh_n, one_i);
    }
}

/* Part j's shifts, and whether any is not 0. */
BOIDS_V4_INLINE bool shift_of(const boids_cpu_group *g, uint32_t j, __mmask8 used, part_shift *sh)
{
    const __m256 zero = _mm256_setzero_ps();
    sh->x = _mm256_maskz_loadu_ps(used, g->shift_x[j]);
    sh->y = _mm256_set1_ps(g->shift_y[j]), sh->z = _mm256_set1_ps(g->shift_z[j]);
    sh->on_x = _mm256_cmp_ps_mask(sh->x, zero, _CMP_NEQ_OQ);
    sh->on_y = g->shift_y[j] != 0.0f ? used : 0, sh->on_z = g->shift_z[j] != 0.0f ? used : 0;
    return (sh->on_x | sh->on_y | sh->on_z) != 0;
}

/* The walk of group g (not Adams'): `raw`, `unwrapped`, `one_flock` and `three` as walk_lanes';
 * `shifted` (the group's, with `unwrapped` true): each part's shifts added, in a loop of their
 * own in the parts that have any. */
BOIDS_V4_INLINE void walk(const boids_cpu_step *s, uint32_t slot, const boids_cpu_group *g,
                          const reynolds_radii *radii, const bool raw, const bool unwrapped,
                          const bool shifted, const bool one_flock, const bool three,
                          boids_cpu_lane_sums *out)
{
    const __mmask8 used = (__mmask8)((1u << g->lanes) - 1u); /* (lanes past: 0s, never walked) */
    const origin o = origin_at(s, slot, used, three);
    const lanes_in in = {
        _mm256_mask_loadu_epi32(_mm256_set1_epi32(-1), used, s->cand.swarm + slot),
        _mm256_set1_epi32(boids_dist_below(radii->sep2)),
        _mm256_set1_epi32(boids_dist_below(radii->ali2)),
        _mm256_set1_epi32(boids_dist_below(radii->coh2)),
    };
    const __m256i bias = _mm256_set1_epi32(INT32_MIN);
    const __m256 zero = _mm256_setzero_ps();
    const __m256i none = _mm256_setzero_si256();
    sums a = {zero, zero, zero, zero, zero, zero, zero, zero, zero, none, none, none};
    part_shift sh = {zero, zero, zero, 0, 0, 0};
    for (uint32_t j = 0; j < g->rows; ++j) {
        /* each lane's own range in this row as one signed compare (boids_vslot_from, _bound) */
        const __m256i own_b = _mm256_maskz_loadu_epi32(used, g->own_begin[j]);
        const __m256i own_e = _mm256_maskz_loadu_epi32(used, g->own_end[j]);
        const __m256i own = _mm256_add_epi32(_mm256_sub_epi32(own_e, own_b), bias);
        const __m256i at =
            _mm256_add_epi32(_mm256_sub_epi32(_mm256_set1_epi32((int)g->begin[j]), own_b), bias);
        if (shifted && shift_of(g, j, used, &sh))
            walk_part(s, &o, &in, g->begin[j], g->end[j], own, at, &sh, true, raw, unwrapped,
                      one_flock, three, &a);
        else
            walk_part(s, &o, &in, g->begin[j], g->end[j], own, at, &sh, false, raw, unwrapped,
                      one_flock, three, &a);
    }
    if (one_flock) a.coh_n = a.ali_n;
    _mm256_store_ps(out->sep_x, a.sep_x), _mm256_store_ps(out->sep_y, a.sep_y);
    _mm256_store_ps(out->ali_x, a.ali_x), _mm256_store_ps(out->ali_y, a.ali_y);
    _mm256_store_ps(out->coh_x, a.coh_x), _mm256_store_ps(out->coh_y, a.coh_y);
    _mm256_store_si256((__m256i *)out->sep_n, a.sep_n);
    _mm256_store_si256((__m256i *)out->ali_n, a.ali_n);
    _mm256_store_si256((__m256i *)out->coh_n, a.coh_n);
    if (three) {
        _mm256_store_ps(out->sep_z, a.sep_z), _mm256_store_ps(out->ali_z, a.ali_z);
        _mm256_store_ps(out->coh_z, a.coh_z);
    }
}

/* The walk in its case, each case a loop of its own (as walk_reynolds.c's walk_case): a group
 * that is not unwrapped takes its shifts where it has them (plain offsets, then the shifts),
 * else the minimum image of every offset. */
BOIDS_V4_INLINE void walk_case(const boids_cpu_step *s, uint32_t slot, const boids_cpu_group *g,
                               const reynolds_radii *radii, const bool three,
                               boids_cpu_lane_sums *out)
{
    const bool one_flock = s->sim->def.swarms == 1 && radii->ali2 == radii->coh2;
    if (!g->unwrapped && !g->shifted) {
        if (radii->sep_raw)
            walk(s, slot, g, radii, true, false, false, false, three, out);
        else
            walk(s, slot, g, radii, false, false, false, false, three, out);
    } else if (radii->sep_raw) {
        if (one_flock)
            walk(s, slot, g, radii, true, true, g->shifted, true, three, out);
        else
            walk(s, slot, g, radii, true, true, g->shifted, false, three, out);
    } else if (one_flock)
        walk(s, slot, g, radii, false, true, g->shifted, true, three, out);
    else
        walk(s, slot, g, radii, false, true, g->shifted, false, three, out);
}

BOIDS_V4 void boids_cpu_walk_avx512(const boids_cpu_step *s, uint32_t slot,
                                    const boids_cpu_group *g, const reynolds_radii *radii,
                                    boids_cpu_lane_sums *out)
{
    if (s->sim->three)
        walk_case(s, slot, g, radii, true, out);
    else
        walk_case(s, slot, g, radii, false, out);
}

#endif
