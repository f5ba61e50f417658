// A workgroup's sum (reduce_workgroup) and exclusive scan (scan_workgroup) of one value per
// invocation (BOIDS_SCAN_WG_SIZE of them), as trees in shared memory: what each scan pass does
// after every invocation has added up its BOIDS_SCAN_PER_THREAD consecutive values. Every
// invocation of the workgroup calls them (they have barriers).
shared uint scan_tmp[BOIDS_SCAN_WG_SIZE];

// The total: a tree of pairwise sums, half the barriers of the scan (each costs every invocation
// a switch on llvmpipe).
uint reduce_workgroup(uint t, uint mine)
{
    const uint WG = uint(BOIDS_SCAN_WG_SIZE);
    scan_tmp[t] = mine;
    for (uint d = WG >> 1; d > 0u; d >>= 1) {
        barrier();
        if (t < d) scan_tmp[t] += scan_tmp[t + d];
    }
    barrier();
    uint all = scan_tmp[0];
    barrier(); // scan_tmp is free again when this returns
    return all;
}

// The scan, as a Blelloch tree (up-sweep, then down-sweep): the invocation's exclusive prefix,
// and the workgroup's total in `all`.
uint scan_workgroup(uint t, uint mine, out uint all)
{
    const uint WG = uint(BOIDS_SCAN_WG_SIZE);
    scan_tmp[t] = mine;
    uint offset = 1u;
    for (uint d = WG >> 1; d > 0u; d >>= 1) {
        barrier();
        if (t < d) {
            uint ai = offset * (2u * t + 1u) - 1u;
            uint bi = offset * (2u * t + 2u) - 1u;
            scan_tmp[bi] += scan_tmp[ai];
        }
        offset <<= 1;
    }
    barrier();
    all = scan_tmp[WG - 1u];
    barrier(); // every invocation has read the total before the root is zeroed
    if (t == 0u) scan_tmp[WG - 1u] = 0u;
    for (uint d = 1u; d < WG; d <<= 1) {
        offset >>= 1;
        barrier();
        if (t < d) {
            uint ai = offset * (2u * t + 1u) - 1u;
            uint bi = offset * (2u * t + 2u) - 1u;
            uint x = scan_tmp[ai];
            scan_tmp[ai] = scan_tmp[bi];
            scan_tmp[bi] += x;
        }
    }
    barrier();
    uint run = scan_tmp[t];
    barrier(); // scan_tmp is free again when this returns
    return run;
}
