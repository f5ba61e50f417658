/* Gregoire & Chate's oracle (Phys. Rev. Lett. 92, 025702 (2004); docs/models.md
 * (gregoire-chate), with the readings it states): v_0 Theta[alpha sum v_j / v_0 + beta sum f_ij
 * e_ij + eta n_i xi_i] over the neighbours within r_0 (its own swarm; itself in the alignment
 * and in n_i), f the paper's three bands; where anyone (any swarm) is within r_c, Theta[-sum
 * e_ij] over those alone. With nearest:K, the K nearest beyond r_c are the neighbours. Then the
 * obstacles' push, v_0 Theta[v + e]. The noise's draws are the rules' own (boids_oracle_draw). */
#include <stdlib.h>

#include "models/oracle.h"

static const double PI = 3.14159265358979324;
/* Float rounding is ~1e-7 of the distances: a particle this near a band's edge may go either
 * way. */
static const double EPS = 2e-5;

/* What i gathers: towards the hard cores, the velocities, sum f_ij e_ij and the count. */
typedef struct gregoire_terms {
    boids_d3 core, ali, frc;
    uint32_t n_c, n;
} gregoire_terms;

/* The pair force of a neighbour at distance dist and offset off (r_c <= dist), f e_ij. */
static boids_d3 gregoire_pair(const boids_gregoire_params *p, double dist, boids_d3 off)
{
    const double ra = p->attraction_radius, re = p->equilibrium;
    const double f = dist < ra ? (dist - re) / (4 * (ra - re)) : 1;
    return boids_d3_mul(off, f / dist);
}

static void gregoire_add(const boids_oracle_world *w, uint32_t j, double dist, boids_d3 off,
                         gregoire_terms *t)
{
    t->ali = boids_d3_add(t->ali, boids_oracle_velocity(&w->boids[j]));
    t->frc = boids_d3_add(t->frc, gregoire_pair(&w->params->gregoire, dist, off));
    ++t->n;
}

/* The K nearest beyond r_c (by distance, then id), into the terms. */
static void gregoire_nearest(const boids_oracle_world *w, boids_oracle_far *far, uint32_t n_far,
                             gregoire_terms *t, bool *near)
{
    const uint32_t n = boids_oracle_nearest(far, n_far, w->nearest, EPS, near);
    for (uint32_t m = 0; m < n; ++m) gregoire_add(w, far[m].j, far[m].dist, far[m].off, t);
}

static gregoire_terms gregoire_terms_of(const boids_oracle_world *w, uint32_t i, bool *near)
{
    const boids_gregoire_params *p = &w->params->gregoire;
    const boids_boid *b = w->boids;
    const double rc = p->core_radius, r0 = p->radius, ra = p->attraction_radius;
    const uint32_t k = w->nearest;
    gregoire_terms t = {0};
    boids_oracle_far *far = k ? malloc(sizeof *far * w->count) : NULL;
    uint32_t n_far = 0;
    for (uint32_t j = 0; j < w->count; ++j) {
        const boids_d3 off =
            boids_oracle_offset(w, boids_oracle_position(&b[i]), boids_oracle_position(&b[j]));
        const double dist = boids_d3_len(off);
        if (j == i || !(dist > 0)) continue;
        *near |= fabs(dist - rc) < EPS || fabs(dist - ra) < EPS || (!k && fabs(dist - r0) < EPS);
        if (dist < rc) { /* the hard core, of every swarm */
            t.core = boids_d3_add(t.core, boids_d3_mul(off, 1 / dist)), ++t.n_c;
            continue;
        }
        if (b[j].swarm != b[i].swarm || (!k && dist >= r0)) continue;
        if (k)
            far[n_far++] = (boids_oracle_far){dist, j, off};
        else
            gregoire_add(w, j, dist, off, &t);
    }
    if (k) gregoire_nearest(w, far, n_far, &t, near);
    free(far);
    return t;
}

static boids_boid gregoire_step(const boids_oracle_world *w, uint32_t i, bool *near_out)
{
    bool near = false;
    const boids_params *p = w->params;
    const double v0 = p->base.max_speed;
    const boids_d3 v = boids_oracle_velocity(&w->boids[i]);
    const gregoire_terms t = gregoire_terms_of(w, i, &near);
    const boids_d3 s = boids_d3_add(t.ali, v); /* itself included */
    const double r0 = boids_oracle_draw(w->seed, i, 0), r1 = boids_oracle_draw(w->seed, i, 1);
    const double phi = (r0 * 360 - 180) * PI / 180;
    boids_d3 xi = boids_d3_of(cos(phi), sin(phi), 0);
    if (w->depth > 0) {
        const double z = 1 - 2 * r1, h = sqrt(fmax(0, 1 - z * z));
        xi = boids_d3_of(h * cos(phi), h * sin(phi), z);
    }
    boids_d3 want = boids_d3_add(boids_d3_mul(s, p->gregoire.alpha / v0),
                                 boids_d3_mul(t.frc, p->gregoire.beta));
    want = boids_d3_add(want, boids_d3_mul(xi, p->gregoire.eta * (t.n + 1)));
    if (t.n_c > 0 && boids_d3_len(t.core) > 0) want = boids_d3_mul(t.core, -1);
    if (boids_d3_len(want) < 1e-5) near = true; /* a sum that (nearly) cancels */
    if (!(boids_d3_len(want) > 0)) want = boids_d3_len(v) > 0 ? v : boids_d3_of(1, 0, 0);
    if (near_out) *near_out = near;
    return boids_oracle_move(w, i, boids_oracle_external_turn(w, i, boids_d3_at(want, v0), v0));
}

/* Without the noise it draws nothing that counts (eta 0 multiplies the draws away), and it is
 * the same in every direction. */
static void gregoire_noiseless(boids_params *p) { p->gregoire.eta = 0; }

/* The paper's unit lengths (r_0 = 1, v_0 = 0.05) as tens of px and a few px a step. */
static void gregoire_px_scale(boids_params *p)
{
    p->gregoire.radius = 30;
    p->gregoire.core_radius = 6;
    p->gregoire.equilibrium = 15;
    p->gregoire.attraction_radius = 24;
    p->base.max_speed = p->base.min_speed = 3;
}

const boids_oracle boids_oracle_GREGOIRE = {.step = gregoire_step,
                                            .noiseless = gregoire_noiseless,
                                            .px_scale = gregoire_px_scale,
                                            .amplifies = true,
                                            .external = true};
