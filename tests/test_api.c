/* The public API on bad arguments, several threads and a fork: a library call never crashes.
 *   - every function boids.h declares (the list is read from the header itself, so a new one
 *     cannot be missed) is called with each NULL pointer, an out-of-range enum, a size that does
 *     not match: a status-returning call fails with BOIDS_E_ARGUMENT (or the id that names the
 *     argument's meaning), one returning a value gives its documented "none";
 *   - totals that overflow: obstacles per replica times the replicas, however they arrive;
 *   - one world used from two threads at once (the calls take turns), a GPU world stepped from a
 *     thread that did not create it;
 *   - a forked child: a world it inherited is refused (BOIDS_E_FORKED), as is the GPU its parent
 *     opened; a new CPU world works there;
 *   - boids_world_interrupt from another thread stops a call of a million steps, on each backend:
 *     the steps before kept, a CPU step under way undone (the state is that of a world stepped
 *     as many steps), the metrics refused while it is on, the world stepping on once it is off. */
#include <pthread.h>
#include <stddef.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

/* The functions exercised so far, by name. */
static const char *exercised[128];
static int nexercised;
static void mark(const char *name)
{
    for (int i = 0; i < nexercised; ++i)
        if (!strcmp(exercised[i], name)) return;
    if (nexercised < 128) exercised[nexercised++] = name;
}

