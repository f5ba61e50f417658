#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "app/metrics_log.h"
#include "core/attributes.h"
#include "core/models.h"
#include "base/error.h"
#include "base/interrupt.h"
#include "base/parse.h"
#include "base/output_file.h"
#include "core/state_csv.h"

int boids_app_exit_code(boids_status st)
{
    return (st == BOIDS_ERR_INVALID || st == BOIDS_ERR_PARSE) ? BOIDS_EXIT_USAGE
                                                              : BOIDS_EXIT_RUNTIME;
}

int boids_app_gl_error(const char *program, const char *hint)
{
    const boids_error *e = boids_last_error_info();
    if (e->id == BOIDS_E_ENVIRONMENT) {
        fprintf(stderr, "%s: %s\n", program, e->message);
        return BOIDS_EXIT_USAGE;
    }
    fprintf(stderr, "%s: %s (%s)\n", program, e->message, hint);
    return BOIDS_EXIT_RUNTIME;
}

int boids_app_error(const boids_cli *cli, const char *context)
{
    const boids_error *e = boids_last_error_info();
    char where[1200] = "", buf1[256], note[512] = "";
    if (context) snprintf(where, sizeof where, "%s: ", context);
    if (e->id == BOIDS_E_INTERRUPTED && boids_interrupted()) { /* a signal, not a failure: 128+N
                                                                * (a field measure's was exit 1) */
        fprintf(stderr, "boids: interrupted: %s%s\n", where, e->message);
        return boids_interrupt_exit_code();
    }
    /* A relation between settings names every one of them the user gave, what the command line
     * changed first (the user's latest word), then the file's lines. */
    const bool keys = e->related[0] != '\0' && !e->path[0]; /* (a file's error names its line) */
    const char *origin = NULL;
    char joined[768] = "";
    bool ends_in_key = false;
    if (cli && keys) {
        char all[400];
        for (int file = 0; file < 2; ++file)
            for (char *save = NULL, *k = (snprintf(all, sizeof all, "%s,%s", e->key, e->related),
                                          strtok_r(all, ",", &save));
                 k; k = strtok_r(NULL, ",", &save)) {
                char buf2[256];
                const char *o = boids_cli_origin(cli, k, buf2, sizeof buf2);
                if (!o || (strchr(o, ':') != NULL) != (file == 1))
                    continue; /* a file's origin has file:line */
                size_t n = strlen(joined);
                snprintf(joined + n, sizeof joined - n, "%s%s", n ? ", " : "", o);
                /* the last origin a file's line of the key the message starts with: the
                 * message's own "key: " would repeat it */
                ends_in_key = file == 1 && !strcmp(k, e->key);
            }
        origin = joined[0] ? joined : NULL;
    } else if (cli && e->key[0] && !e->path[0] && e->index < 0) {
        origin = boids_cli_origin(cli, e->key, buf1, sizeof buf1);
    } else if (cli && e->id == BOIDS_E_DEF_OBSTACLE &&
               e->index >= 0) { /* the obstacle as written */
        origin = boids_cli_obstacle_origin(cli, (size_t)e->index, buf1, sizeof buf1);
        boids_cli_obstacle_note(cli, (size_t)e->index, e->detail, note, sizeof note);
    }
    if (e->id == BOIDS_E_NO_GL) /* (not a bad BOIDS_* setting: boids_app_gl_error) */
        fprintf(stderr, "boids: %s%s (try --backend cpu)\n", where, e->message);
    else if (origin && keys) /* the detail names the settings and their values */
        fprintf(stderr, "boids: %s%s: %s\n", where, origin, ends_in_key ? e->detail : e->message);
    else if (origin)
        fprintf(stderr, "boids: %s%s: %s%s\n", where, origin, e->detail, note);
    else
        fprintf(stderr, "boids: %s%s\n", where, e->message);
    return boids_app_exit_code(e->status);
}

