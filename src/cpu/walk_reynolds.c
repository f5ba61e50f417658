/* The Reynolds walk: over a boid's candidates, the sums that separation (1/d-weighted unit
 * vectors away, every swarm), alignment (velocities) and cohesion (offsets, same swarm) take,
 * each within its radius. The Shiffman models, the allocation models (priority, mean: their
 * alignment and cohesion share one radius), hybrid (Adams' raw separation: the offsets
 * themselves, sep_raw) and adams (its box, every swarm, coincident boids: radii.adams) step
 * from these sums (their rules: src/rules/, run by BOIDS_CPU_REYNOLDS_RULES, cpu/lanes.h). Up to
 * 8 boids of a cell row walk together on SIMD lanes (boids_cpu_group, rules/simd.h); a boid that
 * cannot walks alone. Either way a boid's sums are the same bits, added in the order of
 * shaders/walk_reynolds.glsl, the GPU's walk: the walks are per backend, as the grid and the
 * sort are (lanes here, one invocation per boid there), and test_agreement holds them equal.
 * (kit walks the same groups with its own sums: models/kit/walk.c.) */
#include <math.h>
#include <string.h>

#include "rules/simd.h"
#include "cpu/steer.h"
#include "cpu/walk_avx512.h"

/* One boid's walk over its candidates, where no other boid walks with it (boids_cpu_group): the
 * reference of every walk's bits. Each candidate's terms are computed BOIDS_LANES candidates at
 * once, then added to the sums one candidate after another, in the candidates' order, so the
 * vectors change no bit (the sums are what adding candidate by candidate gives). `three` is a
 * constant where this is inlined. */
BOIDS_VINLINE void walk_alone(const boids_cpu_step *s, uint32_t slot, const reynolds_radii *radii,
                              const bool three, boids_cpu_sums *m)
{
    const bool adams = radii->adams, raw = radii->sep_raw || adams,
               ring = adams && !radii->flock_in_sep;
    const boids_vf box = boids_vf_all(radii->box), rs2 = boids_vf_all(radii->sep2),
                   ra2 = boids_vf_all(radii->ali2), rc2 = boids_vf_all(radii->coh2);
    const boids_vf zero = boids_vf_all(0.0f), one = boids_vf_all(1.0f);
    const boids_sim *sim = s->sim;
    const float x = s->cand.x[slot], y = s->cand.y[slot], z = three ? s->cand.z[slot] : 0.0f;
    const boids_vf vx = boids_vf_all(x), vy = boids_vf_all(y), vz = boids_vf_all(z);
    const boids_vu id = boids_vu_all(s->cand.id[slot]), swarm = boids_vu_all(s->cand.swarm[slot]);
    boids_vu lane;
    for (uint32_t l = 0; l < BOIDS_LANES; ++l) lane[l] = l;
    boids_vi sep_n = (boids_vi)boids_vu_all(0), ali_n = sep_n, coh_n = sep_n;
    *m = (boids_cpu_sums){0};
    boids_cpu_ranges r;
    boids_cpu_candidates(s, slot, &r);
    for (uint32_t q = 0; q < r.count; ++q) {
        for (uint32_t k = r.begin[q]; k < r.end[q]; k += BOIDS_LANES) {
            const uint32_t n = r.end[q] - k < BOIDS_LANES ? r.end[q] - k : BOIDS_LANES;
            const boids_vf dx = boids_vmin_image(vx, boids_vf_load(s->cand.x + k, n, x),
                                                 sim->def.width, sim->half_w);
            const boids_vf dy = boids_vmin_image(vy, boids_vf_load(s->cand.y + k, n, y),
                                                 sim->def.height, sim->half_h);
            /* z's square added to y's first, as the rules' length2(): where dz = 0 d2 has the
             * flat world's bits */
            const boids_vf dz = three ? boids_vmin_image(vz, boids_vf_load(s->cand.z + k, n, z),
                                                         sim->def.depth, sim->half_d)
                                      : zero;
            const boids_vf d2 = three ? dx * dx + (dy * dy + dz * dz) : dx * dx + dy * dy;
            /* Coincident boids (d2 = 0) and the boid itself are no neighbours (Shiffman's d > 0);
             * Adams: coincident boids count, inside the box, whatever their swarm. Lanes past
             * the range hold no candidate. */
            boids_vi near =
                (boids_vi)(lane < boids_vu_all(n)) & (boids_vu_load(s->cand.id + k, n, 0) != id);
            if (adams)
                near &= (boids_vabs(dx) < box) & (boids_vabs(dy) < box) & (boids_vabs(dz) < box);
            else
                near &= d2 > zero;
            const boids_vi sep = near & (d2 < rs2);
            boids_vi same = adams ? near : near & (boids_vu_load(s->cand.swarm + k, n, 0) == swarm);
            if (ring) same &= ~sep;
            const boids_vi ali = same & (d2 < ra2), coh = same & (d2 < rc2);
            /* (p_i - p_j)/|p_i - p_j|/d = -(dx, dy) * (1/d^2): one division, two products (as
             * the shader), or p_i - p_j itself (sep_raw). Never 1/0, even where masked out. */
            const boids_vf inv_d2 = one / (d2 + boids_vmask(one, d2 == zero));
            const boids_vf t[9] = {boids_vmask(raw ? dx : dx * inv_d2, sep),
                                   boids_vmask(raw ? dy : dy * inv_d2, sep),
                                   boids_vmask(raw ? dz : dz * inv_d2, sep),
                                   boids_vmask(boids_vf_load(s->cand.vx + k, n, 0.0f), ali),
                                   boids_vmask(boids_vf_load(s->cand.vy + k, n, 0.0f), ali),
                                   three ? boids_vmask(boids_vf_load(s->cand.vz + k, n, 0.0f), ali)
                                         : zero,
                                   boids_vmask(dx, coh),
                                   boids_vmask(dy, coh),
                                   boids_vmask(dz, coh)};
            for (uint32_t l = 0; l < n; ++l) { /* in the candidates' order */
                m->sep_x -= t[0][l], m->sep_y -= t[1][l];
                m->ali_x += t[3][l], m->ali_y += t[4][l];
                m->coh_x += t[6][l], m->coh_y += t[7][l];
                if (three) m->sep_z -= t[2][l], m->ali_z += t[5][l], m->coh_z += t[8][l];
            }
            sep_n -= sep, ali_n -= ali, coh_n -= coh; /* masks are -1 */
        }
    }
    for (uint32_t l = 0; l < BOIDS_LANES; ++l)
        m->sep_n += (uint32_t)sep_n[l], m->ali_n += (uint32_t)ali_n[l],
            m->coh_n += (uint32_t)coh_n[l];
}

