/* Couzin's oracle (Couzin et al. 2002; docs/models.md (couzin), with the readings it states): the
 * unit vectors away from those in the zone of repulsion (eq. 1), else the headings of those in
 * the zone of orientation (eq. 2) and the unit vectors towards those in the zone of attraction
 * (eq. 3), half of each where both; the blind volume behind; the desired direction turned by a
 * wrapped Gaussian (the rules' own draws), then by at most theta tau; at speed s; then the
 * obstacles' push, s Theta[v + e tau]. With nearest:K, orientation and attraction take the K
 * nearest perceived beyond r_r. */
#include <stdlib.h>

#include "models/oracle.h"

static const double PI = 3.14159265358979324;
/* Float rounding is ~1e-7 of the distances: a boid this near an edge may go either way. */
static const double EPS = 2e-5;

typedef struct couzin_zones {
    boids_d3 rep, ori, att;
    int n_r, n_o, n_a;
} couzin_zones;

/* The K nearest of the perceived beyond r_r (by distance, then id), into the zones. */
static void couzin_nearest(const boids_oracle_world *w, boids_oracle_far *far, uint32_t n_far,
                           double ro, couzin_zones *z, bool *near)
{
    const uint32_t n = boids_oracle_nearest(far, n_far, w->nearest, EPS, near);
    for (uint32_t m = 0; m < n; ++m) {
        if (far[m].dist < ro)
            z->ori =
                boids_d3_add(z->ori, boids_d3_unit(boids_oracle_velocity(&w->boids[far[m].j]))),
            ++z->n_o;
        else
            z->att = boids_d3_add(z->att, boids_d3_mul(far[m].off, 1 / far[m].dist)), ++z->n_a;
    }
}

/* The zones' sums of individual i (eq. 1-3), the blind volume left out. */
static couzin_zones couzin_sums(const boids_oracle_world *w, uint32_t i, bool *near)
{
    const boids_couzin_params *p = &w->params->couzin;
    const boids_boid *b = w->boids;
    const double rr = p->repulsion_radius, ro = rr + p->orientation_width,
                 ra = ro + p->attraction_width, half = p->perception / 2 * PI / 180;
    const boids_d3 v = boids_oracle_velocity(&b[i]), u = boids_d3_unit(v);
    const uint32_t k = w->nearest;
    couzin_zones z = {0};
    boids_oracle_far *far = k ? malloc(sizeof *far * w->count) : NULL;
    uint32_t n_far = 0;
    for (uint32_t j = 0; j < w->count; ++j) {
        const boids_d3 off =
            boids_oracle_offset(w, boids_oracle_position(&b[i]), boids_oracle_position(&b[j]));
        const double dist = boids_d3_len(off);
        if (j == i || !(dist > 0)) continue;
        *near |= fabs(dist - rr) < EPS || fabs(dist - ro) < EPS || (!k && fabs(dist - ra) < EPS);
        if (dist >= ra && !k) continue;
        const bool repel = dist < rr;
        if (!repel && b[j].swarm != b[i].swarm) continue; /* another swarm: repulsion only */
        if (boids_d3_len(v) > 0 && (p->blind_repulsion != 0 || !repel)) {
            const double angle = acos(fmax(-1, fmin(1, boids_d3_dot(u, off) / dist)));
            *near |= fabs(angle - half) < EPS;
            if (angle > half) continue; /* in the blind volume */
        }
        if (repel)
            z.rep = boids_d3_add(z.rep, boids_d3_mul(off, -1 / dist)), ++z.n_r; /* eq. 1 */
        else if (k)
            far[n_far++] = (boids_oracle_far){dist, j, off};
        else if (dist < ro)
            z.ori = boids_d3_add(z.ori, boids_d3_unit(boids_oracle_velocity(&b[j]))), ++z.n_o;
        else
            z.att = boids_d3_add(z.att, boids_d3_mul(off, 1 / dist)), ++z.n_a; /* eq. 3 */
    }
    if (k) couzin_nearest(w, far, n_far, ro, &z, near);
    free(far);
    if (p->own_heading != 0 && z.n_o > 0) z.ori = boids_d3_add(z.ori, u);
    return z;
}

