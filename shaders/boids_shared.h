/* boids_shared.h: the one header valid as both C and GLSL.
 *
 * It defines the SSBO/UBO binding points, the workgroup sizes and the layout of every struct that
 * crosses between the CPU and the GPU, so nothing is kept in sync by hand. Structs hold only
 * 4-byte scalars and arrays of them (never vec3) so that std430/std140 and C agree without
 * padding rules; the C side checks sizes and offsets with _Static_assert below, and a GPU test
 * checks them again through glGetProgramResourceiv.
 *
 * The parameter structs (boids_params) and the attribute count come from the lists in src/: C
 * includes them below; shaders get them from gen/boids_generated.glsl, which cmake/glsl_gen.c
 * writes from the same lists at build time and which every shader includes before this file. */
#ifndef BOIDS_SHARED_H
#define BOIDS_SHARED_H

#if defined(GL_core_profile)
#define BOIDS_GLSL 1
#define BOIDS_STRUCT(name) struct name
#define BOIDS_U32 uint
#define BOIDS_UVEC4_ARRAY(name, n) uvec4 name[n]
#include "boids_generated.glsl"
#else
/* Angle brackets: these are C-only (cmake/embed_shaders.py blanks <...> includes in shaders). */
#include <stddef.h>
#include <stdint.h>

#include <boids_attributes.h>
#include <boids_params.h>
#define BOIDS_STRUCT(name) typedef struct name name; struct name
#define BOIDS_U32 uint32_t
#define BOIDS_UVEC4_ARRAY(name, n) uint32_t name[4 * (n)]
#endif

/* Workgroup sizes. Each scan invocation scans BOIDS_SCAN_PER_THREAD consecutive values on its
 * own, then the workgroup scans the invocations' totals as a tree: fewer barriers per value,
 * which matters on llvmpipe (a barrier switches every invocation) and costs nothing on a GPU. */
#define BOIDS_WG_SIZE 256
#define BOIDS_SCAN_WG_SIZE 256
#define BOIDS_SCAN_PER_THREAD 4
#define BOIDS_SCAN_BLOCK (BOIDS_SCAN_PER_THREAD * BOIDS_SCAN_WG_SIZE)

/* Shader storage buffer bindings. The state lives in slots sorted by cell: a slot's position and
 * velocity (one vec4), swarm and id are the hot data every step reads and the reorder moves; the
 * attributes (boids_attributes.h) are cold, kept in id order and read once per boid. */
#define BOIDS_BIND_POS_VEL_IN 0   /* vec4 (px, py, vx, vy) per slot, read                   */
#define BOIDS_BIND_POS_VEL_OUT 1  /* vec4 per slot, written                                 */
#define BOIDS_BIND_SWARM_IN 2     /* uint swarm per slot, read                              */
#define BOIDS_BIND_SWARM_OUT 3    /* uint swarm per slot, written (the reorder)             */
#define BOIDS_BIND_ID_IN 4        /* uint id per slot, read                                 */
#define BOIDS_BIND_ID_OUT 5       /* uint id per slot, written (the reorder)                */
#define BOIDS_BIND_CELL_OF 6      /* cell index of each slot                                */
#define BOIDS_BIND_CELL_COUNT 7   /* boids per cell (atomic histogram), cells + 1 entries   */
#define BOIDS_BIND_CELL_START 8   /* exclusive prefix sum of CELL_COUNT: cell c holds the
                                     slots [start[c], start[c + 1])                         */
#define BOIDS_BIND_CELL_FILL 9    /* scatter cursor per cell                                */
#define BOIDS_BIND_SLOT_SRC 10    /* scatter result: source slot of each sorted slot        */
#define BOIDS_BIND_SCAN_IN 11     /* scan pass input                                        */
#define BOIDS_BIND_SCAN_OUT 12    /* scan pass output                                       */
#define BOIDS_BIND_SCAN_SUMS 13   /* scan pass block sums                                   */
#define BOIDS_BIND_ATTRIBUTES 14  /* the attributes: float[], attribute k of boid id at
                                     frame.attr_base[k] + id                                */
