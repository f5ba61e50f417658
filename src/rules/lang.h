/* The language the rules are written in: one source that compiles as C for the CPU backend and as
 * GLSL for the GPU's steering passes (docs/writing-a-model.md).
 *
 * A rules file computes what one boid does with what its walk gathered. Its code is written for a
 * *lane*: on the GPU a lane is an invocation and its values are plain floats; on the CPU a lane
 * is one of the BOIDS_LANES boids of a SIMD group (rules/simd.h) and its values are GCC vectors, so
 * a group's finishing divisions and square roots run on every lane at once. The same text serves
 * both because it keeps to what the two have in common:
 *
 *   lane_f, lane_u, lane_m   a lane's float, unsigned and mask (GLSL: float, uint, bool)
 *   float, uint, bool        a value the same in every lane (a parameter, a count)
 *   lane_vec / VEC(x, y, z)  a vector of the world's dimension (BOIDS_DIMS: 2, the default,
 *                            or 3), used component by component (no vector arithmetic: its
 *                            evaluation order is a driver's choice); in a flat world it has
 *                            x and y only, and VEC drops its z. What only a 3D world computes
 *                            stands in `#if BOIDS_DIMS == 3`, so the flat rules are unchanged.
 *   LANE_F(c)                a constant, or a parameter, in every lane
 *   SELECT(m, a, b), SELECT_M, MASK(x, m), AND, OR, NOT, ANY, LANE_TRUE
 *                            decisions: no `if` on a lane's value (a GCC vector has none); an
 *                            `if (ANY(m))` may skip work no lane needs
 *   DIV, SQRT, MAD           division, square root, a * b + c: plain IEEE operations on the CPU
 *                            (built without contraction) and on a GPU by default; the GPU's
 *                            BOIDS_GPU_NUMERICS=perturbed rounds them as a real GPU might;
 *                            FLOOR, lane by lane
 *   BITS(x), FROM_BITS(u)    a float's IEEE bits as a lane_u, and back (GLSL's floatBitsToUint)
 *   PRECISE                  GLSL's `precise`: a sum the compiler must not contract
 *   INOUT(type, name), OUT(name), REF(name)
 *                            a parameter the function changes for its caller (GLSL's inout)
 *   RULES_FN, RULES_CTX, RULES_PASS
 *                            a rules function, and the context its first parameter carries on
 *                            the CPU (the parameters, dt, the world; on the GPU they are the
 *                            per-step block, `frame`); RULES_CTX_ONLY, RULES_PASS_ONLY where it
 *                            is the only parameter; `RULES_CTX_UNUSED;` in a function that
 *                            takes the context and does not read it; `RULES_UNUSED(x);` for another
 *                            parameter it does not read
 *   PARAM(block.field)       a parameter in every lane; UNIFORM(block.field) the same as one
 *                            value, which may decide an `if`
 *   RULES_DT, RULES_WORLD_W, RULES_WORLD_H, RULES_WORLD_D, RULES_EDGES, RULES_STEP
 *   RULES_SEED, RULES_SEED_HI  the world's seed, its low and high 32 bits (replica r's is the
 *                            seed + r: rules/common.h's noise())
 *   RULES_LOCAL(id), RULES_REPLICA(id)
 *                            a boid's place among its replica's boids, and its replica
 *   LANE_BIT(m)              1u where m, else 0u
 *   RULES_OBSTACLES          the obstacles in the world (all replicas')
 *   RULES_TOOL(field)        the mouse tool's field (boids_tool: kind, x, y, radius, strength)
 *   RULES_MODEL              the model stepping (== BOIDS_MODEL_<ID>: a constant on the GPU)
 *
 * Float constants carry an f (2.0f): a GCC vector meets only floats, and GLSL reads the suffix.
 * Integer constants carry a u where they meet a lane_u. */
#ifndef BOIDS_RULES_LANG_H
#define BOIDS_RULES_LANG_H

/* The world's dimension the rules are compiled for: 2 unless the unit says 3 (the CPU compiles
 * its rules once for each, cpu/lanes.h). */
#ifndef BOIDS_DIMS
#define BOIDS_DIMS 2
#endif

#if defined(BOIDS_GLSL)

#define lane_f float
#define lane_u uint
#define lane_m bool
#if BOIDS_DIMS == 3
#define lane_vec vec3
#define VEC(x, y, z) vec3(x, y, z)
#else
#define lane_vec vec2
#define VEC(x, y, z) vec2(x, y)
#endif
#define LANE_F(c) float(c)
#define LANE_U(c) uint(c)
#define LANE_TO_F(u) float(u)
#define SELECT(m, a, b) ((m) ? (a) : (b))
#define SELECT_M(m, a, b) ((m) ? (a) : (b))
#define MASK(x, m) ((m) ? (x) : 0.0f)
#define LANE_TRUE true
#define AND(a, b) ((a) && (b))
#define OR(a, b) ((a) || (b))
#define NOT(a) (!(a))
#define ANY(m) (m)
#define ABS(x) abs(x)
#define MIN(a, b) min(a, b)
#define MAX(a, b) max(a, b)
#define DIV(a, b) quotient(a, b)
#define SQRT(x) square_root(x)
#define FLOOR(x) floor(x)
#define BITS(x) floatBitsToUint(x)
#define FROM_BITS(u) uintBitsToFloat(u)
#define MAD(a, b, c) mul_add(a, b, c)
#define PRECISE precise
#define INOUT(type, name) inout type name
#define OUT(name) name
#define REF(name) name
#define RULES_STRUCT(name) struct name
#define RULES_STRUCT_END(name) ;
#define RULES_FN
#define RULES_CTX
#define RULES_PASS
#define RULES_CTX_ONLY
#define RULES_PASS_ONLY
#define RULES_CTX_UNUSED
#define RULES_UNUSED(x)
#define PARAM(p) frame.params.p
#define UNIFORM(p) frame.params.p
#define RULES_DT frame.dt
#define RULES_WORLD_W frame.world_w
#define RULES_WORLD_H frame.world_h
#define RULES_WORLD_D frame.world_d
#define RULES_EDGES uint(frame.params.base.edges)
#define RULES_SEED frame.seed
#define RULES_SEED_HI frame.seed_hi
#define RULES_STEP u_step
#define RULES_LOCAL(id) ((id) % frame.per_replica)
#define RULES_REPLICA(id) ((id) / frame.per_replica)
#define LANE_BIT(m) uint(m)
#define RULES_OBSTACLES frame.obstacle_count
#define RULES_TOOL(field) frame.tool.field
#define RULES_MODEL BOIDS_THIS_MODEL

