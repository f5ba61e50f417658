// drag (examples/drag/model.h), GPU rules: the formulas and the order of every operation are those
// of examples/drag/rules_drag.c.
#include "walk_reynolds.glsl"

void main()
{
    uint s = gl_GlobalInvocationID.x;
    if (s >= frame.count) return;
    vec4 me = pos_vel_in[s];
    uint id = id_in[s];
    float rs = frame.params.reynolds.sep_radius, ra = frame.params.reynolds.align_radius;
    float rc = frame.params.reynolds.cohesion_radius;
    reynolds_radii rr = reynolds_radii(rs * rs, ra * ra, rc * rc, true, false, false, 0.0);
    reynolds_sums m = walk_reynolds(s, me, id, swarm_in[s], rr);

    float fx = m.sep.x * frame.params.reynolds.sep_weight;
    float fy = m.sep.y * frame.params.reynolds.sep_weight;
    if (m.ali_n > 0u) {
        fx += (m.ali.x / float(m.ali_n) - me.z) * frame.params.reynolds.align_weight;
        fy += (m.ali.y / float(m.ali_n) - me.w) * frame.params.reynolds.align_weight;
    }
    if (m.coh_n > 0u) {
        fx += m.coh.x / float(m.coh_n) * frame.params.reynolds.cohesion_weight;
        fy += m.coh.y / float(m.coh_n) * frame.params.reynolds.cohesion_weight;
    }
    vec2 f = limit_length(vec2(fx, fy), frame.params.reynolds.max_force);
    float drag = frame.params.drag.drag;
    f.x -= drag * me.z;
    f.y -= drag * me.w;
    apply_force(s, id, me, f);
}