#define BOIDS_BIND_REPORT 15      /* boids_gpu_report: status flags and events, read back
                                     only when asked                                        */
#define BOIDS_BIND_REPLICAS 16    /* boids_gpu_replica per replica: catches, the stop step  */
#define BOIDS_BIND_PRED_POS_VEL_IN 17  /* predators: vec4 per slot, read (sorted by cell)   */
#define BOIDS_BIND_PRED_POS_VEL_OUT 18 /* predators: vec4 per slot, written                 */
#define BOIDS_BIND_PRED_ID_IN 19       /* predators: uint id per slot                        */
#define BOIDS_BIND_PRED_CELL_START 20  /* predators: the slots of each cell, as CELL_START  */
#define BOIDS_BIND_OBSTACLES 21        /* obstacles: vec4 (x, y, radius, 0), sorted by cell  */
#define BOIDS_BIND_OBS_CELL_START 22   /* obstacles: the slots of each cell                  */
#define BOIDS_BIND_METRIC_SLOT 23      /* metrics: vec4 (nearest-neighbour distance, speed, unit
                                          heading) per slot of the metrics' sort            */
#define BOIDS_BIND_METRIC_PARENT 24    /* metrics: union-find parent slot per slot (groups)  */
#define BOIDS_BIND_METRIC_SUMS 25      /* metrics: boids_gpu_metric_sums per replica         */
#define BOIDS_BIND_DRAW_POS_VEL 26     /* drawing: the state the vertex shader pulls (boids.vert) */
#define BOIDS_BIND_DRAW_SWARM 27
#define BOIDS_BIND_DRAW_ID 28
#define BOIDS_BIND_SLOT_ID 29          /* scatter result: the id in each slot (the reorder's
                                          ranks read it, not id_in[slot_src[t]]) */
#define BOIDS_BIND_CATCHES 30          /* the step's catches found, before stop_after_catches
                                          takes the first of them: boids_gpu_catches */
/* Uniform buffer bindings. */
#define BOIDS_BIND_FRAME 0        /* boids_gpu_frame                                        */

/* Colour modes of the boid renderer. */
#define BOIDS_COLOR_SWARM 0   /* a palette colour per swarm          */
#define BOIDS_COLOR_HEADING 1 /* hue from the direction of flight    */
#define BOIDS_COLOR_SPEED 2   /* blue (slow) to yellow (fast)         */
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
#define BOIDS_SWARM_COLORS 8 /* swarm k has colour k % 8 */
#define BOIDS_RGB_SLOW 0.20, 0.35, 1.00 /* the speed ramp: min_speed */
#define BOIDS_RGB_FAST 1.00, 0.90, 0.20 /* max_speed */
#define BOIDS_RGB_YOUNG 0.25, 0.45, 1.00 /* the age ramp: age 0 */
#define BOIDS_RGB_MIDDLE 0.35, 0.95, 0.40 /* 0.5 */
#define BOIDS_RGB_OLD 1.00, 0.90, 0.30 /* 1 */
#define BOIDS_RGB_PREDATOR 1.00, 0.22, 0.18
/* The heading colour wheel: 0.55 + 0.45 * (d.x, -d.x/2 + sqrt(3)/2 d.y, -d.x/2 - sqrt(3)/2 d.y)
 * for the unit velocity d in world coordinates (y down): three cosines 120 degrees apart. */
#define BOIDS_HEADING_MID 0.55
#define BOIDS_HEADING_AMP 0.45

/* Vertex attribute locations of the boid renderer: read straight from the state buffers. */
#define BOIDS_ATTR_POS_VEL 0 /* vec4 (px, py, vx, vy), per instance */
#define BOIDS_ATTR_SWARM 1   /* uint swarm, per instance            */
#define BOIDS_ATTR_ID 2      /* uint id, per instance (for the attributes: alive, age) */
#define BOIDS_NO_ATTRIBUTE 0xffffffffu /* a renderer's attribute base: the model has none */

