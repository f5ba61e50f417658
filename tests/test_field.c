/* boids_world_field on both backends against a float64 brute-force reference written here (every
 * pair for C(r); every boid's distance to every other, sorted, for the nearest; M(n)'s least axis
 * by power iteration): random flocks in a torus and a box, flat and in 3D, flocked ones, a
 * lattice (ties everywhere), caught boids left out, several replicas; hand-made flocks whose
 * measures are known by hand (two clusters across a torus's seam, a line of boids); the same
 * bits whatever the threads; bad options refused. */
#include "core/field.h"
#include "core/rng.h"
#include "test.h"

static double delta(double d, double size, bool wrap)
{
    if (!wrap) return d;
    return d > size / 2 ? d - size : d < -size / 2 ? d + size : d;
}

typedef struct ref_setup {
    double W, H, D; /* D 0: flat */
    bool wrap;
    double r_max;
    uint32_t bins, ranks;
    double margin;
    uint32_t flock; /* BOIDS_FIELD_FLOCK_* */
    double xi_from;
    double group_radius; /* its groups' */
} ref_setup;

/* p to q's offset, minimum image where wrap; its squared length. */
static double offset(const boids_boid *p, const boids_boid *q, const ref_setup *s, double d[3])
{
    d[0] = delta((double)q->x - p->x, s->W, s->wrap);
    d[1] = delta((double)q->y - p->y, s->H, s->wrap);
    d[2] = s->D > 0 ? delta((double)q->z - p->z, s->D, s->wrap) : 0.0;
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

/* The first fall of c from above 0 to 0 or below over the bins holding pairs whose centre lies
 * at `from` or beyond; from 0, c(0) = 1 comes first. */
static double ref_zero(const double *c, const double *pairs, uint32_t bins, double dr, double from)
{
    double r_prev = 0, c_prev = from > 0 ? 0 : 1;
    for (uint32_t k = 0; k < bins; ++k) {
        const double r = dr * (k + 0.5);
        if (pairs[k] == 0 || r < from) continue;
        if (c_prev > 0 && c[k] <= 0) return r_prev + (r - r_prev) * c_prev / (c_prev - c[k]);
        if (c[k] > 0) r_prev = r, c_prev = c[k];
    }
    return 0;
}

/* The least axis of symmetric 3 x 3 m: the largest of trace - m, by power iteration. */
static void ref_least_axis(double m[3][3], int d, double w[3])
{
    const double tr = m[0][0] + m[1][1] + m[2][2];
    double v[3] = {0.3, 0.5, d == 3 ? 0.7 : 0};
    for (int it = 0; it < 20000; ++it) {
        double n[3] = {0, 0, 0}, len = 0;
        for (int r = 0; r < d; ++r) {
            n[r] = tr * v[r];
            for (int c = 0; c < d; ++c) n[r] -= m[r][c] * v[c];
            len += n[r] * n[r];
        }
        for (int r = 0; r < 3; ++r) v[r] = n[r] / sqrt(len);
    }
    memcpy(w, v, sizeof v);
}

typedef struct near_entry {
    double d2;
    uint32_t id;
    double d[3];
} near_entry;

static int by_distance(const void *a, const void *b)
{
    const near_entry *p = a, *q = b;
    if (p->d2 != q->d2) return p->d2 < q->d2 ? -1 : 1;
    return p->id < q->id ? -1 : p->id > q->id;
}

/* The flocks of the living idx[0..m): label[a] per living boid, by swarm or by a flood fill over
 * the pairs within the group radius; their count. */
static uint32_t ref_flocks(const boids_boid *b, const uint32_t *idx, uint32_t m, const ref_setup *s,
                           uint32_t *label)
{
    uint32_t count = 0, *stack = malloc(sizeof *stack * (m + 1));
    for (uint32_t a = 0; a < m; ++a)
        label[a] = s->flock == BOIDS_FIELD_FLOCK_REPLICA ? 0 : UINT32_MAX;
    if (s->flock == BOIDS_FIELD_FLOCK_REPLICA) count = m > 0;
    for (uint32_t a = 0; a < m && s->flock != BOIDS_FIELD_FLOCK_REPLICA; ++a) {
        if (label[a] != UINT32_MAX) continue;
        uint32_t top = 0;
        stack[top++] = a, label[a] = count;
        while (top) {
            const uint32_t x = stack[--top];
            for (uint32_t c = 0; c < m; ++c) {
                double d[3];
                if (label[c] != UINT32_MAX) continue;
                const bool joined =
                    s->flock == BOIDS_FIELD_FLOCK_SWARM
                        ? b[idx[c]].swarm == b[idx[x]].swarm
                        : sqrt(offset(&b[idx[x]], &b[idx[c]], s, d)) <= s->group_radius;
                if (joined) label[c] = count, stack[top++] = c;
            }
        }
        count++;
    }
    free(stack);
    return count;
}

/* A flock's frame as boids.h states it: e0 along v; e1 e0 turned a quarter (flat) or the world
 * axis least aligned with e0, made orthogonal; e2 = e0 x e1. false where v = 0. */
static bool ref_frame(const double v[3], bool three, double e[3][3])
{
    const double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (len == 0) return false;
    for (int k = 0; k < 3; ++k) e[0][k] = v[k] / len;
    e[1][0] = -e[0][1], e[1][1] = e[0][0], e[1][2] = 0;
    if (three) {
        int a = 0;
        if (fabs(e[0][1]) < fabs(e[0][a])) a = 1;
        if (fabs(e[0][2]) < fabs(e[0][a])) a = 2;
        double l = 0;
        for (int k = 0; k < 3; ++k) e[1][k] = (k == a ? 1.0 : 0.0) - e[0][a] * e[0][k];
        for (int k = 0; k < 3; ++k) l += e[1][k] * e[1][k];
        for (int k = 0; k < 3; ++k) e[1][k] /= sqrt(l);
    }
    e[2][0] = e[0][1] * e[1][2] - e[0][2] * e[1][1];
    e[2][1] = e[0][2] * e[1][0] - e[0][0] * e[1][2];
    e[2][2] = e[0][0] * e[1][1] - e[0][1] * e[1][0];
    return true;
}

/* gamma(n) of the living idx[0..m) into e (e->ranks set): one flock in the world's frame,
 * (W.V)^2; several in each one's frame (mv: by flock, its mean velocity), W's first component. */
static void ref_gamma(const boids_boid *b, const uint32_t *idx, uint32_t m, const ref_setup *s,
                      const uint32_t *label, const double *mv, boids_field *e)
{
    double mm[BOIDS_FIELD_RANKS][3][3] = {{{0}}};
    near_entry *all = malloc(sizeof *all * m);
    const bool framed = s->flock != BOIDS_FIELD_FLOCK_REPLICA;
    for (uint32_t a = 0; a < m; ++a) {
        double f[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        if (framed && !ref_frame(mv + 3 * (size_t)label[a], s->D > 0, f)) continue;
        uint32_t k = 0;
        for (uint32_t c = 0; c < m; ++c)
            if (c != a && label[c] == label[a]) {
                all[k].d2 = offset(&b[idx[a]], &b[idx[c]], s, all[k].d);
                all[k++].id = c; /* ids among the living keep their order */
            }
        qsort(all, k, sizeof *all, by_distance);
        for (uint32_t n = 0; n < e->ranks && n < k; ++n) {
            if (all[n].d2 == 0) continue;
            double u[3] = {0, 0, 0};
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c) u[r] += f[r][c] * all[n].d[c] / sqrt(all[n].d2);
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c) mm[n][r][c] += u[r] * u[c];
        }
    }
    free(all);
    const int d = s->D > 0 ? 3 : 2;
    const double *v = mv, speed = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    bool above = false; /* n_c: gamma's first fall to 1/d + margin after it was above */
    for (uint32_t n = 0; n < e->ranks; ++n) {
        if (mm[n][0][0] + mm[n][1][1] + mm[n][2][2] == 0 || (!framed && speed == 0)) continue;
        double w[3];
        ref_least_axis(mm[n], d, w);
        const double dot = framed ? w[0] : (w[0] * v[0] + w[1] * v[1] + w[2] * v[2]) / speed;
        e->gamma[n] = dot * dot;
        if (e->gamma[n] > 1.0 / d + s->margin)
            above = true;
        else if (above && !e->n_c)
            e->n_c = n + 1;
    }
}

