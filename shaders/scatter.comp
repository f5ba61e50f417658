#version 430 core
// Grid pass 3: each boid takes a free slot of its cell (atomic cursor). The order inside a cell
// depends on thread timing here; reorder.comp makes it id order.
#include "common.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_CELL_OF) readonly buffer CellOf { uint cell_of[]; };
layout(std430, binding = BOIDS_BIND_CELL_START) readonly buffer CellStart { uint cell_start[]; };
layout(std430, binding = BOIDS_BIND_CELL_FILL) buffer CellFill { uint cell_fill[]; };
layout(std430, binding = BOIDS_BIND_SLOT_SRC) writeonly buffer SlotSrc { uint slot_src[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= agent_count()) return;
    uint c = cell_of[i];
    slot_src[cell_start[c] + atomicAdd(cell_fill[c], 1u)] = i;
}
