// priority and mean (priority-allocation.md), GPU rules; BOIDS_PRIORITY is 1 for priority
// allocation, 0 for mean allocation. The formulas and the order of every operation are those of
// src/cpu/rules_allocation.c (see its header for the choices where the paper is silent).

// As boids_priority_allocate(): x first, then y, then z, each whole while the sum fits in m, the
// last in the part alpha that brings the sum to length m.
vec2 priority_allocate(vec2 x, vec2 y, vec2 z, float m)
{
    float m2 = m * m;
    if (x.x * x.x + x.y * x.y > m2) return set_length(x, m);
    vec2 a = x;
    for (int i = 0; i < 2; ++i) {
        vec2 n = i == 0 ? y : z;
        float n2 = n.x * n.x + n.y * n.y;
        if (!(n2 > 0.0)) continue;
        float xy = a.x * n.x + a.y * n.y, x2 = a.x * a.x + a.y * a.y;
        float disc = (2.0 * xy) * (2.0 * xy) + 4.0 * n2 * (m2 - x2);
        float alpha = (-2.0 * xy + sqrt(max(disc, 0.0))) / (2.0 * n2);
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
    uint s = gl_GlobalInvocationID.x;
    if (s >= frame.count) return;
    boids_gpu_boid self = boids_in[s];
    float rs2 = frame.params.sep_radius * frame.params.sep_radius;
    float rn2 = frame.params.align_radius * frame.params.align_radius;

    float sep_x = 0.0, sep_y = 0.0, vel_x = 0.0, vel_y = 0.0, off_x = 0.0, off_y = 0.0;
    uint n = 0u;
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
            }
            if (boids_in[k].swarm == self.swarm && d2 < rn2) {
                vel_x += o.z;
                vel_y += o.w;
                off_x += dx;
                off_y += dy;
                n++;
            }
        }
    }

    vec2 v3 = vec2(sep_x * frame.params.sep_weight, sep_y * frame.params.sep_weight);
    vec2 v2 = vec2(0.0), v1 = vec2(0.0);
    if (n > 0u) {
        float fn = float(n);
        v2 = vec2((vel_x / fn - self.vx) * frame.params.align_weight, (vel_y / fn - self.vy) * frame.params.align_weight);
        v1 = vec2(off_x / fn * frame.params.cohesion_weight, off_y / fn * frame.params.cohesion_weight);
    }
    float m = frame.params.max_force;
#if BOIDS_PRIORITY
    vec2 a = priority_allocate(v3, v2, v1, m);
#else
    vec2 a = vec2(v3.x + v2.x + v1.x, v3.y + v2.y + v1.y);
    a = frame.params.mean_set_length != 0.0 ? set_length(a, m) : limit_length(a, m);
#endif
    vec2 ft = tool_force(self.px, self.py);
    a.x += ft.x;
    a.y += ft.y;

    float dt = frame.dt;
    vec2 v = limit_length(vec2(self.vx + a.x * dt, self.vy + a.y * dt), frame.params.max_speed);
    vec2 pos = apply_edges(vec2(self.px + v.x * dt, self.py + v.y * dt));
    self.px = pos.x;
    self.py = pos.y;
    self.vx = v.x;
    self.vy = v.y;
    boids_out[s] = self;
}
