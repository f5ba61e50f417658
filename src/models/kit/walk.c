/* kit (docs/models.md (kit)), the CPU's walks: the rules are rules.h beside it, shared with the
 * GPU; its view field is its own walk (src/models/kit/walk.glsl is the GPU's), so this file gathers
 * kit_sums: over the boids within R_S (eq. 3) and in the view field, and over the predators
 * within R_P (eq. 6). Up to BOIDS_LANES boids of a cell row walk together on SIMD lanes
 * (boids_cpu_group); a boid that cannot walks alone. Either way its sums are the same bits, added
 * in the order of the shader's walk.
 *
 * The generated unit of the rules includes this file once per dimension (cmake/glsl_gen.c):
 * boids_cpu_rules_kit for flat worlds, boids_cpu_rules3_kit for 3D ones, whose offsets,
 * velocities and sums have z and whose view field is the cone around the 3D heading. `THREE` is
 * a constant, so a flat world's code is what it was. */
#include <math.h>

#include "cpu/lanes.h"
#include "models/kit/rules.h"

#define THREE (BOIDS_DIMS == 3)

/* One boid's walk over its flockmates. */
static void kit_walk_alone(const boids_cpu_step *s, uint32_t slot, kit_sums *m)
{
    const boids_kit_params *k = &s->params->kit;
    const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);
    const float rs2 = k->sep_radius * k->sep_radius;
    const float *cvx = s->cand.vx, *cvy = s->cand.vy, *cvz = s->cand.vz;
    const uint32_t *cid = s->cand.id;
    const uint32_t id = cid[slot];
    const float x = s->cand.x[slot], y = s->cand.y[slot], vx0 = cvx[slot], vy0 = cvy[slot];
    const float z = THREE ? s->cand.z[slot] : 0.0f, vz0 = THREE ? cvz[slot] : 0.0f;
    /* its individuality: computed on lanes, taken from the first */
    const kit_view view =
        kit_individuality(&ctx, boids_vf_all(boids_cpu_attr_float(s, BOIDS_ATTR_AGE, id)));
    const float R2 = view.R2[0], cos_view = view.cos_view[0];
    const float rmax2 = fmaxf(R2, rs2);
    float sep_x = 0.0f, sep_y = 0.0f, coh_x = 0.0f, coh_y = 0.0f, ali_x = 0.0f, ali_y = 0.0f;
    float sep_z = 0.0f, coh_z = 0.0f, ali_z = 0.0f;
    uint32_t n = 0;
    boids_cpu_ranges r;
    boids_cpu_candidates(s, slot, &r);
    for (uint32_t q = 0; q < r.count; ++q) {
        for (uint32_t j = r.begin[q]; j < r.end[q]; ++j) {
            if (cid[j] == id) continue;
            float dx, dy;
            boids_cand_offset(s, x, y, j, &dx, &dy);
            const float dz = THREE ? boids_cand_offset_z(s, z, j) : 0.0f;
            float d2 = boids_length2(dx, dy, dz);
            if (!(d2 > 0.0f && d2 <= rmax2)) continue;
            if (d2 <= rs2) {                    /* eq. 3: every boid within R_S */
                float inv_d = 1.0f / sqrtf(d2); /* one division, two products (as the shader) */
                sep_x -= dx * inv_d;
                sep_y -= dy * inv_d;
                if (THREE) sep_z -= dz * inv_d;
            }
            if (d2 <= R2 && boids_in_view(vx0, vy0, vz0, dx, dy, dz, d2, cos_view)) {
                coh_x += dx; /* the view field */
                coh_y += dy;
                ali_x += cvx[j];
                ali_y += cvy[j];
                if (THREE) coh_z += dz, ali_z += cvz[j];
                n++;
            }
        }
    }
    const boids_vf zero = boids_vf_all(0.0f);
    *m = (kit_sums){zero, zero, zero, zero, zero, zero, boids_vu_all(0),
                    zero, zero, zero, zero, zero, zero};
    m->sep_x[0] = sep_x, m->sep_y[0] = sep_y, m->coh_x[0] = coh_x, m->coh_y[0] = coh_y;
    m->ali_x[0] = ali_x, m->ali_y[0] = ali_y, m->n[0] = n;
    m->sep_z[0] = sep_z, m->coh_z[0] = coh_z, m->ali_z[0] = ali_z;
}