/* fn(args) must fail with error `want`. */
#define REFUSES(want, fn, ...)                                                                     \
    do {                                                                                           \
        mark(#fn);                                                                                 \
        boids_status st_ = fn(__VA_ARGS__);                                                        \
        CHECK_MSG(st_ != BOIDS_OK && boids_last_error_info()->id == (want),                        \
                  "%s(%s): status %d, error %s: %s", #fn, #__VA_ARGS__, (int)st_,                  \
                  boids_error_name(boids_last_error_info()->id), boids_last_error());              \
    } while (0)
/* fn(args), which returns no status, must give `want` (compared with ==, or strcmp for text). */
#define GIVES(want, fn, ...)                                                                       \
    do {                                                                                           \
        mark(#fn);                                                                                 \
        CHECK_MSG(fn(__VA_ARGS__) == (want), "%s(%s)", #fn, #__VA_ARGS__);                         \
    } while (0)
#define GIVES_TEXT(want, fn, ...)                                                                  \
    do {                                                                                           \
        mark(#fn);                                                                                 \
        const char *got_ = fn(__VA_ARGS__);                                                        \
        CHECK_MSG(got_ && !strcmp(got_, want), "%s(%s): '%s'", #fn, #__VA_ARGS__,                  \
                  got_ ? got_ : "NULL");                                                           \
    } while (0)
/* fn(args), which returns nothing, must merely not crash. */
#define SURVIVES(fn, ...)                                                                          \
    do {                                                                                           \
        mark(#fn);                                                                                 \
        fn(__VA_ARGS__);                                                                           \
    } while (0)

static boids_world *cpu_world(uint32_t n, uint32_t replicas)
{
    boids_world_def d = test_def(BOIDS_BACKEND_CPU, n);
    d.replicas = replicas;
    boids_world *w = NULL;
    if (boids_world_create(&d, &w) != BOIDS_OK) fprintf(stderr, "%s\n", boids_last_error());
    return w;
}

/* What every model's tables refuse or give for missing arguments. */
static void model_args(boids_model m)
{
    boids_params p = boids_model_default_params(m);
    float f;
    CHECK(boids_model_params(m, NULL) != NULL);
    GIVES(NULL, boids_model_param, m, NULL);
    const boids_param_info *info = boids_model_param(m, "max_speed");
    mark("boids_param_get");
    CHECK(isnan(boids_param_get(NULL, info)) && isnan(boids_param_get(&p, NULL)));
    REFUSES(BOIDS_E_ARGUMENT, boids_params_set, m, NULL, "max_speed", "1");
    REFUSES(BOIDS_E_ARGUMENT, boids_params_set, m, &p, NULL, "1");
    REFUSES(BOIDS_E_ARGUMENT, boids_params_set, m, &p, "max_speed", NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_params_validate, m, NULL);
    GIVES(0.0f, boids_model_group_radius, m, NULL);
    GIVES(0.0f, boids_params_max_radius, m, NULL, true);
    REFUSES(BOIDS_E_ARGUMENT, boids_model_param_default, m, NULL, &f);
    REFUSES(BOIDS_E_ARGUMENT, boids_model_param_default, m, "max_speed", NULL);
}

static void test_lists_and_texts(void)
{
    const boids_model bad = (boids_model)BOIDS_MODEL_COUNT, neg = (boids_model)-1;
    GIVES_TEXT("unknown error", boids_error_text, BOIDS_E_COUNT);
    GIVES_TEXT("UNKNOWN", boids_error_name, (boids_error_id)-1);
    GIVES_TEXT("unknown status", boids_status_text, (boids_status)99);
    SURVIVES(boids_last_error);
    SURVIVES(boids_last_error_info);
    GIVES(NULL, boids_model_name, bad);
    GIVES_TEXT("", boids_model_summary, neg);
    boids_model m;
    REFUSES(BOIDS_E_ARGUMENT, boids_model_from_name, NULL, &m);
    REFUSES(BOIDS_E_ARGUMENT, boids_model_from_name, "kit", NULL);
    REFUSES(BOIDS_E_MODEL_UNKNOWN, boids_model_from_name, "nope", &m);
    boids_model_load_info load;
    REFUSES(BOIDS_E_ARGUMENT, boids_model_load, NULL, &load);
    REFUSES(BOIDS_E_MODEL_FOLDER, boids_model_load, "/no/such/folder", &load);
    REFUSES(BOIDS_E_MODEL_FOLDER, boids_model_load, "/", NULL); /* no model.h */
    GIVES(BOIDS_TIME_PER_SECOND, boids_model_time_base, bad);
    GIVES(0u, boids_model_attributes, bad);
    GIVES(0u, boids_model_features, neg);
    SURVIVES(boids_model_default_params, bad);
    size_t count = 99;
    GIVES(NULL, boids_model_params, bad, &count);
    CHECK(count == 0);
    GIVES(NULL, boids_model_params, bad, NULL);
    GIVES(NULL, boids_model_param, bad, "max_speed");
    for (int k = 0; k < BOIDS_MODEL_COUNT; ++k) model_args((boids_model)k);
    boids_params p = boids_model_default_params((boids_model)0);
    REFUSES(BOIDS_E_DEF_MODEL, boids_params_set, bad, &p, "max_speed", "1");
    REFUSES(BOIDS_E_DEF_MODEL, boids_params_validate, neg, &p);
    float f;
    GIVES(false, boids_edges_from_name, NULL, &f);
    GIVES(false, boids_edges_from_name, "wrap", NULL);
    GIVES_TEXT("?", boids_edges_name, NAN);
    GIVES_TEXT("?", boids_edges_name, 7); /* (it read "wrap") */
    GIVES_TEXT("wrap", boids_edges_name, BOIDS_EDGES_WRAP);
    GIVES(0.0f, boids_model_group_radius, bad, &p);
    GIVES(NULL, boids_attribute_info_of, (boids_attribute)BOIDS_ATTR_COUNT);
    GIVES(0.0f, boids_attribute_default, (boids_attribute)-1, NULL);
    /* NULL parameters: each model's defaults (the scout bias read through NULL: a crash) */
    const boids_params adams = boids_model_default_params(BOIDS_MODEL_ADAMS);
    GIVES(boids_attribute_default(BOIDS_ATTR_BIAS, &adams), boids_attribute_default,
          BOIDS_ATTR_BIAS, NULL);
    boids_layout l;
    REFUSES(BOIDS_E_ARGUMENT, boids_layout_from_name, NULL, &l);
    REFUSES(BOIDS_E_ARGUMENT, boids_layout_from_name, "uniform", NULL);
    GIVES_TEXT("?", boids_layout_name, (boids_layout)BOIDS_LAYOUT_COUNT);
    GIVES_TEXT("?", boids_pass_name, BOIDS_PASS_COUNT);
    REFUSES(BOIDS_E_DEF_MODEL, boids_model_param_default, bad, "max_speed", &f);
    SURVIVES(boids_default_world_def);
    SURVIVES(boids_default_world_size, 100, NULL, NULL);
    GIVES(32.0f, boids_default_world_size_3d, 0); /* no boids: room for one (31.6 px) */
    SURVIVES(boids_world_def_resolve_size, NULL);
    SURVIVES(boids_world_def_scale, NULL, 10);
    GIVES(sizeof(boids_world_info), boids_world_info_size);
    size_t at = 0;
    REFUSES(BOIDS_E_ARGUMENT, boids_type_layout, NULL, NULL, &at);
    REFUSES(BOIDS_E_ARGUMENT, boids_type_layout, "boids_metrics", NULL, NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_type_layout, "boids_world", NULL, &at);
    REFUSES(BOIDS_E_ARGUMENT, boids_type_layout, "boids_metrics", "polarisation", &at);
    REQUIRE_OK(boids_type_layout("boids_metrics", NULL, &at));
    CHECK(at == sizeof(boids_metrics));
    REQUIRE_OK(boids_type_layout("boids_metrics", "milling", &at));
    CHECK(at == offsetof(boids_metrics, milling));
    REQUIRE_OK(boids_type_layout("boids_field", "gamma", &at));
    CHECK(at == offsetof(boids_field, gamma));
    REQUIRE_OK(boids_type_layout("boids_field_options", NULL, &at));
    CHECK(at == sizeof(boids_field_options));
    GIVES(BOIDS_MODEL_COUNT, boids_model_count);
    GIVES(BOIDS_ATTR_COUNT, boids_attribute_count);
    GIVES(BOIDS_PASS_COUNT, boids_pass_count);
}

static void test_contexts(void)
{
    REFUSES(BOIDS_E_ARGUMENT, boids_gl_create_headless, NULL);
    boids_gl *gl;
    REFUSES(BOIDS_E_ARGUMENT, boids_gl_create_window, 640, 480, "t", false, NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_gl_create_window, 640, 480, NULL, false, &gl);
    REFUSES(BOIDS_E_ARGUMENT, boids_gl_create_window, 0, 480, "t", false, &gl);
    REFUSES(BOIDS_E_ARGUMENT, boids_gl_create_window, 640, -1, "t", false, &gl);
    SURVIVES(boids_gl_destroy, NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_gl_make_current, NULL);
    GIVES_TEXT("", boids_gl_renderer, NULL);
    GIVES_TEXT("", boids_gl_device, NULL);
    GIVES(false, boids_gl_is_software, NULL);
    GIVES(NULL, boids_gl_window, NULL);
    bool bitwise;
    REFUSES(BOIDS_E_ARGUMENT, boids_gl_bitwise, NULL, &bitwise);
}

/* Every world function on a NULL world, and on a real one with NULL outputs and wrong sizes. */
static void test_worlds(void)
{
    boids_world *w = NULL;
    boids_world_def d = boids_default_world_def();
    REFUSES(BOIDS_E_ARGUMENT, boids_world_create, &d, NULL);
    REFUSES(BOIDS_E_DEF_NULL, boids_world_create, NULL, &w);
    REFUSES(BOIDS_E_DEF_NULL, boids_world_def_validate, NULL);
    d.model = (boids_model)BOIDS_MODEL_COUNT;
    REFUSES(BOIDS_E_DEF_MODEL, boids_world_create, &d, &w);
    REFUSES(BOIDS_E_DEF_MODEL, boids_world_def_validate, &d);
    d = boids_default_world_def();
    d.nearest = 7;
    for (int k = 0; k < BOIDS_MODEL_COUNT; ++k) { /* an own walk without nearest:K: refused */
        const unsigned features = boids_model_features((boids_model)k);
        if (!(features & BOIDS_FEATURE_OWN_WALK) || (features & BOIDS_FEATURE_NEAREST)) continue;
        d.model = (boids_model)k;
        REFUSES(BOIDS_E_DEF_NEAREST, boids_world_def_validate, &d);
    }
    /* what create refuses of the grid, validate refuses too (a sweep of cell_size = 0.1 made its
     * directory, then failed at run 0) */
    d = boids_default_world_def();
    d.cell_size = 0.1f;
    REFUSES(BOIDS_E_DEF_CELL_SIZE, boids_world_def_validate, &d);
    REFUSES(BOIDS_E_DEF_CELL_SIZE, boids_world_create, &d, &w);
    d = boids_default_world_def();
    d.backend = (boids_backend)7;
    REFUSES(BOIDS_E_DEF_BACKEND, boids_world_create, &d, &w);
    const char *keys[1] = {"boids"}, *values[1] = {"10"};
    REFUSES(BOIDS_E_ARGUMENT, boids_world_open, NULL, keys, values, 1, NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_open, NULL, NULL, values, 1, &w);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_open, NULL, keys, NULL, 1, &w);
    SURVIVES(boids_world_destroy, NULL);
    boids_boid b[4];
    boids_predator pr[1];
    boids_obstacle ob[1];
    boids_replica_status rs[1];
    boids_metrics me[1];
    boids_events ev;
    boids_tool tool = {0};
    boids_params p = boids_model_default_params(BOIDS_MODEL_SHIFFMAN_PER_SECOND);
    float f;
    const char *names[1] = {"x"};
    void *cols[1] = {b};
    const void *ccols[1] = {b};
    REFUSES(BOIDS_E_ARGUMENT, boids_world_step, NULL, 1);
    SURVIVES(boids_world_finish, NULL);
    SURVIVES(boids_world_interrupt, NULL, true);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_lock, NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_unlock, NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_read, NULL, b, 4);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_write, NULL, b, 4);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_validate_state, NULL, b, 4);
    boids_world_info info;
    SURVIVES(boids_world_get_info, NULL, &info);
    CHECK(info.count == 0 && info.renderer == NULL);
    GIVES(0.0, boids_world_neighbors_per_agent, NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_set_params, NULL, &p);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_set_tool, NULL, &tool);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_set_count, NULL, 10);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_read_columns, NULL, names, cols, 1);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_write_columns, NULL, names, ccols, 1);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_get_param, NULL, "max_speed", &f);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_set_param, NULL, "max_speed", "1");
    REFUSES(BOIDS_E_ARGUMENT, boids_world_read_predators, NULL, pr, 0);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_write_predators, NULL, pr, 0);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_read_obstacles, NULL, ob, 0);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_set_obstacles, NULL, ob, 0);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_replicas, NULL, rs, 1, NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_metrics, NULL, me, 1);
    boids_census cs;
    REFUSES(BOIDS_E_ARGUMENT, boids_world_census, NULL, &cs);
    boids_field fi;
    REFUSES(BOIDS_E_ARGUMENT, boids_world_field, NULL, NULL, &fi, 1);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_take_events, NULL, &ev);
    boids_profile prof;
    SURVIVES(boids_world_get_profile, NULL, &prof);
    CHECK(prof.step_ms == 0.0 && prof.samples[0] == 0);
    SURVIVES(boids_world_reset_profile, NULL);
    SURVIVES(boids_world_profile_add, NULL, BOIDS_PASS_DRAW, 1.0, 1);
    SURVIVES(boids_world_gl_state, NULL);
    uint8_t px[3 * 4];
    REFUSES(BOIDS_E_ARGUMENT, boids_world_image, NULL, 2, 2, px);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_save_png, NULL, 2, 2, "x.png");

    if (!(w = cpu_world(4, 1))) return;
    REFUSES(BOIDS_E_ARGUMENT, boids_world_image, w, 2, 2, NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_image, w, 0, 2, px);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_image, w, 2, 16385, px);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_save_png, w, 2, 2, NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_save_png, w, 0, 2, "x.png");
    REFUSES(BOIDS_E_ARGUMENT, boids_world_read, w, NULL, 4);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_read, w, b, 3);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_write, w, NULL, 4);
    REFUSES(BOIDS_E_STATE_COUNT, boids_world_write, w, b, 5);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_validate_state, w, NULL, 4);
    SURVIVES(boids_world_get_info, w, NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_set_params, w, NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_set_tool, w, NULL);
    REFUSES(BOIDS_E_DEF_COUNT, boids_world_set_count, w, BOIDS_MAX_BOIDS + 1u);
    tool.kind = 9;
    REFUSES(BOIDS_E_TOOL, boids_world_set_tool, w, &tool);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_read_columns, w, NULL, cols, 1);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_read_columns, w, names, NULL, 1);
    const char *null_name[1] = {NULL};
    REFUSES(BOIDS_E_ARGUMENT, boids_world_read_columns, w, null_name, cols, 1);
    void *null_out[1] = {NULL};
    REFUSES(BOIDS_E_ARGUMENT, boids_world_read_columns, w, names, null_out, 1);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_write_columns, w, names, NULL, 1);
    const void *null_in[1] = {NULL};
    REFUSES(BOIDS_E_ARGUMENT, boids_world_write_columns, w, names, null_in, 1);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_get_param, w, NULL, &f);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_get_param, w, "max_speed", NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_set_param, w, NULL, "1");
    REFUSES(BOIDS_E_ARGUMENT, boids_world_set_param, w, "max_speed", NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_read_predators, w, NULL, 1);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_write_predators, w, NULL, 1);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_read_obstacles, w, NULL, 1);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_set_obstacles, w, NULL, 1);
    GIVES(BOIDS_OK, boids_world_set_obstacles, w, NULL, 0); /* none: no memcpy from NULL */
    REFUSES(BOIDS_E_ARGUMENT, boids_world_replicas, w, NULL, 1, NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_replicas, w, rs, 2, NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_metrics, w, NULL, 1);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_metrics, w, me, 0);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_census, w, NULL);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_field, w, NULL, NULL, 1);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_field, w, &(boids_field_options){.bins = 999}, &fi, 1);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_take_events, w, NULL);
    SURVIVES(boids_world_get_profile, w, NULL);
    for (int pass = -1; pass <= BOIDS_PASS_COUNT; pass += BOIDS_PASS_COUNT + 1)
        boids_world_profile_add(w, (boids_pass)pass, 5.0, 1); /* ignored, not written */
    boids_world_profile_add(w, BOIDS_PASS_DRAW, NAN, 1);
    boids_world_get_profile(w, &prof);
    CHECK(prof.samples[BOIDS_PASS_DRAW] == 0);
    /* and the world still works */
    REQUIRE_OK(boids_world_step(w, 2));
    REQUIRE_OK(boids_world_read(w, b, 4));
    CHECK(test_state_finite(b, 4));
    boids_world_destroy(w);
}

