#version 430 core
// Grid pass 2b: adds each block's scanned total (one level up) to every value of the block.
#include "boids_shared.h"

layout(local_size_x = BOIDS_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_SCAN_OUT) buffer ScanOut { uint scan_out[]; };
layout(std430, binding = BOIDS_BIND_SCAN_SUMS) readonly buffer ScanSums { uint scan_sums[]; };

uniform uint u_n;
uniform uint u_out_off;
uniform uint u_sums_off;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= u_n) return;
    scan_out[u_out_off + i] += scan_sums[u_sums_off + i / uint(BOIDS_SCAN_BLOCK)];
}
