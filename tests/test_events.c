/* Events and the profile, on both backends.
 *
 * Events are exercised through the one kind every model emits today, BOIDS_EVENT_TOOL (a boid
 * within the mouse tool's reach): each step's events are exactly the boids an oracle finds within
 * the tool's radius in the state before that step, with their distance; they are gathered over
 * several step calls and read back only when taken, in the order (step, kind, subject, other);
 * both backends give the same list (bit for bit where the GPU rounds as IEEE does); a world that
 * does not ask for the
 * kind records none; more events than the capacity are counted as lost and reported, never
 * dropped silently. The profile: after steps, every pass of a step (core/step.h's table) that runs
 * for the model has timings on both backends, and the passes it does not run have none. */
#include "gpu_exact.h"
#include "core/step.h"
#include "test.h"

static int exact(void) { return test_gpu_exact_on(test_gpu_context()); }

static const boids_backend backends[2] = {BOIDS_BACKEND_CPU, BOIDS_BACKEND_GPU};
static const char *const names[2] = {"cpu", "gpu"};

static boids_world_def tool_world(boids_backend be, boids_model m)
{
    boids_world_def d = test_def(be, 3000);
    d.model = m;
    d.params = boids_model_default_params(m);
    d.width = 1600;
    d.height = 900;
    if (d.params.base.edges != BOIDS_EDGES_WRAP) d.params.base.edges = BOIDS_EDGES_WRAP;
    /* over the whole world (a model whose own start is a centre square, kit's, keeps it: its
     * tool stands in the centre), so some boids lie across the seam */
    if (!(boids_model_features(m) & BOIDS_FEATURE_PREDATORS)) d.layout = BOIDS_LAYOUT_UNIFORM;
    d.event_mask = 1u << BOIDS_EVENT_TOOL;
    return d;
}

/* Across the seam; in the centre for kit, whose flock starts in the centre square. */
static boids_tool tool = {1590, 450, 120, 50, BOIDS_TOOL_ATTRACT, 0, 0, 0};

/* The boids the oracle expects in the tool's reach for state b (minimum image, 0 < d < r). */
static uint32_t expected_in_reach(const boids_boid *b, uint32_t n, float W, float H,
                                  unsigned char *in)
{
    uint32_t count = 0;
    for (uint32_t i = 0; i < n; ++i) {
        double dx = tool.x - b[i].x, dy = tool.y - b[i].y;
        if (dx > W / 2) dx -= W;
        if (dx < -W / 2) dx += W;
        if (dy > H / 2) dy -= H;
        if (dy < -H / 2) dy += H;
        double d2 = dx * dx + dy * dy;
        in[i] = d2 > 0 && d2 < (double)tool.radius * tool.radius;
        count += in[i];
    }
    return count;
}

static void test_tool_events_match_the_oracle(void)
{
    enum { STEPS = 6 };
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        tool.x = boids_model_features((boids_model)m) & BOIDS_FEATURE_PREDATORS ? 800 : 1590;
        boids_event *lists[2] = {NULL, NULL};
        size_t counts[2] = {0, 0};
        for (int k = 0; k < 2; ++k) {
            boids_world_def d = tool_world(backends[k], (boids_model)m);
            boids_world *w;
            REQUIRE_OK(boids_world_create(&d, &w));
            REQUIRE_OK(boids_world_set_tool(w, &tool));
            boids_boid *b = malloc(sizeof *b * d.count);
            unsigned char *in = malloc(d.count);
            uint32_t expected[STEPS];
            unsigned char *expect_in = malloc((size_t)d.count * STEPS);
            /* One step at a time, the state read before each (reads leave the events on the
             * device: only a take reads them back). */
            for (int s = 0; s < STEPS; ++s) {
                REQUIRE_OK(boids_world_read(w, b, d.count));
                expected[s] = expected_in_reach(b, d.count, d.width, d.height, in);
                memcpy(expect_in + (size_t)s * d.count, in, d.count);
                REQUIRE_OK(boids_world_step(w, 1));
            }
            boids_events ev;
            REQUIRE_OK(boids_world_take_events(w, &ev));
            CHECK(ev.lost == 0);
            size_t total = 0;
            for (int s = 0; s < STEPS; ++s) total += expected[s];
            CHECK_MSG(ev.count == total, "%s %s: %zu events, the oracle finds %zu",
                      boids_model_name(d.model), names[k], ev.count, total);
            /* Sorted by (step, kind, subject); each event a boid the oracle puts in reach. */
            int sorted = 1, right = 1;
            for (size_t i = 0; i < ev.count; ++i) {
                const boids_event *e = &ev.events[i];
                if (i &&
                    (e->step < ev.events[i - 1].step ||
                     (e->step == ev.events[i - 1].step && e->subject <= ev.events[i - 1].subject)))
                    sorted = 0;
                right &= e->kind == BOIDS_EVENT_TOOL && e->step < STEPS && e->subject < d.count &&
                         expect_in[(size_t)e->step * d.count + e->subject] && e->value[0] > 0 &&
                         e->value[0] < tool.radius;
            }
            CHECK_MSG(sorted, "%s: events out of order", names[k]);
            CHECK_MSG(right, "%s: an event the oracle does not expect", names[k]);
            lists[k] = malloc(sizeof(boids_event) * (ev.count ? ev.count : 1));
            memcpy(lists[k], ev.events, sizeof(boids_event) * ev.count);
            counts[k] = ev.count;
            /* A take starts a new list. */
            REQUIRE_OK(boids_world_take_events(w, &ev));
            CHECK(ev.count == 0 && ev.lost == 0);
            free(b), free(in), free(expect_in);
            boids_world_destroy(w);
        }
        CHECK(counts[0] > 0);
        int same = counts[0] == counts[1];
        for (size_t i = 0; same && i < counts[0]; ++i) {
            const boids_event *a = &lists[0][i], *g = &lists[1][i];
            same = a->step == g->step && a->kind == g->kind && a->subject == g->subject &&
                   a->other == g->other;
            if (exact())
                same &= memcmp(a, g, sizeof *a) == 0;
            else
                same &= fabsf(a->value[0] - g->value[0]) <= 1e-3f * tool.radius;
        }
        printf("  %-20s %zu tool events over %d steps, cpu %s gpu\n",
               boids_model_name((boids_model)m), counts[0], STEPS, same ? "=" : "!=");
        CHECK_MSG(same, "%s: the backends' event lists differ", boids_model_name((boids_model)m));
        free(lists[0]), free(lists[1]);
    }
}

