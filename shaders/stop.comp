#version 430 core
// After the catches: each replica adds its step's catches that catch_apply.comp made (all of
// them, or as many as stop_after_catches left room for), and stops at this step once they reach
// it (0: never). As the end of boids_cpu_apply_catches() in src/cpu/predators.c.
#include "common.glsl"
#include "catches.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;

void main()
{
    uint r = BOIDS_ITEM_INDEX;
    if (r >= frame.replicas) return;
    uint n = catches_found(), found = 0u;
    if (n > frame.loop_limit) raise_status(BOIDS_STATUS_LOOP_LIMIT);
    for (uint j = 0u; j < min(n, frame.loop_limit); ++j) found += catches[j].replica == r ? 1u : 0u;
    uint stop = frame.params.predators.stop_after_catches, done = replicas[r].catches;
    if (stop > 0u) found = min(found, done < stop ? stop - done : 0u);
    replicas[r].catches = done + found;
    if (stop > 0u && done + found >= stop && replicas[r].stop_step == BOIDS_RUNNING)
        replicas[r].stop_step = u_step;
}
