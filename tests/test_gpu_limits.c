/* What the driver allows and which device it is, asked, never assumed:
 *   - a world one past the driver's largest storage buffer (emulated with a lowered limit,
 *     BOIDS_GPU_LIMIT_BLOCK_BYTES) is refused with BOIDS_E_GPU_LIMIT naming the limit and how many
 *     boids fit, and one at the limit is made; a grid of too many cells likewise, and a change of
 *     parameters that would need one leaves the world as it was;
 *   - a world past the slots a buffer texture shows (BOIDS_GPU_LIMIT_TEXELS) likewise;
 *   - a 3D world whose state is twice the lowered block runs split, with the bits of the world
 *     on the whole block, for every model;
 *   - a dispatch past the driver's workgroups along x (emulated, BOIDS_GPU_LIMIT_GROUPS_X) goes on
 *     in y and steps, sorts, scans, measures and reads exactly as a 1-D dispatch does, for every
 *     model, predators and replicas included;
 *   - the device: BOIDS_EGL_DEVICE picks one of EGL's list (the context names it), an index out of
 *     the list or a bad BOIDS_EGL_PLATFORM is BOIDS_E_ENVIRONMENT naming the variable;
 *   - the software rasterizer is taken only where the machine shows no GPU: the kernel's signs of
 *     one (NVIDIA's driver, a DRM render node of a GPU driver), read from trees made here, and the
 *     hints a missing vendor library or a container without `graphics` give. */
#include <sys/stat.h>
#include <unistd.h>

#include "gl/devices.h"
#include "test.h"

/* A headless context made with `name` set to `value` in the environment (then unset). */
static boids_status context_with(const char *name, const char *value, boids_gl **out)
{
    setenv(name, value, 1);
    boids_status st = boids_gl_create_headless(out);
    unsetenv(name);
    return st;
}

/* On a context whose limit (named `limit` in the message) holds 1000 boids: a world of 1000 is
 * made and steps, one of 1001 is refused naming the limit and how many fit. */
static void at_and_one_past(boids_gl *gl, const char *limit)
{
    for (uint32_t n = 1000; n <= 1001; ++n) {
        boids_world_def d = boids_default_world_def();
        d.count = n;
        d.event_capacity = 16; /* 32 bytes each: within the block */
        d.gl = gl;
        boids_world *w = NULL;
        boids_status st = boids_world_create(&d, &w);
        const boids_error *e = boids_last_error_info();
        if (n == 1000) {
            CHECK_MSG(st == BOIDS_OK, "1000 boids within %s: %s", limit, boids_last_error());
            CHECK(st != BOIDS_OK || boids_world_step(w, 3) == BOIDS_OK);
        } else {
            printf("  %s\n", boids_last_error());
            CHECK(st == BOIDS_ERR_LIMIT && e->id == BOIDS_E_GPU_LIMIT && w == NULL);
            CHECK(strstr(e->message, limit) && strstr(e->message, "at most 1000 boids"));
        }
        boids_world_destroy(w);
    }
}

