// What every model's steering pass has besides its rules (src/rules/, included by common.glsl),
// as src/cpu/steer.h and src/cpu/lanes.h have for the CPU: the positions and velocities of step
// t+1 (written, the slots of step t), the external-force hook, a boid in and out of its rules
// (rules_boid_at, store_boid) and the move through the edges; the neighbours come from
// neighbors.glsl, a boid's nearest (frame.nearest) from nearest.glsl. A generated
// gen/steer_<model>.comp includes this file, the model's rules/<rules>.h, and the walk with
// main(): steer_reynolds.glsl, or the model's own
// rules_<rules>.glsl. What is per backend here (a walk over the obstacles' grid, an event, the
// state's buffers) is the twin of the CPU's, operation for operation; the arithmetic (the tool's
// force, the edges) is the rules'.
#include "neighbors.glsl"
// The K-nearest search only in a world of nearest:K's program (the host defines BOIDS_NEAREST 1
// there): a metric world's program carries none of its code.
#ifndef BOIDS_NEAREST
#define BOIDS_NEAREST 0
#endif
#if BOIDS_NEAREST
#include "nearest.glsl"
#endif

// The model's attributes and features (a steering program defines them: cmake/glsl_gen.c); none
// in the other passes that include this file.
#ifndef BOIDS_MODEL_ATTRS
#define BOIDS_MODEL_ATTRS 0u
#define BOIDS_MODEL_FEATURES 0u
#endif

layout(local_size_x = BOIDS_WG_SIZE) in;
// The boids' step t+1: not in the predators' steering (hunt.comp defines BOIDS_MOVES_PREDATORS),
// which writes its own, within 16 storage blocks (a common limit, which Mesa counts over every
// block a program declares).
#ifndef BOIDS_MOVES_PREDATORS
layout(std430, binding = BOIDS_BIND_POS_VEL_OUT) writeonly buffer PosVelOut { vec4 pos_vel_out[]; };
#if BOIDS_DIMS == 3
layout(std430, binding = BOIDS_BIND_POS_VEL_Z_OUT) writeonly buffer PosVelZOut
{
    vec2 pos_vel_z_out[];
};
#endif
#endif

// A model without predators sorts each boid it moves into the next step's cells here: the grid
// pass (grid_cell.comp) fused into the steering, one dispatch and one read of the state fewer a
// step. The next step's counts are zero by now (this step's scan left them so), and the slots it
// writes are the next step's agents (pos_vel[0]). A model with predators keeps its grid pass
// apart (the catches between two steps change who is dead); its programs, and the hunt's, have
// none of these blocks (cmake/glsl_gen.c defines BOIDS_SORTS_NEXT_STEP for the others).
#ifndef BOIDS_SORTS_NEXT_STEP
#define BOIDS_SORTS_NEXT_STEP 0
#endif
#if BOIDS_SORTS_NEXT_STEP
layout(std430, binding = BOIDS_BIND_CELL_OF) writeonly buffer CellOf { uint cell_of[]; };
layout(std430, binding = BOIDS_BIND_CELL_COUNT) buffer CellCount { uint cell_count[]; };
layout(std430, binding = BOIDS_BIND_CELL_RANK) writeonly buffer CellRank { uint cell_rank[]; };

void sort_for_next_step(uint s, uint id, float x, float y, float z)
{
    uint c = sort_cell(true, id, replica_of(id), x, y, z, false);
    cell_of[s] = c;
    cell_rank[s] = atomicAdd(cell_count[c], 1u);
}
#else
void sort_for_next_step(uint s, uint id, float x, float y, float z) {}
#endif

// ---- what every model shares -------------------------------------------------------------------

