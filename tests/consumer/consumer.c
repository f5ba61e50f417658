/* A user's program, built against an installed libboids (tests/test_install.sh builds it with
 * pkg-config, statically, and with CMake's find_package): a world on the backend named by argv[1],
 * some steps, the state read back. Prints one line; exit 0 when all went well. */
#include <boids/boids.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    boids_world_def def = boids_default_world_def();
    def.backend = argc > 1 && strcmp(argv[1], "gpu") == 0 ? BOIDS_BACKEND_GPU : BOIDS_BACKEND_CPU;
    def.count = 2000;
    boids_default_world_size(def.count, &def.width, &def.height);
    boids_world *w;
    if (boids_world_create(&def, &w) != BOIDS_OK || boids_world_step(w, 30) != BOIDS_OK) {
        fprintf(stderr, "consumer: %s\n", boids_last_error());
        return 1;
    }
    boids_boid *b = malloc(sizeof *b * def.count);
    boids_metrics m;
    if (!b || boids_world_read(w, b, def.count) != BOIDS_OK ||
        boids_world_metrics(w, &m, 1) != BOIDS_OK) {
        fprintf(stderr, "consumer: %s\n", boids_last_error());
        return 1;
    }
    boids_world_info info;
    boids_world_get_info(w, &info);
    int finite = 1;
    for (uint32_t i = 0; i < def.count; ++i) finite &= isfinite(b[i].x) && isfinite(b[i].vx);
    printf("boids %s on %s: %u boids, %llu steps, polarization %.3f\n", BOIDS_VERSION_STRING,
           info.renderer, info.count, (unsigned long long)info.steps, m.polarization);
    free(b);
    boids_world_destroy(w);
    return finite && info.steps == 30 ? 0 : 1;
}