/* The walk of a lane group (boids_cpu_group, as walk_reynolds.c's): kit_walk_alone's operations
 * on every lane, each lane with its own R, view cone and heading; a candidate a lane does not take
 * adds +0 there, so each lane's sums are kit_walk_alone's bits. The view cone is the rules'
 * in_view (rules/common.h), as walk.glsl's: boids_in_view's branches as masks (the same products
 * in the same order). As in walk_reynolds.c, an unwrapped group (a constant where this is
 * inlined) skips the minimum image, and the test that a candidate is not the boid itself is left
 * to d2 > 0 (its offset is exactly (0, 0, 0)). */
BOIDS_VINLINE void kit_walk_lanes(const boids_cpu_step *s, uint32_t slot, const boids_cpu_group *g,
                                  const bool unwrapped, kit_sums *out)
{
    const boids_kit_params *k = &s->params->kit;
    const boids_vf zero = boids_vf_all(0.0f), one = boids_vf_all(1.0f);
    const float *cvx = s->cand.vx, *cvy = s->cand.vy, *cvz = s->cand.vz;
    const uint32_t *cid = s->cand.id;
    const uint32_t lanes = g->lanes;
    const boids_lane_origin o = boids_lane_origin_at(s, slot, lanes, THREE);
    const boids_vf vx = boids_vf_load(cvx + slot, lanes, 0.0f),
                   vy = boids_vf_load(cvy + slot, lanes, 0.0f),
                   vz = THREE ? boids_vf_load(cvz + slot, lanes, 0.0f) : zero;
    /* the individuality on the lanes (the cosine's polynomial is a chain of a dozen operations) */
    const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);
    boids_vf age = zero;
    for (uint32_t l = 0; l < lanes; ++l)
        age[l] = boids_cpu_attr_float(s, BOIDS_ATTR_AGE, cid[slot + l]);
    const kit_view view = kit_individuality(&ctx, age);
    const boids_vf R2 = view.R2, c = view.cos_view;
    /* d2 > 0 and each radius as one integer compare (boids_vdist_key) */
    const boids_vi upto_s = (boids_vi)boids_vu_all(boids_dist_upto(k->sep_radius * k->sep_radius));
    const boids_vi upto_view = boids_vdist_upto(R2);
    const boids_vu step = boids_vu_all(1);
    const lane_vec heading = VEC(vx, vy, vz);
    (void)vz; /* (a flat world's VEC leaves it out) */
    boids_vf sep_x = zero, sep_y = zero, coh_x = zero, coh_y = zero, ali_x = zero, ali_y = zero;
    boids_vf sep_z = zero, coh_z = zero, ali_z = zero;
    boids_vi n = (boids_vi)boids_vu_all(0);
    for (uint32_t j = 0; j < g->rows; ++j) {
        /* each lane's own range in this row (empty for unused lanes), as boids_vslot_from */
        const boids_vu own_b = boids_vu_load(g->own_begin[j], lanes, 0);
        const boids_vu own_e = boids_vu_load(g->own_end[j], lanes, 0);
        const boids_vi own = boids_vslot_bound(own_b, own_e);
        boids_vu at = boids_vslot_from(g->begin[j], own_b);
        for (uint32_t q = g->begin[j]; q < g->end[j]; ++q, at += step) {
            const boids_lane_offset d = boids_lane_offset_to(&o, q, unwrapped, THREE);
            const boids_vi mine = (boids_vi)at < own, key = boids_vdist_key(d.d2);
            const boids_vi sep = mine & (key < upto_s);
            const boids_vf inv_d = one / boids_vsqrt(boids_vselect(sep, d.d2, one));
            sep_x -= boids_vmask(d.dx * inv_d, sep);
            sep_y -= boids_vmask(d.dy * inv_d, sep);
            const boids_vi seen = in_view(heading, VEC(d.dx, d.dy, d.dz), d.d2, c);
            const boids_vi flock = mine & (key < upto_view) & seen;
            coh_x += boids_vmask(d.dx, flock);
            coh_y += boids_vmask(d.dy, flock);
            ali_x += boids_vmask(boids_vf_all(cvx[q]), flock);
            ali_y += boids_vmask(boids_vf_all(cvy[q]), flock);
            if (THREE) {
                sep_z -= boids_vmask(d.dz * inv_d, sep);
                coh_z += boids_vmask(d.dz, flock);
                ali_z += boids_vmask(boids_vf_all(cvz[q]), flock);
            }
            n -= flock; /* masks are -1 */
        }
    }
    *out = (kit_sums){sep_x, sep_y, coh_x, coh_y, ali_x, ali_y, (boids_vu)n,
                      zero,  zero,  sep_z, coh_z, ali_z, zero};
}

