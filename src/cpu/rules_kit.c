/* kit (docs/models.md (kit)), CPU reference: the boids' rules.
 *
 *   individuality (eq. 7-9): a = (age - 0.5)^2; R = view_radius - c_view_radius a,
 *     alpha = view_angle - c_view_angle a, v_max = max_speed - c_maxspeed a
 *   view field V: other boids at distance <= R whose offset is within alpha of the heading
 *   F_c = c_c (mean offset to V)              eq. 1 (minimum image: the mean position - x)
 *   F_a = c_a (mean velocity of V - v)        eq. 2
 *   F_s = -c_s sum (x_n - x)/|x_n - x|        eq. 3, every boid within R_S, seen or not
 *   F_pa = -c_pa sum (p_n - x)/|p_n - x|      eq. 6, every predator within R_P
 *   F_oa = -c_oa sum (o_n - x)/|o_n - x|      eq. 4, through the external-force hook
 *   v' = v + F_tot (no dt: eq. 10), cut to [v_min, v_max(age)] (eq. 11), x' = x + dt v' (eq. 12),
 *   wrapped (a torus).
 *
 * Dead boids (caught) and the boids of a stopped replica do not move; dead boids are in the
 * grid's graveyard, so nobody sees them. Distances are inclusive (<=), as in the authors' code;
 * a neighbour at distance 0 has no direction and counts in no sum; a boid at rest sees all
 * around and stays at rest. The view cone test compares squares (boids_in_view). The order of
 * every operation matches shaders/rules_kit.glsl. */
#include <math.h>

#include "cpu/simd.h"
#include "cpu/steer.h"

/* What a boid's walk over its flockmates gathers: eq. 3's sum over R_S, and the sums over its
 * view field V with their count; and its v_max, worked out with its view (individuality). */
typedef struct kit_sums {
    float sep_x, sep_y, coh_x, coh_y, ali_x, ali_y;
    uint32_t n;
    float vmax;
} kit_sums;

/* A boid's individuality (eq. 7-9) from its age: the squared view radius R^2, cos(alpha), and
 * v_max. walk_group computes the same on its lanes. */
static void individuality(const boids_cpu_step *s, uint32_t id, float *R2, float *cos_view,
                          float *vmax)
{
    const boids_kit_params *k = &s->params->kit;
    const float age = boids_cpu_attr_float(s, BOIDS_ATTR_AGE, id), a = (age - 0.5f) * (age - 0.5f);
    const float R = k->view_radius - k->c_view_radius * a;
    *R2 = R * R;
    *cos_view = boids_cos_deg(k->view_angle - k->c_view_angle * a);
    *vmax = s->params->base.max_speed - k->c_maxspeed * a;
}

/* One boid's walk over its flockmates. */
static void walk_one(const boids_cpu_step *s, uint32_t slot, kit_sums *m)
{
    const boids_kit_params *k = &s->params->kit;
    const float rs2 = k->sep_radius * k->sep_radius;
    const float *cvx = s->cand.vx, *cvy = s->cand.vy;
    const uint32_t *cid = s->cand.id;
    const uint32_t id = cid[slot];
    const float x = s->cand.x[slot], y = s->cand.y[slot], vx0 = cvx[slot], vy0 = cvy[slot];
    float R2, cos_view, vmax;
    individuality(s, id, &R2, &cos_view, &vmax);
    const float rmax2 = fmaxf(R2, rs2);
    *m = (kit_sums){.vmax = vmax};
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
                m->sep_x -= dx * inv_d;
                m->sep_y -= dy * inv_d;
            }
            if (d2 <= R2 && boids_in_view(vx0, vy0, dx, dy, d2, cos_view)) { /* the view field */
                m->coh_x += dx;
                m->coh_y += dy;
                m->ali_x += cvx[j];
                m->ali_y += cvy[j];
                m->n++;
            }
        }
    }
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
    /* individuality() on the lanes (the cosine's polynomial is a chain of a dozen operations) */
    boids_vf age = zero;
    for (uint32_t l = 0; l < lanes; ++l)
        age[l] = boids_cpu_attr_float(s, BOIDS_ATTR_AGE, cid[slot + l]);
    const boids_vf a = (age - boids_vf_all(0.5f)) * (age - boids_vf_all(0.5f));
    const boids_vf R = boids_vf_all(k->view_radius) - boids_vf_all(k->c_view_radius) * a,
                   R2 = R * R;
    const boids_vf c =
        boids_vcos_deg(boids_vf_all(k->view_angle) - boids_vf_all(k->c_view_angle) * a);
    const boids_vf vmax = boids_vf_all(s->params->base.max_speed) - boids_vf_all(k->c_maxspeed) * a;
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
    for (uint32_t l = 0; l < g->lanes; ++l)
        out[l] = (kit_sums){sep_x[l], sep_y[l], coh_x[l],       coh_y[l],
                            ali_x[l], ali_y[l], (uint32_t)n[l], vmax[l]};
}