/* Obstacles per replica times the replicas, in 64 bits, against the limit, whichever way the
 * count arrives: the definition, set_params, set_param by name. */
static void test_totals(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_CPU, 100);
    d.replicas = 100;
    d.params.obstacles.obstacles = 100000; /* 10^7 in all */
    boids_world *w = NULL;
    REFUSES(BOIDS_E_PARAM_RANGE, boids_world_create, &d, &w);
    CHECK(w == NULL);
    if (!(w = cpu_world(100, 100))) return;
    REFUSES(BOIDS_E_PARAM_RANGE, boids_world_set_param, w, "obstacles", "100000");
    boids_params p = boids_model_default_params(BOIDS_MODEL_SHIFFMAN_PER_SECOND);
    p.obstacles.obstacles = 20000; /* 2 * 10^6 in all */
    REFUSES(BOIDS_E_PARAM_RANGE, boids_world_set_params, w, &p);
    REQUIRE_OK(boids_world_set_param(w, "obstacles", "10000")); /* 10^6: fits */
    boids_world_info info;
    boids_world_get_info(w, &info);
    CHECK(info.obstacles == 1000000);
    boids_world_destroy(w);
    /* 43 000 replicas x 100 000 wraps 32 bits to 4.3e9 mod 2^32: refused, not allocated short */
    if (!(w = cpu_world(43000, 43000))) return;
    REFUSES(BOIDS_E_PARAM_RANGE, boids_world_set_param, w, "obstacles", "100000");
    REFUSES(BOIDS_E_PARAM_RANGE, boids_world_set_param, w, "obstacles", "99883");
    boids_world_get_info(w, &info);
    CHECK(info.obstacles == 0);
    REQUIRE_OK(boids_world_step(w, 1));
    boids_world_destroy(w);
}

