#define _POSIX_C_SOURCE 200809L
/* `boids`: runs a flock in a window when a display exists, else headless (and always with
 * --headless), and prints what it did; `boids experiment` and `boids experiment-merge` run many
 * (app/experiment/experiment.h). Exit status: 0 success, 2 bad usage or input, 1 runtime
 * failure, each failure with a one-line reason on stderr. Everything the user named is checked
 * before any simulation starts: the --init and --predators files, that --dump, --dump-predators,
 * --events and --frames can be written. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "app/experiment/experiment.h"
#include "base/environment.h"
#include "base/interrupt.h"
#include "core/models.h"
#include "core/state_csv.h"
#include "render/png_writer.h"

static int has_display(void)
{
    const char *x = getenv("DISPLAY"), *wl = getenv("WAYLAND_DISPLAY");
    return (x && *x) || (wl && *wl);
}

/* --init: the state's boids are the world's (its count and swarms: --boids and --swarms, where
 * given, must agree). */
static int read_init(boids_cli *cli, boids_init_state *init)
{
    boids_csv_state csv;
    if (boids_csv_read(cli->init_path, &csv) != BOIDS_OK)
        return boids_app_error(cli, "--init"), BOIDS_EXIT_USAGE;
    init->boids = csv.boids, init->lines = csv.lines, init->attributes = csv.attributes;
    const uint32_t n = csv.count, swarms = csv.swarms;
    int code = BOIDS_EXIT_OK;
    if (cli->count_given && n != cli->def.count) {
        fprintf(stderr, "boids: --init: %s has %u boids but --boids asks for %u\n", cli->init_path,
                n, cli->def.count);
        code = BOIDS_EXIT_USAGE;
    } else if (cli->swarms_given && swarms != cli->def.swarms) {
        fprintf(stderr, "boids: --init: %s has %u swarm%s but --swarms asks for %u\n",
                cli->init_path, swarms, swarms == 1 ? "" : "s", cli->def.swarms);
        code = BOIDS_EXIT_USAGE;
    }
    if (code == BOIDS_EXIT_OK && csv.three && cli->def.depth == 0) {
        fprintf(stderr,
                "boids: --init: %s is a 3D state (columns z, vz) but the world is flat: give "
                "--world WxHxD or --dims 3\n",
                cli->init_path);
        code = BOIDS_EXIT_USAGE;
    }
    cli->def.count = n;
    cli->def.swarms = swarms;
    return code;
}

/* --predators: as --init, the file's predators are the world's. */
static int read_predators(boids_cli *cli, boids_init_state *init)
{
    boids_csv_predators csv;
    if (boids_predators_csv_read(cli->predators_path, &csv) != BOIDS_OK)
        return boids_app_error(cli, "--predators"), BOIDS_EXIT_USAGE;
    init->predators = csv.predators, init->predator_lines = csv.lines;
    init->predator_count = csv.count;
    if (csv.three && cli->def.depth == 0) {
        fprintf(stderr,
                "boids: --predators: %s holds 3D predators (columns z, vz) but the world is flat: "
                "give --world WxHxD or --dims 3\n",
                cli->predators_path);
        return BOIDS_EXIT_USAGE;
    }
    char buf[64];
    const char *origin = boids_cli_origin(cli, "predators", buf, sizeof buf);
    const uint32_t asked = cli->def.params.predators.predators;
    cli->def.params.predators.predators = init->predator_count;
    if (origin && strncmp(origin, "--set", 5) == 0 && asked != init->predator_count) {
        fprintf(stderr, "boids: --predators: %s has %u predators but --set predators asks for %u\n",
                cli->predators_path, init->predator_count, asked);
        return BOIDS_EXIT_USAGE;
    }
    return BOIDS_EXIT_OK;
}

/* Every file and directory the run will write can be written, and a frame sequence makes at
 * least one frame and mixes with no other. */
static int check_outputs(const boids_cli *cli, bool window)
{
    const char *const outputs[][2] = {{cli->dump_path, "--dump"},
                                      {cli->dump_predators_path, "--dump-predators"},
                                      {cli->events_path, "--events"},
                                      {cli->metrics_path, "--metrics"},
                                      {cli->video_path, "--video"},
                                      {cli->screenshot, "--screenshot"},
                                      {cli->field_profile_path, "--field-profile"}};
    for (size_t k = 0; k < sizeof outputs / sizeof outputs[0]; ++k)
        if (outputs[k][0] && boids_csv_check_writable(outputs[k][0]) != BOIDS_OK)
            return boids_app_error(cli, outputs[k][1]), BOIDS_EXIT_USAGE;
    if (cli->frames_dir && boids_check_output_dir(cli->frames_dir) != BOIDS_OK)
        return boids_app_error(cli, "--frames"), BOIDS_EXIT_USAGE;
    if (cli->frames_dir && boids_output_dir_has_frames(cli->frames_dir)) {
        fprintf(stderr,
                "boids: --frames: %s already holds frames (frame_*.png): a new sequence would mix "
                "with them; choose an empty directory\n",
                cli->frames_dir);
        return BOIDS_EXIT_USAGE;
    }
    if ((cli->frames_dir || cli->video_path) && !window && cli->steps / cli->frame_steps == 0) {
        fprintf(stderr, "boids: %s: --steps %u at --frame-steps %u makes no frame\n",
                cli->frames_dir ? "--frames" : "--video", cli->steps, cli->frame_steps);
        return BOIDS_EXIT_USAGE;
    }
    return BOIDS_EXIT_OK;
}