#else /* C: the CPU backend's lanes */

/* Angle brackets: C only (cmake/embed_shaders.py blanks <...> includes in shaders). */
#include <boids.h>
#include <rules/simd.h>

/* What a rules function reads besides its lanes: the per-step block of the CPU. */
typedef struct boids_rules_ctx {
    const boids_params *params;
    const boids_tool *tool;              /* the mouse tool (frame.tool on the GPU) */
    float dt, world_w, world_h, world_d; /* world_d: 0 in a flat world */
    uint32_t seed;        /* the world's seed, its low 32 bits (frame.seed on the GPU) */
    uint32_t seed_hi;     /* and its high 32 bits (frame.seed_hi) */
    uint32_t step;        /* the step being computed */
    uint32_t per_replica; /* boids per replica */
    uint32_t obstacles;   /* obstacles in the world */
    boids_model model;
} boids_rules_ctx;

/* GLSL's scalar unsigned, for what is the same in every lane (a typedef of the same type as
 * <sys/types.h>'s, where that is included too). */
typedef unsigned int uint;

typedef struct lane_vec {
    boids_vf x, y;
#if BOIDS_DIMS == 3
    boids_vf z;
#endif
} lane_vec;
#define lane_f boids_vf
#define lane_u boids_vu
#define lane_m boids_vi
#if BOIDS_DIMS == 3
#define VEC(x, y, z) ((lane_vec){x, y, z})
#else
#define VEC(x, y, z) ((lane_vec){x, y})
#endif
#define LANE_F(c) boids_vf_all(c)
#define LANE_U(c) boids_vu_all(c)
#define LANE_TO_F(u) __builtin_convertvector((boids_vi)(u), boids_vf) /* counts below 2^31 */
#define SELECT(m, a, b) boids_vselect(m, a, b)
#define SELECT_M(m, a, b) (((m) & (a)) | (~(m) & (b)))
#define MASK(x, m) boids_vmask(x, m)
#define LANE_TRUE ((boids_vi)boids_vu_all(UINT32_MAX))
#define AND(a, b) ((a) & (b))
#define OR(a, b) ((a) | (b))
#define NOT(a) (~(a))
#define ANY(m) boids_vany(m)
#define ABS(x) boids_vabs(x)
#define MIN(a, b) boids_vselect((b) < (a), b, a) /* GLSL's min: b only where b < a */
#define MAX(a, b) boids_vselect((a) < (b), b, a)
#define DIV(a, b) ((a) / (b))
#define SQRT(x) boids_vsqrt(x)
#define FLOOR(x) boids_vfloor(x)
#define BITS(x) ((boids_vu)(x)) /* a vector cast keeps the bits */
#define FROM_BITS(u) ((boids_vf)(u))
#define MAD(a, b, c) ((a) * (b) + (c))
#define PRECISE
#define INOUT(type, name) type *name
#define OUT(name) (*name)
#define REF(name) (&name)
#define RULES_STRUCT(name) typedef struct name
#define RULES_STRUCT_END(name) name;
#define RULES_FN BOIDS_VINLINE
#define RULES_CTX const boids_rules_ctx *ctx,
#define RULES_PASS ctx,
#define RULES_CTX_ONLY const boids_rules_ctx *ctx
#define RULES_PASS_ONLY ctx
#define RULES_CTX_UNUSED (void)ctx
#define RULES_UNUSED(x) (void)(x)
#define PARAM(p) boids_vf_all(ctx->params->p)
#define UNIFORM(p) (ctx->params->p)
#define RULES_DT boids_vf_all(ctx->dt)
#define RULES_WORLD_W boids_vf_all(ctx->world_w)
#define RULES_WORLD_H boids_vf_all(ctx->world_h)
#define RULES_WORLD_D boids_vf_all(ctx->world_d)
#define RULES_EDGES ((uint32_t)ctx->params->base.edges)
#define RULES_SEED ctx->seed
#define RULES_SEED_HI ctx->seed_hi
#define RULES_STEP ctx->step
#define RULES_LOCAL(id) ((id) % ctx->per_replica)
#define RULES_REPLICA(id) ((id) / ctx->per_replica)
#define LANE_BIT(m) (-(boids_vu)(m)) /* (a mask is -1 or 0: n += LANE_BIT(m) is n -= m) */
#define RULES_OBSTACLES ctx->obstacles
#define RULES_TOOL(field) (ctx->tool->field)
#define RULES_MODEL ctx->model

#endif

#endif
