/* `boids`: runs a flock headless and prints what it did. (The interactive viewer comes with its
 * own issue; until then every run is headless.) Exit status: 0 success, 2 bad usage or input,
 * 1 runtime failure, each failure with a one-line reason on stderr. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/cli.h"
#include "core/metrics.h"
#include "core/state_csv.h"

enum { EXIT_USAGE = 2, EXIT_RUNTIME = 1 };

static int fail(int code, const char *context)
{
    if (context) fprintf(stderr, "boids: %s: %s\n", context, boids_last_error());
    else fprintf(stderr, "boids: %s\n", boids_last_error());
    return code;
}

/* Exit status of a library failure: bad input is the user's to fix (2), the rest is runtime. */
static int exit_code(boids_status st)
{
    return (st == BOIDS_ERR_INVALID || st == BOIDS_ERR_PARSE) ? EXIT_USAGE : EXIT_RUNTIME;
}

/* Reports a world-definition error under the flag it is about: the library names the field
 * ("dt: 2 s is outside (0, 1]"), the user typed a flag ("--dt: 2 s is outside (0, 1]"). */
static int fail_definition(boids_status st)
{
    static const struct {
        const char *field, *flag;
        int keep; /* keep the field's text after the flag */
    } map[] = {
        {"boids: ", "--boids", 0},   {"swarms: ", "--swarms", 0}, {"world: ", "--world", 0},
        {"dt: ", "--dt", 0},         {"threads: ", "--threads", 0},
        {"max_speed * dt", "--dt, --set max_speed", 1},
    };
    const char *msg = boids_last_error();
    for (size_t i = 0; i < sizeof map / sizeof map[0]; ++i) {
        size_t n = strlen(map[i].field);
        if (strncmp(msg, map[i].field, n) == 0) {
            fprintf(stderr, "boids: %s: %s\n", map[i].flag, map[i].keep ? msg : msg + n);
            return exit_code(st);
        }
    }
    return fail(exit_code(st), NULL);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    boids_cli cli;
    if (boids_cli_parse(argc, argv, &cli) != BOIDS_OK) {
        fprintf(stderr, "boids: %s\n", boids_last_error());
        return EXIT_USAGE;
    }
    if (cli.help) {
        boids_cli_usage(stdout);
        return 0;
    }
    if (cli.version) {
        printf("boids %s\n", BOIDS_VERSION_STRING);
        return 0;
    }

    boids_boid *init = NULL;
    long *init_lines = NULL;
    if (cli.init_path) {
        uint32_t n, swarms;
        boids_status st = boids_csv_read(cli.init_path, &init, &n, &swarms, &init_lines);
        if (st != BOIDS_OK) return fail(EXIT_USAGE, "--init");
        if (cli.count_given && n != cli.def.count) {
            fprintf(stderr, "boids: --init: %s has %u boids but --boids asks for %u\n", cli.init_path,
                    n, cli.def.count);
            free(init);
            free(init_lines);
            return EXIT_USAGE;
        }
        if (cli.swarms_given && swarms > cli.def.swarms) {
            fprintf(stderr, "boids: --init: %s uses swarm %u but --swarms is %u\n", cli.init_path,
                    swarms - 1, cli.def.swarms);
            free(init);
            free(init_lines);
            return EXIT_USAGE;
        }
        cli.def.count = n;
        if (!cli.swarms_given) cli.def.swarms = swarms;
    }
    if (cli.dump_path && boids_csv_check_writable(cli.dump_path) != BOIDS_OK) {
        free(init);
        free(init_lines);
        return fail(EXIT_USAGE, "--dump");
    }

    boids_world *world;
    boids_status st = boids_world_create(&cli.def, &world);
    if (st != BOIDS_OK) {
        free(init);
        free(init_lines);
        if (st == BOIDS_ERR_NO_GL) {
            fprintf(stderr, "boids: %s (try --backend cpu)\n", boids_last_error());
            return EXIT_RUNTIME;
        }
        return fail_definition(st);
    }
    boids_world_info info;
    boids_world_get_info(world, &info);
    if (init) {
        size_t bad = SIZE_MAX;
        st = boids_world_validate_state(world, init, info.count, &bad);
        if (st == BOIDS_OK) st = boids_world_write(world, init, info.count);
        if (st != BOIDS_OK) {
            if (bad != SIZE_MAX)
                fprintf(stderr, "boids: --init: %s:%ld: %s\n", cli.init_path, init_lines[bad],
                        boids_last_error());
            else
                fprintf(stderr, "boids: --init: %s: %s\n", cli.init_path, boids_last_error());
            free(init);
            free(init_lines);
            boids_world_destroy(world);
            return exit_code(st);
        }
        free(init);
        free(init_lines);
    }

    int per_second = boids_model_time_base(info.model) == BOIDS_TIME_PER_SECOND;
    printf("boids %s: model %s, backend %s (%s)\n", BOIDS_VERSION_STRING, boids_model_name(info.model),
           info.backend == BOIDS_BACKEND_GPU ? "gpu" : "cpu", info.renderer);
    printf("  %u boids in %u swarm%s, world %gx%g px, grid %ux%u cells of %.1fx%.1f px", info.count,
           info.swarms, info.swarms == 1 ? "" : "s", (double)info.width, (double)info.height,
           info.grid_w, info.grid_h, (double)info.cell_w, (double)info.cell_h);
    if (info.backend == BOIDS_BACKEND_CPU)
        printf(", %d thread%s%s", info.threads, info.threads == 1 ? "" : "s",
               cli.def.neighbors == BOIDS_NEIGHBORS_BRUTE ? ", brute force" : "");
    printf("\n");
    fflush(stdout); /* the header shows while a long run works */

    boids_world_finish(world);
    double t0 = now_s();
    st = boids_world_step(world, cli.steps);
    boids_world_finish(world);
    double wall = now_s() - t0;
    if (st != BOIDS_OK) {
        boids_world_destroy(world);
        return fail(EXIT_RUNTIME, "step");
    }
    double boid_steps = (double)cli.steps * info.count;
    printf("  %u steps", cli.steps);
    if (per_second) printf(" of %.4g ms", (double)cli.def.dt * 1e3);
    printf(" in %.3f s: %.1f steps/s, %.1f ns per boid-step\n", wall,
           wall > 0 ? cli.steps / wall : 0.0, boid_steps > 0 ? wall * 1e9 / boid_steps : 0.0);

    boids_boid *state = malloc(sizeof *state * (info.count ? info.count : 1));
    if (!state) {
        boids_world_destroy(world);
        fprintf(stderr, "boids: out of memory reading the state back\n");
        return EXIT_RUNTIME;
    }
    st = boids_world_read(world, state, info.count);
    boids_metrics m;
    if (st == BOIDS_OK) st = boids_metrics_compute(state, info.count, info.width, info.height, &m);
    if (st == BOIDS_OK)
        printf("  polarization %.3f, mean nearest neighbour %.2f px, speed %.2f..%.2f (mean %.2f) %s\n",
               m.polarization, m.mean_nn, m.min_speed, m.max_speed, m.mean_speed,
               per_second ? "px/s" : "px/frame");
    if (st == BOIDS_OK && cli.dump_path) {
        st = boids_csv_write(cli.dump_path, state, info.count);
        if (st == BOIDS_OK) printf("  state written to %s\n", cli.dump_path);
    }
    free(state);
    boids_world_destroy(world);
    if (st != BOIDS_OK) return fail(EXIT_RUNTIME, NULL);
    return 0;
}
