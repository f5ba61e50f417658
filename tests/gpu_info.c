/* gpu_info [KEY | devices]: what the shell tests and scripts/gpu-check.sh need to know of this
 * machine's GPU, as KEY=VALUE lines (or, given a KEY, its value alone):
 *   renderer     GL_RENDERER
 *   device       which device the context runs on, and why (boids_gl_device)
 *   software     1 when the EGL device runs on the CPU (llvmpipe, zink over lavapipe)
 *   block_bytes  GL_MAX_SHADER_STORAGE_BLOCK_SIZE (the largest buffer a pass binds)
 *   groups_x, groups_y  GL_MAX_COMPUTE_WORK_GROUP_COUNT along x and y
 *   loop_limit   the loop iterations a pass may run per invocation (measured; 4294967295: none)
 *   ieee         1 when the driver rounds as IEEE does (tests/gpu_exact.h's probe)
 *   numerics     native, or perturbed: a real GPU's rounding emulated (BOIDS_GPU_NUMERICS)
 *   exact        1 when the tests expect the GPU to equal the CPU bit for bit (ieee and native
 *                numerics, unless BOIDS_TEST_EXACT says otherwise)
 *   lowered      1 when BOIDS_GPU_LIMIT_* lowered a limit
 *   resets_told  1 when the driver tells of a GPU reset of the context (GL_LOSE_CONTEXT_ON_RESET:
 *                a call after one fails, saying so, instead of reading buffers no pass wrote)
 * `devices` lists EGL's devices instead, one a line (the index BOIDS_EGL_DEVICE takes).
 * `binary SHADER DIMS OUT` writes the driver's binary of an embedded compute shader (a steering
 * program: steer_MODEL.comp; DIMS 2 or 3) to OUT, as glGetProgramBinary gives it: NVIDIA's holds
 * its assembly as text, which says what a pass costs per candidate (scripts/gpu-check.sh keeps
 * the steering programs' for the report).
 * Exit 77 without a GL 4.3 context, 1 if BOIDS_REQUIRE_GPU=1 then. */
#include <glad/egl.h>
#include <stdio.h>

#include "gl/bitwise.h"
#include "gl/context.h"
#include "gl/devices.h"
#include "gl/gl.h"
#include "gl/limits.h"
#include "gl/program.h"
#include "gpu/loop_limit.h"
#include "gpu_exact.h"

enum { KEYS = 12 };

static int list_devices(void)
{
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) {
        fprintf(stderr, "gpu_info: no libEGL\n");
        return 1;
    }
    boids_egl_device devs[BOIDS_EGL_MAX_DEVICES];
    const int n = boids_egl_devices(devs, BOIDS_EGL_MAX_DEVICES);
    for (int i = 0; i < n; ++i) printf("egl_device_%d=%s\n", i, devs[i].name);
    char evidence[300];
    if (boids_gpu_kernel_evidence("", evidence, sizeof evidence))
        printf("kernel_gpu=%s\n", evidence);
    return 0;
}

