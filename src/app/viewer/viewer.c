/* The interactive viewer: a GLFW window that draws the flock straight from the simulation's
 * buffer, a HUD, the parameter panel, mouse tools, and recording.
 *
 * Time: the simulation advances in fixed steps of dt, decoupled from the display by an
 * accumulator (times a speed multiplier); at most MAX_STEPS_PER_FRAME per displayed frame, so a
 * slow machine slows the flock down instead of spiralling. While recording, each displayed frame
 * advances exactly --frame-steps steps instead, so a recording is reproducible. Nothing in the
 * loop waits for the GPU: the simulation's time per step and per pass comes from the world's
 * profile (GL timer queries read a few frames later, never waited for; the wall clock on the
 * CPU), the PNG writer reads back asynchronously. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <math.h>
#include <sys/stat.h>
#include <time.h>

#include "base/clock.h"
#include "base/interrupt.h"
#include "app/viewer/viewer.h"
#include "app/cli/keys.h"
#include "base/error.h"
#include "base/output_file.h"
#include "core/scenario.h"
#include "core/state_csv.h"

static void say(viewer *v, const char *fmt, ...) BOIDS_PRINTF(2, 3);
/* A line on the HUD for a few seconds, and on stdout. */
static void say(viewer *v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->message, sizeof v->message, fmt, ap);
    va_end(ap);
    v->message_until = glfwGetTime() + 4.0;
    printf("  %s\n", v->message);
    fflush(stdout);
}

static void say_error(viewer *v, const char *what) { say(v, "%s: %s", what, boids_last_error()); }

/* After the world was recreated (reset, resize, model): styles and the tool follow. */
static void world_changed(viewer *v)
{
    int mode = v->style.color_mode;
    v->style = boids_default_draw_style(v->s.world);
    v->style.color_mode = mode;
}

static void fit(viewer *v)
{
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    if (info.dims == 3)
        boids_camera_fit_3d(&v->cam, info.width, info.height, info.depth, (float)v->fb_w,
                            (float)v->fb_h);
    else
        boids_camera_fit(&v->cam, info.width, info.height, (float)v->fb_w, (float)v->fb_h);
}

/* ---- recording ------------------------------------------------------------------------------ */

/* Records into `dir`, or, with NULL, into a new directory boids-recording-DATE-TIME-N inside
 * --frames DIR (or the working directory): every recording has a directory of its own, so
 * sequences never mix. */
static void start_recording(viewer *v, const char *dir)
{
    if (dir) {
        snprintf(v->rec_dir, sizeof v->rec_dir, "%s", dir);
    } else {
        time_t t = time(NULL);
        struct tm tm;
        localtime_r(&t, &tm);
        char stamp[32];
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        snprintf(v->rec_dir, sizeof v->rec_dir, "%s/boids-recording-%s-%d",
                 v->cli->frames_dir ? v->cli->frames_dir : ".", stamp, v->recordings++);
        if (mkdir(v->rec_dir, 0777) != 0) {
            say(v, "recording: cannot create %s: %s", v->rec_dir, strerror(errno));
            return;
        }
        dir = v->rec_dir;
    }
    boids_status st = boids_target_create(&v->rec_target, v->cli->size_w, v->cli->size_h);
    if (st == BOIDS_OK)
        st = boids_png_writer_create(dir, v->cli->size_w, v->cli->size_h, 0, &v->recorder);
    if (st != BOIDS_OK) {
        boids_target_destroy(&v->rec_target);
        say_error(v, "recording");
        return;
    }
    /* The recording frames what the window shows, at the recording's aspect. */
    v->rec_cam = v->cam;
    v->rec_cam.zoom = v->cam.zoom * (float)v->cli->size_h / (float)v->fb_h;
    boids_camera_resize(&v->rec_cam, (float)v->cli->size_w, (float)v->cli->size_h);
    say(v, "recording to %s", dir);
}

static void stop_recording(viewer *v)
{
    if (!v->recorder) return;
    unsigned frames = boids_png_writer_frames(v->recorder);
    boids_status st = boids_png_writer_destroy(v->recorder);
    v->recorder = NULL;
    boids_target_destroy(&v->rec_target);
    if (st != BOIDS_OK) {
        say_error(v, "recording");
        return;
    }
    say(v, "%u frames written to %s", frames, v->rec_dir);
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    double step_s =
        boids_model_time_base(info.model) == BOIDS_TIME_PER_SECOND ? info.dt : 1.0 / 60.0;
    boids_app_print_ffmpeg(v->rec_dir, 1.0 / (step_s * v->cli->frame_steps));
}

