// kit (docs/models.md (kit)), GPU rules for the boids. The formulas, the choices and
// the order of every operation are those of src/cpu/rules_kit.c.

// Sums of the walk of the boids (the kit rules' own, as walk_one() in rules_kit.c).
struct kit_sums {
    vec2 sep, coh, ali; // eq. 3's unit vectors away; the view field's offsets and velocities
    uint n;             // boids in the view field
};

// The walk over the block. `unwrapped` is a constant where main() calls it: the minimum image
// is left out where it cannot change a bit (block_unwrapped()).
kit_sums walk_kit(candidates it, vec4 me, float R2, float rs2, float cos_view, bool unwrapped)
{
    precise vec2 sep = vec2(0.0), coh = vec2(0.0), ali = vec2(0.0);
    uint n = 0u;
    float rmax2 = max(R2, rs2);
    world_sizes ws = world_sizes_now();
    uvec2 rg;
    while (candidates_next(it, rg)) {
        for (uint k = rg.x; k < rg.y; ++k) {
            vec4 o = pos_vel_in[k];
            vec2 d = unwrapped ? o.xy - me.xy : offset_to(ws, me.x, me.y, o.xy);
            float d2 = length2(d);
            if (!(d2 > 0.0 && d2 <= rmax2)) continue; // (the boid itself too: d2 = 0)
            if (d2 <= rs2) {                          // eq. 3: every boid within R_S
                // one division, two products (as the CPU)
                float inv_dl = quotient(1.0, square_root(d2));
                sep -= d * inv_dl;
            }
            if (d2 <= R2 && in_view(me.zw, d, d2, cos_view)) { // the view field
                coh += d;
                ali += o.zw;
                n++;
            }
        }
    }
    candidates_end(it);
    return kit_sums(sep, coh, ali, n);
}

void main()
{
    uint s = BOIDS_ITEM_INDEX;
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

    candidates it = candidates_begin(GRID_BOIDS, r, me.x, me.y);
    kit_sums m = it.unwrapped ? walk_kit(it, me, R2, rs2, cos_view, true)
                              : walk_kit(it, me, R2, rs2, cos_view, false);
    // eq. 6: the predators within R_P, from the predators' grid
    precise float flee_x = 0.0, flee_y = 0.0;
    world_sizes ws = world_sizes_now();
    uvec2 rg;
    it = candidates_begin(GRID_PREDATORS, r, me.x, me.y);
    while (candidates_next(it, rg))
        for (uint k = rg.x; k < rg.y; ++k) {
            vec2 d = offset_to(ws, me.x, me.y, pred_pos_vel_in[k].xy);
            float d2 = length2(d);
            if (!(d2 > 0.0 && d2 <= rp2)) continue;
            float inv_dl = quotient(1.0, square_root(d2));
            flee_x -= d.x * inv_dl;
            flee_y -= d.y * inv_dl;
        }
    candidates_end(it);

    // precise: a sum of two products is fused into a multiply-add here by Mesa's compiler, which
    // the CPU reference (built with -ffp-contract=off) does not do.
    precise float fx =
        m.sep.x * frame.params.kit.separation_factor + flee_x * frame.params.kit.predator_factor;
    precise float fy =
        m.sep.y * frame.params.kit.separation_factor + flee_y * frame.params.kit.predator_factor;
    if (m.n > 0u) {
        float fn = float(m.n), cf = frame.params.kit.cohesion_factor;
        float af = frame.params.kit.alignment_factor;
        fx += quotient(m.coh.x, fn) * cf + (quotient(m.ali.x, fn) - me.z) * af;
        fy += quotient(m.coh.y, fn) * cf + (quotient(m.ali.y, fn) - me.w) * af;
    }
    vec2 fe = external_force(id, me.x, me.y); // the obstacles (eq. 4) and the mouse tool
    vec2 v = speed_limits(vec2(me.z + (fx + fe.x), me.w + (fy + fe.y)), frame.params.base.min_speed,
                          vmax);
    move_boid(s, id, me, v);
}
