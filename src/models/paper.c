/* The registry of the models' paper cases, and the worlds their measurements share (paper.h). */
#include "models/paper.h"

#include <stdio.h>
#include <stdlib.h>

/* Each folder's papers.c defines boids_papers_<ID> for its models; a weak reference is NULL where
 * none does, so a model without paper cases builds and test_papers names it. */
#define BOIDS_X_PAPERS_DECL(ID, ...)                                                               \
    extern const boids_papers boids_papers_##ID __attribute__((weak));
BOIDS_MODEL_LIST(BOIDS_X_PAPERS_DECL)
#undef BOIDS_X_PAPERS_DECL

const boids_papers *boids_papers_of(boids_model m)
{
    static const boids_papers *const table[BOIDS_MODEL_COUNT] = {
#define BOIDS_X_PAPERS_ROW(ID, ...) [BOIDS_MODEL_##ID] = &boids_papers_##ID,
        BOIDS_MODEL_LIST(BOIDS_X_PAPERS_ROW)
#undef BOIDS_X_PAPERS_ROW
    };
    return (unsigned)m < BOIDS_MODEL_COUNT ? table[m] : NULL;
}

boids_world_def boids_paper_def(const boids_paper_run *run, boids_model m, uint32_t n)
{
    boids_world_def d = boids_default_world_def();
    d.backend = run->backend;
    d.count = n;
    d.threads = 2;
    if (run->backend == BOIDS_BACKEND_GPU) d.gl = run->gl;
    d.model = m;
    d.params = boids_model_default_params(m);
    return d;
}

boids_world *boids_paper_world(const boids_paper_run *run, boids_model m, const boids_params *p,
                               float W, float H, float dt, const boids_boid *b, uint32_t n)
{
    boids_world_def d = boids_paper_def(run, m, n);
    d.params = *p;
    d.width = W;
    d.height = H;
    d.depth = run->in_plane ? fmaxf(W, H) : 0.0f;
    d.dt = dt;
    d.swarms = 2;
    boids_boid *start = malloc(sizeof *start * n);
    if (!start) return NULL;
    for (uint32_t i = 0; i < n; ++i) start[i] = b[i], start[i].z = d.depth * 0.5f, start[i].vz = 0;
    boids_world *w = NULL;
    if (boids_world_create(&d, &w) != BOIDS_OK || boids_world_write(w, start, n) != BOIDS_OK) {
        fprintf(stderr, "%s: %s\n", boids_model_name(m), boids_last_error());
        boids_world_destroy(w);
        w = NULL;
    }
    free(start);
    return w;
}

bool boids_paper_steps(const boids_paper_run *run, boids_model m, const boids_params *p, float W,
                       float H, float dt, boids_boid *b, uint32_t n, uint32_t steps)
{
    boids_world *w = boids_paper_world(run, m, p, W, H, dt, b, n);
    if (!w) return false;
    const bool ok = boids_world_step(w, steps) == BOIDS_OK && boids_world_read(w, b, n) == BOIDS_OK;
    if (!ok) fprintf(stderr, "%s: %s\n", boids_model_name(m), boids_last_error());
    boids_world_destroy(w);
    return ok;
}

boids_boid *boids_paper_turn_flock(float v, float W, float H, uint32_t *n)
{
    uint32_t cols = (uint32_t)(W / 10), rows = (uint32_t)(H / 10);
    *n = cols * rows;
    boids_boid *b = calloc(*n, sizeof *b);
    if (!b) return NULL;
    for (uint32_t k = 0; k < *n; ++k)
        b[k] = boids_paper_boid(5.0f + 10.0f * (float)(k % cols), 5.0f + 10.0f * (float)(k / cols),
                                -v, 0, 1);
    b[0] = boids_paper_boid(W * 0.5f + 5.0f, H * 0.5f, v, 0, 1); /* between lattice points */
    return b;
}

double boids_paper_turn_steps(const boids_paper_run *run, boids_model m, boids_params p, float dt,
                              double *full)
{
    p.base.edges = BOIDS_EDGES_WRAP; /* a field of neighbours without an edge */
    p.reynolds.sep_weight = 0;       /* maximal alignment steering: alignment alone */
    p.reynolds.cohesion_weight = 0;
    p.base.min_speed = 0; /* §6's derivation has no v_min (it would hold a head-on boid) */
    uint32_t n;
    boids_boid *b = boids_paper_turn_flock(p.base.max_speed, 400, 300, &n);
    boids_world *w = b ? boids_paper_world(run, m, &p, 400, 300, dt, b, n) : NULL;
    double first = NAN;
    *full = -1;
    for (int k = 1; w && k <= 5000; ++k) {
        if (boids_world_step(w, 1) != BOIDS_OK || boids_world_read(w, b, n) != BOIDS_OK) break;
        if (k == 1) first = 2.0 * p.base.max_speed / (p.base.max_speed - b[0].vx);
        if (b[0].vx <= -p.base.max_speed * (1.0f - 1e-4f)) {
            *full = k;
            break;
        }
    }
    boids_world_destroy(w);
    free(b);
    return first;
}
