/* A user's program, built against an installed libboids (tests/test_install.sh builds it with
 * pkg-config, statically, and with CMake's find_package; tests/test_example_model.sh runs one
 * built before a model was added against the library that has it): a world on the backend named
 * by argv[1], of the model named by argv[2] (default: the library's default) with the KEY=VALUE
 * parameters after it, some steps, the state read back. It knows models and parameters by name
 * only, as the installed headers give them. Prints one line; exit 0 when all went well. */
#include <boids/boids.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(void)
{
    fprintf(stderr, "consumer: %s\n", boids_last_error());
    return 1;
}

int main(int argc, char **argv)
{
    boids_world_def def = boids_default_world_def();
    def.backend = argc > 1 && strcmp(argv[1], "gpu") == 0 ? BOIDS_BACKEND_GPU : BOIDS_BACKEND_CPU;
    if (argc > 2) {
        if (boids_model_from_name(argv[2], &def.model) != BOIDS_OK) return fail();
        def.params = boids_model_default_params(def.model);
    }
    for (int a = 3; a < argc; ++a) {
        char key[64];
        const char *eq = strchr(argv[a], '=');
        if (!eq || (size_t)(eq - argv[a]) >= sizeof key) {
            fprintf(stderr, "consumer: '%s' is not KEY=VALUE\n", argv[a]);
            return 2;
        }
        snprintf(key, sizeof key, "%.*s", (int)(eq - argv[a]), argv[a]);
        if (boids_params_set(def.model, &def.params, key, eq + 1) != BOIDS_OK) return fail();
    }
    def.count = 2000;
    boids_default_world_size(def.count, &def.width, &def.height);
    boids_world *w;
    if (boids_world_create(&def, &w) != BOIDS_OK || boids_world_step(w, 30) != BOIDS_OK)
        return fail();
    boids_boid *b = malloc(sizeof *b * def.count);
    boids_metrics m;
    if (!b || boids_world_read(w, b, def.count) != BOIDS_OK ||
        boids_world_metrics(w, &m, 1) != BOIDS_OK)
        return fail();
    boids_world_info info;
    boids_world_get_info(w, &info);
    size_t params;
    boids_model_params(info.model, &params);
    int finite = 1;
    for (uint32_t i = 0; i < def.count; ++i) finite &= isfinite(b[i].x) && isfinite(b[i].vx);
    printf("boids %s on %s: model %s (%zu parameters of %d models), %u boids, %llu steps, "
           "polarization %.3f\n",
           BOIDS_VERSION_STRING, info.renderer, boids_model_name(info.model), params,
           boids_model_count(), info.count, (unsigned long long)info.steps, m.polarization);
    free(b);
    boids_world_destroy(w);
    return finite && info.steps == 30 ? 0 : 1;
}
