/* A tiny test harness: CHECK records a failure with file and line and goes on; TEST_MAIN runs
 * the listed test functions and ends with the line "N passed, N failed" that CI reads.
 * GPU tests call test_gpu_context(): without a GL 4.3 context they skip (exit 77, which ctest
 * reports as skipped), unless BOIDS_REQUIRE_GPU=1, where CI makes a missing context a failure. */
#ifndef BOIDS_TEST_H
#define BOIDS_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "boids.h"

/* (unused in a test whose cases all skip in some build) */
__attribute__((unused)) static int test_checks_failed, test_checks_total, test_current_failed;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        ++test_checks_total;                                                                       \
        if (!(cond)) {                                                                             \
            ++test_checks_failed;                                                                  \
            test_current_failed = 1;                                                               \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                       \
    do {                                                                                           \
        ++test_checks_total;                                                                       \
        if (!(cond)) {                                                                             \
            ++test_checks_failed;                                                                  \
            test_current_failed = 1;                                                               \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);               \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

/* Stops the current test function when a status is not OK (later checks would be meaningless). */
#define REQUIRE_OK(expr)                                                                           \
    do {                                                                                           \
        boids_status st_ = (expr);                                                                 \
        ++test_checks_total;                                                                       \
        if (st_ != BOIDS_OK) {                                                                     \
            ++test_checks_failed;                                                                  \
            test_current_failed = 1;                                                               \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #expr,                   \
                    boids_last_error());                                                           \
            return;                                                                                \
        }                                                                                          \
    } while (0)

typedef struct test_case {
    const char *name;
    void (*fn)(void);
} test_case;

/* A crash names the test it came in and where (a backtrace on stderr), then ends the process as
 * the signal would: a driver's rare crash in CI once left only "SegFault" and no output (stdout
 * to a pipe is buffered, and lost with the process). Under AddressSanitizer its own report does
 * this. */
static const char *test_current_name = "(before the first test)";
#if !defined(__SANITIZE_ADDRESS__)
#include <execinfo.h>
#include <signal.h>
#include <unistd.h>
static void test_on_crash(int sig)
{
    char line[256];
    int len =
        snprintf(line, sizeof line, "\nsignal %d in %s; backtrace:\n", sig, test_current_name);
    if (write(2, line, (size_t)len) < 0) _exit(128 + sig);
    void *frames[64];
    backtrace_symbols_fd(frames, backtrace(frames, 64), 2);
    signal(sig, SIG_DFL);
    raise(sig);
}
static inline void test_catch_crashes(void)
{
    void *warm[1];
    backtrace(warm, 1); /* loads libgcc now, not in the handler */
    const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; ++i) signal(sigs[i], test_on_crash);
}
#else
static inline void test_catch_crashes(void) {}
#endif