/* The program's binary, linked again with the hint that asks the driver to keep it. */
static int write_binary(const char *shader, int dims, const char *path)
{
    GLuint prog = 0;
    if (boids_program_compute(shader, dims, &prog) != BOIDS_OK) {
        fprintf(stderr, "gpu_info: %s\n", boids_last_error());
        return 1;
    }
    glProgramParameteri(prog, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
    glLinkProgram(prog);
    GLint len = 0, formats = 0;
    glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
    glGetProgramiv(prog, GL_PROGRAM_BINARY_LENGTH, &len);
    if (formats < 1 || len <= 0) {
        fprintf(stderr, "gpu_info: the driver gives no binary of %s (%d formats)\n", shader,
                formats);
        glDeleteProgram(prog);
        return 1;
    }
    void *bin = malloc((size_t)len);
    GLenum format = 0;
    GLsizei got = 0;
    if (bin) glGetProgramBinary(prog, len, &got, &format, bin);
    FILE *f = bin ? fopen(path, "wb") : NULL;
    const int ok = f && fwrite(bin, 1, (size_t)got, f) == (size_t)got;
    if (f && fclose(f) != 0) fprintf(stderr, "gpu_info: %s: could not write\n", path);
    if (!ok)
        fprintf(stderr, "gpu_info: %s: could not write %d bytes\n", path, (int)got);
    else
        printf("%s: %d bytes (format 0x%x) of %s, %dD\n", path, (int)got, format, shader, dims);
    free(bin);
    glDeleteProgram(prog);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "devices") == 0) return list_devices();
    if (argc > 1 && strcmp(argv[1], "binary") == 0 && argc != 5) {
        fprintf(stderr, "usage: gpu_info binary SHADER DIMS OUT\n");
        return 2;
    }
    boids_gl *gl = NULL;
    if (boids_gl_create_headless(&gl) != BOIDS_OK) {
        fprintf(stderr, "gpu_info: %s\n", boids_last_error());
        const char *req = getenv("BOIDS_REQUIRE_GPU");
        return req && strcmp(req, "1") == 0 ? 1 : 77;
    }
    if (argc > 1 && strcmp(argv[1], "binary") == 0) {
        const int rc = write_binary(argv[2], atoi(argv[3]) == 3 ? 3 : 2, argv[4]);
        boids_gl_destroy(gl);
        return rc;
    }
    uint32_t limit = 0;
    bool perturbed = false;
    if (boids_gpu_loop_limit(gl, &limit) != BOIDS_OK ||
        boids_gpu_numerics_perturbed(&perturbed) != BOIDS_OK) {
        fprintf(stderr, "gpu_info: %s\n", boids_last_error());
        return 1;
    }
    bool ieee = false;
    if (boids_gl_rounds_as_ieee(gl, &ieee) != BOIDS_OK) {
        fprintf(stderr, "gpu_info: %s\n", boids_last_error());
        return 1;
    }
    const boids_gpu_limits *l = boids_gl_limits(gl);
    char values[KEYS][400];
    const char *keys[KEYS] = {"renderer", "device",   "software",   "block_bytes",
                              "groups_x", "groups_y", "loop_limit", "ieee",
                              "numerics", "exact",    "lowered",    "resets_told"};
    snprintf(values[0], sizeof values[0], "%s", boids_gl_renderer(gl));
    snprintf(values[1], sizeof values[1], "%s", boids_gl_device(gl));
    snprintf(values[2], sizeof values[2], "%d", boids_gl_is_software(gl) ? 1 : 0);
    snprintf(values[3], sizeof values[3], "%llu", (unsigned long long)l->block_bytes);
    snprintf(values[4], sizeof values[4], "%u", l->groups_x);
    snprintf(values[5], sizeof values[5], "%u", l->groups_y);
    snprintf(values[6], sizeof values[6], "%u", limit);
    snprintf(values[7], sizeof values[7], "%d", ieee ? 1 : 0);
    snprintf(values[8], sizeof values[8], "%s", perturbed ? "perturbed" : "native");
    snprintf(values[9], sizeof values[9], "%d", test_gpu_exact_on(gl) ? 1 : 0);
    snprintf(values[10], sizeof values[10], "%d", l->lowered ? 1 : 0);
    snprintf(values[11], sizeof values[11], "%d", boids_gl_told_of_resets(gl) ? 1 : 0);
    int found = argc < 2;
    for (int k = 0; k < KEYS; ++k) {
        if (argc < 2)
            printf("%s=%s\n", keys[k], values[k]);
        else if (strcmp(argv[1], keys[k]) == 0)
            printf("%s\n", values[k]), found = 1;
    }
    boids_gl_destroy(gl);
    if (!found) fprintf(stderr, "gpu_info: no key %s\n", argv[1]);
    return found ? 0 : 2;
}
