// adams (docs/models.md (adams)), GPU rules: the pseudocode, frame-based. The formulas, the
// choices and the order of every operation are those of src/cpu/rules_adams.c.

void main()
{
    uint s = gl_GlobalInvocationID.x;
    if (s >= frame.count) return;
    vec4 me = pos_vel_in[s];
    uint id = id_in[s];
    float pr2 = frame.params.adams.protected_range * frame.params.adams.protected_range;
    float vr = frame.params.adams.visual_range, vr2 = vr * vr;
    bool include_protected = frame.params.adams.include_protected != 0.0;

    float close_x = 0.0, close_y = 0.0, pos_x = 0.0, pos_y = 0.0, vel_x = 0.0, vel_y = 0.0;
    uint n = 0u;
    world_sizes ws = world_sizes_now();
    candidates it = candidates_begin(GRID_BOIDS, replica_of(id), me.x, me.y);
    uvec2 r;
    while (candidates_next(it, r)) {
        for (uint k = r.x; k < r.y; ++k) {
            if (k == s) continue;
            vec4 o = pos_vel_in[k];
            vec2 d = offset_to(ws, me.x, me.y, o.xy); // other - boid
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

    float vx = me.z, vy = me.w;
    if (n > 0u) {
        float fn = float(n);
        vx = vx + pos_x / fn * frame.params.adams.centering_factor + (vel_x / fn - vx) * frame.params.adams.matching_factor;
        vy = vy + pos_y / fn * frame.params.adams.centering_factor + (vel_y / fn - vy) * frame.params.adams.matching_factor;
    }
    vx = vx + close_x * frame.params.adams.avoid_factor;
    vy = vy + close_y * frame.params.adams.avoid_factor;
    if (world_edges() == BOIDS_EDGES_BOUNDED) {
        float m = frame.params.adams.margin, t = frame.params.adams.turn_factor;
        if (me.y < m) vy = vy + t;                    // top (y points down)
        if (me.x > frame.world_w - m) vx = vx - t;    // right
        if (me.x < m) vx = vx + t;                    // left
        if (me.y > frame.world_h - m) vy = vy - t;    // bottom
    }
    vec2 fe = external_force(id, me.x, me.y);
    vx += fe.x;
    vy += fe.y;

    uint n1 = uint(frame.params.adams.scout1_count), n2 = uint(frame.params.adams.scout2_count);
    uint local = id % frame.per_replica; // scouts are the first ids of each replica
    uint group = local < n1 ? 1u : local - n1 < n2 ? 2u : 0u;
    if (group != 0u) {
        float bias = attr_bias(id);
        if (frame.params.adams.dynamic_bias != 0.0) {
            bool toward = group == 1u ? vx > 0.0 : vx < 0.0;
            bias = toward ? min(frame.params.adams.max_bias, bias + frame.params.adams.bias_increment)
                          : max(frame.params.adams.bias_increment, bias - frame.params.adams.bias_increment);
        } else {
            bias = frame.params.adams.bias;
        }
        vx = (1.0 - bias) * vx + bias * (group == 1u ? 1.0 : -1.0);
        set_attr_bias(id, bias);
    }

    float speed = sqrt(vx * vx + vy * vy);
    float vmin = frame.params.base.min_speed, vmax = frame.params.base.max_speed;
    if (speed < vmin && speed > 0.0) {
        vx = vx / speed * vmin;
        vy = vy / speed * vmin;
    }
    if (speed > vmax) {
        vx = vx / speed * vmax;
        vy = vy / speed * vmax;
    }
    move_boid(s, me.xy, vec2(vx, vy));
}
