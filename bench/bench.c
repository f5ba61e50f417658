/* boids-bench: GPU vs CPU, steps per second and ns per boid-step, at the default density (one
 * boid per 1000 px^2, 16:9), for a list of flock sizes. Each measurement keeps the best of a few
 * repeats after a warm-up; the GPU is timed from the first dispatch to glFinish, so no read-back
 * is in the loop. Prints a table; --csv writes the same rows.
 *
 *   boids-bench [--sizes 10000,100000] [--seconds 1] [--repeats 3] [--csv FILE]
 *   boids-bench --export [--sizes 100000] [--frames 60] [--size 1920x1080]
 *
 * --export measures PNG export instead: frames per second written (rendered offscreen, read
 * back asynchronously, encoded on worker threads, renamed into place), with the simulation
 * stepping once per frame and with it paused (export alone).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "boids.h"
#include "render/boid_renderer.h"
#include "render/png_writer.h"
#include "render/target.h"

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
    boids_world_reset_profile(w); /* the per-pass split of the timed runs only */
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

/* Frames per second written: F frames of w x h of an N-boid GPU world, stepping `step` steps per
 * frame. */
static int export_rate(boids_gl *gl, uint32_t n, int w, int h, unsigned frames, uint32_t step, double *fps)
{
    char dir[] = "/tmp/boids-bench-frames-XXXXXX";
    if (!mkdtemp(dir)) return -1;
    boids_world_def def = boids_default_world_def();
    def.count = n;
    def.gl = gl;
    boids_world *world = NULL;
    boids_renderer *r = NULL;
    boids_png_writer *pw = NULL;
    boids_target t = {0};
    int rc = -1;
    if (boids_world_create(&def, &world) == BOIDS_OK && boids_target_create(&t, w, h) == BOIDS_OK &&
        boids_renderer_create(&r) == BOIDS_OK && boids_png_writer_create(dir, w, h, 0, &pw) == BOIDS_OK) {
        boids_world_info info;
        boids_world_get_info(world, &info);
        boids_camera cam;
        boids_camera_fit(&cam, info.width, info.height, (float)w, (float)h);
        boids_draw_style style = boids_default_draw_style(world);
        boids_world_step(world, 30); /* a flock, not the random start */
        boids_world_finish(world);
        double t0 = now_s();
        rc = 0;
        for (unsigned f = 0; f < frames && rc == 0; ++f) {
            if (step && boids_world_step(world, step) != BOIDS_OK) rc = -1;
            boids_target_bind(&t);
            if (rc == 0 && boids_renderer_draw(r, world, &cam, &style) != BOIDS_OK) rc = -1;
            if (rc == 0 && boids_png_writer_capture(pw) != BOIDS_OK) rc = -1;
        }
        if (rc == 0 && boids_png_writer_finish(pw) != BOIDS_OK) rc = -1;
        *fps = frames / (now_s() - t0);
    }
    if (rc != 0) fprintf(stderr, "boids-bench: export: %s\n", boids_last_error());
    boids_png_writer_destroy(pw);
    boids_renderer_destroy(r);
    boids_target_destroy(&t);
    boids_world_destroy(world);
    for (unsigned f = 0; f < frames; ++f) {
        char path[128];
        snprintf(path, sizeof path, "%s/frame_%06u.png", dir, f);
        remove(path);
    }
    rmdir(dir);
    return rc;
}

