#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/app.h"
#include "core/metrics.h"
#include "core/state_csv.h"

int boids_app_fail(int code, const char *context)
{
    if (context) fprintf(stderr, "boids: %s: %s\n", context, boids_last_error());
    else fprintf(stderr, "boids: %s\n", boids_last_error());
    return code;
}

int boids_app_exit_code(boids_status st)
{
    return (st == BOIDS_ERR_INVALID || st == BOIDS_ERR_PARSE) ? BOIDS_EXIT_USAGE : BOIDS_EXIT_RUNTIME;
}

double boids_app_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
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
    if (st == BOIDS_ERR_NO_GL) {
        fprintf(stderr, "boids: %s (try --backend cpu)\n", msg);
        return BOIDS_EXIT_RUNTIME;
    }
    for (size_t i = 0; i < sizeof map / sizeof map[0]; ++i) {
        size_t n = strlen(map[i].field);
        if (strncmp(msg, map[i].field, n) == 0) {
            fprintf(stderr, "boids: %s: %s\n", map[i].flag, map[i].keep ? msg : msg + n);
            return boids_app_exit_code(st);
        }
    }
    return boids_app_fail(boids_app_exit_code(st), NULL);
}

int boids_app_open(const boids_cli *cli, boids_gl *gl, const boids_init_state *init, boids_session *s)
{
    boids_world_def def = cli->def;
    def.gl = gl;
    /* Create with the random state first; --init's state is checked against the real world (its
     * default size depends on N) and reported with the file's line. */
    boids_status st = boids_session_create(s, &def, NULL);
    if (st != BOIDS_OK) return fail_definition(st);
    if (init && init->boids) {
        if (!init->has_bias) /* a state without Adams' bias column: scouts start from the static value */
            for (uint32_t i = 0; i < def.count; ++i) init->boids[i].bias = s->def.params.bias;
        size_t bad = SIZE_MAX;
        st = boids_world_validate_state(s->world, init->boids, def.count, &bad);
        if (st == BOIDS_OK) st = boids_world_write(s->world, init->boids, def.count);
        if (st != BOIDS_OK) {
            if (bad != SIZE_MAX)
                fprintf(stderr, "boids: --init: %s:%ld: %s\n", cli->init_path, init->lines[bad],
                        boids_last_error());
            else
                fprintf(stderr, "boids: --init: %s: %s\n", cli->init_path, boids_last_error());
            boids_session_destroy(s);
            return boids_app_exit_code(st);
        }
    }
    return BOIDS_EXIT_OK;
}

void boids_app_print_header(const boids_session *s, const boids_cli *cli)
{
    boids_world_info info;
    boids_world_get_info(s->world, &info);
    printf("boids %s: model %s, backend %s (%s)\n", BOIDS_VERSION_STRING, boids_model_name(info.model),
           info.backend == BOIDS_BACKEND_GPU ? "gpu" : "cpu", info.renderer);
    printf("  %u boids in %u swarm%s, world %gx%g px, grid %ux%u cells of %.1fx%.1f px", info.count,
           info.swarms, info.swarms == 1 ? "" : "s", (double)info.width, (double)info.height,
           info.grid_w, info.grid_h, (double)info.cell_w, (double)info.cell_h);
    if (info.backend == BOIDS_BACKEND_CPU)
        printf(", %d thread%s%s", info.threads, info.threads == 1 ? "" : "s",
               cli->def.neighbors == BOIDS_NEIGHBORS_BRUTE ? ", brute force" : "");
    printf("\n");
    fflush(stdout); /* the header shows while a long run works */
}

int boids_app_finish(const boids_cli *cli, boids_session *s, uint64_t steps, double wall)
{
    boids_world_info info;
    boids_world_get_info(s->world, &info);
    int per_second = boids_model_time_base(info.model) == BOIDS_TIME_PER_SECOND;
    double boid_steps = (double)steps * info.count;
    printf("  %llu steps", (unsigned long long)steps);
    if (per_second) printf(" of %.4g ms", (double)info.dt * 1e3);
    printf(" in %.3f s: %.1f steps/s, %.1f ns per boid-step\n", wall, wall > 0 ? (double)steps / wall : 0.0,
           boid_steps > 0 ? wall * 1e9 / boid_steps : 0.0);

    boids_boid *state = malloc(sizeof *state * (info.count ? info.count : 1));
    if (!state) {
        fprintf(stderr, "boids: out of memory reading the state back\n");
        return BOIDS_EXIT_RUNTIME;
    }
    boids_status st = boids_world_read(s->world, state, info.count);
    boids_metrics m;
    if (st == BOIDS_OK) st = boids_metrics_compute(state, info.count, info.width, info.height,
                                                    info.params.edges == BOIDS_EDGES_WRAP, &m);
    if (st == BOIDS_OK)
        printf("  polarization %.3f, mean nearest neighbour %.2f px, speed %.2f..%.2f (mean %.2f) %s\n",
               m.polarization, m.mean_nn, m.min_speed, m.max_speed, m.mean_speed,
               per_second ? "px/s" : "px/frame");
    if (st == BOIDS_OK && cli->dump_path) {
        st = boids_csv_write(cli->dump_path, state, info.count, info.model == BOIDS_MODEL_ADAMS);
        if (st == BOIDS_OK) printf("  state written to %s\n", cli->dump_path);
    }
    free(state);
    return st == BOIDS_OK ? BOIDS_EXIT_OK : boids_app_fail(BOIDS_EXIT_RUNTIME, NULL);
}

void boids_app_print_ffmpeg(const char *dir, double fps)
{
    printf("  make a video: ffmpeg -framerate %.6g -i '%s/frame_%%06d.png' -c:v libx264 -pix_fmt yuv420p "
           "-crf 18 boids.mp4\n",
           fps, dir);
}

const char *path_dir(const char *path, char *buf, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return snprintf(buf, size, "."), buf;
    size_t n = (size_t)(slash - path);
    if (n == 0) n = 1; /* "/name" */
    snprintf(buf, size, "%.*s", (int)n, path);
    return buf;
}
