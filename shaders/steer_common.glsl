// What every model's steering pass has, as src/cpu/steer.h: the positions and velocities of step
// t+1 (written, the slots of step t) and the helpers the models share: vector helpers, the
// external-force hook and the integration; the neighbours come from neighbors.glsl. A generated
// gen/steer_<model>.comp includes this file and then the model's rules_<rules>.glsl, which
// defines main(). Each helper mirrors a function of steer.h operation for operation.
#include "neighbors.glsl"

layout(local_size_x = BOIDS_WG_SIZE) in;
layout(std430, binding = BOIDS_BIND_POS_VEL_OUT) writeonly buffer PosVelOut { vec4 pos_vel_out[]; };

// ---- vector helpers ----------------------------------------------------------------------------

// v scaled to length len (divide by the length, then multiply); zero stays zero; squares that
// overflow or underflow are avoided by dividing by the largest component first. As
// boids_set_length().
vec2 set_length(vec2 v, float len)
{
    float m2 = length2(v);
    if (m2 > 0.0 && !isinf(m2)) {
        float m = square_root(m2);
        v.x = quotient(v.x, m) * len;
        v.y = quotient(v.y, m) * len;
    } else if (v.x != 0.0 || v.y != 0.0) {
        float s = max(abs(v.x), abs(v.y));
        float ux = quotient(v.x, s), uy = quotient(v.y, s);
        float m = square_root(length2(vec2(ux, uy)));
        v.x = quotient(ux, m) * len;
        v.y = quotient(uy, m) * len;
    }
    return v;
}

// Truncates v to length m; as boids_limit().
vec2 limit_length(vec2 v, float m)
{
    return length2(v) > m * m ? set_length(v, m) : v;
}

// cos of an angle in degrees in [0, 180]: a fixed polynomial, the same bits as boids_cos_deg().
float cos_deg(float deg)
{
    float sign = 1.0;
    if (deg > 90.0) {
        deg = 180.0 - deg;
        sign = -1.0;
    }
    float x = deg * 0.0174532925199432958, t = x * x;
    float c = 1.0 + t * (-0.5 + t * (0.0416666667 +
                                     t * (-0.00138888889 +
                                          t * (0.0000248015873 + t * (-0.000000275573192 +
                                                                      t * 0.00000000208767570)))));
    return sign * c;
}

// Whether offset d (d2 its squared length, > 0) is within the half-angle whose cosine is c of
// heading v; a boid at rest sees all around. As boids_in_view().
bool in_view(vec2 v, vec2 d, float d2, float c)
{
    float v2 = length2(v);
    if (!(v2 > 0.0)) return true;
    float dt = mul_add(v.x, d.x, v.y * d.y), lhs = dt * dt, rhs = c * c * v2 * d2;
    return c >= 0.0 ? dt >= 0.0 && lhs >= rhs : dt >= 0.0 || lhs <= rhs;
}

// ---- what every model shares -------------------------------------------------------------------

// The external-force hook: the forces from outside the flock on the boid `id` at (x, y), which
// every model adds to its own steering where its update takes a force; as
// boids_cpu_external_force(): the obstacles' push (obstacle_factor times their push_from()
// within obstacle_radius) unless the model treats obstacles itself, and the mouse tool: within its
// radius (minimum image) a constant pull or push of frame.tool.strength; such a boid also reports
// a BOIDS_EVENT_TOOL event.
vec2 external_force(uint id, float x, float y)
{
    vec2 f = vec2(0.0);
    if ((frame.flags & BOIDS_FRAME_OBSTACLE_PUSH) != 0u) {
        float reach = frame.params.obstacles.obstacle_radius;
        vec2 o = push_from(GRID_OBSTACLES, replica_of(id), x, y, reach, false);
        f = vec2(o.x * frame.params.obstacles.obstacle_factor,
                 o.y * frame.params.obstacles.obstacle_factor);
    }
    if (frame.tool.kind == BOIDS_TOOL_NONE) return f;
    float dx = offset_of(x, frame.tool.x, frame.world_w, frame.half_w);
    float dy = offset_of(y, frame.tool.y, frame.world_h, frame.half_h);
    float d2 = length2(vec2(dx, dy));
    if (!(d2 > 0.0 && d2 < frame.tool.radius * frame.tool.radius)) return f;
    emit_event(BOIDS_EVENT_TOOL, id, 0u, vec4(sqrt(d2), 0.0, 0.0, 0.0));
    vec2 t = set_length(vec2(dx, dy), frame.tool.strength);
    return frame.tool.kind == BOIDS_TOOL_REPEL ? vec2(f.x - t.x, f.y - t.y)
                                               : vec2(f.x + t.x, f.y + t.y);
}

// Reynolds' speed limits: v truncated to vmax, or, slower than vmin (and not at rest), raised to
// vmin along its heading; as boids_cpu_speed_limits().
vec2 speed_limits(vec2 v, float vmin, float vmax)
{
    float v2 = length2(v);
    if (v2 > vmax * vmax) return set_length(v, vmax);
    if (v2 < vmin * vmin && (v.x != 0.0 || v.y != 0.0)) return set_length(v, vmin);
    return v;
}

// Where a boid that moved to p ends up by the world's edges; as boids_apply_edges().
float wrap_coord(float x, float size)
{
    if (x < 0.0)
        x += size;
    else if (x >= size)
        x -= size;
    if (x < 0.0 || x >= size) {
        x = x - size * floor(x / size);
        if (!(x < size) || x < 0.0) x = 0.0;
    }
    return x;
}

vec2 apply_edges(vec2 p)
{
    uint e = world_edges();
    if (e == BOIDS_EDGES_WRAP) {
        p.x = wrap_coord(p.x, frame.world_w);
        p.y = wrap_coord(p.y, frame.world_h);
    } else if (e == BOIDS_EDGES_PROCESSING) {
        float r = frame.params.base.border_r;
        if (p.x < -r) p.x = frame.world_w + r;
        if (p.y < -r) p.y = frame.world_h + r;
        if (p.x > frame.world_w + r) p.x = -r;
        if (p.y > frame.world_h + r) p.y = -r;
    } else { // bounded: held within the positions a state may hold
        p = clamp(p, vec2(-BOIDS_MAX_POSITION), vec2(BOIDS_MAX_POSITION));
    }
    return p;
}

// Step t+1 of slot s (boid id, at step t me): p + v dt through the edges, with the new velocity
// v; as boids_cpu_move(). (The perturbed numerics move v by an ulp first.)
void move_boid(uint s, uint id, vec4 me, vec2 v)
{
    v = perturbed_velocity(v, me.zw, id, 0u);
    vec2 q = apply_edges(vec2(mul_add(v.x, frame.dt, me.x), mul_add(v.y, frame.dt, me.y)));
    pos_vel_out[s] = vec4(q, v);
}

// The end of a step for every model whose update takes a force (all but Adams): the external
// forces added to the model's own f, v' = v + f dt within the speed limits, then move_boid();
// as boids_cpu_apply_force().
void apply_force(uint s, uint id, vec4 me, vec2 f)
{
    vec2 fe = external_force(id, me.x, me.y);
    float fx = f.x + fe.x, fy = f.y + fe.y;
    vec2 v = speed_limits(vec2(mul_add(fx, frame.dt, me.z), mul_add(fy, frame.dt, me.w)),
                          frame.params.base.min_speed, frame.params.base.max_speed);
    move_boid(s, id, me, v);
}