// The external-force hook: the forces from outside the flock on the boid `id` at (x, y), which
// every model adds to its own steering where its update takes a force; as
// boids_cpu_external_force(): the obstacles' push (obstacle_factor times their push_from()
// within obstacle_radius) unless the model treats obstacles itself, and the mouse tool's force
// (rules/common.h's tool_reaches and tool_force, at the minimum-image offset); a boid the tool
// reaches also reports a BOIDS_EVENT_TOOL event.
// (z is a 3D world's depth of the boid, and the tool's at its own; its obstacles are spheres.)
lane_vec external_force(uint id, float x, float y, float z)
{
    lane_vec f = lane_vec(0.0);
    if ((frame.flags & BOIDS_FRAME_OBSTACLE_PUSH) != 0u) {
        float reach = frame.params.obstacles.obstacle_radius;
        f = push_from(GRID_OBSTACLES, replica_of(id), x, y, z, reach, false) *
            frame.params.obstacles.obstacle_factor;
    }
    if (frame.tool.kind == BOIDS_TOOL_NONE) return f;
    float dx = offset_of(x, frame.tool.x, frame.world_w, frame.half_w);
    float dy = offset_of(y, frame.tool.y, frame.world_h, frame.half_h);
#if BOIDS_DIMS == 3
    float dz = offset_of(z, frame.tool.z, frame.world_d, frame.half_d);
#endif
    lane_vec d = VEC(dx, dy, dz);
    if (!tool_reaches(d)) return f;
    emit_event(BOIDS_EVENT_TOOL, id, 0u, vec4(sqrt(length2(d)), 0.0, 0.0, 0.0));
    return tool_force(d, f);
}

#ifndef BOIDS_MOVES_PREDATORS
// Step t+1 of slot s (boid id, at step t me, mz its (z, vz) in a 3D world): p + v dt through the
// edges (rules/common.h's moved_position), with the new velocity v; as boids_cpu_lane_store().
// (The perturbed numerics move v by an ulp first.) A 3D world's z and vz go to their own block.
void move_boid(uint s, uint id, vec4 me, vec2 mz, lane_vec v)
{
#if BOIDS_DIMS == 3
    vec2 vxy = perturbed_velocity(v.xy, me.zw, id, 0u);
    v = vec3(vxy, perturbed_depth_velocity(v.z, mz.y, id, 0u));
    vec3 p = moved_position(vec3(me.xy, mz.x), v);
    pos_vel_out[s] = vec4(p.xy, v.xy);
    pos_vel_z_out[s] = vec2(p.z, v.z);
    sort_for_next_step(s, id, p.x, p.y, p.z);
#else
    v = perturbed_velocity(v, me.zw, id, 0u);
    vec2 p = moved_position(me.xy, v);
    pos_vel_out[s] = vec4(p, v);
    sort_for_next_step(s, id, p.x, p.y, 0.0);
#endif
}

// The boid of slot s (id, at step t me) as its rules see it (rules_boid): its external forces,
// its obstacles' differences where the model has its own obstacle rule, and the model's
// attributes; as boids_cpu_lane_boids().
rules_boid rules_boid_at(uint id, vec4 me, vec2 mz)
{
    rules_boid b;
    b.x = me.x;
    b.y = me.y;
    b.vx = me.z;
    b.vy = me.w;
    b.z = mz.x; // (0 in a flat world, whose rules never read them)
    b.vz = mz.y;
    b.ez = 0.0;
    b.oz = 0.0;
    b.id = id;
    lane_vec e = external_force(id, me.x, me.y, mz.x);
    b.ex = e.x;
    b.ey = e.y;
#if BOIDS_DIMS == 3
    b.ez = e.z;
#endif
    lane_vec o = lane_vec(0.0);
    if ((BOIDS_MODEL_FEATURES & BOIDS_FEATURE_OBSTACLE_RULE) != 0u && frame.obstacle_count > 0u)
        o = push_from(GRID_OBSTACLES, replica_of(id), me.x, me.y, mz.x,
                      frame.params.obstacles.obstacle_radius, true);
    b.ox = o.x;
    b.oy = o.y;
#if BOIDS_DIMS == 3
    b.oz = o.z;
#endif
    for (uint k = 0u; k < uint(BOIDS_ATTR_COUNT); ++k)
        b.attr[k] = (BOIDS_MODEL_ATTRS & (1u << k)) != 0u
                        ? uintBitsToFloat(attr_words[attr_index(k, id)])
                        : 0.0;
    return b;
}

// Step t+1 of slot s, whose boid was `was` and is now b (its velocity step t+1's): moved through
// the edges, and the attributes its rules changed stored; as boids_cpu_lane_store().
void store_boid(uint s, rules_boid was, rules_boid b)
{
    move_boid(s, b.id, vec4(was.x, was.y, was.vx, was.vy), vec2(was.z, was.vz),
              VEC(b.vx, b.vy, b.vz));
    for (uint k = 0u; k < uint(BOIDS_ATTR_COUNT); ++k)
        if ((BOIDS_MODEL_ATTRS & (1u << k)) != 0u &&
            floatBitsToUint(b.attr[k]) != floatBitsToUint(was.attr[k]))
            attr_words[attr_index(k, b.id)] = floatBitsToUint(b.attr[k]);
}
#endif