/* ---- input ---------------------------------------------------------------------------------- */

static void set_tool(viewer *v)
{
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    float wx, wy, at[3] = {0, 0, 0};
    boids_camera_to_world(&v->cam, (float)v->mouse_x, (float)v->mouse_y, &wx, &wy);
    if (v->cam.three) { /* in 3D: on the plane through the camera's target, facing it */
        boids_camera_to_world_3d(&v->cam, (float)v->mouse_x, (float)v->mouse_y, at);
        wx = at[0], wy = at[1];
    }
    /* a sixth of the view's height, in world px (a 3D view's: at its target) */
    const float reach = (float)v->fb_h / 6.0f / boids_camera_scale(&v->cam);
    boids_tool t = {wx, wy, 0, 0, BOIDS_TOOL_NONE, at[2], 0, 0};
    if (v->tool_down && (v->tool_kind == TOOL_ATTRACT || v->tool_kind == TOOL_REPEL)) {
        /* A reach of a sixth of the view and a pull that would take a boid from rest to four
         * times its top speed in a second (60 frames for frame-based models): felt at once, yet
         * a force like the model's own. */
        bool per_second = boids_model_time_base(info.model) == BOIDS_TIME_PER_SECOND;
        t.kind = v->tool_kind == TOOL_ATTRACT ? BOIDS_TOOL_ATTRACT : BOIDS_TOOL_REPEL;
        t.radius = reach;
        t.strength = 4.0f * info.params.base.max_speed / (per_second ? 1.0f : 60.0f);
    }
    v->s.tool = t;
    if (boids_world_set_tool(v->s.world, &t) != BOIDS_OK) say_error(v, "tool");
}

/* A click with the obstacle tool: a new obstacle at the cursor (the model's max_obstacle_size,
 * at least a hundredth of the view), or with Shift the obstacle under the cursor removed. In 3D
 * the cursor is on the plane through the camera's target, facing it (as the force tools). */
static void obstacle_click(viewer *v, bool remove)
{
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    float at[3] = {0, 0, 0};
    boids_camera_to_world(&v->cam, (float)v->mouse_x, (float)v->mouse_y, &at[0], &at[1]);
    if (v->cam.three) boids_camera_to_world_3d(&v->cam, (float)v->mouse_x, (float)v->mouse_y, at);
    if (at[0] < 0 || at[1] < 0 || at[0] >= info.width || at[1] >= info.height ||
        (v->cam.three && (at[2] < 0 || at[2] >= info.depth)))
        return;
    const float zoom = boids_camera_scale(&v->cam); /* (a 3D view's: at its target) */
    boids_obstacle *list = malloc(sizeof *list * (info.obstacles + 1));
    if (!list || boids_world_read_obstacles(v->s.world, list, info.obstacles) != BOIDS_OK) {
        free(list);
        say_error(v, "obstacle");
        return;
    }
    uint32_t n = info.obstacles;
    if (remove) { /* the nearest whose disc (or a few pixels round it) holds the cursor */
        uint32_t best = n;
        float best_d = INFINITY, slack = 6.0f / zoom;
        for (uint32_t k = 0; k < n; ++k) {
            const float dz = v->cam.three ? list[k].z - at[2] : 0.0f;
            float d = sqrtf((list[k].x - at[0]) * (list[k].x - at[0]) +
                            (list[k].y - at[1]) * (list[k].y - at[1]) + dz * dz);
            if (list[k].replica == 0 && d <= list[k].radius + slack && d < best_d)
                best = k, best_d = d;
        }
        if (best == n) {
            free(list);
            return;
        }
        list[best] = list[--n];
    } else {
        float r = fmaxf(info.params.obstacles.max_obstacle_size, (float)v->fb_h / 100.0f / zoom);
        list[n++] = (boids_obstacle){at[0], at[1], r, 0, at[2]};
    }
    if (boids_world_set_obstacles(v->s.world, list, n) != BOIDS_OK)
        say_error(v, "obstacle");
    else
        say(v, "%u obstacle%s", n, n == 1 ? "" : "s");
    free(list);
}

