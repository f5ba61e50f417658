// kit (docs/models.md (kit)), the GPU's walks: the rules are rules/kit.h, shared with the CPU;
// the view field is kit's own walk, so this file gathers kit_sums as src/cpu/rules_kit.c does,
// over the boids within R_S (eq. 3) and in the view field, and over the predators within R_P
// (eq. 6), each sum in the candidates' order with the CPU's operations.

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
    return kit_sums(sep.x, sep.y, coh.x, coh.y, ali.x, ali.y, n, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
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
    kit_view view = kit_individuality(attr_age(id));
    float rs2 = frame.params.kit.sep_radius * frame.params.kit.sep_radius;
    float rp2 = frame.params.kit.predator_radius * frame.params.kit.predator_radius;

    candidates it = candidates_begin(GRID_BOIDS, r, me.x, me.y);
    kit_sums m = it.unwrapped ? walk_kit(it, me, view.R2, rs2, view.cos_view, true)
                              : walk_kit(it, me, view.R2, rs2, view.cos_view, false);
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
    m.flee_x = flee_x;
    m.flee_y = flee_y;
    rules_boid b = rules_boid_at(id, me, vec2(0.0));
    store_boid(s, b, kit_steer(m, b));
}
