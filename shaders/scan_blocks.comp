#version 430 core
// Grid pass 2a: the scan's first dispatch. Each workgroup adds up one block of BOIDS_SCAN_BLOCK
// counts and leaves the total in scan_sums[1 + block]; the last workgroup to finish (the one that
// takes the last ticket of the counter scan_sums[0]) then scans every block's total in place into
// the block's exclusive prefix, in chunks of BOIDS_SCAN_BLOCK, and sets the counter back to 0 for
// the next sort. No workgroup waits for another (no forward progress is assumed, so any driver
// runs it), and any number of cells takes these two dispatches: scan.comp adds the prefixes.
#include "boids_shared.h"
#include "scan.glsl"

layout(local_size_x = BOIDS_SCAN_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_CELL_COUNT) readonly buffer ScanIn { uint scan_in[]; };
// [0]: the workgroups done; [1 + b]: block b's total, then its exclusive prefix
layout(std430, binding = BOIDS_BIND_SCAN_SUMS) coherent buffer ScanSums { uint scan_sums[]; };

uniform uint u_n; // counts to scan

shared bool last;

void main()
{
    const uint PER = uint(BOIDS_SCAN_PER_THREAD), BLOCK = uint(BOIDS_SCAN_BLOCK);
    uint t = gl_LocalInvocationID.x, block = BOIDS_GROUP_INDEX;
    uint blocks = (u_n + BLOCK - 1u) / BLOCK;
    if (block >= blocks) return; // a whole workgroup past the last block
    uint first = block * BLOCK + t * PER, mine = 0u;
    for (uint i = 0u; i < PER; ++i)
        if (first + i < u_n) mine += scan_in[first + i];
    uint all = reduce_workgroup(t, mine);
    if (t == 0u) {
        scan_sums[1u + block] = all;
        memoryBarrierBuffer(); // the total is visible before the ticket says so
        last = atomicAdd(scan_sums[0], 1u) == blocks - 1u;
    }
    barrier();
    if (!last) return; // (uniform: the whole workgroup leaves, or none)
    memoryBarrierBuffer(); // every other block's total is in
    uint carry = 0u;
    for (uint base = 0u; base < blocks; base += BLOCK) {
        uint vals[BOIDS_SCAN_PER_THREAD];
        uint at = base + t * PER, sum = 0u;
        for (uint i = 0u; i < PER; ++i) {
            vals[i] = at + i < blocks ? scan_sums[1u + at + i] : 0u;
            sum += vals[i];
        }
        uint chunk;
        uint run = carry + scan_workgroup(t, sum, chunk);
        for (uint i = 0u; i < PER; ++i) {
            if (at + i < blocks) scan_sums[1u + at + i] = run;
            run += vals[i];
        }
        carry += chunk;
    }
    if (t == 0u) scan_sums[0] = 0u; // every ticket is taken: ready for the next sort
}