/* The largest flock's diameter (most boids, the lowest label of those): every pair of its boids,
 * unwrapped about its first one. */
static double ref_diameter(const boids_boid *b, const uint32_t *idx, uint32_t m, const ref_setup *s,
                           const uint32_t *label, const double *count, uint32_t flocks)
{
    uint32_t big = 0, first = UINT32_MAX;
    for (uint32_t f = 1; f < flocks; ++f) big = count[f] > count[big] ? f : big;
    double best = 0, (*p)[3] = malloc(sizeof *p * (m + 1));
    for (uint32_t a = 0; a < m; ++a) {
        if (label[a] != big) continue;
        first = first == UINT32_MAX ? a : first;
        offset(&b[idx[first]], &b[idx[a]], s, p[a]);
    }
    for (uint32_t a = 0; a < m; ++a)
        for (uint32_t c = a + 1; c < m; ++c)
            if (label[a] == big && label[c] == big) {
                const double d[3] = {p[a][0] - p[c][0], p[a][1] - p[c][1], p[a][2] - p[c][2]};
                best = fmax(best, sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
            }
    free(p);
    return best;
}

/* The reference for boids b[0..n) (one replica). */
static boids_field reference(const boids_boid *b, uint32_t n, const ref_setup *s)
{
    boids_field e = {.bins = s->bins, .r_max = s->r_max, .dr = s->r_max / s->bins};
    uint32_t *idx = malloc(sizeof *idx * (n + 1)), m = 0;
    for (uint32_t i = 0; i < n; ++i)
        if (b[i].alive) idx[m++] = i;
    e.alive = m;
    e.ranks = m > s->ranks ? s->ranks : m ? m - 1 : 0;
    uint32_t *label = malloc(sizeof *label * (m + 1));
    const uint32_t flocks = ref_flocks(b, idx, m, s, label);
    double *mv = calloc(4 * (flocks + 1), sizeof *mv), *ms = mv + 3 * (flocks + 1);
    double *count = calloc(flocks + 1, sizeof *count), uu = 0, ss = 0;
    double *u = malloc(sizeof *u * 3 * (m + 1)), *sp = malloc(sizeof *sp * (m + 1));
    for (uint32_t a = 0; a < m; ++a) {
        const boids_boid *p = &b[idx[a]];
        const double vz = s->D > 0 ? p->vz : 0.0;
        u[3 * a] = p->vx, u[3 * a + 1] = p->vy, u[3 * a + 2] = vz;
        sp[a] = sqrt((double)p->vx * p->vx + (double)p->vy * p->vy + vz * vz);
        for (int c = 0; c < 3; ++c) mv[3 * label[a] + c] += u[3 * a + c];
        ms[label[a]] += sp[a], count[label[a]] += 1;
    }
    for (uint32_t f = 0; f < flocks; ++f) {
        for (int c = 0; c < 3; ++c) mv[3 * f + c] /= count[f];
        ms[f] /= count[f];
    }
    for (uint32_t a = 0; a < m; ++a) {
        for (int c = 0; c < 3; ++c)
            u[3 * a + c] -= mv[3 * label[a] + c], uu += u[3 * a + c] * u[3 * a + c] / m;
        sp[a] -= ms[label[a]], ss += sp[a] * sp[a] / m;
    }
    double cv[BOIDS_FIELD_BINS] = {0}, cs[BOIDS_FIELD_BINS] = {0};
    for (uint32_t a = 0; m > 1 && a < m; ++a)
        for (uint32_t c = a + 1; c < m; ++c) {
            double d[3];
            const double d2 = offset(&b[idx[a]], &b[idx[c]], s, d);
            if (d2 >= s->r_max * s->r_max || label[a] != label[c]) continue;
            uint32_t k = (uint32_t)(sqrt(d2) * (s->bins / s->r_max));
            k = k < s->bins ? k : s->bins - 1;
            e.pairs[k] += 1;
            cv[k] +=
                u[3 * a] * u[3 * c] + u[3 * a + 1] * u[3 * c + 1] + u[3 * a + 2] * u[3 * c + 2];
            cs[k] += sp[a] * sp[c];
        }
    for (uint32_t k = 0; k < s->bins; ++k) {
        e.c_velocity[k] = e.pairs[k] && uu > 0 ? cv[k] / e.pairs[k] / uu : 0;
        e.c_speed[k] = e.pairs[k] && ss > 0 ? cs[k] / e.pairs[k] / ss : 0;
    }
    e.xi = m > 1 && uu > 0 ? ref_zero(e.c_velocity, e.pairs, s->bins, e.dr, s->xi_from) : 0;
    e.xi_speed = m > 1 && ss > 0 ? ref_zero(e.c_speed, e.pairs, s->bins, e.dr, s->xi_from) : 0;
    if (m > 1) ref_gamma(b, idx, m, s, label, mv, &e);
    if (m > 1) e.diameter = ref_diameter(b, idx, m, s, label, count, flocks);
    free(idx), free(label), free(mv), free(count), free(u), free(sp);
    return e;
}

static double diff(double a, double b) { return fabs(a - b) / fmax(1.0, fmax(fabs(a), fabs(b))); }

/* The largest difference between measured and expected, over every number; pairs and n_c must be
 * equal. */
static double compare(const boids_field *f, const boids_field *e, const char *what)
{
    CHECK_MSG(f->alive == e->alive && f->bins == e->bins && f->ranks == e->ranks,
              "%s: %u alive, %u bins, %u ranks; reference %u, %u, %u", what, f->alive, f->bins,
              f->ranks, e->alive, e->bins, e->ranks);
    double worst = fmax(diff(f->xi, e->xi), diff(f->xi_speed, e->xi_speed));
    worst = fmax(worst, fmax(diff(f->dr, e->dr), diff(f->r_max, e->r_max)));
    worst = fmax(worst, diff(f->diameter, e->diameter));
    for (uint32_t k = 0; k < f->bins; ++k) {
        CHECK_MSG(f->pairs[k] == e->pairs[k], "%s: bin %u holds %.0f pairs, reference %.0f", what,
                  k, f->pairs[k], e->pairs[k]);
        worst = fmax(worst, fmax(diff(f->c_velocity[k], e->c_velocity[k]),
                                 diff(f->c_speed[k], e->c_speed[k])));
    }
    for (uint32_t n = 0; n < f->ranks; ++n) worst = fmax(worst, diff(f->gamma[n], e->gamma[n]));
    CHECK_MSG(f->n_c == e->n_c, "%s: n_c %u, reference %u", what, f->n_c, e->n_c);
    return worst;
}

/* Holds a world's field measures against the reference, replica by replica. */
static void check_world(boids_world *w, const boids_field_options *o, const char *what)
{
    boids_world_info info;
    boids_world_get_info(w, &info);
    boids_boid *b = malloc(sizeof *b * (info.count + 1));
    boids_field *f = malloc(sizeof *f * info.replicas);
    REQUIRE_OK(boids_world_read(w, b, info.count));
    REQUIRE_OK(boids_world_field(w, o, f, info.replicas));
    const uint32_t per = info.count / info.replicas;
    float shortest = fminf(info.width, info.height);
    if (info.depth > 0) shortest = fminf(shortest, info.depth);
    const ref_setup s = {info.width,
                         info.height,
                         info.depth,
                         info.params.base.edges == BOIDS_EDGES_WRAP,
                         o && o->r_max > 0 ? o->r_max : 0.5 * shortest,
                         o && o->bins ? o->bins : 64,
                         o && o->ranks ? o->ranks : 20,
                         o && o->margin > 0 ? o->margin : 0.02,
                         o ? o->flock : 0,
                         o ? o->xi_from : 0,
                         boids_model_group_radius(info.model, &info.params)};
    double worst = 0;
    for (uint32_t r = 0; r < info.replicas; ++r) {
        const boids_field e = reference(b + (size_t)r * per, per, &s);
        const double d = compare(&f[r], &e, what);
        CHECK_MSG(d <= 1e-9, "%s replica %u: %.3g off the reference", what, r, d);
        CHECK(f[r].step == info.steps);
        worst = fmax(worst, d);
    }
    printf("  %-44s %s: worst difference %.1e; xi %.1f px (speed %.1f), n_c %u, gamma(1) %.3f, "
           "diameter %.1f px\n",
           what, info.backend == BOIDS_BACKEND_GPU ? "gpu" : "cpu", worst, f[0].xi, f[0].xi_speed,
           f[0].n_c, f[0].gamma[0], f[0].diameter);
    free(b), free(f);
}

static const boids_backend backends[2] = {BOIDS_BACKEND_CPU, BOIDS_BACKEND_GPU};

/* Random and flocked flocks: a torus and a box, flat and in 3D, defaults and chosen options. */
static void test_flocks_against_brute_force(void)
{
    const boids_field_options chosen = {
        .r_max = 150, .bins = 48, .ranks = 12, .margin = 0.05f, .xi_from = 20};
    for (int k = 0; k < 2; ++k)
        for (int three = 0; three < 2; ++three)
            for (int bounded = 0; bounded < 2; ++bounded) {
                boids_world_def d = test_def(backends[k], three ? 500 : 700);
                d.width = three ? 400 : 900, d.height = three ? 300 : 600,
                d.depth = three ? 250 : 0;
                d.params.base.edges = bounded ? BOIDS_EDGES_BOUNDED : BOIDS_EDGES_WRAP;
                boids_world *w;
                REQUIRE_OK(boids_world_create(&d, &w));
                char what[96];
                snprintf(what, sizeof what, "%s %s, at random", three ? "3D" : "flat",
                         bounded ? "box" : "torus");
                check_world(w, NULL, what);
                REQUIRE_OK(boids_world_step(w, 120));
                snprintf(what, sizeof what, "%s %s, flocked", three ? "3D" : "flat",
                         bounded ? "box" : "torus");
                check_world(w, &chosen, what);
                boids_world_destroy(w);
            }
}

/* Flocks within a replica: each swarm (3 swarms), each group (a flocked torus of many groups,
 * flat and in 3D). */
static void test_swarms_and_groups(void)
{
    for (int k = 0; k < 2; ++k)
        for (int three = 0; three < 2; ++three) {
            boids_world_def d = test_def(backends[k], three ? 500 : 800);
            d.swarms = 3; /* sparse: more groups than swarms */
            d.width = three ? 900 : 2400, d.height = three ? 800 : 1600, d.depth = three ? 700 : 0;
            boids_world *w;
            REQUIRE_OK(boids_world_create(&d, &w));
            REQUIRE_OK(boids_world_step(w, 150));
            boids_field_options o = {.r_max = 120, .bins = 30, .ranks = 10};
            for (uint32_t f = BOIDS_FIELD_FLOCK_SWARM; f <= BOIDS_FIELD_FLOCK_GROUP; ++f) {
                o.flock = f;
                char what[64];
                snprintf(what, sizeof what, "%s, 3 swarms, each %s", three ? "3D" : "flat",
                         f == BOIDS_FIELD_FLOCK_SWARM ? "swarm" : "group");
                check_world(w, &o, what);
            }
            boids_metrics m;
            REQUIRE_OK(boids_world_metrics(w, &m, 1));
            CHECK_MSG(m.groups > 3, "%u groups: too few to tell groups from swarms", m.groups);
            boids_world_destroy(w);
        }
}

/* Two lines of boids far apart flying across themselves, one up, one down, each one's speeds the
 * other's: as one flock their
 * mean velocity is zero (gamma 0) and each line's velocity is a fluctuation; each group a flock,
 * gamma is 1 and C holds only what differs within a line. */
static void test_two_groups_by_hand(void)
{
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = test_def(backends[k], 40);
        d.width = 1000, d.height = 1000;
        boids_boid b[40];
        for (int i = 0; i < 40; ++i) /* shiffman-per-second: group radius 50 */
            b[i] = (boids_boid){.x = 100 + 10 * (i % 20) + (i < 20 ? 0 : 500),
                                .y = 500,
                                .vx = 0,
                                .vy = (i < 20 ? 1.0f : -1.0f) * (40.0f + (float)(i % 20 % 3)),
                                .alive = 1};
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_write(w, b, 40));
        boids_field one, two;
        boids_field_options o = {.r_max = 400, .bins = 40, .ranks = 5};
        REQUIRE_OK(boids_world_field(w, &o, &one, 1));
        o.flock = BOIDS_FIELD_FLOCK_GROUP;
        REQUIRE_OK(boids_world_field(w, &o, &two, 1));
        for (int n = 0; n < 5; ++n)
            CHECK_MSG(one.gamma[n] == 0 && fabs(two.gamma[n] - 1) < 1e-12,
                      "gamma(%d): %.17g as one flock, %.17g by groups", n + 1, one.gamma[n],
                      two.gamma[n]);
        CHECK_MSG(one.c_velocity[1] > 0.99 && fabs(two.c_velocity[1]) < 0.9,
                  "C at 10 px: %.3f as one flock, %.3f by groups", one.c_velocity[1],
                  two.c_velocity[1]);
        CHECK(one.pairs[35] > 0 && one.pairs[25] == 0); /* the lines are 310 to 690 px apart */
        CHECK_MSG(two.pairs[35] == 0, "pairs across the groups counted: %.0f", two.pairs[35]);
        boids_world_destroy(w);
    }
}

