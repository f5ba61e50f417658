// kit (docs/models.md (kit)), GPU rules for the boids. The formulas, the choices and
// the order of every operation are those of src/cpu/rules_kit.c.

void main()
{
    uint s = gl_GlobalInvocationID.x;
    if (s >= frame.count) return;
    vec4 me = pos_vel_in[s];
    uint id = id_in[s], r = replica_of(id);
    if (attr_alive(id) == 0u || replica_stopped(r)) { // the caught, and a stopped replica, stand
        pos_vel_out[s] = me;
        return;
    }
    float age = attr_age(id), a = (age - 0.5) * (age - 0.5);
    float R = frame.params.kit.view_radius - frame.params.kit.c_view_radius * a, R2 = R * R;
    float cos_view = cos_deg(frame.params.kit.view_angle - frame.params.kit.c_view_angle * a);
    float vmax = frame.params.base.max_speed - frame.params.kit.c_maxspeed * a;
    float rs2 = frame.params.kit.sep_radius * frame.params.kit.sep_radius;
    float rp2 = frame.params.kit.predator_radius * frame.params.kit.predator_radius;
    float rmax2 = max(R2, rs2);

    precise float sep_x = 0.0, sep_y = 0.0, coh_x = 0.0, coh_y = 0.0, ali_x = 0.0, ali_y = 0.0;
    uint n = 0u;
    world_sizes ws = world_sizes_now();
    candidates it = candidates_begin(GRID_BOIDS, r, me.x, me.y);
    uvec2 rg;
    while (candidates_next(it, rg)) {
        for (uint k = rg.x; k < rg.y; ++k) {
            if (k == s) continue;
            vec4 o = pos_vel_in[k];
            vec2 d = offset_to(ws, me.x, me.y, o.xy);
            float d2 = d.x * d.x + d.y * d.y;
            if (!(d2 > 0.0 && d2 <= rmax2)) continue;
            if (d2 <= rs2) { // eq. 3: every boid within R_S
                float inv_dl = 1.0 / sqrt(d2); // one division, two products (as the CPU)
                sep_x -= d.x * inv_dl;
                sep_y -= d.y * inv_dl;
            }
            if (d2 <= R2 && in_view(me.zw, d, d2, cos_view)) { // the view field
                coh_x += d.x;
                coh_y += d.y;
                ali_x += o.z;
                ali_y += o.w;
                n++;
            }
        }
    }
    // eq. 6: the predators within R_P, from the predators' grid
    precise float flee_x = 0.0, flee_y = 0.0;
    it = candidates_begin(GRID_PREDATORS, r, me.x, me.y);
    while (candidates_next(it, rg))
        for (uint k = rg.x; k < rg.y; ++k) {
            vec2 d = offset_to(ws, me.x, me.y, pred_pos_vel_in[k].xy);
            float d2 = d.x * d.x + d.y * d.y;
            if (!(d2 > 0.0 && d2 <= rp2)) continue;
            float inv_dl = 1.0 / sqrt(d2);
            flee_x -= d.x * inv_dl;
            flee_y -= d.y * inv_dl;
        }

    // precise: a sum of two products is fused into a multiply-add here by Mesa's compiler, which
    // the CPU reference (built with -ffp-contract=off) does not do.
    precise float fx = sep_x * frame.params.kit.separation_factor + flee_x * frame.params.kit.predator_factor;
    precise float fy = sep_y * frame.params.kit.separation_factor + flee_y * frame.params.kit.predator_factor;
    if (n > 0u) {
        float fn = float(n);
        fx += coh_x / fn * frame.params.kit.cohesion_factor + (ali_x / fn - me.z) * frame.params.kit.alignment_factor;
        fy += coh_y / fn * frame.params.kit.cohesion_factor + (ali_y / fn - me.w) * frame.params.kit.alignment_factor;
    }
    vec2 fe = external_force(id, me.x, me.y); // the obstacles (eq. 4) and the mouse tool
    vec2 v = speed_limits(vec2(me.z + (fx + fe.x), me.w + (fy + fe.y)), frame.params.base.min_speed, vmax);
    move_boid(s, me.xy, v);
}
