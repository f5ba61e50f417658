// What every model's steering pass has: the sorted boids of step t (read), the positions and
// velocities of step t+1 (written, same slots), the grid, the attributes, and the helpers the
// models share: the candidate walk, the external-force hook and the integration. A generated
// gen/steer_<model>.comp includes this file and then the model's rules_<rules>.glsl, which
// defines main(). Each helper mirrors a function of src/cpu/steer.h operation for operation.
#include "common.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_POS_VEL_IN) readonly buffer PosVelIn { vec4 pos_vel_in[]; };
layout(std430, binding = BOIDS_BIND_POS_VEL_OUT) writeonly buffer PosVelOut { vec4 pos_vel_out[]; };
layout(std430, binding = BOIDS_BIND_SWARM_IN) readonly buffer SwarmIn { uint swarm_in[]; };
layout(std430, binding = BOIDS_BIND_ID_IN) readonly buffer IdIn { uint id_in[]; };
layout(std430, binding = BOIDS_BIND_CELL_START) readonly buffer CellStart { uint cell_start[]; };
// Predators (models with predators): step t sorted by their grid's cells, and that grid.
layout(std430, binding = BOIDS_BIND_PRED_POS_VEL_IN) readonly buffer PredPosVelIn { vec4 pred_pos_vel_in[]; };
layout(std430, binding = BOIDS_BIND_PRED_ID_IN) readonly buffer PredIdIn { uint pred_id_in[]; };
layout(std430, binding = BOIDS_BIND_PRED_CELL_START) readonly buffer PredCellStart { uint pred_cell_start[]; };
// Obstacles, (x, y, radius, 0) sorted by cell, and their grid (built on the host).
layout(std430, binding = BOIDS_BIND_OBSTACLES) readonly buffer Obstacles { vec4 obstacles[]; };
layout(std430, binding = BOIDS_BIND_OBS_CELL_START) readonly buffer ObsCellStart { uint obs_cell_start[]; };

// ---- neighbour candidates ----------------------------------------------------------------------
// The block of cells around a position, in the canonical order of boids_grid_block(), is walked
// row by row on one of three grids of the same cells: the boids', the predators' or the
// obstacles'. In a row, cells next to each other are next to each other in memory, so a row is
// one slot range, or two where it wraps (the wrapped cell keeps its place in the order). No local
// arrays: llvmpipe spills dynamically indexed ones to memory. Every rules file walks them so:
//
//   candidates it = candidates_begin(GRID_BOIDS, replica_of(id), me.x, me.y);
//   uvec2 r;
//   while (candidates_next(it, r))
//       for (uint k = r.x; k < r.y; ++k) { if (k == s) continue; ... pos_vel_in[k] ... }
#define GRID_BOIDS 0u
#define GRID_PREDATORS 1u
#define GRID_OBSTACLES 2u
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

// Slots [x, y) holding what the grid has in columns seg.x..seg.y of a row (base: the replica's
// first cell).
uvec2 segment_slots(uint grid, uint base, uint row, uvec2 seg)
{
    uint first = base + row * frame.grid_w + seg.x, last = base + row * frame.grid_w + seg.y + 1u;
    if (grid == GRID_PREDATORS) return uvec2(pred_cell_start[first], pred_cell_start[last]);
    if (grid == GRID_OBSTACLES) return uvec2(obs_cell_start[first], obs_cell_start[last]);
    return uvec2(cell_start[first], cell_start[last]);
}

struct candidates {
    uint grid, base, cy, rows, nseg, q, budget;
    uvec2 seg0, seg1;
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
    return it;
}

