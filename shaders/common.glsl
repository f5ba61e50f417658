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
    float dx = min_image(x, frame.tool.x, frame.world_w, frame.half_w);
    float dy = min_image(y, frame.tool.y, frame.world_h, frame.half_h);
    float d2 = dx * dx + dy * dy;
    if (!(d2 > 0.0 && d2 < frame.tool.radius * frame.tool.radius)) return vec2(0.0);
    vec2 f = set_length(vec2(dx, dy), frame.tool.strength);
    return frame.tool.kind == BOIDS_TOOL_REPEL ? vec2(-f.x, -f.y) : f;
}

// The distinct cells around cell (cx, cy) in canonical order; as boids_cpu_grid_block().
uint neighbor_block(uint cx, uint cy, out uint cells[9])
{
    uint xs[3], ys[3], nx, ny;
    if (frame.grid_w >= 3u) {
        xs[0] = cx == 0u ? frame.grid_w - 1u : cx - 1u;
        xs[1] = cx;
        xs[2] = cx + 1u == frame.grid_w ? 0u : cx + 1u;
        nx = 3u;
    } else {
        for (nx = 0u; nx < frame.grid_w; ++nx) xs[nx] = nx;
    }
    if (frame.grid_h >= 3u) {
        ys[0] = cy == 0u ? frame.grid_h - 1u : cy - 1u;
        ys[1] = cy;
        ys[2] = cy + 1u == frame.grid_h ? 0u : cy + 1u;
        ny = 3u;
    } else {
        for (ny = 0u; ny < frame.grid_h; ++ny) ys[ny] = ny;
    }
    uint n = 0u;
    for (uint j = 0u; j < ny; ++j)
        for (uint i = 0u; i < nx; ++i) cells[n++] = ys[j] * frame.grid_w + xs[i];
    return n;
}
