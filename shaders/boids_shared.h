/* boids_shared.h: the GPU's layout, valid as both C and GLSL.
 *
 * It defines the SSBO/UBO binding points, the workgroup sizes and the layout of every struct that
 * crosses between the CPU and the GPU, so nothing is kept in sync by hand. Structs hold only
 * 4-byte scalars and arrays of them (never vec3) so that std430/std140 and C agree without
 * padding rules; the C side checks sizes and offsets with _Static_assert below, and a GPU test
 * checks them again through glGetProgramResourceiv.
 *
 * Internal: the backends, the world and the renderer include it; the public header does not (what
 * the API shares with the shaders, the edges, the tool and the events, is src/boids_values.h).
 * The parameter structs (boids_params) and the attribute count come from the lists in src/: C
 * includes them below; shaders get them from gen/boids_generated.glsl, which cmake/glsl_gen.c
 * writes from the same lists at build time and which every shader includes before this file. */
#ifndef BOIDS_SHARED_H
#define BOIDS_SHARED_H

#include "boids_values.h"
#if defined(BOIDS_GLSL)
#define BOIDS_UVEC4_ARRAY(name, n) uvec4 name[n]
#include "boids_generated.glsl"
#else
/* Angle brackets: these are C-only (cmake/embed_shaders.py blanks <...> includes in shaders). */
#include <stddef.h>

#include <boids.h>
#define BOIDS_UVEC4_ARRAY(name, n) uint32_t name[4 * (n)]
#endif

/* Workgroup sizes. Each scan invocation scans BOIDS_SCAN_PER_THREAD consecutive values on its
 * own, then the workgroup scans the invocations' totals as a tree: fewer barriers per value,
 * which matters on llvmpipe (a barrier switches every invocation) and costs nothing on a GPU. */
#define BOIDS_WG_SIZE 256
#define BOIDS_SCAN_WG_SIZE 256
#define BOIDS_SCAN_PER_THREAD 4
#define BOIDS_SCAN_BLOCK (BOIDS_SCAN_PER_THREAD * BOIDS_SCAN_WG_SIZE)

/* A pass's workgroups go on in y where their count passes the driver's x limit (gpu/buffers.h's
 * boids_gpu_dispatch: rows of as many as x allows), so a world's size is not bound by the limit
 * of a 1-D dispatch. A shader numbers its workgroup and its item with these, never with
 * gl_WorkGroupID.x or gl_GlobalInvocationID.x, and leaves the items past its count alone (the
 * last row may run over). */
#if defined(BOIDS_GLSL)
#define BOIDS_GROUP_INDEX (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x)
#define BOIDS_ITEM_INDEX (BOIDS_GROUP_INDEX * gl_WorkGroupSize.x + gl_LocalInvocationID.x)
#endif

/* Shader storage buffer bindings. The state lives in slots sorted by cell: a slot's position and
 * velocity (one vec4), swarm and id are the hot data every step reads and the reorder moves; the
 * attributes (boids_attributes.h) are cold, kept in id order and read once per boid.
 *
 * No block holds more than 16 bytes an agent (a driver's storage block may be smaller than a
 * large world's state: 2 GiB on NVIDIA's, 134M agents at 16 bytes): a 3D world's (z, vz) are a
 * block of their own beside the (x, y, vx, vy), and so are the metrics' and a read's z columns.
 * (Drivers may offer as few as 32 bindings, 0 to 31: some numbers serve two passes that never
 * run one program together, each bound by its pass before the dispatch, as noted.) */
/* The neighbours a pass walks are read through buffer textures over the same buffers as three of
 * the blocks below, on these texture units: binding the block (boids_gpu_bind) points its texture
 * there too. A texel fetch at a different slot in every invocation is a vector gather on
 * llvmpipe and lavapipe, where a storage buffer's such load goes lane by lane through memory (3
 * times slower a step there); on a GPU both go through the same caches. */
#define BOIDS_TEX_POS_VEL_IN 0   /* samplerBuffer, RGBA32F: BOIDS_BIND_POS_VEL_IN's buffer */
#define BOIDS_TEX_POS_VEL_Z_IN 1 /* samplerBuffer, RG32F: BOIDS_BIND_POS_VEL_Z_IN's */
#define BOIDS_TEX_SWARM_IN 2     /* usamplerBuffer, R32UI: BOIDS_BIND_SWARM_IN's */
#define BOIDS_TEX_UNITS 3