void boids_app_warn_floats(const boids_world_def *def)
{
    /* Positions are floats: at the world's largest coordinate they lie ulp apart, and a move
     * rounds to a whole number of ulps. A top step not above that loses the motion (at 10^7 px,
     * 1 px apart, gregoire-chate's v_0 of 0.05 never moved; at 10^6, 0.0625 apart, each move
     * came out 25 % long). Said, not refused: a world that large still holds a state to measure
     * (the tests' worlds 10^7 px long do). Once a process. */
    static bool said;
    boids_world_def d = *def;
    boids_world_def_resolve_size(&d);
    const bool per_second = boids_model_time_base(d.model) == BOIDS_TIME_PER_SECOND;
    const float step = d.params.base.max_speed * (per_second ? d.dt : 1.0f);
    const float largest = fmaxf(fmaxf(d.width, d.height), d.depth);
    const float ulp = nextafterf(largest, INFINITY) - largest;
    if (said || !(step > 0.0f) || ulp < step) return;
    said = true;
    int e;
    frexpf(step / 8.0f * 8388608.0f, &e); /* 2^23: a float's ulps in a binade */
    char a[32], b[32], c[32], limit[32];
    fprintf(stderr,
            "boids: note: a world %s px wide: positions there are %s px apart, not below a step "
            "of %s px, so the boids will not move as the model says (a world under %s px keeps "
            "8 float steps to a step)\n",
            boids_float_text(largest, a), boids_float_text(ulp, b), boids_float_text(step, c),
            boids_float_text(ldexpf(1.0f, e), limit));
}

int boids_app_open(const boids_cli *cli, boids_gl *gl, const boids_init_state *init,
                   boids_session *s)
{
    boids_world_def def = cli->def;
    def.gl = gl;
    /* Create with the random state first; --init's state is checked against the real world (its
     * default size depends on N) and reported with the file's line. */
    boids_status st = boids_session_create(s, &def, NULL);
    if (st != BOIDS_OK) return boids_app_error(cli, NULL);
    boids_app_warn_floats(&def);
    if (init && init->boids) {
        /* Attributes the file did not have take the schema's default for this world. */
        for (uint32_t i = 0; i < def.count; ++i)
            boids_boid_default_attrs(&init->boids[i], init->attributes, &s->def.params);
        st = boids_world_write(s->world, init->boids, def.count);
        if (st != BOIDS_OK) {
            const boids_error *e = boids_last_error_info();
            if (e->index >= 0 && (uint64_t)e->index < def.count) /* the boid's line of the file */
                boids_error_in_file(cli->init_path, init->lines[e->index], BOIDS_ERR_PARSE);
            else
                boids_error_in_file(cli->init_path, 0, BOIDS_OK);
            int code = boids_app_error(cli, "--init");
            boids_session_destroy(s);
            return code;
        }
    }
    if (init && init->predators) { /* --predators: main made the world with the file's count */
        st = boids_world_write_predators(s->world, init->predators, init->predator_count);
        if (st != BOIDS_OK) {
            long long k = boids_last_error_info()->index; /* the predator's line of the file */
            boids_error_in_file(cli->predators_path,
                                k >= 0 && k < init->predator_count ? init->predator_lines[k] : 0,
                                BOIDS_ERR_PARSE);
            int code = boids_app_error(cli, "--predators");
            boids_session_destroy(s);
            return code;
        }
    }
    return BOIDS_EXIT_OK;
}

