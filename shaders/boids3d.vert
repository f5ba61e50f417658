#version 430 core
// Boids of a 3D world: a small paper dart per boid (two flat-shaded triangles folded along the
// boid's velocity: a tetrahedron's two upper faces, 6 vertices, which reads as a solid at a
// boid's size for half a tetrahedron's vertices), its nose along the velocity, in perspective
// through the orbit camera, read straight from the state buffers as boids.vert reads them: a
// plain draw pulling boid gl_VertexID / 6 where vertex shaders may read storage buffers, else an
// instanced draw of 6 vertices. A 3D world's (z, vz) of boid k are draw_pos_vel_z[k]. The
// faces are lit from above and from the
// eye, and fade towards the background with distance (depth cueing), so a dense flock reads as
// a volume; the depth test sorts them. The size is in world px, never below u_min_px on screen.
// The predators are drawn by the same program (u_predators: larger, red, no swarm or alive
// attribute), from their own buffer.
#include "boids_shared.h"
#include "boids_draw.h"

layout(location = BOIDS_ATTR_POS_VEL) in vec4 a_pos_vel;
layout(location = BOIDS_ATTR_SWARM) in uint a_swarm;
layout(location = BOIDS_ATTR_ID) in uint a_id;
layout(location = BOIDS_ATTR_DEPTH) in vec4 a_depth;
layout(std430, binding = BOIDS_BIND_ATTRIBUTES) readonly buffer Attributes { uint attr_words[]; };
layout(std430, binding = BOIDS_BIND_DRAW_POS_VEL) readonly buffer DrawPosVel
{
    vec4 draw_pos_vel[];
};
layout(std430, binding = BOIDS_BIND_DRAW_POS_VEL_Z) readonly buffer DrawPosVelZ
{
    vec2 draw_pos_vel_z[];
};
layout(std430, binding = BOIDS_BIND_DRAW_SWARM) readonly buffer DrawSwarm { uint draw_swarm[]; };
layout(std430, binding = BOIDS_BIND_DRAW_ID) readonly buffer DrawId { uint draw_id[]; };

uniform mat4 u_view;        // world px -> clip: the orbit camera's perspective
uniform vec3 u_eye;         // the camera's position, world px
uniform float u_proj_scale; // the projection's [1][1]: 1 / tan(fov / 2)
uniform vec2 u_viewport;    // framebuffer size in pixels
uniform float u_size;       // boid length, world px
uniform float u_min_px;     // ... at least this many framebuffer pixels
uniform vec2 u_fog;         // distances where depth cueing starts and where it is whole
uniform int u_color_mode;   // BOIDS_COLOR_*
uniform vec2 u_speed_range; // speeds mapped to the ends of the speed colour ramp
uniform uint u_alive_base;  // where the alive attribute starts (BOIDS_NO_ATTRIBUTE: none)
uniform uint u_age_base;    // where the age attribute starts (BOIDS_NO_ATTRIBUTE: none)
uniform bool u_pulled;      // a plain draw pulling from the storage buffers (else instanced)
uniform bool u_predators;   // drawing predators

out vec4 v_color;

const vec3 palette[BOIDS_SWARM_COLORS] = vec3[BOIDS_SWARM_COLORS](
    vec3(BOIDS_RGB_SWARM_0), vec3(BOIDS_RGB_SWARM_1), vec3(BOIDS_RGB_SWARM_2),
    vec3(BOIDS_RGB_SWARM_3), vec3(BOIDS_RGB_SWARM_4), vec3(BOIDS_RGB_SWARM_5),
    vec3(BOIDS_RGB_SWARM_6), vec3(BOIDS_RGB_SWARM_7));

// Corner k of the dart of a boid at p heading along h (a unit vector; u across it, w up from
// it), of length len: 0 the nose, 1 and 2 the tail's tips, 3 the fold's top at the tail.
vec3 corner(vec3 p, vec3 h, vec3 u, vec3 w, float len, uint k)
{
    if (k == 0u) return p + h * (0.6 * len);
    vec3 tail = p - h * (0.4 * len);
    if (k == 3u) return tail + w * (0.2 * len);
    return tail + u * (k == 1u ? 0.3 * len : -0.3 * len) - w * (0.1 * len);
}

