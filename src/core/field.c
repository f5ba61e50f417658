#include "core/field.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/interrupt.h"
#include "core/metrics.h"
#include "core/ring_grid.h"

/* The boids are cut into blocks of this many slots, each summing into its own accumulator, and
 * the blocks are added in order: the sums do not depend on how the threads share the blocks. */
#define FIELD_BLOCK 2048u

/* An accumulator's doubles: pairs, the velocities' and the speeds' products per bin, then M(n)'s
 * upper triangle (xx xy xz yy yz zz) per rank. */
static size_t acc_size(const boids_field_setup *s) { return 3 * (size_t)s->bins + 6 * s->ranks; }

typedef struct field_job {
    const boids_field_setup *s;
    const boids_ring_grid *g;
    const double *u;       /* by slot: the velocity fluctuation (x, y, z) */
    const double *sp;      /* by slot: the speed fluctuation */
    const uint32_t *flock; /* by boid: its flock's index (NULL: one flock) */
    const double *size;    /* by flock: its boids (NULL: one flock, of n) */
    const double *frame;   /* by flock: 9 doubles, the rows of its frame (all 0: at rest) */
    double *acc;           /* per block, acc_size doubles */
    uint32_t n, ranks;
    bool near; /* the nearest (g the grid for them), or the pairs */
    const int *stop;
} field_job;