/* A new file name in the working directory for what a key saves: boids-WHAT-DATE-TIME-N.EXT. */
static const char *key_file_name(viewer *v, const char *what, const char *ext, char *buf,
                                 size_t size)
{
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(buf, size, "boids-%s-%s-%d.%s", what, stamp, v->files++, ext);
    return buf;
}

/* S: the running world's parameters as a scenario file, with the seed it started from (what
 * `boids FILE.ini` runs; the state itself is D's). */
static void save_scenario(viewer *v)
{
    char path[128];
    key_file_name(v, "scenario", "ini", path, sizeof path);
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    boids_world_def d = v->s.def;
    d.params = info.params;
    d.obstacles = v->s.obstacles;
    d.obstacle_count = info.obstacles;
    boids_output_file o;
    boids_status st = boids_output_open(&o, path);
    if (st == BOIDS_OK) {
        fprintf(
            o.f,
            "; saved by the boids viewer (S) after %llu steps: `boids %s` runs it\nseed = %llu\n",
            (unsigned long long)(v->s.steps_before + info.steps), path,
            (unsigned long long)v->seed);
        boids_scenario_write(o.f, &d);
        st = boids_output_commit(&o);
    }
    if (st != BOIDS_OK)
        say_error(v, "saving the scenario");
    else
        say(v, "parameters saved to %s", path);
}

/* D: the state as --dump writes it (what --init reads back). */
static void dump_state(viewer *v)
{
    char path[128];
    key_file_name(v, "state", "csv", path, sizeof path);
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    boids_boid *state = malloc(sizeof *state * (info.count ? info.count : 1));
    boids_status st = state
                          ? boids_world_read(v->s.world, state, info.count)
                          : boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u boids", info.count);
    if (st == BOIDS_OK)
        st = boids_csv_write(path, state, info.count, boids_model_attributes(info.model),
                             info.dims == 3);
    free(state);
    if (st != BOIDS_OK)
        say_error(v, "dumping the state");
    else
        say(v, "state of %u boids dumped to %s", info.count, path);
}

/* ---- keys: the actions of viewer_keys.h's rows
 * --------------------------------------------------- */

static void key_pause(viewer *v, int key, bool shift)
{
    (void)key, (void)shift, v->paused = !v->paused;
}
static void key_step(viewer *v, int key, bool shift)
{
    (void)key, (void)shift, v->step_once = true;
}

/* After a session change: the styles follow, or the error is said. */
static void changed(viewer *v, boids_status st, const char *what)
{
    if (st != BOIDS_OK) {
        say_error(v, what);
        return;
    }
    world_changed(v);
}

static void key_reset(viewer *v, int key, bool shift)
{
    (void)key;
    if (shift) v->seed++;
    changed(v, boids_session_reset(&v->s, v->seed), "reset");
}

static boids_model current_model(viewer *v)
{
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    return info.model;
}

static void key_model(viewer *v, int key, bool shift)
{
    (void)key;
    const int n = boids_model_count(); /* the loaded ones too */
    const boids_model m = (boids_model)(((int)current_model(v) + (shift ? -1 : 1) + n) % n);
    boids_status st = boids_session_set_model(&v->s, m);
    changed(v, st, "model");
    if (st == BOIDS_OK) say(v, "model %s", boids_model_name(m));
}

/* The preset again: the same model anew, the boids as they are. */
static void key_preset(viewer *v, int key, bool shift)
{
    (void)key, (void)shift;
    const boids_model m = current_model(v);
    boids_status st = boids_session_set_model(&v->s, m);
    changed(v, st, "preset");
    if (st == BOIDS_OK) say(v, "%s: preset parameters", boids_model_name(m));
}

static void key_resize(viewer *v, int key, bool shift)
{
    (void)shift;
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    const bool up = key == GLFW_KEY_EQUAL || key == GLFW_KEY_KP_ADD;
    changed(v, boids_session_resize(&v->s, up ? (info.count ? info.count * 2 : 1) : info.count / 2),
            "resize");
}

