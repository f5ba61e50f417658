#version 430 core
// A read of the state (gpu/id_order.c): the agent in slot k goes to entry id of each column, so
// the host reads every column in id order with one copy, straight into the caller's array, and
// nothing on the host walks the slots at random. The float columns x, y, vx, vy follow one
// another in `columns` (agent_count() values each), a 3D world's z and vz in `columns_z`; the
// boids' swarms go to `swarm_out`.
// Each id is marked with this read's stamp on the way: a slot whose id is out of range, or was
// marked already, counts in report.bad_slots and the read fails (a pass went wrong). With none,
// the n slots hold the n ids exactly once each, so every entry of every column was written.
#include "common.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_POS_VEL_IN) readonly buffer PosVelIn { vec4 pos_vel_in[]; };
#if BOIDS_DIMS == 3
layout(std430, binding = BOIDS_BIND_POS_VEL_Z_IN) readonly buffer PosVelZIn
{
    vec2 pos_vel_z_in[];
};
layout(std430, binding = BOIDS_BIND_ORDER_COLUMNS_Z) writeonly buffer ColumnsZ
{
    uint columns_z[];
};
#endif
layout(std430, binding = BOIDS_BIND_SWARM_IN) readonly buffer SwarmIn { uint swarm_in[]; };
layout(std430, binding = BOIDS_BIND_ID_IN) readonly buffer IdIn { uint id_in[]; };
layout(std430, binding = BOIDS_BIND_ORDER_COLUMNS) writeonly buffer Columns { uint columns[]; };
layout(std430, binding = BOIDS_BIND_ORDER_SWARM) writeonly buffer OrderSwarm { uint swarm_out[]; };
layout(std430, binding = BOIDS_BIND_ORDER_MARKS) buffer Marks { uint marks[]; };

// This read's mark: never 0 (the marks' value when made), new at every read.
uniform uint u_stamp;

void main()
{
    uint k = BOIDS_ITEM_INDEX, n = agent_count();
    if (k >= n) return;
    uint id = id_in[k];
    if (id >= n || atomicExchange(marks[id], u_stamp) == u_stamp) {
        atomicAdd(report.bad_slots, 1u);
        return;
    }
    // Bits, not values: a column holds exactly what the state does.
    vec4 s = pos_vel_in[k];
    columns[id] = floatBitsToUint(s.x);
    columns[n + id] = floatBitsToUint(s.y);
    columns[2u * n + id] = floatBitsToUint(s.z);
    columns[3u * n + id] = floatBitsToUint(s.w);
#if BOIDS_DIMS == 3
    vec2 d = pos_vel_z_in[k]; // (z, vz): the fifth and sixth columns
    columns_z[id] = floatBitsToUint(d.x);
    columns_z[n + id] = floatBitsToUint(d.y);
#endif
    if (u_agents == 0u) swarm_out[id] = swarm_in[k]; // predators have no swarm
}
