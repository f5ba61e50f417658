#version 430 core
// Metrics pass 1 (boids_world_metrics), over the living boids as the metrics' own sort placed
// them (the current state; stopped replicas keep their cells): each boid's distance to the
// nearest other living boid of its replica, its speed and unit heading; and the start of the
// union-find of the groups, every boid its own root. The nearest neighbour is searched in squares
// of cells around the boid's cell (cubes in a 3D world), of half-size 1, 2, 4, ... cells, until
// the square holds every cell or the best found is nearer than any cell outside it. A square is
// read row by row (a cube layer by layer), each row one slot range (two where it crosses a
// torus's seam; rows as wide as the grid one range together, and layers as large), so a boid
// thousands of cells from the next costs a few thousand reads, not millions (a search in rings of
// cells cost the square of the distance, and in a 100 x 10^7 px world ran so long that a GPU
// reset the context). The nearest is a minimum, so it does not
// depend on the order of the search: the CPU's (core/metrics.c) searches its own grid and finds
// the same neighbour. A 3D world's heading z goes to a block of its own (metric_slot_z).
// The metrics read no predators: their blocks stay undeclared (neighbors.glsl).
#define BOIDS_WITHOUT_PREDATORS 1
#include "neighbors.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;

layout(std430, binding = BOIDS_BIND_METRIC_SLOT) writeonly buffer MetricSlot
{
    vec4 metric_slot[];
};
layout(std430, binding = BOIDS_BIND_METRIC_PARENT) writeonly buffer MetricParent { uint parent[]; };
#if BOIDS_DIMS == 3
layout(std430, binding = BOIDS_BIND_METRIC_SLOT_Z) writeonly buffer MetricSlotZ
{
    float metric_slot_z[];
};
#endif

// Cells [lo, hi] of an axis of n cells within r of cell c: one span, or two where a torus's span
// crosses the seam; every cell once. A box's span is cut at its edges.
uint axis_spans(int c, int r, int n, bool wrap, out uvec2 s0, out uvec2 s1)
{
    s1 = uvec2(1u, 0u); // empty
    if (!wrap || 2 * r + 1 >= n) {
        s0 = uvec2(wrap ? 0 : max(c - r, 0), wrap ? n - 1 : min(c + r, n - 1));
        return 1u;
    }
    int lo = c - r, hi = c + r; // 2r + 1 < n: at most one end is past the seam
    if (lo < 0) {
        s0 = uvec2(0u, uint(hi));
        s1 = uvec2(uint(lo + n), uint(n - 1));
        return 2u;
    }
    if (hi >= n) {
        s0 = uvec2(uint(lo), uint(n - 1));
        s1 = uvec2(0u, uint(hi - n));
        return 2u;
    }
    s0 = uvec2(uint(lo), uint(hi));
    return 1u;
}

// Whether the cells within r of c are every cell of the axis.
bool axis_covered(int c, int r, int n, bool wrap)
{
    return wrap ? 2 * r + 1 >= n : c - r <= 0 && c + r >= n - 1;
}

// The squared distance from a boid to the cells outside the cube of half-size r around its cell
// c (a flat world: the square), +infinity where the cube holds every cell: along each axis it
// does not cover, r of that axis's cells (a world 3 px wide and 10^7 long once searched in steps
// of its 3 px cells along the long axis too, past llvmpipe's loop limit); a quarter of a cell
// off for a boid on a cell's edge that the rounded multiply put one cell off (a few ulps of its
// coordinate) and for a GPU's division, which may round up an ulp or two.
float outside_reach(ivec3 c, int r, ivec3 n, vec3 cell, bool wrap)
{
    float reach = uintBitsToFloat(0x7f800000u);
    for (int a = 0; a < 3; ++a)
        if (!axis_covered(c[a], r, n[a], wrap)) reach = min(reach, (float(r) - 0.25) * cell[a]);
    return reach * reach;
}

// The nearest other boid's squared distance among slots [slots.x, slots.y) and best2, the
// nearest so far; a scan a loop limit cut short sets cut.
float nearest_in_range(uint s, world_sizes ws, vec4 me, float mz, uvec2 slots, float best2,
                       inout bool cut)
{
    uint k = slots.x;
    for (; k < slots.y; ++k) {
        if (k == s) continue;
        lane_vec o = offset_to_boid(ws, me.x, me.y, mz, k);
        best2 = min(best2, length2(o));
    }
    cut = cut || k < slots.y;
    return best2;
}

