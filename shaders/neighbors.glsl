// The neighbour candidates: the grids a pass walks and the walk over the block of cells around a
// position, as src/cpu/neighbors.c. Every pass that looks at its neighbours includes this file:
// the steering (steer_common.glsl), the predators' (hunt.comp), the catches and the metrics.
//
// The block of cells is walked row by row on one of three grids of the same cells: the boids',
// the predators' or the obstacles'. In a row, cells next to each other are next to each other in
// memory, so a row is one slot range, or two where it wraps (the wrapped cell keeps its place in
// the canonical order of boids_grid_block()). No local arrays: llvmpipe spills dynamically
// indexed ones to memory. A pass walks them so:
//
//   candidates it = candidates_begin(GRID_BOIDS, replica_of(id), me.x, me.y);
//   uvec2 r;
//   while (candidates_next(it, r))
//       for (uint k = r.x; k < r.y; ++k) { ... pos_vel_in[k] ... }
//   candidates_end(it);
#include "common.glsl"

// The boids of step t, sorted by cell, and their grid (a 3D world's (z, vz) in a block of their
// own, boids_shared.h).
layout(std430, binding = BOIDS_BIND_POS_VEL_IN) readonly buffer PosVelIn { vec4 pos_vel_in[]; };
#if BOIDS_DIMS == 3
layout(std430, binding = BOIDS_BIND_POS_VEL_Z_IN) readonly buffer PosVelZIn
{
    vec2 pos_vel_z_in[];
};
#endif
layout(std430, binding = BOIDS_BIND_SWARM_IN) readonly buffer SwarmIn { uint swarm_in[]; };
// The same three read as buffer textures, for the walks' fetches at other invocations' slots
// (boids_shared.h's BOIDS_TEX_* say why); the blocks serve the boid's own slot.
layout(binding = BOIDS_TEX_POS_VEL_IN) uniform samplerBuffer pos_vel_texels;
#if BOIDS_DIMS == 3
layout(binding = BOIDS_TEX_POS_VEL_Z_IN) uniform samplerBuffer pos_vel_z_texels;
#endif
layout(binding = BOIDS_TEX_SWARM_IN) uniform usamplerBuffer swarm_texels;
layout(std430, binding = BOIDS_BIND_ID_IN) readonly buffer IdIn { uint id_in[]; };
layout(std430, binding = BOIDS_BIND_CELL_START) readonly buffer CellStart { uint cell_start[]; };
// The predators of step t, sorted by their grid's cells, and that grid: declared where a program
// may meet predators (not the steering of a model without them, cmake/glsl_gen.c's
// BOIDS_WITHOUT_PREDATORS, which so stays within 16 storage blocks, a common limit).
#ifndef BOIDS_WITHOUT_PREDATORS
layout(std430, binding = BOIDS_BIND_PRED_POS_VEL_IN) readonly buffer PredPosVelIn
{
    vec4 pred_pos_vel_in[];
};
#if BOIDS_DIMS == 3
layout(std430, binding = BOIDS_BIND_PRED_POS_VEL_Z_IN) readonly buffer PredPosVelZIn
{
    vec2 pred_pos_vel_z_in[];
};
#endif
layout(std430, binding = BOIDS_BIND_PRED_ID_IN) readonly buffer PredIdIn { uint pred_id_in[]; };
layout(std430, binding = BOIDS_BIND_PRED_CELL_START) readonly buffer PredCellStart
{
    uint pred_cell_start[];
};
#endif
// The obstacles, (x, y, radius, z) sorted by cell (z: 0 in a flat world), and their grid (built
// on the host).
layout(std430, binding = BOIDS_BIND_OBSTACLES) readonly buffer Obstacles { vec4 obstacles[]; };
layout(std430, binding = BOIDS_BIND_OBS_CELL_START) readonly buffer ObsCellStart
{
    uint obs_cell_start[];
};

// The swarm of slot k of the boids' grid.
uint swarm_at(uint k) { return texelFetch(swarm_texels, int(k)).x; }

#define GRID_BOIDS 0u
#define GRID_PREDATORS 1u
#define GRID_OBSTACLES 2u

