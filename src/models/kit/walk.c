/* kit (docs/models.md (kit)), the CPU's walks: the rules are rules.h beside it, shared with the
 * GPU, and so is what one flockmate and one predator add (kit_pair, kit_flee_pair): the GPU runs
 * them on the shared pair walk (shaders/walk_pairs.glsl), this file on walks of its own. Up to
 * BOIDS_LANES boids of a cell row walk together on SIMD lanes (boids_cpu_group), each candidate's
 * terms for all of them at once: several times faster here than the CPU's pair walk, which walks
 * one boid at a time (docs/bench.md, "One walk or two"); a boid that cannot walks alone. Either
 * way its sums are the same bits, added in the candidates' order as the shader adds them.
 *
 * The generated unit of the rules includes this file once per dimension (cmake/glsl_gen.c):
 * boids_cpu_rules_kit for flat worlds, boids_cpu_rules3_kit for 3D ones, whose offsets,
 * velocities and sums have z and whose view field is the cone around the 3D heading. `THREE` is
 * a constant, so a flat world's code is what it was. */
#include <math.h>

#include "cpu/lanes.h"
#include "cpu/walk_pairs.h"
#include "models/kit/rules.h"

#define THREE (BOIDS_DIMS == 3)

/* A pair's terms added to the sums: lane ti of t to lane ai of acc (empty: every lane). */
#define KIT_ADD(acc, ai, t, ti)                                                                    \
    (acc).sep_x ai += (t).sep_x ti, (acc).sep_y ai += (t).sep_y ti;                                \
    (acc).coh_x ai += (t).coh_x ti, (acc).coh_y ai += (t).coh_y ti;                                \
    (acc).ali_x ai += (t).ali_x ti, (acc).ali_y ai += (t).ali_y ti, (acc).n ai += (t).n ti;        \
    if (THREE)                                                                                     \
        (acc).sep_z ai += (t).sep_z ti, (acc).coh_z ai += (t).coh_z ti,                            \
            (acc).ali_z ai += (t).ali_z ti;

/* Every sum 0, in every lane. */
static inline kit_sums kit_sums_zero(void)
{
    const boids_vf zero = boids_vf_all(0.0f);
    return (kit_sums){zero, zero, zero, zero, zero, zero, boids_vu_all(0),
                      zero, zero, zero, zero, zero, zero};
}

/* The queued candidates' terms (kit_pair on the lanes, a candidate each), added to lane 0 of
 * acc in their order; the queue emptied. */
BOIDS_VINLINE void kit_take(const boids_rules_ctx *ctx, const kit_zones *z, boids_pair_queue *q,
                            const boids_pair_boid *b, kit_sums *acc)
{
    const kit_sums t = kit_pair(ctx, *z, boids_pair_queue_lanes(q, b), RULES_PAIR_METRIC);
    for (uint32_t l = 0; l < q->n; ++l) {
        KIT_ADD(*acc, [0], t, [l])
    }
    q->n = 0;
}

/* A lone boid's walk (lane 0 of zl holds its zones): its candidates within the reach queued as
 * the CPU's pair walk queues them (cpu/walk_pairs.h), kit_pair on a full queue's lanes at once,
 * the terms added in the candidates' order. */
BOIDS_VINLINE void kit_walk_alone(const boids_cpu_step *s, uint32_t slot, const kit_zones *zl,
                                  kit_sums *m)
{
    const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);
    kit_zones z = *zl; /* the boid's zones in every lane */
    z.R2 = boids_vf_all(zl->R2[0]), z.cos_view = boids_vf_all(zl->cos_view[0]);
    const boids_pair_boid b = boids_pair_boid_at(s, slot);
    boids_pair_queue q;
    boids_pair_queue_start(&q);
    kit_sums acc = kit_sums_zero();
    boids_cpu_ranges r;
    boids_cpu_candidates(s, slot, &r);
    for (uint32_t c = 0; c < r.count; ++c)
        for (uint32_t k = r.begin[c]; k < r.end[c]; ++k)
            if (boids_pair_queue_offer(&q, s, &b, k, z.reach2)) kit_take(&ctx, &z, &q, &b, &acc);
    if (q.n) kit_take(&ctx, &z, &q, &b, &acc);
    *m = kit_sums_zero();
    KIT_ADD(*m, [0], acc, [0])
}

