/* The CPU's pair walk (rules/common.h, "the pair walk"; shaders/walk_pairs.glsl is the GPU's): a
 * boid's sums over its candidates within the model's reach, and in a world of nearest:K over its
 * K nearest (cpu/nearest.h), each pair's terms from the model's <rules>_pair. Each boid walks
 * alone: its candidates are tested one at a time against the reach (most of a block's are beyond
 * it), those within are queued in the candidates' order, and each full queue runs the pair rule
 * on the lanes (its square roots and divisions BOIDS_LANES pairs at once); the terms are then
 * added to the sums one pair after another, in the candidates' order, as the shader adds them, so
 * the sums are the shader's bits. Up to BOIDS_LANES walked boids then take their rules together
 * on the lanes (<rules>_steer).
 *
 * Included by the generated units of the rules (cmake/glsl_gen.c), so compiled once per dimension
 * with them (BOIDS_DIMS). */
#ifndef BOIDS_CPU_WALK_PAIRS_H
#define BOIDS_CPU_WALK_PAIRS_H

#include "cpu/lanes.h"
#include "cpu/nearest.h"
#include "rules/common.h"

/* The walking boid: its position, its velocity (on every lane, for the rule) and its swarm. */
typedef struct boids_pair_boid {
    float x, y, z;
    lane_vec v;
    uint32_t swarm;
} boids_pair_boid;

static inline boids_pair_boid boids_pair_boid_at(const boids_cpu_step *s, uint32_t slot)
{
    boids_pair_boid b;
    b.x = s->cand.x[slot], b.y = s->cand.y[slot];
    b.z = BOIDS_DIMS == 3 ? s->cand.z[slot] : 0.0f;
    b.v = VEC(boids_vf_all(s->cand.vx[slot]), boids_vf_all(s->cand.vy[slot]),
              boids_vf_all(BOIDS_DIMS == 3 ? s->cand.vz[slot] : 0.0f));
    b.swarm = s->cand.swarm[slot];
    return b;
}

/* The pairs that add, queued in their order until they fill the lanes, so that the pair rule
 * runs on full groups of pairs that count (taken 8 candidates at a time as they come, the rule
 * ran on lanes mostly idle, and couzin's walk was a third slower than the scalar one it
 * replaced). */
typedef struct boids_pair_queue {
    float dx[BOIDS_LANES], dy[BOIDS_LANES], dz[BOIDS_LANES], d2[BOIDS_LANES];
    float vx[BOIDS_LANES], vy[BOIDS_LANES], vz[BOIDS_LANES];
    int32_t same[BOIDS_LANES];
    uint32_t n;
} boids_pair_queue;

/* The boid's pair with candidate slot k, at offset (dx, dy, dz) of squared length d2, queued;
 * whether the queue is full. */
BOIDS_VINLINE bool boids_pair_queue_put(boids_pair_queue *q, const boids_cpu_step *s,
                                        const boids_pair_boid *b, uint32_t k, float dx, float dy,
                                        float dz, float d2)
{
    const uint32_t i = q->n++;
    q->dx[i] = dx, q->dy[i] = dy, q->dz[i] = dz, q->d2[i] = d2;
    q->vx[i] = s->cand.vx[k], q->vy[i] = s->cand.vy[k];
    q->vz[i] = BOIDS_DIMS == 3 ? s->cand.vz[k] : 0.0f;
    q->same[i] = s->cand.swarm[k] == b->swarm ? -1 : 0;
    return q->n == BOIDS_LANES;
}

/* Candidate slot k, queued where it is within the reach (the boid itself and coincident boids,
 * at d2 = 0, are not): its offset and squared length as the shader computes them. Whether the
 * queue is full. */
BOIDS_VINLINE bool boids_pair_queue_offer(boids_pair_queue *q, const boids_cpu_step *s,
                                          const boids_pair_boid *b, uint32_t k, float reach2)
{
    float dx, dy, dz = 0.0f;
    boids_cand_offset(s, b->x, b->y, k, &dx, &dy);
#if BOIDS_DIMS == 3
    dz = boids_cand_offset_z(s, b->z, k);
#endif
    const float d2 = boids_length2(dx, dy, dz);
    return d2 > 0.0f && d2 < reach2 && boids_pair_queue_put(q, s, b, k, dx, dy, dz, d2);
}

