/* The papers' own numbers, measured by simulation on both backends: every model is held to the
 * cases its folder registers (src/models/<folder>/papers.c, src/models/paper.h), each within its
 * tolerance, flat and, where the case holds there (turn times, frame-rate independence,
 * separation scaling), in the middle plane of a 3D world (every boid at z = D / 2 with vz = 0):
 * issue 30's proof that the third dimension leaves them alone. A case of the rules alone is
 * measured once. Then each paper's parameter table against the model's defaults. Models whose
 * folders register no cases are listed (their paper checks live in test_vicsek, test_couzin,
 * test_kit). */
#include "models/paper.h"
#include "test.h"

static const boids_backend backends[2] = {BOIDS_BACKEND_CPU, BOIDS_BACKEND_GPU};
static const char *const bnames[2] = {"cpu", "gpu"};

/* Case c of model m measured where run says, printed and held to the paper. */
static void check_case(boids_model m, const boids_paper_case *c, const boids_paper_run *run,
                       const char *where)
{
    const double v = c->measure(m, run, c->at);
    printf("  %-20s %s: %s = %.6g%s%s (paper: %.6g)\n", boids_model_name(m), where, c->what, v,
           c->unit[0] ? " " : "", c->unit, c->paper);
    CHECK_MSG(fabs(v - c->paper) <= c->tolerance, "%s %s: %s = %g %s, paper %g within %g",
              boids_model_name(m), where, c->what, v, c->unit, c->paper, c->tolerance);
}

/* Every case of every model, on both backends, flat (or in_plane: the cases that hold there). */
static void check_cases(bool in_plane)
{
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        const boids_papers *pp = boids_papers_of((boids_model)m);
        for (uint32_t i = 0; pp && i < pp->count; ++i) {
            const boids_paper_case *c = &pp->cases[i];
            if (in_plane && (!c->plane || c->rules)) continue;
            if (c->rules) {
                const boids_paper_run run = {BOIDS_BACKEND_CPU, NULL, false};
                check_case((boids_model)m, c, &run, "rules");
                continue;
            }
            for (int k = 0; k < 2; ++k) {
                const boids_paper_run run = {
                    backends[k], backends[k] == BOIDS_BACKEND_GPU ? test_gpu_context() : NULL,
                    in_plane};
                check_case((boids_model)m, c, &run, bnames[k]);
            }
        }
    }
}

static void test_paper_cases(void) { check_cases(false); }

/* The same numbers in the plane of a 3D world. */
static void test_paper_cases_in_a_3d_plane(void)
{
    printf("  in the middle plane of a 3D world (z = D / 2, vz = 0):\n");
    check_cases(true);
}

/* Each paper's values: the model's defaults (its blocks' and its preset's), in the paper's
 * units; and its number of parameter rows where the paper's table fixes it. */
static void test_paper_values(void)
{
    char none[512] = "";
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        const char *name = boids_model_name((boids_model)m);
        const boids_papers *pp = boids_papers_of((boids_model)m);
        if (!pp) {
            snprintf(none + strlen(none), sizeof none - strlen(none), "%s%s", none[0] ? ", " : "",
                     name);
            continue;
        }
        const boids_params p = boids_model_default_params((boids_model)m);
        for (uint32_t i = 0; i < pp->value_count; ++i) {
            const boids_paper_value *v = &pp->values[i];
            const boids_param_info *row = boids_model_param((boids_model)m, v->name);
            CHECK_MSG(row != NULL, "%s: no parameter %s", name, v->name);
            if (!row) continue;
            const float value = boids_param_get(&p, row);
            printf("  %-20s %s = %g%s%s (paper: %g%s%s)\n", name, v->name, (double)value,
                   row->unit[0] ? " " : "", row->unit, v->value, v->unit[0] ? " " : "", v->unit);
            CHECK_MSG(value == (float)v->value && strcmp(row->unit, v->unit) == 0,
                      "%s: %s = %g %s, paper %g %s", name, v->name, (double)value, row->unit,
                      v->value, v->unit);
        }
        size_t n;
        boids_model_params((boids_model)m, &n);
        CHECK_MSG(pp->rows == 0 || n == pp->rows, "%s: %zu parameter rows, paper %u", name, n,
                  pp->rows);
    }
    printf("  no paper cases: %s\n", none[0] ? none : "(none)");
}

TEST_MAIN(TEST(test_paper_cases), TEST(test_paper_values), TEST(test_paper_cases_in_a_3d_plane))
