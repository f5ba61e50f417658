/* What the CPU's walks and rules see for one step: the candidates, the per-backend helpers (the
 * external-force hook, the move through the edges) and the scalar vector helpers of the walks
 * and the predators. The models' rules themselves are src/rules/, one source for both backends
 * (run on lanes by cpu/lanes.h). Each helper here has a twin of the same arithmetic in
 * shaders/steer_common.glsl or in the rules (test_simd holds the scalar ones equal to the
 * rules' lanes), so both backends agree bit for bit where the GPU rounds as IEEE does
 * (llvmpipe).
 *
 * Synchronous update: every boid reads step t (the candidate arrays) and writes step t+1 (the out
 * arrays) in its own slot: a thread's stores fill cache lines of its own, and the next step reads
 * them nearly in order (see cpu_backend.c). Neighbour candidates come as slot ranges into cand:
 * the cells of the block around the boid in the canonical order (cells next to each other in
 * memory merged into one range), or every boid for brute force. Rules loop over them the way the
 * shaders do, so both backends add neighbours up in the same order. */
#ifndef BOIDS_CPU_STEER_H
#define BOIDS_CPU_STEER_H

#include <math.h>
#include <string.h>

#include "core/backend.h"
#include "cpu/event_sink.h"
#include "cpu/grid.h"
#include "cpu/neighbors.h"
#include "cpu/step.h"
#include "rules/common.h"

/* One rules function per manifest line's `rules`: computes step t+1 of the boids in candidate
 * slots [begin, end). */
typedef void (*boids_cpu_rules_fn)(const boids_cpu_step *s, uint32_t begin, uint32_t end);
#define BOIDS_X_RULES_DECL(ID, name, time, blocks, rules, ...)                                     \
    void boids_cpu_rules_##rules(const boids_cpu_step *s, uint32_t begin, uint32_t end);           \
    void boids_cpu_rules3_##rules(const boids_cpu_step *s, uint32_t begin, uint32_t end);
BOIDS_MODEL_LIST(BOIDS_X_RULES_DECL)
#undef BOIDS_X_RULES_DECL
/* The rules of a 3D world, by model. The generated unit of the rules compiled with BOIDS_DIMS 3
 * holds it. */
extern const boids_cpu_rules_fn boids_cpu_rules3[BOIDS_MODEL_COUNT];

/* Models with predators: the catches at the start of a step, found over boid ids [begin, end)
 * (listed in s->catches; cpu/hunt.c), then made so, up to stop_after_catches (one thread; the
 * replicas then stop; cpu/predators.c); and the predators' steering over predator slots
 * [begin, end) of s->pred (cpu/hunt.c). cpu/hunt.c is compiled with the rules for each
 * dimension: boids_cpu_catch3 and boids_cpu_hunt3 are a 3D world's. */
void boids_cpu_catch(const boids_cpu_step *s, uint32_t begin, uint32_t end);
void boids_cpu_catch3(const boids_cpu_step *s, uint32_t begin, uint32_t end);
void boids_cpu_apply_catches(const boids_cpu_step *s);
void boids_cpu_hunt(const boids_cpu_step *s, uint32_t begin, uint32_t end);
void boids_cpu_hunt3(const boids_cpu_step *s, uint32_t begin, uint32_t end);

/* Records an event of this step (thread-safe; the world sorts them when they are taken). */
static inline void boids_cpu_emit(const boids_cpu_step *s, uint32_t kind, uint32_t subject,
                                  uint32_t other, float v0, float v1, float v2, float v3)
{
    const boids_event e = {kind, s->step, subject, other, {v0, v1, v2, v3}};
    boids_cpu_event_record(s->events, &e);
}

/* ---- candidates ------------------------------------------------------------------------------ */

/* (Their ranges, the lane groups and the obstacles' push: cpu/neighbors.h.) */

/* Where the lanes of a group stand, and the world, for the offsets to their candidates (the lane
 * walks: walk_reynolds.c, models/kit/walk.c). */
