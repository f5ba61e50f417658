#version 430 core
// Models with predators, after catch.comp: each catch found is made so (the boid dies, the event
// is recorded) unless its replica's stop_after_catches leaves no room for it: a replica takes its
// step's catches in the order (predator, boid), as the authors' code does, and stops at the K-th.
// As boids_cpu_apply_catches() in src/cpu/predators.c. The replica's catch count is read before
// this step's (stop.comp adds them after).
#include "common.glsl"
#include "catches.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;

void main()
{
    uint i = BOIDS_ITEM_INDEX, n = catches_found();
    if (i >= n) return;
    boids_catch c = catches[i];
    uint stop = frame.params.predators.stop_after_catches;
    if (stop > 0u) {
        uint done = replicas[c.replica].catches, room = done < stop ? stop - done : 0u;
        if (n > frame.loop_limit) raise_status(BOIDS_STATUS_LOOP_LIMIT);
        uint rank = 0u, seen = min(n, frame.loop_limit);
        for (uint j = 0u; j < seen; ++j)
            if (catches[j].replica == c.replica && catch_before(catches[j], c)) ++rank;
        if (rank >= room) return;
    }
    set_attr_alive(c.boid, 0u);
    emit_event(BOIDS_EVENT_CATCH, c.boid, c.predator, vec4(attr_age(c.boid), sqrt(c.d2), 0.0, 0.0));
}
