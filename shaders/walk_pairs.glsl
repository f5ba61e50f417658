// The GPU's pair walk (src/rules/common.h, "the pair walk"; src/cpu/walk_pairs.h is the CPU's):
// the steering program of a model with a pair rule (BOIDS_FEATURE_PAIR_RULE). A boid's sums over
// its candidates within the model's reach, and in a world of nearest:K over its K nearest
// (nearest.glsl), each pair's terms from the model's RULES_PAIR, added field by field in the
// candidates' order (then the nearest's, nearest first), as the CPU adds them, so the sums are
// the CPU's bits. cmake/glsl_gen.c names the model's functions and types: RULES_ZONES,
// RULES_ZONES_OF, RULES_REACH, RULES_PAIR, RULES_SUMS, RULES_SUMS_FIELDS and RULES_STEER. A
// model's rules.h may add hooks: RULES_ZONES_AT(zones, boid), its zones for one boid (kit's view
// from its age), and RULES_FLEE_PAIR(zones, d, d2) with RULES_FLEE_REACH2(zones), what one
// predator adds (the predators' walk, walk_flee). A model with predators leaves its caught boids
// and a stopped replica's standing.

// a + b, precise: never fused with the product that made the term (the CPU does not fuse). (A
// function: glslangValidator 11 crashed on six precise declarations in blocks of one loop.)
float pair_sum(float a, float b)
{
    precise float s = a + b;
    return s;
}

// A pair's term t.f added to acc.f.
#define PAIR_ADD_F(f) acc.f = pair_sum(acc.f, t.f);
#define PAIR_ADD_U(f) acc.f += t.f;
#if BOIDS_DIMS == 3
#define PAIR_ADD_Z(f) PAIR_ADD_F(f)
#else
#define PAIR_ADD_Z(f)
#endif
#define PAIR_ZERO_F(f) acc.f = 0.0;
#define PAIR_ZERO_U(f) acc.f = 0u;

// The walk over the block, and in a world of nearest:K the search for the nearest. `unwrapped`
// is a constant where main() calls it: the minimum image is left out where it cannot change a
// bit (block_unwrapped()). me is the boid, mz its (z, vz) in a 3D world.
RULES_SUMS walk_pairs(candidates it, vec4 me, vec2 mz, uint id, uint swarm, RULES_ZONES z,
                      rules_pair_reach reach, bool unwrapped)
{
    RULES_SUMS acc;
    RULES_SUMS_FIELDS(PAIR_ZERO_F, PAIR_ZERO_U, PAIR_ZERO_F)
    const bool nearest = BOIDS_NEAREST != 0; // (a constant: the program's variant)
    uint phase = nearest ? RULES_PAIR_BESIDE : RULES_PAIR_METRIC;
    lane_vec heading = VEC(me.z, me.w, mz.y);
    world_sizes ws = world_sizes_now();
    uvec2 rg;
    while (candidates_next(it, rg)) {
        for (uint k = rg.x; k < rg.y; ++k) {
            lane_vec vo;
            lane_vec d = neighbour_at(ws, me, mz, k, unwrapped, vo);
            float d2 = length2(d);
            // the boid itself (d2 = 0), coincident boids and those beyond the reach add nothing
            if (!(d2 > 0.0 && d2 < reach.reach2)) continue;
            RULES_SUMS t = RULES_PAIR(z, rules_pair(d, d2, vo, heading, swarm_at(k) == swarm),
                                      phase);
            RULES_SUMS_FIELDS(PAIR_ADD_F, PAIR_ADD_U, PAIR_ADD_Z)
        }
    }
    candidates_end(it);
#if BOIDS_NEAREST
    { // the K nearest that pass the model's filter, nearest first, with no outer limit
        nearest_list nb;
        nearest_search(me, mz, id, swarm, frame.nearest, reach.nearest_min2, reach.nearest_view,
                       reach.cos_view, nb);
        uint i = 0u;
        for (; i < nb.n; ++i) {
            lane_vec vo;
            lane_vec d = neighbour_at(ws, me, mz, nb.slot[i], false, vo);
            RULES_SUMS t = RULES_PAIR(z, rules_pair(d, nb.d2[i], vo, heading, true),
                                      RULES_PAIR_NEAREST);
            RULES_SUMS_FIELDS(PAIR_ADD_F, PAIR_ADD_U, PAIR_ADD_Z)
        }
        if (i != nb.n) raise_status(BOIDS_STATUS_LOOP_LIMIT); // cut short by a driver
    }
#endif
    return acc;
}

#ifdef RULES_FLEE_PAIR
// The predators' walk of a model that flees them (its RULES_FLEE_PAIR, within RULES_FLEE_REACH2:
// kit's eq. 6): each predator's terms added to the sums as a flockmate's are, in the order of the
// predators' grid, as the CPU adds them.
RULES_SUMS walk_flee(RULES_SUMS acc, uint r, vec4 me, vec2 mz, RULES_ZONES z)
{
    float reach2 = RULES_FLEE_REACH2(z);
    world_sizes ws = world_sizes_now();
    uvec2 rg;
    candidates it = candidates_around(GRID_PREDATORS, r, me.x, me.y, mz.x);
    while (candidates_next(it, rg))
        for (uint k = rg.x; k < rg.y; ++k) {
            lane_vec d = offset_to_slot(ws, GRID_PREDATORS, me.x, me.y, mz.x, k);
            float d2 = length2(d);
            if (!(d2 > 0.0 && d2 < reach2)) continue;
            RULES_SUMS t = RULES_FLEE_PAIR(z, d, d2);
            RULES_SUMS_FIELDS(PAIR_ADD_F, PAIR_ADD_U, PAIR_ADD_Z)
        }
    candidates_end(it);
    return acc;
}
#endif

void main()
{
    uint s = BOIDS_ITEM_INDEX;
    if (s >= frame.count) return;
    vec4 me = pos_vel_in[s];
    vec2 mz = boid_depth_or_none(s);
    uint id = id_in[s], swarm = swarm_in[s], r = replica_of(id);
#ifndef BOIDS_WITHOUT_PREDATORS
    if (attr_alive(id) == 0u || replica_stopped(r)) { // the caught, and a stopped replica, stand
        pos_vel_out[s] = me;
#if BOIDS_DIMS == 3
        pos_vel_z_out[s] = mz;
#endif
        return;
    }
#endif
    rules_boid b = rules_boid_at(id, me, mz);
    RULES_ZONES z = RULES_ZONES_OF();
#ifdef RULES_ZONES_AT
    z = RULES_ZONES_AT(z, b); // the boid's own (kit's: from its age)
#endif
    rules_pair_reach reach = RULES_REACH(z);
    candidates it = candidates_around(GRID_BOIDS, r, me.x, me.y, mz.x);
    RULES_SUMS m = it.unwrapped ? walk_pairs(it, me, mz, id, swarm, z, reach, true)
                                : walk_pairs(it, me, mz, id, swarm, z, reach, false);
#ifdef RULES_FLEE_PAIR
    m = walk_flee(m, r, me, mz, z);
#endif
    store_boid(s, b, RULES_STEER(m, b));
}