int main(int argc, char **argv)
{
    uint32_t sizes[16] = {10000, 100000};
    int nsizes = 2, repeats = 3;
    double seconds = 1.0;
    const char *csv_path = NULL;
    int export_mode = 0, ew = 1920, eh = 1080;
    unsigned eframes = 60;
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
        } else if (!strcmp(a, "--export")) {
            export_mode = 1;
        } else if (!strcmp(a, "--frames") && v) {
            eframes = (unsigned)atoi(v);
            if (eframes < 1 || eframes > 100000) {
                fprintf(stderr, "boids-bench: --frames: '%s' is not in [1, 100000]\n", v);
                return 2;
            }
            ++i;
        } else if (!strcmp(a, "--size") && v) {
            if (sscanf(v, "%dx%d", &ew, &eh) != 2 || ew < 1 || eh < 1 || ew > 16384 || eh > 16384) {
                fprintf(stderr, "boids-bench: --size: '%s' is not WxH\n", v);
                return 2;
            }
            ++i;
        } else if (!strcmp(a, "--csv") && v) {
            csv_path = v;
            ++i;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            printf("usage: boids-bench [--sizes 10000,100000] [--seconds 1] [--repeats 3] [--csv FILE]\n"
                   "       boids-bench --export [--sizes 100000] [--frames 60] [--size 1920x1080]\n");
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
        if (export_mode) {
            fprintf(csv, "model,mode,threads,boids,width,height,frames,fps_with_step,fps_export_only,renderer\n");
        } else {
            fprintf(csv, "model,backend,threads,boids,width,height,steps,steps_per_s,ns_per_boid_step");
            for (int p = BOIDS_PASS_GRID; p <= BOIDS_PASS_STEER; ++p) fprintf(csv, ",%s_ms", boids_pass_name((boids_pass)p));
            fprintf(csv, ",renderer\n");
        }
    }

    boids_gl *gl = NULL;
    if (boids_gl_create_headless(&gl) != BOIDS_OK)
        fprintf(stderr, "boids-bench: GPU rows skipped: %s\n", boids_last_error());
    if (export_mode) {
        if (!gl) return 1;
        if (nsizes == 2 && sizes[0] == 10000) nsizes = 1, sizes[0] = 100000;
        printf("PNG export, %dx%d, %u frames, GPU: %s\n", ew, eh, eframes, boids_gl_renderer(gl));
        printf("%9s %22s %22s\n", "boids", "frames/s (1 step each)", "frames/s (export only)");
        int status = 0;
        for (int s = 0; s < nsizes; ++s) {
            double with_sim = 0, alone = 0;
            if (export_rate(gl, sizes[s], ew, eh, eframes, 1, &with_sim) != 0 ||
                export_rate(gl, sizes[s], ew, eh, eframes, 0, &alone) != 0)
                status = 1;
            printf("%9u %22.1f %22.1f\n", sizes[s], with_sim, alone);
            if (csv)
                fprintf(csv, "shiffman-per-second,export,0,%u,%d,%d,%u,%.3f,%.3f,\"%s\"\n", sizes[s], ew, eh,
                        eframes, with_sim, alone, boids_gl_renderer(gl));
        }
        boids_gl_destroy(gl);
        if (csv) fclose(csv);
        return status;
    }
    const config configs[] = {
        {"gpu", BOIDS_BACKEND_GPU, 0},
        {"cpu 1 thread", BOIDS_BACKEND_CPU, 1},
        {"cpu all threads", BOIDS_BACKEND_CPU, 0},
    };
    printf("model shiffman-per-second, default density (1 boid / 1000 px^2), best of %d\n", repeats);
    if (gl) printf("GPU: %s\n", boids_gl_renderer(gl));
    printf("%-16s %9s %8s %12s %16s    %s\n", "backend", "boids", "threads", "steps/s", "ns/boid-step",
           "share of a step per pass");
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
                boids_profile prof;
                boids_world_get_profile(w, &prof); /* GL timer queries or wall clock, per pass */
                printf("%-16s %9u %8d %12.1f %16.1f   ", configs[c].name, sizes[s], info.threads,
                       1.0 / step_s, ns);
                for (int p = BOIDS_PASS_GRID; p <= BOIDS_PASS_STEER; ++p)
                    printf(" %s %.0f%%", boids_pass_name((boids_pass)p),
                           prof.step_ms > 0 ? 100.0 * prof.ms[p] / prof.step_ms : 0.0);
                printf("\n");
                if (csv) {
                    fprintf(csv, "shiffman-per-second,%s,%d,%u,%g,%g,%u,%.3f,%.3f",
                            def.backend == BOIDS_BACKEND_GPU ? "gpu" : "cpu", info.threads, sizes[s],
                            (double)info.width, (double)info.height, steps, 1.0 / step_s, ns);
                    for (int p = BOIDS_PASS_GRID; p <= BOIDS_PASS_STEER; ++p) fprintf(csv, ",%.4f", prof.ms[p]);
                    fprintf(csv, ",\"%s\"\n", info.renderer);
                }
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