static void key_speed(viewer *v, int key, bool shift)
{
    (void)shift;
    if (key == GLFW_KEY_LEFT_BRACKET && v->speed > 1.0 / 64) v->speed *= 0.5;
    if (key == GLFW_KEY_RIGHT_BRACKET && v->speed < 64) v->speed *= 2.0;
}

/* The next colour mode; by age only where boids have ages. */
static void key_colour(viewer *v, int key, bool shift)
{
    (void)key, (void)shift;
    const bool ages = (boids_model_attributes(current_model(v)) & BOIDS_ATTR_BIT(AGE)) != 0;
    do v->style.color_mode = (v->style.color_mode + 1) % BOIDS_COLOR_COUNT;
    while (v->style.color_mode == BOIDS_COLOR_AGE && !ages);
}

static void key_tool(viewer *v, int key, bool shift)
{
    (void)key;
    v->tool_kind = (v->tool_kind + (shift ? TOOL_COUNT - 1 : 1)) % TOOL_COUNT;
}

static void key_panel(viewer *v, int key, bool shift)
{
    (void)key, (void)shift, v->panel.visible = !v->panel.visible;
}
static void key_select(viewer *v, int key, bool shift)
{
    (void)shift;
    boids_panel_select(&v->panel, v->s.world, key == GLFW_KEY_UP ? -1 : 1);
}

static void key_nudge(viewer *v, int key, bool shift)
{
    if (boids_panel_nudge(&v->panel, &v->s, key == GLFW_KEY_LEFT ? -1 : 1, shift) != BOIDS_OK)
        say_error(v, "parameter");
}

static void key_fit(viewer *v, int key, bool shift) { (void)key, (void)shift, fit(v); }
static void key_vsync(viewer *v, int key, bool shift)
{
    (void)key, (void)shift;
    v->vsync = !v->vsync;
    glfwSwapInterval(v->vsync ? 1 : 0);
}

static void key_plot(viewer *v, int key, bool shift)
{
    (void)key, (void)shift;
    v->show_plot = !v->show_plot;
    v->plot_count = v->plot_head = 0;
}

static void key_passes(viewer *v, int key, bool shift)
{
    (void)key, (void)shift, v->show_passes = !v->show_passes;
}
static void key_screenshot(viewer *v, int key, bool shift)
{
    (void)key;
    if (shift)
        v->want_clean_screenshot = true;
    else
        v->want_screenshot = true;
}

static void key_record(viewer *v, int key, bool shift)
{
    (void)key, (void)shift;
    if (v->recorder)
        stop_recording(v);
    else
        start_recording(v, NULL);
}

static void key_save(viewer *v, int key, bool shift) { (void)key, (void)shift, save_scenario(v); }
static void key_dump(viewer *v, int key, bool shift) { (void)key, (void)shift, dump_state(v); }
static void key_help(viewer *v, int key, bool shift)
{
    (void)key, (void)shift, v->show_help = !v->show_help;
}
static void key_quit(viewer *v, int key, bool shift)
{
    (void)key, (void)shift, glfwSetWindowShouldClose(v->win, 1);
}
/* Esc closes the help first. */
static void key_escape(viewer *v, int key, bool shift)
{
    if (v->show_help)
        v->show_help = false;
    else
        key_quit(v, key, shift);
}

