/* The predators' walks (models with BOIDS_FEATURE_PREDATORS), CPU reference: the catches that
 * open a step (which cpu/predators.c then makes so) and the predators' steering after the boids'
 * step. From the kit paper (§2.3, eq. 5, tables 1 and 3) and the authors' code where the paper
 * is silent, the steering:
 *
 *   F = c_at u(nearest boid in view) - c_pa' sum u(other predators within R_P')
 *       - c_oa' sum u(obstacles within R_O'), u the unit vector from the predator; the view is
 *   distance <= pred_view_radius and angle <= pred_view_angle around the heading (a cone in 3D;
 *   the nearest: the first in the canonical order at the least distance); v' = v + F cut to
 *   [pred_min_speed, pred_max_speed] (rules/hunt.h, the one source of both backends),
 *   x' = x + dt v', through the edges.
 *
 * The generated unit of the rules includes this file once per dimension (cmake/glsl_gen.c):
 * boids_cpu_catch and boids_cpu_hunt for flat worlds, boids_cpu_catch3 and boids_cpu_hunt3 for 3D
 * ones, where the offsets, the view cone and the obstacles (spheres) have z; a flat world's code
 * is what it was. The walks stay per backend, as the boids' walks do; the order of every
 * operation matches shaders/catch.comp and shaders/hunt.comp. */
#include <math.h>

#include "cpu/lanes.h"
#include "rules/hunt.h"

#if BOIDS_DIMS == 3
#define BOIDS_CPU_CATCH_FN boids_cpu_catch3
#define BOIDS_CPU_HUNT_FN boids_cpu_hunt3
#else
#define BOIDS_CPU_CATCH_FN boids_cpu_catch
#define BOIDS_CPU_HUNT_FN boids_cpu_hunt
#endif

/* The catches (rules/hunt.h's caught_by: a living boid of a running replica within boid_size +
 * predator_size of a predator, by the lowest predator id within reach; cpu/predators.c says the
 * rest); the order of every operation matches shaders/catch.comp. */
void BOIDS_CPU_CATCH_FN(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);
    const float reach2 = catch_reach2(&ctx);
    for (uint32_t e = begin; e < end; ++e) {
        const uint32_t id = s->cur_id[e], replica = boids_cpu_replica(s, id);
        /* step t (the grid comes after) */
        const float x = s->cur_x[e], y = s->cur_y[e], z = BOIDS_DIMS == 3 ? s->cur_z[e] : 0.0f;
        boids_cpu_ranges r;
        boids_cpu_predators_near(s, replica, x, y, z, &r);
        if (r.count == 0)
            continue; /* most boids: no predator's block (before the attribute, by id) */
        if (s->attr[BOIDS_ATTR_ALIVE][id] == 0 || boids_cpu_stopped(s, replica)) continue;
        uint32_t best = UINT32_MAX;
        float best_d2 = 0.0f;
        for (uint32_t q = 0; q < r.count; ++q)
            for (uint32_t j = r.begin[q]; j < r.end[q]; ++j) {
                float dx, dy, dz;
                boids_pred_offset(s, x, y, z, j, &dx, &dy, &dz);
                float d2 = boids_length2(dx, dy, dz);
                if (caught_by(d2, reach2, s->pred.id[j], best)) {
                    best = s->pred.id[j];
                    best_d2 = d2;
                }
            }
        if (best == UINT32_MAX) continue;
        const uint32_t k =
            __atomic_fetch_add(s->catch_count, 1u, __ATOMIC_RELAXED); /* sorted after */
        s->catches[k] = (boids_catch){replica, best, id, best_d2};
    }
}