// The next slot range [r.x, r.y); false when the block is done. A pass that would loop past
// frame.loop_limit candidates stops there and raises BOIDS_STATUS_LOOP_LIMIT (llvmpipe would
// otherwise cut the invocation off silently).
bool candidates_next(inout candidates it, out uvec2 r)
{
    r = uvec2(0u);
    if (it.q >= it.rows * it.nseg) return false;
    r = segment_slots(it.grid, it.base, block_row(it.cy, it.q / it.nseg), it.q % it.nseg == 0u ? it.seg0 : it.seg1);
    it.q++;
    if (r.y - r.x > it.budget) {
        raise_status(BOIDS_STATUS_LOOP_LIMIT);
        r.y = r.x + it.budget;
    }
    it.budget -= r.y - r.x;
    return true;
}

// ---- vector helpers ----------------------------------------------------------------------------

// v scaled to length len (divide by the length, then multiply); zero stays zero; squares that
// overflow or underflow are avoided by dividing by the largest component first. As
// boids_set_length().
vec2 set_length(vec2 v, float len)
{
    float m2 = v.x * v.x + v.y * v.y;
    if (m2 > 0.0 && !isinf(m2)) {
        float m = sqrt(m2);
        v.x = v.x / m * len;
        v.y = v.y / m * len;
    } else if (v.x != 0.0 || v.y != 0.0) {
        float s = max(abs(v.x), abs(v.y));
        float ux = v.x / s, uy = v.y / s;
        float m = sqrt(ux * ux + uy * uy);
        v.x = ux / m * len;
        v.y = uy / m * len;
    }
    return v;
}

// Truncates v to length m; as boids_limit().
vec2 limit_length(vec2 v, float m)
{
    float m2 = v.x * v.x + v.y * v.y;
    return m2 > m * m ? set_length(v, m) : v;
}

// cos of an angle in degrees in [0, 180]: a fixed polynomial, the same bits as boids_cos_deg().
float cos_deg(float deg)
{
    float sign = 1.0;
    if (deg > 90.0) {
        deg = 180.0 - deg;
        sign = -1.0;
    }
    float x = deg * 0.0174532925199432958, t = x * x;
    float c = 1.0 + t * (-0.5 + t * (0.0416666667 + t * (-0.00138888889 + t * (0.0000248015873 +
              t * (-0.000000275573192 + t * 0.00000000208767570)))));
    return sign * c;
}

// Whether offset d (d2 its squared length, > 0) is within the half-angle whose cosine is c of
// heading v; a boid at rest sees all around. As boids_in_view().
bool in_view(vec2 v, vec2 d, float d2, float c)
{
    float v2 = v.x * v.x + v.y * v.y;
    if (!(v2 > 0.0)) return true;
    float dt = v.x * d.x + v.y * d.y, lhs = dt * dt, rhs = c * c * v2 * d2;
    return c >= 0.0 ? dt >= 0.0 && lhs >= rhs : dt >= 0.0 || lhs <= rhs;
}

// The sum of the unit vectors from the centres of the obstacles within reach of (x, y) in
// replica r; as boids_cpu_obstacle_push().
vec2 obstacle_push(uint r, float x, float y, float reach)
{
    float r2 = reach * reach, sx = 0.0, sy = 0.0;
    world_sizes ws = world_sizes_now();
    candidates it = candidates_begin(GRID_OBSTACLES, r, x, y);
    uvec2 rg;
    while (candidates_next(it, rg))
        for (uint k = rg.x; k < rg.y; ++k) {
            vec2 d = offset_to(ws, x, y, obstacles[k].xy);
            float d2 = d.x * d.x + d.y * d.y;
            if (!(d2 > 0.0 && d2 <= r2)) continue;
            float dl = sqrt(d2);
            sx -= d.x / dl;
            sy -= d.y / dl;
        }
    return vec2(sx, sy);
}

// ---- what every model shares -------------------------------------------------------------------