/* Replicas, some boids caught (left out); a flock too small for the ranks asked. */
static void test_replicas_and_the_caught(void)
{
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = test_def(backends[k], 1200);
        d.model = BOIDS_MODEL_KIT;
        d.params = boids_model_default_params(d.model);
        d.params.kit.view_radius = 60, d.params.predators.pred_view_radius = 60;
        d.params.kit.predator_radius = 60, d.params.obstacles.obstacle_radius = 60;
        d.params.predators.predators = 20, d.params.predators.boid_size = 15;
        d.params.predators.stop_after_catches = 6;
        d.replicas = 4, d.width = 1000, d.height = 700, d.layout = BOIDS_LAYOUT_UNIFORM;
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_step(w, 40));
        boids_field f[4];
        REQUIRE_OK(boids_world_field(w, NULL, f, 4));
        CHECK_MSG(f[0].alive < 300 || f[1].alive < 300 || f[2].alive < 300 || f[3].alive < 300,
                  "no boid was caught");
        check_world(w, &(boids_field_options){.r_max = 200, .bins = 40}, "kit, 4 replicas, caught");
        boids_world_destroy(w);
        d = test_def(backends[k], 6);
        REQUIRE_OK(boids_world_create(&d, &w));
        check_world(w, NULL, "6 boids, 20 ranks asked");
        REQUIRE_OK(boids_world_field(w, NULL, f, 1));
        CHECK(f[0].ranks == 5);
        boids_world_destroy(w);
    }
}

