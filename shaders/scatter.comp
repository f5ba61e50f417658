#version 430 core
// Grid pass 3: each agent leaves its id in its cell's slots, at the cell's start plus the rank the
// histogram's atomic gave it (grid_cell.comp). The order inside a cell depends on thread timing
// there; reorder.comp counts these ids to put the cell in id order.
#include "common.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_CELL_OF) readonly buffer CellOf { uint cell_of[]; };
layout(std430, binding = BOIDS_BIND_CELL_START) readonly buffer CellStart { uint cell_start[]; };
layout(std430, binding = BOIDS_BIND_CELL_RANK) readonly buffer CellRank { uint cell_rank[]; };
layout(std430, binding = BOIDS_BIND_ID_IN) readonly buffer IdIn { uint id_in[]; };
layout(std430, binding = BOIDS_BIND_SLOT_ID) writeonly buffer SlotId { uint slot_id[]; };

void main()
{
    uint i = BOIDS_ITEM_INDEX;
    if (i >= agent_count()) return;
    slot_id[cell_start[cell_of[i]] + cell_rank[i]] = id_in[i];
}
