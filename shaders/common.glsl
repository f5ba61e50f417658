// Declarations every compute pass shares: the per-step constants and the helpers whose results
// must equal the CPU reference's bit for bit (src/core/world.h, src/cpu/grid.h). They use plain
// scalar arithmetic, never length/normalize/dot, whose evaluation order a driver may change.
#include "boids_shared.h"

layout(std140, binding = BOIDS_BIND_FRAME) uniform Frame { boids_gpu_frame frame; };
layout(std430, binding = BOIDS_BIND_STATUS) buffer Status { uint status_flags; };

// Raises a status flag for the host to find when it next reads the state.
void raise_status(uint flag) { atomicOr(status_flags, flag); }

// Cell coordinate of x (multiply by the inverse, clamp the last cell); as boids_cell_coord().
uint cell_coord(float x, float inv_cell, uint cells)
{
    float c = x * inv_cell;
    if (!(c >= 0.0)) return 0u;
    uint i = uint(c);
    return i < cells ? i : cells - 1u;
}

uint cell_of_position(float x, float y)
{
    return cell_coord(y, frame.inv_cell_h, frame.grid_h) * frame.grid_w +
           cell_coord(x, frame.inv_cell_w, frame.grid_w);
}

// Minimum-image offset from a to b along a wrapped axis; as boids_min_image().
float min_image(float a, float b, float size, float half_size)
{
    float d = b - a;
    if (d > half_size) d -= size;
    else if (d < -half_size) d += size;
    return d;
}

uint world_edges() { return uint(frame.params.edges); }
bool world_wraps() { return world_edges() == BOIDS_EDGES_WRAP; }

// Offset from a to b: minimum-image on a torus, plain otherwise (the host sets half_w/half_h to
// +infinity where the world does not wrap); as boids_offset().
float offset_of(float a, float b, float size, float half_size)
{
    return min_image(a, b, size, half_size);
}

// Offset from a to b in both axes; as boids_cand_offset().
vec2 offset_to(float ax, float ay, vec2 b)
{
    return vec2(offset_of(ax, b.x, frame.world_w, frame.half_w), offset_of(ay, b.y, frame.world_h, frame.half_h));
}

// Where a boid that moved to p ends up by the world's edges; as boids_apply_edges().
float wrap_coord(float x, float size);
vec2 apply_edges(vec2 p)
{
    uint e = world_edges();
    if (e == BOIDS_EDGES_WRAP) {
        p.x = wrap_coord(p.x, frame.world_w);
        p.y = wrap_coord(p.y, frame.world_h);
    } else if (e == BOIDS_EDGES_PROCESSING) {
        float r = frame.params.border_r;
        if (p.x < -r) p.x = frame.world_w + r;
        if (p.y < -r) p.y = frame.world_h + r;
        if (p.x > frame.world_w + r) p.x = -r;
        if (p.y > frame.world_h + r) p.y = -r;
    }
    return p;
}

// Keeps x inside [0, size); as boids_wrap().
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

// The mouse tool's force on a boid at (x, y); as boids_tool_force().
vec2 tool_force(float x, float y)
{
    if (frame.tool.kind == BOIDS_TOOL_NONE) return vec2(0.0);
    float dx = offset_of(x, frame.tool.x, frame.world_w, frame.half_w);
    float dy = offset_of(y, frame.tool.y, frame.world_h, frame.half_h);
    float d2 = dx * dx + dy * dy;
    if (!(d2 > 0.0 && d2 < frame.tool.radius * frame.tool.radius)) return vec2(0.0);
    vec2 f = set_length(vec2(dx, dy), frame.tool.strength);
    return frame.tool.kind == BOIDS_TOOL_REPEL ? vec2(-f.x, -f.y) : f;
}