BOIDS_SIMD_CLONES static void walk_alone2(const boids_cpu_step *s, uint32_t slot,
                                          const reynolds_radii *radii, boids_cpu_sums *m)
{
    walk_alone(s, slot, radii, false, m);
}

/* A 3D world's lone boid. */
BOIDS_SIMD_CLONES static void walk_alone3(const boids_cpu_step *s, uint32_t slot,
                                          const reynolds_radii *radii, boids_cpu_sums *m)
{
    walk_alone(s, slot, radii, true, m);
}

/* A group's sums as they are gathered (boids_cpu_lane_sums' vectors). */
typedef struct lane_acc {
    boids_vf sep_x, sep_y, sep_z, ali_x, ali_y, ali_z, coh_x, coh_y, coh_z;
    boids_vi sep_n, ali_n, coh_n;
} lane_acc;

/* The sums into out (lanes past the group's walked no candidate: zeros). */
BOIDS_VINLINE void lane_acc_store(const lane_acc *a, const bool three, boids_cpu_lane_sums *out)
{
    memcpy(out->sep_x, &a->sep_x, sizeof a->sep_x), memcpy(out->sep_y, &a->sep_y, sizeof a->sep_y);
    memcpy(out->ali_x, &a->ali_x, sizeof a->ali_x), memcpy(out->ali_y, &a->ali_y, sizeof a->ali_y);
    memcpy(out->coh_x, &a->coh_x, sizeof a->coh_x), memcpy(out->coh_y, &a->coh_y, sizeof a->coh_y);
    memcpy(out->sep_n, &a->sep_n, sizeof a->sep_n), memcpy(out->ali_n, &a->ali_n, sizeof a->ali_n);
    memcpy(out->coh_n, &a->coh_n, sizeof a->coh_n);
    if (three) {
        memcpy(out->sep_z, &a->sep_z, sizeof a->sep_z);
        memcpy(out->ali_z, &a->ali_z, sizeof a->ali_z);
        memcpy(out->coh_z, &a->coh_z, sizeof a->coh_z);
    }
}

