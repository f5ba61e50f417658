/* boids_draw.h: what the boid renderer's shaders and C share, valid as both C and GLSL: the
 * colour modes, the palette (the shader draws with it, the viewer's legend shows it) and the
 * vertex attribute locations. */
#ifndef BOIDS_DRAW_H
#define BOIDS_DRAW_H

/* Colour modes of the boid renderer. */
#define BOIDS_COLOR_SWARM 0   /* a palette colour per swarm */
#define BOIDS_COLOR_HEADING 1 /* hue from the direction of flight */
#define BOIDS_COLOR_SPEED 2   /* blue (slow) to yellow (fast) */
#define BOIDS_COLOR_AGE 3     /* blue (young) to green (0.5) to yellow (old): models with ages */
#define BOIDS_COLOR_COUNT 4

/* The colours, as "r, g, b" lists (vec3(...) in GLSL, {...} in C): the shader draws with them and
 * the viewer's legend shows them. No red but the predators'. */
#define BOIDS_RGB_SWARM_0 0.40, 0.80, 1.00
#define BOIDS_RGB_SWARM_1 1.00, 0.55, 0.25
#define BOIDS_RGB_SWARM_2 0.55, 0.95, 0.45
#define BOIDS_RGB_SWARM_3 0.95, 0.40, 0.70
#define BOIDS_RGB_SWARM_4 1.00, 0.90, 0.35
#define BOIDS_RGB_SWARM_5 0.65, 0.55, 1.00
#define BOIDS_RGB_SWARM_6 0.35, 0.95, 0.85
#define BOIDS_RGB_SWARM_7 0.95, 0.95, 0.95
#define BOIDS_SWARM_COLORS 8              /* swarm k has colour k % 8 */
#define BOIDS_RGB_SLOW 0.20, 0.35, 1.00   /* the speed ramp: min_speed */
#define BOIDS_RGB_FAST 1.00, 0.90, 0.20   /* max_speed */
#define BOIDS_RGB_YOUNG 0.25, 0.45, 1.00  /* the age ramp: age 0 */
#define BOIDS_RGB_MIDDLE 0.35, 0.95, 0.40 /* 0.5 */
#define BOIDS_RGB_OLD 1.00, 0.90, 0.30    /* 1 */
#define BOIDS_RGB_PREDATOR 1.00, 0.22, 0.18
/* The background (tests look for anything else; the 3D boids fade into it with distance). */
#define BOIDS_BACKGROUND_R 0.055f
#define BOIDS_BACKGROUND_G 0.063f
#define BOIDS_BACKGROUND_B 0.082f
/* The heading colour wheel: 0.55 + 0.45 * (d.x, -d.x/2 + sqrt(3)/2 d.y, -d.x/2 - sqrt(3)/2 d.y)
 * for the unit velocity d in world coordinates (y down): three cosines 120 degrees apart. */
#define BOIDS_HEADING_MID 0.55
#define BOIDS_HEADING_AMP 0.45

/* Vertex attribute locations of the boid renderer: read straight from the state buffers. */
#define BOIDS_ATTR_POS_VEL 0 /* vec4 (px, py, vx, vy), per instance */
#define BOIDS_ATTR_SWARM 1   /* uint swarm, per instance */
#define BOIDS_ATTR_ID 2      /* uint id, per instance (for the attributes: alive, age) */
#define BOIDS_ATTR_DEPTH 3   /* vec4 (pz, vz, 0, 0), per instance: a 3D world's second half */
#define BOIDS_NO_ATTRIBUTE 0xffffffffu /* a renderer's attribute base: the model has none */

#endif /* BOIDS_DRAW_H */
