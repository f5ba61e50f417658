/* A run without a window: steps the world and prints what it did; with --frames, renders every
 * --frame-steps steps into an offscreen framebuffer of --size and writes a PNG sequence (read
 * back asynchronously, encoded on worker threads); with --video, the same frames piped to
 * ffmpeg; with --screenshot, a PNG of the last state; with --metrics, the observables every
 * --metrics-every steps. --warmup steps run first, unrecorded; --view and --boid-size frame the
 * pictures. */
#include <stdio.h>
#include <stdlib.h>

#include "app/app.h"
#include "app/metrics_log.h"
#include "app/progress.h"
#include "base/clock.h"
#include "base/interrupt.h"
#include "base/error.h"
#include "render/boid_renderer.h"
#include "render/png_writer.h"
#include "render/video_writer.h"
#include "render/target.h"

typedef struct exporter {
    boids_target target;
    boids_renderer *renderer;
    boids_camera camera;
    boids_draw_style style;
    float orbit_per_frame; /* degrees a 3D view turns between two frames (--orbit / --fps) */
} exporter;

static boids_status exporter_open(exporter *e, boids_world *w, const boids_cli *cli)
{
    boids_status st = boids_target_create(&e->target, cli->size_w, cli->size_h);
    if (st == BOIDS_OK) st = boids_renderer_create(&e->renderer);
    if (st != BOIDS_OK) return st;
    boids_world_info info;
    boids_world_get_info(w, &info);
    const float vw = (float)cli->size_w, vh = (float)cli->size_h;
    if (info.dims == 3 && cli->has_camera) {
        e->camera.view_w = vw, e->camera.view_h = vh;
        boids_camera_look(&e->camera, cli->camera, cli->camera + 3, cli->camera[6]);
    } else if (info.dims == 3) {
        boids_camera_fit_3d(&e->camera, info.width, info.height, info.depth, vw, vh);
    } else if (cli->has_view) {
        boids_camera_frame(&e->camera, cli->view[0], cli->view[1], cli->view[2], cli->view[3], vw,
                           vh);
    } else {
        boids_camera_fit(&e->camera, info.width, info.height, vw, vh);
    }
    e->orbit_per_frame = cli->orbit / cli->fps;
    e->style = boids_default_draw_style(w);
    if (cli->boid_size > 0)
        e->style.boid_px = cli->boid_size, e->style.min_px = 3.0f; /* the user's size */
    return BOIDS_OK;
}

static void exporter_close(exporter *e)
{
    boids_renderer_destroy(e->renderer);
    boids_target_destroy(&e->target);
}

/* Draws the world into the offscreen target (left bound for reading). */
static boids_status exporter_draw(exporter *e, boids_world *w)
{
    boids_target_bind(&e->target);
    boids_status st = boids_renderer_draw(e->renderer, w, &e->camera, &e->style);
    if (e->camera.three) boids_camera_orbit(&e->camera, e->orbit_per_frame, 0.0f); /* the next */
    return st;
}

/* Whether every replica of the world stopped (stop_after_catches), and then the step after the
 * last one any replica simulated (what the run's step count is: the steps after it did nothing). */
static boids_status all_stopped(boids_session *s, const boids_world_info *info, bool *stopped,
                                uint64_t *end)
{
    boids_replica_status *rs = malloc(sizeof *rs * info->replicas);
    if (!rs) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory");
    boids_status st = boids_world_replicas(s->world, rs, info->replicas, stopped);
    *end = 0;
    for (uint32_t r = 0; st == BOIDS_OK && *stopped && r < info->replicas; ++r)
        if (rs[r].stop_step + 1 > *end) *end = rs[r].stop_step + 1;
    free(rs);
    return st;
}

/* Steps in pieces of about PIECE_S seconds each, so that Ctrl-C is seen within about a second
 * (within one step where a step takes longer) and the progress line moves: the first piece is
 * one step, then each is sized from the last one's time. A GPU world is waited for at the end of
 * each piece, or its steps would pile up in the driver's queue beyond any signal's reach. */
#define PIECE_S 0.2
typedef struct pacer {
    uint64_t piece; /* steps in the next piece */
    double t;       /* when the piece started */
} pacer;