typedef struct key_row {
    int key, key2;
    bool shift_only, repeats;
    void (*act)(viewer *v, int key, bool shift);
} key_row;
#define ROW_SHIFT_SHIFT true
#define ROW_SHIFT_ANY false
#define ROW_REPEATS_REPEAT true
#define ROW_REPEATS_ONCE false
static const key_row key_rows[] = {
#define KEY_ROW(key, key2, shift, repeats, label, help, action)                                    \
    {key, key2, ROW_SHIFT_##shift, ROW_REPEATS_##repeats, action},
    BOIDS_VIEWER_KEYS(KEY_ROW)
#undef KEY_ROW
};

static void on_key(GLFWwindow *win, int key, int scancode, int action, int mods)
{
    (void)scancode;
    viewer *v = glfwGetWindowUserPointer(win);
    const bool shift = (mods & GLFW_MOD_SHIFT) != 0;
    if (action == GLFW_RELEASE || key == 0) return;
    const key_row *row = NULL; /* the key's SHIFT row with Shift held, else its ANY row */
    for (size_t i = 0; i < sizeof key_rows / sizeof key_rows[0]; ++i) {
        const key_row *r = &key_rows[i];
        if ((r->key != key && r->key2 != key) || (r->shift_only && !shift)) continue;
        if (!row || r->shift_only) row = r;
    }
    if (row && (action == GLFW_PRESS || row->repeats)) row->act(v, key, shift);
}

static void on_cursor(GLFWwindow *win, double x, double y)
{
    viewer *v = glfwGetWindowUserPointer(win);
    int ww, wh;
    glfwGetWindowSize(win, &ww, &wh);
    /* window coordinates -> framebuffer pixels (HiDPI) */
    double fx = ww > 0 ? x * v->fb_w / ww : x, fy = wh > 0 ? y * v->fb_h / wh : y;
    const float dx = (float)(fx - v->mouse_x), dy = (float)(fy - v->mouse_y);
    if (v->panning && v->orbiting)
        boids_camera_orbit(&v->cam, -0.3f * dx, 0.3f * dy); /* degrees per pixel */
    else if (v->panning)
        boids_camera_pan(&v->cam, dx, dy);
    v->mouse_x = fx;
    v->mouse_y = fy;
    if (v->panel.dragging >= 0) boids_panel_drag(&v->panel, &v->s, (float)fx);
}

static void on_button(GLFWwindow *win, int button, int action, int mods)
{
    viewer *v = glfwGetWindowUserPointer(win);
    if (action == GLFW_PRESS) {
        if (button == GLFW_MOUSE_BUTTON_LEFT &&
            boids_panel_press(&v->panel, &v->s, (float)v->mouse_x, (float)v->mouse_y))
            return;
        bool left = button == GLFW_MOUSE_BUTTON_LEFT;
        if (left && v->tool_kind == TOOL_OBSTACLE) {
            obstacle_click(v, (mods & GLFW_MOD_SHIFT) != 0);
        } else if (left && v->tool_kind == TOOL_PREDATOR) {
            float at[3] = {0, 0, 0}; /* (a 3D view's: on the plane through its target) */
            boids_camera_to_world(&v->cam, (float)v->mouse_x, (float)v->mouse_y, &at[0], &at[1]);
            if (v->cam.three)
                boids_camera_to_world_3d(&v->cam, (float)v->mouse_x, (float)v->mouse_y, at);
            if (boids_session_add_predator(&v->s, at[0], at[1], at[2]) != BOIDS_OK)
                say_error(v, "predator");
            else
                world_changed(v);
        } else if (left && v->tool_kind != TOOL_NONE) {
            v->tool_down = true;
        } else { /* a 3D world: the left button turns the view, the others move it */
            v->panning = true;
            v->orbiting = v->cam.three && left && !(mods & GLFW_MOD_SHIFT);
        }
    } else {
        boids_panel_release(&v->panel);
        v->panning = v->orbiting = false;
        v->tool_down = false;
    }
}

static void on_scroll(GLFWwindow *win, double dx, double dy)
{
    (void)dx;
    viewer *v = glfwGetWindowUserPointer(win);
    if (boids_panel_hit(&v->panel, (float)v->mouse_x,
                        (float)v->mouse_y)) { /* over the panel: scrolls it */
        boids_panel_select(&v->panel, v->s.world, dy > 0 ? -1 : 1);
        return;
    }
    boids_camera_zoom_at(&v->cam, (float)pow(1.15, dy), (float)v->mouse_x, (float)v->mouse_y);
}

/* ---- drawing -------------------------------------------------------------------------------- */

/* ---- statistics ----------------------------------------------------------------------------- */

/* Every half second: the world's per-pass times of the last half second (never waited for). */
static void profile_poll(viewer *v, double now)
{
    if (now - v->profile_t0 < 0.5) return;
    boids_profile p;
    boids_world_get_profile(v->s.world, &p);
    if (p.samples[BOIDS_PASS_STEER] > 0) {
        v->profile = p;
        v->sim_ms_per_step = p.step_ms;
        boids_world_reset_profile(v->s.world);
    }
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    boids_replica_status rs = {0, false, 0};
    if (info.predators && info.replicas == 1 &&
        boids_world_replicas(v->s.world, &rs, 1, NULL) == BOIDS_OK) {
        v->catches = rs.catches;
        v->stopped = rs.stopped;
    }
    v->profile_t0 = now;
}

/* The live plot's samples (G), 4 a second while it is shown and the flock moves: the only read the
 * viewer waits for (a few numbers, the metrics the world reduces itself), and only then. */
static void plot_sample(viewer *v, double now)
{
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    uint64_t step = v->s.steps_before + info.steps;
    if (!v->show_plot || now - v->plot_t0 < PLOT_PERIOD_S || step == v->plot_last_step ||
        info.replicas != 1)
        return;
    boids_metrics m;
    if (boids_world_metrics(v->s.world, &m, 1) != BOIDS_OK) {
        say_error(v, "plot");
        v->show_plot = false;
        return;
    }
    v->plot_pol[v->plot_head] = m.polarization;
    v->plot_nn[v->plot_head] = m.mean_nn;
    v->plot_head = (v->plot_head + 1) % PLOT_SAMPLES;
    if (v->plot_count < PLOT_SAMPLES) v->plot_count++;
    v->plot_t0 = now;
    v->plot_last_step = step;
}

/* ---- the loop ------------------------------------------------------------------------------- */

static void screenshot(viewer *v, const char *path)
{
    char name[128], dir[1024];
    if (!path) path = key_file_name(v, "screenshot", "png", name, sizeof name);
    if (v->shooter && (v->shot_w != v->fb_w || v->shot_h != v->fb_h)) {
        boids_png_writer_destroy(v->shooter);
        v->shooter = NULL;
    }
    boids_status st = BOIDS_OK;
    if (!v->shooter)
        st = boids_png_writer_create(path_dir(path, dir, sizeof dir), v->fb_w, v->fb_h, 1,
                                     &v->shooter);
    v->shot_w = v->fb_w;
    v->shot_h = v->fb_h;
    boids_target_read_window();
    if (st == BOIDS_OK) st = boids_png_writer_capture_as(v->shooter, path);
    if (st != BOIDS_OK)
        say_error(v, "screenshot");
    else
        say(v, "screenshot %s", path);
}

/* The window's picture: the flock, and over it (with_overlay) the HUD, the panel, the legend, the
 * plot and the help. */
static boids_status draw_frame(viewer *v, bool with_overlay)
{
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    v->style.speed_lo = info.params.base.min_speed; /* the speed ramp follows the panel */
    v->style.speed_hi = info.params.base.max_speed;
    boids_target_bind_window();
    boids_status st = boids_renderer_draw(v->renderer, v->s.world, &v->cam, &v->style);
    if (st != BOIDS_OK) return st;
    if (!with_overlay) return BOIDS_OK;
    boids_overlay_draw(v);
    return boids_ui_end(v->ui);
}

/* The steps of this frame: --frame-steps while recording (so a recording is reproducible), else
 * real time caught up with, but never much more than a display frame (1/60 s) spent simulating:
 * where steps are slow (llvmpipe, huge flocks) the flock runs slower than real time and the
 * window stays responsive. N adds one; --steps caps the whole. */
static uint32_t steps_due(viewer *v, double real, double dt)
{
    const boids_cli *cli = v->cli;
    uint32_t steps = 0;
    if (v->recorder) {
        steps = v->paused ? 0 : cli->frame_steps;
    } else if (!v->paused) {
        uint32_t cap = MAX_STEPS_PER_FRAME;
        if (v->sim_ms_per_step > 0) {
            double fit = 16.7 / v->sim_ms_per_step;
            cap = fit < 1 ? 1 : fit > MAX_STEPS_PER_FRAME ? MAX_STEPS_PER_FRAME : (uint32_t)fit;
        }
        v->acc += real * v->speed;
        double n = v->acc / dt;
        steps = n > cap ? cap : (uint32_t)n;
        v->acc = n > cap ? 0.0 : v->acc - steps * dt;
    }
    if (v->step_once && (v->paused || !v->recorder)) steps += 1;
    v->step_once = false;
    if (cli->steps_given && v->steps_done + steps > cli->steps)
        steps = (uint32_t)(cli->steps - v->steps_done);
    return steps;
}

/* The recording's frame of these steps, and the writers' finished work collected. */
static void record(viewer *v, uint32_t steps)
{
    if (v->recorder && steps > 0) {
        boids_target_bind(&v->rec_target);
        boids_status st = boids_renderer_draw(v->renderer, v->s.world, &v->rec_cam, &v->style);
        if (st == BOIDS_OK) st = boids_png_writer_capture(v->recorder);
        if (st != BOIDS_OK) {
            say_error(v, "recording");
            stop_recording(v);
        }
    }
}

static void poll_writers(viewer *v)
{
    if (v->recorder && boids_png_writer_poll(v->recorder) != BOIDS_OK) {
        say_error(v, "recording");
        stop_recording(v);
    }
    if (v->shooter && boids_png_writer_poll(v->shooter) != BOIDS_OK) say_error(v, "screenshot");
}

static void count_frame(viewer *v, double now)
{
    v->fps_frames++;
    if (now - v->fps_t0 >= 0.5) {
        v->fps = v->fps_frames / (now - v->fps_t0);
        v->fps_frames = 0;
        v->fps_t0 = now;
    }
}

/* One frame: input, the steps due, the recording, the picture and the screenshots asked for.
 * Returns false when the loop ends (the last of --steps, or a failure: *code says). */
static bool frame(viewer *v, double now, double real, double dt, int *code)
{
    const boids_cli *cli = v->cli;
    /* the overlay's size follows the framebuffer's (so HiDPI too): 1 at 1280x720 */
    v->ui_scale =
        fminf(fmaxf(fminf((float)v->fb_w / 1280.0f, (float)v->fb_h / 720.0f), 0.5f), 3.0f);
    boids_camera_resize(&v->cam, (float)v->fb_w, (float)v->fb_h);
    if (v->tool_down || v->s.tool.kind != BOIDS_TOOL_NONE) set_tool(v);
    const uint32_t steps = steps_due(v, real, dt);
    if (steps > 0) {
        boids_status st = v->metrics.open ? boids_metrics_log_step(&v->metrics, v->s.world, steps)
                                          : boids_world_step(v->s.world, steps);
        if (st == BOIDS_ERR_INTERRUPTED) return false; /* Ctrl-C in a long step: as between */
        if (st != BOIDS_OK) return boids_app_error(cli, "step"), *code = BOIDS_EXIT_RUNTIME, false;
        v->steps_done += steps;
    }
    profile_poll(v, now);
    plot_sample(v, now);
    record(v, steps);
    if (v->want_clean_screenshot) { /* Shift+P: the flock alone, drawn once more for it */
        if (draw_frame(v, false) == BOIDS_OK) screenshot(v, NULL);
        v->want_clean_screenshot = false;
    }
    if (draw_frame(v, true) != BOIDS_OK)
        return boids_app_error(cli, "draw"), *code = BOIDS_EXIT_RUNTIME, false;
    const bool last_frame = cli->steps_given && v->steps_done >= cli->steps;
    if (v->want_screenshot) screenshot(v, NULL);
    if (last_frame && cli->screenshot) {
        screenshot(v, cli->screenshot);
        v->shot_taken = true;
    }
    v->want_screenshot = false;
    poll_writers(v);
    glfwSwapBuffers(v->win);
    count_frame(v, now);
    return !last_frame;
}

/* After the loop: an interruption said (a recording's frames end whole), --screenshot of the
 * last frame however the run ended (Q, the window's close box), the writers closed. */
static int close_run(viewer *v, int code, double wall)
{
    const boids_cli *cli = v->cli;
    if (code == BOIDS_EXIT_OK && boids_interrupted()) {
        stop_recording(v);
        fprintf(stderr, "boids: interrupted: no state, metrics, events or screenshot written\n");
        code = boids_interrupt_exit_code();
    }
    if (code == BOIDS_EXIT_OK && cli->screenshot && !v->shot_taken &&
        draw_frame(v, true) == BOIDS_OK)
        screenshot(v, cli->screenshot);
    stop_recording(v);
    if (v->shooter) {
        if (boids_png_writer_destroy(v->shooter) != BOIDS_OK && code == BOIDS_EXIT_OK)
            boids_app_error(cli, "screenshot"), code = BOIDS_EXIT_RUNTIME;
        else if (cli->screenshot && code == BOIDS_EXIT_OK)
            printf("  screenshot written to %s\n", cli->screenshot);
        v->shooter = NULL;
    }
    printf("  window closed after %.1f s, %.1f fps at the end\n", wall, v->fps);
    if (code == BOIDS_EXIT_OK) code = boids_app_finish(cli, &v->s, v->steps_done, wall);
    return code;
}

static int run(viewer *v)
{
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    const double dt =
        boids_model_time_base(info.model) == BOIDS_TIME_PER_SECOND ? info.dt : 1.0 / 60.0;
    double last = glfwGetTime(), t0 = boids_clock_seconds();
    v->fps_t0 = last;
    int code = BOIDS_EXIT_OK;
    while (!glfwWindowShouldClose(v->win) && !boids_interrupted()) {
        glfwPollEvents();
        double now = glfwGetTime(), real = now - last;
        last = now;
        glfwGetFramebufferSize(v->win, &v->fb_w, &v->fb_h);
        if (v->fb_w <= 0 || v->fb_h <= 0) continue; /* minimised */
        if (!frame(v, now, real, dt, &code)) break;
    }
    return close_run(v, code, boids_clock_seconds() - t0);
}

int boids_viewer_run(const boids_cli *cli, const boids_init_state *init)
{
    viewer *v = calloc(1, sizeof *v);
    if (!v) {
        fprintf(stderr, "boids: out of memory\n");
        return BOIDS_EXIT_RUNTIME;
    }
    v->cli = cli;
    v->speed = 1.0;
    v->vsync = true;
    v->seed = cli->def.seed;
    v->tool_kind = TOOL_NONE;
    boids_panel_init(&v->panel);
    boids_status st = boids_gl_create_window(1280, 720, "boids", true, &v->gl);
    if (st != BOIDS_OK) {
        fprintf(stderr, "boids: %s: running headless\n", boids_last_error()); /* "no window: ..." */
        free(v);
        return BOIDS_EXIT_NO_WINDOW;
    }
    v->win = boids_gl_window(v->gl);
    int code =
        boids_app_open(cli, cli->def.backend == BOIDS_BACKEND_GPU ? v->gl : NULL, init, &v->s);
    if (code == BOIDS_EXIT_OK) {
        boids_gl_make_current(v->gl);
        st = boids_renderer_create(&v->renderer);
        if (st == BOIDS_OK) st = boids_ui_create(&v->ui);
        if (st != BOIDS_OK) boids_app_error(v->cli, "viewer"), code = BOIDS_EXIT_RUNTIME;
    }
    if (code == BOIDS_EXIT_OK) {
        boids_app_print_header(&v->s, cli);
        glfwSetWindowUserPointer(v->win, v);
        glfwSetKeyCallback(v->win, on_key);
        glfwSetCursorPosCallback(v->win, on_cursor);
        glfwSetMouseButtonCallback(v->win, on_button);
        glfwSetScrollCallback(v->win, on_scroll);
        glfwSwapInterval(1);
        glfwGetFramebufferSize(v->win, &v->fb_w, &v->fb_h);
        v->style = boids_default_draw_style(v->s.world);
        fit(v);
        if (cli->frames_dir)
            start_recording(v, cli->frames_dir); /* --frames records from the start */
        if (cli->metrics_path &&
            (st = boids_metrics_log_open(&v->metrics, cli->metrics_path, cli->metrics_every,
                                         cli->field ? &cli->field_options : NULL, v->s.world)) !=
                BOIDS_OK)
            code = boids_app_error(cli, "--metrics");
        if (code == BOIDS_EXIT_OK) code = run(v);
        st = boids_metrics_log_close(&v->metrics, v->s.world, code == BOIDS_EXIT_OK);
        if (code == BOIDS_EXIT_OK && st != BOIDS_OK)
            code = boids_app_error(cli, "--metrics"), code = BOIDS_EXIT_RUNTIME;
        else if (code == BOIDS_EXIT_OK && cli->metrics_path)
            printf("  %llu rows of metrics written to %s\n", (unsigned long long)v->metrics.rows,
                   cli->metrics_path);
    }
    boids_ui_destroy(v->ui);
    boids_renderer_destroy(v->renderer);
    boids_session_destroy(&v->s);
    boids_gl_destroy(v->gl);
    free(v);
    return code;
}