static void test_a_world_past_the_storage_block_is_refused(void)
{
    test_gpu_context(); /* skips without a GL context */
    boids_gl *gl;
    REQUIRE_OK(context_with("BOIDS_GPU_LIMIT_BLOCK_BYTES", "16016", &gl)); /* 1000 boids */
    at_and_one_past(gl, "GL_MAX_SHADER_STORAGE_BLOCK_SIZE");
    /* cells: 4 bytes each and one more; a radius that would need more is refused and changes
     * nothing */
    boids_world_def d = boids_default_world_def();
    d.count = 500;
    d.event_capacity = 16;
    d.width = d.height = 10000; /* 200 x 200 cells of 50 px: 160 004 bytes of starts */
    d.gl = gl;
    boids_world *w = NULL;
    boids_status st = boids_world_create(&d, &w);
    CHECK(st == BOIDS_ERR_LIMIT && strstr(boids_last_error(), "cells"));
    d.width = d.height = 2500; /* 50 x 50 cells */
    REQUIRE_OK(boids_world_create(&d, &w));
    boids_world_info before, info;
    boids_world_get_info(w, &before);
    boids_params p = d.params;
    p.reynolds.sep_radius = p.reynolds.align_radius = p.reynolds.cohesion_radius = 10;
    st = boids_world_set_params(w, &p);
    CHECK_MSG(st == BOIDS_ERR_LIMIT, "a grid of 250 x 250 cells: %s", boids_last_error());
    boids_world_get_info(w, &info);
    CHECK(info.grid_w == before.grid_w && info.grid_h == before.grid_h &&
          info.params.reynolds.sep_radius == d.params.reynolds.sep_radius);
    CHECK(boids_world_step(w, 2) == BOIDS_OK);
    boids_world_destroy(w);
    boids_gl_destroy(gl);
    /* a bad value names the variable */
    st = context_with("BOIDS_GPU_LIMIT_BLOCK_BYTES", "lots", &gl);
    CHECK(st != BOIDS_OK && boids_last_error_info()->id == BOIDS_E_ENVIRONMENT &&
          strstr(boids_last_error(), "BOIDS_GPU_LIMIT_BLOCK_BYTES"));
}

/* 20 steps of model m's world (with predators and replicas where it has them; 3D where depth is
 * not 0) on gl; the state, the predators and the metrics read back. */
typedef struct outcome {
    boids_boid *boids;
    boids_predator predators[8];
    boids_metrics metrics[2];
} outcome;

static boids_world_def model_def(boids_model m, float depth)
{
    boids_world_def d = boids_default_world_def();
    d.model = m;
    d.params = boids_model_default_params(m);
    d.count = 3000; /* 12 groups of 256: 4 rows of 3 where x allows 3 */
    d.replicas = 2;
    d.width = 1200, d.height = 700, d.depth = depth;
    d.event_capacity = 16; /* 32 bytes each: within a lowered block */
    if (m == BOIDS_MODEL_KIT) {
        d.params.kit.view_radius = d.params.predators.pred_view_radius = 60;
        d.params.predators.predators = 4;
    }
    return d;
}

static bool run_def(boids_gl *gl, boids_world_def d, outcome *o)
{
    const boids_model m = d.model;
    d.gl = gl;
    boids_world *w;
    if (boids_world_create(&d, &w) != BOIDS_OK) {
        CHECK_MSG(0, "%s", boids_last_error());
        return false;
    }
    o->boids = malloc(sizeof *o->boids * d.count);
    boids_world_info info;
    boids_world_get_info(w, &info);
    bool ok = boids_world_step(w, 20) == BOIDS_OK &&
              boids_world_read(w, o->boids, d.count) == BOIDS_OK &&
              boids_world_metrics(w, o->metrics, 2) == BOIDS_OK &&
              (!info.predators ||
               boids_world_read_predators(w, o->predators, info.predators) == BOIDS_OK);
    CHECK_MSG(ok, "%s: %s", boids_model_name(m), boids_last_error());
    boids_world_destroy(w);
    return ok;
}

static void test_dispatches_go_on_in_y(void)
{
    boids_gl *narrow;
    REQUIRE_OK(context_with("BOIDS_GPU_LIMIT_GROUPS_X", "3", &narrow));
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        outcome a = {0}, b = {0};
        const boids_world_def d = model_def((boids_model)m, 0);
        if (run_def(test_gpu_context(), d, &a) && run_def(narrow, d, &b)) {
            const bool same = memcmp(a.boids, b.boids, sizeof *a.boids * 3000) == 0 &&
                              memcmp(a.predators, b.predators, sizeof a.predators) == 0 &&
                              memcmp(a.metrics, b.metrics, sizeof a.metrics) == 0;
            printf("  %-19s 20 steps, 3 workgroups along x: %s\n", boids_model_name((boids_model)m),
                   same ? "the same bits as 1-D dispatches" : "DIFFERENT");
            CHECK(same);
        }
        free(a.boids), free(b.boids);
    }
    boids_gl_destroy(narrow);
}