/* The desired direction w0 turned by the wrapped Gaussian of draws 0 and 1. */
static boids_d3 couzin_noise(const boids_oracle_world *w, uint32_t i, boids_d3 w0)
{
    const double rho =
        w->params->couzin.noise * sqrt(-2 * log(1 - boids_oracle_draw(w->seed, i, 0)));
    const double phi = (boids_oracle_draw(w->seed, i, 1) * 360 - 180) * PI / 180;
    if (w->depth <= 0) {
        const double a = atan2(w0.y, w0.x) + rho * cos(phi);
        return boids_d3_of(cos(a), sin(a), 0);
    }
    /* polar angle rho at azimuth phi, about the basis of Duff et al. around w0 */
    const double sign = w0.z < 0 ? -1 : 1, a = -1 / (sign + w0.z), bb = w0.x * w0.y * a;
    const boids_d3 b1 = boids_d3_of(1 + sign * w0.x * w0.x * a, sign * bb, -sign * w0.x);
    const boids_d3 b2 = boids_d3_of(bb, sign + w0.y * w0.y * a, -w0.y);
    const boids_d3 t = boids_d3_add(boids_d3_mul(b1, cos(phi)), boids_d3_mul(b2, sin(phi)));
    return boids_d3_add(boids_d3_mul(w0, cos(rho)), boids_d3_mul(t, sin(rho)));
}

static boids_boid couzin_step(const boids_oracle_world *w, uint32_t i, bool *near_out)
{
    bool near = false;
    const boids_params *p = w->params;
    const boids_d3 v = boids_oracle_velocity(&w->boids[i]), u = boids_d3_unit(v);
    const couzin_zones z = couzin_sums(w, i, &near);
    boids_d3 want =
        z.n_r > 0 ? z.rep
        : z.n_o > 0 && z.n_a > 0
            ? boids_d3_mul(boids_d3_add(boids_d3_unit(z.ori), boids_d3_unit(z.att)), 0.5)
        : z.n_o > 0 ? z.ori
        : z.n_a > 0 ? z.att
                    : u;
    if (boids_d3_len(want) < 1e-5) near = true; /* a sum that (nearly) cancels */
    if (!(boids_d3_len(want) > 0)) want = boids_d3_len(u) > 0 ? u : boids_d3_of(1, 0, 0);
    const boids_d3 dir = couzin_noise(w, i, boids_d3_unit(want));
    /* the turn: at most theta tau */
    const double turn = fmin(p->couzin.turning_rate * w->dt, 180) * PI / 180;
    boids_d3 h = dir;
    if (boids_d3_len(v) > 0) {
        const double angle = acos(fmax(-1, fmin(1, boids_d3_dot(u, dir))));
        near |= fabs(angle - turn) < EPS || angle > PI - EPS;
        if (angle > turn) {
            const boids_d3 side =
                boids_d3_unit(boids_d3_add(dir, boids_d3_mul(u, -boids_d3_dot(u, dir))));
            h = boids_d3_add(boids_d3_mul(u, cos(turn)), boids_d3_mul(side, sin(turn)));
        }
    }
    const boids_d3 nv = boids_d3_at(h, p->base.max_speed);
    /* the obstacles' push e: s Theta[v + e tau] (near where a boid is at the reach's edge) */
    for (uint32_t o = 0; o < w->obstacle_count; ++o) {
        const boids_obstacle *c = &w->obstacles[o];
        const double d = boids_d3_len(boids_oracle_offset(w, boids_d3_of(c->x, c->y, c->z),
                                                          boids_oracle_position(&w->boids[i])));
        near |= fabs(d - p->obstacles.obstacle_radius) < EPS;
    }
    if (near_out) *near_out = near;
    return boids_oracle_move(w, i, boids_oracle_external_turn(w, i, nv, p->base.max_speed));
}

/* Without the noise it draws nothing; its 3D noise's basis does not turn with the axes, so it is
 * the same in every direction only without the noise too. */
static void couzin_noiseless(boids_params *p) { p->couzin.noise = 0; }

/* Zones of a few px, as the paper's unit lengths scaled to the tests' spacing. */
static void couzin_px_scale(boids_params *p)
{
    p->couzin.repulsion_radius = 6;
    p->couzin.orientation_width = 10;
    p->couzin.attraction_width = 14;
    p->base.max_speed = p->base.min_speed = 3;
}

const boids_oracle boids_oracle_COUZIN = {.step = couzin_step,
                                          .noiseless = couzin_noiseless,
                                          .px_scale = couzin_px_scale,
                                          .amplifies = true,
                                          .external = true};
