// The Shiffman models (docs/models.md (shiffman-per-second); §2 frame-based with dt = 1), GPU
// rules. The formulas, the degenerate cases and the order of every operation are those of
// src/cpu/rules_shiffman.c; see its header comment for the choices made where the paper is silent.
#include "walk_reynolds.glsl"

// truncate(normalize(dir) * v_max - v, f_max); a zero dir gives desired = 0.
vec2 seek_dir(vec2 dir, vec2 v, float vmax, float fmax)
{
    vec2 desired = set_length(dir, vmax);
    return limit_length(vec2(desired.x - v.x, desired.y - v.y), fmax);
}

void main()
{
    uint s = gl_GlobalInvocationID.x;
    if (s >= frame.count) return;
    vec4 me = pos_vel_in[s];
    uint id = id_in[s];
    float rs = frame.params.reynolds.sep_radius, ra = frame.params.reynolds.align_radius;
    float rc = frame.params.reynolds.cohesion_radius;
    reynolds_radii rr = reynolds_radii(rs * rs, ra * ra, rc * rc, false, false, false, 0.0);
    reynolds_sums m = walk_reynolds(s, me, id, swarm_in[s], rr);

    vec2 v = me.zw;
    float vmax = frame.params.base.max_speed, fmax = frame.params.reynolds.max_force;
    float fx = 0.0, fy = 0.0;
    if (m.sep_n > 0u) {
        float mx = m.sep.x / float(m.sep_n), my = m.sep.y / float(m.sep_n);
        if (mx != 0.0 || my != 0.0) {
            vec2 f = seek_dir(vec2(mx, my), v, vmax, fmax);
            fx += frame.params.reynolds.sep_weight * f.x;
            fy += frame.params.reynolds.sep_weight * f.y;
        }
    }
    if (m.ali_n > 0u) {
        vec2 f = seek_dir(vec2(m.ali.x / float(m.ali_n), m.ali.y / float(m.ali_n)), v, vmax, fmax);
        fx += frame.params.reynolds.align_weight * f.x;
        fy += frame.params.reynolds.align_weight * f.y;
    }
    if (m.coh_n > 0u) {
        vec2 f = seek_dir(vec2(m.coh.x / float(m.coh_n), m.coh.y / float(m.coh_n)), v, vmax, fmax);
        fx += frame.params.reynolds.cohesion_weight * f.x;
        fy += frame.params.reynolds.cohesion_weight * f.y;
    }

    apply_force(s, id, me, vec2(fx, fy));
}
