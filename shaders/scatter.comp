#version 430 core
// Grid pass 3: each boid takes a free slot of its cell (atomic cursor) and leaves its id there.
// The order inside a cell depends on thread timing here; reorder.comp makes it id order.
#include "common.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_CELL_OF) readonly buffer CellOf { uint cell_of[]; };
layout(std430, binding = BOIDS_BIND_CELL_START) readonly buffer CellStart { uint cell_start[]; };
layout(std430, binding = BOIDS_BIND_CELL_FILL) buffer CellFill { uint cell_fill[]; };
layout(std430, binding = BOIDS_BIND_SLOT_SRC) writeonly buffer SlotSrc { uint slot_src[]; };
layout(std430, binding = BOIDS_BIND_ID_IN) readonly buffer IdIn { uint id_in[]; };
layout(std430, binding = BOIDS_BIND_SLOT_ID) writeonly buffer SlotId { uint slot_id[]; };

void main()
{
    uint i = BOIDS_ITEM_INDEX;
    if (i >= agent_count()) return;
    uint c = cell_of[i];
    uint t = cell_start[c] + atomicAdd(cell_fill[c], 1u);
    slot_src[t] = i;
    slot_id[t] = id_in[i]; // for the reorder's counting loop
}
