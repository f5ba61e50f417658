/* Kit's oracle (Bruschke & Golks; docs/models.md (kit)): the catches open the step (a living boid
 * within boid_size + predator_size of a predator dies, and is nobody's neighbour); then cohesion
 * and alignment over the view field, the cone of half-angle alpha around the heading within R
 * (eq. 1, 2, 7-9: both shrink with age), separation from every boid within R_S (eq. 3), the
 * obstacles' push (eq. 4) and the flight from predators within R_P (eq. 6), all added to the
 * velocity as they are (eq. 10), which keeps within [v_min, v_max(age)] (eq. 11). A predator
 * attacks the nearest boid it sees (eq. 5), keeps apart from the others and from obstacles. */
#include <stdlib.h>

#include "models/oracle.h"

static const double PI = 3.14159265358979324;

static double angle_deg(boids_d3 a, boids_d3 b)
{
    const double c = boids_d3_dot(a, b) / (boids_d3_len(a) * boids_d3_len(b));
    return acos(c > 1 ? 1 : c < -1 ? -1 : c) * 180.0 / PI;
}

/* The offset from a to b on the torus (kit's worlds wrap). */
static boids_d3 off(const boids_oracle_world *w, boids_d3 a, boids_d3 b)
{
    return boids_oracle_offset(w, a, b);
}

/* The step's catches, taken in the order (predator, boid), each boid once (for the lowest
 * predator id within reach), the first stop_after_catches of them (0: all): caught[k] set for
 * each (the rest left as they are); their number. */
static uint32_t kit_catches(const boids_oracle_world *w, bool *caught)
{
    const boids_predators_params *q = &w->params->predators;
    const double reach = (double)q->boid_size + q->predator_size;
    uint32_t taken = 0;
    for (uint32_t p = 0; p < w->predator_count; ++p)
        for (uint32_t k = 0; k < w->count; ++k) {
            if (!w->boids[k].alive || (q->stop_after_catches && taken >= q->stop_after_catches))
                continue;
            bool first = true; /* within reach of p, and of no predator of a lower id */
            for (uint32_t r = 0; r <= p && first; ++r) {
                const boids_predator *h = &w->predators[r];
                const double d = boids_d3_len(
                    off(w, boids_oracle_position(&w->boids[k]), boids_d3_of(h->x, h->y, h->z)));
                first = r == p ? d <= reach : d > reach;
            }
            if (!first) continue;
            ++taken;
            caught[k] = true;
        }
    return taken;
}

/* The push -sum (o - x)/|o - x| of the points pts[0..n) within r of x (eq. 3, 4, 6's form),
 * point `skip` left out. */
static boids_d3 push(const boids_oracle_world *w, boids_d3 x, const boids_d3 *pts, uint32_t n,
                     double r, uint32_t skip)
{
    boids_d3 f = boids_d3_of(0, 0, 0);
    for (uint32_t j = 0; j < n; ++j) {
        if (j == skip) continue;
        const boids_d3 d = off(w, x, pts[j]);
        const double l = boids_d3_len(d);
        if (l > 0 && l <= r) f = boids_d3_sub(f, boids_d3_mul(d, 1 / l));
    }
    return f;
}

/* The world after the step's catches, computed once per oracle call: which boids live, whether
 * the catches stop the world (it then no longer moves, from this step on), and the living boids
 * (the dead far away), predators and obstacles as points. */
typedef struct kit_points {
    bool *alive, stops;
    boids_d3 *boids, *predators, *obstacles;
} kit_points;
static kit_points kit_points_of(const boids_oracle_world *w)
{
    kit_points k = {calloc(w->count + 1, sizeof(bool)), false,
                    malloc(sizeof(boids_d3) * (w->count + 1)),
                    malloc(sizeof(boids_d3) * (w->predator_count + 1)),
                    malloc(sizeof(boids_d3) * (w->obstacle_count + 1))};
    const uint32_t stop = w->params->predators.stop_after_catches;
    k.stops = kit_catches(w, k.alive) >= stop && stop; /* alive holds the caught here */
    for (uint32_t j = 0; j < w->count; ++j) {
        k.alive[j] = w->boids[j].alive && !k.alive[j];
        k.boids[j] = k.alive[j] ? boids_oracle_position(&w->boids[j]) : boids_d3_of(1e30, 0, 0);
    }
    for (uint32_t j = 0; j < w->predator_count; ++j)
        k.predators[j] = boids_d3_of(w->predators[j].x, w->predators[j].y, w->predators[j].z);
    for (uint32_t j = 0; j < w->obstacle_count; ++j)
        k.obstacles[j] = boids_d3_of(w->obstacles[j].x, w->obstacles[j].y, w->obstacles[j].z);
    return k;
}
static void kit_points_free(kit_points k)
{
    free(k.alive), free(k.boids), free(k.predators), free(k.obstacles);
}

/* The speed cut to [lo, hi] (eq. 11); at rest stays at rest. */
static boids_d3 cut(boids_d3 v, double lo, double hi) { return boids_d3_limits(v, lo, hi); }