static uint64_t pacer_next(pacer *p, uint64_t left)
{
    p->t = boids_clock_seconds();
    return p->piece < left ? p->piece : left;
}

static void pacer_done(pacer *p, boids_world *w, uint64_t steps)
{
    boids_world_finish(w);
    const double per_step = (boids_clock_seconds() - p->t) / (double)(steps ? steps : 1);
    double want = per_step > 0 ? PIECE_S / per_step : 1e6;
    p->piece = want < 1 ? 1 : want > 1e6 ? 1000000 : (uint64_t)want;
}

/* The steps the world has taken. */
static uint64_t world_steps(boids_world *w)
{
    boids_world_info info;
    boids_world_get_info(w, &info);
    return info.steps;
}

/* --warmup K: K steps before anything is recorded or timed (interruptible, with progress). */
static boids_status warm_up(boids_session *s, uint64_t steps)
{
    pacer pc = {1, 0};
    boids_progress pr;
    boids_progress_start(&pr, steps, "warm-up steps");
    boids_status st = BOIDS_OK;
    for (uint64_t w = 0; st == BOIDS_OK && w < steps && !boids_interrupted();) {
        uint64_t n = pacer_next(&pc, steps - w);
        st = boids_world_step(s->world, (uint32_t)n);
        if (st == BOIDS_ERR_INTERRUPTED) st = BOIDS_OK; /* Ctrl-C inside a step: the loop ends */
        pacer_done(&pc, s->world, n);
        w += n;
        boids_progress_update(&pr, w);
    }
    boids_progress_end(&pr);
    boids_world_reset_profile(s->world); /* the summary's times are of the recorded steps */
    return st;
}

/* One headless run: its world, what it writes, and how far it got. */
typedef struct run {
    const boids_cli *cli;
    boids_session s;
    boids_world_info info;
    bool render; /* --frames, --video or --screenshot: the exporter is open */
    exporter ex;
    boids_png_writer *writer; /* --frames */
    boids_video_writer *video;
    boids_metrics_log log; /* --metrics */
    uint64_t done;         /* steps run */
    double t0, wall;       /* when they started, and their time */
} run;

/* One context for the simulation and the drawing (a CPU world is drawn by upload), where either
 * needs it. */
static int open_gl(const boids_cli *cli, bool render, boids_gl **gl)
{
    *gl = NULL;
    if (!render && cli->def.backend != BOIDS_BACKEND_GPU) return BOIDS_EXIT_OK;
    if (boids_gl_create_headless(gl) == BOIDS_OK) return BOIDS_EXIT_OK;
    return boids_app_gl_error("boids", render ? "--frames, --video and --screenshot need OpenGL 4.3"
                                              : "try --backend cpu");
}

/* The exporter, the PNG and video writers and the metrics log, as the options ask. */
static int open_outputs(run *r, boids_gl *gl)
{
    const boids_cli *cli = r->cli;
    if (r->render) {
        boids_gl_make_current(gl);
        boids_status st = exporter_open(&r->ex, r->s.world, cli);
        if (st == BOIDS_OK && cli->frames_dir)
            st = boids_png_writer_create(cli->frames_dir, cli->size_w, cli->size_h, 0, &r->writer);
        if (st != BOIDS_OK)
            return boids_app_error(cli, cli->frames_dir ? "--frames" : "--screenshot");
        if (cli->video_path && boids_video_writer_create(cli->video_path, cli->size_w, cli->size_h,
                                                         cli->fps, &r->video) != BOIDS_OK)
            return boids_app_error(cli, "--video"), BOIDS_EXIT_USAGE;
    }
    if (cli->metrics_path &&
        boids_metrics_log_open(&r->log, cli->metrics_path, cli->metrics_every,
                               cli->field ? &cli->field_options : NULL, r->s.world) != BOIDS_OK)
        return boids_app_error(cli, "--metrics");
    return BOIDS_EXIT_OK;
}

