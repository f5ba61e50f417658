/* The CPU's side of the shared rules (src/rules/): a lane group's boids handed to a model's rules
 * as GCC vectors and their results stored back, as shaders/steer_common.glsl does for one
 * invocation. What a rules file cannot say for both backends happens here, boid by boid: the
 * external forces (a walk over the obstacles' grid, the tool's event), the obstacles' differences
 * of the models with their own obstacle rule, the attributes in and out, and the move through the
 * world's edges.
 *
 * A model whose rules take the Reynolds walk's sums (rules/common.h's reynolds_radii and
 * reynolds_sums) needs no CPU file of its own: cmake/glsl_gen.c writes, from the manifest, the
 * unit that includes each such rules file and says BOIDS_CPU_REYNOLDS_RULES(<rules>). */
#ifndef BOIDS_CPU_LANES_H
#define BOIDS_CPU_LANES_H

#include <string.h>

#include "cpu/nearest.h"
#include "cpu/steer.h"
#include "rules/common.h"

/* The rules' context of a step (the GPU's is its frame). */
static inline boids_rules_ctx boids_cpu_rules_ctx(const boids_cpu_step *s)
{
    return (boids_rules_ctx){.params = s->params,
                             .tool = &s->sim->tool,
                             .dt = s->sim->dt,
                             .world_w = s->sim->def.width,
                             .world_h = s->sim->def.height,
                             .world_d = s->sim->def.depth,
                             .seed = (uint32_t)s->sim->def.seed,
                             .seed_hi = (uint32_t)(s->sim->def.seed >> 32),
                             .step = s->step,
                             .per_replica = s->sim->per_replica,
                             .obstacles = s->sim->obstacle_count,
                             .model = s->sim->def.model};
}

/* The Reynolds walk's sums of a lane group, as the rules take them. */
BOIDS_VINLINE reynolds_sums boids_cpu_lane_reynolds(const boids_cpu_lane_sums *m)
{
    reynolds_sums r;
    memcpy(&r.sep_x, m->sep_x, sizeof r.sep_x), memcpy(&r.sep_y, m->sep_y, sizeof r.sep_y);
    memcpy(&r.ali_x, m->ali_x, sizeof r.ali_x), memcpy(&r.ali_y, m->ali_y, sizeof r.ali_y);
    memcpy(&r.coh_x, m->coh_x, sizeof r.coh_x), memcpy(&r.coh_y, m->coh_y, sizeof r.coh_y);
    memcpy(&r.sep_n, m->sep_n, sizeof r.sep_n), memcpy(&r.ali_n, m->ali_n, sizeof r.ali_n);
    memcpy(&r.coh_n, m->coh_n, sizeof r.coh_n);
#if BOIDS_DIMS == 3
    memcpy(&r.sep_z, m->sep_z, sizeof r.sep_z), memcpy(&r.ali_z, m->ali_z, sizeof r.ali_z);
    memcpy(&r.coh_z, m->coh_z, sizeof r.coh_z);
#else
    r.sep_z = r.ali_z = r.coh_z = boids_vf_all(0.0f); /* (a flat world's rules never read them) */
#endif
    return r;
}

/* The boids in candidate slots [slot, slot + lanes) as the rules see them (rules_boid); lanes past
 * `lanes` hold zeros. The external forces, the obstacles' differences and the attributes are
 * gathered only where the world has them. */
