// The Reynolds walk, the twin of src/cpu/walk_reynolds.c: a boid's sums over its neighbours
// within each radius, separation over every swarm, alignment and cohesion over its own. The
// Shiffman models, priority and mean, hybrid and adams steer from these sums in their
// models/<rules>/rules.h; kit walks its own view field (models/kit/walk.glsl), as
// models/kit/walk.c does.
//
// Each sum is added in the candidates' order with walk_one()'s operations, so a boid's sums are
// the CPU's bits. Like the CPU's lane walk, it leaves out what cannot change a bit: the minimum
// image in a block that does not cross the world's seam (block_unwrapped()), the test that a
// candidate is not the boid itself outside Adams' rule (its offset is (0, 0), which d2 > 0 leaves
// out), and the swarm of each candidate in a world of one swarm.

// What a model sums (reynolds_radii) and the sums (reynolds_sums) are rules/common.h's.

// The walk over one block. `unwrapped` and `one_swarm` are constants where walk_reynolds() calls
// it, so each of the four loops the compiler makes of it tests neither. In a 3D world (BOIDS_DIMS
// 3) the offsets and velocities have z, read from the second half of the boids' buffer, and mz is
// the boid's own (z, vz); a flat world's program has neither.
reynolds_sums walk_block(candidates it, uint s, vec4 me, vec2 mz, uint swarm, reynolds_radii rr,
                         bool unwrapped, bool one_swarm)
{
    // precise: sep -= d * inv_d2 must not become a fused multiply-add (the CPU does not fuse)
    precise lane_vec sep = lane_vec(0.0);
    lane_vec ali = lane_vec(0.0), coh = lane_vec(0.0);
    uint sep_n = 0u, ali_n = 0u, coh_n = 0u;
    world_sizes ws = world_sizes_now();
    uvec2 r;
    while (candidates_next(it, r)) {
        for (uint k = r.x; k < r.y; ++k) {
            lane_vec vo;
            lane_vec d = neighbour_at(ws, me, mz, k, unwrapped, vo);
            float d2 = length2(d);
            bool near, same;
            if (rr.adams) {
                near = k != s && abs(d.x) < rr.box && abs(d.y) < rr.box;
#if BOIDS_DIMS == 3
                near = near && abs(d.z) < rr.box;
#endif
                same = true;
            } else {
                near = d2 > 0.0; // coincident boids are no neighbours (Shiffman's d > 0)
                same = one_swarm || swarm_at(k) == swarm;
            }
            if (!near) continue;
            bool in_sep = d2 < rr.sep2;
            if (in_sep) {
                if (rr.sep_raw || rr.adams) {
                    sep -= d; // p_i - p_j
                } else {
                    float inv_d2 = quotient(1.0, d2); // one division, two products (as the CPU)
                    sep -= d * inv_d2;
                }
                sep_n++;
            }
            if (rr.adams && !rr.flock_in_sep && in_sep) same = false;
            if (!same) continue;
            if (d2 < rr.ali2) {
                ali += vo;
                ali_n++;
            }
            if (d2 < rr.coh2) {
                coh += d;
                coh_n++;
            }
        }
    }
    candidates_end(it);
#if BOIDS_DIMS == 3
    return reynolds_sums(sep.x, sep.y, sep.z, ali.x, ali.y, ali.z, coh.x, coh.y, coh.z, sep_n,
                         ali_n, coh_n);
#else
    return reynolds_sums(sep.x, sep.y, 0.0, ali.x, ali.y, 0.0, coh.x, coh.y, 0.0, sep_n, ali_n,
                         coh_n);
#endif
}

// The sums of the boid in slot s (me its position and velocity, mz its (z, vz) in a 3D world, id
// and swarm its own).
reynolds_sums walk_reynolds(uint s, vec4 me, vec2 mz, uint id, uint swarm, reynolds_radii rr)
{
    candidates it = candidates_around(GRID_BOIDS, replica_of(id), me.x, me.y, mz.x);
    bool one_swarm = frame.swarms == 1u;
    if (it.unwrapped) {
        return one_swarm ? walk_block(it, s, me, mz, swarm, rr, true, true)
                         : walk_block(it, s, me, mz, swarm, rr, true, false);
    }
    return one_swarm ? walk_block(it, s, me, mz, swarm, rr, false, true)
                     : walk_block(it, s, me, mz, swarm, rr, false, false);
}
