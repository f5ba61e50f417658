#version 430 core
// Metrics pass 2: the groups. Every pair of living boids of a replica within the group radius
// (the model's alignment radius, never more than a cell, so the block of cells around a boid,
// 3 x 3 or in a 3D world 3 x 3 x 3, holds every partner) is united in a lock-free union-find over
// the slots: a root is hooked under the smaller one with an atomic compare-and-swap, and finds
// halve their paths. Parents only ever decrease, so whatever the order of the unions, each group
// ends with one root, its smallest slot; metrics_reduce.comp counts the roots. A partner whose
// parent is this boid's root, or the parent of the partner last united, is in its set already
// and costs no find: in a dense group that is nearly every partner. A loop a driver cut short
// raises the loop limit (llvmpipe once left a dense flock in 8 groups instead of 1 without a
// word).
// The metrics read no predators: their blocks stay undeclared (neighbors.glsl).
#define BOIDS_WITHOUT_PREDATORS 1
#include "neighbors.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;

layout(std430, binding = BOIDS_BIND_METRIC_PARENT) coherent buffer MetricParent { uint parent[]; };

uniform float u_radius;

uint find_root(uint x, inout uint budget)
{
    while (budget > 0u) {
        --budget;
        uint p = parent[x];
        if (p == x) return x;
        uint gp = parent[p];
        if (gp != p) atomicCompSwap(parent[x], p, gp); // path halving: still an ancestor
        x = gp;
    }
    raise_status(BOIDS_STATUS_LOOP_LIMIT);
    return x;
}

// Unites the sets of a and b; returns a's root as found (an ancestor of a).
uint unite(uint a, uint b, inout uint budget)
{
    while (budget > 0u) {
        a = find_root(a, budget);
        b = find_root(b, budget);
        if (a == b) return a;
        uint hi = max(a, b), lo = min(a, b);
        if (atomicCompSwap(parent[hi], hi, lo) == hi) return lo; // else hi gained a parent: again
    }
    raise_status(BOIDS_STATUS_LOOP_LIMIT);
    return a;
}

void main()
{
    uint s = BOIDS_ITEM_INDEX;
    if (s >= cell_start[graveyard()]) return;
    vec4 me = pos_vel_in[s];
    float mz = boid_depth_or_none(s).x;
    float r2 = u_radius * u_radius;
    world_sizes ws = world_sizes_now();
    candidates it = candidates_around(GRID_BOIDS, replica_of(id_in[s]), me.x, me.y, mz);
    uint root = s, joined = s; // an ancestor of s (roots only ever decrease), one of its set
    uvec2 rg;
    // (a walk a driver cut short raises the loop limit at candidates_end; find_root and unite
    // raise where their loops did not end on their own)
    while (candidates_next(it, rg)) // it.budget: the candidates taken off, the finds next
        for (uint k = rg.x; k < rg.y; ++k) {
            if (k <= s) continue; // each pair once
            if (length2(offset_to_boid(ws, me.x, me.y, mz, k)) > r2) continue;
            uint pk = parent[k];
            if (pk == root || pk == joined) continue; // in s's set already
            root = unite(root, k, it.budget);
            joined = pk; // k's parent then, an ancestor of k: in the set now
        }
    candidates_end(it);
}
