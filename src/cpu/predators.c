/* Predators (models with BOIDS_FEATURE_PREDATORS), CPU reference: the catches at the start of a
 * step, and the predators' steering after the boids'. From the kit paper (§2.3, eq. 5, tables 1
 * and 3) and the authors' code where the paper is silent:
 *
 *   catch: a living boid of a running replica within boid_size + predator_size (minimum image)
 *     of a predator dies; within reach of several, the lowest predator id catches it. Each catch
 *     is a BOIDS_EVENT_CATCH event and counts for the replica, which stops at the step its
 *     catches reach stop_after_catches (0: never): a step's catches are taken in the order
 *     (predator, boid), as the authors' code lets its predators catch one after another, and
 *     those past the K-th are not made (the boid lives on, the replica has stopped).
 *   hunt: F = c_at u(nearest boid in view) - c_pa' sum u(other predators within R_P')
 *           - c_oa' sum u(obstacles within R_O'), u the unit vector from the predator; the view
 *     is distance <= pred_view_radius and angle <= pred_view_angle (the nearest: the first in the
 *     canonical order at the least distance); v' = v + F cut to [pred_min_speed,
 *     pred_max_speed] (rules/hunt.h, the one source of both backends), x' = x + dt v', wrapped.
 *
 * The catches and the hunt's walks stay per backend, as the boids' walks do (the catches'
 * order is a matter of the CPU's threads or the GPU's atomics, and test_agreement and test_kit
 * hold the two equal); the order of every operation matches shaders/catch.comp and
 * shaders/hunt.comp. */
#include <math.h>
#include <stdlib.h>

#include "cpu/lanes.h"
#include "rules/hunt.h"

