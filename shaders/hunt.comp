#version 430 core
// Models with predators, after the boids: the predators' steering (eq. 5 of the kit paper, with
// separation and obstacle avoidance): the walks here, in the order of boids_cpu_hunt() in
// src/cpu/hunt.c, and the steering rules/hunt.h's, the CPU's own. Reads the boids of step t
// sorted by cell (POS_VEL_IN, CELL_START) and the predators sorted by theirs; writes the
// predators' step t+1 to the same slots of PRED_POS_VEL_OUT (a 3D world's (z, vz) to
// PRED_POS_VEL_Z_OUT).
#define BOIDS_MOVES_PREDATORS 1 // (steer_common.glsl: no blocks for the boids' step t+1)
#include "steer_common.glsl"
#include "rules/hunt.h"

layout(std430, binding = BOIDS_BIND_PRED_POS_VEL_OUT) writeonly buffer PredPosVelOut
{
    vec4 pred_pos_vel_out[];
};
#if BOIDS_DIMS == 3
layout(std430, binding = BOIDS_BIND_PRED_POS_VEL_Z_OUT) writeonly buffer PredPosVelZOut
{
    vec2 pred_pos_vel_z_out[];
};
#endif

void main()
{
    uint s = BOIDS_ITEM_INDEX;
    if (s >= frame.predator_count) return;
    vec4 me = pred_pos_vel_in[s];
#if BOIDS_DIMS == 3
    vec2 mz = predator_depth(s); // (z, vz)
#else
    vec2 mz = vec2(0.0);
#endif
    uint pid = pred_id_in[s], r = pid / frame.predators_per_replica;
    if (replica_stopped(r)) {
        pred_pos_vel_out[s] = me;
#if BOIDS_DIMS == 3
        pred_pos_vel_z_out[s] = mz;
#endif
        return;
    }
    float view = frame.params.predators.pred_view_radius, view2 = view * view;
    float sep = frame.params.predators.pred_sep_radius;
    float cos_view = cos_deg(frame.params.predators.pred_view_angle);
    lane_vec heading = VEC(me.z, me.w, mz.y);
    // eq. 5: the nearest boid in view (a cone around the heading in 3D), through the boids' grid
    // (the dead are not in it)
    lane_vec near_d = lane_vec(0.0);
    float near_d2 = uintBitsToFloat(0x7f800000u); // +infinity: none yet
    world_sizes ws = world_sizes_now();
    candidates it = candidates_around(GRID_BOIDS, r, me.x, me.y, mz.x);
    uvec2 rg;
    while (candidates_next(it, rg))
        for (uint k = rg.x; k < rg.y; ++k) {
            lane_vec d = offset_to_boid(ws, me.x, me.y, mz.x, k);
            float d2 = length2(d);
            if (!(d2 > 0.0 && d2 <= view2 && d2 < near_d2)) continue;
            if (!in_view(heading, d, d2, cos_view)) continue;
            near_d = d;
            near_d2 = d2;
        }
    candidates_end(it);
    // keeping apart from the other predators, and from the obstacles (spheres in 3D)
    lane_vec sp = push_from(GRID_PREDATORS, r, me.x, me.y, mz.x, sep, false);
    lane_vec o = lane_vec(0.0);
    if (frame.obstacle_count > 0u)
        o = push_from(GRID_OBSTACLES, r, me.x, me.y, mz.x,
                      frame.params.predators.pred_obstacle_radius, false);
    // the steering (rules/hunt.h, the CPU's too), then the move through the edges
#if BOIDS_DIMS == 3
    hunt_sums m = hunt_sums(near_d.x, near_d.y, near_d2, sp.x, sp.y, o.x, o.y, near_d.z, sp.z, o.z);
    vec3 v = hunt_velocity(m, heading);
    v = vec3(perturbed_velocity(v.xy, me.zw, pid, 1u),
             perturbed_depth_velocity(v.z, mz.y, pid, 1u));
    vec3 p = moved_position(vec3(me.xy, mz.x), v);
    pred_pos_vel_out[s] = vec4(p.xy, v.xy);
    pred_pos_vel_z_out[s] = vec2(p.z, v.z);
#else
    hunt_sums m = hunt_sums(near_d.x, near_d.y, near_d2, sp.x, sp.y, o.x, o.y, 0.0, 0.0, 0.0);
    vec2 v = hunt_velocity(m, heading);
    v = perturbed_velocity(v, me.zw, pid, 1u);
    pred_pos_vel_out[s] = vec4(moved_position(me.xy, v), v);
#endif
}