static void test_events_only_when_asked_and_lost_ones_reported(void)
{
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = tool_world(backends[k], BOIDS_MODEL_SHIFFMAN_PER_SECOND);
        d.event_mask = 0; /* the kind not asked for: nothing recorded */
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_set_tool(w, &tool));
        REQUIRE_OK(boids_world_step(w, 3));
        boids_events ev;
        REQUIRE_OK(boids_world_take_events(w, &ev));
        CHECK_MSG(ev.count == 0 && ev.lost == 0, "%s: %zu events recorded without being asked for",
                  names[k], ev.count);
        boids_world_destroy(w);

        d.event_mask = 1u << BOIDS_EVENT_TOOL;
        d.event_capacity = 10; /* far fewer than the boids in reach */
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_set_tool(w, &tool));
        REQUIRE_OK(boids_world_step(w, 3));
        boids_status st = boids_world_take_events(w, &ev);
        CHECK_MSG(st == BOIDS_ERR_LIMIT && boids_last_error_info()->id == BOIDS_E_EVENTS_LOST,
                  "%s: an overflow was not reported (%s)", names[k], boids_last_error());
        CHECK_MSG(ev.count == 10 && ev.lost > 0, "%s: kept %zu, lost %llu", names[k], ev.count,
                  (unsigned long long)ev.lost);
        printf("  %s: capacity 10: kept %zu, %llu reported lost\n", names[k], ev.count,
               (unsigned long long)ev.lost);
        /* A write starts the state, and its events, afresh. */
        boids_boid *b = malloc(sizeof *b * d.count);
        REQUIRE_OK(boids_world_step(w, 1));
        REQUIRE_OK(boids_world_read(w, b, d.count));
        REQUIRE_OK(boids_world_write(w, b, d.count));
        REQUIRE_OK(boids_world_take_events(w, &ev));
        CHECK(ev.count == 0 && ev.lost == 0);
        free(b);
        boids_world_destroy(w);
    }
}

static void test_profile(void)
{
    const boids_model models[] = {BOIDS_MODEL_SHIFFMAN_PER_SECOND, BOIDS_MODEL_KIT};
    for (int m = 0; m < 2; ++m)
        for (int k = 0; k < 2; ++k) {
            boids_world_def d = test_def(backends[k], m == 0 ? 5000 : 500); /* kit: a small world */
            d.model = models[m];
            d.params = boids_model_default_params(d.model);
            boids_world *w;
            REQUIRE_OK(boids_world_create(&d, &w));
            for (int i = 0; i < 5; ++i) REQUIRE_OK(boids_world_step(w, 2));
            boids_world_finish(w);
            boids_profile p;
            boids_world_get_profile(w, &p);
            printf("  %s, %s:", boids_model_name(d.model), names[k]);
            for (int pass = 0; pass < BOIDS_PASS_COUNT; ++pass)
                printf(" %s %.3f ms (%llu)", boids_pass_name((boids_pass)pass), p.ms[pass],
                       (unsigned long long)p.samples[pass]);
            printf(", step %.3f ms\n", p.step_ms);
            const unsigned features = boids_model_features(d.model);
            for (int s = 0; s < BOIDS_STEP_PASS_COUNT; ++s) {
                const boids_pass pass = boids_step_passes[s].pass;
                /* (on the GPU the steering of a model without predators sorts the boids it
                 * moves: a grid pass runs only after a write, here the world's first step,
                 * which is never timed) */
                const bool fused =
                    k == 1 && pass == BOIDS_PASS_GRID && !(features & BOIDS_FEATURE_PREDATORS);
                const bool runs = boids_step_pass_runs(s, features) && !fused;
                CHECK_MSG((p.samples[pass] > 0) == runs && p.ms[pass] >= 0, "%s, %s: pass %s %s",
                          boids_model_name(d.model), names[k], boids_pass_name(pass),
                          runs ? "not timed" : "timed, but not run");
            }
            CHECK(p.samples[BOIDS_PASS_DRAW] == 0); /* nothing drawn */
            CHECK(p.step_ms > 0);
            boids_world_reset_profile(w);
            boids_world_get_profile(w, &p);
            CHECK(p.samples[BOIDS_PASS_STEER] == 0);
            boids_world_destroy(w);
        }
}

TEST_MAIN(TEST(test_tool_events_match_the_oracle),
          TEST(test_events_only_when_asked_and_lost_ones_reported), TEST(test_profile))