/* One loop for every kind of run: steps in pieces of about PIECE_S seconds that end where
 * something is due, a frame (every --frame-steps) or a metrics row (every --metrics-every: the
 * log steps in pieces of its own); after each, a look at the replicas' state for a model whose
 * runs stop on catches (never per step: the run ends when every replica has). */
static boids_status step_all(run *r)
{
    const boids_cli *cli = r->cli;
    const bool stops = r->info.predators > 0 && r->info.params.predators.stop_after_catches > 0;
    const bool recording = r->writer || r->video;
    const uint64_t every = cli->frame_steps;
    bool stopped = false;
    uint64_t stop_end = 0;
    boids_status st = BOIDS_OK;
    pacer pc = {1, 0};
    boids_progress pr;
    boids_progress_start(&pr, cli->steps, "steps");
    while (st == BOIDS_OK && r->done < cli->steps && !stopped && !boids_interrupted()) {
        uint64_t n = pacer_next(&pc, cli->steps - r->done);
        if (recording && n > every - r->done % every) n = every - r->done % every;
        const uint64_t before = world_steps(r->s.world);
        st = r->log.open ? boids_metrics_log_step(&r->log, r->s.world, (uint32_t)n)
                         : boids_world_step(r->s.world, (uint32_t)n);
        if (st == BOIDS_ERR_INTERRUPTED) { /* Ctrl-C inside a step: the steps before it count */
            st = BOIDS_OK;
            n = world_steps(r->s.world) - before;
        }
        r->done += n;
        if (st == BOIDS_OK && recording && r->done % every == 0) {
            st = exporter_draw(&r->ex, r->s.world);
            if (st == BOIDS_OK && r->writer) st = boids_png_writer_capture(r->writer);
            if (st == BOIDS_OK && r->video) st = boids_video_writer_capture(r->video);
        }
        pacer_done(&pc, r->s.world, n);
        if (st == BOIDS_OK && stops) st = all_stopped(&r->s, &r->info, &stopped, &stop_end);
        if (recording)
            snprintf(pr.note, sizeof pr.note, "%llu frames", (unsigned long long)(r->done / every));
        boids_progress_update(&pr, r->done);
    }
    boids_progress_end(&pr);
    if (stopped && stop_end < r->done)
        r->done = stop_end; /* the steps after every replica stopped did nothing */
    return st;
}

/* After the steps: the frames captured written whole (even when interrupted: none stays
 * half-written), the video finished with the frames captured (a signal keeps what was encoded;
 * a failure removes it), the metrics log closed; an interruption said. */
static int close_outputs(run *r, int code, boids_status st)
{
    const boids_cli *cli = r->cli;
    if (code == BOIDS_EXIT_OK && st == BOIDS_OK && r->writer)
        st = boids_png_writer_finish(r->writer);
    const unsigned frames = r->video ? boids_video_writer_frames(r->video) : 0;
    const bool keep = code == BOIDS_EXIT_OK && (st == BOIDS_OK || boids_interrupted()) && frames;
    bool video_kept = false;
    boids_status vst = boids_video_writer_finish(r->video, keep, &video_kept);
    if (st == BOIDS_OK) st = vst;
    boids_world_finish(r->s.world);
    r->wall = boids_clock_seconds() - r->t0;
    if (code == BOIDS_EXIT_OK && st != BOIDS_OK && !boids_interrupted())
        boids_app_error(cli, NULL), code = BOIDS_EXIT_RUNTIME;
    if (code == BOIDS_EXIT_OK && boids_interrupted()) {
        char video[160] = "";
        if (r->video && video_kept)
            snprintf(video, sizeof video, " (%s keeps the %u frames encoded)", cli->video_path,
                     frames);
        else if (r->video)
            snprintf(video, sizeof video, " (the video is removed: ffmpeg could not finish it)");
        fprintf(stderr,
                "boids: interrupted after %llu step%s%s: no state, metrics, events or screenshot "
                "written\n",
                (unsigned long long)r->done, r->done == 1 ? "" : "s",
                r->writer ? " (the frames written so far are whole)" : video);
        if (r->writer && boids_png_writer_frames(r->writer) > 0) /* what to do with them */
            boids_app_print_ffmpeg(cli->frames_dir, cli->fps);
        code = boids_interrupt_exit_code();
    }
    st = boids_metrics_log_close(&r->log, r->s.world, code == BOIDS_EXIT_OK);
    if (code == BOIDS_EXIT_OK && st != BOIDS_OK) { /* (a signal in its last measure: 128+N) */
        const int c = boids_app_error(cli, "--metrics");
        code = boids_interrupted() && c == boids_interrupt_exit_code() ? c : BOIDS_EXIT_RUNTIME;
    }
    if (code == BOIDS_EXIT_OK && cli->metrics_path)
        printf("  %llu rows of metrics written to %s\n", (unsigned long long)r->log.rows,
               cli->metrics_path);
    return code;
}

