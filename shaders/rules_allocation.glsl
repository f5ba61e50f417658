// priority and mean (docs/models.md (priority, mean)), GPU rules; BOIDS_MODEL_PRIORITY is defined for
// priority allocation. The formulas and the order of every operation are those of
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

// Vector 3's part from the obstacles within obstacle_radius: sum of (p - o)/d^2; as
// obstacle_differences() in rules_allocation.c.
vec2 obstacle_differences(uint r, float x, float y)
{
    float reach = frame.params.obstacles.obstacle_radius, r2 = reach * reach, sx = 0.0, sy = 0.0;
    world_sizes ws = world_sizes_now();
    candidates it = candidates_begin(GRID_OBSTACLES, r, x, y);
    uvec2 rg;
    while (candidates_next(it, rg))
        for (uint k = rg.x; k < rg.y; ++k) {
            vec2 d = offset_to(ws, x, y, obstacles[k].xy);
            float d2 = d.x * d.x + d.y * d.y;
            if (!(d2 > 0.0 && d2 <= r2)) continue;
            sx -= d.x / d2;
            sy -= d.y / d2;
        }
    return vec2(sx, sy);
}

void main()
{
    uint s = gl_GlobalInvocationID.x;
    if (s >= frame.count) return;
    vec4 me = pos_vel_in[s];
    uint id = id_in[s], swarm = swarm_in[s];
    float rs2 = frame.params.allocation.sep_radius * frame.params.allocation.sep_radius;
    float rn2 = frame.params.allocation.neighbor_radius * frame.params.allocation.neighbor_radius;

    // precise: sep_x -= dx * inv_d2 must not become a fused multiply-add (the CPU does not fuse)
    precise float sep_x = 0.0, sep_y = 0.0;
    float vel_x = 0.0, vel_y = 0.0, off_x = 0.0, off_y = 0.0;
    uint n = 0u;
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
            }
            if (swarm_in[k] == swarm && d2 < rn2) {
                vel_x += o.z;
                vel_y += o.w;
                off_x += dx;
                off_y += dy;
                n++;
            }
        }
    }

    vec2 v3 = vec2(sep_x * frame.params.allocation.sep_weight, sep_y * frame.params.allocation.sep_weight);
    if (frame.obstacle_count > 0u) { // "differences from stationary objects"
        vec2 o = obstacle_differences(replica_of(id), me.x, me.y);
        v3.x += o.x * frame.params.obstacles.obstacle_factor;
        v3.y += o.y * frame.params.obstacles.obstacle_factor;
    }
    vec2 v2 = vec2(0.0), v1 = vec2(0.0);
    if (n > 0u) {
        float fn = float(n);
        v2 = vec2((vel_x / fn - me.z) * frame.params.allocation.align_weight,
                  (vel_y / fn - me.w) * frame.params.allocation.align_weight);
        v1 = vec2(off_x / fn * frame.params.allocation.cohesion_weight,
                  off_y / fn * frame.params.allocation.cohesion_weight);
    }
    float m = frame.params.allocation.max_accel;
#ifdef BOIDS_MODEL_PRIORITY
    vec2 a = priority_allocate(v3, v2, v1, m);
#else
    vec2 a = vec2(v3.x + v2.x + v1.x, v3.y + v2.y + v1.y);
    a = frame.params.allocation.mean_set_length != 0.0 ? set_length(a, m) : limit_length(a, m);
#endif
    apply_force(s, id, me, a);
}
