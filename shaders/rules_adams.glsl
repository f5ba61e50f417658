// adams (adams-simple-boids.md), GPU rules: the pseudocode, frame-based. The formulas, the
// choices and the order of every operation are those of src/cpu/rules_adams.c.

void main()
{
    uint s = gl_GlobalInvocationID.x;
    if (s >= frame.count) return;
    boids_gpu_boid self = boids_in[s];
    float pr2 = frame.params.sep_radius * frame.params.sep_radius;
    float vr = frame.params.align_radius, vr2 = vr * vr;
    bool include_protected = frame.params.include_protected != 0.0;

    float close_x = 0.0, close_y = 0.0, pos_x = 0.0, pos_y = 0.0, vel_x = 0.0, vel_y = 0.0;
    uint n = 0u;
    candidates it = candidates_begin(self.px, self.py);
    uvec2 r;
    while (candidates_next(it, r)) {
        for (uint k = r.x; k < r.y; ++k) {
            if (k == s) continue;
            vec4 o = boids_pos_vel(k);
            vec2 d = offset_to(self.px, self.py, o.xy); // other - boid
            float dx = d.x, dy = d.y;
            if (!(abs(dx) < vr && abs(dy) < vr)) continue;
            float d2 = dx * dx + dy * dy;
            bool prot = d2 < pr2;
            if (prot) {
                close_x -= dx; // boid.x - otherboid.x
                close_y -= dy;
            }
            if ((include_protected || !prot) && d2 < vr2) {
                pos_x += dx;
                pos_y += dy;
                vel_x += o.z;
                vel_y += o.w;
                n++;
            }
        }
    }

    float vx = self.vx, vy = self.vy;
    if (n > 0u) {
        float fn = float(n);
        vx = vx + pos_x / fn * frame.params.centering_factor + (vel_x / fn - vx) * frame.params.matching_factor;
        vy = vy + pos_y / fn * frame.params.centering_factor + (vel_y / fn - vy) * frame.params.matching_factor;
    }
    vx = vx + close_x * frame.params.avoid_factor;
    vy = vy + close_y * frame.params.avoid_factor;
    if (world_edges() == BOIDS_EDGES_BOUNDED) {
        float m = frame.params.margin, t = frame.params.turn_factor;
        if (self.py < m) vy = vy + t;                   // top (y points down)
        if (self.px > frame.world_w - m) vx = vx - t;   // right
        if (self.px < m) vx = vx + t;                   // left
        if (self.py > frame.world_h - m) vy = vy - t;   // bottom
    }
    vec2 ft = tool_force(self.px, self.py);
    vx += ft.x;
    vy += ft.y;

    uint n1 = uint(frame.params.scout1_count), n2 = uint(frame.params.scout2_count);
    uint group = self.id < n1 ? 1u : self.id - n1 < n2 ? 2u : 0u;
    float bias = self.bias;
    if (group != 0u) {
        if (frame.params.dynamic_bias != 0.0) {
            bool toward = group == 1u ? vx > 0.0 : vx < 0.0;
            bias = toward ? min(frame.params.max_bias, bias + frame.params.bias_increment)
                          : max(frame.params.bias_increment, bias - frame.params.bias_increment);
        } else {
            bias = frame.params.bias;
        }
        vx = (1.0 - bias) * vx + bias * (group == 1u ? 1.0 : -1.0);
    }

    float speed = sqrt(vx * vx + vy * vy);
    if (speed < frame.params.min_speed && speed > 0.0) {
        vx = vx / speed * frame.params.min_speed;
        vy = vy / speed * frame.params.min_speed;
    }
    if (speed > frame.params.max_speed) {
        vx = vx / speed * frame.params.max_speed;
        vy = vy / speed * frame.params.max_speed;
    }
    vec2 pos = apply_edges(vec2(self.px + vx, self.py + vy));
    self.px = pos.x;
    self.py = pos.y;
    self.vx = vx;
    self.vy = vy;
    self.bias = bias;
    boids_out[s] = self;
}
