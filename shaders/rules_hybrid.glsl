// hybrid (docs/models.md (hybrid)), GPU rules. The formulas and the order of every operation are
// those of src/cpu/rules_hybrid.c.
#include "walk_reynolds.glsl"

void main()
{
    uint s = BOIDS_ITEM_INDEX;
    if (s >= frame.count) return;
    vec4 me = pos_vel_in[s];
    uint id = id_in[s];
    float rs = frame.params.hybrid.sep_radius, ra = frame.params.hybrid.align_radius;
    float rc = frame.params.hybrid.cohesion_radius;
    reynolds_radii rr = reynolds_radii(rs * rs, ra * ra, rc * rc, true, false, false, 0.0);
    reynolds_sums m = walk_reynolds(s, me, id, swarm_in[s], rr);

    float vmax = frame.params.base.max_speed;
    float fx = m.sep.x * frame.params.hybrid.sep_weight,
          fy = m.sep.y * frame.params.hybrid.sep_weight;
    if (m.ali_n > 0u) {
        float n = float(m.ali_n);
        vec2 u = set_length(vec2(quotient(m.ali.x, n), quotient(m.ali.y, n)), vmax);
        fx = mul_add(u.x - me.z, frame.params.hybrid.align_weight, fx);
        fy = mul_add(u.y - me.w, frame.params.hybrid.align_weight, fy);
    }
    if (m.coh_n > 0u) {
        float n = float(m.coh_n);
        vec2 u = set_length(vec2(quotient(m.coh.x, n), quotient(m.coh.y, n)), vmax);
        fx = mul_add(u.x - me.z, frame.params.hybrid.cohesion_weight, fx);
        fy = mul_add(u.y - me.w, frame.params.hybrid.cohesion_weight, fy);
    }
    apply_force(s, id, me, limit_length(vec2(fx, fy), frame.params.hybrid.max_force));
}
