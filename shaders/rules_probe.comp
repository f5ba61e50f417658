#version 430 core
// The rules' noise (src/rules/common.h) evaluated on the GPU for a test (tests/test_noise.c):
// draw u_k of the ids [0, u_count) in step u_step of a world whose seed is frame.seed. The test
// compares it with the CPU's lanes; no step of a world runs this program.
#include "common.glsl"

layout(local_size_x = 64) in;
layout(std430, binding = BOIDS_BIND_PROBE_RESULT) writeonly buffer Result { float result[]; };

uniform uint u_count;
uniform uint u_k;

void main()
{
    uint id = BOIDS_ITEM_INDEX;
    if (id >= u_count) return;
    result[id] = noise(id, u_k);
}