typedef struct boids_lane_origin {
    boids_vf x, y, z;          /* the group's boids (z: a 3D world's) */
    float w, h, d, hw, hh, hd; /* the world's sizes, and half of each where it wraps */
    const float *cx, *cy, *cz; /* the candidates' positions */
} boids_lane_origin;
/* The origin of the group of `lanes` boids from slot on (`three`: a 3D world's). */
BOIDS_VINLINE boids_lane_origin boids_lane_origin_at(const boids_cpu_step *s, uint32_t slot,
                                                     uint32_t lanes, const bool three)
{
    const boids_sim *sim = s->sim;
    return (boids_lane_origin){boids_vf_load(s->cand.x + slot, lanes, 0.0f),
                               boids_vf_load(s->cand.y + slot, lanes, 0.0f),
                               three ? boids_vf_load(s->cand.z + slot, lanes, 0.0f)
                                     : boids_vf_all(0.0f),
                               sim->def.width,
                               sim->def.height,
                               sim->def.depth,
                               sim->half_w,
                               sim->half_h,
                               sim->half_d,
                               s->cand.x,
                               s->cand.y,
                               s->cand.z};
}

/* The offsets from the lanes to candidate k, and their squared length, added as the rules'
 * length2() adds (z's square into y's first). `unwrapped` (boids_cpu_group's) and `three` are
 * constants where this is inlined. */
typedef struct boids_lane_offset {
    boids_vf dx, dy, dz, d2;
} boids_lane_offset;
BOIDS_VINLINE boids_lane_offset boids_lane_offset_to(const boids_lane_origin *o, uint32_t k,
                                                     const bool unwrapped, const bool three)
{
    boids_lane_offset r;
    r.dx = unwrapped ? boids_vf_all(o->cx[k]) - o->x
                     : boids_vmin_image(o->x, boids_vf_all(o->cx[k]), o->w, o->hw);
    r.dy = unwrapped ? boids_vf_all(o->cy[k]) - o->y
                     : boids_vmin_image(o->y, boids_vf_all(o->cy[k]), o->h, o->hh);
    if (three) {
        r.dz = unwrapped ? boids_vf_all(o->cz[k]) - o->z
                         : boids_vmin_image(o->z, boids_vf_all(o->cz[k]), o->d, o->hd);
        r.d2 = r.dx * r.dx + (r.dy * r.dy + r.dz * r.dz);
    } else {
        r.dz = boids_vf_all(0.0f);
        r.d2 = r.dx * r.dx + r.dy * r.dy;
    }
    return r;
}

/* The Reynolds walk (walk_reynolds.c): a boid's sums over its neighbours within the radii a
 * model's rules give (reynolds_radii, rules/common.h), separation over every swarm, alignment and
 * cohesion over its own. */
typedef struct boids_cpu_sums {
    float sep_x, sep_y; /* sum of -(dx, dy) / d^2 (sep_raw: of -(dx, dy)) */
    float ali_x, ali_y; /* sum of the neighbours' velocities */
    float coh_x, coh_y; /* sum of the offsets to them (minimum image) */
    uint32_t sep_n, ali_n, coh_n;
    float sep_z, ali_z, coh_z; /* a 3D world's (0 in a flat one) */
} boids_cpu_sums;
/* The sums of a lane group, lane l for the boid in slot + l: structure of arrays, so the lane
 * walk stores its vectors whole and a steering on lanes loads them whole. Lanes past the group's
 * hold zeros. */
typedef struct boids_cpu_lane_sums {
    _Alignas(32) float sep_x[BOIDS_GROUP_MAX];
    float sep_y[BOIDS_GROUP_MAX], ali_x[BOIDS_GROUP_MAX], ali_y[BOIDS_GROUP_MAX],
        coh_x[BOIDS_GROUP_MAX], coh_y[BOIDS_GROUP_MAX];
    uint32_t sep_n[BOIDS_GROUP_MAX], ali_n[BOIDS_GROUP_MAX], coh_n[BOIDS_GROUP_MAX];
    float sep_z[BOIDS_GROUP_MAX], ali_z[BOIDS_GROUP_MAX], coh_z[BOIDS_GROUP_MAX]; /* 3D only */
} boids_cpu_lane_sums;
static inline boids_cpu_sums boids_cpu_lane(const boids_cpu_lane_sums *m, uint32_t l)
{
    return (boids_cpu_sums){m->sep_x[l], m->sep_y[l], m->ali_x[l], m->ali_y[l],
                            m->coh_x[l], m->coh_y[l], m->sep_n[l], m->ali_n[l],
                            m->coh_n[l], m->sep_z[l], m->ali_z[l], m->coh_z[l]};
}
/* The sums of the boids from slot on (a lane group, or the one boid in lane 0); returns how many
 * boids that was (at least 1, at most BOIDS_GROUP_MAX). */
uint32_t boids_cpu_walk_reynolds(const boids_cpu_step *s, uint32_t slot, uint32_t end,
                                 const reynolds_radii *radii, boids_cpu_lane_sums *out);