/* The topic of `boids [--model-dir DIR ...] --help TOPIC`, or NULL where the command line is
 * another. */
static const char *help_topic(int argc, char **argv)
{
    const char *topic = NULL;
    for (int i = 1; i < argc; i += 2) {
        const bool help = strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0;
        if (i + 1 >= argc || argv[i + 1][0] == '-' || (!help && strcmp(argv[i], "--model-dir")))
            return NULL;
        if (help) topic = argv[i + 1];
    }
    return topic;
}

int main(int argc, char **argv)
{
    boids_interrupt_install(); /* for the whole run: see base/interrupt.h */
    boids_interrupt_with_parent();
    boids_model_load_reporter = boids_cli_report_load; /* each folder loaded, said */
    if (argc > 1 && strcmp(argv[1], "experiment") == 0)
        return boids_experiment_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "experiment-merge") == 0) /* BOIDS_MODEL_PATH's models */
        return boids_cli_load_model_dirs(1, argv, BOIDS_IN_RUN) == BOIDS_OK
                   ? boids_experiment_merge_main(argc - 1, argv + 1)
                   : (fprintf(stderr, "boids: %s\n", boids_last_error()), BOIDS_EXIT_USAGE);
    if (argc > 1 && strcmp(argv[1], "check") == 0) {
        if (boids_environment_check() != BOIDS_OK) return boids_app_gl_error("boids check", "");
        return boids_check_main(argc - 1, argv + 1);
    }
    const char *topic = help_topic(argc, argv);
    if (topic) /* --help MODEL, keys, all; a loaded model's after its folder is loaded */
        return boids_cli_load_model_dirs(argc, argv, BOIDS_IN_RUN) == BOIDS_OK &&
                       boids_cli_help_topic(stdout, topic) == BOIDS_OK
                   ? BOIDS_EXIT_OK
                   : (fprintf(stderr, "boids: %s\n", boids_last_error()), BOIDS_EXIT_USAGE);
    static boids_cli cli; /* large (the scenario's key lines): not on the stack */
    if (boids_cli_parse(argc, argv, &cli) != BOIDS_OK) { /* (a Ctrl-C as a folder compiles) */
        const int code = boids_app_error(&cli, NULL);
        return code > BOIDS_EXIT_USAGE ? code : BOIDS_EXIT_USAGE;
    }
    if (cli.help || cli.version) {
        if (cli.help)
            boids_cli_usage(stdout);
        else
            printf("boids %s\n", BOIDS_VERSION_STRING);
        return 0;
    }
    const bool window =
        !cli.headless && !cli.video_path && has_display(); /* --video: a headless run */
    if (boids_cli_check_run(&cli, window) != BOIDS_OK)
        return boids_app_error(&cli, NULL), BOIDS_EXIT_USAGE;
    if (boids_environment_check() != BOIDS_OK) /* whatever the backend (base/environment.h) */
        return fprintf(stderr, "boids: %s\n", boids_last_error()), BOIDS_EXIT_USAGE;
    boids_cli_resolve_backend(&cli);
    boids_init_state init = {NULL, NULL, 0, NULL, NULL, 0};
    int code = cli.init_path ? read_init(&cli, &init) : BOIDS_EXIT_OK;
    if (code == BOIDS_EXIT_OK && cli.predators_path) code = read_predators(&cli, &init);
    if (code == BOIDS_EXIT_OK) code = check_outputs(&cli, window);
    /* (said on a terminal only once: a log never knew why a run had no window) */
    if (code == BOIDS_EXIT_OK && !cli.headless && !cli.video_path && !window)
        fprintf(stderr,
                "boids: no display (DISPLAY is not set): running headless (--headless says so; "
                "--frames DIR writes pictures)\n");
    if (code == BOIDS_EXIT_OK && window) code = boids_viewer_run(&cli, &init);
    if (code == BOIDS_EXIT_NO_WINDOW || (code == BOIDS_EXIT_OK && !window))
        code = boids_headless_run(&cli, &init);
    if (code == BOIDS_EXIT_OK && boids_interrupted()) {
        /* a signal while the last files were written: they are whole, but say it came */
        fprintf(stderr, "boids: interrupted at the end: every file written is whole\n");
        code = boids_interrupt_exit_code();
    }
    free(init.boids);
    free(init.lines);
    free(init.predators);
    free(init.predator_lines);
    return code;
}
