#version 430 core
// Grid pass 4: coherent reorder. Every boid of a cell counts the boids of its cell with a
// smaller id, which gives its final slot, and moves its hot data there: position and velocity,
// swarm, id (attributes stay in id order). The predators' grid (u_agents = 1) uses it too.
// Cells then list boids in increasing id whatever the scatter's timing was, so a step is
// deterministic and adds neighbours up in the CPU reference's order.
#include "common.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_POS_VEL_IN) readonly buffer PosVelIn { vec4 pos_vel_in[]; };
layout(std430, binding = BOIDS_BIND_POS_VEL_OUT) writeonly buffer PosVelOut { vec4 pos_vel_out[]; };
layout(std430, binding = BOIDS_BIND_SWARM_IN) readonly buffer SwarmIn { uint swarm_in[]; };
layout(std430, binding = BOIDS_BIND_SWARM_OUT) writeonly buffer SwarmOut { uint swarm_out[]; };
layout(std430, binding = BOIDS_BIND_ID_IN) readonly buffer IdIn { uint id_in[]; };
layout(std430, binding = BOIDS_BIND_ID_OUT) writeonly buffer IdOut { uint id_out[]; };
layout(std430, binding = BOIDS_BIND_CELL_OF) readonly buffer CellOf { uint cell_of[]; };
layout(std430, binding = BOIDS_BIND_CELL_START) readonly buffer CellStart { uint cell_start[]; };
layout(std430, binding = BOIDS_BIND_SLOT_SRC) readonly buffer SlotSrc { uint slot_src[]; };
layout(std430, binding = BOIDS_BIND_SLOT_ID) readonly buffer SlotId { uint slot_id[]; };

void main()
{
    uint s = BOIDS_ITEM_INDEX;
    if (s >= agent_count()) return;
    uint src = slot_src[s];
    uint c = cell_of[src];
    uint id = id_in[src];
    uint dst = s; // the graveyard (dead boids, stopped replicas) keeps the scatter's order: nobody
                  // reads its boids as neighbours, and reads go by id, so their order is moot
    if (c != graveyard()) {
        uint begin = cell_start[c], end = cell_start[c + 1u];
        if (end - begin > frame.loop_limit) {
            raise_status(BOIDS_STATUS_LOOP_LIMIT);
            end = begin + frame.loop_limit; // the result is wrong and flagged, never silently so
        }
        uint rank = 0u;
        for (uint t = begin; t < end; ++t)
            if (slot_id[t] < id) ++rank;
        dst = begin + rank;
    }
    pos_vel_out[dst] = pos_vel_in[src];
#if BOIDS_DIMS == 3
    pos_vel_out[agent_count() + dst] = pos_vel_in[agent_count() + src]; // (z, vz)
#endif
    if (u_agents == 0u) swarm_out[dst] = swarm_in[src]; // predators have no swarm
    id_out[dst] = id;
}