/* The replica of boid id, and whether it stopped (stop_after_catches). */
static inline uint32_t boids_cpu_replica(const boids_cpu_step *s, uint32_t id)
{
    return id / s->sim->per_replica;
}
static inline bool boids_cpu_stopped(const boids_cpu_step *s, uint32_t replica)
{
    return s->replicas && s->replicas[replica].stop_step != BOIDS_RUNNING;
}

/* Offset from (x, y) to candidate k, minimum-image where the world wraps (geometry.h). */
static inline void boids_cand_offset(const boids_cpu_step *s, float x, float y, uint32_t k,
                                     float *dx, float *dy)
{
    *dx = boids_min_image(x, s->cand.x[k], s->sim->def.width, s->sim->half_w);
    *dy = boids_min_image(y, s->cand.y[k], s->sim->def.height, s->sim->half_h);
}
/* ... and along z, in a 3D world. */
static inline float boids_cand_offset_z(const boids_cpu_step *s, float z, uint32_t k)
{
    return boids_min_image(z, s->cand.z[k], s->sim->def.depth, s->sim->half_d);
}

/* |(dx, dy, dz)|^2 for the scalar walks (kit's lone boids, the predators), added as the rules'
 * length2() adds it: z's square into y's first in a unit of 3D rules (BOIDS_DIMS 3), dz left out
 * in a flat one. */
static inline float boids_length2(float dx, float dy, float dz)
{
#if BOIDS_DIMS == 3
    return dx * dx + (dy * dy + dz * dz);
#else
    (void)dz;
    return dx * dx + dy * dy;
#endif
}

/* Offset from (x, y, z) to predator slot j, as boids_cand_offset (*dz = 0 in a unit of flat
 * rules). */
static inline void boids_pred_offset(const boids_cpu_step *s, float x, float y, float z, uint32_t j,
                                     float *dx, float *dy, float *dz)
{
    *dx = boids_min_image(x, s->pred.x[j], s->sim->def.width, s->sim->half_w);
    *dy = boids_min_image(y, s->pred.y[j], s->sim->def.height, s->sim->half_h);
#if BOIDS_DIMS == 3
    *dz = boids_min_image(z, s->pred.z[j], s->sim->def.depth, s->sim->half_d);
#else
    (void)z;
    *dz = 0.0f;
#endif
}

/* ---- attributes ------------------------------------------------------------------------------ */

static inline float boids_cpu_attr_float(const boids_cpu_step *s, boids_attribute a, uint32_t id)
{
    float f;
    memcpy(&f, &s->attr[a][id], sizeof f);
    return f;
}

static inline void boids_cpu_set_attr_float(const boids_cpu_step *s, boids_attribute a, uint32_t id,
                                            float v)
{
    memcpy(&s->attr[a][id], &v, sizeof v);
}

/* ---- vector helpers -------------------------------------------------------------------------- */

/* The rules' vector helpers (rules/common.h) on one float pair, on a lane of their own, for
 * scalar callers (the tests' checks): one arithmetic for every caller. */
static inline void boids_set_length(float *x, float *y, float len)
{
    const lane_vec v =
        set_length(VEC(boids_vf_all(*x), boids_vf_all(*y), boids_vf_all(0.0f)), boids_vf_all(len));
    *x = v.x[0], *y = v.y[0];
}

static inline void boids_limit(float *x, float *y, float m)
{
    const lane_vec v =
        limit_length(VEC(boids_vf_all(*x), boids_vf_all(*y), boids_vf_all(0.0f)), boids_vf_all(m));
    *x = v.x[0], *y = v.y[0];
}

/* x where keep is 1, +0.0 where it is 0, without a branch. Adding a masked +0 to a sum leaves its
 * bits unchanged, so masked sums equal the branchy ones (and the shaders') bit for bit. */
static inline float boids_mask(float x, int keep)
{
    union {
        float f;
        uint32_t u;
    } v = {x};
    v.u &= 0u - (uint32_t)keep;
    return v.f;
}

static inline float boids_cos_deg(float deg) { return cos_deg(boids_vf_all(deg))[0]; }

/* Whether offset (dx, dy, dz) (d2 = its squared length, > 0) is within half-angle alpha of heading
 * (vx, vy, vz), alpha given by c = cos(alpha): the angle between them is at most alpha, a cone
 * around the heading in 3D. Compared in squares, no sqrt, no division; a boid at rest sees all
 * around (its heading is undefined). The scalar twin of the rules' in_view() (rules/common.h),
 * for the inner loops of the scalar walks (kit's lone boids, the predators), where a lane of its
 * own would cost; test_simd holds the two equal (flat), test_agreement's kit in 3D the 3D ones (a
 * lone boid's walk against the shader's). A unit of flat rules leaves vz and dz out. */
