// What every model's steering pass declares: the sorted boids of step t (read), the buffer of
// step t+1 (written, same slots) and the grid. A rules file defines main().
#include "common.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_BOIDS_IN) readonly buffer BoidsIn { boids_gpu_boid boids_in[]; };
layout(std430, binding = BOIDS_BIND_BOIDS_OUT) writeonly buffer BoidsOut { boids_gpu_boid boids_out[]; };
layout(std430, binding = BOIDS_BIND_CELL_COUNT) readonly buffer CellCount { uint cell_count[]; };
layout(std430, binding = BOIDS_BIND_CELL_START) readonly buffer CellStart { uint cell_start[]; };

// Neighbour candidates of the boid at (x, y): up to 9 slot ranges [begin, end) of boids_in, in the
// canonical cell order the CPU reference also uses.
uint candidate_ranges(float x, float y, out uint begin[9], out uint end[9])
{
    uint cx = cell_coord(x, frame.inv_cell_w, frame.grid_w);
    uint cy = cell_coord(y, frame.inv_cell_h, frame.grid_h);
    uint cells[9];
    uint n = neighbor_block(cx, cy, cells);
    for (uint k = 0u; k < n; ++k) {
        begin[k] = cell_start[cells[k]];
        end[k] = begin[k] + cell_count[cells[k]];
    }
    return n;
}
