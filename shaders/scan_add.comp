#version 430 core
// Grid pass 2b: adds each block's scanned total (one level up) to every value of the block.
#include "boids_shared.h"

layout(local_size_x = BOIDS_SCAN_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_SCAN_OUT) buffer ScanOut { uint scan_out[]; };
layout(std430, binding = BOIDS_BIND_SCAN_SUMS) readonly buffer ScanSums { uint scan_sums[]; };

uniform uint u_n;
uniform uint u_out_off;
uniform uint u_sums_off;

// One workgroup per scan block (as scan.comp).
void main()
{
    uint block = BOIDS_GROUP_INDEX;
    if (block * uint(BOIDS_SCAN_BLOCK) >= u_n) return; // a workgroup past the last block
    uint first = block * uint(BOIDS_SCAN_BLOCK) + gl_LocalInvocationID.x;
    uint add = scan_sums[u_sums_off + block];
    for (uint i = 0u; i < uint(BOIDS_SCAN_PER_THREAD); ++i) {
        uint k = first + i * uint(BOIDS_SCAN_WG_SIZE);
        if (k < u_n) scan_out[u_out_off + k] += add;
    }
}
