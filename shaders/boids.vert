#version 430 core
// Boids: one triangle per boid, pointing along its velocity, read straight from the simulation's
// state buffers (no read-back, no copy). Where the driver lets a vertex shader read storage
// buffers (u_pulled), one plain draw of 3 vertices per boid pulls boid gl_VertexID / 3 from them:
// a software rasteriser (llvmpipe) runs its whole vertex pipeline once per instance, so an
// instanced draw of 100 000 boids costs it tens of milliseconds. Otherwise an instanced draw
// feeds them as per-instance attributes. The picture is the same either way. The size is
// in screen pixels so a flock of a million stays visible when zoomed out. The same program draws
// the predators (u_predators: larger, red). Caught boids are not drawn: their alive attribute,
// read from the attribute buffer by id, puts them outside the clip volume.
#include "boids_shared.h"
#include "boids_draw.h"

layout(location = BOIDS_ATTR_POS_VEL) in vec4 a_pos_vel;
layout(location = BOIDS_ATTR_SWARM) in uint a_swarm;
layout(location = BOIDS_ATTR_ID) in uint a_id;
layout(std430, binding = BOIDS_BIND_ATTRIBUTES) readonly buffer Attributes { uint attr_words[]; };
layout(std430, binding = BOIDS_BIND_DRAW_POS_VEL) readonly buffer DrawPosVel
{
    vec4 draw_pos_vel[];
};
layout(std430, binding = BOIDS_BIND_DRAW_SWARM) readonly buffer DrawSwarm { uint draw_swarm[]; };
layout(std430, binding = BOIDS_BIND_DRAW_ID) readonly buffer DrawId { uint draw_id[]; };

uniform mat4 u_view;        // world px -> clip: the camera's orthographic view, y down
uniform vec2 u_viewport;    // framebuffer size in pixels
uniform float u_size_px;    // boid length on screen
uniform int u_color_mode;   // BOIDS_COLOR_*
uniform vec2 u_speed_range; // speeds mapped to the ends of the speed colour ramp
uniform uint u_alive_base;  // where the alive attribute starts (BOIDS_NO_ATTRIBUTE: none)
uniform uint u_age_base;    // where the age attribute starts (BOIDS_NO_ATTRIBUTE: none)
uniform bool u_predators;   // drawing predators
uniform bool u_pulled;      // a plain draw pulling from the storage buffers (else instanced)

out vec4 v_color;

const vec3 palette[BOIDS_SWARM_COLORS] = vec3[BOIDS_SWARM_COLORS](
    vec3(BOIDS_RGB_SWARM_0), vec3(BOIDS_RGB_SWARM_1), vec3(BOIDS_RGB_SWARM_2),
    vec3(BOIDS_RGB_SWARM_3), vec3(BOIDS_RGB_SWARM_4), vec3(BOIDS_RGB_SWARM_5),
    vec3(BOIDS_RGB_SWARM_6), vec3(BOIDS_RGB_SWARM_7));

// A colour wheel over the heading (a unit vector), without trigonometry: three cosines 120
// degrees apart, written with the heading's own components (boids_shared.h).
vec3 heading_colour(vec2 d)
{
    vec3 c = vec3(d.x, -0.5 * d.x + 0.8660254 * d.y, -0.5 * d.x - 0.8660254 * d.y);
    return BOIDS_HEADING_MID + BOIDS_HEADING_AMP * c;
}

void main()
{
    vec4 pos_vel = a_pos_vel;
    uint swarm = a_swarm, id = a_id, corner_index = uint(gl_VertexID);
    if (u_pulled) {
        uint b = uint(gl_VertexID) / 3u;
        corner_index = uint(gl_VertexID) - 3u * b;
        pos_vel = draw_pos_vel[b];
        if (!u_predators) { // predators have neither swarm nor alive attribute
            swarm = draw_swarm[b];
            id = draw_id[b];
        }
    }
    if (!u_predators && u_alive_base != BOIDS_NO_ATTRIBUTE && attr_words[u_alive_base + id] == 0u) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0); // caught: outside the clip volume, not drawn
        v_color = vec4(0.0);
        return;
    }
    vec2 vel = pos_vel.zw;
    float speed2 = dot(vel, vel);
    // Heading on screen, in pixels: the view scales x and y alike and flips y.
    vec2 dir = speed2 > 0.0 ? vec2(vel.x, -vel.y) * inversesqrt(speed2) : vec2(1.0, 0.0);
    vec2 side = vec2(-dir.y, dir.x);
    // nose 0.6 ahead of the position, tail corners 0.4 behind: the nose is the farthest point
    vec2 corner = corner_index == 0u   ? vec2(0.6, 0.0)
                  : corner_index == 1u ? vec2(-0.4, 0.3)
                                       : vec2(-0.4, -0.3);
    float size = u_predators ? u_size_px * 2.5 : u_size_px;
    vec2 offset_px = (dir * corner.x + side * corner.y) * size;
    vec4 centre = u_view * vec4(pos_vel.xy, 0.0, 1.0);
    gl_Position = vec4(centre.xy + offset_px * 2.0 / u_viewport, 0.0, 1.0);

    vec3 c;
    if (u_predators) {
        c = vec3(BOIDS_RGB_PREDATOR);
    } else if (u_color_mode == BOIDS_COLOR_HEADING) {
        c = heading_colour(vec2(dir.x, -dir.y));
    } else if (u_color_mode == BOIDS_COLOR_SPEED) {
        float t =
            clamp((sqrt(speed2) - u_speed_range.x) / max(u_speed_range.y - u_speed_range.x, 1e-6),
                  0.0, 1.0);
        c = mix(vec3(BOIDS_RGB_SLOW), vec3(BOIDS_RGB_FAST), t);
    } else if (u_color_mode == BOIDS_COLOR_AGE && u_age_base != BOIDS_NO_ATTRIBUTE) {
        // young blue, middle-aged green, old yellow: no red, which is the predators'
        float age = clamp(uintBitsToFloat(attr_words[u_age_base + id]), 0.0, 1.0);
        c = age < 0.5 ? mix(vec3(BOIDS_RGB_YOUNG), vec3(BOIDS_RGB_MIDDLE), age * 2.0)
                      : mix(vec3(BOIDS_RGB_MIDDLE), vec3(BOIDS_RGB_OLD), age * 2.0 - 1.0);
    } else {
        c = palette[swarm % uint(BOIDS_SWARM_COLORS)];
    }
    v_color = vec4(c, 1.0);
}
