/* Vicsek's oracle (Vicsek et al. 1995; docs/models.md (vicsek)): each particle takes the mean
 * heading of those within r (of its own swarm), itself included, turned by the noise (angular:
 * uniform in
 * [-eta/2, eta/2], or on the cap of 2 eta sr in 3D; vectorial: eta n times a random unit vector
 * added to the sum), at speed v; then the obstacles' push e, v Theta[v' + e dt]. The noise's
 * draws are the rules' own (boids_oracle_draw). */
#include "models/oracle.h"

static const double PI = 3.14159265358979324;

/* The turn alone: the mean heading and the noise. */
static boids_d3 vicsek_turn(const boids_oracle_world *w, uint32_t i)
{
    const boids_params *p = w->params;
    const boids_boid *b = w->boids;
    const bool three = w->depth > 0;
    const double r = p->vicsek.radius, v0 = p->base.max_speed, eta = p->vicsek.eta;
    const boids_d3 at = boids_oracle_position(&b[i]), own = boids_oracle_velocity(&b[i]);
    boids_d3 s = own; /* itself included */
    uint32_t count = 1;
    for (uint32_t j = 0; j < w->count; ++j) {
        const double d = boids_d3_len(boids_oracle_offset(w, at, boids_oracle_position(&b[j])));
        if (j == i || !(d > 0 && d < r) || b[j].swarm != b[i].swarm) continue; /* its swarm */
        s = boids_d3_add(s, boids_oracle_velocity(&b[j])), ++count;
    }
    const boids_d3 way = boids_d3_len(s) > 0     ? s
                         : boids_d3_len(own) > 0 ? own
                                                 : boids_d3_of(1, 0, 0);
    const boids_d3 u = boids_d3_unit(way);
    const double r0 = boids_oracle_draw(w->seed, i, 0), r1 = boids_oracle_draw(w->seed, i, 1);
    if (p->vicsek.vectorial != 0) { /* v Theta[s / v + eta n xi] */
        const double phi = (r0 * 360 - 180) * PI / 180;
        boids_d3 xi = boids_d3_of(cos(phi), sin(phi), 0);
        if (three) {
            const double z = 1 - 2 * r1, h = sqrt(fmax(0, 1 - z * z));
            xi = boids_d3_of(h * cos(phi), h * sin(phi), z);
        }
        const boids_d3 t = boids_d3_add(boids_d3_mul(s, 1 / v0), boids_d3_mul(xi, eta * count));
        return boids_d3_len(t) > 0 ? boids_d3_at(t, v0) : boids_d3_at(way, v0);
    }
    const double width = fmin(eta, 2 * PI);
    if (!three) { /* theta(t+1) = <theta(t)>_r + xi, xi uniform in [-eta/2, eta/2) */
        const double theta = atan2(u.y, u.x) + (r0 - 0.5) * width;
        return boids_d3_of(v0 * cos(theta), v0 * sin(theta), 0);
    }
    /* uniform on the cap of 2 eta sr around u: cos of the polar angle in [1 - eta / pi, 1], the
     * azimuth from the basis the rules build around u (Duff et al. 2017) */
    const double ct = 1 - r0 * width / PI, st = sqrt(fmax(0, 1 - ct * ct));
    const double phi = (r1 * 360 - 180) * PI / 180;
    const double sign = u.z < 0 ? -1 : 1, a = -1 / (sign + u.z), bb = u.x * u.y * a;
    const boids_d3 b1 = boids_d3_of(1 + sign * u.x * u.x * a, sign * bb, -sign * u.x);
    const boids_d3 b2 = boids_d3_of(bb, sign + u.y * u.y * a, -u.y);
    const boids_d3 t = boids_d3_add(boids_d3_mul(b1, cos(phi)), boids_d3_mul(b2, sin(phi)));
    return boids_d3_mul(boids_d3_add(boids_d3_mul(u, ct), boids_d3_mul(t, st)), v0);
}

static boids_boid vicsek_step(const boids_oracle_world *w, uint32_t i, bool *near)
{
    const boids_d3 v = vicsek_turn(w, i);
    if (near) *near = false;
    return boids_oracle_move(w, i, boids_oracle_external_turn(w, i, v, w->params->base.max_speed));
}

/* Without the noise it draws nothing; its basis for the 3D noise does not turn with the axes,
 * so it is the same in every direction only without the noise too. */
static void vicsek_noiseless(boids_params *p) { p->vicsek.eta = 0; }

/* The paper's unit lengths (r = 1, v = 0.03) as tens of px and a few px a step. */
static void vicsek_px_scale(boids_params *p)
{
    p->vicsek.radius = 30;
    p->base.max_speed = p->base.min_speed = 3;
}

const boids_oracle boids_oracle_VICSEK = {.step = vicsek_step,
                                          .noiseless = vicsek_noiseless,
                                          .px_scale = vicsek_px_scale,
                                          .external = true};