/* The offset from slot i's boid to slot k's, minimum image where the world wraps. */
static double offset(const field_job *j, uint32_t i, uint32_t k, double d[3])
{
    const boids_ring_pos a = j->g->pos[i], b = j->g->pos[k];
    d[0] = boids_wrap_delta((double)b.x - a.x, j->s->width, j->s->wrap);
    d[1] = boids_wrap_delta((double)b.y - a.y, j->s->height, j->s->wrap);
    d[2] = j->s->depth > 0 ? boids_wrap_delta((double)b.z - a.z, j->s->depth, j->s->wrap) : 0.0;
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

/* One slot's walk over the cells around its own (boids_ring_square): the job, the slot, and
 * what its ranges add to (an accumulator, or a list of the nearest). */
typedef struct slot_walk {
    const field_job *j;
    uint32_t i;
    void *into;
} slot_walk;

static void walk_square(const field_job *j, uint32_t i, const int reach[3],
                        void (*visit)(void *, uint32_t, uint32_t), void *into)
{
    int c[3];
    boids_ring_cell(j->g, j->g->pos[i], &c[0], &c[1], &c[2]);
    slot_walk w = {j, i, into};
    boids_ring_square(j->g, c, reach, j->s->wrap, visit, &w);
}

/* ---- C(r): the pairs within r_max ---- */

static void pair_range(void *ctx, uint32_t begin, uint32_t end)
{
    const slot_walk *w = ctx;
    const field_job *j = w->j;
    const uint32_t i = w->i;
    double *acc = w->into;
    const boids_field_setup *s = j->s;
    const double r2max = s->r_max * s->r_max, per_bin = s->bins / s->r_max;
    const double *ui = j->u + 3 * (size_t)i;
    const uint32_t *order = j->g->order, fi = j->flock ? j->flock[order[i]] : 0;
    for (uint32_t k = begin > i + 1 ? begin : i + 1; k < end; ++k) { /* each pair once */
        if (j->flock && j->flock[order[k]] != fi) continue;
        double d[3];
        const double d2 = offset(j, i, k, d);
        if (d2 >= r2max) continue;
        uint32_t bin = (uint32_t)(sqrt(d2) * per_bin);
        if (bin >= s->bins) bin = s->bins - 1; /* r just below r_max, rounded up */
        const double *uk = j->u + 3 * (size_t)k;
        acc[bin] += 1.0;
        acc[s->bins + bin] += ui[0] * uk[0] + ui[1] * uk[1] + ui[2] * uk[2];
        acc[2 * s->bins + bin] += j->sp[i] * j->sp[k];
    }
}

/* ---- gamma(n): each boid's nearest `ranks` ---- */

typedef struct near_list {
    uint32_t count, cap;
    double d2[BOIDS_FIELD_RANKS];
    uint32_t id[BOIDS_FIELD_RANKS];
    double d[BOIDS_FIELD_RANKS][3];
} near_list;

/* Whether (d2, id) comes before list entry e: nearer, or as near with a smaller id. */
static bool before(const near_list *l, double d2, uint32_t id, uint32_t e)
{
    return d2 < l->d2[e] || (d2 == l->d2[e] && id < l->id[e]);
}

static void near_range(void *ctx, uint32_t begin, uint32_t end)
{
    const slot_walk *w = ctx;
    const field_job *j = w->j;
    const uint32_t i = w->i;
    near_list *l = w->into;
    const uint32_t *order = j->g->order, fi = j->flock ? j->flock[order[i]] : 0;
    for (uint32_t k = begin; k < end; ++k) {
        if (k == i || (j->flock && j->flock[order[k]] != fi)) continue;
        double d[3];
        const double d2 = offset(j, i, k, d);
        const uint32_t id = j->g->order[k];
        if (l->count == l->cap && !before(l, d2, id, l->cap - 1)) continue;
        uint32_t e = l->count < l->cap ? l->count++ : l->cap - 1; /* the last one drops out */
        for (; e > 0 && before(l, d2, id, e - 1); --e) {
            l->d2[e] = l->d2[e - 1], l->id[e] = l->id[e - 1];
            memcpy(l->d[e], l->d[e - 1], sizeof l->d[e]);
        }
        l->d2[e] = d2, l->id[e] = id;
        memcpy(l->d[e], d, sizeof d);
    }
}

/* Slot i's nearest, in squares of half-size 1, 2, 4, ... cells until the square holds every cell
 * or the last of the list is nearer than any cell outside it (metrics.c's nearest search). */
static void nearest(const field_job *j, uint32_t i, near_list *l)
{
    const boids_ring_grid *g = j->g;
    const bool flat = g->gd == 1 && j->s->depth == 0;
    int c[3];
    boids_ring_cell(g, g->pos[i], &c[0], &c[1], &c[2]);
    /* no more than the others of its flock: a flock of fewer than `ranks` was searched for the
     * rest over the whole world (22.8 s at 120 000 boids where 0.8 s sufficed) */
    const uint32_t others = (j->flock ? (uint32_t)j->size[j->flock[g->order[i]]] : j->n) - 1;
    *l = (near_list){.cap = j->ranks < others ? j->ranks : others};
    if (l->cap == 0) return;
    for (int r = 1;; r *= 2) {
        l->count = 0; /* the square holds the last one's cells: searched anew, whole */
        walk_square(j, i, (const int[3]){r, r, r}, near_range, l);
        const double bound2 = l->count == l->cap ? l->d2[l->cap - 1] : INFINITY;
        if (boids_ring_search_done(g, c, r, g->pos[i], j->s->wrap, flat, bound2)) return;
    }
}

static void near_block(const field_job *j, uint32_t first, uint32_t last, double *m)
{
    near_list l;
    for (uint32_t i = first; i < last; ++i) {
        const double *f = j->frame + 9 * (size_t)(j->flock ? j->flock[j->g->order[i]] : 0);
        if (f[0] == 0 && f[1] == 0 && f[2] == 0) continue; /* a flock at rest: no frame */
        nearest(j, i, &l);
        for (uint32_t n = 0; n < l.count; ++n) {
            if (l.d2[n] == 0) continue; /* on the boid itself: no direction */
            const double inv = 1.0 / sqrt(l.d2[n]), *d = l.d[n];
            const double x = (f[0] * d[0] + f[1] * d[1] + f[2] * d[2]) * inv,
                         y = (f[3] * d[0] + f[4] * d[1] + f[5] * d[2]) * inv,
                         z = (f[6] * d[0] + f[7] * d[1] + f[8] * d[2]) * inv;
            double *t = m + 6 * (size_t)n;
            t[0] += x * x, t[1] += x * y, t[2] += x * z, t[3] += y * y, t[4] += y * z,
                t[5] += z * z;
        }
    }
}

/* Blocks [begin, end): each its pairs or its nearest, into its own accumulator. */
static void block_chunk(void *ctx, uint32_t begin, uint32_t end)
{
    const field_job *j = ctx;
    const boids_ring_grid *g = j->g;
    const boids_field_setup *s = j->s;
    const int reach[3] = {boids_reach_of(s->r_max, g->cw, g->gw),
                          boids_reach_of(s->r_max, g->ch, g->gh),
                          boids_reach_of(s->r_max, g->cd, g->gd)};
    for (uint32_t b = begin; b < end; ++b) {
        if (boids_should_stop(j->stop)) return; /* the caller sees it */
        double *acc = j->acc + acc_size(s) * b;
        const uint32_t first = b * FIELD_BLOCK,
                       last = first + FIELD_BLOCK < j->n ? first + FIELD_BLOCK : j->n;
        if (j->near)
            near_block(j, first, last, acc + 3 * (size_t)s->bins);
        else
            for (uint32_t i = first; i < last; ++i) walk_square(j, i, reach, pair_range, acc);
    }
}

/* ---- the measures from the sums ---- */

/* Rotates the symmetric a (and the eigenvectors' columns v) in the (p, q) plane so a[p][q] = 0. */
static void jacobi_rotate(double a[3][3], double v[3][3], int p, int q)
{
    if (a[p][q] == 0) return;
    const double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
    const double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
    const double c = 1 / sqrt(t * t + 1), s = t * c;
    for (int k = 0; k < 3; ++k) { /* a J */
        const double kp = a[k][p], kq = a[k][q];
        a[k][p] = c * kp - s * kq, a[k][q] = s * kp + c * kq;
    }
    for (int k = 0; k < 3; ++k) { /* J^T (a J) */
        const double pk = a[p][k], qk = a[q][k];
        a[p][k] = c * pk - s * qk, a[q][k] = s * pk + c * qk;
    }
    for (int k = 0; k < 3; ++k) {
        const double kp = v[k][p], kq = v[k][q];
        v[k][p] = c * kp - s * kq, v[k][q] = s * kp + c * kq;
    }
}

void boids_field_least_axis(const double *m, int d, double w[3])
{
    double a[3][3] = {{m[0], m[1], 0}, {m[1], m[2], 0}, {0, 0, 1}};
    if (d == 3)
        for (int r = 0, e = 0; r < 3; ++r)
            for (int c = r; c < 3; ++c, ++e) a[r][c] = a[c][r] = m[e];
    double v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int sweep = 0; sweep < 64; ++sweep) { /* cyclic Jacobi: a handful of sweeps converge */
        const double off = a[0][1] * a[0][1] + (d == 3 ? a[0][2] * a[0][2] + a[1][2] * a[1][2] : 0),
                     diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
        if (off <= 1e-32 * diag) break;
        jacobi_rotate(a, v, 0, 1);
        if (d == 3) jacobi_rotate(a, v, 0, 2), jacobi_rotate(a, v, 1, 2);
    }
    int least = a[1][1] < a[0][0] ? 1 : 0;
    if (d == 3 && a[2][2] < a[least][least]) least = 2;
    for (int k = 0; k < 3; ++k) w[k] = k < d ? v[k][least] : 0.0;
}

