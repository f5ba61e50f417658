#version 430 core
// Models with predators, after the boids: the predators' steering (eq. 5 of the kit paper, with
// separation and obstacle avoidance): the walks here, in the order of boids_cpu_hunt() in
// src/cpu/predators.c, and the steering rules/hunt.h's, the CPU's own. Reads the boids of step t
// sorted by cell (POS_VEL_IN, CELL_START) and the predators sorted by theirs; writes the
// predators' step t+1 to the same slots of PRED_POS_VEL_OUT.
#include "steer_common.glsl"
#include "rules/hunt.h"

layout(std430, binding = BOIDS_BIND_PRED_POS_VEL_OUT) writeonly buffer PredPosVelOut
{
    vec4 pred_pos_vel_out[];
};

void main()
{
    uint s = BOIDS_ITEM_INDEX;
    if (s >= frame.predator_count) return;
    vec4 me = pred_pos_vel_in[s];
    uint pid = pred_id_in[s], r = pid / frame.predators_per_replica;
    if (replica_stopped(r)) {
        pred_pos_vel_out[s] = me;
        return;
    }
    float view = frame.params.predators.pred_view_radius, view2 = view * view;
    float sep = frame.params.predators.pred_sep_radius;
    float cos_view = cos_deg(frame.params.predators.pred_view_angle);
    // eq. 5: the nearest boid in view, through the boids' grid (the dead are not in it)
    vec2 near_d = vec2(0.0);
    float near_d2 = uintBitsToFloat(0x7f800000u); // +infinity: none yet
    world_sizes ws = world_sizes_now();
    candidates it = candidates_begin(GRID_BOIDS, r, me.x, me.y);
    uvec2 rg;
    while (candidates_next(it, rg))
        for (uint k = rg.x; k < rg.y; ++k) {
            vec2 d = offset_to(ws, me.x, me.y, pos_vel_in[k].xy);
            float d2 = length2(d);
            if (!(d2 > 0.0 && d2 <= view2 && d2 < near_d2)) continue;
            if (!in_view(me.zw, d, d2, cos_view)) continue;
            near_d = d;
            near_d2 = d2;
        }
    candidates_end(it);
    // keeping apart from the other predators, and from the obstacles
    vec2 sp = push_from(GRID_PREDATORS, r, me.x, me.y, 0.0, sep, false); // (flat programs)
    vec2 o = vec2(0.0);
    if (frame.obstacle_count > 0u)
        o = push_from(GRID_OBSTACLES, r, me.x, me.y, 0.0,
                      frame.params.predators.pred_obstacle_radius, false);
    // the steering (rules/hunt.h, the CPU's too)
    hunt_sums m = hunt_sums(near_d.x, near_d.y, near_d2, sp.x, sp.y, o.x, o.y, 0.0, 0.0, 0.0);
    vec2 v = hunt_velocity(m, me.zw); // (z: predators are flat for now)
    v = perturbed_velocity(v, me.zw, pid, 1u);
    pred_pos_vel_out[s] = vec4(moved_position(me.xy, v), v);
}
