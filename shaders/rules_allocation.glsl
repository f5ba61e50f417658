// priority and mean (docs/models.md (priority, mean)), GPU rules; BOIDS_MODEL_PRIORITY is defined
// for priority allocation. The formulas and the order of every operation are those of
// src/cpu/rules_allocation.c (see its header for the choices where the paper is silent).
#include "walk_reynolds.glsl"

// As boids_priority_allocate(): x first, then y, then z, each whole while the sum fits in m, the
// last in the part alpha that brings the sum to length m.
vec2 priority_allocate(vec2 x, vec2 y, vec2 z, float m)
{
    float m2 = m * m;
    if (length2(x) > m2) return set_length(x, m);
    vec2 a = x;
    for (int i = 0; i < 2; ++i) {
        vec2 n = i == 0 ? y : z;
        float n2 = length2(n);
        if (!(n2 > 0.0)) continue;
        float xy = mul_add(a.x, n.x, a.y * n.y), x2 = length2(a);
        float disc = (2.0 * xy) * (2.0 * xy) + 4.0 * n2 * (m2 - x2);
        float alpha = quotient(-2.0 * xy + square_root(max(disc, 0.0)), 2.0 * n2);
        if (alpha > 1.0) {
            a.x = a.x + n.x;
            a.y = a.y + n.y;
        } else {
            a.x = a.x + alpha * n.x;
            a.y = a.y + alpha * n.y;
            break;
        }
    }
    return a;
}

void main()
{
    uint s = BOIDS_ITEM_INDEX;
    if (s >= frame.count) return;
    vec4 me = pos_vel_in[s];
    uint id = id_in[s];
    float rs = frame.params.allocation.sep_radius, rn = frame.params.allocation.neighbor_radius;
    // alignment and cohesion share one radius
    reynolds_radii rr = reynolds_radii(rs * rs, rn * rn, rn * rn, false, false, false, 0.0);
    reynolds_sums m = walk_reynolds(s, me, id, swarm_in[s], rr);

    vec2 v3 = vec2(m.sep.x * frame.params.allocation.sep_weight,
                   m.sep.y * frame.params.allocation.sep_weight);
    if (frame.obstacle_count > 0u) { // "differences from stationary objects"
        float reach =
            frame.params.obstacles.obstacle_radius; // vector 3's part: sum of (p - o) / d^2
        vec2 o = push_from(GRID_OBSTACLES, replica_of(id), me.x, me.y, reach, true);
        v3.x += o.x * frame.params.obstacles.obstacle_factor;
        v3.y += o.y * frame.params.obstacles.obstacle_factor;
    }
    vec2 v2 = vec2(0.0), v1 = vec2(0.0);
    if (m.ali_n > 0u) {
        float fn = float(m.ali_n);
        v2 = vec2((quotient(m.ali.x, fn) - me.z) * frame.params.allocation.align_weight,
                  (quotient(m.ali.y, fn) - me.w) * frame.params.allocation.align_weight);
        v1 = vec2(quotient(m.coh.x, fn) * frame.params.allocation.cohesion_weight,
                  quotient(m.coh.y, fn) * frame.params.allocation.cohesion_weight);
    }
    float amax = frame.params.allocation.max_accel;
#ifdef BOIDS_MODEL_PRIORITY
    vec2 a = priority_allocate(v3, v2, v1, amax);
#else
    vec2 a = vec2(v3.x + v2.x + v1.x, v3.y + v2.y + v1.y);
    a = frame.params.allocation.mean_set_length != 0.0 ? set_length(a, amax)
                                                       : limit_length(a, amax);
#endif
    apply_force(s, id, me, a);
}
