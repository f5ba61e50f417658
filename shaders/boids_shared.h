/* boids_shared.h: the one header valid as both C and GLSL.
 *
 * It defines the SSBO/UBO binding points, the workgroup sizes and the layout of every struct that
 * crosses between the CPU and the GPU, so nothing is kept in sync by hand. Every struct holds
 * only 4-byte scalars (never vec3, and no vec2 either) so that std430/std140 and C agree without
 * padding rules; the C side checks sizes and offsets with _Static_assert below, and a GPU test
 * checks them again through glGetProgramResourceiv.
 */
#ifndef BOIDS_SHARED_H
#define BOIDS_SHARED_H

#if defined(GL_core_profile)
#define BOIDS_GLSL 1
#define BOIDS_STRUCT(name) struct name
#define BOIDS_U32 uint
#else
#include <stdint.h>
#include <stddef.h>
#define BOIDS_STRUCT(name) typedef struct name name; struct name
#define BOIDS_U32 uint32_t
#endif

/* Workgroup sizes. Each scan invocation scans BOIDS_SCAN_PER_THREAD consecutive values on its
 * own, then the workgroup scans the invocations' totals as a tree: fewer barriers per value,
 * which matters on llvmpipe (a barrier switches every invocation) and costs nothing on a GPU. */
#define BOIDS_WG_SIZE 256
#define BOIDS_SCAN_WG_SIZE 256
#define BOIDS_SCAN_PER_THREAD 4
#define BOIDS_SCAN_BLOCK (BOIDS_SCAN_PER_THREAD * BOIDS_SCAN_WG_SIZE)

/* Shader storage buffer bindings. */
#define BOIDS_BIND_BOIDS_IN 0    /* boid state, read (current order)               */
#define BOIDS_BIND_BOIDS_OUT 1   /* boid state, written                            */
#define BOIDS_BIND_CELL_OF 2     /* cell index of each boid slot                   */
#define BOIDS_BIND_CELL_COUNT 3  /* boids per cell (atomic histogram)              */
#define BOIDS_BIND_CELL_START 4  /* exclusive prefix sum of CELL_COUNT             */
#define BOIDS_BIND_CELL_FILL 5   /* scatter cursor per cell                        */
#define BOIDS_BIND_SLOT_SRC 6    /* scatter result: source slot of each sorted slot */
#define BOIDS_BIND_SCAN_IN 7     /* scan pass input                                */
#define BOIDS_BIND_SCAN_OUT 8    /* scan pass output                               */
#define BOIDS_BIND_SCAN_SUMS 9   /* scan pass block sums                           */
#define BOIDS_BIND_STATUS 10     /* uint flags a pass raises (BOIDS_STATUS_*)      */
/* Uniform buffer bindings. */
#define BOIDS_BIND_FRAME 0       /* boids_gpu_frame                                */

/* Colour modes of the boid renderer. */
#define BOIDS_COLOR_SWARM 0   /* a palette colour per swarm          */
#define BOIDS_COLOR_HEADING 1 /* hue from the direction of flight    */
#define BOIDS_COLOR_SPEED 2   /* blue (slow) to yellow (fast)         */
#define BOIDS_COLOR_COUNT 3

/* Vertex attribute locations of the boid renderer: read straight from the state buffer. */
#define BOIDS_ATTR_POS_VEL 0 /* vec4 (px, py, vx, vy), per instance */
#define BOIDS_ATTR_SWARM 1   /* uint swarm, per instance            */

/* Status flags the GPU raises, read back only when the state is read. */
#define BOIDS_STATUS_LOOP_LIMIT 1u /* a loop stopped at frame.loop_limit iterations */

/* Boid flags (room for later models: caught, predator, ...). */
#define BOIDS_FLAG_ALIVE 1u

/* One boid as the GPU stores it: 48 bytes (three vec4s). Ids are stable for a boid's whole life;
 * the GPU reorders boids by cell every step, the id says who is who. bias is the per-boid state
 * of Adams' dynamic scout bias; age and flags are room for the models that need them
 * (individuality by age, catches). */
#define BOIDS_BOID_VEC4S 3u
BOIDS_STRUCT(boids_gpu_boid)
{
    float px;
    float py;
    float vx;
    float vy;
    BOIDS_U32 id;
    BOIDS_U32 swarm;
    BOIDS_U32 flags;
    float bias;
    float age;
    float reserved0;
    float reserved1;
    float reserved2;
};