/* A square lattice in a torus (each boid's four nearest equally near: the ids order them; pairs
 * on the bins' edges), its velocities at random. */
static void test_lattice(void)
{
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = test_def(backends[k], 400);
        d.width = 200, d.height = 200;
        boids_boid b[400];
        boids_rng rng = boids_rng_seeded(7);
        for (int i = 0; i < 400; ++i)
            b[i] = (boids_boid){.x = 5 + 10 * (i % 20),
                                .y = 5 + 10 * (i / 20),
                                .vx = 20 + 10 * boids_rng_float(&rng),
                                .vy = 10 * boids_rng_float(&rng) - 5,
                                .alive = 1};
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_write(w, b, 400));
        check_world(w, &(boids_field_options){.r_max = 60, .bins = 12, .ranks = 8},
                    "a lattice, ties");
        boids_world_destroy(w);
    }
}

/* Two pairs of boids across a torus's seam, one pair faster than the mean, one slower: C is 1
 * within a pair (1 px), -1 across (9, 10 and 11 px), so its zero lies halfway between the bins'
 * centres 1.5 and 9.5 px: 5.5 px, for the speeds too, and from 1 px on; from 2 px on C is never
 * positive (no zero); unwrapped, they span 11 px (the diameter). A
 * line of boids flying across it: its neighbours lie along the line, the scarce direction is
 * across, gamma 1; flying along it, 0; its diameter is its length. A ring of 400 (every boid as far
 * from the centre: the diameter's slowest search) spans its own diameter, within the positions'
 * rounding. */