/* Two counts in one vector, separation's in each lane's low 16 bits and alignment's in its high
 * 16. AVX2's 16 vector registers hold the walk's sums, its place in the row and a candidate's
 * terms: with a count apart, GCC kept alignment's x sum in memory, a store and a load on the
 * loop's chain each candidate. The masks (-1 where a lane counts), blended half and half and
 * subtracted 16 bits at a time, add 1 to each half that counts with no carry between them; a run
 * empties the pair into the counts every BOIDS_PAIR_CHUNK candidates, before a half could wrap. */
typedef int16_t boids_vh __attribute__((vector_size(4 * BOIDS_LANES)));
#define BOIDS_PAIR_CHUNK 0xffffu
BOIDS_VINLINE boids_vh pair_of(boids_vi sep, boids_vi ali)
{
#if defined(__clang__) /* (4 lanes there, and no __builtin_shuffle) */
    return (boids_vh)((sep & (boids_vi)boids_vu_all(0xffffu)) |
                      (ali & (boids_vi)boids_vu_all(0xffff0000u)));
#else
    return __builtin_shuffle((boids_vh)sep, (boids_vh)ali,
                             (boids_vh){0, 17, 2, 19, 4, 21, 6, 23, 8, 25, 10, 27, 12, 29, 14, 31});
#endif
}

/* What a group's walk compares each candidate with, and its case: walk_lanes' flags, constants
 * where it is inlined. */
typedef struct lane_walk {
    boids_lane_origin o;
    const float *cvx, *cvy, *cvz;
    const uint32_t *cid, *cswarm;
    boids_vu id, swarm;
    boids_vf box, rs2, ra2, rc2;        /* Adams' box and radii */
    boids_vi below_s, below_a, below_c; /* the others' (boids_vdist_key) */
    bool raw, adams, ring, unwrapped, one_flock, three;
} lane_walk;

/* Candidates [k0, k1) of a part into a: lane l's own are those where its `at` (boids_vslot_from
 * of own_b, its range's begin) is below own[l] (boids_vslot_bound). */
BOIDS_VINLINE void walk_run(const lane_walk *w, uint32_t k0, uint32_t k1, boids_vu own_b,
                            boids_vi own, lane_acc *a)
{
    const boids_vf one = boids_vf_all(1.0f);
    for (uint32_t c0 = k0, c1; c0 < k1; c0 = c1) {
        c1 = k1 - c0 > BOIDS_PAIR_CHUNK ? c0 + BOIDS_PAIR_CHUNK : k1;
        boids_vh pair = {0};
        boids_vu at = boids_vslot_from(c0, own_b);
        for (uint32_t k = c0; k < c1; ++k, at += boids_vu_all(1)) {
            const boids_lane_offset d = boids_lane_offset_to(&w->o, k, w->unwrapped, w->three);
            const boids_vi mine = (boids_vi)at < own;
            boids_vi sep, ali, coh;
            if (w->adams) { /* not itself, |dx|, |dy| (|dz|) < box; coincident boids count */
                boids_vi near = mine & (boids_vu_all(w->cid[k]) != w->id) &
                                (boids_vabs(d.dx) < w->box) & (boids_vabs(d.dy) < w->box);
                if (w->three) near &= boids_vabs(d.dz) < w->box;
                sep = near & (d.d2 < w->rs2);
                const boids_vi same = w->ring ? near & ~sep : near;
                ali = same & (d.d2 < w->ra2), coh = same & (d.d2 < w->rc2);
            } else {
                const boids_vi key = boids_vdist_key(d.d2);
                const boids_vi same =
                    w->one_flock ? mine : mine & (boids_vu_all(w->cswarm[k]) == w->swarm);
                sep = mine & (key < w->below_s);
                ali = same & (key < w->below_a);
                coh = w->one_flock ? ali : same & (key < w->below_c);
            }
            /* -(dx, dy) / d^2: one division, masked (1/0 = inf only where sep is not), then the
             * products, one AND for both; where sep is not, each product is +-0, which leaves a
             * sum's bits as walk_alone's +0 does (a sum is never -0: it starts at +0, and in
             * round-to-nearest a difference is -0 only where its first operand is). raw: the
             * offsets themselves. */
            const boids_vf inv_d2 = boids_vmask(w->raw ? one : one / d.d2, sep);
            a->sep_x -= w->raw ? boids_vmask(d.dx, sep) : d.dx * inv_d2;
            a->sep_y -= w->raw ? boids_vmask(d.dy, sep) : d.dy * inv_d2;
            a->ali_x += boids_vmask(boids_vf_all(w->cvx[k]), ali);
            a->ali_y += boids_vmask(boids_vf_all(w->cvy[k]), ali);
            a->coh_x += boids_vmask(d.dx, coh);
            a->coh_y += boids_vmask(d.dy, coh);
            if (w->three) {
                a->sep_z -= w->raw ? boids_vmask(d.dz, sep) : d.dz * inv_d2;
                a->ali_z += boids_vmask(boids_vf_all(w->cvz[k]), ali);
                a->coh_z += boids_vmask(d.dz, coh);
            }
            pair -= pair_of(sep, ali); /* masks are -1 */
            if (!w->one_flock) a->coh_n -= coh;
        }
        a->sep_n += (boids_vi)pair & (boids_vi)boids_vu_all(0xffffu);
        a->ali_n += (boids_vi)((boids_vu)pair >> 16);
    }
}

