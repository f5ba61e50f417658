#version 430 core
// After the catches: a replica whose catches reached stop_after_catches stops at this step (0:
// never). As the end of predators_and_catches() in src/cpu/cpu_backend.c.
#include "common.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;

void main()
{
    uint r = gl_GlobalInvocationID.x;
    if (r >= frame.replicas) return;
    uint stop = uint(frame.params.predators.stop_after_catches);
    if (stop > 0u && replicas[r].catches >= stop && replicas[r].stop_step == BOIDS_RUNNING)
        replicas[r].stop_step = u_step;
}