/* A 3D world's state, 32 bytes a boid, twice a storage block lowered to 16 bytes a boid (and the
 * catches' head): it runs split, its (x, y, vx, vy) and its (z, vz) in blocks of their own, the
 * check mode (on in the tests) finding no block bound past the limit, and every model's 20 steps,
 * predators and metrics are the bits of the same world on the driver's whole block. */
/* The neighbour walks read the boids through buffer textures: a world past the texels one shows
 * (emulated, BOIDS_GPU_LIMIT_TEXELS) is refused naming the limit, one at it steps as the CPU. */
static void test_a_world_past_the_buffer_texture_is_refused(void)
{
    test_gpu_context(); /* skips without a GL context */
    boids_gl *gl;
    REQUIRE_OK(context_with("BOIDS_GPU_LIMIT_TEXELS", "1000", &gl));
    at_and_one_past(gl, "GL_MAX_TEXTURE_BUFFER_SIZE");
    boids_gl_destroy(gl);
}

static void test_a_3d_world_past_the_storage_block_runs_split(void)
{
    test_gpu_context(); /* skips without a GL context */
    boids_gl *small;
    REQUIRE_OK(context_with("BOIDS_GPU_LIMIT_BLOCK_BYTES", "48016", &small));
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        boids_world_def d = model_def((boids_model)m, 400);
        /* a model of small radii (vicsek, couzin) in a box of as many cells as the block holds
         * (the grid may be coarser than the radius at first: shrunk until it fits) */
        for (double cells = 1e9; cells > 8000;) {
            boids_world_info info;
            boids_world *probe;
            REQUIRE_OK(boids_world_create(&d, &probe));
            boids_world_get_info(probe, &info);
            boids_world_destroy(probe);
            cells = (double)info.grid_w * info.grid_h * info.grid_d * d.replicas;
            const double shrink = cells > 8000 ? cbrt(8000 / cells) : 1;
            d.width *= shrink, d.height *= shrink, d.depth *= shrink;
        }
        outcome a = {0}, b = {0};
        if (run_def(test_gpu_context(), d, &a) && run_def(small, d, &b)) {
            const bool same = memcmp(a.boids, b.boids, sizeof *a.boids * 3000) == 0 &&
                              memcmp(a.predators, b.predators, sizeof a.predators) == 0 &&
                              memcmp(a.metrics, b.metrics, sizeof a.metrics) == 0;
            printf("  %-19s 3D, 96000 bytes of state on blocks of 48016: %s\n",
                   boids_model_name((boids_model)m),
                   same ? "the same bits as on the whole block" : "DIFFERENT");
            CHECK(same);
        }
        free(a.boids), free(b.boids);
    }
    boids_gl_destroy(small);
}

static void test_the_device_is_chosen_and_named(void)
{
    boids_gl *gl = test_gpu_context();
    printf("  the tests' context: %s\n", boids_gl_device(gl));
    CHECK(strstr(boids_gl_device(gl), "EGL") != NULL);
    boids_egl_device devs[BOIDS_EGL_MAX_DEVICES];
    const int n = boids_egl_devices(devs, BOIDS_EGL_MAX_DEVICES);
    for (int i = 0; i < n; ++i) {
        char index[16];
        snprintf(index, sizeof index, "%d", i);
        boids_gl *one;
        if (context_with("BOIDS_EGL_DEVICE", index, &one) == BOIDS_OK) {
            char want[48];
            snprintf(want, sizeof want, "EGL device %d of %d", i, n);
            printf("  BOIDS_EGL_DEVICE=%d: %s, %s\n", i, boids_gl_renderer(one),
                   boids_gl_device(one));
            CHECK(strstr(boids_gl_device(one), want) != NULL);
            boids_gl_destroy(one);
        } else {
            printf("  BOIDS_EGL_DEVICE=%d: %s\n", i, boids_last_error());
        }
    }
    boids_gl *none;
    boids_status st = context_with("BOIDS_EGL_DEVICE", "99", &none);
    CHECK(st != BOIDS_OK && boids_last_error_info()->id == BOIDS_E_ENVIRONMENT &&
          strstr(boids_last_error(), "BOIDS_EGL_DEVICE"));
    st = context_with("BOIDS_EGL_PLATFORM", "gbm", &none);
    CHECK(st != BOIDS_OK && boids_last_error_info()->id == BOIDS_E_ENVIRONMENT &&
          strstr(boids_last_error(), "BOIDS_EGL_PLATFORM"));
    /* where the kernel shows no GPU and EGL no hardware device, the software rasterizer says so */
    char evidence[300];
    bool hardware = boids_gpu_kernel_evidence("", evidence, sizeof evidence);
    for (int i = 0; i < n; ++i) hardware |= !devs[i].software;
    if (!hardware) {
        CHECK(boids_gl_is_software(gl) && strstr(boids_gl_device(gl), "no hardware GPU found"));
        st = context_with("BOIDS_EGL_PLATFORM", "device", &none);
        CHECK_MSG(st == BOIDS_ERR_NO_GL, "the device platform without a GPU: %s",
                  boids_last_error());
    }
}