BOIDS_SIMD_CLONES static void walk_group(const boids_cpu_step *s, uint32_t slot,
                                         const boids_cpu_group *g, kit_sums *out)
{
    if (g->unwrapped)
        walk_lanes(s, slot, g, true, out);
    else
        walk_lanes(s, slot, g, false, out);
}

/* The rest of a living boid's step from its sums: the predators (eq. 6), the forces, the speed
 * limits and the move. */
static void finish(const boids_cpu_step *s, uint32_t slot, const kit_sums *m)
{
    const boids_params *p = s->params;
    const boids_kit_params *k = &p->kit;
    const float rp2 = k->predator_radius * k->predator_radius;
    const uint32_t id = s->cand.id[slot], replica = boids_cpu_replica(s, id);
    const float x = s->cand.x[slot], y = s->cand.y[slot], vx0 = s->cand.vx[slot],
                vy0 = s->cand.vy[slot];
    /* eq. 6: the predators within R_P, from the predators' grid */
    float flee_x = 0.0f, flee_y = 0.0f;
    boids_cpu_ranges r;
    boids_cpu_predators_near(s, replica, x, y, &r);
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

    float fx = m->sep_x * k->separation_factor + flee_x * k->predator_factor;
    float fy = m->sep_y * k->separation_factor + flee_y * k->predator_factor;
    if (m->n > 0) {
        float fn = (float)m->n;
        fx += m->coh_x / fn * k->cohesion_factor + (m->ali_x / fn - vx0) * k->alignment_factor;
        fy += m->coh_y / fn * k->cohesion_factor + (m->ali_y / fn - vy0) * k->alignment_factor;
    }
    float ex, ey; /* the obstacles (eq. 4) and the mouse tool */
    boids_cpu_external_force(s, id, x, y, &ex, &ey);
    float vx = vx0 + (fx + ex), vy = vy0 + (fy + ey); /* eq. 10: v += F, no dt */
    boids_cpu_speed_limits(&vx, &vy, p->base.min_speed, m->vmax);
    boids_cpu_move(s, slot, x, y, vx, vy);
}

void boids_cpu_rules_kit(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    kit_sums m[BOIDS_GROUP_MAX];
    for (uint32_t slot = begin; slot < end;) {
        boids_cpu_group g;
        boids_cpu_group_at(s, slot, end, BOIDS_LANES,
                           &g); /* the dead are in the graveyard: alone */
        if (g.lanes > 1) {
            walk_group(s, slot, &g, m);
            for (uint32_t l = 0; l < g.lanes; ++l) finish(s, slot + l, &m[l]);
            slot += g.lanes;
            continue;
        }
        const uint32_t id = s->cand.id[slot];
        if (s->attr[BOIDS_ATTR_ALIVE][id] == 0 || boids_cpu_stopped(s, boids_cpu_replica(s, id))) {
            /* the caught, and a stopped replica, stand */
            s->out_x[slot] = s->cand.x[slot], s->out_y[slot] = s->cand.y[slot];
            s->out_vx[slot] = s->cand.vx[slot], s->out_vy[slot] = s->cand.vy[slot];
        } else {
            walk_one(s, slot, &m[0]);
            finish(s, slot, &m[0]);
        }
        ++slot;
    }
}