/* C's first fall to 0 over the bins holding pairs whose centre lies at `from` or beyond: linear
 * between the centres of the bins about it, after a positive one (from 0: C(0) = 1 before the
 * first bin); 0 where C does not fall. */
static double first_zero(const double *c, const double *pairs, uint32_t bins, double dr,
                         double from)
{
    double r0 = 0, c0 = 1;
    bool above = from <= 0;
    for (uint32_t k = 0; k < bins; ++k) {
        const double r = (k + 0.5) * dr;
        if (pairs[k] == 0 || r < from) continue;
        if (above && c[k] <= 0) return r0 + (r - r0) * c0 / (c0 - c[k]);
        if (c[k] > 0) above = true, r0 = r, c0 = c[k];
    }
    return 0;
}

/* The measures from the blocks' sums (added in block order into the zeroed accumulator after
 * them) and the fluctuations' mean squares. M(n) is in the flocks' frames: W(n).V is W(n)'s
 * first component. */
static void finish(const boids_field_setup *s, double *acc, uint32_t blocks, double norm_u,
                   double norm_s, boids_field *out)
{
    const size_t size = acc_size(s);
    double *sum = acc + size * blocks;
    for (uint32_t b = 0; b < blocks; ++b)
        for (size_t e = 0; e < size; ++e) sum[e] += acc[size * b + e];
    const uint32_t bins = s->bins;
    for (uint32_t k = 0; k < bins; ++k) {
        out->pairs[k] = sum[k];
        if (sum[k] == 0) continue;
        out->c_velocity[k] = norm_u > 0 ? sum[bins + k] / sum[k] / norm_u : 0.0;
        out->c_speed[k] = norm_s > 0 ? sum[2 * bins + k] / sum[k] / norm_s : 0.0;
    }
    if (norm_u > 0) out->xi = first_zero(out->c_velocity, out->pairs, bins, out->dr, s->xi_from);
    if (norm_s > 0) out->xi_speed = first_zero(out->c_speed, out->pairs, bins, out->dr, s->xi_from);
    const int d = s->depth > 0 ? 3 : 2;
    bool above = false; /* n_c: gamma's first fall to 1/d + margin after it was above */
    for (uint32_t n = 0; n < out->ranks; ++n) {
        const double *t = sum + 3 * (size_t)bins + 6 * (size_t)n;
        if (t[0] + t[3] + t[5] == 0) continue; /* no flock moves (or none has n others) */
        const double m[6] = {t[0], t[1], t[2], t[3], t[4], t[5]}, m2[3] = {t[0], t[1], t[3]};
        double w[3];
        boids_field_least_axis(d == 3 ? m : m2, d, w);
        out->gamma[n] = w[0] * w[0];
        if (out->gamma[n] > 1.0 / d + s->margin)
            above = true;
        else if (above && !out->n_c)
            out->n_c = n + 1;
    }
}