/* The walk of a lane group (boids_cpu_group, as walk_reynolds.c's): each candidate's terms for
 * every lane at once, each lane with its own zones (R, the view cone) and heading; a candidate a
 * lane does not take (beyond its own range, itself, beyond the reach) has d2 = +inf there, which
 * the rule leaves out (its terms +0), so each lane's sums are kit_walk_alone's bits. As in
 * walk_reynolds.c, an unwrapped group (a constant where this is inlined) skips the minimum image,
 * and the test that a candidate is not the boid itself is left to d2 > 0 (its offset is exactly
 * (0, 0, 0)). */
BOIDS_VINLINE void kit_walk_lanes(const boids_cpu_step *s, uint32_t slot, const boids_cpu_group *g,
                                  const kit_zones *z, const bool unwrapped, kit_sums *out)
{
    const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);
    const boids_vf zero = boids_vf_all(0.0f), inf = boids_vf_all(INFINITY);
    const float *cvx = s->cand.vx, *cvy = s->cand.vy, *cvz = s->cand.vz;
    (void)cvz, (void)zero; /* (a flat world's VEC leaves z out) */
    const uint32_t lanes = g->lanes;
    const boids_lane_origin o = boids_lane_origin_at(s, slot, lanes, THREE);
    const lane_vec heading =
        VEC(boids_vf_load(cvx + slot, lanes, 0.0f), boids_vf_load(cvy + slot, lanes, 0.0f),
            THREE ? boids_vf_load(cvz + slot, lanes, 0.0f) : zero);
    /* d2 > 0 and within the reach as one integer compare (boids_vdist_key) */
    const boids_vi below = (boids_vi)boids_vu_all(boids_dist_below(z->reach2));
    const boids_vu step = boids_vu_all(1);
    kit_sums acc = kit_sums_zero();
    for (uint32_t j = 0; j < g->rows; ++j) {
        /* each lane's own range in this row (empty for unused lanes), as boids_vslot_from */
        const boids_vu own_b = boids_vu_load(g->own_begin[j], lanes, 0);
        const boids_vu own_e = boids_vu_load(g->own_end[j], lanes, 0);
        const boids_vi own = boids_vslot_bound(own_b, own_e);
        boids_vu at = boids_vslot_from(g->begin[j], own_b);
        for (uint32_t q = g->begin[j]; q < g->end[j]; ++q, at += step) {
            const boids_lane_offset d = boids_lane_offset_to(&o, q, unwrapped, THREE);
            const boids_vi near = ((boids_vi)at < own) & (boids_vdist_key(d.d2) < below);
            const rules_pair p = {VEC(d.dx, d.dy, d.dz), boids_vselect(near, d.d2, inf),
                                  VEC(boids_vf_all(cvx[q]), boids_vf_all(cvy[q]),
                                      THREE ? boids_vf_all(cvz[q]) : zero),
                                  heading, near};
            const kit_sums t = kit_pair(&ctx, *z, p, RULES_PAIR_METRIC);
            KIT_ADD(acc, , t, )
        }
    }
    *out = acc;
}

/* eq. 6's sum for the boid in slot: what each predator within R_P adds (kit_flee_pair), from
 * the predators' grid (3D offsets in a 3D world), in the grid's order. */
