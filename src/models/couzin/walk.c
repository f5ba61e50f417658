/* couzin (docs/models.md (couzin)), the CPU's walk: the rules are rules.h beside it, shared
 * with the GPU; the zones are couzin's own walk (src/models/couzin/walk.glsl is the GPU's), so this
 * file gathers couzin_sums over the others an individual perceives: the unit vectors towards those
 * in the zone of repulsion (eq. 1) and the zone of attraction (eq. 3), the headings of those in the
 * zone of orientation (eq. 2), each sum in the candidates' order with the shader's operations.
 * With several swarms, an individual is repelled by everyone and orients to and is attracted by
 * its own swarm only (as the Reynolds walk's separation and flocking).
 * Each boid walks alone (the zones' three-way branch); up to BOIDS_LANES walked boids then take
 * their rules together on the lanes. In a world of nearest:K, the zones of orientation and
 * attraction hold the K nearest perceived beyond r_r instead (cpu/nearest.h), whatever their
 * distance; the zone of repulsion stays metric.
 *
 * The generated unit of the rules includes this file once per dimension (cmake/glsl_gen.c):
 * boids_cpu_rules_couzin for flat worlds, boids_cpu_rules3_couzin for 3D ones. */
#include <math.h>

#include "cpu/lanes.h"
#include "models/couzin/rules.h"

#define THREE (BOIDS_DIMS == 3)

/* A walk's sums: eq. 1's, 2's and 3's, and how many are in each zone. */
typedef struct couzin_acc {
    float rep[3], ori[3], att[3];
    uint32_t n_r, n_o, n_a;
} couzin_acc;

/* sum += the unit vector along (dx, dy, dz), of squared length d2 > 0: one division, then
 * products (as the shader). */
static inline void add_unit(float sum[3], float dx, float dy, float dz, float d2)
{
    const float inv = 1.0f / sqrtf(d2);
    sum[0] += dx * inv, sum[1] += dy * inv;
    if (THREE) sum[2] += dz * inv;
}

/* A perceived neighbour beyond r_r, at offset (dx, dy, dz) with velocity v: into the zone of
 * orientation (its heading; one at rest has none to add) or of attraction. */
static inline void add_beyond(couzin_acc *a, bool orient, float dx, float dy, float dz, float d2,
                              float vx, float vy, float vz)
{
    if (!orient) {
        add_unit(a->att, dx, dy, dz, d2);
        a->n_a++;
        return;
    }
    const float v2 = boids_length2(vx, vy, vz);
    a->n_o++;
    if (v2 > 0.0f) add_unit(a->ori, vx, vy, vz, v2);
}

/* Lane l of m: the sums of the boid in slot over the others it perceives: within r_a, or with
 * nearest:K everyone within r_r and its K nearest perceived beyond. */
static void couzin_walk(const boids_cpu_step *s, const couzin_zones *z, uint32_t slot,
                        couzin_sums *m, uint32_t l)
{
    const float *cvx = s->cand.vx, *cvy = s->cand.vy, *cvz = s->cand.vz;
    const uint32_t *cid = s->cand.id, *cswarm = s->cand.swarm;
    const uint32_t id = cid[slot], swarm = cswarm[slot];
    const float x = s->cand.x[slot], y = s->cand.y[slot], vx0 = cvx[slot], vy0 = cvy[slot];
    const float z0 = THREE ? s->cand.z[slot] : 0.0f, vz0 = THREE ? cvz[slot] : 0.0f;
    const bool blind_rep = s->params->couzin.blind_repulsion != 0.0f;
    const uint32_t nearest = s->sim->def.nearest;
    couzin_acc a = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, 0, 0, 0};
    boids_cpu_ranges r;
    boids_cpu_candidates(s, slot, &r);
    for (uint32_t q = 0; q < r.count; ++q) {
        for (uint32_t j = r.begin[q]; j < r.end[q]; ++j) {
            if (cid[j] == id) continue;
            float dx, dy;
            boids_cand_offset(s, x, y, j, &dx, &dy);
            const float dz = THREE ? boids_cand_offset_z(s, z0, j) : 0.0f;
            const float d2 = boids_length2(dx, dy, dz);
            if (!(d2 > 0.0f && d2 < z->ra2)) continue;
            const bool rep = d2 < z->rr2;
            if (!rep && (nearest || cswarm[j] != swarm))
                continue; /* another swarm, or the nearest's to come: repulsion only */
            if ((blind_rep || !rep) && !boids_in_view(vx0, vy0, vz0, dx, dy, dz, d2, z->cos_view))
                continue; /* in the blind volume */
            if (rep) {
                add_unit(a.rep, dx, dy, dz, d2);
                a.n_r++;
            } else {
                add_beyond(&a, d2 < z->ro2, dx, dy, dz, d2, cvx[j], cvy[j], THREE ? cvz[j] : 0.0f);
            }
        }
    }
    if (nearest) { /* orientation and attraction: the K nearest perceived beyond r_r, nearest
                      first, with no outer limit */
        const boids_nearest_filter f = {z->rr2, true, z->cos_view};
        boids_nearest nb;
        boids_cpu_nearest(s, slot, nearest, &f, &nb);
        for (uint32_t i = 0; i < nb.n; ++i) {
            const uint32_t j = nb.slot[i];
            float dx, dy;
            boids_cand_offset(s, x, y, j, &dx, &dy);
            const float dz = THREE ? boids_cand_offset_z(s, z0, j) : 0.0f;
            add_beyond(&a, nb.d2[i] < z->ro2, dx, dy, dz, nb.d2[i], cvx[j], cvy[j],
                       THREE ? cvz[j] : 0.0f);
        }
    }
    m->rep_x[l] = a.rep[0], m->rep_y[l] = a.rep[1], m->rep_z[l] = a.rep[2];
    m->ori_x[l] = a.ori[0], m->ori_y[l] = a.ori[1], m->ori_z[l] = a.ori[2];
    m->att_x[l] = a.att[0], m->att_y[l] = a.att[1], m->att_z[l] = a.att[2];
    m->n_r[l] = a.n_r, m->n_o[l] = a.n_o, m->n_a[l] = a.n_a;
}

BOIDS_CPU_EACH_WALK_RULES(couzin, couzin_sums, couzin_zones, couzin_zones_of, couzin_walk)

#undef THREE
