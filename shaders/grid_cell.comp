#version 430 core
// Grid pass 1: the cell of every agent (boid, or predator when u_agents = 1) and the atomic
// histogram of agents per cell, whose atomic returns the agent's rank among its cell's arrivals:
// the scatter puts it at the cell's start plus that rank, with no cursor of its own. A dead boid,
// and every boid of a stopped replica (unless u_keep_stopped), goes to the graveyard cell, in
// nobody's block of cells. The counts start at zero: the scan (scan.comp) leaves them so. A model
// without predators runs this pass only after the host wrote the state: its steering sorts the
// boids it moves the same way (steer_common.glsl's sort_for_next_step).
#include "common.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_POS_VEL_IN) readonly buffer PosVelIn { vec4 pos_vel_in[]; };
#if BOIDS_DIMS == 3
layout(std430, binding = BOIDS_BIND_POS_VEL_Z_IN) readonly buffer PosVelZIn
{
    vec2 pos_vel_z_in[];
};
#endif
layout(std430, binding = BOIDS_BIND_ID_IN) readonly buffer IdIn { uint id_in[]; };
layout(std430, binding = BOIDS_BIND_CELL_OF) writeonly buffer CellOf { uint cell_of[]; };
layout(std430, binding = BOIDS_BIND_CELL_COUNT) buffer CellCount { uint cell_count[]; };
layout(std430, binding = BOIDS_BIND_CELL_RANK) writeonly buffer CellRank { uint cell_rank[]; };
// 1: the living boids of stopped replicas keep their cells (the metrics' sort); 0: the graveyard.
uniform uint u_keep_stopped;

void main()
{
    uint i = BOIDS_ITEM_INDEX;
    if (i >= agent_count()) return;
    vec4 p = pos_vel_in[i];
    uint id = id_in[i], r = id / agents_per_replica();
#if BOIDS_DIMS == 3
    float z = pos_vel_z_in[i].x;
#else
    float z = 0.0;
#endif
    uint c = sort_cell(u_agents == 0u, id, r, p.x, p.y, z, u_keep_stopped != 0u);
    cell_of[i] = c;
    cell_rank[i] = atomicAdd(cell_count[c], 1u);
}
