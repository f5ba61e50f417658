/* boids_values.h: the values the public API shares with the shaders, valid as both C and GLSL.
 *
 * The world's edges, the bound on positions, the mouse tool and the events are part of the API
 * (boids.h includes this file) and are read by the shaders too, so they are written once here.
 * The GPU's own layout (bindings, the per-step block) is shaders/boids_shared.h, which is not
 * public. Structs hold only 4-byte scalars so that std140/std430 and C agree without padding. */
#ifndef BOIDS_VALUES_H
#define BOIDS_VALUES_H

#if defined(GL_core_profile)
#define BOIDS_GLSL 1
#define BOIDS_STRUCT(name) struct name
#define BOIDS_U32 uint
#else
/* Angle brackets: C only (cmake/embed_shaders.py blanks <...> includes in shaders). */
#include <stdint.h>
#define BOIDS_STRUCT(name)                                                                         \
    typedef struct name name;                                                                      \
    struct name
#define BOIDS_U32 uint32_t
#endif

/* Most nearest neighbours a boid may flock with (boids_world_def.nearest): the length of the
 * sorted list each boid keeps while it searches (src/cpu/nearest.h, shaders/nearest.glsl). */
#define BOIDS_MAX_NEAREST 32u

/* How the world's edges behave (params.base.edges). */
#define BOIDS_EDGES_WRAP 0u /* a torus: positions wrap, distances are minimum-image */
/* a box: nothing wraps, boids may drift past the edges (the model steers them back, e.g. Adams'
 * margins) */
#define BOIDS_EDGES_BOUNDED 1u
/* Processing's borders(): plain distances; a boid past -r reappears at size + r and the other way
 * round */
#define BOIDS_EDGES_PROCESSING 2u

/* Positions stay within +-BOIDS_MAX_POSITION px (twice the largest world): a boid that strays
 * that far out of a bounded world is held at the bound (the move clamps it on both backends), and
 * a state written or read back (--init) may hold any position within it, so whatever --dump
 * writes, --init reads. Differences of positions then stay far from float overflow. */
#define BOIDS_MAX_POSITION 2.0e7

/* The viewer's mouse tool: a force field around a point that every model adds to its steering
 * force. Within `radius` of (x, y) (or (x, y, z) in a 3D world; minimum image) a boid feels
 * `strength` towards the point (attract) or away from it (repel), whatever the distance; px/s^2 for
 * per-second models, px/frame^2 for frame-based ones. */
#define BOIDS_TOOL_NONE 0u
#define BOIDS_TOOL_ATTRACT 1u
#define BOIDS_TOOL_REPEL 2u
BOIDS_STRUCT(boids_tool)
{
    float x;        /* px */
    float y;        /* px */
    float radius;   /* px */
    float strength; /* force */
    BOIDS_U32 kind; /* BOIDS_TOOL_* */
    float z;        /* px: its depth in a 3D world (ignored in a flat one) */
    BOIDS_U32 reserved1;
    BOIDS_U32 reserved2;
};

/* Events: what a step reports about single boids, gathered on the device and read back only when
 * asked (boids_world_take_events), in the order (step, kind, subject, other) on both backends.
 * A world records the kinds in its event mask (boids_world_def.event_mask, bits 1 << kind). */
/* a boid within the mouse tool's reach this step: subject = the boid, value[0] = its distance to
 * the tool in px */
#define BOIDS_EVENT_TOOL 1u
/* a predator caught a boid at the start of this step: subject = the boid, other = the predator,
 * value[0] = the boid's age, value[1] = their distance in px */
#define BOIDS_EVENT_CATCH 2u
#define BOIDS_EVENT_KIND_COUNT 3u
BOIDS_STRUCT(boids_event)
{
    BOIDS_U32 kind;    /* BOIDS_EVENT_* */
    BOIDS_U32 step;    /* the step it happened in: steps before it since the world was created
                          or last written (mod 2^32) */
    BOIDS_U32 subject; /* the boid's id */
    BOIDS_U32 other;   /* the other party's id (0 where there is none) */
    float value[4];    /* by kind */
};

#if !defined(BOIDS_GLSL)
_Static_assert(sizeof(boids_event) == 32, "boids_event is 32 bytes (std430)");
_Static_assert(sizeof(boids_tool) == 32, "boids_tool is 32 bytes (std140)");
#endif

#endif /* BOIDS_VALUES_H */