typedef struct stepper {
    boids_world *w;
    int calls;
    boids_status st;
    char why[256]; /* the error, which is the stepping thread's */
} stepper;

static void *step_often(void *arg)
{
    stepper *s = arg;
    boids_metrics m;
    for (int i = 0; i < s->calls && s->st == BOIDS_OK; ++i) {
        s->st = boids_world_step(s->w, 1);
        if (s->st == BOIDS_OK && i % 8 == 0) s->st = boids_world_metrics(s->w, &m, 1);
    }
    snprintf(s->why, sizeof s->why, "%s", s->st == BOIDS_OK ? "" : boids_last_error());
    return NULL;
}

/* Two threads stepping one world take turns: every step counted, nothing crashes; a GPU world
 * (its own context) made here is stepped and read from other threads, one after another. */
static void test_threads(void)
{
    boids_world *w = cpu_world(3000, 1);
    if (!w) return;
    stepper s[2] = {{w, 40, BOIDS_OK, ""}, {w, 40, BOIDS_OK, ""}};
    pthread_t t[2];
    for (int i = 0; i < 2; ++i) pthread_create(&t[i], NULL, step_often, &s[i]);
    for (int i = 0; i < 2; ++i) pthread_join(t[i], NULL);
    CHECK_MSG(s[0].st == BOIDS_OK && s[1].st == BOIDS_OK, "%s%s", s[0].why, s[1].why);
    boids_world_info info;
    boids_world_get_info(w, &info);
    CHECK_MSG(info.steps == 80, "%llu steps of 80", (unsigned long long)info.steps);
    boids_world_destroy(w);

    test_gpu_context(); /* skips where there is no GL at all */
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 3000);
    d.gl = NULL; /* a context of its own */
    REQUIRE_OK(boids_world_create(&d, &w));
    for (int round = 0; round < 3; ++round) {
        stepper one = {w, 5, BOIDS_OK, ""};
        pthread_create(&t[0], NULL, step_often, &one);
        pthread_join(t[0], NULL);
        CHECK_MSG(one.st == BOIDS_OK, "GPU world from thread %d: %s", round, one.why);
    }
    boids_boid *b = malloc(sizeof *b * 3000);
    REQUIRE_OK(boids_world_read(w, b, 3000));
    CHECK(test_state_finite(b, 3000));
    free(b);
    boids_world_get_info(w, &info);
    CHECK(info.steps == 15);
    boids_world_destroy(w);
}

