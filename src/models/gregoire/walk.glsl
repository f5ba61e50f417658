// gregoire-chate (docs/models.md (gregoire-chate)), the GPU's walk: the rules are rules.h beside
// it, shared with the CPU; the pair force depends on each pair's distance, so this file gathers
// gregoire_sums as src/models/gregoire/walk.c does: the unit vectors towards those within the
// hard core r_c (every swarm), and over its own swarm's particles within r_0 beyond r_c their
// velocities and sum f_ij e_ij, each sum in the candidates' order with the CPU's operations. In
// a 3D world (BOIDS_DIMS 3) the offsets, velocities and sums have z. In a world of nearest:K the
// neighbours beyond r_c are the K nearest (nearest.glsl); the hard core stays metric.

// A neighbour beyond r_c at offset d (d2 its squared length) with velocity vo: its velocity, and
// f e = (f / r) d; one division, then products (as the CPU).
void add_neighbour(gregoire_bands z, lane_vec d, float d2, lane_vec vo, inout lane_vec ali,
                   inout lane_vec frc, inout uint n)
{
    precise float r = square_root(d2);
    precise float inv = quotient(1.0, r);
    precise float f = d2 < z.ra2 ? (r - z.re) * z.slope : 1.0;
    precise float w = f * inv;
    precise lane_vec a = ali + vo;
    precise lane_vec fe = d * w;
    precise lane_vec sum = frc + fe;
    ali = a;
    frc = sum;
    n++;
}

// The walk over the block, and in a world of nearest:K the search for the nearest. `unwrapped`
// is a constant where main() calls it: the minimum image is left out where it cannot change a
// bit (block_unwrapped()). me is the boid, mz its (z, vz) in a 3D world.
gregoire_sums walk_gregoire(candidates it, vec4 me, vec2 mz, uint id, uint swarm,
                            gregoire_bands z, bool unwrapped)
{
    precise lane_vec core = lane_vec(0.0);
    lane_vec ali = lane_vec(0.0), frc = lane_vec(0.0);
    uint n_c = 0u, n = 0u;
    const bool nearest = BOIDS_NEAREST != 0; // (a constant: the program's variant)
    world_sizes ws = world_sizes_now();
    uvec2 rg;
    while (candidates_next(it, rg)) {
        for (uint k = rg.x; k < rg.y; ++k) {
            lane_vec vo;
            lane_vec d = neighbour_at(ws, me, mz, k, unwrapped, vo);
            float d2 = length2(d);
            if (!(d2 > 0.0 && d2 < z.reach2)) continue; // (the boid itself too: d2 = 0)
            if (d2 < z.rc2) { // the hard core, of every swarm
                precise lane_vec u = d * quotient(1.0, square_root(d2));
                core += u;
                n_c++;
            } else if (!nearest && swarm_in[k] == swarm) {
                add_neighbour(z, d, d2, vo, ali, frc, n);
            }
        }
    }
    candidates_end(it);
#if BOIDS_NEAREST
    { // the K nearest beyond r_c, nearest first, with no outer limit
        nearest_list nb;
        nearest_search(me, mz, id, swarm, frame.nearest, z.rc2, false, 0.0, nb);
        uint i = 0u;
        for (; i < nb.n; ++i) {
            lane_vec vo;
            lane_vec d = neighbour_at(ws, me, mz, nb.slot[i], false, vo);
            add_neighbour(z, d, nb.d2[i], vo, ali, frc, n);
        }
        if (i != nb.n) raise_status(BOIDS_STATUS_LOOP_LIMIT); // cut short by a driver
    }
#endif
#if BOIDS_DIMS == 3
    return gregoire_sums(core.x, core.y, ali.x, ali.y, frc.x, frc.y, n_c, n, core.z, ali.z,
                         frc.z);
#else
    return gregoire_sums(core.x, core.y, ali.x, ali.y, frc.x, frc.y, n_c, n, 0.0, 0.0, 0.0);
#endif
}

void main()
{
    uint s = BOIDS_ITEM_INDEX;
    if (s >= frame.count) return;
    vec4 me = pos_vel_in[s];
    vec2 mz = boid_depth_or_none(s);
    uint id = id_in[s], swarm = swarm_in[s];
    gregoire_bands z = gregoire_bands_of();
    candidates it = candidates_around(GRID_BOIDS, replica_of(id), me.x, me.y, mz.x);
    gregoire_sums m = it.unwrapped ? walk_gregoire(it, me, mz, id, swarm, z, true)
                                   : walk_gregoire(it, me, mz, id, swarm, z, false);
    rules_boid b = rules_boid_at(id, me, mz);
    store_boid(s, b, gregoire_steer(m, b));
}
