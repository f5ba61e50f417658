/* kit (docs/models.md (kit)), the CPU's walks: the rules are rules/kit.h, shared with the GPU; its
 * view field is its own walk (shaders/rules_kit.glsl is the GPU's), so this file gathers
 * kit_sums: over the boids within R_S (eq. 3) and in the view field, and over the predators
 * within R_P (eq. 6). Up to BOIDS_LANES boids of a cell row walk together on SIMD lanes
 * (boids_cpu_group); a boid that cannot walks alone. Either way its sums are the same bits, added
 * in the order of the shader's walk. */
#include <math.h>

#include "cpu/lanes.h"
#include "rules/kit.h"

/* One boid's walk over its flockmates. */
static void walk_one(const boids_cpu_step *s, uint32_t slot, kit_sums *m)
{
    const boids_kit_params *k = &s->params->kit;
    const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);
    const float rs2 = k->sep_radius * k->sep_radius;
    const float *cvx = s->cand.vx, *cvy = s->cand.vy;
    const uint32_t *cid = s->cand.id;
    const uint32_t id = cid[slot];
    const float x = s->cand.x[slot], y = s->cand.y[slot], vx0 = cvx[slot], vy0 = cvy[slot];
    /* its individuality: computed on lanes, taken from the first */
    const kit_view view =
        kit_individuality(&ctx, boids_vf_all(boids_cpu_attr_float(s, BOIDS_ATTR_AGE, id)));
    const float R2 = view.R2[0], cos_view = view.cos_view[0];
    const float rmax2 = fmaxf(R2, rs2);
    float sep_x = 0.0f, sep_y = 0.0f, coh_x = 0.0f, coh_y = 0.0f, ali_x = 0.0f, ali_y = 0.0f;
    uint32_t n = 0;
    boids_cpu_ranges r;
    boids_cpu_candidates(s, slot, &r);
    for (uint32_t q = 0; q < r.count; ++q) {
        for (uint32_t j = r.begin[q]; j < r.end[q]; ++j) {
            if (cid[j] == id) continue;
            float dx, dy;
            boids_cand_offset(s, x, y, j, &dx, &dy);
            float d2 = dx * dx + dy * dy;
            if (!(d2 > 0.0f && d2 <= rmax2)) continue;
            if (d2 <= rs2) {                    /* eq. 3: every boid within R_S */
                float inv_d = 1.0f / sqrtf(d2); /* one division, two products (as the shader) */
                sep_x -= dx * inv_d;
                sep_y -= dy * inv_d;
            }
            if (d2 <= R2 && boids_in_view(vx0, vy0, dx, dy, d2, cos_view)) { /* the view field */
                coh_x += dx;
                coh_y += dy;
                ali_x += cvx[j];
                ali_y += cvy[j];
                n++;
            }
        }
    }
    const boids_vf zero = boids_vf_all(0.0f);
    *m = (kit_sums){zero, zero, zero, zero, zero, zero, boids_vu_all(0),
                    zero, zero, zero, zero, zero, zero}; /* (z: kit is flat for now) */
    m->sep_x[0] = sep_x, m->sep_y[0] = sep_y, m->coh_x[0] = coh_x, m->coh_y[0] = coh_y;
    m->ali_x[0] = ali_x, m->ali_y[0] = ali_y, m->n[0] = n;
}

/* The walk of a lane group (boids_cpu_group, as walk_reynolds.c's): walk_one's operations on
 * every lane, each lane with its own R, view cone and heading; a candidate a lane does not take
 * adds +0 there, so each lane's sums are walk_one's bits. boids_in_view's branches become masks
 * (its squares are the same products in the same order). As in walk_reynolds.c, an unwrapped
 * group (a constant where this is inlined) skips the minimum image, and the test that a
 * candidate is not the boid itself is left to d2 > 0 (its offset is exactly (0, 0)). */