// The position of slot k of a grid.
vec2 grid_position(uint grid, uint k)
{
#ifndef BOIDS_WITHOUT_PREDATORS
    if (grid == GRID_PREDATORS) return pred_pos_vel_in[k].xy;
#endif
    if (grid == GRID_OBSTACLES) return obstacles[k].xy;
    return texelFetch(pos_vel_texels, int(k)).xy;
}

#if BOIDS_DIMS == 3
// (z, vz) of slot k of the boids' grid in a 3D world.
vec2 boid_depth(uint k) { return texelFetch(pos_vel_z_texels, int(k)).xy; }
#ifndef BOIDS_WITHOUT_PREDATORS
// ... and of the predators' grid.
vec2 predator_depth(uint k) { return pred_pos_vel_z_in[k]; }
#endif
#endif

// The (z, vz) of slot k of the boids' grid in a 3D world; (0, 0) in a flat one, whose programs
// never use them.
vec2 boid_depth_or_none(uint k)
{
#if BOIDS_DIMS == 3
    return boid_depth(k);
#else
    return vec2(0.0);
#endif
}

// The depth of slot k of a grid in a 3D world: a boid's z, a predator's, an obstacle's (its .w).
float grid_depth(uint grid, uint k)
{
#if BOIDS_DIMS == 3
    if (grid == GRID_OBSTACLES) return obstacles[k].w;
#ifndef BOIDS_WITHOUT_PREDATORS
    if (grid == GRID_PREDATORS) return predator_depth(k).x;
#endif
    return boid_depth(k).x;
#else
    return 0.0;
#endif
}

void block_cell(float x, float y, out uint cx, out uint cy)
{
    cx = cell_coord(x, frame.inv_cell_w, frame.fine_w, frame.grid_w);
    cy = cell_coord(y, frame.inv_cell_h, frame.fine_h, frame.grid_h);
}

// The cells of the block along an axis of h cells: 2 span + 1 around cy (wrapped on a torus, cut
// at the edges of a box), or every one of an axis shorter than that; as boids_grid_axis(). The
// rows of a block, and in a 3D world its layers.
uint block_span(uint cy, uint h)
{
    uint s = frame.grid_span;
    if (h < 2u * s + 1u) return h;
    if (world_wraps()) return 2u * s + 1u;
    return (cy + s < h ? cy + s : h - 1u) - (cy >= s ? cy - s : 0u) + 1u;
}

uint block_at(uint cy, uint h, uint j)
{
    uint s = frame.grid_span;
    if (h < 2u * s + 1u) return j;
    if (!world_wraps()) return (cy >= s ? cy - s : 0u) + j;
    uint y = cy + j; // cy - s + j, wrapped without a division
    return y < s ? y + h - s : (y - s >= h ? y - s - h : y - s);
}

uint block_rows(uint cy) { return block_span(cy, frame.grid_h); }
uint block_row(uint cy, uint j) { return block_at(cy, frame.grid_h, j); }

// Columns [x0, x1] of the row's segments, in canonical order; returns how many (1 or 2).
uint block_segments(uint cx, out uvec2 seg0, out uvec2 seg1)
{
    uint w = frame.grid_w, s = frame.grid_span;
    seg1 = uvec2(0u);
    if (w < 2u * s + 1u) {
        seg0 = uvec2(0u, w - 1u);
        return 1u;
    }
    if (!world_wraps()) {
        seg0 = uvec2(cx >= s ? cx - s : 0u, cx + s < w ? cx + s : w - 1u);
        return 1u;
    }
    if (cx < s) { // w-(s-cx) .. w-1 | 0 .. cx+s
        seg0 = uvec2(w + cx - s, w - 1u);
        seg1 = uvec2(0u, cx + s);
        return 2u;
    }
    if (cx + s >= w) { // cx-s .. w-1 | 0 .. cx+s-w
        seg0 = uvec2(cx - s, w - 1u);
        seg1 = uvec2(0u, cx + s - w);
        return 2u;
    }
    seg0 = uvec2(cx - s, cx + s);
    return 1u;
}

