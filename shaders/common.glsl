// Declarations every compute pass shares: the per-step constants, the report buffer (status flags
// and events) and the helpers whose results must equal the CPU reference's bit for bit
// (src/core/geometry.h, src/cpu/steer.h). They use plain scalar arithmetic, never
// length/normalize/dot, whose evaluation order a driver may change.
#include "boids_shared.h"

layout(std140, binding = BOIDS_BIND_FRAME) uniform Frame { boids_gpu_frame frame; };
layout(std430, binding = BOIDS_BIND_REPORT) buffer Report
{
    boids_gpu_report report;
    boids_event report_events[];
};

layout(std430, binding = BOIDS_BIND_ATTRIBUTES) buffer Attributes { uint attr_words[]; };
layout(std430, binding = BOIDS_BIND_REPLICAS) buffer Replicas { boids_replica_record replicas[]; };

// The step being computed (steps since the world was created or written), for events.
uniform uint u_step;
// Which agents a grid pass sorts: 0 the boids, 1 the predators (the same passes serve both).
uniform uint u_agents;

uint agent_count() { return u_agents == 0u ? frame.count : frame.predator_count; }
uint agents_per_replica()
{
    return u_agents == 0u ? frame.per_replica : frame.predators_per_replica;
}

// Attribute k of boid id: cold data in id order, read and written once per boid and step.
uint attr_index(uint k, uint id) { return frame.attr_base[k / 4u][k % 4u] + id; }
#include "boids_attributes.glsl"

// The replica of boid id, and whether it stopped (stop_after_catches); as boids_cpu_replica()
// and boids_cpu_stopped().
uint replica_of(uint id) { return id / frame.per_replica; }
bool replica_stopped(uint r) { return replicas[r].stop_step != BOIDS_RUNNING; }
// The graveyard: the cell of dead boids and stopped replicas, in nobody's block.
uint graveyard() { return frame.replicas * frame.cells_per_replica; }

// Raises a status flag for the host to find when it next reads the state.
void raise_status(uint flag) { atomicOr(report.status, flag); }

// Records an event if its kind is in the world's mask; past the capacity it is only counted
// (the host reports the loss). The host sorts events, so the order of the atomics does not matter.
void emit_event(uint kind, uint subject, uint other, vec4 value)
{
    if ((frame.event_mask & (1u << kind)) == 0u) return;
    uint i = atomicAdd(report.event_count, 1u);
    if (i < frame.event_capacity) {
        report_events[i].kind = kind;
        report_events[i].step = u_step;
        report_events[i].subject = subject;
        report_events[i].other = other;
        report_events[i].value[0] = value.x;
        report_events[i].value[1] = value.y;
        report_events[i].value[2] = value.z;
        report_events[i].value[3] = value.w;
    }
}

// Cell coordinate of x (multiply by the inverse, clamp to the grid before converting); as
// boids_cell_coord().
uint cell_coord(float x, float inv_cell, uint cells)
{
    float c = x * inv_cell;
    if (!(c >= 0.0)) return 0u;
    if (c >= float(cells)) return cells - 1u;
    uint i = uint(c);
    return i < cells ? i : cells - 1u;
}

// The cell of a position in replica r; as boids_cell_of().
uint cell_of_position(uint r, float x, float y)
{
    return r * frame.cells_per_replica +
           cell_coord(y, frame.inv_cell_h, frame.grid_h) * frame.grid_w +
           cell_coord(x, frame.inv_cell_w, frame.grid_w);
}

// Offset from a to b along an axis: minimum-image where half_size = size / 2, plain where the
// world does not wrap (the host sets half_w/half_h to +infinity); as boids_min_image().
float offset_of(float a, float b, float size, float half_size)
{
    float d = b - a;
    if (d > half_size)
        d -= size;
    else if (d < -half_size)
        d += size;
    return d;
}

// The world's sizes that minimum-image offsets take. A pass reads them once, before its candidate
// loop, and hands them to offset_to(): llvmpipe would otherwise reload each uniform-block member
// at every use inside the loop, lane by lane (a sixth of a Shiffman step at 100k boids).
struct world_sizes {
    float w, h, half_w, half_h;
};
world_sizes world_sizes_now()
{
    return world_sizes(frame.world_w, frame.world_h, frame.half_w, frame.half_h);
}

// Offset from a to b in both axes; as boids_cand_offset().
vec2 offset_to(world_sizes ws, float ax, float ay, vec2 b)
{
    return vec2(offset_of(ax, b.x, ws.w, ws.half_w), offset_of(ay, b.y, ws.h, ws.half_h));
}

uint world_edges() { return uint(frame.params.base.edges); }
bool world_wraps() { return world_edges() == BOIDS_EDGES_WRAP; }
