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
// boids_cpu_grid_block(), is walked row by row; in a row, cells next to each other are next to
// each other in memory, so a row is one slot range, or two where it wraps (the wrapped cell keeps
// its place in the order). No local arrays: llvmpipe spills dynamically indexed ones to memory.
// Every rules file walks them the same way:
//
//   candidates it = candidates_begin(self.px, self.py);
//   uvec2 r;
//   while (candidates_next(it, r))
//       for (uint k = r.x; k < r.y; ++k) { if (k == s) continue; ... boids_pos_vel(k) ... }
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

struct candidates {
    uint cy, rows, nseg, q, budget;
    uvec2 seg0, seg1;
};

candidates candidates_begin(float x, float y)
{
    candidates it;
    uint cx;
    block_cell(x, y, cx, it.cy);
    it.nseg = block_segments(cx, it.seg0, it.seg1);
    it.rows = block_rows(it.cy);
    it.q = 0u;
    it.budget = frame.loop_limit;
    return it;
}

// The next slot range [r.x, r.y); false when the block is done. A pass that would loop past
// frame.loop_limit candidates stops there and raises BOIDS_STATUS_LOOP_LIMIT (llvmpipe would
// otherwise cut the invocation off silently).
bool candidates_next(inout candidates it, out uvec2 r)
{
    r = uvec2(0u);
    if (it.q >= it.rows * it.nseg) return false;
    r = segment_slots(block_row(it.cy, it.q / it.nseg), it.q % it.nseg == 0u ? it.seg0 : it.seg1);
    it.q++;
    if (r.y - r.x > it.budget) {
        raise_status(BOIDS_STATUS_LOOP_LIMIT);
        r.y = r.x + it.budget;
    }
    it.budget -= r.y - r.x;
    return true;
}