/* How the world's edges behave (boids_params.edges). */
#define BOIDS_EDGES_WRAP 0u       /* a torus: positions wrap, distances are minimum-image      */
#define BOIDS_EDGES_BOUNDED 1u    /* a box: nothing wraps, boids may drift past the edges (the
                                     model steers them back, e.g. Adams' margins)            */
#define BOIDS_EDGES_PROCESSING 2u /* Processing's borders(): plain distances; a boid past -r
                                     reappears at size + r and the other way round           */

/* Every model parameter, as plain named fields (set by name through the table in
 * src/core/params.c, which also gives each model's names, units and ranges; a model reads only
 * the fields its table lists). Units are the model's own: px, px/s and px/s^2 for per-second
 * models, px, px/frame and px/frame^2 for frame-based ones. Switches and counts are whole
 * numbers stored as floats. Size is kept a multiple of 16 bytes (std140). */
BOIDS_STRUCT(boids_params)
{
    /* Reynolds steering (the Shiffman models, hybrid, priority/mean) */
    float max_speed;        /* v_max                                                    */
    float max_force;        /* f_max per behaviour; F_max on the total (hybrid); the
                               maximum acceleration (priority, mean)                    */
    float min_speed;        /* v_min                                                    */
    float sep_radius;       /* r_sep; Adams' protected range                            */
    float align_radius;     /* r_ali; Adams' visual range; the neighbourhood (priority) */
    float cohesion_radius;  /* r_coh                                                    */
    float sep_weight;       /* w_sep                                                    */
    float align_weight;     /* w_ali                                                    */
    float cohesion_weight;  /* w_coh                                                    */
    float edges;            /* BOIDS_EDGES_*                                            */
    float border_r;         /* Processing's borders(): the boid's drawn size r, px      */
    /* Adams */
    float avoid_factor;
    float matching_factor;
    float centering_factor;
    float turn_factor;      /* px/frame^2 at the margins                                */
    float margin;           /* px                                                       */
    float include_protected;/* 1: protected-range boids count in the visual averages    */
    float scout1_count;     /* ids [0, scout1_count) are biased to the right            */
    float scout2_count;     /* the next scout2_count ids are biased to the left         */
    float bias;             /* biasval (static, or the start of the dynamic one)         */
    float max_bias;
    float bias_increment;
    float dynamic_bias;     /* 1: each scout's bias follows its heading                 */
    /* priority and mean allocation */
    float mean_set_length;  /* 1: mean allocation always sets the length to the maximum
                               acceleration; 0: only truncates to it                   */
};

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

/* Per-step constants for every pass (a std140 uniform block). */
BOIDS_STRUCT(boids_gpu_frame)
{
    float world_w;      /* px                                   */
    float world_h;      /* px                                   */
    float half_w;       /* world_w / 2 for minimum-image offsets; +inf where nothing wraps */
    float half_h;
    float inv_cell_w;   /* cells per px along x                 */
    float inv_cell_h;
    float dt;           /* s (per-second models)                */
    BOIDS_U32 count;    /* number of boids                      */
    BOIDS_U32 grid_w;   /* cells along x                        */
    BOIDS_U32 grid_h;   /* cells along y                        */
    BOIDS_U32 swarms;
    BOIDS_U32 loop_limit; /* most loop iterations a pass may run per invocation (llvmpipe cuts
                             a shader invocation off after about 65535); past it the pass stops
                             and raises BOIDS_STATUS_LOOP_LIMIT instead of going silently wrong */
    boids_tool tool;
    boids_params params;
};

#if !defined(BOIDS_GLSL)
_Static_assert(sizeof(boids_gpu_boid) == 16 * BOIDS_BOID_VEC4S, "boids_gpu_boid is whole vec4s (std430)");
_Static_assert(offsetof(boids_gpu_boid, id) == 16, "boids_gpu_boid.id offset");
_Static_assert(offsetof(boids_gpu_boid, bias) == 28, "boids_gpu_boid.bias offset");
_Static_assert(sizeof(boids_params) % 16 == 0, "boids_params size must be a multiple of 16");
_Static_assert(sizeof(boids_tool) == 32, "boids_tool must be 32 bytes (std140)");
_Static_assert(offsetof(boids_gpu_frame, tool) % 16 == 0, "std140 aligns nested structs to 16");
_Static_assert(offsetof(boids_gpu_frame, params) % 16 == 0, "std140 aligns nested structs to 16");
_Static_assert(sizeof(boids_gpu_frame) % 16 == 0, "boids_gpu_frame size multiple of 16");
#endif

#endif /* BOIDS_SHARED_H */