/* The walk of a group, one boid per lane (see boids_cpu_group): walk_alone's operations on every
 * lane at once, so each lane's sums are walk_alone's bits. `raw`, `adams`, `unwrapped`,
 * `one_flock` and `three` are constants where this is inlined (walk_group), so the hot loop has no
 * branch on them. Some of walk_alone's operations are left out where they cannot change a bit: the
 * minimum image of an unwrapped group (boids_cpu_group); outside Adams' rule, the test that a
 * candidate is not the boid itself (its offset is exactly (0, 0), which d2 > 0 already leaves
 * out) and the guard against 1/0 (a lane with d2 = 0 is masked out, and its inf is cleared with
 * it); and for one flock (one swarm, alignment and cohesion within the same radius: the presets of
 * the Shiffman and allocation models) the swarm test and cohesion's own mask and count. */
BOIDS_VINLINE void walk_lanes(const boids_cpu_step *s, uint32_t slot, const boids_cpu_group *g,
                              const reynolds_radii *radii, const bool raw, const bool adams,
                              const bool unwrapped, const bool one_flock, const bool three,
                              boids_cpu_lane_sums *out)
{
    const lane_walk w = {.o = boids_lane_origin_at(s, slot, g->lanes, three),
                         .cvx = s->cand.vx,
                         .cvy = s->cand.vy,
                         .cvz = s->cand.vz,
                         .cid = s->cand.id,
                         .cswarm = s->cand.swarm,
                         .id = boids_vu_load(s->cand.id + slot, g->lanes, UINT32_MAX),
                         .swarm = boids_vu_load(s->cand.swarm + slot, g->lanes, UINT32_MAX),
                         .box = boids_vf_all(radii->box),
                         .rs2 = boids_vf_all(radii->sep2),
                         .ra2 = boids_vf_all(radii->ali2),
                         .rc2 = boids_vf_all(radii->coh2),
                         /* outside Adams' rule, d2 > 0 and each radius as one integer compare */
                         .below_s = (boids_vi)boids_vu_all(boids_dist_below(radii->sep2)),
                         .below_a = (boids_vi)boids_vu_all(boids_dist_below(radii->ali2)),
                         .below_c = (boids_vi)boids_vu_all(boids_dist_below(radii->coh2)),
                         .raw = raw,
                         .adams = adams,
                         .ring = adams && !radii->flock_in_sep,
                         .unwrapped = unwrapped,
                         .one_flock = one_flock,
                         .three = three};
    const boids_vf zero = boids_vf_all(0.0f);
    const boids_vi none = (boids_vi)boids_vu_all(0);
    lane_acc a = {zero, zero, zero, zero, zero, zero, zero, zero, zero, none, none, none};
    for (uint32_t j = 0; j < g->rows; ++j) {
        /* each lane's own range in this row (empty for unused lanes), as boids_vslot_from */
        const boids_vu own_b = boids_vu_load(g->own_begin[j], g->lanes, 0);
        const boids_vu own_e = boids_vu_load(g->own_end[j], g->lanes, 0);
        walk_run(&w, g->begin[j], g->end[j], own_b, boids_vslot_bound(own_b, own_e), &a);
    }
    if (one_flock) a.coh_n = a.ali_n;
    lane_acc_store(&a, three, out);
}

