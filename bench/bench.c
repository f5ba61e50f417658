/* boids-bench: GPU vs CPU, steps per second and ns per boid-step, at the default density (one
 * boid per 1000 px^2, 16:9), for a list of flock sizes. Each measurement keeps the best of a few
 * repeats after a warm-up; the GPU is timed from the first dispatch to glFinish, so no read-back
 * is in the loop. Prints a table; --csv writes the same rows.
 *
 *   boids-bench [--sizes 10000,100000] [--seconds 1] [--repeats 3] [--csv FILE]
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "boids.h"

typedef struct config {
    const char *name;
    boids_backend backend;
    int threads; /* CPU: 0 = all cores */
} config;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Seconds per step: best of `repeats` runs of enough steps to last about `seconds`. */
static int measure(boids_world *w, double seconds, int repeats, double *best_step_s, uint32_t *steps_out)
{
    /* Warm-up (shader compilation, first-touch of memory), then size the runs. */
    double t0 = now_s();
    uint32_t steps = 2;
    if (boids_world_step(w, steps) != BOIDS_OK) return -1;
    boids_world_finish(w);
    double per = (now_s() - t0) / steps;
    steps = per > 0 ? (uint32_t)(seconds / per) : 100;
    if (steps < 3) steps = 3;
    if (steps > 100000) steps = 100000;
    *best_step_s = 1e30;
    for (int r = 0; r < repeats; ++r) {
        boids_world_finish(w);
        t0 = now_s();
        if (boids_world_step(w, steps) != BOIDS_OK) return -1;
        boids_world_finish(w);
        double s = (now_s() - t0) / steps;
        if (s < *best_step_s) *best_step_s = s;
    }
    *steps_out = steps;
    return 0;
}

static int parse_sizes(const char *s, uint32_t *sizes, int max)
{
    int n = 0;
    while (*s && n < max) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || errno || v == 0 || v > 16000000) return -1;
        sizes[n++] = (uint32_t)v;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return -1;
    }
    return n;
}

int main(int argc, char **argv)
{
    uint32_t sizes[16] = {10000, 100000};
    int nsizes = 2, repeats = 3;
    double seconds = 1.0;
    const char *csv_path = NULL;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--sizes") && v) {
            nsizes = parse_sizes(v, sizes, 16);
            if (nsizes <= 0) {
                fprintf(stderr, "boids-bench: --sizes: '%s' is not a list like 10000,100000\n", v);
                return 2;
            }
            ++i;
        } else if (!strcmp(a, "--seconds") && v) {
            seconds = strtod(v, NULL);
            if (!(seconds > 0 && seconds < 3600)) {
                fprintf(stderr, "boids-bench: --seconds: '%s' is not in (0, 3600)\n", v);
                return 2;
            }
            ++i;
        } else if (!strcmp(a, "--repeats") && v) {
            repeats = atoi(v);
            if (repeats < 1 || repeats > 100) {
                fprintf(stderr, "boids-bench: --repeats: '%s' is not in [1, 100]\n", v);
                return 2;
            }
            ++i;
        } else if (!strcmp(a, "--csv") && v) {
            csv_path = v;
            ++i;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            printf("usage: boids-bench [--sizes 10000,100000] [--seconds 1] [--repeats 3] [--csv FILE]\n");
            return 0;
        } else {
            fprintf(stderr, "boids-bench: unknown or incomplete option '%s' (see --help)\n", a);
            return 2;
        }
    }
    FILE *csv = NULL;
    if (csv_path) {
        csv = fopen(csv_path, "w");
        if (!csv) {
            fprintf(stderr, "boids-bench: --csv: cannot write %s: %s\n", csv_path, strerror(errno));
            return 2;
        }
        fprintf(csv, "model,backend,threads,boids,width,height,steps,steps_per_s,ns_per_boid_step,renderer\n");
    }

    boids_gl *gl = NULL;
    if (boids_gl_create_headless(&gl) != BOIDS_OK)
        fprintf(stderr, "boids-bench: GPU rows skipped: %s\n", boids_last_error());
    const config configs[] = {
        {"gpu", BOIDS_BACKEND_GPU, 0},
        {"cpu 1 thread", BOIDS_BACKEND_CPU, 1},
        {"cpu all threads", BOIDS_BACKEND_CPU, 0},
    };
    printf("model shiffman-per-second, default density (1 boid / 1000 px^2), best of %d\n", repeats);
    if (gl) printf("GPU: %s\n", boids_gl_renderer(gl));
    printf("%-16s %9s %8s %12s %16s\n", "backend", "boids", "threads", "steps/s", "ns/boid-step");
    int status = 0;
    for (int s = 0; s < nsizes; ++s) {
        for (size_t c = 0; c < sizeof configs / sizeof configs[0]; ++c) {
            if (configs[c].backend == BOIDS_BACKEND_GPU && !gl) continue;
            boids_world_def def = boids_default_world_def();
            def.backend = configs[c].backend;
            def.count = sizes[s];
            def.threads = configs[c].threads;
            def.gl = gl;
            boids_world *w;
            if (boids_world_create(&def, &w) != BOIDS_OK) {
                fprintf(stderr, "boids-bench: %s at %u boids: %s\n", configs[c].name, sizes[s],
                        boids_last_error());
                status = 1;
                continue;
            }
            boids_world_info info;
            boids_world_get_info(w, &info);
            double step_s;
            uint32_t steps;
            if (measure(w, seconds, repeats, &step_s, &steps) != 0) {
                fprintf(stderr, "boids-bench: %s: %s\n", configs[c].name, boids_last_error());
                status = 1;
            } else {
                double ns = step_s * 1e9 / sizes[s];
                printf("%-16s %9u %8d %12.1f %16.1f\n", configs[c].name, sizes[s], info.threads,
                       1.0 / step_s, ns);
                if (csv)
                    fprintf(csv, "shiffman-per-second,%s,%d,%u,%g,%g,%u,%.3f,%.3f,\"%s\"\n",
                            def.backend == BOIDS_BACKEND_GPU ? "gpu" : "cpu", info.threads, sizes[s],
                            (double)info.width, (double)info.height, steps, 1.0 / step_s, ns,
                            info.renderer);
                fflush(stdout);
            }
            boids_world_destroy(w);
        }
    }
    boids_gl_destroy(gl);
    if (csv && fclose(csv) != 0) {
        fprintf(stderr, "boids-bench: --csv: write failed\n");
        status = 1;
    }
    return status;
}
