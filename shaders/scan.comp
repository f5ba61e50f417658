#version 430 core
// Grid pass 2: work-efficient (Blelloch) exclusive prefix sum of one level. Each workgroup scans
// a block of BOIDS_SCAN_BLOCK values in shared memory (up-sweep, then down-sweep) and, when asked,
// writes the block's total to scan_sums; the host scans those totals with this same pass (one
// level up) and adds them back with scan_add.comp, so any number of cells is handled with a
// bounded amount of work per invocation.
#include "boids_shared.h"

layout(local_size_x = BOIDS_SCAN_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_SCAN_IN) readonly buffer ScanIn { uint scan_in[]; };
layout(std430, binding = BOIDS_BIND_SCAN_OUT) writeonly buffer ScanOut { uint scan_out[]; };
layout(std430, binding = BOIDS_BIND_SCAN_SUMS) writeonly buffer ScanSums { uint scan_sums[]; };

uniform uint u_n;         // values in this level
uniform uint u_in_off;    // first value in scan_in
uniform uint u_out_off;   // first value in scan_out
uniform uint u_sums_off;  // first block total in scan_sums
uniform uint u_write_sums;

shared uint tmp[BOIDS_SCAN_BLOCK];

void main()
{
    uint t = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * uint(BOIDS_SCAN_BLOCK);
    uint a = base + t, b = base + t + uint(BOIDS_SCAN_WG_SIZE);
    tmp[t] = a < u_n ? scan_in[u_in_off + a] : 0u;
    tmp[t + uint(BOIDS_SCAN_WG_SIZE)] = b < u_n ? scan_in[u_in_off + b] : 0u;

    uint offset = 1u;
    for (uint d = uint(BOIDS_SCAN_BLOCK) >> 1; d > 0u; d >>= 1) {
        barrier();
        if (t < d) {
            uint ai = offset * (2u * t + 1u) - 1u;
            uint bi = offset * (2u * t + 2u) - 1u;
            tmp[bi] += tmp[ai];
        }
        offset <<= 1;
    }
    barrier();
    if (t == 0u) {
        if (u_write_sums != 0u) scan_sums[u_sums_off + gl_WorkGroupID.x] = tmp[BOIDS_SCAN_BLOCK - 1];
        tmp[BOIDS_SCAN_BLOCK - 1] = 0u;
    }
    for (uint d = 1u; d < uint(BOIDS_SCAN_BLOCK); d <<= 1) {
        offset >>= 1;
        barrier();
        if (t < d) {
            uint ai = offset * (2u * t + 1u) - 1u;
            uint bi = offset * (2u * t + 2u) - 1u;
            uint x = tmp[ai];
            tmp[ai] = tmp[bi];
            tmp[bi] += x;
        }
    }
    barrier();
    if (a < u_n) scan_out[u_out_off + a] = tmp[t];
    if (b < u_n) scan_out[u_out_off + b] = tmp[t + uint(BOIDS_SCAN_WG_SIZE)];
}