/* --screenshot: a PNG of the last state. */
static int screenshot(run *r)
{
    const boids_cli *cli = r->cli;
    boids_status st = exporter_draw(&r->ex, r->s.world);
    boids_png_writer *shot = NULL;
    char dir[1024];
    if (st == BOIDS_OK)
        st = boids_png_writer_create(path_dir(cli->screenshot, dir, sizeof dir), cli->size_w,
                                     cli->size_h, 1, &shot);
    if (st == BOIDS_OK) st = boids_png_writer_capture_as(shot, cli->screenshot);
    boids_status st2 = boids_png_writer_destroy(shot);
    if (st == BOIDS_OK) st = st2;
    if (st != BOIDS_OK) return boids_app_error(cli, "--screenshot"), BOIDS_EXIT_RUNTIME;
    printf("  screenshot written to %s\n", cli->screenshot);
    return BOIDS_EXIT_OK;
}

/* The state and the summary (boids_app_finish), the screenshot, and what the writers wrote. */
static int write_results(run *r, unsigned video_frames)
{
    const boids_cli *cli = r->cli;
    int code = boids_app_finish(cli, &r->s, r->done, r->wall); /* the dump first */
    if (code == BOIDS_EXIT_OK && cli->screenshot) code = screenshot(r);
    if (code == BOIDS_EXIT_OK && r->writer) {
        unsigned frames = boids_png_writer_frames(r->writer);
        printf("  %u frames of %dx%d written to %s: %.1f frames/s\n", frames, cli->size_w,
               cli->size_h, cli->frames_dir, r->wall > 0 ? frames / r->wall : 0.0);
        boids_app_print_ffmpeg(cli->frames_dir, cli->fps);
    }
    if (code == BOIDS_EXIT_OK && r->video)
        printf("  %u frames of %dx%d at %.6g frames/s encoded by ffmpeg into %s\n", video_frames,
               cli->size_w, cli->size_h, (double)cli->fps, cli->video_path);
    return code;
}

int boids_headless_run(const boids_cli *cli, const boids_init_state *init)
{
    run r = {.cli = cli};
    r.render = cli->frames_dir != NULL || cli->screenshot != NULL || cli->video_path != NULL;
    boids_gl *gl;
    int code = open_gl(cli, r.render, &gl);
    if (code != BOIDS_EXIT_OK) return code;
    code = boids_app_open(cli, cli->def.backend == BOIDS_BACKEND_GPU ? gl : NULL, init, &r.s);
    if (code != BOIDS_EXIT_OK) {
        boids_gl_destroy(gl);
        return code;
    }
    boids_app_print_header(&r.s, cli);
    boids_world_get_info(r.s.world, &r.info);
    code = open_outputs(&r, gl);
    boids_status st = BOIDS_OK;
    if (code == BOIDS_EXIT_OK && cli->warmup > 0)
        st = warm_up(&r.s, cli->warmup); /* not recorded or timed */
    r.t0 = boids_clock_seconds();
    if (code == BOIDS_EXIT_OK && st == BOIDS_OK) st = step_all(&r);
    const unsigned video_frames = r.video ? boids_video_writer_frames(r.video) : 0;
    code = close_outputs(&r, code, st);
    if (code == BOIDS_EXIT_OK) code = write_results(&r, video_frames);
    boids_png_writer_destroy(r.writer);
    if (r.render) exporter_close(&r.ex);
    boids_session_destroy(&r.s);
    boids_gl_destroy(gl);
    return code;
}
