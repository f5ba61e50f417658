#version 430 core
// Metrics pass 2: the groups. Every pair of living boids of a replica within the group radius
// (the model's alignment radius, never more than a cell, so the block of cells around a boid
// holds every partner) is united in a lock-free union-find over the slots: a root is hooked
// under the smaller one with an atomic compare-and-swap, and finds halve their paths. Parents
// only ever decrease, so whatever the order of the unions, each group ends with one root, its
// smallest slot; metrics_reduce.comp counts the roots.
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

void unite(uint a, uint b, inout uint budget)
{
    while (budget > 0u) {
        a = find_root(a, budget);
        b = find_root(b, budget);
        if (a == b) return;
        uint hi = max(a, b), lo = min(a, b);
        if (atomicCompSwap(parent[hi], hi, lo) == hi) return; // else hi gained a parent: again
    }
    raise_status(BOIDS_STATUS_LOOP_LIMIT);
}

void main()
{
    uint s = BOIDS_ITEM_INDEX;
    if (s >= cell_start[graveyard()]) return;
    vec4 me = pos_vel_in[s];
    float r2 = u_radius * u_radius;
    uint budget = frame.loop_limit;
    world_sizes ws = world_sizes_now();
    candidates it = candidates_begin(GRID_BOIDS, replica_of(id_in[s]), me.x, me.y);
    uvec2 rg;
    while (candidates_next(it, rg))
        for (uint k = rg.x; k < rg.y; ++k) {
            if (k <= s) continue; // each pair once
            vec2 d = offset_to(ws, me.x, me.y, pos_vel_in[k].xy);
            if (length2(d) <= r2) unite(s, k, budget);
        }
}