#define BOIDS_BIND_POS_VEL_IN 0  /* vec4 (px, py, vx, vy) per slot, read */
#define BOIDS_BIND_POS_VEL_OUT 1 /* vec4 per slot, written */
#define BOIDS_BIND_SWARM_IN 2    /* uint swarm per slot, read */
#define BOIDS_BIND_SWARM_OUT 3   /* uint swarm per slot, written (the reorder) */
#define BOIDS_BIND_ID_IN 4       /* uint id per slot, read */
#define BOIDS_BIND_ID_OUT 5      /* uint id per slot, written (the reorder) */
#define BOIDS_BIND_CELL_OF 6     /* cell index of each slot */
/* boids per cell (atomic histogram), cells + 1 entries; the scan reads and zeroes them */
#define BOIDS_BIND_CELL_COUNT 7
/* exclusive prefix sum of CELL_COUNT: cell c holds the slots [start[c], start[c + 1]) */
#define BOIDS_BIND_CELL_START 8
/* each agent's rank among its cell's arrivals, as the histogram's atomic returned it */
#define BOIDS_BIND_CELL_RANK 9
/* a 3D world's agents: vec2 (pz, vz) per slot, read and written (as POS_VEL_IN/OUT) */
#define BOIDS_BIND_POS_VEL_Z_IN 10
#define BOIDS_BIND_POS_VEL_Z_OUT 11
#define BOIDS_BIND_PRED_POS_VEL_Z_IN 12 /* ... the predators' (as PRED_POS_VEL_IN/OUT) */
/* the scan's ticket counter and each block's total, then prefix (scan_blocks.comp); the probes'
 * results (loop_probe.comp, rules_probe.comp: programs of their own) */
#define BOIDS_BIND_SCAN_SUMS 13
#define BOIDS_BIND_PROBE_RESULT BOIDS_BIND_SCAN_SUMS
/* the attributes: float[], attribute k of boid id at frame.attr_base[k] + id */
#define BOIDS_BIND_ATTRIBUTES 14
/* boids_gpu_report: status flags and events, read back only when asked */
#define BOIDS_BIND_REPORT 15
#define BOIDS_BIND_REPLICAS 16        /* boids_replica_record per replica: catches, the stop step */
#define BOIDS_BIND_PRED_POS_VEL_IN 17 /* predators: vec4 per slot, read (sorted by cell) */
#define BOIDS_BIND_PRED_POS_VEL_OUT 18 /* predators: vec4 per slot, written */
#define BOIDS_BIND_PRED_ID_IN 19       /* predators: uint id per slot */
#define BOIDS_BIND_PRED_CELL_START 20  /* predators: the slots of each cell, as CELL_START */
#define BOIDS_BIND_OBSTACLES 21        /* obstacles: vec4 (x, y, radius, z), sorted by cell */
#define BOIDS_BIND_OBS_CELL_START 22   /* obstacles: the slots of each cell */
/* metrics: vec4 (nearest-neighbour distance, speed, unit heading) per slot of the metrics' sort */
#define BOIDS_BIND_METRIC_SLOT 23
#define BOIDS_BIND_METRIC_PARENT 24 /* metrics: union-find parent slot per slot (groups) */
#define BOIDS_BIND_METRIC_SUMS 25   /* metrics: boids_gpu_metric_sums per replica */
#define BOIDS_BIND_DRAW_POS_VEL 26  /* drawing: the state the vertex shader pulls (boids.vert) */
#define BOIDS_BIND_DRAW_SWARM 27
#define BOIDS_BIND_DRAW_ID 28
/* drawing a 3D world: its (pz, vz) (boids3d.vert; the draw binds it, as the steps do) */
#define BOIDS_BIND_DRAW_POS_VEL_Z BOIDS_BIND_POS_VEL_Z_IN
/* scatter result: the id in each slot (the reorder's ranks count them) */
#define BOIDS_BIND_SLOT_ID 29
/* the step's catches found, before stop_after_catches takes the first of them: boids_catch */
#define BOIDS_BIND_CATCHES 30
/* predators: vec2 (pz, vz) per slot, written (hunt.comp) */
#define BOIDS_BIND_PRED_POS_VEL_Z_OUT 31
/* metrics in a 3D world: float heading z per slot (metrics_nn.comp and metrics_reduce.comp, which
 * read no predators) */
#define BOIDS_BIND_METRIC_SLOT_Z BOIDS_BIND_PRED_POS_VEL_Z_OUT
/* a read of the state in id order (id_order.comp), on the metrics' bindings, which only the
 * metrics' own passes use (and bind before each): the four float columns one after another, the
 * swarm column, each id's mark, and a 3D world's z and vz columns. */
#define BOIDS_BIND_ORDER_COLUMNS BOIDS_BIND_METRIC_SLOT
#define BOIDS_BIND_ORDER_SWARM BOIDS_BIND_METRIC_PARENT
#define BOIDS_BIND_ORDER_MARKS BOIDS_BIND_METRIC_SUMS
#define BOIDS_BIND_ORDER_COLUMNS_Z BOIDS_BIND_METRIC_SLOT_Z
/* Uniform buffer bindings. */
#define BOIDS_BIND_FRAME 0 /* boids_gpu_frame */

/* Status flags the GPU raises, read back only when the state is read. */
#define BOIDS_STATUS_LOOP_LIMIT 1u /* a loop stopped at frame.loop_limit iterations */

/* The head of the GPU's report buffer; boids_event[frame.event_capacity] follow it. */
BOIDS_STRUCT(boids_gpu_report)
{
    BOIDS_U32 status;      /* BOIDS_STATUS_* flags */
    BOIDS_U32 event_count; /* events emitted since the last take (may exceed the capacity:
                              the excess was lost and is reported) */
    BOIDS_U32 bad_slots;   /* slots id_order.comp found holding an id out of range or twice */
    BOIDS_U32 reserved1;
};

