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

// ---- numerics ----------------------------------------------------------------------------------
// The operations a real GPU rounds otherwise than IEEE's one rounding per operation: a * b + c
// (contracted into a fused multiply-add), division and square root (approximated). Written through
// these helpers, they are plain IEEE operations by default: on a driver that rounds as IEEE does
// (llvmpipe, zink over lavapipe) the state is then the CPU's bit for bit, and a real GPU's
// compiler contracts and approximates them as it does any such expression. With
// BOIDS_GPU_NUMERICS=perturbed (the host defines BOIDS_NUMERICS_PERTURBED, gl/program.c) they
// round as a real GPU might, on any driver: the product and sum rounded once (a double holds the
// product of two floats exactly), division as a product by the reciprocal, the square root as
// x / sqrt(x) by way of inversesqrt; and every new velocity is moved by one unit in the last
// place, up or down as a hash of (id, step) says, where the step changed it. The trajectories
// then part from the CPU's as a real GPU's do, and the tests' tolerance and ensemble checks run
// against them in CI.
#ifdef BOIDS_NUMERICS_PERTURBED
float mul_add(float a, float b, float c) { return float(double(a) * double(b) + double(c)); }
float quotient(float a, float b) { return a * (1.0 / b); }
float square_root(float x) { return x > 0.0 && !isinf(x) ? x * inversesqrt(x) : sqrt(x); }
// A counter-based hash (two rounds of a multiply-xorshift mix): the same bits whatever order the
// invocations run in.
uint numerics_hash(uint a, uint b)
{
    uint h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u;
    h ^= h >> 16;
    h *= 0x7FEB352Du;
    h ^= h >> 15;
    h *= 0x846CA68Bu;
    return h ^ (h >> 16);
}
// x one unit in the last place up (bit set) or down in magnitude; zero, inf and NaN stay.
float nudged(float x, uint bit)
{
    if (x == 0.0 || isinf(x) || isnan(x)) return x;
    return uintBitsToFloat(floatBitsToUint(x) + (bit != 0u ? 1u : 0xFFFFFFFFu));
}
// The velocity v an agent (stream 0 the boids, 1 the predators) leaves step u_step with, its
// velocity having been old. A velocity the step did not change (no force: a lone boid) stays, as
// it does on a GPU, where rounding needs an operation. The nudge follows the agent's place in its
// replica, not its id in the world: a run is the same in any batch of replicas, as a GPU's
// rounding is.
vec2 perturbed_velocity(vec2 v, vec2 old, uint id, uint stream)
{
    if (v == old) return v;
    uint local = id % (stream == 0u ? frame.per_replica : frame.predators_per_replica);
    uint h = numerics_hash(local * 2u + stream, u_step);
    return vec2(nudged(v.x, h & 1u), nudged(v.y, h & 2u));
}
// An agent's vz in a 3D world, as perturbed_velocity() moves vx and vy (the hash's third bit).
float perturbed_depth_velocity(float vz, float old, uint id, uint stream)
{
    if (vz == old) return vz;
    uint local = id % (stream == 0u ? frame.per_replica : frame.predators_per_replica);
    uint h = numerics_hash(local * 2u + stream, u_step);
    return nudged(vz, h & 4u);
}
#else
float mul_add(float a, float b, float c) { return a * b + c; }
float quotient(float a, float b) { return a / b; }
float square_root(float x) { return sqrt(x); }
vec2 perturbed_velocity(vec2 v, vec2 old, uint id, uint stream) { return v; }
float perturbed_depth_velocity(float vz, float old, uint id, uint stream) { return vz; }
#endif
// The rules' language and the helpers every model's rules share (length2(), set_length(), ...),
// written once for both backends.
#include "rules/common.h"

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

// The world's cell of x along an axis of `fine` cells (multiply by the inverse, clamp to the
// axis before converting); as boids_fine_coord().
uint fine_coord(float x, float inv_cell, uint fine)
{
    float c = x * inv_cell;
    if (!(c >= 0.0)) return 0u;
    if (c >= float(fine)) return fine - 1u;
    uint i = uint(c);
    return i < fine ? i : fine - 1u;
}

// The grid's column (row, layer) of x: its cell's, folded onto the grid's `cells`; as
// boids_cell_coord().
uint cell_coord(float x, float inv_cell, uint fine, uint cells)
{
    uint i = fine_coord(x, inv_cell, fine);
    return i < cells ? i : i % cells;
}

// The cell of a position in replica r; as boids_cell_of().
uint cell_of_position(uint r, float x, float y)
{
    return r * frame.cells_per_replica +
           cell_coord(y, frame.inv_cell_h, frame.fine_h, frame.grid_h) * frame.grid_w +
           cell_coord(x, frame.inv_cell_w, frame.fine_w, frame.grid_w);
}

#if BOIDS_DIMS == 3
// The cell of a position in replica r of a 3D world; as boids_cell_of(): layer, row, column.
uint cell_of_position(uint r, float x, float y, float z)
{
    uint layer =
        frame.grid_d > 1u ? cell_coord(z, frame.inv_cell_d, frame.fine_d, frame.grid_d) : 0u;
    return r * frame.cells_per_replica +
           (layer * frame.grid_h + cell_coord(y, frame.inv_cell_h, frame.fine_h, frame.grid_h)) *
               frame.grid_w +
           cell_coord(x, frame.inv_cell_w, frame.fine_w, frame.grid_w);
}
#endif

// The cell an agent is sorted into: its position's in replica r (z: a 3D world's depth), or the
// graveyard for a dead boid and, unless keep_stopped, for the boids of a stopped replica. The
// grid pass (grid_cell.comp) and the steering of a model without predators, which sorts the
// boids it moves (steer_common.glsl), both use it.
uint sort_cell(bool boid, uint id, uint r, float x, float y, float z, bool keep_stopped)
{
    bool dead = boid && (((frame.flags & BOIDS_FRAME_HAS_ALIVE) != 0u && attr_alive(id) == 0u) ||
                         (replica_stopped(r) && !keep_stopped));
    if (dead) return graveyard();
#if BOIDS_DIMS == 3
    return cell_of_position(r, x, y, z);
#else
    return cell_of_position(r, x, y);
#endif
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
#if BOIDS_DIMS == 3
    float d, half_d;
#endif
};
world_sizes world_sizes_now()
{
#if BOIDS_DIMS == 3
    return world_sizes(frame.world_w, frame.world_h, frame.half_w, frame.half_h, frame.world_d,
                       frame.half_d);
#else
    return world_sizes(frame.world_w, frame.world_h, frame.half_w, frame.half_h);
#endif
}

// Offset from a to b in both axes; as boids_cand_offset().
vec2 offset_to(world_sizes ws, float ax, float ay, vec2 b)
{
    return vec2(offset_of(ax, b.x, ws.w, ws.half_w), offset_of(ay, b.y, ws.h, ws.half_h));
}

uint world_edges() { return uint(frame.params.base.edges); }
bool world_wraps() { return world_edges() == BOIDS_EDGES_WRAP; }