static void test_hand_made(void)
{
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = test_def(backends[k], 4);
        d.width = 200, d.height = 100;
        const boids_boid pairs[4] = {{5, 50, 30, 0, 0, .alive = 1},
                                     {6, 50, 30, 0, 0, .alive = 1},
                                     {195, 50, 10, 0, 0, .alive = 1},
                                     {196, 50, 10, 0, 0, .alive = 1}};
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_write(w, pairs, 4));
        boids_field f;
        REQUIRE_OK(boids_world_field(w, &(boids_field_options){.r_max = 40, .bins = 40}, &f, 1));
        CHECK_MSG(fabs(f.xi - 5.5) < 1e-12 && fabs(f.xi_speed - 5.5) < 1e-12,
                  "xi %.17g, xi_speed %.17g: expected 5.5", f.xi, f.xi_speed);
        CHECK(f.pairs[1] == 2 && f.pairs[9] == 1 && f.pairs[10] == 2 && f.pairs[11] == 1);
        CHECK(f.c_velocity[1] == 1 && f.c_velocity[10] == -1 && f.c_speed[9] == -1);
        CHECK_MSG(f.diameter == 11, "across the seam: diameter %.17g, expected 11", f.diameter);
        /* from 1 px on: the same zero, after the bin at 1.5 px; from 2 px: C never positive */
        const float from[2] = {1, 2};
        for (int q = 0; q < 2; ++q) {
            REQUIRE_OK(boids_world_field(
                w, &(boids_field_options){.r_max = 40, .bins = 40, .xi_from = from[q]}, &f, 1));
            CHECK_MSG(f.xi == (q ? 0 : 5.5), "xi from %g px: %.17g", (double)from[q], f.xi);
        }
        boids_world_destroy(w);
        for (int three = 0; three < 2; ++three)
            for (int across = 0; across < 2; ++across) {
                d = test_def(backends[k], 30);
                d.width = 800, d.height = 400, d.depth = three ? 400 : 0; /* line within half */
                boids_boid line[30];
                for (int i = 0; i < 30; ++i) /* along x; flying along y, or x */
                    line[i] = (boids_boid){.x = 50 + 10 * i,
                                           .y = 200,
                                           .z = three ? 200 : 0,
                                           .vx = across ? 0 : 40 + i,
                                           .vy = across ? 40 + i : 0,
                                           .alive = 1};
                REQUIRE_OK(boids_world_create(&d, &w));
                REQUIRE_OK(boids_world_write(w, line, 30));
                REQUIRE_OK(boids_world_field(w, &(boids_field_options){.ranks = 6}, &f, 1));
                for (int n = 0; n < 6; ++n)
                    CHECK_MSG(fabs(f.gamma[n] - (across ? 1 : 0)) < 1e-12,
                              "%s line flying %s: gamma(%d) = %.17g", three ? "3D" : "flat",
                              across ? "across" : "along", n + 1, f.gamma[n]);
                CHECK(f.n_c == 0); /* gamma never falls (across), or is never above (along) */
                CHECK_MSG(f.diameter == 290, "a line: diameter %.17g, expected 290", f.diameter);
                boids_world_destroy(w);
            }
        d = test_def(backends[k], 400);
        d.width = d.height = 200;
        boids_boid ring[400];
        for (int i = 0; i < 400; ++i) {
            const double a = 6.283185307179586 * i / 400;
            ring[i] = (boids_boid){.x = (float)(100 + 45 * cos(a)),
                                   .y = (float)(100 + 45 * sin(a)),
                                   .vx = 30,
                                   .alive = 1};
        }
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_write(w, ring, 400));
        REQUIRE_OK(boids_world_field(w, &(boids_field_options){.ranks = 2}, &f, 1));
        CHECK_MSG(fabs(f.diameter - 90) < 1e-4, "a ring of radius 45: diameter %.17g", f.diameter);
        boids_world_destroy(w);
    }
}