/* The walk of a group in its case: `three` a constant where this is inlined. */
BOIDS_VINLINE void walk_case(const boids_cpu_step *s, uint32_t slot, const boids_cpu_group *g,
                             const reynolds_radii *radii, const bool three,
                             boids_cpu_lane_sums *out)
{
    /* The groups on the world's seam walk the general loop; the others, most of them, one made
     * for their case. */
    const bool one_flock = !radii->adams && s->sim->def.swarms == 1 && radii->ali2 == radii->coh2;
    if (!g->unwrapped) {
        if (radii->adams)
            walk_lanes(s, slot, g, radii, true, true, false, false, three, out);
        else if (radii->sep_raw)
            walk_lanes(s, slot, g, radii, true, false, false, false, three, out);
        else
            walk_lanes(s, slot, g, radii, false, false, false, false, three, out);
    } else if (radii->adams)
        walk_lanes(s, slot, g, radii, true, true, true, false, three, out);
    else if (radii->sep_raw) {
        if (one_flock)
            walk_lanes(s, slot, g, radii, true, false, true, true, three, out);
        else
            walk_lanes(s, slot, g, radii, true, false, true, false, three, out);
    } else if (one_flock)
        walk_lanes(s, slot, g, radii, false, false, true, true, three, out);
    else
        walk_lanes(s, slot, g, radii, false, false, true, false, three, out);
}

BOIDS_SIMD_CLONES static void walk_group(const boids_cpu_step *s, uint32_t slot,
                                         const boids_cpu_group *g, const reynolds_radii *radii,
                                         boids_cpu_lane_sums *out)
{
    walk_case(s, slot, g, radii, false, out);
}

/* A 3D world's groups: the same walks with z. */
BOIDS_SIMD_CLONES static void walk_group3(const boids_cpu_step *s, uint32_t slot,
                                          const boids_cpu_group *g, const reynolds_radii *radii,
                                          boids_cpu_lane_sums *out)
{
    walk_case(s, slot, g, radii, true, out);
}

uint32_t boids_cpu_walk_reynolds(const boids_cpu_step *s, uint32_t slot, uint32_t end,
                                 const reynolds_radii *radii, boids_cpu_lane_sums *out)
{
    boids_cpu_group g;
    boids_cpu_group_at(s, slot, end, BOIDS_LANES, &g);
    if (g.lanes > 1) {
#if BOIDS_CPU_AVX512
        if (!radii->adams && boids_cpu_walk_avx512_on && boids_cpu_has_avx512())
            boids_cpu_walk_avx512(s, slot, &g, radii, out);
        else
#endif
            if (s->sim->three)
            walk_group3(s, slot, &g, radii, out);
        else
            walk_group(s, slot, &g, radii, out);
    } else {
        boids_cpu_sums m;
        if (s->sim->three)
            walk_alone3(s, slot, radii, &m);
        else
            walk_alone2(s, slot, radii, &m);
        memset(out, 0, sizeof *out);
        out->sep_x[0] = m.sep_x, out->sep_y[0] = m.sep_y, out->ali_x[0] = m.ali_x,
        out->ali_y[0] = m.ali_y;
        out->coh_x[0] = m.coh_x, out->coh_y[0] = m.coh_y;
        out->sep_n[0] = m.sep_n, out->ali_n[0] = m.ali_n, out->coh_n[0] = m.coh_n;
        out->sep_z[0] = m.sep_z, out->ali_z[0] = m.ali_z, out->coh_z[0] = m.coh_z;
    }
    return g.lanes;
}