/* Each test's wall seconds follow its name: what to shorten when CI runs long. */
static inline int test_run(const test_case *tests, int n)
{
    int passed = 0, failed = 0;
    setvbuf(stdout, NULL, _IOLBF, 0); /* every line out before a crash could lose it */
    test_catch_crashes();
    for (int i = 0; i < n; ++i) {
        test_current_failed = 0;
        test_current_name = tests[i].name;
        struct timespec t0, t1;
        timespec_get(&t0, TIME_UTC);
        tests[i].fn();
        timespec_get(&t1, TIME_UTC);
        printf("%s %s (%.1f s)\n", test_current_failed ? "FAIL" : "ok  ", tests[i].name,
               (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
        if (test_current_failed)
            ++failed;
        else
            ++passed;
        fflush(stdout);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

#define TEST_MAIN(...)                                                                             \
    int main(void)                                                                                 \
    {                                                                                              \
        static const test_case tests_[] = {__VA_ARGS__};                                           \
        return test_run(tests_, (int)(sizeof tests_ / sizeof tests_[0]));                          \
    }

/* clang-format off */
#define TEST(fn) {#fn, fn}
/* clang-format on */

/* Under the sanitizers (CI's build with AddressSanitizer) a test leaves out what only repeats a
 * run for statistics, and a run made long only for its numerics' sake (steps that let two
 * backends' roundings part) runs a tenth of its steps: every code path still runs once under
 * them; the suite without the sanitizers runs them whole (as the shell tests do, tests/lib.sh). */
static inline int test_sanitized(void)
{
#if defined(__SANITIZE_ADDRESS__)
    return 1;
#else
    return 0;
#endif
}
static inline uint32_t test_steps(uint32_t steps)
{
    return test_sanitized() ? (steps + 9) / 10 : steps;
}

/* The shared GL context of a GPU test program, created once; exits 77 (skip) if none. */
static boids_gl *test_gl;
static inline boids_gl *test_gpu_context(void)
{
    if (test_gl) return test_gl;
    if (boids_gl_create_headless(&test_gl) != BOIDS_OK) {
        const char *req = getenv("BOIDS_REQUIRE_GPU");
        if (req && strcmp(req, "1") == 0) {
            fprintf(stderr, "no GL 4.3 context, and BOIDS_REQUIRE_GPU=1: %s\n", boids_last_error());
            printf("0 passed, 1 failed\n");
            exit(1);
        }
        printf("SKIP: no GL 4.3 context: %s\n", boids_last_error());
        exit(77);
    }
    printf("GL renderer: %s\n", boids_gl_renderer(test_gl));
    return test_gl;
}

/* A world definition on the given backend sharing the test context. */
static inline boids_world_def test_def(boids_backend backend, uint32_t n)
{
    boids_world_def d = boids_default_world_def();
    d.backend = backend;
    d.count = n;
    d.threads = 2;
    if (backend == BOIDS_BACKEND_GPU) d.gl = test_gpu_context();
    return d;
}

#ifdef BOIDS_TEST_SCENARIOS
#include <unistd.h>

#include "core/scenario.h"

/* The world of scenarios/NAME (the shipped file, which the build copies beside the tests:
 * BUILD/share/boids/scenarios, found from the test's own path, so a build carried elsewhere still
 * finds it; else the source tree's): 1 when read, 0 when there is no such file; a file that does
 * not parse fails the test run. */
/* A data file the build copies relative to the test's own directory (BUILD/tests), found from
 * the test's path so a build carried elsewhere still finds it, else at `source` (the source
 * tree's): into path, 1 when readable. */
static inline int test_data_path(const char *in_build, const char *source, char *path, size_t cap)
{
    char exe[4096] = "";
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = len > 0 ? (exe[len] = '\0', strrchr(exe, '/')) : NULL;
    if (slash) *slash = '\0'; /* BUILD/tests */
    snprintf(path, cap, "%s/%s", exe, in_build);
    if (!slash || access(path, R_OK) != 0) snprintf(path, cap, "%s", source);
    return access(path, R_OK) == 0;
}

static inline int test_scenario_def(const char *name, boids_world_def *out)
{
    static boids_scenario sc; /* large: obstacles inline */
    char in_build[512], source[4200], path[8300];
    snprintf(in_build, sizeof in_build, "../share/boids/scenarios/%s", name);
    snprintf(source, sizeof source, "%s/%s", BOIDS_TEST_SCENARIOS, name);
    if (!test_data_path(in_build, source, path, sizeof path)) return 0;
    if (boids_scenario_load(path, 0, &sc) != BOIDS_OK) {
        fprintf(stderr, "%s\n", boids_last_error());
        exit(1);
    }
    *out = sc.def;
    return 1;
}
#endif

static inline int test_state_finite(const boids_boid *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i)
        if (!isfinite(b[i].x) || !isfinite(b[i].y) || !isfinite(b[i].vx) || !isfinite(b[i].vy))
            return 0;
    return 1;
}

#endif