// Whether the minimum image leaves every offset from (cx, cy)'s block unchanged: the world does
// not wrap, or the block does not cross its seam and spans (a cell of margin added for
// positions on a cell's edge) at most half the world on each axis; as boids_cpu_group's
// `unwrapped`. Such a block's offsets are the plain differences, the same bits.
bool block_unwrapped(uint cx, uint cy)
{
    if (!world_wraps()) return true;
    uint w = frame.grid_w, h = frame.grid_h, s = frame.grid_span;
    float cells = float(2u * s + 2u);
    return cx >= s && cx + s < w && cy >= s && cy + s < h &&
           cells * (frame.world_w / float(frame.fine_w)) <= frame.half_w &&
           cells * (frame.world_h / float(frame.fine_h)) <= frame.half_h;
}

// Slots [x, y) holding what the grid has in columns seg.x..seg.y of a row (base: the replica's
// first cell).
uvec2 segment_slots(uint grid, uint base, uint row, uvec2 seg)
{
    uint first = base + row * frame.grid_w + seg.x, last = base + row * frame.grid_w + seg.y + 1u;
#ifndef BOIDS_WITHOUT_PREDATORS
    if (grid == GRID_PREDATORS) return uvec2(pred_cell_start[first], pred_cell_start[last]);
#endif
    if (grid == GRID_OBSTACLES) return uvec2(obs_cell_start[first], obs_cell_start[last]);
    return uvec2(cell_start[first], cell_start[last]);
}

struct candidates {
    uint grid, base, cy, rows, nseg, q, budget;
    bool done; // candidates_next said the block is done: the walk ended on its own condition
    uvec2 seg0, seg1;
    bool unwrapped; // block_unwrapped(): offsets need no minimum image
#if BOIDS_DIMS == 3
    uint cz, layers; // the block's layer and how many layers it spans (1 where it starts flat)
#endif
};

candidates candidates_begin(uint grid, uint replica, float x, float y)
{
    candidates it;
    uint cx;
    it.grid = grid;
    it.base = replica * frame.cells_per_replica;
    block_cell(x, y, cx, it.cy);
    it.nseg = block_segments(cx, it.seg0, it.seg1);
    it.rows = block_rows(it.cy);
    it.q = 0u;
    it.budget = frame.loop_limit;
    it.done = false;
    it.unwrapped = block_unwrapped(cx, it.cy);
#if BOIDS_DIMS == 3
    it.cz = 0u;
    it.layers = 1u;
#endif
    return it;
}

#if BOIDS_DIMS == 3
// The candidates around (x, y, z) in a 3D world: the block's layers front to back, each as a
// flat block's rows (boids_grid_block_rows()).
candidates candidates_begin_3d(uint grid, uint replica, float x, float y, float z)
{
    candidates it = candidates_begin(grid, replica, x, y);
    uint d = frame.grid_d;
    it.cz = d > 1u ? cell_coord(z, frame.inv_cell_d, frame.fine_d, d) : 0u;
    it.layers = block_span(it.cz, d);
    uint s = frame.grid_span;
    // (a grid of one layer too: a 3D world's z wraps within it)
    it.unwrapped = it.unwrapped && (!world_wraps() ||
                                    (it.cz >= s && it.cz + s < d &&
                                     float(2u * s + 2u) * (frame.world_d / float(frame.fine_d)) <=
                                         frame.half_d));
    return it;
}
#endif

// The candidates around (x, y), and z in a 3D world (a flat world's programs ignore z).
candidates candidates_around(uint grid, uint replica, float x, float y, float z)
{
#if BOIDS_DIMS == 3
    return candidates_begin_3d(grid, replica, x, y, z);
#else
    return candidates_begin(grid, replica, x, y);
#endif
}

// The offset from (x, y), at depth z in a 3D world, to slot k of a grid: minimum image where the
// world wraps; a vector of the world's dimension.
lane_vec offset_to_slot(world_sizes ws, uint grid, float x, float y, float z, uint k)
{
    vec2 d = offset_to(ws, x, y, grid_position(grid, k));
#if BOIDS_DIMS == 3
    return vec3(d, offset_of(z, grid_depth(grid, k), ws.d, ws.half_d));
#else
    return d;
#endif
}
lane_vec offset_to_boid(world_sizes ws, float x, float y, float z, uint k)
{
    return offset_to_slot(ws, GRID_BOIDS, x, y, z, k);
}