void boids_cpu_catch(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    const boids_predators_params *pp = &s->params->predators;
    const float reach = pp->boid_size + pp->predator_size, reach2 = reach * reach;
    for (uint32_t e = begin; e < end; ++e) {
        const uint32_t id = s->cur_id[e], replica = boids_cpu_replica(s, id);
        const float x = s->cur_x[e], y = s->cur_y[e]; /* step t (the grid comes after) */
        boids_cpu_ranges r;
        boids_cpu_predators_near(s, replica, x, y, &r);
        if (r.count == 0)
            continue; /* most boids: no predator's block (before the attribute, by id) */
        if (s->attr[BOIDS_ATTR_ALIVE][id] == 0 || boids_cpu_stopped(s, replica)) continue;
        uint32_t best = UINT32_MAX;
        float best_d2 = 0.0f;
        for (uint32_t q = 0; q < r.count; ++q)
            for (uint32_t j = r.begin[q]; j < r.end[q]; ++j) {
                float dx, dy;
                boids_pred_offset(s, x, y, j, &dx, &dy);
                float d2 = dx * dx + dy * dy;
                if (d2 <= reach2 && s->pred.id[j] < best) {
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

static int by_replica_predator_boid(const void *pa, const void *pb)
{
    const boids_catch *a = pa, *b = pb;
    if (a->replica != b->replica) return a->replica < b->replica ? -1 : 1;
    if (a->predator != b->predator) return a->predator < b->predator ? -1 : 1;
    return a->boid < b->boid ? -1 : a->boid > b->boid;
}

void boids_cpu_apply_catches(const boids_cpu_step *s)
{
    const uint32_t n = *s->catch_count, stop = s->params->predators.stop_after_catches;
    qsort(s->catches, n, sizeof *s->catches, by_replica_predator_boid);
    for (uint32_t i = 0; i < n; ++i) {
        const boids_catch *c = &s->catches[i];
        boids_replica_record *r = &s->replicas[c->replica];
        if (stop > 0 && r->catches >= stop) continue; /* past the K-th: not made */
        s->attr[BOIDS_ATTR_ALIVE][c->boid] = 0;
        r->catches++;
        if (s->sim->def.event_mask & (1u << BOIDS_EVENT_CATCH))
            boids_cpu_emit(s, BOIDS_EVENT_CATCH, c->boid, c->predator,
                           boids_cpu_attr_float(s, BOIDS_ATTR_AGE, c->boid), sqrtf(c->d2), 0.0f,
                           0.0f);
    }
    for (uint32_t r = 0; r < s->sim->def.replicas;
         ++r) /* a replica stops at the step its catches reach K */
        if (stop > 0 && s->replicas[r].catches >= stop && s->replicas[r].stop_step == BOIDS_RUNNING)
            s->replicas[r].stop_step = s->step;
}

void boids_cpu_hunt(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    const boids_predators_params *pp = &s->params->predators;
    const float view2 = pp->pred_view_radius * pp->pred_view_radius,
                sep2 = pp->pred_sep_radius * pp->pred_sep_radius;
    const float cos_view = boids_cos_deg(pp->pred_view_angle);
    const uint32_t per = s->sim->predators_per_replica;
    const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);
    for (uint32_t slot = begin; slot < end; ++slot) {
        const uint32_t pid = s->pred.id[slot], replica = pid / per;
        const float x = s->pred.x[slot], y = s->pred.y[slot], vx0 = s->pred.vx[slot],
                    vy0 = s->pred.vy[slot];
        if (boids_cpu_stopped(s, replica)) {
            s->pred_out_x[pid] = x, s->pred_out_y[pid] = y, s->pred_out_vx[pid] = vx0,
            s->pred_out_vy[pid] = vy0;
            continue;
        }
        /* eq. 5: the nearest boid in view, through the boids' grid (the dead are not in it) */
        float near_dx = 0.0f, near_dy = 0.0f, near_d2 = INFINITY;
        boids_cpu_ranges r;
        boids_cpu_ranges_near(&s->grid->dims, s->grid->cell_start,
                              boids_cell_of(&s->grid->dims, replica, x, y, 0.0f), &r);
        for (uint32_t q = 0; q < r.count; ++q)
            for (uint32_t j = r.begin[q]; j < r.end[q]; ++j) {
                float dx, dy;
                boids_cand_offset(s, x, y, j, &dx, &dy);
                float d2 = dx * dx + dy * dy;
                if (!(d2 > 0.0f && d2 <= view2 && d2 < near_d2)) continue;
                if (!boids_in_view(vx0, vy0, dx, dy, d2, cos_view)) continue;
                near_dx = dx, near_dy = dy, near_d2 = d2;
            }
        /* keeping apart from the other predators, and from the obstacles */
        float sx = 0.0f, sy = 0.0f, ox = 0.0f, oy = 0.0f, oz = 0.0f;
        boids_cpu_predators_near(s, replica, x, y, &r);
        for (uint32_t q = 0; q < r.count; ++q)
            for (uint32_t j = r.begin[q]; j < r.end[q]; ++j) {
                if (s->pred.id[j] == pid) continue;
                float dx, dy;
                boids_pred_offset(s, x, y, j, &dx, &dy);
                float d2 = dx * dx + dy * dy;
                if (!(d2 > 0.0f && d2 <= sep2)) continue;
                float d = sqrtf(d2);
                sx -= dx / d;
                sy -= dy / d;
            }
        if (s->sim->obstacle_count > 0)
            boids_cpu_obstacle_push(s, replica, x, y, 0.0f, pp->pred_obstacle_radius, false, &ox,
                                    &oy, &oz); /* (predators are flat) */
        /* the steering (rules/hunt.h), on a lane of its own */
        const hunt_sums m = {boids_vf_all(near_dx), boids_vf_all(near_dy), boids_vf_all(near_d2),
                             boids_vf_all(sx),      boids_vf_all(sy),      boids_vf_all(ox),
                             boids_vf_all(oy),      boids_vf_all(0.0f),    boids_vf_all(0.0f),
                             boids_vf_all(0.0f)}; /* (z: predators are flat for now) */
        const lane_vec v =
            hunt_velocity(&ctx, m, VEC(boids_vf_all(vx0), boids_vf_all(vy0), boids_vf_all(0.0f)));
        const lane_vec q =
            moved_position(&ctx, VEC(boids_vf_all(x), boids_vf_all(y), boids_vf_all(0.0f)), v);
        s->pred_out_x[pid] = q.x[0], s->pred_out_y[pid] = q.y[0], s->pred_out_vx[pid] = v.x[0],
        s->pred_out_vy[pid] = v.y[0];
    }
}