// The nearest other boid's squared distance in the cube of half-size r around cell c (a flat
// world: the square; n.z = 1) of the replica whose cells start at base, and best2, the nearest
// so far; read row by row, layer by layer, each row one slot range (two across a torus's seam).
// A loop a limit cut short sets cut.
float nearest_in_cube(uint s, world_sizes ws, vec4 me, float mz, uint base, ivec3 c, ivec3 n,
                      int r, bool wrap, float best2, inout bool cut)
{
    int w = n.x, h = n.y;
    uvec2 lays0, lays1, rows0, rows1, cols0, cols1;
    uint nlays = axis_spans(c.z, r, n.z, wrap, lays0, lays1);
    uint nrows = axis_spans(c.y, r, h, wrap, rows0, rows1);
    uint ncols = axis_spans(c.x, r, w, wrap, cols0, cols1);
    // rows as wide as the grid follow each other in memory: a span of them is one range; so
    // do layers as large as the grid (a world 3 px across and 10^7 deep)
    bool full = ncols == 1u && cols0 == uvec2(0u, uint(w - 1));
    bool whole = full && nrows == 1u && rows0 == uvec2(0u, uint(h - 1));
    uint p = 0u;
    for (; p < nlays; ++p) {
        uvec2 lays = p == 0u ? lays0 : lays1;
        uint z = lays.x;
        for (; z <= lays.y; ++z) {
            uint zlast = whole ? lays.y : z;
            uint layer = base + z * uint(h * w), end_layer = base + zlast * uint(h * w), q = 0u;
            for (; q < nrows; ++q) {
                uvec2 rows = q == 0u ? rows0 : rows1;
                uint y = rows.x;
                for (; y <= rows.y; ++y) {
                    uint last = full ? rows.y : y, j = 0u;
                    for (; j < ncols; ++j) {
                        uvec2 cols = j == 0u ? cols0 : cols1;
                        uvec2 slots = uvec2(cell_start[layer + y * uint(w) + cols.x],
                                            cell_start[end_layer + last * uint(w) + cols.y + 1u]);
                        best2 = nearest_in_range(s, ws, me, mz, slots, best2, cut);
                    }
                    cut = cut || j < ncols;
                    y = last;
                }
                cut = cut || y <= rows.y;
            }
            cut = cut || q < nrows;
            z = zlast;
        }
        cut = cut || z <= lays.y;
    }
    cut = cut || p < nlays;
    return best2;
}

// What pass 1 writes for the boid in slot s, at (me, mz), its nearest at best2 (+infinity: none).
void write_metrics(uint s, vec4 me, vec2 mz, float best2)
{
    // alone: no neighbour
    float nn = best2 < uintBitsToFloat(0x7f800000u) ? square_root(best2) : 0.0;
#if BOIDS_DIMS == 3
    vec3 v = vec3(me.zw, mz.y);
    float speed = square_root(length2(v));
    metric_slot_z[s] = speed > 0.0 ? quotient(v.z, speed) : 0.0; // the heading's z
#else
    float speed = square_root(length2(me.zw));
#endif
    metric_slot[s] = speed > 0.0 ? vec4(nn, speed, quotient(me.z, speed), quotient(me.w, speed))
                                 : vec4(nn, 0.0, 0.0, 0.0);
    parent[s] = s;
}

void main()
{
    uint s = BOIDS_ITEM_INDEX;
    if (s >= cell_start[graveyard()]) return; // the living come first; the dead are not counted
    vec4 me = pos_vel_in[s];
    vec2 mz = boid_depth_or_none(s); // (z, vz) in a 3D world
    uint base = replica_of(id_in[s]) * frame.cells_per_replica, ucx, ucy;
    block_cell(me.x, me.y, ucx, ucy);
    int w = int(frame.grid_w), h = int(frame.grid_h), cx = int(ucx), cy = int(ucy);
    // (the world's cells: on a folded grid a cube of r around the column holds the cells within r
    // of the boid's own, and the rest is farther, or the cube covers the grid)
    vec3 cell = vec3(frame.world_w / float(frame.fine_w), frame.world_h / float(frame.fine_h), 1.0);
    int d = 1, cz = 0; // a flat world: one layer
#if BOIDS_DIMS == 3
    d = int(frame.grid_d);
    cz = d > 1 ? int(cell_coord(mz.x, frame.inv_cell_d, frame.fine_d, frame.grid_d)) : 0;
    cell.z = frame.world_d / float(frame.fine_d);
#endif
    float best2 = uintBitsToFloat(0x7f800000u); // +infinity
    bool wrap = world_wraps();
    world_sizes ws = world_sizes_now();
    // A driver that caps the loop iterations of an invocation (llvmpipe: its SIMD lanes share
    // one count, so no count kept here can match it) ends loops early without a word; every loop
    // below is therefore checked to have ended on its own condition, and one that did not
    // raises the loop limit: a refused metric, never a wrong one.
    bool cut = false, searched = false;
    for (int r = 1; r < 0x40000000; r *= 2) {
        best2 = nearest_in_cube(s, ws, me, mz.x, base, ivec3(cx, cy, cz), ivec3(w, h, d), r, wrap,
                                best2, cut);
        if (outside_reach(ivec3(cx, cy, cz), r, ivec3(w, h, d), cell, wrap) >= best2) {
            searched = true;
            break;
        }
    }
    if (cut || !searched) raise_status(BOIDS_STATUS_LOOP_LIMIT);
    write_metrics(s, me, mz, best2);
}