/* A grid for the nearest `ranks`: some ranks / 2 boids a cell at the living's mean density over
 * the box they span (a flock in a world far larger than it is not spread over the world). */
static double near_cell(const boids_boid *b, uint32_t n, const boids_field_setup *s)
{
    const float size[3] = {s->width, s->height, s->depth};
    const int d = s->depth > 0 ? 3 : 2;
    double volume = 1;
    for (int a = 0; a < d; ++a) {
        float lo = INFINITY, hi = -INFINITY;
        for (uint32_t i = 0; i < n; ++i) {
            const float p = a == 0 ? b[i].x : a == 1 ? b[i].y : b[i].z;
            lo = p < lo ? p : lo, hi = p > hi ? p : hi;
        }
        volume *= fmax(fmin((double)hi - lo, size[a]), size[a] / 4096.0);
    }
    const double per_boid = volume / n * (1 + s->ranks / 2.0);
    return d == 3 ? cbrt(per_boid) : sqrt(per_boid);
}

/* The flocks of n living boids: each one's flock, and per flock its means and frame. */
typedef struct flocks {
    uint32_t count;
    uint32_t *of;  /* by boid; NULL: one flock */
    double *mean;  /* by flock: the mean velocity (x, y, z) and speed */
    double *frame; /* by flock: 9 doubles, the rows of its frame; all 0 where it is at rest */
    double *size;  /* by flock: its boids */
} flocks;