/* The state of one replica (an independent copy of the world, boids_world_def.replicas): its
 * catches so far and the step it stopped at (BOIDS_RUNNING while it runs). */
#define BOIDS_RUNNING 0xffffffffu
BOIDS_STRUCT(boids_replica_record)
{
    BOIDS_U32 catches;
    BOIDS_U32 stop_step;
};

/* A catch found at the start of a step (catch.comp), before stop_after_catches keeps the first of
 * a replica's in the order (predator, boid) (catch_apply.comp, stop.comp). */
BOIDS_STRUCT(boids_catch)
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
    BOIDS_U32 groups; /* union-find roots: connected components */
    float nn_sum;     /* nearest-neighbour distances */
    float speed_sum;
    float hx; /* unit headings */
    float hy;
    float min_speed;
    float max_speed;
    float mill_num; /* |sum of r_i x v_i| about the centre (boids_metrics.milling) */
    float mill_den; /* sum of |r_i| |v_i| */
    float hz;       /* a 3D world's third component of the unit headings' sum */
    float reserved;
};

/* frame.flags */
#define BOIDS_FRAME_HAS_ALIVE                                                                      \
    1u /* the model has the alive attribute: dead boids leave the grid                             \
        */
#define BOIDS_FRAME_OBSTACLE_PUSH 2u /* the external-force hook pushes boids off obstacles */

/* Per-step constants for every pass (a std140 uniform block). */
#define BOIDS_ATTR_BASE_VEC4S ((BOIDS_ATTR_COUNT + 3) / 4)
BOIDS_STRUCT(boids_gpu_frame)
{
    float world_w; /* px */
    float world_h; /* px */
    float half_w;  /* world_w / 2 for minimum-image offsets; +inf where nothing wraps */
    float half_h;
    float inv_cell_w; /* cells per px along x */
    float inv_cell_h;
    float dt;         /* s for per-second models, 1 for frame-based ones */
    BOIDS_U32 count;  /* number of boids */
    BOIDS_U32 grid_w; /* cells along x */
    BOIDS_U32 grid_h; /* cells along y */
    BOIDS_U32 swarms;
    /* most loop iterations a pass may run per invocation (llvmpipe cuts a shader invocation off
     * after about 65535); past it the pass stops and raises BOIDS_STATUS_LOOP_LIMIT instead of
     * going silently wrong */
    BOIDS_U32 loop_limit;
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
    BOIDS_U32 seed;           /* the world's seed for the rules' noise: its low 32 bits */
    /* a 3D world's third axis (programs built with BOIDS_DIMS 3 read them): its depth, half of it
     * (+inf where nothing wraps), cells per px and cells along z; a flat world's are 0 */
    float world_d;
    float half_d;
    float inv_cell_d;
    BOIDS_U32 grid_d;
    BOIDS_U32 seed_hi; /* the seed's high 32 bits */
    BOIDS_U32 nearest; /* 0: flocking within the radii; K: with the K nearest (world_def.nearest) */
    BOIDS_U32 grid_span; /* cells a walk reaches beyond its own along each axis: 1 or 2 */
    /* cells along x, y and z that tile the world: grid_w (grid_h, grid_d) unless the grid is
     * folded, when they share its columns (rows, layers) modulo (boids_grid_dims' fine_w) */
    BOIDS_U32 fine_w, fine_h, fine_d;
    BOIDS_UVEC4_ARRAY(attr_base, BOIDS_ATTR_BASE_VEC4S); /* where attribute k starts in the
                                                            attribute buffer (k / 4, k % 4) */
    boids_tool tool;
    boids_param_blocks params; /* the parameters in use (src/core/manifest.h) */
};

#if !defined(BOIDS_GLSL)
_Static_assert(BOIDS_MAX_BOIDS <= (1u << 30),
               "id-ordered columns of 4 floats a boid index in 32 bits");
_Static_assert(sizeof(boids_gpu_report) == 16, "boids_gpu_report is one vec4");
_Static_assert(sizeof(boids_replica_record) == 8, "boids_replica_record is two uints (std430)");
_Static_assert(sizeof(boids_catch) == 16, "boids_catch is one uvec4 (std430)");
_Static_assert(sizeof(boids_gpu_metric_sums) == 48,
               "boids_gpu_metric_sums is three vec4s (std430)");
_Static_assert(sizeof(boids_param_blocks) % 16 == 0, "the parameter blocks are whole vec4s");
_Static_assert(offsetof(boids_gpu_frame, attr_base) % 16 == 0,
               "std140 aligns arrays of uvec4 to 16");
_Static_assert(offsetof(boids_gpu_frame, tool) % 16 == 0, "std140 aligns nested structs to 16");
_Static_assert(offsetof(boids_gpu_frame, params) % 16 == 0, "std140 aligns nested structs to 16");
_Static_assert(sizeof(boids_gpu_frame) % 16 == 0, "boids_gpu_frame size multiple of 16");
#endif

#endif /* BOIDS_SHARED_H */
