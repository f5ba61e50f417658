/* Adams' oracle (docs/models.md (adams)): the neighbours in the box of side 2 visualRange around a
 * boid (every swarm, coincident ones too); separation sums the raw offsets away within
 * protectedRange, alignment and cohesion average within visualRange (leaving the protected range
 * out unless include_protected); the sums go straight onto the velocity, then the margins' turn
 * in a bounded world, the external forces, the scouts' bias along x, and the speed limits. */
#include "models/oracle.h"

static boids_boid adams_step(const boids_oracle_world *w, uint32_t i, bool *near)
{
    const boids_params *p = w->params;
    const boids_adams_params *a = &p->adams;
    const boids_boid *b = w->boids;
    const boids_d3 at = boids_oracle_position(&b[i]);
    boids_d3 sep = boids_d3_of(0, 0, 0), ali = sep, coh = sep;
    uint32_t n = 0;
    for (uint32_t j = 0; j < w->count; ++j) {
        const boids_d3 off = boids_oracle_offset(w, at, boids_oracle_position(&b[j]));
        const double box = a->visual_range, d = boids_d3_len(off);
        if (j == i || !(fabs(off.x) < box && fabs(off.y) < box && fabs(off.z) < box)) continue;
        const bool in_sep = d < a->protected_range;
        if (in_sep) sep = boids_d3_sub(sep, off);
        if (in_sep && a->include_protected == 0) continue; /* the pseudocode's else-if */
        if (d < a->visual_range)
            ali = boids_d3_add(ali, boids_oracle_velocity(&b[j])), coh = boids_d3_add(coh, off),
            ++n;
    }
    boids_d3 v = boids_oracle_velocity(&b[i]);
    if (n)
        v = boids_d3_add(
            boids_d3_add(v, boids_d3_mul(coh, a->centering_factor / n)),
            boids_d3_mul(boids_d3_sub(boids_d3_mul(ali, 1.0 / n), v), a->matching_factor));
    v = boids_d3_add(v, boids_d3_mul(sep, a->avoid_factor));
    if (p->base.edges == BOIDS_EDGES_BOUNDED) { /* the margins: four sides, and two along z */
        const double m = a->margin, t = a->turn_factor;
        v.y += at.y < m ? t : 0, v.x -= at.x > w->width - m ? t : 0, v.x += at.x < m ? t : 0;
        v.y -= at.y > w->height - m ? t : 0;
        if (w->depth > 0) v.z += at.z < m ? t : 0, v.z -= at.z > w->depth - m ? t : 0;
    }
    v = boids_d3_add(v, boids_oracle_external(w, i));
    boids_boid scout = b[i];
    const bool first = i < a->scout1_count,
               second = !first && i - a->scout1_count < a->scout2_count;
    if (first || second) { /* group 1 biased to +x, group 2 to -x */
        double bias = a->bias;
        if (a->dynamic_bias != 0) {
            const bool toward = first ? v.x > 0 : v.x < 0;
            bias = toward ? fmin(a->max_bias, b[i].bias + a->bias_increment)
                          : fmax(a->bias_increment, b[i].bias - a->bias_increment);
        }
        v.x = (1 - bias) * v.x + bias * (first ? 1 : -1);
        scout.bias = (float)bias;
    }
    if (near) *near = false;
    boids_boid o =
        boids_oracle_move(w, i, boids_d3_limits(v, p->base.min_speed, p->base.max_speed));
    o.bias = scout.bias;
    return o;
}

/* No random draw; the scouts pull along x, so it is the same in every direction without them. */
static void adams_isotropic(boids_params *p) { p->adams.scout1_count = p->adams.scout2_count = 0; }

const boids_oracle boids_oracle_ADAMS = {
    .step = adams_step, .isotropic = adams_isotropic, .external = true};
