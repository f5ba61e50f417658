// adams (docs/models.md (adams)), GPU rules: the pseudocode, frame-based. The formulas, the
// choices and the order of every operation are those of src/cpu/rules_adams.c.
#include "walk_reynolds.glsl"

void main()
{
    uint s = BOIDS_ITEM_INDEX;
    if (s >= frame.count) return;
    vec4 me = pos_vel_in[s];
    uint id = id_in[s];
    float pr = frame.params.adams.protected_range, vr = frame.params.adams.visual_range;
    bool include_protected = frame.params.adams.include_protected != 0.0;
    // The pseudocode's close_dx (separation: boid - other), xpos_avg (cohesion: other - boid,
    // the same average less the boid's position) and xvel_avg (alignment) are the walk's sums.
    reynolds_radii rr =
        reynolds_radii(pr * pr, vr * vr, vr * vr, true, true, include_protected, vr);
    reynolds_sums m = walk_reynolds(s, me, id, 0u, rr);

    float vx = me.z, vy = me.w;
    if (m.ali_n > 0u) {
        float fn = float(m.ali_n), cf = frame.params.adams.centering_factor;
        float mf = frame.params.adams.matching_factor;
        vx = vx + quotient(m.coh.x, fn) * cf + (quotient(m.ali.x, fn) - vx) * mf;
        vy = vy + quotient(m.coh.y, fn) * cf + (quotient(m.ali.y, fn) - vy) * mf;
    }
    vx = mul_add(m.sep.x, frame.params.adams.avoid_factor, vx);
    vy = mul_add(m.sep.y, frame.params.adams.avoid_factor, vy);
    if (world_edges() == BOIDS_EDGES_BOUNDED) {
        float margin = frame.params.adams.margin, t = frame.params.adams.turn_factor;
        if (me.y < margin) vy = vy + t;                 // top (y points down)
        if (me.x > frame.world_w - margin) vx = vx - t; // right
        if (me.x < margin) vx = vx + t;                 // left
        if (me.y > frame.world_h - margin) vy = vy - t; // bottom
    }
    vec2 fe = external_force(id, me.x, me.y);
    vx += fe.x;
    vy += fe.y;

    uint n1 = uint(frame.params.adams.scout1_count), n2 = uint(frame.params.adams.scout2_count);
    uint local = id % frame.per_replica; // scouts are the first ids of each replica
    uint group = local < n1 ? 1u : local - n1 < n2 ? 2u : 0u;
    if (group != 0u) {
        float bias = attr_bias(id);
        if (frame.params.adams.dynamic_bias != 0.0) {
            bool toward = group == 1u ? vx > 0.0 : vx < 0.0;
            bias = toward
                       ? min(frame.params.adams.max_bias, bias + frame.params.adams.bias_increment)
                       : max(frame.params.adams.bias_increment,
                             bias - frame.params.adams.bias_increment);
        } else {
            bias = frame.params.adams.bias;
        }
        vx = (1.0 - bias) * vx + bias * (group == 1u ? 1.0 : -1.0);
        set_attr_bias(id, bias);
    }

    float speed = square_root(length2(vec2(vx, vy)));
    float vmin = frame.params.base.min_speed, vmax = frame.params.base.max_speed;
    if (speed < vmin && speed > 0.0) {
        vx = quotient(vx, speed) * vmin;
        vy = quotient(vy, speed) * vmin;
    }
    if (speed > vmax) {
        vx = quotient(vx, speed) * vmax;
        vy = quotient(vy, speed) * vmax;
    }
    move_boid(s, id, me, vec2(vx, vy));
}
