#version 430 core
// Grid pass 2: exclusive prefix sum of one level, work-efficient. A workgroup scans a block of
// BOIDS_SCAN_BLOCK values: each invocation adds up its BOIDS_SCAN_PER_THREAD consecutive values,
// the invocations' totals are scanned in shared memory as a Blelloch tree (up-sweep, then
// down-sweep), and each invocation writes its values' exclusive sums from its tree offset. When
// asked, the block's total goes to scan_sums; the host scans those totals with this same pass
// (one level up) and adds them back with scan_add.comp, so any number of cells is handled with a
// bounded amount of work per invocation. The first level (u_zero_in) zeroes the counts it read,
// so the next sort's histogram starts from zero with no clear of the cells.
#include "boids_shared.h"

layout(local_size_x = BOIDS_SCAN_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_SCAN_IN) buffer ScanIn { uint scan_in[]; };
layout(std430, binding = BOIDS_BIND_SCAN_OUT) writeonly buffer ScanOut { uint scan_out[]; };
layout(std430, binding = BOIDS_BIND_SCAN_SUMS) writeonly buffer ScanSums { uint scan_sums[]; };

uniform uint u_n;        // values in this level
uniform uint u_in_off;   // first value in scan_in
uniform uint u_out_off;  // first value in scan_out
uniform uint u_sums_off; // first block total in scan_sums
uniform uint u_write_sums;
uniform uint u_zero_in; // 1: zero each value read (the histogram, for the next sort)

shared uint tmp[BOIDS_SCAN_WG_SIZE];

void main()
{
    const uint WG = uint(BOIDS_SCAN_WG_SIZE), PER = uint(BOIDS_SCAN_PER_THREAD);
    uint t = gl_LocalInvocationID.x, block = BOIDS_GROUP_INDEX;
    if (block * uint(BOIDS_SCAN_BLOCK) >= u_n) return; // a whole workgroup past the last block
    uint first = block * uint(BOIDS_SCAN_BLOCK) + t * PER;

    uint vals[BOIDS_SCAN_PER_THREAD];
    uint total = 0u;
    for (uint i = 0u; i < PER; ++i) {
        vals[i] = first + i < u_n ? scan_in[u_in_off + first + i] : 0u;
        if (u_zero_in != 0u && first + i < u_n) scan_in[u_in_off + first + i] = 0u;
        total += vals[i];
    }
    tmp[t] = total;

    uint offset = 1u;
    for (uint d = WG >> 1; d > 0u; d >>= 1) {
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
        if (u_write_sums != 0u) scan_sums[u_sums_off + block] = tmp[WG - 1u];
        tmp[WG - 1u] = 0u;
    }
    for (uint d = 1u; d < WG; d <<= 1) {
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
    uint run = tmp[t];
    for (uint i = 0u; i < PER; ++i) {
        if (first + i < u_n) scan_out[u_out_off + first + i] = run;
        run += vals[i];
    }
}
