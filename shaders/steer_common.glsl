// What every model's steering pass declares: the sorted boids of step t (read), the buffer of
// step t+1 (written, same slots) and the grid. A rules file defines main().
#include "common.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_BOIDS_IN) readonly buffer BoidsIn { boids_gpu_boid boids_in[]; };
// The same buffer seen as vec4 pairs: boids_pos_vel(k) = (px, py, vx, vy) of slot k in one load,
// which llvmpipe gathers far faster than four scalar members.
layout(std430, binding = BOIDS_BIND_BOIDS_IN) readonly buffer BoidsInRaw { vec4 boids_raw[]; };
vec4 boids_pos_vel(uint k) { return boids_raw[BOIDS_BOID_VEC4S * k]; }
layout(std430, binding = BOIDS_BIND_BOIDS_OUT) writeonly buffer BoidsOut { boids_gpu_boid boids_out[]; };
layout(std430, binding = BOIDS_BIND_CELL_COUNT) readonly buffer CellCount { uint cell_count[]; };
layout(std430, binding = BOIDS_BIND_CELL_START) readonly buffer CellStart { uint cell_start[]; };

// Neighbour candidates. The block of cells around a boid, in the canonical order of
// boids_cpu_grid_block(), is walked row by row; in a row, cells next to each other are next to each
// other in memory, so a row is one slot range, or two where it wraps (the wrapped cell keeps its
// place in the order). No local arrays: llvmpipe spills dynamically indexed ones to memory.
//
//   uint cx, cy; block_cell(x, y, cx, cy);
//   for (uint j = 0u; j < block_rows(cy); ++j) {
//       uint row = block_row(cy, j);
//       uvec2 seg0, seg1; uint nseg = block_segments(cx, seg0, seg1);
//       for (uint g = 0u; g < nseg; ++g) {
//           uvec2 r = segment_slots(row, g == 0u ? seg0 : seg1);
//           for (uint k = r.x; k < r.y; ++k) ...
void block_cell(float x, float y, out uint cx, out uint cy)
{
    cx = cell_coord(x, frame.inv_cell_w, frame.grid_w);
    cy = cell_coord(y, frame.inv_cell_h, frame.grid_h);
}

// Rows of the block: 3 around cy (wrapped on a torus, cut at the edges of a box), or every row
// of a grid less than 3 high; as boids_grid_axis().
uint block_rows(uint cy)
{
    uint h = frame.grid_h;
    if (h < 3u || world_wraps()) return h < 3u ? h : 3u;
    return (cy + 1u < h ? cy + 1u : h - 1u) - (cy > 0u ? cy - 1u : 0u) + 1u;
}

uint block_row(uint cy, uint j)
{
    uint h = frame.grid_h;
    if (h < 3u) return j;
    if (!world_wraps()) return (cy > 0u ? cy - 1u : 0u) + j;
    if (cy + j == 0u) return h - 1u;
    uint y = cy + j - 1u;
    return y >= h ? y - h : y;
}

// Columns [x0, x1] of the row's segments, in canonical order; returns how many (1 or 2).
uint block_segments(uint cx, out uvec2 seg0, out uvec2 seg1)
{
    uint w = frame.grid_w;
    seg1 = uvec2(0u);
    if (w < 3u) {
        seg0 = uvec2(0u, w - 1u);
        return 1u;
    }
    if (!world_wraps()) {
        seg0 = uvec2(cx > 0u ? cx - 1u : 0u, cx + 1u < w ? cx + 1u : w - 1u);
        return 1u;
    }
    if (cx == 0u) {            // w-1 | 0 1
        seg0 = uvec2(w - 1u, w - 1u);
        seg1 = uvec2(0u, 1u);
        return 2u;
    }
    if (cx == w - 1u) {        // w-2 w-1 | 0
        seg0 = uvec2(w - 2u, w - 1u);
        seg1 = uvec2(0u, 0u);
        return 2u;
    }
    seg0 = uvec2(cx - 1u, cx + 1u);
    return 1u;
}

// Slots [x, y) of boids_in holding the boids of columns seg.x..seg.y of a row.
uvec2 segment_slots(uint row, uvec2 seg)
{
    uint first = row * frame.grid_w + seg.x, last = row * frame.grid_w + seg.y;
    return uvec2(cell_start[first], cell_start[last] + cell_count[last]);
}
