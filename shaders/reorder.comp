#version 430 core
// Grid pass 4: coherent reorder. Every agent counts the agents of its cell with a smaller id
// (the ids the scatter left in the cell's slots), which gives its final slot, and moves its hot
// data there: position and velocity, swarm, id (attributes stay in id order). The predators'
// grid (u_agents = 1) uses it too. Cells then list agents in increasing id whatever the atomics'
// timing was, so a step is deterministic and adds neighbours up in the CPU reference's order.
#include "common.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_POS_VEL_IN) readonly buffer PosVelIn { vec4 pos_vel_in[]; };
layout(std430, binding = BOIDS_BIND_POS_VEL_OUT) writeonly buffer PosVelOut { vec4 pos_vel_out[]; };
#if BOIDS_DIMS == 3
layout(std430, binding = BOIDS_BIND_POS_VEL_Z_IN) readonly buffer PosVelZIn
{
    vec2 pos_vel_z_in[];
};
layout(std430, binding = BOIDS_BIND_POS_VEL_Z_OUT) writeonly buffer PosVelZOut
{
    vec2 pos_vel_z_out[];
};
#endif
layout(std430, binding = BOIDS_BIND_SWARM_IN) readonly buffer SwarmIn { uint swarm_in[]; };
layout(std430, binding = BOIDS_BIND_SWARM_OUT) writeonly buffer SwarmOut { uint swarm_out[]; };
layout(std430, binding = BOIDS_BIND_ID_IN) readonly buffer IdIn { uint id_in[]; };
layout(std430, binding = BOIDS_BIND_ID_OUT) writeonly buffer IdOut { uint id_out[]; };
layout(std430, binding = BOIDS_BIND_CELL_OF) readonly buffer CellOf { uint cell_of[]; };
layout(std430, binding = BOIDS_BIND_CELL_START) readonly buffer CellStart { uint cell_start[]; };
layout(std430, binding = BOIDS_BIND_CELL_RANK) readonly buffer CellRank { uint cell_rank[]; };
layout(std430, binding = BOIDS_BIND_SLOT_ID) readonly buffer SlotId { uint slot_id[]; };

void main()
{
    uint i = BOIDS_ITEM_INDEX;
    if (i >= agent_count()) return;
    uint c = cell_of[i];
    uint id = id_in[i];
    uint begin = cell_start[c];
    // the graveyard (dead boids, stopped replicas) keeps the atomics' order: nobody reads its
    // boids as neighbours, and reads go by id, so their order is moot
    uint dst = begin + cell_rank[i];
    if (c != graveyard()) {
        uint end = cell_start[c + 1u];
        if (end - begin > frame.loop_limit) {
            raise_status(BOIDS_STATUS_LOOP_LIMIT);
            end = begin + frame.loop_limit; // the result is wrong and flagged, never silently so
        }
        uint rank = 0u;
        for (uint t = begin; t < end; ++t)
            if (slot_id[t] < id) ++rank;
        dst = begin + rank;
    }
    pos_vel_out[dst] = pos_vel_in[i];
#if BOIDS_DIMS == 3
    pos_vel_z_out[dst] = pos_vel_z_in[i];
#endif
    if (u_agents == 0u) swarm_out[dst] = swarm_in[i]; // predators have no swarm
    id_out[dst] = id;
}
