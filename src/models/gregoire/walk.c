/* gregoire-chate (docs/models.md (gregoire-chate)), the CPU's walk: the rules are rules.h beside
 * it, shared with the GPU; the pair force depends on each pair's distance, so this file gathers
 * gregoire_sums itself (src/models/gregoire/walk.glsl is the GPU's): the unit vectors towards
 * those within the hard core r_c (every swarm), and over its own swarm's particles within r_0
 * beyond r_c their velocities and sum f_ij e_ij, each sum in the candidates' order with the
 * shader's operations. In a world of nearest:K the neighbours beyond r_c are the K nearest
 * (cpu/nearest.h), whatever their distance; the hard core stays metric.
 * Each boid walks alone (the bands' branches); up to BOIDS_LANES walked boids then take their
 * rules together on the lanes.
 *
 * The generated unit of the rules includes this file once per dimension (cmake/glsl_gen.c):
 * boids_cpu_rules_gregoire for flat worlds, boids_cpu_rules3_gregoire for 3D ones. */
#include <math.h>

#include "cpu/lanes.h"
#include "models/gregoire/rules.h"

#define THREE (BOIDS_DIMS == 3)

/* A walk's sums: towards the hard cores, the neighbours' velocities and pair forces, and how
 * many of each. */
typedef struct gregoire_acc {
    float core[3], ali[3], frc[3];
    uint32_t n_c, n;
} gregoire_acc;

/* A neighbour beyond r_c at offset (dx, dy, dz) of squared length d2, with velocity v: its
 * velocity, and f e = (f / r) d, one division, then products (as the shader). */
static inline void add_neighbour(gregoire_acc *a, const gregoire_bands *z, float dx, float dy,
                                 float dz, float d2, float vx, float vy, float vz)
{
    const float r = sqrtf(d2), inv = 1.0f / r;
    const float f = d2 < z->ra2 ? (r - z->re) * z->slope : 1.0f;
    const float w = f * inv;
    a->ali[0] += vx, a->ali[1] += vy;
    a->frc[0] += dx * w, a->frc[1] += dy * w;
    if (THREE) a->ali[2] += vz, a->frc[2] += dz * w;
    a->n++;
}

/* Lane l of m: the sums of the boid in slot over the others within reach (with nearest:K, the
 * hard cores, then its K nearest beyond r_c). */
static void gregoire_walk(const boids_cpu_step *s, const gregoire_bands *z, uint32_t slot,
                          gregoire_sums *m, uint32_t l)
{
    const float *cvx = s->cand.vx, *cvy = s->cand.vy, *cvz = s->cand.vz;
    const uint32_t *cid = s->cand.id, *cswarm = s->cand.swarm;
    const uint32_t id = cid[slot], swarm = cswarm[slot];
    const float x = s->cand.x[slot], y = s->cand.y[slot];
    const float z0 = THREE ? s->cand.z[slot] : 0.0f;
    const uint32_t nearest = s->sim->def.nearest;
    gregoire_acc a = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, 0, 0};
    boids_cpu_ranges r;
    boids_cpu_candidates(s, slot, &r);
    for (uint32_t q = 0; q < r.count; ++q) {
        for (uint32_t j = r.begin[q]; j < r.end[q]; ++j) {
            if (cid[j] == id) continue;
            float dx, dy;
            boids_cand_offset(s, x, y, j, &dx, &dy);
            const float dz = THREE ? boids_cand_offset_z(s, z0, j) : 0.0f;
            const float d2 = boids_length2(dx, dy, dz);
            if (!(d2 > 0.0f && d2 < z->reach2)) continue;
            if (d2 < z->rc2) { /* the hard core, of every swarm */
                const float inv = 1.0f / sqrtf(d2);
                a.core[0] += dx * inv, a.core[1] += dy * inv;
                if (THREE) a.core[2] += dz * inv;
                a.n_c++;
            } else if (!nearest && cswarm[j] == swarm) {
                add_neighbour(&a, z, dx, dy, dz, d2, cvx[j], cvy[j], THREE ? cvz[j] : 0.0f);
            }
        }
    }
    if (nearest) { /* the K nearest beyond r_c, nearest first, with no outer limit */
        const boids_nearest_filter f = {z->rc2, false, 0.0f};
        boids_nearest nb;
        boids_cpu_nearest(s, slot, nearest, &f, &nb);
        for (uint32_t i = 0; i < nb.n; ++i) {
            const uint32_t j = nb.slot[i];
            float dx, dy;
            boids_cand_offset(s, x, y, j, &dx, &dy);
            const float dz = THREE ? boids_cand_offset_z(s, z0, j) : 0.0f;
            add_neighbour(&a, z, dx, dy, dz, nb.d2[i], cvx[j], cvy[j], THREE ? cvz[j] : 0.0f);
        }
    }
    m->core_x[l] = a.core[0], m->core_y[l] = a.core[1], m->core_z[l] = a.core[2];
    m->ali_x[l] = a.ali[0], m->ali_y[l] = a.ali[1], m->ali_z[l] = a.ali[2];
    m->frc_x[l] = a.frc[0], m->frc_y[l] = a.frc[1], m->frc_z[l] = a.frc[2];
    m->n_c[l] = a.n_c, m->n[l] = a.n;
}

BOIDS_CPU_EACH_WALK_RULES(gregoire, gregoire_sums, gregoire_bands, gregoire_bands_of, gregoire_walk)

#undef THREE