typedef struct long_step {
    boids_world *w;
    int started;
    boids_status st;
} long_step;

static void *step_long(void *arg)
{
    long_step *l = arg;
    __atomic_store_n(&l->started, 1, __ATOMIC_RELEASE);
    l->st = boids_world_step(l->w, 300); /* a second or more */
    return NULL;
}

/* boids_world_destroy while another thread steps the world takes its turn: the step ends, whole,
 * before the world goes (Python's close() from one thread while another stepped once freed it
 * under the step: SIGSEGV, or ASan's heap-use-after-free in the walk). */
static void test_destroy_waits(void)
{
    boids_world *w = cpu_world(100000, 1);
    if (!w) return;
    long_step l = {w, 0, BOIDS_ERR_INTERNAL};
    pthread_t t;
    pthread_create(&t, NULL, step_long, &l);
    while (!__atomic_load_n(&l.started, __ATOMIC_ACQUIRE)) sched_yield();
    nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL); /* well inside the step */
    boids_world_destroy(w);
    pthread_join(t, NULL);
    CHECK_MSG(l.st == BOIDS_OK, "the step destroyed under: status %d", (int)l.st);
}

typedef struct recounter {
    boids_world *w;
    int rounds, done;
    boids_status st;
} recounter;

static void *recount(void *arg)
{
    recounter *r = arg;
    for (int i = 0; i < __atomic_load_n(&r->rounds, __ATOMIC_ACQUIRE) && r->st == BOIDS_OK; ++i)
        r->st = boids_world_set_count(r->w, i % 2 ? 2000 : 4000);
    __atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* boids_world_lock: another thread's calls wait for the unlock, the holder's go on (nested), an
 * unlock without a lock is refused, a world destroyed locked goes; and boids_world_image, which
 * holds it from the count to the boids, beside set_count on another thread (it failed 20
 * pictures in 50: "read of 4000 boids from a world of 2000"). */
static void test_lock(void)
{
    boids_world *w = cpu_world(2000, 1);
    if (!w) return;
    REFUSES(BOIDS_E_ARGUMENT, boids_world_unlock, w);
    REQUIRE_OK(boids_world_lock(w));
    REQUIRE_OK(boids_world_lock(w)); /* nested */
    recounter r = {w, 1, 0, BOIDS_OK};
    pthread_t t;
    pthread_create(&t, NULL, recount, &r);
    nanosleep(&(struct timespec){0, 200 * 1000 * 1000}, NULL);
    boids_world_info info;
    boids_world_get_info(w, &info); /* the holder's calls go on */
    CHECK_MSG(!__atomic_load_n(&r.done, __ATOMIC_ACQUIRE) && info.count == 2000,
              "set_count on another thread went on under the lock (count %u)", info.count);
    REQUIRE_OK(boids_world_unlock(w));
    nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
    CHECK_MSG(!__atomic_load_n(&r.done, __ATOMIC_ACQUIRE), "one unlock of two let it go");
    REQUIRE_OK(boids_world_unlock(w));
    pthread_join(t, NULL);
    boids_world_get_info(w, &info);
    CHECK_MSG(r.st == BOIDS_OK && info.count == 4000, "after the unlock: count %u", info.count);
    REFUSES(BOIDS_E_ARGUMENT, boids_world_unlock, w);

    enum { PICTURES = 50, SIDE = 32 };
    static uint8_t px[SIDE * SIDE * 3];
    boids_status st = boids_world_image(w, SIDE, SIDE, px);
    if (st == BOIDS_ERR_NO_GL) {
        printf("  (no OpenGL here: the pictures beside set_count are not drawn)\n");
    } else {
        REQUIRE_OK(st);
        r = (recounter){w, 1000000, 0, BOIDS_OK};
        pthread_create(&t, NULL, recount, &r);
        int failed = 0;
        for (int i = 0; i < PICTURES; ++i)
            if (boids_world_image(w, SIDE, SIDE, px) != BOIDS_OK && !failed++)
                fprintf(stderr, "  picture %d: %s\n", i, boids_last_error());
        __atomic_store_n(&r.rounds, 0, __ATOMIC_RELEASE); /* it stops at its next call */
        pthread_join(t, NULL);
        CHECK_MSG(failed == 0 && r.st == BOIDS_OK, "%d pictures of %d failed beside set_count",
                  failed, PICTURES);
    }
    REQUIRE_OK(boids_world_lock(w));
    boids_world_destroy(w); /* locked by its destroyer: it goes all the same */
}

static void *interrupt_soon(void *w)
{
    nanosleep(&(struct timespec){0, 300 * 1000 * 1000}, NULL);
    boids_world_interrupt(w, true);
    return NULL;
}

static void interrupted(boids_backend backend)
{
    const uint32_t n = 6000;
    boids_world_def d = test_def(backend, n);
    boids_world *w = NULL, *twin = NULL;
    REQUIRE_OK(boids_world_create(&d, &w));
    REQUIRE_OK(boids_world_create(&d, &twin));
    pthread_t t;
    pthread_create(&t, NULL, interrupt_soon, w);
    boids_status st = boids_world_step(w, 1000000); /* an hour or more, unless stopped */
    pthread_join(t, NULL);
    CHECK_MSG(st == BOIDS_ERR_INTERRUPTED && boids_last_error_info()->id == BOIDS_E_INTERRUPTED,
              "%s: status %d: %s", backend == BOIDS_BACKEND_CPU ? "CPU" : "GPU", (int)st,
              boids_last_error());
    boids_world_info info;
    boids_world_get_info(w, &info);
    const uint64_t taken = info.steps;
    boids_metrics m;
    CHECK(boids_world_step(w, 5) == BOIDS_ERR_INTERRUPTED); /* still on: nothing begins */
    CHECK(boids_world_metrics(w, &m, 1) == BOIDS_ERR_INTERRUPTED || backend == BOIDS_BACKEND_GPU);
    boids_world_get_info(w, &info);
    CHECK_MSG(info.steps == taken, "%llu steps, then %llu", (unsigned long long)taken,
              (unsigned long long)info.steps);
    boids_world_interrupt(w, false);
    REQUIRE_OK(boids_world_step(w, 1));
    REQUIRE_OK(boids_world_metrics(w, &m, 1));
    REQUIRE_OK(boids_world_step(twin, (uint32_t)taken + 1));
    boids_boid *a = malloc(sizeof *a * n), *b = malloc(sizeof *b * n);
    REQUIRE_OK(boids_world_read(w, a, n));
    REQUIRE_OK(boids_world_read(twin, b, n));
    uint32_t differ = 0;
    for (uint32_t i = 0; i < n; ++i)
        differ += a[i].x != b[i].x || a[i].y != b[i].y || a[i].vx != b[i].vx || a[i].vy != b[i].vy;
    CHECK_MSG(differ == 0, "%s: after %llu + 1 steps, %u boids differ from a world not stopped",
              backend == BOIDS_BACKEND_CPU ? "CPU" : "GPU", (unsigned long long)taken, differ);
    printf("  %s: stopped after %llu steps of 10^6\n", backend == BOIDS_BACKEND_CPU ? "CPU" : "GPU",
           (unsigned long long)taken);
    free(a), free(b);
    boids_world_destroy(w);
    boids_world_destroy(twin);
}

static void test_interrupt(void)
{
    interrupted(BOIDS_BACKEND_CPU);
    test_gpu_context(); /* skips where there is no GL at all */
    interrupted(BOIDS_BACKEND_GPU);
}

/* What a forked child may do, each answered at once (an alarm fails a hang). */
static int child_checks(boids_world *inherited)
{
    alarm(60);
    int bad = 0;
    bad |=
        boids_world_step(inherited, 1) == BOIDS_OK || boids_last_error_info()->id != BOIDS_E_FORKED;
    boids_world_destroy(inherited); /* left alone: the parent's */
    boids_gl *gl = NULL;
    bad |=
        (boids_gl_create_headless(&gl) == BOIDS_OK || boids_last_error_info()->id != BOIDS_E_FORKED)
        << 1;
    boids_world *w = cpu_world(500, 1);
    bad |= (!w || boids_world_step(w, 3) != BOIDS_OK) << 2;
    boids_world_destroy(w);
    return bad;
}

static void test_fork(void)
{
    boids_gl *gl = test_gpu_context(); /* the parent has the GPU open */
    (void)gl;
    boids_world *w = cpu_world(500, 1);
    if (!w) return;
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) _exit(child_checks(w));
    int status = 0;
    waitpid(child, &status, 0);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "child: %s %d (1: inherited world not refused, 2: inherited GPU not refused, 4: "
              "no new CPU world)",
              WIFEXITED(status) ? "exit" : "signal",
              WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    REQUIRE_OK(boids_world_step(w, 1)); /* the parent's world is untouched */
    boids_world_destroy(w);
}