// The external-force hook: the forces from outside the flock on the boid `id` at (x, y), which
// every model adds to its own steering where its update takes a force; as
// boids_cpu_external_force(): the obstacles' push (obstacle_factor times obstacle_push() within
// obstacle_radius) unless the model treats obstacles itself, and the mouse tool: within its
// radius (minimum image) a constant pull or push of frame.tool.strength; such a boid also reports
// a BOIDS_EVENT_TOOL event.
vec2 external_force(uint id, float x, float y)
{
    vec2 f = vec2(0.0);
    if ((frame.flags & BOIDS_FRAME_OBSTACLE_PUSH) != 0u) {
        vec2 o = obstacle_push(replica_of(id), x, y, frame.params.obstacles.obstacle_radius);
        f = vec2(o.x * frame.params.obstacles.obstacle_factor, o.y * frame.params.obstacles.obstacle_factor);
    }
    if (frame.tool.kind == BOIDS_TOOL_NONE) return f;
    float dx = offset_of(x, frame.tool.x, frame.world_w, frame.half_w);
    float dy = offset_of(y, frame.tool.y, frame.world_h, frame.half_h);
    float d2 = dx * dx + dy * dy;
    if (!(d2 > 0.0 && d2 < frame.tool.radius * frame.tool.radius)) return f;
    emit_event(BOIDS_EVENT_TOOL, id, 0u, vec4(sqrt(d2), 0.0, 0.0, 0.0));
    vec2 t = set_length(vec2(dx, dy), frame.tool.strength);
    return frame.tool.kind == BOIDS_TOOL_REPEL ? vec2(f.x - t.x, f.y - t.y) : vec2(f.x + t.x, f.y + t.y);
}

// Reynolds' speed limits: v truncated to vmax, or, slower than vmin (and not at rest), raised to
// vmin along its heading; as boids_cpu_speed_limits().
vec2 speed_limits(vec2 v, float vmin, float vmax)
{
    float v2 = v.x * v.x + v.y * v.y;
    if (v2 > vmax * vmax) return set_length(v, vmax);
    if (v2 < vmin * vmin && (v.x != 0.0 || v.y != 0.0)) return set_length(v, vmin);
    return v;
}

// Where a boid that moved to p ends up by the world's edges; as boids_apply_edges().
float wrap_coord(float x, float size)
{
    if (x < 0.0) x += size;
    else if (x >= size) x -= size;
    if (x < 0.0 || x >= size) {
        x = x - size * floor(x / size);
        if (!(x < size) || x < 0.0) x = 0.0;
    }
    return x;
}

vec2 apply_edges(vec2 p)
{
    uint e = world_edges();
    if (e == BOIDS_EDGES_WRAP) {
        p.x = wrap_coord(p.x, frame.world_w);
        p.y = wrap_coord(p.y, frame.world_h);
    } else if (e == BOIDS_EDGES_PROCESSING) {
        float r = frame.params.base.border_r;
        if (p.x < -r) p.x = frame.world_w + r;
        if (p.y < -r) p.y = frame.world_h + r;
        if (p.x > frame.world_w + r) p.x = -r;
        if (p.y > frame.world_h + r) p.y = -r;
    } else { // bounded: held within the positions a state may hold
        p = clamp(p, vec2(-BOIDS_MAX_POSITION), vec2(BOIDS_MAX_POSITION));
    }
    return p;
}

// Step t+1 of slot s: p + v dt through the edges, with the new velocity v; as boids_cpu_move().
void move_boid(uint s, vec2 p, vec2 v)
{
    vec2 q = apply_edges(vec2(p.x + v.x * frame.dt, p.y + v.y * frame.dt));
    pos_vel_out[s] = vec4(q, v);
}

// The end of a step for every model whose update takes a force (all but Adams): the external
// forces added to the model's own f, v' = v + f dt within the speed limits, then move_boid();
// as boids_cpu_apply_force().
void apply_force(uint s, uint id, vec4 me, vec2 f)
{
    vec2 fe = external_force(id, me.x, me.y);
    float fx = f.x + fe.x, fy = f.y + fe.y;
    vec2 v = speed_limits(vec2(me.z + fx * frame.dt, me.w + fy * frame.dt), frame.params.base.min_speed,
                          frame.params.base.max_speed);
    move_boid(s, me.xy, v);
}