static inline bool boids_in_view(float vx, float vy, float vz, float dx, float dy, float dz,
                                 float d2, float c)
{
    float v2 = boids_length2(vx, vy, vz);
    if (!(v2 > 0.0f) || c <= -1.0f) return true; /* at rest, or a cone all round */
#if BOIDS_DIMS == 3
    float dot = vx * dx + (vy * dy + vz * dz);
#else
    (void)vz, (void)dz;
    float dot = vx * dx + vy * dy;
#endif
    float lhs = dot * dot, rhs = c * c * v2 * d2;
    return c >= 0.0f ? dot >= 0.0f && lhs >= rhs : dot >= 0.0f || lhs <= rhs;
}

/* ---- what every model shares ----------------------------------------------------------------- */

/* The external-force hook: the forces from outside the flock on boid `id` at (x, y), which every
 * model adds to its own steering where its update takes a force: the obstacles' push (eq. 4 of
 * the kit paper: obstacle_factor times the sum of the unit vectors from the centres within
 * obstacle_radius), unless the model's rules treat obstacles themselves; and the mouse tool
 * (boids_tool in boids_values.h): the rules' tool_reaches and tool_force (rules/common.h) at the
 * minimum-image offset; a boid the tool reaches also reports a BOIDS_EVENT_TOOL event. As
 * external_force() in steer_common.glsl. A unit of 3D rules (BOIDS_DIMS 3) reads z and sets *fz
 * too (the tool at its depth, the obstacles' push from spheres); a flat one leaves them alone. */
static inline void boids_cpu_external_force(const boids_cpu_step *s, uint32_t id, float x, float y,
                                            float z, float *fx, float *fy, float *fz)
{
    const boids_tool *t = &s->sim->tool;
    float pz = 0.0f; /* the push's z (a 3D world's) */
    *fx = *fy = 0.0f;
#if BOIDS_DIMS == 3
    *fz = 0.0f;
#else
    (void)fz;
#endif
    if (s->sim->obstacle_push) {
        float ox, oy, oz;
        boids_cpu_obstacle_push(s, boids_cpu_replica(s, id), x, y, z,
                                s->params->obstacles.obstacle_radius, false, &ox, &oy, &oz);
        *fx = ox * s->params->obstacles.obstacle_factor;
        *fy = oy * s->params->obstacles.obstacle_factor;
        pz = oz * s->params->obstacles.obstacle_factor;
#if BOIDS_DIMS == 3
        *fz = pz;
#endif
    }
    if (t->kind == BOIDS_TOOL_NONE) return;
    const boids_rules_ctx ctx = {.tool = t};
    const float dx = boids_min_image(x, t->x, s->sim->def.width, s->sim->half_w);
    const float dy = boids_min_image(y, t->y, s->sim->def.height, s->sim->half_h);
#if BOIDS_DIMS == 3
    const float dz = boids_min_image(z, t->z, s->sim->def.depth, s->sim->half_d);
    const float dist = sqrtf(dx * dx + (dy * dy + dz * dz)); /* (as the rules' length2) */
#else
    const float dist = sqrtf(dx * dx + dy * dy);
#endif
    const lane_vec d = VEC(boids_vf_all(dx), boids_vf_all(dy), boids_vf_all(dz));
    if (!tool_reaches(&ctx, d)[0]) return;
    if (s->sim->def.event_mask & (1u << BOIDS_EVENT_TOOL))
        boids_cpu_emit(s, BOIDS_EVENT_TOOL, id, 0, dist, 0.0f, 0.0f, 0.0f);
    const lane_vec f =
        tool_force(&ctx, d, VEC(boids_vf_all(*fx), boids_vf_all(*fy), boids_vf_all(pz)));
    (void)pz; /* (a flat world's VEC leaves it out) */
    *fx = f.x[0], *fy = f.y[0];
#if BOIDS_DIMS == 3
    *fz = f.z[0];
#endif
}

/* Reynolds' speed limits (the rules' speed_limits(), rules/common.h), for the predators. */
static inline void boids_cpu_speed_limits(float *vx, float *vy, float vmin, float vmax)
{
    const lane_vec v = speed_limits(VEC(boids_vf_all(*vx), boids_vf_all(*vy), boids_vf_all(0.0f)),
                                    boids_vf_all(vmin), boids_vf_all(vmax));
    *vx = v.x[0], *vy = v.y[0];
}

#endif