static void flocks_free(flocks *f) { free(f->of), free(f->mean), free(f->frame), free(f->size); }

/* Each swarm's flock, numbered in the order of their first boid. */
static bool swarm_flocks(const boids_boid *b, uint32_t n, flocks *f)
{
    uint32_t top = 0;
    for (uint32_t i = 0; i < n; ++i) top = b[i].swarm > top ? b[i].swarm : top;
    uint32_t *dense = malloc(sizeof *dense * ((size_t)top + 1));
    if (!dense || !(f->of = malloc(sizeof *f->of * n))) return free(dense), false;
    for (uint32_t k = 0; k <= top; ++k) dense[k] = UINT32_MAX;
    for (uint32_t i = 0; i < n; ++i) {
        if (dense[b[i].swarm] == UINT32_MAX) dense[b[i].swarm] = f->count++;
        f->of[i] = dense[b[i].swarm];
    }
    free(dense);
    return true;
}

/* A flock's frame: its mean velocity's direction e0, then (flat) e0 turned a quarter, or (3D)
 * the world axis least aligned with e0 made orthogonal to it, and their cross product. */
static void frame_of(const double v[3], bool three, double f[9])
{
    const double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    memset(f, 0, 9 * sizeof *f);
    if (!(len > 0)) return;
    const double e0[3] = {v[0] / len, v[1] / len, v[2] / len};
    double e1[3] = {-e0[1], e0[0], 0};
    if (three) {
        int a = 0;
        for (int k = 1; k < 3; ++k) a = fabs(e0[k]) < fabs(e0[a]) ? k : a;
        for (int k = 0; k < 3; ++k) e1[k] = (k == a) - e0[a] * e0[k];
        const double l1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
        for (int k = 0; k < 3; ++k) e1[k] /= l1;
    }
    const double e2[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2],
                          e0[0] * e1[1] - e0[1] * e1[0]};
    memcpy(f, e0, sizeof e0), memcpy(f + 3, e1, sizeof e1), memcpy(f + 6, e2, sizeof e2);
}

/* The flocks of b[0..n) as setup asks, their means and frames. */
static boids_status find_flocks(const boids_boid *b, uint32_t n, const boids_field_setup *s,
                                boids_pool *pool, const int *stop, flocks *f)
{
    *f = (flocks){.count = 1};
    boids_status st = BOIDS_OK;
    if (s->flock == BOIDS_FIELD_FLOCK_SWARM && !swarm_flocks(b, n, f))
        st = boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the swarms");
    if (s->flock == BOIDS_FIELD_FLOCK_GROUP) {
        const boids_flock_view view = boids_view_of_boids(b);
        st = (f->of = malloc(sizeof *f->of * n))
                 ? boids_metric_groups(&view, n, s->width, s->height, s->depth, s->wrap,
                                       s->group_radius, pool, stop, f->of, &f->count)
                 : boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the groups");
    }
    if (st != BOIDS_OK) return st;
    f->mean = calloc(4 * (size_t)f->count, sizeof *f->mean);
    f->frame = malloc(sizeof *f->frame * 9 * f->count);
    double *size = f->size = calloc(f->count, sizeof *size);
    if (f->mean && f->frame && size) {
        const bool three = s->depth > 0;
        for (uint32_t i = 0; i < n; ++i) {
            double *m = f->mean + 4 * (size_t)(f->of ? f->of[i] : 0);
            const double vz = three ? b[i].vz : 0.0;
            m[0] += b[i].vx, m[1] += b[i].vy, m[2] += vz;
            m[3] += sqrt((double)b[i].vx * b[i].vx + (double)b[i].vy * b[i].vy + vz * vz);
            size[f->of ? f->of[i] : 0] += 1;
        }
        for (uint32_t k = 0; k < f->count; ++k) {
            for (int a = 0; a < 4; ++a) f->mean[4 * k + a] /= size[k];
            frame_of(f->mean + 4 * (size_t)k, three, f->frame + 9 * (size_t)k);
        }
    } else {
        st = boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the flocks' means");
    }
    return st;
}

