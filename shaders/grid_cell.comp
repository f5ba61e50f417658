#version 430 core
// Grid pass 1: the cell of every boid and the atomic histogram of boids per cell.
#include "common.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_POS_VEL_IN) readonly buffer PosVelIn { vec4 pos_vel_in[]; };
layout(std430, binding = BOIDS_BIND_CELL_OF) writeonly buffer CellOf { uint cell_of[]; };
layout(std430, binding = BOIDS_BIND_CELL_COUNT) buffer CellCount { uint cell_count[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= frame.count) return;
    vec4 p = pos_vel_in[i];
    uint c = cell_of_position(p.x, p.y);
    cell_of[i] = c;
    atomicAdd(cell_count[c], 1u);
}
