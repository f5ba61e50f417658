#include "app/metrics_log.h"

#include "base/error.h"

void boids_metrics_csv_row(FILE *f, const boids_metrics *m, double dt)
{
    fprintf(f, "%llu,%.6g,%u,%.9g,%.9g,%.9g,%.9g,%.9g,%u,%u,%.9g", (unsigned long long)m->step,
            (double)m->step * dt, m->alive, m->polarization, m->mean_nn, m->mean_speed,
            m->min_speed, m->max_speed, m->groups, m->catches, m->milling);
}

void boids_catch_csv_row(FILE *f, const boids_event *e, double dt, uint32_t boid, uint32_t predator)
{
    fprintf(f, "%u,%.6g,%u,%.9g,%u", e->step, (double)e->step * dt, boid, (double)e->value[0],
            predator);
}

void boids_field_csv_row(FILE *f, const boids_field *m)
{
    fprintf(f, "%.9g,%.9g,%u,%.9g", m->xi, m->xi_speed, m->n_c, m->diameter);
}

void boids_field_profile_csv(FILE *f, const boids_field *m)
{
    const unsigned long long step = (unsigned long long)m->step;
    const char *names[2] = {"c_velocity", "c_speed"};
    const double *c[2] = {m->c_velocity, m->c_speed};
    for (int k = 0; k < 2; ++k)
        for (uint32_t b = 0; b < m->bins; ++b)
            if (m->pairs[b] > 0)
                fprintf(f, "%llu,%s,%.9g,%.9g\n", step, names[k], (b + 0.5) * m->dr, c[k][b]);
    for (uint32_t b = 0; b < m->bins; ++b)
        fprintf(f, "%llu,pairs,%.9g,%.17g\n", step, (b + 0.5) * m->dr, m->pairs[b]);
    for (uint32_t n = 0; n < m->ranks; ++n)
        fprintf(f, "%llu,gamma,%u,%.9g\n", step, n + 1, m->gamma[n]);
}

static boids_status sample(boids_metrics_log *l, boids_world *w)
{
    boids_metrics m;
    boids_status st = boids_world_metrics(w, &m, 1);
    if (st != BOIDS_OK) return st;
    if (m.step == l->last) return BOIDS_OK;
    boids_field f;
    if (l->field && (st = boids_world_field(w, &l->field_options, &f, 1)) != BOIDS_OK) return st;
    boids_metrics_csv_row(l->out.f, &m, l->dt);
    if (l->field) fputc(',', l->out.f), boids_field_csv_row(l->out.f, &f);
    fputc('\n', l->out.f);
    l->last = m.step;
    l->rows++;
    return BOIDS_OK;
}

boids_status boids_metrics_log_open(boids_metrics_log *l, const char *path, uint32_t every,
                                    const boids_field_options *field, boids_world *w)
{
    *l = (boids_metrics_log){0};
    boids_world_info info;
    boids_world_get_info(w, &info);
    if (info.replicas != 1)
        return boids_fail(BOIDS_E_ARGUMENT, "--metrics: a world of %u replicas", info.replicas);
    boids_status st = boids_output_open(&l->out, path);
    if (st != BOIDS_OK) return st;
    l->open = true;
    l->every = every ? every : 1;
    l->dt = info.dt;
    l->last = UINT64_MAX;
    l->field = field != NULL;
    if (field) l->field_options = *field;
    fputs(field ? BOIDS_METRICS_COLUMNS "," BOIDS_FIELD_COLUMNS "\n" : BOIDS_METRICS_COLUMNS "\n",
          l->out.f);
    return sample(l, w);
}

boids_status boids_metrics_log_step(boids_metrics_log *l, boids_world *w, uint32_t n)
{
    boids_world_info info;
    boids_world_get_info(w, &info);
    uint64_t step = info.steps;
    while (n > 0) {
        uint64_t to_next = l->every - step % l->every;
        uint32_t k = to_next < n ? (uint32_t)to_next : n;
        boids_status st = boids_world_step(w, k);
        if (st != BOIDS_OK) return st;
        step += k;
        n -= k;
        if (step % l->every == 0 && (st = sample(l, w)) != BOIDS_OK) return st;
    }
    return BOIDS_OK;
}

boids_status boids_metrics_log_close(boids_metrics_log *l, boids_world *w, bool commit)
{
    if (!l->open) return BOIDS_OK;
    l->open = false;
    boids_status st = commit && w ? sample(l, w) : BOIDS_OK;
    if (commit && st == BOIDS_OK) return boids_output_commit(&l->out);
    boids_output_abort(&l->out);
    return st;
}