/* Entry i of the nearest list, queued with the search's squared distance; whether the queue is
 * full. */
BOIDS_VINLINE bool boids_pair_queue_listed(boids_pair_queue *q, const boids_cpu_step *s,
                                           const boids_pair_boid *b, const boids_nearest *nb,
                                           uint32_t i)
{
    const uint32_t k = nb->slot[i];
    float dx, dy, dz = 0.0f;
    boids_cand_offset(s, b->x, b->y, k, &dx, &dy);
#if BOIDS_DIMS == 3
    dz = boids_cand_offset_z(s, b->z, k);
#endif
    return boids_pair_queue_put(q, s, b, k, dx, dy, dz, nb->d2[i]);
}

/* The queued pairs as lanes, whole: lanes past the queue's hold an earlier pair's values, or the
 * zeros the queue began with (boids_pair_queue_start), finite either way and never added (a load
 * of the queue's count, lane by lane, cost gregoire-chate's walk a tenth). */
BOIDS_VINLINE rules_pair boids_pair_queue_lanes(const boids_pair_queue *q, const boids_pair_boid *b)
{
    rules_pair p;
    p.d = VEC(boids_vf_load(q->dx, BOIDS_LANES, 0.0f), boids_vf_load(q->dy, BOIDS_LANES, 0.0f),
              boids_vf_load(q->dz, BOIDS_LANES, 0.0f));
    p.d2 = boids_vf_load(q->d2, BOIDS_LANES, 0.0f);
    p.v = VEC(boids_vf_load(q->vx, BOIDS_LANES, 0.0f), boids_vf_load(q->vy, BOIDS_LANES, 0.0f),
              boids_vf_load(q->vz, BOIDS_LANES, 0.0f));
    p.me = b->v;
    p.same = (boids_vi)boids_vu_load((const uint32_t *)q->same, BOIDS_LANES, 0);
    return p;
}

/* An empty queue, every lane's values 0 (once for a group of walks: each walk empties it). */
BOIDS_VINLINE void boids_pair_queue_start(boids_pair_queue *q) { memset(q, 0, sizeof *q); }

/* The walk's sums, one float or count per field of the model's sums (a Z field: 3D only). */
#define BOIDS_PAIR_MEMBER_F(f) float f;
#define BOIDS_PAIR_MEMBER_U(f) uint32_t f;
#if BOIDS_DIMS == 3
#define BOIDS_PAIR_ADD_Z BOIDS_PAIR_ADD_F
#define BOIDS_PAIR_STORE_Z BOIDS_PAIR_STORE_F
#else
#define BOIDS_PAIR_ADD_Z(f)
#define BOIDS_PAIR_STORE_Z(f)
#endif
/* lane l of a pair's terms t added */
#define BOIDS_PAIR_ADD_F(f) acc->f += t.f[l];
#define BOIDS_PAIR_ADD_U(f) acc->f += t.f[l];
/* into lane `lane` of the sums m */
#define BOIDS_PAIR_STORE_F(f) m->f[lane] = acc.f;
#define BOIDS_PAIR_STORE_U(f) m->f[lane] = acc.f;

/* The CPU rules of a model with a pair rule (BOIDS_FEATURE_PAIR_RULE): each boid's walk into lane
 * `lane` of m, then the rules of up to BOIDS_LANES walked boids on the lanes, and the move (the
 * lane function compiled for each instruction set). Its types are <rules>_zones and <rules>_sums.
 */