void main()
{
    vec4 pos_vel = a_pos_vel, depth = a_depth;
    uint swarm = a_swarm, id = a_id, v = uint(gl_VertexID);
    if (u_pulled) {
        uint b = uint(gl_VertexID) / 6u;
        v = uint(gl_VertexID) - 6u * b;
        pos_vel = draw_pos_vel[b];
        depth = vec4(draw_pos_vel_z[b], 0.0, 0.0);
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
    vec3 p = vec3(pos_vel.xy, depth.x), vel = vec3(pos_vel.zw, depth.y);
    float speed2 = dot(vel, vel);
    vec3 h = speed2 > 0.0 ? vel * inversesqrt(speed2) : vec3(1.0, 0.0, 0.0);
    // the dart's up: the world's (-y) as far as the heading allows, so a flock's darts fly level
    vec3 any = abs(h.y) < 0.9 ? vec3(0.0, -1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    vec3 u = normalize(cross(h, any)), w = cross(u, h);
    // the length: u_size world px, or u_min_px on screen where that is larger
    float dist = max(dot(p - u_eye, p - u_eye), 1e-6);
    float px_world = 2.0 * sqrt(dist) / (u_proj_scale * u_viewport.y);
    float len = max(u_size, u_min_px * px_world) * (u_predators ? 2.5 : 1.0);
    // face f of 2: (nose, tip 1, fold) and (nose, fold, tip 2)
    uint f = v / 3u, c = v - 3u * f;
    vec3 a = corner(p, h, u, w, len, 0u), b = corner(p, h, u, w, len, f == 0u ? 1u : 3u),
         e = corner(p, h, u, w, len, f == 0u ? 3u : 2u);
    vec3 at = c == 0u ? a : c == 1u ? b : e;
    gl_Position = u_view * vec4(at, 1.0);

    vec3 col;
    if (u_predators) {
        col = vec3(BOIDS_RGB_PREDATOR);
    } else if (u_color_mode == BOIDS_COLOR_HEADING) {
        col = BOIDS_HEADING_MID + BOIDS_HEADING_AMP * vec3(h.x, -h.y, h.z);
    } else if (u_color_mode == BOIDS_COLOR_SPEED) {
        float t =
            clamp((sqrt(speed2) - u_speed_range.x) / max(u_speed_range.y - u_speed_range.x, 1e-6),
                  0.0, 1.0);
        col = mix(vec3(BOIDS_RGB_SLOW), vec3(BOIDS_RGB_FAST), t);
    } else if (u_color_mode == BOIDS_COLOR_AGE && u_age_base != BOIDS_NO_ATTRIBUTE) {
        float age = clamp(uintBitsToFloat(attr_words[u_age_base + id]), 0.0, 1.0);
        col = age < 0.5 ? mix(vec3(BOIDS_RGB_YOUNG), vec3(BOIDS_RGB_MIDDLE), age * 2.0)
                        : mix(vec3(BOIDS_RGB_MIDDLE), vec3(BOIDS_RGB_OLD), age * 2.0 - 1.0);
    } else {
        col = palette[swarm % uint(BOIDS_SWARM_COLORS)];
    }
    // flat shading: the face's normal, lit from above (-y) and from the eye, both sides alike
    vec3 n = normalize(cross(b - a, e - a));
    vec3 to_eye = normalize(u_eye - p);
    float light = 0.35 + 0.45 * abs(dot(n, to_eye)) + 0.25 * abs(dot(n, vec3(0.0, -1.0, 0.0)));
    float fog = clamp((sqrt(dist) - u_fog.x) / max(u_fog.y - u_fog.x, 1e-3), 0.0, 1.0);
    vec3 background = vec3(BOIDS_BACKGROUND_R, BOIDS_BACKGROUND_G, BOIDS_BACKGROUND_B);
    v_color = vec4(mix(col * min(light, 1.0), background, fog * 0.8), 1.0);
}
