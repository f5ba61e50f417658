#version 430 core
// Grid pass 4: coherent reorder. Every boid of a cell counts the boids of its cell with a
// smaller id, which gives its final slot, and is copied whole (position, velocity, id, ...) to
// that slot. Cells then list boids in increasing id whatever the scatter's timing was, so a step
// is deterministic and adds neighbours up in the CPU reference's order.
#include "common.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_BOIDS_IN) readonly buffer BoidsIn { boids_gpu_boid boids_in[]; };
layout(std430, binding = BOIDS_BIND_BOIDS_OUT) writeonly buffer BoidsOut { boids_gpu_boid boids_out[]; };
layout(std430, binding = BOIDS_BIND_CELL_OF) readonly buffer CellOf { uint cell_of[]; };
layout(std430, binding = BOIDS_BIND_CELL_COUNT) readonly buffer CellCount { uint cell_count[]; };
layout(std430, binding = BOIDS_BIND_CELL_START) readonly buffer CellStart { uint cell_start[]; };
layout(std430, binding = BOIDS_BIND_SLOT_SRC) readonly buffer SlotSrc { uint slot_src[]; };

void main()
{
    uint s = gl_GlobalInvocationID.x;
    if (s >= frame.count) return;
    uint src = slot_src[s];
    uint c = cell_of[src];
    uint id = boids_in[src].id;
    uint begin = cell_start[c], end = begin + cell_count[c];
    if (end - begin > frame.loop_limit) {
        raise_status(BOIDS_STATUS_LOOP_LIMIT);
        end = begin + frame.loop_limit; // the result is wrong and flagged, never silently so
    }
    uint rank = 0u;
    for (uint t = begin; t < end; ++t)
        if (boids_in[slot_src[t]].id < id) ++rank;
    boids_out[begin + rank] = boids_in[src];
}