void boids_app_print_header(const boids_session *s, const boids_cli *cli)
{
    boids_world_info info;
    boids_world_get_info(s->world, &info);
    printf("boids %s: model %s, backend %s (%s%s%s)\n", BOIDS_VERSION_STRING,
           boids_model_name(info.model), info.backend == BOIDS_BACKEND_GPU ? "gpu" : "cpu",
           cli->backend_note[0] ? cli->backend_note : info.renderer, info.device[0] ? "; " : "",
           info.device);
    if (info.dims == 3)
        printf("  %u boids in %u swarm%s, 3D world %gx%gx%g px, grid %ux%ux%u cells of "
               "%.1fx%.1fx%.1f px",
               info.count, info.swarms, info.swarms == 1 ? "" : "s", (double)info.width,
               (double)info.height, (double)info.depth, info.grid_w, info.grid_h, info.grid_d,
               (double)info.cell_w, (double)info.cell_h, (double)info.cell_d);
    else
        printf("  %u boids in %u swarm%s, world %gx%g px, grid %ux%u cells of %.1fx%.1f px",
               info.count, info.swarms, info.swarms == 1 ? "" : "s", (double)info.width,
               (double)info.height, info.grid_w, info.grid_h, (double)info.cell_w,
               (double)info.cell_h);
    /* a folded grid (a torus with more cells of the radius than the cap): the world's cells */
    if (info.fine_w > info.grid_w || info.fine_h > info.grid_h || info.fine_d > info.grid_d)
        printf(" (folded: the world's %.0f cells share them)",
               (double)info.fine_w * info.fine_h * info.fine_d);
    if (info.backend == BOIDS_BACKEND_CPU)
        printf(", %d thread%s%s", info.threads, info.threads == 1 ? "" : "s",
               cli->def.neighbors == BOIDS_NEIGHBORS_BRUTE ? ", brute force" : "");
    if (cli->def.nearest) printf("; each flocks with its %u nearest", cli->def.nearest);
    printf("\n");
    fflush(stdout); /* the header shows while a long run works */
    boids_app_cost_note(s->world, "boids");
}

void boids_app_cost_note(boids_world *w, const char *program)
{
    /* A world whose radii reach most of it (kit's 950 px view with a large flock in a small
     * world, predators by the thousand) costs far more a step than its size suggests: said before
     * the wait, whatever the backend. */
    boids_world_info info;
    boids_world_get_info(w, &info);
    const double seen = boids_world_neighbors_per_agent(w);
    const double checks = seen * ((double)info.count + info.predators);
    if (checks <= 2e8) return;
    const char *at_scale = boids_model_at_scale(info.model); /* the manifest's (core/manifest.h) */
    fprintf(stderr,
            "%s: note: each agent looks at about %.0f others a step (%.3g checks in all), since "
            "the grid's cells are as large as the largest radius (%.0fx%.0f px for %u boids and "
            "%u predators): a step may take seconds; a smaller radius or fewer agents goes "
            "faster%s%s%s\n",
            program, seen, checks, (double)info.cell_w, (double)info.cell_h, info.count,
            info.predators, *at_scale ? " (" : "", at_scale,
            *at_scale ? " is this model at a flock's scale)" : "");
}

/* The catches of a world with predators: how many, whether it stopped, their ages; and --events,
 * every catch (a world without predators or catches: the table's header alone). */
static boids_status print_catches(const boids_cli *cli, boids_session *s,
                                  const boids_world_info *info)
{
    boids_replica_status *rs = malloc(sizeof *rs * info->replicas);
    if (!rs) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory");
    boids_status st = boids_world_replicas(s->world, rs, info->replicas, NULL);
    boids_events ev;
    if (st == BOIDS_OK) st = boids_world_take_events(s->world, &ev);
    if (st == BOIDS_OK && info->replicas == 1 && info->predators) {
        printf("  %u catch%s", rs[0].catches, rs[0].catches == 1 ? "" : "es");
        if (rs[0].stopped) /* the catch came in the step numbered stop_step, from 0 */
            printf(", stopped after %llu steps (stop_after_catches)",
                   (unsigned long long)rs[0].stop_step + 1);
        /* the ages of a few catches; of many, their mean (--events writes every one) */
        size_t caught = 0;
        double sum = 0;
        for (size_t i = 0; i < ev.count; ++i)
            if (ev.events[i].kind == BOIDS_EVENT_CATCH) ++caught, sum += ev.events[i].value[0];
        if (caught > 10)
            printf("; mean age of the caught %.3f", sum / (double)caught);
        else
            for (size_t i = 0, shown = 0; i < ev.count; ++i)
                if (ev.events[i].kind == BOIDS_EVENT_CATCH)
                    printf("%s%.3f", shown++ ? ", " : "; ages ", (double)ev.events[i].value[0]);
        printf("\n");
    }
    if (st == BOIDS_OK && cli->events_path) {
        boids_output_file o;
        st = boids_output_open(&o, cli->events_path);
        if (st == BOIDS_OK) {
            fputs(BOIDS_CATCH_COLUMNS "\n", o.f);
            for (size_t i = 0; i < ev.count; ++i) {
                const boids_event *e = &ev.events[i];
                if (e->kind != BOIDS_EVENT_CATCH) continue;
                boids_catch_csv_row(o.f, e, info->dt, e->subject, e->other);
                fputc('\n', o.f);
            }
            st = boids_output_commit(&o);
            if (st == BOIDS_OK && info->predators)
                printf("  catches written to %s\n", cli->events_path);
            else if (st == BOIDS_OK)
                printf("  no catches (%s): the header alone written to %s\n",
                       boids_model_features(info->model) & BOIDS_FEATURE_PREDATORS
                           ? "no predators"
                           : "the model has no predators",
                       cli->events_path);
        }
    }
    free(rs);
    return st;
}

