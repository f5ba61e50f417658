// The Shiffman models (docs/models.md (shiffman-per-second); §2 frame-based with dt = 1), GPU rules.
// The formulas, the degenerate cases and the order of every operation are those of
// src/cpu/rules_shiffman.c; see its header comment for the choices made where the paper is silent.

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
    uint id = id_in[s], swarm = swarm_in[s];
    float rs2 = frame.params.reynolds.sep_radius * frame.params.reynolds.sep_radius;
    float ra2 = frame.params.reynolds.align_radius * frame.params.reynolds.align_radius;
    float rc2 = frame.params.reynolds.cohesion_radius * frame.params.reynolds.cohesion_radius;

    // precise: sep_x -= dx * inv_d2 must not become a fused multiply-add (the CPU does not fuse)
    precise float sep_x = 0.0, sep_y = 0.0;
    float ali_x = 0.0, ali_y = 0.0, coh_x = 0.0, coh_y = 0.0;
    uint sep_n = 0u, ali_n = 0u, coh_n = 0u;
    world_sizes ws = world_sizes_now();
    candidates it = candidates_begin(GRID_BOIDS, replica_of(id), me.x, me.y);
    uvec2 r;
    while (candidates_next(it, r)) {
        for (uint k = r.x; k < r.y; ++k) {
            if (k == s) continue;
            vec4 o = pos_vel_in[k];
            vec2 d = offset_to(ws, me.x, me.y, o.xy);
            float dx = d.x, dy = d.y;
            float d2 = dx * dx + dy * dy;
            if (!(d2 > 0.0)) continue;
            if (d2 < rs2) {
                float inv_d2 = 1.0 / d2; // one division, two products (as the CPU)
                sep_x -= dx * inv_d2;
                sep_y -= dy * inv_d2;
                sep_n++;
            }
            if (swarm_in[k] == swarm) {
                if (d2 < ra2) {
                    ali_x += o.z;
                    ali_y += o.w;
                    ali_n++;
                }
                if (d2 < rc2) {
                    coh_x += dx;
                    coh_y += dy;
                    coh_n++;
                }
            }
        }
    }

    vec2 v = me.zw;
    float vmax = frame.params.base.max_speed, fmax = frame.params.reynolds.max_force;
    float fx = 0.0, fy = 0.0;
    if (sep_n > 0u) {
        float mx = sep_x / float(sep_n), my = sep_y / float(sep_n);
        if (mx != 0.0 || my != 0.0) {
            vec2 f = seek_dir(vec2(mx, my), v, vmax, fmax);
            fx += frame.params.reynolds.sep_weight * f.x;
            fy += frame.params.reynolds.sep_weight * f.y;
        }
    }
    if (ali_n > 0u) {
        vec2 f = seek_dir(vec2(ali_x / float(ali_n), ali_y / float(ali_n)), v, vmax, fmax);
        fx += frame.params.reynolds.align_weight * f.x;
        fy += frame.params.reynolds.align_weight * f.y;
    }
    if (coh_n > 0u) {
        vec2 f = seek_dir(vec2(coh_x / float(coh_n), coh_y / float(coh_n)), v, vmax, fmax);
        fx += frame.params.reynolds.cohesion_weight * f.x;
        fy += frame.params.reynolds.cohesion_weight * f.y;
    }

    apply_force(s, id, me, vec2(fx, fy));
}