#define BOIDS_CPU_PAIR_RULES(rules)                                                                \
    typedef struct rules##_acc {                                                                   \
        rules##_sums_fields(BOIDS_PAIR_MEMBER_F, BOIDS_PAIR_MEMBER_U, BOIDS_PAIR_MEMBER_F)         \
    } rules##_acc;                                                                                 \
    /* the queued pairs' terms added, in their order, and the queue emptied */                     \
    BOIDS_VINLINE void rules##_take(const boids_rules_ctx *ctx, const rules##_zones *z,            \
                                    boids_pair_queue *pq, const boids_pair_boid *b,                \
                                    uint32_t phase, rules##_acc *acc)                              \
    {                                                                                              \
        const rules##_sums t = rules##_pair(ctx, *z, boids_pair_queue_lanes(pq, b), phase);        \
        for (uint32_t l = 0; l < pq->n; ++l) {                                                     \
            rules##_sums_fields(BOIDS_PAIR_ADD_F, BOIDS_PAIR_ADD_U, BOIDS_PAIR_ADD_Z);             \
        }                                                                                          \
        pq->n = 0;                                                                                 \
    }                                                                                              \
    BOIDS_VINLINE void rules##_walk(const boids_cpu_step *s, const boids_rules_ctx *ctx,           \
                                    const rules##_zones *z, const rules_pair_reach *reach,         \
                                    boids_pair_queue *pq, uint32_t slot, rules##_sums *m,          \
                                    uint32_t lane)                                                 \
    {                                                                                              \
        rules##_acc acc;                                                                           \
        memset(&acc, 0, sizeof acc);                                                               \
        const boids_pair_boid b = boids_pair_boid_at(s, slot);                                     \
        const uint32_t nearest = s->sim->def.nearest;                                              \
        const uint32_t phase = nearest ? RULES_PAIR_BESIDE : RULES_PAIR_METRIC;                    \
        boids_cpu_ranges r;                                                                        \
        boids_cpu_candidates(s, slot, &r);                                                         \
        for (uint32_t q = 0; q < r.count; ++q)                                                     \
            for (uint32_t k = r.begin[q]; k < r.end[q]; ++k)                                       \
                if (boids_pair_queue_offer(pq, s, &b, k, reach->reach2))                           \
                    rules##_take(ctx, z, pq, &b, phase, &acc);                                     \
        if (pq->n) rules##_take(ctx, z, pq, &b, phase, &acc);                                      \
        if (nearest) { /* the K nearest that pass the filter, nearest first */                     \
            const boids_nearest_filter f = {reach->nearest_min2, reach->nearest_view,              \
                                            reach->cos_view};                                      \
            boids_nearest nb;                                                                      \
            boids_cpu_nearest(s, slot, nearest, &f, &nb);                                          \
            for (uint32_t i = 0; i < nb.n; ++i)                                                    \
                if (boids_pair_queue_listed(pq, s, &b, &nb, i))                                    \
                    rules##_take(ctx, z, pq, &b, RULES_PAIR_NEAREST, &acc);                        \
            if (pq->n) rules##_take(ctx, z, pq, &b, RULES_PAIR_NEAREST, &acc);                     \
        }                                                                                          \
        rules##_sums_fields(BOIDS_PAIR_STORE_F, BOIDS_PAIR_STORE_U, BOIDS_PAIR_STORE_Z);           \
    }                                                                                              \
    BOIDS_SIMD_CLONES static void rules##_group(const boids_cpu_step *s, uint32_t slot,            \
                                                uint32_t lanes, const rules##_zones *z,            \
                                                const rules_pair_reach *reach)                     \
    {                                                                                              \
        const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);                                        \
        rules##_sums m;                                                                            \
        memset(&m, 0, sizeof m); /* every sum and count 0, in every lane */                        \
        boids_pair_queue q;                                                                        \
        boids_pair_queue_start(&q);                                                                \
        for (uint32_t l = 0; l < lanes; ++l) rules##_walk(s, &ctx, z, reach, &q, slot + l, &m, l); \
        const rules_boid b = boids_cpu_lane_boids(s, slot, lanes);                                 \
        const rules_boid next = rules##_steer(&ctx, m, b);                                         \
        boids_cpu_lane_store(s, slot, lanes, &b, &next);                                           \
    }                                                                                              \
    void BOIDS_CPU_RULES_FN(rules)(const boids_cpu_step *s, uint32_t begin, uint32_t end)          \
    {                                                                                              \
        const boids_rules_ctx ctx = boids_cpu_rules_ctx(s);                                        \
        const rules##_zones z = rules##_zones_of(&ctx);                                            \
        const rules_pair_reach reach = rules##_reach(z);                                           \
        for (uint32_t slot = begin; slot < end;) {                                                 \
            const uint32_t lanes = end - slot < BOIDS_LANES ? end - slot : BOIDS_LANES;            \
            rules##_group(s, slot, lanes, &z, &reach);                                             \
            slot += lanes;                                                                         \
        }                                                                                          \
    }

#endif