BOIDS_VINLINE void walk_lanes(const boids_cpu_step *s, uint32_t slot, const boids_cpu_group *g,
                              const bool unwrapped, kit_sums *out)
{
    const boids_kit_params *k = &s->params->kit;
    const boids_vf zero = boids_vf_all(0.0f), one = boids_vf_all(1.0f);
    const float w = s->sim->def.width, h = s->sim->def.height, hw = s->sim->half_w,
                hh = s->sim->half_h;
    const float *cx = s->cand.x, *cy = s->cand.y, *cvx = s->cand.vx, *cvy = s->cand.vy;
    const uint32_t *cid = s->cand.id;
    const uint32_t lanes = g->lanes;
    const boids_vf x = boids_vf_load(cx + slot, lanes, 0.0f),
                   y = boids_vf_load(cy + slot, lanes, 0.0f);
    const boids_vf vx = boids_vf_load(cvx + slot, lanes, 0.0f),
                   vy = boids_vf_load(cvy + slot, lanes, 0.0f);
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
    /* boids_in_view's parts that do not depend on the candidate */
    const boids_vf v2 = vx * vx + vy * vy, ccv2 = c * c * v2;
    const boids_vi at_rest = ~(v2 > zero), cone_narrow = c >= zero;
    boids_vf sep_x = zero, sep_y = zero, coh_x = zero, coh_y = zero, ali_x = zero, ali_y = zero;
    boids_vi n = (boids_vi)boids_vu_all(0);
    for (uint32_t j = 0; j < g->rows; ++j) {
        /* each lane's own range in this row (empty for unused lanes), as boids_vslot_from */
        const boids_vu own_b = boids_vu_load(g->own_begin[j], lanes, 0);
        const boids_vu own_e = boids_vu_load(g->own_end[j], lanes, 0);
        const boids_vi own = boids_vslot_bound(own_b, own_e);
        boids_vu at = boids_vslot_from(g->begin[j], own_b);
        for (uint32_t q = g->begin[j]; q < g->end[j]; ++q, at += step) {
            const boids_vf dx = unwrapped ? boids_vf_all(cx[q]) - x
                                          : boids_vmin_image(x, boids_vf_all(cx[q]), w, hw);
            const boids_vf dy = unwrapped ? boids_vf_all(cy[q]) - y
                                          : boids_vmin_image(y, boids_vf_all(cy[q]), h, hh);
            const boids_vf d2 = dx * dx + dy * dy;
            const boids_vi mine = (boids_vi)at < own, key = boids_vdist_key(d2);
            const boids_vi sep = mine & (key < upto_s);
            const boids_vf inv_d = one / boids_vsqrt(boids_vselect(sep, d2, one));
            sep_x -= boids_vmask(dx * inv_d, sep);
            sep_y -= boids_vmask(dy * inv_d, sep);
            const boids_vf dot = vx * dx + vy * dy, lhs = dot * dot, rhs = ccv2 * d2;
            const boids_vi ahead = dot >= zero;
            const boids_vi seen = at_rest | (cone_narrow & ahead & (lhs >= rhs)) |
                                  (~cone_narrow & (ahead | (lhs <= rhs)));
            const boids_vi flock = mine & (key < upto_view) & seen;
            coh_x += boids_vmask(dx, flock);
            coh_y += boids_vmask(dy, flock);
            ali_x += boids_vmask(boids_vf_all(cvx[q]), flock);
            ali_y += boids_vmask(boids_vf_all(cvy[q]), flock);
            n -= flock; /* masks are -1 */
        }
    }
    *out = (kit_sums){sep_x, sep_y, coh_x, coh_y, ali_x, ali_y, (boids_vu)n,
                      zero,  zero,  zero,  zero,  zero,  zero};
}

BOIDS_SIMD_CLONES static void walk_group(const boids_cpu_step *s, uint32_t slot,
                                         const boids_cpu_group *g, kit_sums *out)
{
    if (g->unwrapped)
        walk_lanes(s, slot, g, true, out);
    else
        walk_lanes(s, slot, g, false, out);
}

/* eq. 6's sum for the boid in slot: the unit vectors away from the predators within R_P, from
 * the predators' grid. */
static void flee(const boids_cpu_step *s, uint32_t slot, float *fx, float *fy)
{
    const boids_kit_params *k = &s->params->kit;
    const float rp2 = k->predator_radius * k->predator_radius;
    const float x = s->cand.x[slot], y = s->cand.y[slot];
    float flee_x = 0.0f, flee_y = 0.0f;
    boids_cpu_ranges r;
    boids_cpu_predators_near(s, boids_cpu_replica(s, s->cand.id[slot]), x, y, &r);
    for (uint32_t q = 0; q < r.count; ++q)
        for (uint32_t j = r.begin[q]; j < r.end[q]; ++j) {
            float dx, dy;
            boids_pred_offset(s, x, y, j, &dx, &dy);
            float d2 = dx * dx + dy * dy;
            if (!(d2 > 0.0f && d2 <= rp2)) continue;
            float inv_d = 1.0f / sqrtf(d2);
            flee_x -= dx * inv_d;
            flee_y -= dy * inv_d;
        }
    *fx = flee_x;
    *fy = flee_y;
}

/* The rest of the step of the living boids of slots [slot, slot + lanes), from their sums: the
 * predators (eq. 6), then the rules (rules/kit.h) on the lanes, then the move. */
BOIDS_SIMD_CLONES static void finish(const boids_cpu_step *s, uint32_t slot, uint32_t lanes,
                                     kit_sums *m)
{
    const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);
    for (uint32_t l = 0; l < lanes; ++l) {
        float fx, fy;
        flee(s, slot + l, &fx, &fy);
        m->flee_x[l] = fx, m->flee_y[l] = fy;
    }
    const rules_boid b = boids_cpu_lane_boids(s, slot, lanes);
    const rules_boid next = kit_steer(&ctx, *m, b);
    boids_cpu_lane_store(s, slot, lanes, &b, &next);
}

void boids_cpu_rules_kit(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    kit_sums m;
    for (uint32_t slot = begin; slot < end;) {
        boids_cpu_group g;
        boids_cpu_group_at(s, slot, end, BOIDS_LANES,
                           &g); /* the dead are in the graveyard: alone */
        if (g.lanes > 1) {
            walk_group(s, slot, &g, &m);
            finish(s, slot, g.lanes, &m);
            slot += g.lanes;
            continue;
        }
        const uint32_t id = s->cand.id[slot];
        if (s->attr[BOIDS_ATTR_ALIVE][id] == 0 || boids_cpu_stopped(s, boids_cpu_replica(s, id))) {
            /* the caught, and a stopped replica, stand */
            s->out_x[slot] = s->cand.x[slot], s->out_y[slot] = s->cand.y[slot];
            s->out_vx[slot] = s->cand.vx[slot], s->out_vy[slot] = s->cand.vy[slot];
        } else {
            walk_one(s, slot, &m);
            finish(s, slot, 1, &m);
        }
        ++slot;
    }
}