/* path under root, made with its parents; a file with `text`, or a symlink to `link`. */
static void make(const char *root, const char *path, const char *text, const char *link)
{
    char full[512], dir[512];
    snprintf(full, sizeof full, "%s/%s", root, path);
    for (char *p = strchr(full + strlen(root) + 1, '/'); p; p = strchr(p + 1, '/')) {
        snprintf(dir, sizeof dir, "%.*s", (int)(p - full), full);
        mkdir(dir, 0755);
    }
    if (link) {
        CHECK(symlink(link, full) == 0);
        return;
    }
    FILE *f = fopen(full, "w");
    if (f) fputs(text, f), fclose(f);
}

static void test_the_kernel_shows_a_gpu(void)
{
    char roots[4][64], found[300], hints[800];
    for (int k = 0; k < 4; ++k) {
        snprintf(roots[k], sizeof roots[k], "/tmp/boids-gpu-XXXXXX");
        CHECK(mkdtemp(roots[k]) != NULL);
    }
    CHECK(!boids_gpu_kernel_evidence(roots[0], found, sizeof found) && !found[0]);
    make(
        roots[1], "proc/driver/nvidia/version",
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024\n",
        NULL);
    CHECK(boids_gpu_kernel_evidence(roots[1], found, sizeof found) && strstr(found, "NVIDIA") &&
          strstr(found, "550.54.15"));
    printf("  %s\n", found);
    make(roots[2], "sys/class/drm/renderD128/device/driver", NULL, "../../bus/pci/drivers/amdgpu");
    CHECK(boids_gpu_kernel_evidence(roots[2], found, sizeof found) && strstr(found, "amdgpu") &&
          strstr(found, "renderD128"));
    printf("  %s\n", found);
    make(roots[3], "sys/class/drm/renderD128/device/driver", NULL,
         "../../bus/platform/drivers/vgem");
    CHECK(!boids_gpu_kernel_evidence(roots[3], found, sizeof found));
    setenv("NVIDIA_DRIVER_CAPABILITIES", "compute,utility", 1);
    boids_gpu_context_hints("an NVIDIA GPU (Kernel Module 550)", hints, sizeof hints);
    unsetenv("NVIDIA_DRIVER_CAPABILITIES");
    printf("  hints: %s\n", hints);
    CHECK(strstr(hints, "'graphics'") && strstr(hints, "--backend cpu"));
    boids_gpu_context_hints("a GPU at /dev/dri/renderD128 (kernel driver amdgpu)", hints,
                            sizeof hints);
    CHECK(!strstr(hints, "graphics") && strstr(hints, "--backend cpu"));
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s %s %s", roots[0], roots[1], roots[2], roots[3]);
    CHECK(system(cmd) == 0);
}

TEST_MAIN(TEST(test_a_world_past_the_storage_block_is_refused),
          TEST(test_a_world_past_the_buffer_texture_is_refused),
          TEST(test_a_3d_world_past_the_storage_block_runs_split), TEST(test_dispatches_go_on_in_y),
          TEST(test_the_device_is_chosen_and_named), TEST(test_the_kernel_shows_a_gpu))
