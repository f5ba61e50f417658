// kit (docs/models.md (kit)), the GPU's walks: the rules are rules.h beside it, shared with the
// CPU; the view field is kit's own walk, so this file gathers kit_sums as walk.c beside it does,
// over the boids within R_S (eq. 3) and in the view field, and over the predators within R_P
// (eq. 6), each sum in the candidates' order with the CPU's operations. In a 3D world (BOIDS_DIMS
// 3) the offsets, velocities and sums have z, and the view field is the cone around the 3D
// heading.

// The walk over the block. `unwrapped` is a constant where main() calls it: the minimum image
// is left out where it cannot change a bit (block_unwrapped()). me is the boid, mz its (z, vz) in
// a 3D world.
kit_sums walk_kit(candidates it, vec4 me, vec2 mz, float R2, float rs2, float cos_view,
                  bool unwrapped)
{
    precise lane_vec sep = lane_vec(0.0), coh = lane_vec(0.0), ali = lane_vec(0.0);
    uint n = 0u;
    float rmax2 = max(R2, rs2);
    lane_vec heading = VEC(me.z, me.w, mz.y);
    world_sizes ws = world_sizes_now();
    uvec2 rg;
    while (candidates_next(it, rg)) {
        for (uint k = rg.x; k < rg.y; ++k) {
            lane_vec vo;
            lane_vec d = neighbour_at(ws, me, mz, k, unwrapped, vo);
            float d2 = length2(d);
            if (!(d2 > 0.0 && d2 <= rmax2)) continue; // (the boid itself too: d2 = 0)
            if (d2 <= rs2) {                          // eq. 3: every boid within R_S
                // one division, two products (as the CPU)
                float inv_dl = quotient(1.0, square_root(d2));
                sep -= d * inv_dl;
            }
            if (d2 <= R2 && in_view(heading, d, d2, cos_view)) { // the view field
                coh += d;
                ali += vo;
                n++;
            }
        }
    }
    candidates_end(it);
#if BOIDS_DIMS == 3
    return kit_sums(sep.x, sep.y, coh.x, coh.y, ali.x, ali.y, n, 0.0, 0.0, sep.z, coh.z, ali.z,
                    0.0);
#else
    return kit_sums(sep.x, sep.y, coh.x, coh.y, ali.x, ali.y, n, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
#endif
}

void main()
{
    uint s = BOIDS_ITEM_INDEX;
    if (s >= frame.count) return;
    vec4 me = pos_vel_in[s];
    vec2 mz = boid_depth_or_none(s);
    uint id = id_in[s], r = replica_of(id);
    if (attr_alive(id) == 0u || replica_stopped(r)) { // the caught, and a stopped replica, stand
        pos_vel_out[s] = me;
#if BOIDS_DIMS == 3
        pos_vel_z_out[s] = mz;
#endif
        return;
    }
    kit_view view = kit_individuality(attr_age(id));
    float rs2 = frame.params.kit.sep_radius * frame.params.kit.sep_radius;
    float rp2 = frame.params.kit.predator_radius * frame.params.kit.predator_radius;

    candidates it = candidates_around(GRID_BOIDS, r, me.x, me.y, mz.x);
    kit_sums m = it.unwrapped ? walk_kit(it, me, mz, view.R2, rs2, view.cos_view, true)
                              : walk_kit(it, me, mz, view.R2, rs2, view.cos_view, false);
    // eq. 6: the predators within R_P, from the predators' grid
    precise lane_vec flee = lane_vec(0.0);
    world_sizes ws = world_sizes_now();
    uvec2 rg;
    it = candidates_around(GRID_PREDATORS, r, me.x, me.y, mz.x);
    while (candidates_next(it, rg))
        for (uint k = rg.x; k < rg.y; ++k) {
            lane_vec d = offset_to_slot(ws, GRID_PREDATORS, me.x, me.y, mz.x, k);
            float d2 = length2(d);
            if (!(d2 > 0.0 && d2 <= rp2)) continue;
            float inv_dl = quotient(1.0, square_root(d2));
            flee -= d * inv_dl;
        }
    candidates_end(it);
    m.flee_x = flee.x;
    m.flee_y = flee.y;
#if BOIDS_DIMS == 3
    m.flee_z = flee.z;
#endif
    rules_boid b = rules_boid_at(id, me, mz);
    store_boid(s, b, kit_steer(m, b));
}
