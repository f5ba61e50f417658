// The Shiffman models (shiffman-per-second-model.md §3; §2 frame-based with dt = 1), GPU rules.
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
    boids_gpu_boid self = boids_in[s];
    float rs2 = frame.params.sep_radius * frame.params.sep_radius;
    float ra2 = frame.params.align_radius * frame.params.align_radius;
    float rc2 = frame.params.cohesion_radius * frame.params.cohesion_radius;

    float sep_x = 0.0, sep_y = 0.0, ali_x = 0.0, ali_y = 0.0, coh_x = 0.0, coh_y = 0.0;
    uint sep_n = 0u, ali_n = 0u, coh_n = 0u;
    candidates it = candidates_begin(self.px, self.py);
    uvec2 r;
    while (candidates_next(it, r)) {
        for (uint k = r.x; k < r.y; ++k) {
            if (k == s) continue;
            vec4 o = boids_pos_vel(k);
            vec2 d = offset_to(self.px, self.py, o.xy);
            float dx = d.x, dy = d.y;
            float d2 = dx * dx + dy * dy;
            if (!(d2 > 0.0)) continue;
            if (d2 < rs2) {
                sep_x -= dx / d2;
                sep_y -= dy / d2;
                sep_n++;
            }
            if (boids_in[k].swarm == self.swarm) {
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

    vec2 v = vec2(self.vx, self.vy);
    float vmax = frame.params.max_speed, fmax = frame.params.max_force;
    float fx = 0.0, fy = 0.0;
    if (sep_n > 0u) {
        float mx = sep_x / float(sep_n), my = sep_y / float(sep_n);
        if (mx != 0.0 || my != 0.0) {
            vec2 f = seek_dir(vec2(mx, my), v, vmax, fmax);
            fx += frame.params.sep_weight * f.x;
            fy += frame.params.sep_weight * f.y;
        }
    }
    if (ali_n > 0u) {
        vec2 f = seek_dir(vec2(ali_x / float(ali_n), ali_y / float(ali_n)), v, vmax, fmax);
        fx += frame.params.align_weight * f.x;
        fy += frame.params.align_weight * f.y;
    }
    if (coh_n > 0u) {
        vec2 f = seek_dir(vec2(coh_x / float(coh_n), coh_y / float(coh_n)), v, vmax, fmax);
        fx += frame.params.cohesion_weight * f.x;
        fy += frame.params.cohesion_weight * f.y;
    }

    vec2 ft = tool_force(self.px, self.py);
    fx += ft.x;
    fy += ft.y;

    float dt = frame.dt;
    float vx = self.vx + fx * dt, vy = self.vy + fy * dt;
    float v2 = vx * vx + vy * vy;
    float vmin = frame.params.min_speed;
    vec2 vn = vec2(vx, vy);
    if (v2 > vmax * vmax) vn = set_length(vn, vmax);
    else if (v2 < vmin * vmin && (vx != 0.0 || vy != 0.0)) vn = set_length(vn, vmin);
    vx = vn.x;
    vy = vn.y;
    vec2 pos = apply_edges(vec2(self.px + vx * dt, self.py + vy * dt));
    self.px = pos.x;
    self.py = pos.y;
    self.vx = vx;
    self.vy = vy;
    boids_out[s] = self;
}
