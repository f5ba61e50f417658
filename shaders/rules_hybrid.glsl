// hybrid (hybrid-model.md §3), GPU rules. The formulas and the order of every operation are
// those of src/cpu/rules_hybrid.c.

void main()
{
    uint s = gl_GlobalInvocationID.x;
    if (s >= frame.count) return;
    boids_gpu_boid self = boids_in[s];
    float rs2 = frame.params.sep_radius * frame.params.sep_radius;
    float ra2 = frame.params.align_radius * frame.params.align_radius;
    float rc2 = frame.params.cohesion_radius * frame.params.cohesion_radius;

    float sep_x = 0.0, sep_y = 0.0, ali_x = 0.0, ali_y = 0.0, coh_x = 0.0, coh_y = 0.0;
    uint ali_n = 0u, coh_n = 0u;
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
                sep_x -= dx; // p_i - p_j
                sep_y -= dy;
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

    float vmax = frame.params.max_speed;
    float fx = sep_x * frame.params.sep_weight, fy = sep_y * frame.params.sep_weight;
    if (ali_n > 0u) {
        vec2 u = set_length(vec2(ali_x / float(ali_n), ali_y / float(ali_n)), vmax);
        fx += (u.x - self.vx) * frame.params.align_weight;
        fy += (u.y - self.vy) * frame.params.align_weight;
    }
    if (coh_n > 0u) {
        vec2 u = set_length(vec2(coh_x / float(coh_n), coh_y / float(coh_n)), vmax);
        fx += (u.x - self.vx) * frame.params.cohesion_weight;
        fy += (u.y - self.vy) * frame.params.cohesion_weight;
    }
    vec2 f = limit_length(vec2(fx, fy), frame.params.max_force);
    vec2 ft = tool_force(self.px, self.py);
    fx = f.x + ft.x;
    fy = f.y + ft.y;

    float dt = frame.dt;
    float vx = self.vx + fx * dt, vy = self.vy + fy * dt;
    float v2 = vx * vx + vy * vy;
    float vmin = frame.params.min_speed;
    vec2 vn = vec2(vx, vy);
    if (v2 > vmax * vmax) vn = set_length(vn, vmax);
    else if (v2 < vmin * vmin && (vx != 0.0 || vy != 0.0)) vn = set_length(vn, vmin);
    vec2 pos = apply_edges(vec2(self.px + vn.x * dt, self.py + vn.y * dt));
    self.px = pos.x;
    self.py = pos.y;
    self.vx = vn.x;
    self.vy = vn.y;
    boids_out[s] = self;
}