/* The same bits with one thread and with several (a replica large enough for the pool). */
static void test_same_bits_whatever_the_threads(void)
{
    boids_field f[2];
    for (int t = 0; t < 2; ++t) {
        boids_world_def d = test_def(BOIDS_BACKEND_CPU, 12000);
        d.threads = t ? 3 : 1;
        d.width = 2000, d.height = 1500;
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_step(w, 30));
        REQUIRE_OK(boids_world_field(w, &(boids_field_options){.r_max = 120}, &f[t], 1));
        boids_world_destroy(w);
    }
    CHECK(memcmp(&f[0], &f[1], sizeof f[0]) == 0);
    printf("  12 000 boids, 1 and 3 threads: the same bits (xi %.2f px, n_c %u)\n", f[0].xi,
           f[0].n_c);
}

/* The least axis against the power iteration, on random symmetric matrices of both sizes. */
static void test_least_axis(void)
{
    boids_rng rng = boids_rng_seeded(11);
    for (int t = 0; t < 2000; ++t) {
        const int d = 2 + t % 2;
        double a[3][3] = {{0}}, m[6], w[3], e[3];
        for (int r = 0, i = 0; r < d; ++r)
            for (int c = r; c < d; ++c, ++i) a[r][c] = a[c][r] = 2 * boids_rng_float(&rng) - 1;
        if (d == 3)
            memcpy(m, (double[6]){a[0][0], a[0][1], a[0][2], a[1][1], a[1][2], a[2][2]}, sizeof m);
        else
            memcpy(m, (double[3]){a[0][0], a[0][1], a[1][1]}, 3 * sizeof(double));
        boids_field_least_axis(m, d, w);
        /* the power iteration wants a positive semidefinite matrix: shifted, the same axes */
        for (int r = 0; r < d; ++r) a[r][r] += 3;
        ref_least_axis(a, d, e);
        const double dot = w[0] * e[0] + w[1] * e[1] + w[2] * e[2];
        CHECK_MSG(fabs(fabs(dot) - 1) < 1e-9, "matrix %d (%dx%d): |w.e| = %.12f", t, d, d, dot);
    }
}