BOIDS_SIMD_CLONES static void kit_walk_group(const boids_cpu_step *s, uint32_t slot,
                                             const boids_cpu_group *g, kit_sums *out)
{
    if (g->unwrapped)
        kit_walk_lanes(s, slot, g, true, out);
    else
        kit_walk_lanes(s, slot, g, false, out);
}

/* eq. 6's sum for the boid in slot: the unit vectors away from the predators within R_P, from
 * the predators' grid (3D offsets in a 3D world). */
static void kit_flee(const boids_cpu_step *s, uint32_t slot, float *fx, float *fy, float *fz)
{
    const boids_kit_params *k = &s->params->kit;
    const float rp2 = k->predator_radius * k->predator_radius;
    const float x = s->cand.x[slot], y = s->cand.y[slot], z = THREE ? s->cand.z[slot] : 0.0f;
    float flee_x = 0.0f, flee_y = 0.0f, flee_z = 0.0f;
    boids_cpu_ranges r;
    boids_cpu_predators_near(s, boids_cpu_replica(s, s->cand.id[slot]), x, y, z, &r);
    for (uint32_t q = 0; q < r.count; ++q)
        for (uint32_t j = r.begin[q]; j < r.end[q]; ++j) {
            float dx, dy, dz;
            boids_pred_offset(s, x, y, z, j, &dx, &dy, &dz);
            float d2 = boids_length2(dx, dy, dz);
            if (!(d2 > 0.0f && d2 <= rp2)) continue;
            float inv_d = 1.0f / sqrtf(d2);
            flee_x -= dx * inv_d;
            flee_y -= dy * inv_d;
            flee_z -= dz * inv_d;
        }
    *fx = flee_x, *fy = flee_y, *fz = flee_z;
}

/* The rest of the step of the living boids of slots [slot, slot + lanes), from their sums: the
 * predators (eq. 6), then the rules (models/kit/rules.h) on the lanes, then the move. */
BOIDS_SIMD_CLONES static void kit_finish(const boids_cpu_step *s, uint32_t slot, uint32_t lanes,
                                         kit_sums *m)
{
    const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);
    for (uint32_t l = 0; l < lanes; ++l) {
        float fx, fy, fz;
        kit_flee(s, slot + l, &fx, &fy, &fz);
        m->flee_x[l] = fx, m->flee_y[l] = fy, m->flee_z[l] = fz;
    }
    const rules_boid b = boids_cpu_lane_boids(s, slot, lanes);
    const rules_boid next = kit_steer(&ctx, *m, b);
    boids_cpu_lane_store(s, slot, lanes, &b, &next);
}

void BOIDS_CPU_RULES_FN(kit)(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    kit_sums m;
    for (uint32_t slot = begin; slot < end;) {
        boids_cpu_group g;
        boids_cpu_group_at(s, slot, end, BOIDS_LANES,
                           &g); /* the dead are in the graveyard: alone */
        if (g.lanes > 1) {
            kit_walk_group(s, slot, &g, &m);
            kit_finish(s, slot, g.lanes, &m);
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
            kit_walk_alone(s, slot, &m);
            kit_finish(s, slot, 1, &m);
        }
        ++slot;
    }
}

#undef THREE