/* ---- the flock's size ---- */

typedef struct far_point {
    double p[3], r; /* unwrapped position; distance from the flock's centre */
} far_point;

static int farther_first(const void *a, const void *b)
{
    const double ra = ((const far_point *)a)->r, rb = ((const far_point *)b)->r;
    return (ra < rb) - (ra > rb);
}

static double dist(const double a[3], const double b[3])
{
    const double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* The largest distance between two of the m points p, exactly: with them sorted by their distance
 * r from their centre, farthest first, no pair whose r add up to no more than the largest found
 * can beat it (|a - b| <= r_a + r_b). The farthest point from the farthest one starts the search
 * near the answer, so a compact flock stops after a few rows; points all as far from the centre
 * (a ring) approach m^2 / 2 pairs. */
static double diameter_of(far_point *p, uint32_t m, const int *stop)
{
    double c[3] = {0, 0, 0};
    for (uint32_t i = 0; i < m; ++i)
        for (int a = 0; a < 3; ++a) c[a] += p[i].p[a] / m;
    for (uint32_t i = 0; i < m; ++i) p[i].r = dist(p[i].p, c);
    qsort(p, m, sizeof *p, farther_first);
    double best = 0;
    for (uint32_t i = 1; i < m; ++i) best = fmax(best, dist(p[0].p, p[i].p));
    for (uint32_t i = 1; i < m && 2 * p[i].r > best; ++i) {
        /* m^2 / 2 pairs at worst (a replica of scattered groups): the stop is looked at */
        if (!(i & 1023) && boids_should_stop(stop)) return NAN;
        for (uint32_t k = i + 1; k < m && p[i].r + p[k].r > best; ++k)
            best = fmax(best, dist(p[i].p, p[k].p));
    }
    return best;
}

/* The diameter of the largest flock (most boids, the first of those), its boids unwrapped about
 * its first one where the world wraps. */
static boids_status flock_diameter(const boids_boid *b, uint32_t n, const boids_field_setup *s,
                                   const flocks *f, const int *stop, double *out)
{
    uint32_t k = 0;
    for (uint32_t q = 1; q < f->count; ++q) k = f->size[q] > f->size[k] ? q : k;
    far_point *p = malloc(sizeof *p * (size_t)f->size[k]);
    if (!p) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the flock's size");
    uint32_t m = 0, first = 0;
    for (uint32_t i = 0; i < n; ++i) {
        if (f->of && f->of[i] != k) continue;
        if (!m) first = i;
        const boids_boid *o = &b[i], *a = &b[first];
        p[m++] = (far_point){
            {boids_wrap_delta((double)o->x - a->x, s->width, s->wrap),
             boids_wrap_delta((double)o->y - a->y, s->height, s->wrap),
             s->depth > 0 ? boids_wrap_delta((double)o->z - a->z, s->depth, s->wrap) : 0.0},
            0};
    }
    *out = diameter_of(p, m, stop);
    free(p);
    return isnan(*out) ? boids_fail(BOIDS_E_INTERRUPTED,
                                    "the field measures of %u boids were stopped by %s", n,
                                    boids_stop_reason())
                       : BOIDS_OK;
}

/* The fluctuations by slot of g: u = v - its flock's mean velocity, sp = |v| - its flock's mean
 * speed; their mean squares into norm[0], norm[1]. */
static void fluctuations(const boids_boid *b, uint32_t n, const boids_ring_grid *g, bool three,
                         const flocks *f, double *u, double *sp, double norm[2])
{
    norm[0] = norm[1] = 0;
    for (uint32_t k = 0; k < n; ++k) {
        const boids_boid *o = &b[g->order[k]];
        const double *m = f->mean + 4 * (size_t)(f->of ? f->of[g->order[k]] : 0);
        const double vz = three ? o->vz : 0.0, *uk = u + 3 * (size_t)k;
        u[3 * k] = o->vx - m[0], u[3 * k + 1] = o->vy - m[1], u[3 * k + 2] = vz - m[2];
        sp[k] = sqrt((double)o->vx * o->vx + (double)o->vy * o->vy + vz * vz) - m[3];
        norm[0] += uk[0] * uk[0] + uk[1] * uk[1] + uk[2] * uk[2], norm[1] += sp[k] * sp[k];
    }
    norm[0] /= n, norm[1] /= n;
}

/* The measures of n >= 2 living boids. */
static boids_status measure(const boids_boid *b, uint32_t n, const boids_field_setup *s,
                            boids_pool *pool, const int *stop, boids_field *out)
{
    boids_ring_grid pairs = {0}, near = {0};
    const uint32_t blocks = (n + FIELD_BLOCK - 1) / FIELD_BLOCK;
    double *u = malloc(sizeof *u * 3 * n), *sp = malloc(sizeof *sp * n);
    double *acc = calloc(acc_size(s) * (blocks + 1), sizeof *acc);
    const bool three = s->depth > 0;
    const boids_flock_view view = boids_view_of_boids(b);
    bool ok = u && sp && acc &&
              boids_ring_grid_build(&pairs, &view, n, s->width, s->height, s->depth, s->r_max / 2,
                                    false, NULL, pool) &&
              (!out->ranks || boids_ring_grid_build(&near, &view, n, s->width, s->height, s->depth,
                                                    near_cell(b, n, s), false, NULL, pool));
    boids_status st = ok ? BOIDS_OK
                         : boids_fail(BOIDS_E_NO_MEMORY,
                                      "out of memory for the field measures of "
                                      "%u boids",
                                      n);
    flocks f = {0};
    if (st == BOIDS_OK) st = find_flocks(b, n, s, pool, stop, &f);
    if (st == BOIDS_OK) st = flock_diameter(b, n, s, &f, stop, &out->diameter);
    if (st == BOIDS_OK) {
        double norm[2];
        fluctuations(b, n, &pairs, three, &f, u, sp, norm);
        field_job j = {s,       &pairs, u, sp,         f.of,  f.of ? f.size : NULL,
                       f.frame, acc,    n, out->ranks, false, stop};
        boids_pool_run(pool, block_chunk, &j, blocks);
        j.g = &near, j.near = true;
        if (out->ranks) boids_pool_run(pool, block_chunk, &j, blocks);
        if (boids_should_stop(stop))
            st = boids_fail(BOIDS_E_INTERRUPTED,
                            "the field measures of %u boids were stopped by "
                            "%s",
                            n, boids_stop_reason());
        else
            finish(s, acc, blocks, norm[0], norm[1], out);
    }
    flocks_free(&f);
    boids_ring_grid_free(&pairs), boids_ring_grid_free(&near);
    free(u), free(sp), free(acc);
    return st;
}

boids_status boids_field_compute(const boids_boid *b, uint32_t n, const boids_field_setup *setup,
                                 boids_pool *pool, const int *stop, boids_field *out)
{
    memset(out, 0, sizeof *out); /* the padding too: a record compares whole */
    out->bins = setup->bins, out->r_max = setup->r_max, out->dr = setup->r_max / setup->bins;
    uint32_t living = 0;
    for (uint32_t i = 0; i < n; ++i) living += b[i].alive != 0;
    out->alive = living;
    out->ranks = living > setup->ranks ? setup->ranks : living ? living - 1 : 0;
    if (living < 2) return BOIDS_OK;
    boids_boid *own = NULL; /* caught boids are gone: the measures are the living's */
    if (living < n && !(own = malloc(sizeof *own * living)))
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the field measures");
    for (uint32_t i = 0, k = 0; own && i < n; ++i)
        if (b[i].alive) own[k++] = b[i];
    const boids_status st = measure(own ? own : b, living, setup, pool, stop, out);
    free(own);
    return st;
}