static boids_boid kit_step(const boids_oracle_world *w, uint32_t i, bool *near)
{
    if (near) *near = false;
    const boids_params *prm = w->params;
    const boids_kit_params *k = &prm->kit;
    const boids_boid *me = &w->boids[i];
    const kit_points pts = kit_points_of(w);
    if (!pts.alive[i] || pts.stops) {
        boids_boid still = *me;
        still.alive = pts.alive[i];
        kit_points_free(pts);
        return still;
    }
    const double a = (me->age - 0.5) * (me->age - 0.5);
    const double R = k->view_radius - k->c_view_radius * a,
                 alpha = k->view_angle - k->c_view_angle * a;
    const double vmax = prm->base.max_speed - k->c_maxspeed * a;
    const boids_d3 v = boids_oracle_velocity(me), x = boids_oracle_position(me);
    boids_d3 coh = boids_d3_of(0, 0, 0), ali = coh;
    uint32_t nv = 0;
    for (uint32_t j = 0; j < w->count; ++j) { /* the view field V (eq. 1, 2) */
        if (j == i || !pts.alive[j]) continue;
        const boids_d3 d = off(w, x, boids_oracle_position(&w->boids[j]));
        if (boids_d3_len(d) > 0 && boids_d3_len(d) <= R &&
            (boids_d3_len(v) == 0 || angle_deg(v, d) <= alpha))
            coh = boids_d3_add(coh, d),
            ali = boids_d3_add(ali, boids_oracle_velocity(&w->boids[j])), ++nv;
    }
    boids_d3 F = boids_d3_of(0, 0, 0);
    if (nv)
        F = boids_d3_add(
            boids_d3_mul(coh, k->cohesion_factor / nv),
            boids_d3_mul(boids_d3_sub(boids_d3_mul(ali, 1.0 / nv), v), k->alignment_factor));
    const boids_d3 s = push(w, x, pts.boids, w->count, k->sep_radius, i); /* eq. 3 */
    const boids_d3 o = push(w, x, pts.obstacles, w->obstacle_count, prm->obstacles.obstacle_radius,
                            UINT32_MAX); /* eq. 4 */
    const boids_d3 pr =
        push(w, x, pts.predators, w->predator_count, k->predator_radius, UINT32_MAX); /* eq. 6 */
    kit_points_free(pts);
    F = boids_d3_add(F, boids_d3_mul(s, k->separation_factor));
    F = boids_d3_add(F, boids_d3_mul(o, prm->obstacles.obstacle_factor));
    F = boids_d3_add(F, boids_d3_mul(pr, k->predator_factor));
    return boids_oracle_move(w, i, cut(boids_d3_add(v, F), prm->base.min_speed, vmax)); /* 10 */
}

static boids_predator kit_predator_step(const boids_oracle_world *w, uint32_t i)
{
    const boids_predators_params *q = &w->params->predators;
    const boids_predator *me = &w->predators[i];
    const kit_points pts = kit_points_of(w);
    if (pts.stops) {
        kit_points_free(pts);
        return *me;
    }
    const boids_d3 v = boids_d3_of(me->vx, me->vy, me->vz), x = boids_d3_of(me->x, me->y, me->z);
    boids_d3 F = boids_d3_of(0, 0, 0), to = F;
    double best = INFINITY;
    for (uint32_t j = 0; j < w->count; ++j) { /* the nearest boid it sees (eq. 5) */
        if (!pts.alive[j]) continue;
        const boids_d3 d = off(w, x, boids_oracle_position(&w->boids[j]));
        const double l = boids_d3_len(d);
        if (l > 0 && l <= q->pred_view_radius && angle_deg(v, d) <= q->pred_view_angle && l < best)
            best = l, to = d;
    }
    if (best < INFINITY) F = boids_d3_mul(to, q->attack_factor / best);
    const boids_d3 s = push(w, x, pts.predators, w->predator_count, q->pred_sep_radius, i);
    const boids_d3 o =
        push(w, x, pts.obstacles, w->obstacle_count, q->pred_obstacle_radius, UINT32_MAX);
    kit_points_free(pts);
    F = boids_d3_add(F, boids_d3_mul(s, q->pred_sep_factor));
    F = boids_d3_add(F, boids_d3_mul(o, q->pred_obstacle_factor));
    const boids_d3 nv = cut(boids_d3_add(v, F), q->pred_min_speed, q->pred_max_speed);
    /* moved as a boid is */
    boids_boid as_boid = {0};
    as_boid.x = me->x, as_boid.y = me->y, as_boid.z = me->z;
    const boids_oracle_world one = {.params = w->params,
                                    .width = w->width,
                                    .height = w->height,
                                    .depth = w->depth,
                                    .dt = w->dt,
                                    .boids = &as_boid,
                                    .count = 1};
    const boids_boid m = boids_oracle_move(&one, 0, nv);
    return (boids_predator){m.x, m.y, m.vx, m.vy, m.z, m.vz};
}

/* No random draw in a step, no preferred direction. */
const boids_oracle boids_oracle_KIT = {
    .step = kit_step, .predator_step = kit_predator_step, .amplifies = true};
