// hybrid (docs/models.md (hybrid)), GPU rules. The formulas and the order of every operation are
// those of src/cpu/rules_hybrid.c.
#include "walk_reynolds.glsl"

void main()
{
    uint s = gl_GlobalInvocationID.x;
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
        vec2 u = set_length(vec2(m.ali.x / float(m.ali_n), m.ali.y / float(m.ali_n)), vmax);
        fx += (u.x - me.z) * frame.params.hybrid.align_weight;
        fy += (u.y - me.w) * frame.params.hybrid.align_weight;
    }
    if (m.coh_n > 0u) {
        vec2 u = set_length(vec2(m.coh.x / float(m.coh_n), m.coh.y / float(m.coh_n)), vmax);
        fx += (u.x - me.z) * frame.params.hybrid.cohesion_weight;
        fy += (u.y - me.w) * frame.params.hybrid.cohesion_weight;
    }
    apply_force(s, id, me, limit_length(vec2(fx, fy), frame.params.hybrid.max_force));
}
