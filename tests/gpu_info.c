/* gpu_info [KEY]: what the shell tests need to know of this machine's GPU, as KEY=VALUE lines
 * (or, given a KEY, its value alone):
 *   renderer    GL_RENDERER
 *   software    1 when the EGL device runs on the CPU (llvmpipe, zink over lavapipe)
 *   loop_limit  the loop iterations a pass may run per invocation (measured; 4294967295: none)
 *   ieee        1 when the driver rounds as IEEE does (tests/gpu_exact.h's probe)
 *   exact       1 when the tests expect the GPU to equal the CPU bit for bit (ieee, unless
 *               BOIDS_TEST_EXACT says otherwise)
 * Exit 77 without a GL 4.3 context, 1 if BOIDS_REQUIRE_GPU=1 then. */
#include "gpu/limits.h"
#include "gpu_exact.h"

int main(int argc, char **argv)
{
    boids_gl *gl = NULL;
    if (boids_gl_create_headless(&gl) != BOIDS_OK) {
        fprintf(stderr, "gpu_info: %s\n", boids_last_error());
        const char *req = getenv("BOIDS_REQUIRE_GPU");
        return req && strcmp(req, "1") == 0 ? 1 : 77;
    }
    uint32_t limit = 0;
    if (boids_gpu_loop_limit(gl, &limit) != BOIDS_OK) {
        fprintf(stderr, "gpu_info: %s\n", boids_last_error());
        return 1;
    }
    const int ieee = test_gpu_rounds_as_ieee();
    char values[5][300];
    const char *keys[5] = {"renderer", "software", "loop_limit", "ieee", "exact"};
    snprintf(values[0], sizeof values[0], "%s", boids_gl_renderer(gl));
    snprintf(values[1], sizeof values[1], "%d", boids_gl_is_software(gl) ? 1 : 0);
    snprintf(values[2], sizeof values[2], "%u", limit);
    snprintf(values[3], sizeof values[3], "%d", ieee == 1);
    snprintf(values[4], sizeof values[4], "%d", test_gpu_exact_on(gl) ? 1 : 0);
    int found = argc < 2;
    for (int k = 0; k < 5; ++k) {
        if (argc < 2)
            printf("%s=%s\n", keys[k], values[k]);
        else if (strcmp(argv[1], keys[k]) == 0)
            printf("%s\n", values[k]), found = 1;
    }
    boids_gl_destroy(gl);
    if (!found) fprintf(stderr, "gpu_info: no key %s\n", argv[1]);
    return found ? 0 : 2;
}