/* The observables of the flock at the end (a world of one replica). */
static void print_flock(const boids_metrics *m, uint32_t count, bool per_second)
{
    char nn[64]; /* a lone boid has no neighbour (its mean_nn is 0) */
    if (m->alive == 0) {
        printf("  no boid alive: no flock to measure\n");
        return;
    }
    if (m->alive == 1)
        snprintf(nn, sizeof nn, "no nearest neighbour (one boid%s)", count > 1 ? " alive" : "");
    else
        snprintf(nn, sizeof nn, "mean nearest neighbour %.2f px", m->mean_nn);
    printf("  polarization %.3f, %s, %u group%s, speed %.2f..%.2f (mean %.2f) %s\n",
           m->polarization, nn, m->groups, m->groups == 1 ? "" : "s", m->min_speed, m->max_speed,
           m->mean_speed, per_second ? "px/s" : "px/frame");
}

/* --field-profile: the last state's C(r) and gamma(n), with --field's options. */
static boids_status write_field_profile(const boids_cli *cli, boids_world *w)
{
    boids_field f;
    boids_status st = boids_world_field(w, &cli->field_options, &f, 1);
    boids_output_file o;
    if (st == BOIDS_OK) st = boids_output_open(&o, cli->field_profile_path);
    if (st != BOIDS_OK) return st;
    fputs(BOIDS_FIELD_PROFILE_COLUMNS "\n", o.f);
    boids_field_profile_csv(o.f, &f);
    st = boids_output_commit(&o);
    if (st == BOIDS_OK)
        printf(
            "  C(r) over %u bins of %.4g px (xi %.4g px, xi_speed %.4g px) and gamma(n) to n = %u "
            "(n_c %u) written to %s\n",
            f.bins, f.dr, f.xi, f.xi_speed, f.ranks, f.n_c, cli->field_profile_path);
    return st;
}