BOIDS_VINLINE rules_boid boids_cpu_lane_boids(const boids_cpu_step *s, uint32_t slot,
                                              uint32_t lanes)
{
    const boids_sim *sim = s->sim;
    const uint32_t *id = s->cand.id + slot;
    rules_boid b;
    b.x = boids_vf_load(s->cand.x + slot, lanes, 0.0f);
    b.y = boids_vf_load(s->cand.y + slot, lanes, 0.0f);
    b.vx = boids_vf_load(s->cand.vx + slot, lanes, 0.0f);
    b.vy = boids_vf_load(s->cand.vy + slot, lanes, 0.0f);
    b.id = boids_vu_load(id, lanes, 0);
#if BOIDS_DIMS == 3
    b.z = boids_vf_load(s->cand.z + slot, lanes, 0.0f);
    b.vz = boids_vf_load(s->cand.vz + slot, lanes, 0.0f);
#else
    b.z = b.vz = boids_vf_all(0.0f);                  /* (a flat world's rules never read them) */
#endif
    b.ex = b.ey = b.ez = b.ox = b.oy = b.oz = boids_vf_all(0.0f);
    if (sim->obstacle_push || sim->tool.kind != BOIDS_TOOL_NONE)
        for (uint32_t l = 0; l < lanes; ++l) {
            float fx, fy, fz; /* (no address of a vector lane: clang refuses it) */
            boids_cpu_external_force(s, id[l], b.x[l], b.y[l], b.z[l], &fx, &fy, &fz);
            b.ex[l] = fx, b.ey[l] = fy;
#if BOIDS_DIMS == 3
            b.ez[l] = fz;
#endif
        }
    if ((sim->features & BOIDS_FEATURE_OBSTACLE_RULE) && sim->obstacle_count > 0)
        for (uint32_t l = 0; l < lanes; ++l) {
            float ox, oy, oz;
            boids_cpu_obstacle_push(s, boids_cpu_replica(s, id[l]), b.x[l], b.y[l], b.z[l],
                                    s->params->obstacles.obstacle_radius, true, &ox, &oy, &oz);
            b.ox[l] = ox, b.oy[l] = oy;
#if BOIDS_DIMS == 3
            b.oz[l] = oz;
#endif
        }
    /* Unrolled, so every attribute is a constant index: a rules_boid then lives in registers.
     * Indexed by a variable, GCC kept it in memory and copied it whole (rep movsq) at each call
     * of the rules, a third of their time. */
    BOIDS_UNROLL
    for (uint32_t k = 0; k < BOIDS_ATTR_COUNT; ++k) { /* their bits, as the vector's */
        boids_vu bits = boids_vu_all(0);
        if (sim->attributes & (1u << k))
            for (uint32_t l = 0; l < lanes; ++l) bits[l] = s->attr[k][id[l]];
        b.attr[k] = (boids_vf)bits;
    }
    return b;
}

/* Step t+1 of the boids of slots [slot, slot + lanes) that were `was` and are now `b` (its
 * velocity step t+1's): moved through the edges, and the attributes the rules changed stored. */
BOIDS_VINLINE void boids_cpu_lane_store(const boids_cpu_step *s, uint32_t slot, uint32_t lanes,
                                        const rules_boid *was, const rules_boid *b)
{
    const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);
    const lane_vec p = moved_position(&ctx, boid_position(*b), boid_velocity(*b));
    boids_vf_store(s->out_x + slot, lanes, p.x);
    boids_vf_store(s->out_y + slot, lanes, p.y);
    boids_vf_store(s->out_vx + slot, lanes, b->vx);
    boids_vf_store(s->out_vy + slot, lanes, b->vy);
#if BOIDS_DIMS == 3
    boids_vf_store(s->out_z + slot, lanes, p.z);
    boids_vf_store(s->out_vz + slot, lanes, b->vz);
#endif
    const uint32_t *id = s->cand.id + slot;
    /* constant indices, as in boids_cpu_lane_boids */
    BOIDS_UNROLL
    for (uint32_t k = 0; k < BOIDS_ATTR_COUNT; ++k) {
        if (!(s->sim->attributes & (1u << k))) continue;
        const boids_vu bits = (boids_vu)b->attr[k];
        if (boids_vany((boids_vi)was->attr[k] != (boids_vi)b->attr[k]))
            for (uint32_t l = 0; l < lanes; ++l) s->attr[k][id[l]] = bits[l];
    }
}

