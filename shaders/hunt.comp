#version 430 core
// Models with predators, after the boids: the predators' steering (eq. 5 of the kit paper, with
// separation and obstacle avoidance). The formulas and the order of every operation are those of
// boids_cpu_hunt() in src/cpu/predators.c. Reads the boids of step t sorted by cell (POS_VEL_IN,
// CELL_START) and the predators sorted by theirs; writes the predators' step t+1 to the same
// slots of PRED_POS_VEL_OUT.
#include "steer_common.glsl"

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
    precise float fx = 0.0, fy = 0.0; // as in rules_kit.glsl: no fused multiply-adds
    if (!isinf(near_d2)) {
        float dl = square_root(near_d2);
        fx = quotient(near_d.x, dl) * frame.params.predators.attack_factor;
        fy = quotient(near_d.y, dl) * frame.params.predators.attack_factor;
    }
    // keeping apart from the other predators
    vec2 sp = push_from(GRID_PREDATORS, r, me.x, me.y, sep, false);
    fx += sp.x * frame.params.predators.pred_sep_factor;
    fy += sp.y * frame.params.predators.pred_sep_factor;
    if (frame.obstacle_count > 0u) {
        vec2 o = push_from(GRID_OBSTACLES, r, me.x, me.y,
                           frame.params.predators.pred_obstacle_radius, false);
        fx += o.x * frame.params.predators.pred_obstacle_factor;
        fy += o.y * frame.params.predators.pred_obstacle_factor;
    }
    vec2 v = speed_limits(vec2(me.z + fx, me.w + fy), frame.params.predators.pred_min_speed,
                          frame.params.predators.pred_max_speed);
    v = perturbed_velocity(v, me.zw, pid, 1u);
    vec2 q = apply_edges(vec2(mul_add(v.x, frame.dt, me.x), mul_add(v.y, frame.dt, me.y)));
    pred_pos_vel_out[s] = vec4(q, v);
}