/* Status flags the GPU raises, read back only when the state is read. */
#define BOIDS_STATUS_LOOP_LIMIT 1u /* a loop stopped at frame.loop_limit iterations */

/* How the world's edges behave (params.base.edges). */
#define BOIDS_EDGES_WRAP 0u       /* a torus: positions wrap, distances are minimum-image      */
#define BOIDS_EDGES_BOUNDED 1u    /* a box: nothing wraps, boids may drift past the edges (the
                                     model steers them back, e.g. Adams' margins)            */
#define BOIDS_EDGES_PROCESSING 2u /* Processing's borders(): plain distances; a boid past -r
                                     reappears at size + r and the other way round           */

/* Positions stay within +-BOIDS_MAX_POSITION px (twice the largest world): a boid that strays
 * that far out of a bounded world is held at the bound (the move clamps it on both backends), and
 * a state written or read back (--init) may hold any position within it, so whatever --dump
 * writes, --init reads. Differences of positions then stay far from float overflow. */
#define BOIDS_MAX_POSITION 2.0e7

/* The viewer's mouse tool: a force field around a point that every model adds to its steering
 * force. Within `radius` of (x, y) (minimum image) a boid feels `strength` towards the point
 * (attract) or away from it (repel), whatever the distance; px/s^2 for per-second models,
 * px/frame^2 for frame-based ones. */
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
    BOIDS_U32 reserved0;
    BOIDS_U32 reserved1;
    BOIDS_U32 reserved2;
};

/* Events: what a step reports about single boids, gathered on the device and read back only when
 * asked (boids_world_take_events), in the order (step, kind, subject, other) on both backends.
 * A world records the kinds in its event mask (boids_world_def.event_mask, bits 1 << kind). */
#define BOIDS_EVENT_TOOL 1u   /* a boid within the mouse tool's reach this step: subject = the
                                 boid, value[0] = its distance to the tool in px */
#define BOIDS_EVENT_CATCH 2u  /* a predator caught a boid at the start of this step: subject =
                                 the boid, other = the predator, value[0] = the boid's age,
                                 value[1] = their distance in px */
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

/* The head of the GPU's report buffer; boids_event[frame.event_capacity] follow it. */
BOIDS_STRUCT(boids_gpu_report)
{
    BOIDS_U32 status;      /* BOIDS_STATUS_* flags */
    BOIDS_U32 event_count; /* events emitted since the last take (may exceed the capacity:
                              the excess was lost and is reported) */
    BOIDS_U32 reserved0;
    BOIDS_U32 reserved1;
};

/* The state of one replica (an independent copy of the world, boids_world_def.replicas): its
 * catches so far and the step it stopped at (BOIDS_RUNNING while it runs). */
#define BOIDS_RUNNING 0xffffffffu
BOIDS_STRUCT(boids_gpu_replica)
{
    BOIDS_U32 catches;
    BOIDS_U32 stop_step;
};

/* A catch found at the start of a step (catch.comp), before stop_after_catches keeps the first of
 * a replica's in the order (predator, boid) (catch_apply.comp, stop.comp). */
BOIDS_STRUCT(boids_gpu_catch)
{
    BOIDS_U32 replica;
    BOIDS_U32 predator; /* the predator's id */
    BOIDS_U32 boid;     /* the boid's id */
    float d2;           /* their squared distance */
};

/* What the metrics passes sum up for one replica's living boids (core/metrics.h turns them into
 * the metrics). */
BOIDS_STRUCT(boids_gpu_metric_sums)
{
    BOIDS_U32 alive;
    BOIDS_U32 groups;    /* union-find roots: connected components */
    float nn_sum;        /* nearest-neighbour distances */
    float speed_sum;
    float hx;            /* unit headings */
    float hy;
    float min_speed;
    float max_speed;
};

