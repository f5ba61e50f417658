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
    uint s = BOIDS_ITEM_INDEX;
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
        float mx = quotient(m.sep.x, float(m.sep_n)), my = quotient(m.sep.y, float(m.sep_n));
        if (mx != 0.0 || my != 0.0) {
            vec2 f = seek_dir(vec2(mx, my), v, vmax, fmax);
            fx = mul_add(frame.params.reynolds.sep_weight, f.x, fx);
            fy = mul_add(frame.params.reynolds.sep_weight, f.y, fy);
        }
    }
    if (m.ali_n > 0u) {
        float n = float(m.ali_n);
        vec2 f = seek_dir(vec2(quotient(m.ali.x, n), quotient(m.ali.y, n)), v, vmax, fmax);
        fx = mul_add(frame.params.reynolds.align_weight, f.x, fx);
        fy = mul_add(frame.params.reynolds.align_weight, f.y, fy);
    }
    if (m.coh_n > 0u) {
        float n = float(m.coh_n);
        vec2 f = seek_dir(vec2(quotient(m.coh.x, n), quotient(m.coh.y, n)), v, vmax, fmax);
        fx = mul_add(frame.params.reynolds.cohesion_weight, f.x, fx);
        fy = mul_add(frame.params.reynolds.cohesion_weight, f.y, fy);
    }

    apply_force(s, id, me, vec2(fx, fy));
}
