#version 430 core
// Models with predators, at the start of a step: a living boid of a running replica within
// boid_size + predator_size of a predator (in 3D where the world is) is caught, by the lowest
// predator id within reach (rules/hunt.h's caught_by, the CPU's too). Found here and listed;
// catch_apply.comp makes them so (up to stop_after_catches). The walk and the order of every
// operation are those of boids_cpu_catch() in src/cpu/hunt.c. Reads the state (before the
// boids' grid): POS_VEL_IN and ID_IN are the state's (a 3D world's (z, vz) at POS_VEL_Z_IN); the
// predators of step t are sorted by their grid.
#include "neighbors.glsl"
#include "rules/hunt.h"

layout(local_size_x = BOIDS_WG_SIZE) in;
#include "catches.glsl"

void main()
{
    uint s = BOIDS_ITEM_INDEX;
    if (s >= frame.count) return;
    uint id = id_in[s], r = replica_of(id);
    if (attr_alive(id) == 0u || replica_stopped(r)) return;
    vec4 me = pos_vel_in[s];
    float mz = boid_depth_or_none(s).x; // (a 3D world's z)
    float reach2 = catch_reach2();
    uint best = 0xffffffffu;
    float best_d2 = 0.0;
    world_sizes ws = world_sizes_now();
    candidates it = candidates_around(GRID_PREDATORS, r, me.x, me.y, mz);
    uvec2 rg;
    while (candidates_next(it, rg))
        for (uint k = rg.x; k < rg.y; ++k) {
            float d2 = length2(offset_to_slot(ws, GRID_PREDATORS, me.x, me.y, mz, k));
            if (caught_by(d2, reach2, pred_id_in[k], best)) {
                best = pred_id_in[k];
                best_d2 = d2;
            }
        }
    candidates_end(it);
    if (best == 0xffffffffu) return;
    uint i = atomicAdd(catch_count, 1u); // the order is the scheduler's: the next passes sort
    boids_catch c;
    c.replica = r;
    c.predator = best;
    c.boid = id;
    c.d2 = best_d2;
    catches[i] = c;
}