/* Bad options and arguments: refused, naming what. */
static void test_refusals(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_CPU, 50);
    boids_world *w;
    REQUIRE_OK(boids_world_create(&d, &w));
    boids_field f[2];
    const struct {
        boids_field_options o;
        const char *key;
    } bad[] = {{{.r_max = -1}, "r_max"},       {{.r_max = NAN}, "r_max"},
               {{.r_max = INFINITY}, "r_max"}, {{.bins = 257}, "bins"},
               {{.ranks = 33}, "ranks"},       {{.margin = 1}, "margin"},
               {{.margin = -0.1f}, "margin"},  {{.flock = 3}, "flock"},
               {{.xi_from = -1}, "xi_from"},   {{.xi_from = INFINITY}, "xi_from"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        CHECK(boids_world_field(w, &bad[i].o, f, 1) == BOIDS_ERR_INVALID);
        CHECK_MSG(strcmp(boids_last_error_info()->key, bad[i].key) == 0, "%s: key %s",
                  boids_last_error(), boids_last_error_info()->key);
    }
    CHECK(boids_world_field(w, NULL, f, 2) == BOIDS_ERR_INVALID);
    CHECK(boids_world_field(w, NULL, NULL, 1) == BOIDS_ERR_INVALID);
    CHECK(boids_world_field(NULL, NULL, f, 1) == BOIDS_ERR_INVALID);
    boids_world_destroy(w);
    d = test_def(BOIDS_BACKEND_CPU, 0);
    REQUIRE_OK(boids_world_create(&d, &w));
    REQUIRE_OK(boids_world_field(w, NULL, f, 1));
    CHECK(f[0].alive == 0 && f[0].xi == 0 && f[0].n_c == 0 && f[0].ranks == 0);
    boids_world_destroy(w);
}

TEST_MAIN(TEST(test_flocks_against_brute_force), TEST(test_replicas_and_the_caught),
          TEST(test_swarms_and_groups), TEST(test_two_groups_by_hand), TEST(test_lattice),
          TEST(test_hand_made), TEST(test_same_bits_whatever_the_threads), TEST(test_least_axis),
          TEST(test_refusals))