// Slot k of the boids' grid as the steering walks from the boid at me see it (mz: that boid's
// (z, vz) in a 3D world): the offset to it, returned (the plain difference where the block is
// unwrapped, block_unwrapped(), else the minimum image), and its velocity, in vo; vectors of the
// world's dimension.
lane_vec neighbour_at(world_sizes ws, vec4 me, vec2 mz, uint k, bool unwrapped, out lane_vec vo)
{
    vec4 o = texelFetch(pos_vel_texels, int(k));
#if BOIDS_DIMS == 3
    vec2 oz = boid_depth(k);
    vo = vec3(o.zw, oz.y);
    if (unwrapped) return vec3(o.xy - me.xy, oz.x - mz.x);
    return vec3(offset_to(ws, me.x, me.y, o.xy), offset_of(mz.x, oz.x, ws.d, ws.half_d));
#else
    vo = o.zw;
    return unwrapped ? o.xy - me.xy : offset_to(ws, me.x, me.y, o.xy);
#endif
}

// The next slot range [r.x, r.y); false when the block is done. A pass that would loop past
// frame.loop_limit candidates stops there and raises BOIDS_STATUS_LOOP_LIMIT (llvmpipe would
// otherwise cut the invocation off silently).
bool candidates_next(inout candidates it, out uvec2 r)
{
    r = uvec2(0u);
#if BOIDS_DIMS == 3
    uint per_layer = it.rows * it.nseg;
    if (it.q >= it.layers * per_layer) {
        it.done = true;
        return false;
    }
    uint in_layer = it.q % per_layer;
    uvec2 seg = in_layer % it.nseg == 0u ? it.seg0 : it.seg1;
    uint layer = block_at(it.cz, frame.grid_d, it.q / per_layer);
    r = segment_slots(it.grid, it.base + layer * frame.grid_h * frame.grid_w,
                      block_row(it.cy, in_layer / it.nseg), seg);
#else
    if (it.q >= it.rows * it.nseg) {
        it.done = true;
        return false;
    }
    uvec2 seg = it.q % it.nseg == 0u ? it.seg0 : it.seg1;
    r = segment_slots(it.grid, it.base, block_row(it.cy, it.q / it.nseg), seg);
#endif
    it.q++;
    if (r.y - r.x > it.budget) {
        raise_status(BOIDS_STATUS_LOOP_LIMIT);
        r.y = r.x + it.budget;
    }
    it.budget -= r.y - r.x;
    return true;
}

// After a walk: one that a driver ended early raises the loop limit. llvmpipe caps the loop
// iterations of an invocation, counted for its SIMD lanes together (a count the budget above,
// kept per invocation, cannot match), and past it ends every loop without a word; the walk's
// while loop then never saw candidates_next say the block was done.
void candidates_end(candidates it)
{
    if (!it.done) raise_status(BOIDS_STATUS_LOOP_LIMIT);
}

// The sum of the unit vectors away from the agents of a grid (the predators or the obstacles)
// within reach of (x, y) in replica r (x, y, z in a 3D world: the obstacles are spheres), (x, y)
// itself left out; as boids_cpu_obstacle_push() and the predators' separation in
// boids_cpu_hunt(). over_d2: of those vectors over the distance, -d / d^2, as the allocation
// models' obstacles (models/allocation/rules.h).
lane_vec push_from(uint grid, uint r, float x, float y, float z, float reach, bool over_d2)
{
    float r2 = reach * reach;
    precise float sx = 0.0, sy = 0.0, sz = 0.0; // no fused operations, as the CPU
    world_sizes ws = world_sizes_now();
    candidates it = candidates_around(grid, r, x, y, z);
    uvec2 rg;
    while (candidates_next(it, rg))
        for (uint k = rg.x; k < rg.y; ++k) {
            vec2 d = offset_to(ws, x, y, grid_position(grid, k));
#if BOIDS_DIMS == 3
            float dz = offset_of(z, grid_depth(grid, k), ws.d, ws.half_d);
            float d2 = length2(vec3(d, dz)); // z's square added to y's first
#else
            float dz = 0.0, d2 = length2(d);
#endif
            if (!(d2 > 0.0 && d2 <= r2)) continue;
            float w = over_d2 ? d2 : square_root(d2);
            sx -= quotient(d.x, w);
            sy -= quotient(d.y, w);
            sz -= quotient(dz, w);
        }
    candidates_end(it);
    return VEC(sx, sy, sz);
}
