// couzin (docs/models.md (couzin)), the GPU's walk: the rules are rules.h beside it, shared with
// the CPU; the zones are couzin's own walk, so this file gathers couzin_sums as
// src/models/couzin/walk.c does, over the others an individual perceives within r_a: the unit
// vectors towards those in the zone of repulsion (eq. 1) and of attraction (eq. 3), the headings
// of those in the zone of orientation (eq. 2), each sum in the candidates' order with the CPU's
// operations. In a 3D world (BOIDS_DIMS 3) the offsets, velocities and sums have z, and the field
// of perception is the cone around the 3D heading. With several swarms, an individual is repelled
// by everyone and orients to and is attracted by its own swarm only. In a world of nearest:K the
// zones of orientation and attraction hold the K nearest perceived beyond r_r (nearest.glsl).

// A perceived neighbour beyond r_r, at offset d (d2 its squared length) with velocity vo: into
// the zone of orientation (its heading; one at rest has none to add) or of attraction; one
// division, then products (as the CPU).
void add_beyond(bool orient, lane_vec d, float d2, lane_vec vo, inout lane_vec ori, inout uint n_o,
                inout lane_vec att, inout uint n_a)
{
    if (!orient) {
        precise lane_vec u = d * quotient(1.0, square_root(d2));
        precise lane_vec sum = att + u;
        att = sum;
        n_a++;
        return;
    }
    float v2 = length2(vo);
    n_o++;
    if (v2 > 0.0) {
        precise lane_vec h = vo * quotient(1.0, square_root(v2));
        precise lane_vec sum = ori + h;
        ori = sum;
    }
}

// The walk over the block, and in a world of nearest:K the search for the nearest. `unwrapped`
// is a constant where main() calls it: the minimum image is left out where it cannot change a
// bit (block_unwrapped()). me is the boid, mz its (z, vz) in a 3D world.
couzin_sums walk_couzin(candidates it, vec4 me, vec2 mz, uint id, uint swarm, couzin_zones z,
                        bool unwrapped)
{
    precise lane_vec rep = lane_vec(0.0);
    lane_vec ori = lane_vec(0.0), att = lane_vec(0.0);
    uint n_r = 0u, n_o = 0u, n_a = 0u;
    bool blind_rep = frame.params.couzin.blind_repulsion != 0.0;
    const bool nearest = BOIDS_NEAREST != 0; // (a constant: the program's variant)
    lane_vec heading = VEC(me.z, me.w, mz.y);
    world_sizes ws = world_sizes_now();
    uvec2 rg;
    while (candidates_next(it, rg)) {
        for (uint k = rg.x; k < rg.y; ++k) {
            lane_vec vo;
            lane_vec d = neighbour_at(ws, me, mz, k, unwrapped, vo);
            float d2 = length2(d);
            if (!(d2 > 0.0 && d2 < z.ra2)) continue; // (the boid itself too: d2 = 0)
            bool repel = d2 < z.rr2;
            if (!repel && (nearest || swarm_in[k] != swarm))
                continue; // another swarm, or the nearest's to come: repulsion only
            if ((blind_rep || !repel) && !in_view(heading, d, d2, z.cos_view))
                continue; // in the blind volume
            if (repel) {
                // one division, products (as the CPU)
                precise lane_vec u = d * quotient(1.0, square_root(d2));
                rep += u;
                n_r++;
            } else {
                add_beyond(d2 < z.ro2, d, d2, vo, ori, n_o, att, n_a);
            }
        }
    }
    candidates_end(it);
#if BOIDS_NEAREST
    { // orientation and attraction: the K nearest perceived beyond r_r, nearest first, with no
      // outer limit
        nearest_list nb;
        nearest_search(me, mz, id, swarm, frame.nearest, z.rr2, true, z.cos_view, nb);
        uint i = 0u;
        for (; i < nb.n; ++i) {
            lane_vec vo;
            lane_vec d = neighbour_at(ws, me, mz, nb.slot[i], false, vo);
            add_beyond(nb.d2[i] < z.ro2, d, nb.d2[i], vo, ori, n_o, att, n_a);
        }
        if (i != nb.n) raise_status(BOIDS_STATUS_LOOP_LIMIT); // cut short by a driver
    }
#endif
#if BOIDS_DIMS == 3
    return couzin_sums(rep.x, rep.y, ori.x, ori.y, att.x, att.y, n_r, n_o, n_a, rep.z, ori.z,
                       att.z);
#else
    return couzin_sums(rep.x, rep.y, ori.x, ori.y, att.x, att.y, n_r, n_o, n_a, 0.0, 0.0, 0.0);
#endif
}

void main()
{
    uint s = BOIDS_ITEM_INDEX;
    if (s >= frame.count) return;
    vec4 me = pos_vel_in[s];
    vec2 mz = boid_depth_or_none(s);
    uint id = id_in[s], swarm = swarm_in[s];
    couzin_zones z = couzin_zones_of();
    candidates it = candidates_around(GRID_BOIDS, replica_of(id), me.x, me.y, mz.x);
    couzin_sums m = it.unwrapped ? walk_couzin(it, me, mz, id, swarm, z, true)
                                 : walk_couzin(it, me, mz, id, swarm, z, false);
    rules_boid b = rules_boid_at(id, me, mz);
    store_boid(s, b, couzin_steer(m, b));
}