/* frame.flags */
#define BOIDS_FRAME_HAS_ALIVE 1u     /* the model has the alive attribute: dead boids leave the grid */
#define BOIDS_FRAME_OBSTACLE_PUSH 2u /* the external-force hook pushes boids off obstacles */

/* Per-step constants for every pass (a std140 uniform block). */
#define BOIDS_ATTR_BASE_VEC4S ((BOIDS_ATTR_COUNT + 3) / 4)
BOIDS_STRUCT(boids_gpu_frame)
{
    float world_w;      /* px                                   */
    float world_h;      /* px                                   */
    float half_w;       /* world_w / 2 for minimum-image offsets; +inf where nothing wraps */
    float half_h;
    float inv_cell_w;   /* cells per px along x                 */
    float inv_cell_h;
    float dt;           /* s for per-second models, 1 for frame-based ones */
    BOIDS_U32 count;    /* number of boids                      */
    BOIDS_U32 grid_w;   /* cells along x                        */
    BOIDS_U32 grid_h;   /* cells along y                        */
    BOIDS_U32 swarms;
    BOIDS_U32 loop_limit; /* most loop iterations a pass may run per invocation (llvmpipe cuts
                             a shader invocation off after about 65535); past it the pass stops
                             and raises BOIDS_STATUS_LOOP_LIMIT instead of going silently wrong */
    BOIDS_U32 event_mask;     /* bit 1 << kind: the event kinds recorded */
    BOIDS_U32 event_capacity; /* events the report buffer holds */
    BOIDS_U32 flags;          /* BOIDS_FRAME_* */
    BOIDS_U32 replicas;       /* independent copies of the world; boid id / per_replica is its
                                 replica, whose cells are cells_per_replica from replica *
                                 cells_per_replica; cell replicas * cells_per_replica is the
                                 graveyard of dead boids and stopped replicas */
    BOIDS_U32 per_replica;    /* boids per replica */
    BOIDS_U32 cells_per_replica;
    BOIDS_U32 predator_count; /* predators in all */
    BOIDS_U32 predators_per_replica;
    BOIDS_U32 obstacle_count; /* obstacles in all */
    BOIDS_U32 reserved0;
    BOIDS_U32 reserved1;
    BOIDS_U32 reserved2;
    BOIDS_UVEC4_ARRAY(attr_base, BOIDS_ATTR_BASE_VEC4S); /* where attribute k starts in the
                                                            attribute buffer (k / 4, k % 4) */
    boids_tool tool;
    boids_params params;
};

#if !defined(BOIDS_GLSL)
_Static_assert(sizeof(boids_event) == 32, "boids_event is 32 bytes (std430)");
_Static_assert(sizeof(boids_gpu_report) == 16, "boids_gpu_report is one vec4");
_Static_assert(sizeof(boids_gpu_replica) == 8, "boids_gpu_replica is two uints (std430)");
_Static_assert(sizeof(boids_gpu_catch) == 16, "boids_gpu_catch is one uvec4 (std430)");
_Static_assert(sizeof(boids_gpu_metric_sums) == 32, "boids_gpu_metric_sums is two vec4s (std430)");
_Static_assert(sizeof(boids_params) % 16 == 0, "boids_params size must be a multiple of 16");
_Static_assert(sizeof(boids_tool) == 32, "boids_tool must be 32 bytes (std140)");
_Static_assert(offsetof(boids_gpu_frame, attr_base) % 16 == 0, "std140 aligns arrays of uvec4 to 16");
_Static_assert(offsetof(boids_gpu_frame, tool) % 16 == 0, "std140 aligns nested structs to 16");
_Static_assert(offsetof(boids_gpu_frame, params) % 16 == 0, "std140 aligns nested structs to 16");
_Static_assert(sizeof(boids_gpu_frame) % 16 == 0, "boids_gpu_frame size multiple of 16");
#endif

#endif /* BOIDS_SHARED_H */