BOIDS_VINLINE void kit_flee(const boids_cpu_step *s, const kit_zones *z, uint32_t slot, float *fx,
                            float *fy, float *fz)
{
    const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);
    const float x = s->cand.x[slot], y = s->cand.y[slot], z0 = THREE ? s->cand.z[slot] : 0.0f;
    float flee_x = 0.0f, flee_y = 0.0f, flee_z = 0.0f;
    boids_cpu_ranges r;
    boids_cpu_predators_near(s, boids_cpu_replica(s, s->cand.id[slot]), x, y, z0, &r);
    for (uint32_t q = 0; q < r.count; ++q)
        for (uint32_t j = r.begin[q]; j < r.end[q]; ++j) {
            float dx, dy, dz;
            boids_pred_offset(s, x, y, z0, j, &dx, &dy, &dz);
            const float d2 = boids_length2(dx, dy, dz);
            if (!(d2 > 0.0f && d2 < z->flee_reach2)) continue;
            const kit_sums t =
                kit_flee_pair(&ctx, *z, VEC(boids_vf_all(dx), boids_vf_all(dy), boids_vf_all(dz)),
                              boids_vf_all(d2));
            flee_x += t.flee_x[0], flee_y += t.flee_y[0];
            if (THREE) flee_z += t.flee_z[0];
        }
    *fx = flee_x, *fy = flee_y, *fz = flee_z;
}

/* The rest of the step of the living boids b (slots [slot, slot + lanes)), from their sums: the
 * predators (eq. 6), then the rules (models/kit/rules.h) on the lanes, then the move. */
BOIDS_VINLINE void kit_finish(const boids_cpu_step *s, uint32_t slot, uint32_t lanes,
                              const rules_boid *b, const kit_zones *z, kit_sums *m)
{
    const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);
    for (uint32_t l = 0; l < lanes; ++l) {
        float fx, fy, fz;
        kit_flee(s, z, slot + l, &fx, &fy, &fz);
        m->flee_x[l] = fx, m->flee_y[l] = fy, m->flee_z[l] = fz;
    }
    const rules_boid next = kit_steer(&ctx, *m, *b);
    boids_cpu_lane_store(s, slot, lanes, b, &next);
}

/* The step of a lane group's boids: their state (read once: it emits the tool's events), their
 * zones from their ages, the walk, the rest. */
BOIDS_SIMD_CLONES static void kit_step_group(const boids_cpu_step *s, uint32_t slot,
                                             const boids_cpu_group *g)
{
    const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);
    const rules_boid b = boids_cpu_lane_boids(s, slot, g->lanes);
    const kit_zones z = kit_zones_at(&ctx, kit_zones_of(&ctx), b);
    kit_sums m;
    if (g->unwrapped)
        kit_walk_lanes(s, slot, g, &z, true, &m);
    else
        kit_walk_lanes(s, slot, g, &z, false, &m);
    kit_finish(s, slot, g->lanes, &b, &z, &m);
}

/* The step of a lone boid, the same way. */
BOIDS_SIMD_CLONES static void kit_step_one(const boids_cpu_step *s, uint32_t slot)
{
    const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);
    const rules_boid b = boids_cpu_lane_boids(s, slot, 1);
    const kit_zones z = kit_zones_at(&ctx, kit_zones_of(&ctx), b);
    kit_sums m;
    kit_walk_alone(s, slot, &z, &m);
    kit_finish(s, slot, 1, &b, &z, &m);
}

void BOIDS_CPU_RULES_FN(kit)(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    for (uint32_t slot = begin; slot < end;) {
        boids_cpu_group g;
        boids_cpu_group_at(s, slot, end, BOIDS_LANES,
                           &g); /* the dead are in the graveyard: alone */
        if (g.lanes > 1) {
            kit_step_group(s, slot, &g);
            slot += g.lanes;
            continue;
        }
        const uint32_t id = s->cand.id[slot];
        if (s->attr[BOIDS_ATTR_ALIVE][id] == 0 || boids_cpu_stopped(s, boids_cpu_replica(s, id))) {
            /* the caught, and a stopped replica, stand */
            s->out_x[slot] = s->cand.x[slot], s->out_y[slot] = s->cand.y[slot];
            s->out_vx[slot] = s->cand.vx[slot], s->out_vy[slot] = s->cand.vy[slot];
            if (THREE) s->out_z[slot] = s->cand.z[slot], s->out_vz[slot] = s->cand.vz[slot];
        } else {
            kit_step_one(s, slot);
        }
        ++slot;
    }
}

#undef THREE