/* The census of four boids placed by hand, on both backends: in a 1000 px world of cells of
 * 1000 / 19 px (the radius, 50 px, rounded up to tile it), A (100, 100) and B (130, 100) are 30 px
 * apart, C (190, 100) is 60 px from B and in its block but not in A's, D (600, 600) alone. The
 * blocks hold A: A, B; B: A, B, C; C: B, C; D: D (2 candidates a boid) and the neighbours within
 * 50 px are A's B and B's A (0.5 a boid). A GPU world counts its buffers' bytes. */
static void test_census(void)
{
    const boids_backend backends[] = {BOIDS_BACKEND_CPU, BOIDS_BACKEND_GPU};
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = test_def(backends[k], 4);
        d.width = d.height = 1000;
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        const boids_boid b[4] = {
            {100, 100, 1, 0, 0}, {130, 100, 1, 0, 0}, {190, 100, 1, 0, 0}, {600, 600, 1, 0, 0}};
        REQUIRE_OK(boids_world_write(w, b, 4));
        boids_census c;
        REQUIRE_OK(boids_world_census(w, &c));
        printf("  %s: %u living, %.2f candidates, %.2f neighbours within %.1f px\n",
               k ? "gpu" : "cpu", c.living, c.candidates, c.neighbours, (double)c.radius);
        CHECK(c.living == 4 && c.candidates == 2.0 && c.neighbours == 0.5 && c.radius == 50.0f);
        /* the GPU's buffers: at least the state and its sorted copy (16 bytes of position and
         * velocity, a swarm and an id a boid, each twice) and the grid's 19 x 19 cells' counts
         * and starts; none for the CPU */
        printf("  %s: %llu bytes of GPU buffers\n", k ? "gpu" : "cpu",
               (unsigned long long)c.device_bytes);
        CHECK(k ? c.device_bytes >= 2 * 24 * 4 + 2 * 4 * 19 * 19 : c.device_bytes == 0);
        boids_world_destroy(w);
    }
}