/* The CPU rules of a model whose rules file (rules/<rules>.h) defines <rules>_radii() and
 * <rules>_steer(): the SIMD lane walk of the Reynolds sums (walk_reynolds.c), with a world of
 * nearest:K its alignment and cohesion sums over each boid's K nearest instead (cpu/nearest.h),
 * then the rules on the group's lanes, then the move. The lane function is compiled for each
 * instruction set and chosen at run time (BOIDS_SIMD_CLONES). A unit compiled with BOIDS_DIMS 3
 * makes the rules of 3D worlds, boids_cpu_rules3_<rules>. */
#if BOIDS_DIMS == 3
#define BOIDS_CPU_RULES_FN(rules) boids_cpu_rules3_##rules
#else
#define BOIDS_CPU_RULES_FN(rules) boids_cpu_rules_##rules
#endif
#define BOIDS_CPU_REYNOLDS_RULES(rules)                                                            \
    BOIDS_SIMD_CLONES static void rules##_lanes(const boids_cpu_step *s, uint32_t slot,            \
                                                uint32_t lanes, const boids_cpu_lane_sums *m)      \
    {                                                                                              \
        const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);                                        \
        const rules_boid b = boids_cpu_lane_boids(s, slot, lanes);                                 \
        const rules_boid next = rules##_steer(&ctx, boids_cpu_lane_reynolds(m), b);                \
        boids_cpu_lane_store(s, slot, lanes, &b, &next);                                           \
    }                                                                                              \
    void BOIDS_CPU_RULES_FN(rules)(const boids_cpu_step *s, uint32_t begin, uint32_t end)          \
    {                                                                                              \
        const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);                                        \
        const reynolds_radii radii = rules##_radii(&ctx);                                          \
        boids_cpu_lane_sums m;                                                                     \
        for (uint32_t slot = begin; slot < end;) {                                                 \
            const uint32_t n = boids_cpu_walk_reynolds(s, slot, end, &radii, &m);                  \
            if (s->sim->def.nearest) /* alignment and cohesion with the K nearest */               \
                for (uint32_t l = 0; l < n; ++l) boids_cpu_nearest_flock(s, slot + l, &m, l);      \
            rules##_lanes(s, slot, n, &m);                                                         \
            slot += n;                                                                             \
        }                                                                                          \
    }

/* The CPU rules of a model that walks its neighbours itself, one boid at a time (a walk with
 * branches per neighbour: couzin's zones, gregoire-chate's bands): walk(s, &z, slot, &m, l)
 * gathers the sums (sums_t) of the boid in slot into lane l of m, z = bands_of(&ctx) being what
 * the walk compares with (bands_t); up to BOIDS_LANES walked boids then take <rules>_steer
 * together on the lanes, then the move (the lane function compiled for each instruction set). */
#define BOIDS_CPU_EACH_WALK_RULES(rules, sums_t, bands_t, bands_of, walk)                          \
    BOIDS_SIMD_CLONES static void rules##_finish(const boids_cpu_step *s, uint32_t slot,           \
                                                 uint32_t lanes, const sums_t *m)                  \
    {                                                                                              \
        const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);                                        \
        const rules_boid b = boids_cpu_lane_boids(s, slot, lanes);                                 \
        const rules_boid next = rules##_steer(&ctx, *m, b);                                        \
        boids_cpu_lane_store(s, slot, lanes, &b, &next);                                           \
    }                                                                                              \
    void BOIDS_CPU_RULES_FN(rules)(const boids_cpu_step *s, uint32_t begin, uint32_t end)          \
    {                                                                                              \
        const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);                                        \
        const bands_t z = bands_of(&ctx);                                                          \
        for (uint32_t slot = begin; slot < end;) {                                                 \
            const uint32_t lanes = end - slot < BOIDS_LANES ? end - slot : BOIDS_LANES;            \
            sums_t m;                                                                              \
            memset(&m, 0, sizeof m); /* every sum and count 0, in every lane */                    \
            for (uint32_t l = 0; l < lanes; ++l) walk(s, &z, slot + l, &m, l);                     \
            rules##_finish(s, slot, lanes, &m);                                                    \
            slot += lanes;                                                                         \
        }                                                                                          \
    }

#endif
