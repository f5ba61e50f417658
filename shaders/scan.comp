#version 430 core
// Grid pass 2b: the scan's second dispatch. Each workgroup scans its block of BOIDS_SCAN_BLOCK
// counts (each invocation adds up its BOIDS_SCAN_PER_THREAD consecutive values, then the
// workgroup scans the invocations' totals: scan.glsl) from the block's prefix that
// scan_blocks.comp left, writes the exclusive sums, and zeroes the counts it read, so the next
// sort's histogram starts from zero with no clear of the cells.
#include "boids_shared.h"
#include "scan.glsl"

layout(local_size_x = BOIDS_SCAN_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_CELL_COUNT) buffer ScanIn { uint scan_in[]; };
layout(std430, binding = BOIDS_BIND_CELL_START) writeonly buffer ScanOut { uint scan_out[]; };
layout(std430, binding = BOIDS_BIND_SCAN_SUMS) readonly buffer ScanSums { uint scan_sums[]; };

uniform uint u_n; // counts to scan

void main()
{
    const uint PER = uint(BOIDS_SCAN_PER_THREAD), BLOCK = uint(BOIDS_SCAN_BLOCK);
    uint t = gl_LocalInvocationID.x, block = BOIDS_GROUP_INDEX;
    if (block * BLOCK >= u_n) return; // a whole workgroup past the last block
    uint first = block * BLOCK + t * PER;
    uint vals[BOIDS_SCAN_PER_THREAD];
    uint mine = 0u;
    for (uint i = 0u; i < PER; ++i) {
        vals[i] = first + i < u_n ? scan_in[first + i] : 0u;
        if (first + i < u_n) scan_in[first + i] = 0u;
        mine += vals[i];
    }
    uint all;
    uint run = scan_sums[1u + block] + scan_workgroup(t, mine, all);
    for (uint i = 0u; i < PER; ++i) {
        if (first + i < u_n) scan_out[first + i] = run;
        run += vals[i];
    }
}
