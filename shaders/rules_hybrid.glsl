// hybrid (docs/models.md (hybrid)), GPU rules. The formulas and the order of every operation are
// those of src/cpu/rules_hybrid.c.

void main()
{
    uint s = gl_GlobalInvocationID.x;
    if (s >= frame.count) return;
    vec4 me = pos_vel_in[s];
    uint id = id_in[s], swarm = swarm_in[s];
    float rs2 = frame.params.hybrid.sep_radius * frame.params.hybrid.sep_radius;
    float ra2 = frame.params.hybrid.align_radius * frame.params.hybrid.align_radius;
    float rc2 = frame.params.hybrid.cohesion_radius * frame.params.hybrid.cohesion_radius;

    float sep_x = 0.0, sep_y = 0.0, ali_x = 0.0, ali_y = 0.0, coh_x = 0.0, coh_y = 0.0;
    uint ali_n = 0u, coh_n = 0u;
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
                sep_x -= dx; // p_i - p_j
                sep_y -= dy;
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

    float vmax = frame.params.base.max_speed;
    float fx = sep_x * frame.params.hybrid.sep_weight, fy = sep_y * frame.params.hybrid.sep_weight;
    if (ali_n > 0u) {
        vec2 u = set_length(vec2(ali_x / float(ali_n), ali_y / float(ali_n)), vmax);
        fx += (u.x - me.z) * frame.params.hybrid.align_weight;
        fy += (u.y - me.w) * frame.params.hybrid.align_weight;
    }
    if (coh_n > 0u) {
        vec2 u = set_length(vec2(coh_x / float(coh_n), coh_y / float(coh_n)), vmax);
        fx += (u.x - me.z) * frame.params.hybrid.cohesion_weight;
        fy += (u.y - me.w) * frame.params.hybrid.cohesion_weight;
    }
    apply_force(s, id, me, limit_length(vec2(fx, fy), frame.params.hybrid.max_force));
}