/* Every function boids.h declares was exercised above. */
static void test_every_function(void)
{
    FILE *f = fopen(BOIDS_PUBLIC_HEADER, "r");
    REQUIRE_OK(f ? BOIDS_OK : BOIDS_ERR_IO);
    char line[512];
    int declared = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == ' ' || line[0] == '#' || line[0] == '/' || strstr(line, "typedef")) continue;
        const char *name = strstr(line, "boids_");
        while (name && strstr(name + 1, "boids_") && strchr(name, '(') > strstr(name + 1, "boids_"))
            name = strstr(name + 1, "boids_"); /* the last boids_ before '(' */
        const char *paren = name ? strchr(name, '(') : NULL;
        if (!paren) continue;
        char fn[96];
        snprintf(fn, sizeof fn, "%.*s", (int)(paren - name), name);
        ++declared;
        int found = 0;
        for (int i = 0; i < nexercised; ++i) found |= !strcmp(exercised[i], fn);
        CHECK_MSG(found, "%s (declared in boids.h) is not called on bad arguments here", fn);
    }
    fclose(f);
    CHECK_MSG(declared > 60, "only %d functions read from %s", declared, BOIDS_PUBLIC_HEADER);
    printf("%d public functions, each called on bad arguments\n", declared);
}

TEST_MAIN(TEST(test_lists_and_texts), TEST(test_contexts), TEST(test_worlds), TEST(test_totals),
          TEST(test_threads), TEST(test_lock), TEST(test_destroy_waits), TEST(test_interrupt),
          TEST(test_fork), TEST(test_census), TEST(test_every_function))