int boids_app_finish(const boids_cli *cli, boids_session *s, uint64_t steps, double wall)
{
    boids_world_info info;
    boids_world_get_info(s->world, &info);
    int per_second = boids_model_time_base(info.model) == BOIDS_TIME_PER_SECOND;
    double boid_steps = (double)steps * info.count;
    /* The simulation alone, apart from drawing, encoding and files: the world's own per-pass
     * times (GL timer queries on the GPU, the clock around each pass on the CPU). A run that
     * drew frames leads with it: its wall clock is mostly the drawing and the files. */
    boids_profile prof;
    boids_world_finish(s->world);
    boids_world_get_profile(s->world, &prof);
    const bool alone = prof.samples[BOIDS_PASS_STEER] > 0 && info.count > 0;
    const bool drew = alone && prof.samples[BOIDS_PASS_DRAW] > 0;
    const char *clock = info.backend == BOIDS_BACKEND_GPU ? "GL timer queries" : "the CPU's clock";
    printf("  %llu steps", (unsigned long long)steps);
    if (per_second) printf(" of %.4g ms", (double)info.dt * 1e3);
    if (drew) {
        printf(": the simulation %.3f ms per step, %.1f ns per boid-step (%s)\n", prof.step_ms,
               prof.step_ms * 1e6 / info.count, clock);
        printf(
            "  with the drawing (%.3f ms per frame) and the files: %.3f s in all, %.1f steps/s\n",
            prof.ms[BOIDS_PASS_DRAW], wall, wall > 0 ? (double)steps / wall : 0.0);
    } else {
        printf(" in %.3f s: %.1f steps/s", wall, wall > 0 ? (double)steps / wall : 0.0);
        if (boid_steps > 0) printf(", %.1f ns per boid-step", wall * 1e9 / boid_steps);
        printf("\n");
        if (alone)
            printf("  simulation alone %.3f ms per step, %.1f ns per boid-step (%s)\n",
                   prof.step_ms, prof.step_ms * 1e6 / info.count, clock);
    }

    boids_status st = BOIDS_OK;
    boids_metrics m;
    /* a flock of millions takes a second or more to measure: say so on a terminal */
    const bool note = info.count >= 2000000 && isatty(STDERR_FILENO);
    if (note) fprintf(stderr, "  measuring the flock (nearest neighbours, groups)...\r");
    if (info.replicas == 1) st = boids_world_metrics(s->world, &m, 1);
    if (note) fprintf(stderr, "\033[K");
    if (st != BOIDS_OK && boids_last_error_info()->id == BOIDS_E_INTERRUPTED) {
        fprintf(stderr, "boids: interrupted while measuring the flock: no metrics, state or "
                        "events written\n");
        return boids_interrupt_exit_code();
    }
    if (st == BOIDS_OK && info.replicas == 1) print_flock(&m, info.count, per_second);
    if (st == BOIDS_OK && (info.predators || cli->events_path)) st = print_catches(cli, s, &info);
    if (st == BOIDS_OK && cli->dump_path) { /* the records read only here: 40 bytes a boid */
        boids_boid *state = malloc(sizeof *state * (info.count ? info.count : 1));
        st = state ? boids_world_read(s->world, state, info.count)
                   : boids_fail(BOIDS_E_NO_MEMORY, "out of memory reading the state back");
        if (st == BOIDS_OK)
            st = boids_csv_write(cli->dump_path, state, info.count,
                                 boids_model_attributes(info.model), info.dims == 3);
        if (st == BOIDS_OK) printf("  state written to %s\n", cli->dump_path);
        free(state);
    }
    if (st == BOIDS_OK && cli->field_profile_path) st = write_field_profile(cli, s->world);
    if (st == BOIDS_OK && cli->dump_predators_path) {
        boids_predator *p = malloc(sizeof *p * (info.predators ? info.predators : 1));
        st = p ? boids_world_read_predators(s->world, p, info.predators)
               : boids_fail(BOIDS_E_NO_MEMORY, "out of memory");
        if (st == BOIDS_OK)
            st = boids_predators_csv_write(cli->dump_predators_path, p, info.predators,
                                           info.dims == 3);
        if (st == BOIDS_OK) printf("  predators written to %s\n", cli->dump_predators_path);
        free(p);
    }
    if (st == BOIDS_OK) return BOIDS_EXIT_OK;
    const int code = boids_app_error(cli, NULL);
    /* the run itself went wrong, whatever the error's class; or a signal stopped it */
    return code == boids_interrupt_exit_code() && boids_interrupted() ? code : BOIDS_EXIT_RUNTIME;
}

void boids_app_print_ffmpeg(const char *dir, double fps)
{
    int n = (int)strlen(dir);
    while (n > 1 && dir[n - 1] == '/') --n; /* "out/" -> "out/frame_...", not "out//frame_..." */
    printf("  make a video: ffmpeg -framerate %.6g -i '%.*s/frame_%%06d.png' -c:v libx264 -pix_fmt "
           "yuv420p "
           "-crf 18 boids.mp4\n",
           fps, n, dir);
}

const char *path_dir(const char *path, char *buf, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return snprintf(buf, size, "."), buf;
    size_t n = (size_t)(slash - path);
    if (n == 0) n = 1; /* "/name" */
    snprintf(buf, size, "%.*s", (int)n, path);
    return buf;
}
