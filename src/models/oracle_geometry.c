/* The double-precision geometry the models' oracles share (oracle.h): offsets through the edges,
 * the move, the noise draws, the Reynolds sums, the external forces, the nearest. Compiled with
 * the oracles, and into a loaded model's object with its folder's oracle.c (world/model_load.c).
 */
#include "models/oracle.h"

#include "rules/common.h"

boids_d3 boids_oracle_offset(const boids_oracle_world *w, boids_d3 a, boids_d3 b)
{
    const bool wrap = boids_oracle_wraps(w);
    const boids_d3 d = boids_d3_sub(b, a);
    return boids_d3_of(wrap ? boids_oracle_wrap(d.x, w->width) : d.x,
                       wrap ? boids_oracle_wrap(d.y, w->height) : d.y,
                       w->depth <= 0 ? 0
                       : wrap        ? boids_oracle_wrap(d.z, w->depth)
                                     : d.z);
}

boids_boid boids_oracle_move(const boids_oracle_world *w, uint32_t i, boids_d3 v)
{
    const boids_boid *b = &w->boids[i];
    boids_d3 q = boids_d3_add(boids_oracle_position(b), boids_d3_mul(v, w->dt));
    const double size[3] = {w->width, w->height, w->depth}, r = w->params->base.border_r;
    double *c[3] = {&q.x, &q.y, &q.z};
    for (int k = 0; k < (w->depth > 0 ? 3 : 2); ++k) {
        if (boids_oracle_wraps(w)) *c[k] -= size[k] * floor(*c[k] / size[k]);
        if (w->params->base.edges == BOIDS_EDGES_PROCESSING)
            *c[k] = *c[k] < -r ? size[k] + r : *c[k] > size[k] + r ? -r : *c[k];
    }
    boids_boid o = *b;
    o.x = (float)q.x, o.y = (float)q.y, o.z = w->depth > 0 ? (float)q.z : b->z;
    o.vx = (float)v.x, o.vy = (float)v.y, o.vz = w->depth > 0 ? (float)v.z : 0;
    return o;
}

double boids_oracle_draw(uint64_t seed, uint32_t id, uint32_t k)
{
    const boids_rules_ctx c = {.seed = (uint32_t)seed,
                               .seed_hi = (uint32_t)(seed >> 32),
                               .step = 0,
                               .per_replica = 1u << 30},
                          *ctx = &c;
    return noise(ctx, boids_vu_all(id), boids_vu_all(k))[0];
}

boids_oracle_sums boids_oracle_reynolds_sums(const boids_oracle_world *w, uint32_t i, double rs,
                                             double ra, double rc, bool raw)
{
    const boids_boid *b = w->boids;
    const boids_d3 p = boids_oracle_position(&b[i]);
    boids_oracle_sums s = {0};
    for (uint32_t j = 0; j < w->count; ++j) {
        const boids_d3 off = boids_oracle_offset(w, p, boids_oracle_position(&b[j]));
        const double d = boids_d3_len(off);
        if (j == i || !(d > 0)) continue;
        if (d < rs) {
            s.sep = boids_d3_add(s.sep, boids_d3_mul(off, raw ? -1 : -1 / (d * d)));
            ++s.ns;
        }
        if (b[j].swarm != b[i].swarm) continue; /* alignment and cohesion: its own swarm */
        if (d < ra) s.ali = boids_d3_add(s.ali, boids_oracle_velocity(&b[j])), ++s.na;
        if (d < rc) s.coh = boids_d3_add(s.coh, off), ++s.nc;
    }
    return s;
}

boids_d3 boids_oracle_external(const boids_oracle_world *w, uint32_t i)
{
    const boids_params *p = w->params;
    const boids_d3 at = boids_oracle_position(&w->boids[i]);
    boids_d3 e = boids_d3_of(0, 0, 0);
    if (!(boids_model_features(w->model) & BOIDS_FEATURE_OBSTACLE_RULE))
        for (uint32_t o = 0; o < w->obstacle_count; ++o) {
            const boids_obstacle *c = &w->obstacles[o];
            const boids_d3 from = boids_oracle_offset(w, boids_d3_of(c->x, c->y, c->z), at);
            const double d = boids_d3_len(from);
            if (d > 0 && d < p->obstacles.obstacle_radius)
                e = boids_d3_add(e, boids_d3_mul(from, p->obstacles.obstacle_factor / d));
        }
    const boids_tool *t = w->tool;
    if (t && t->kind != BOIDS_TOOL_NONE) { /* a constant pull (or push) within its radius */
        const boids_d3 to = boids_oracle_offset(w, at, boids_d3_of(t->x, t->y, t->z));
        const double d = boids_d3_len(to);
        if (d > 0 && d < t->radius)
            e = boids_d3_add(
                e, boids_d3_at(to, t->kind == BOIDS_TOOL_REPEL ? -t->strength : t->strength));
    }
    return e;
}

boids_d3 boids_oracle_external_turn(const boids_oracle_world *w, uint32_t i, boids_d3 v, double s)
{
    const boids_d3 e = boids_oracle_external(w, i);
    return boids_d3_len(e) > 0 ? boids_d3_at(boids_d3_add(v, boids_d3_mul(e, w->dt)), s) : v;
}

uint32_t boids_oracle_nearest(boids_oracle_far *far, uint32_t n, uint32_t k, double eps, bool *near)
{
    for (uint32_t m = 0; m < k && m < n; ++m) { /* selection: the m-th nearest */
        uint32_t best = m;
        for (uint32_t q = m + 1; q < n; ++q)
            if (far[q].dist < far[best].dist ||
                (far[q].dist == far[best].dist && far[q].j < far[best].j))
                best = q;
        const boids_oracle_far t = far[m];
        far[m] = far[best], far[best] = t;
    }
    if (n > k) { /* the k-th and the next within rounding: either may be chosen */
        double next = INFINITY;
        for (uint32_t q = k; q < n; ++q) next = fmin(next, far[q].dist);
        *near |= next - far[k - 1].dist < eps;
    }
    return n < k ? n : k;
}