void BOIDS_CPU_HUNT_FN(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    const boids_predators_params *pp = &s->params->predators;
    const float view2 = pp->pred_view_radius * pp->pred_view_radius,
                sep2 = pp->pred_sep_radius * pp->pred_sep_radius;
    const float cos_view = boids_cos_deg(pp->pred_view_angle);
    const uint32_t per = s->sim->predators_per_replica;
    const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);
    const bool three = BOIDS_DIMS == 3;
    for (uint32_t slot = begin; slot < end; ++slot) {
        const uint32_t pid = s->pred.id[slot], replica = pid / per;
        const float x = s->pred.x[slot], y = s->pred.y[slot], vx0 = s->pred.vx[slot],
                    vy0 = s->pred.vy[slot];
        const float z = three ? s->pred.z[slot] : 0.0f, vz0 = three ? s->pred.vz[slot] : 0.0f;
        if (boids_cpu_stopped(s, replica)) {
            s->pred_out_x[pid] = x, s->pred_out_y[pid] = y, s->pred_out_vx[pid] = vx0,
            s->pred_out_vy[pid] = vy0;
            if (three) s->pred_out_z[pid] = z, s->pred_out_vz[pid] = vz0;
            continue;
        }
        /* eq. 5: the nearest boid in view, through the boids' grid (the dead are not in it) */
        float near_dx = 0.0f, near_dy = 0.0f, near_dz = 0.0f, near_d2 = INFINITY;
        boids_cpu_ranges r;
        boids_cpu_ranges_near(&s->grid->dims, s->grid->cell_start,
                              boids_cell_of(&s->grid->dims, replica, x, y, z), &r);
        for (uint32_t q = 0; q < r.count; ++q)
            for (uint32_t j = r.begin[q]; j < r.end[q]; ++j) {
                float dx, dy;
                boids_cand_offset(s, x, y, j, &dx, &dy);
                const float dz = three ? boids_cand_offset_z(s, z, j) : 0.0f;
                float d2 = boids_length2(dx, dy, dz);
                if (!(d2 > 0.0f && d2 <= view2 && d2 < near_d2)) continue;
                if (!boids_in_view(vx0, vy0, vz0, dx, dy, dz, d2, cos_view)) continue;
                near_dx = dx, near_dy = dy, near_dz = dz, near_d2 = d2;
            }
        /* keeping apart from the other predators, and from the obstacles */
        float sx = 0.0f, sy = 0.0f, sz = 0.0f, ox = 0.0f, oy = 0.0f, oz = 0.0f;
        boids_cpu_predators_near(s, replica, x, y, z, &r);
        for (uint32_t q = 0; q < r.count; ++q)
            for (uint32_t j = r.begin[q]; j < r.end[q]; ++j) {
                if (s->pred.id[j] == pid) continue;
                float dx, dy, dz;
                boids_pred_offset(s, x, y, z, j, &dx, &dy, &dz);
                float d2 = boids_length2(dx, dy, dz);
                if (!(d2 > 0.0f && d2 <= sep2)) continue;
                float d = sqrtf(d2);
                sx -= dx / d;
                sy -= dy / d;
                sz -= dz / d;
            }
        if (s->sim->obstacle_count > 0)
            boids_cpu_obstacle_push(s, replica, x, y, z, pp->pred_obstacle_radius, false, &ox, &oy,
                                    &oz);
        /* the steering (rules/hunt.h), on a lane of its own */
        const hunt_sums m = {boids_vf_all(near_dx), boids_vf_all(near_dy), boids_vf_all(near_d2),
                             boids_vf_all(sx),      boids_vf_all(sy),      boids_vf_all(ox),
                             boids_vf_all(oy),      boids_vf_all(near_dz), boids_vf_all(sz),
                             boids_vf_all(oz)};
        const lane_vec v =
            hunt_velocity(&ctx, m, VEC(boids_vf_all(vx0), boids_vf_all(vy0), boids_vf_all(vz0)));
        const lane_vec q =
            moved_position(&ctx, VEC(boids_vf_all(x), boids_vf_all(y), boids_vf_all(z)), v);
        s->pred_out_x[pid] = q.x[0], s->pred_out_y[pid] = q.y[0], s->pred_out_vx[pid] = v.x[0],
        s->pred_out_vy[pid] = v.y[0];
#if BOIDS_DIMS == 3
        s->pred_out_z[pid] = q.z[0], s->pred_out_vz[pid] = v.z[0];
#endif
    }
}
