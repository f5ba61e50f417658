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

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "app/app.h"
#include "app/interrupt.h"
#include "app/metrics_log.h"
#include "app/panel.h"
#include "core/error.h"
#include "gpu/gl.h"
#include "render/boid_renderer.h"
#include "render/png_writer.h"
#include "render/target.h"
#include "render/ui.h"

#define MAX_STEPS_PER_FRAME 8

/* The mouse tools (T cycles them): the tool's force field, or placing things with a click. */
enum { TOOL_NONE, TOOL_ATTRACT, TOOL_REPEL, TOOL_OBSTACLE, TOOL_PREDATOR, TOOL_COUNT };

typedef struct viewer {
    const boids_cli *cli;
    boids_gl *gl;
    GLFWwindow *win;
    boids_session s;
    boids_renderer *renderer;
    boids_ui *ui;
    boids_panel panel;
    boids_camera cam;
    boids_draw_style style;
    int fb_w, fb_h;
    float ui_scale;
    /* time */
    double acc, speed;
    bool paused, step_once, vsync, show_help, show_passes;
    uint64_t steps_done;
    /* input */
    double mouse_x, mouse_y; /* framebuffer pixels */
    bool panning, tool_down;
    unsigned tool_kind;
    /* statistics */
    boids_profile profile; /* the last half second's, per pass */
    uint32_t catches;      /* models with predators: replica 0's catches, read with the profile */
    bool stopped;
    double profile_t0;
    double sim_ms_per_step, fps, fps_t0;
    int fps_frames;
    /* output */
    boids_metrics_log metrics; /* --metrics (a reset starts its steps again from 0) */
    boids_png_writer *recorder, *shooter;
    boids_target rec_target;
    boids_camera rec_cam;
    char rec_dir[1200];
    int recordings;
    bool want_screenshot, shot_taken;
    int shot_w, shot_h, shots;
    char message[2048];
    double message_until;
    uint64_t seed;
} viewer;

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
    boids_camera_fit(&v->cam, info.width, info.height, (float)v->fb_w, (float)v->fb_h);
}

/* ---- recording -------------------------------------------------------------------------------- */

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
    if (st == BOIDS_OK) st = boids_png_writer_create(dir, v->cli->size_w, v->cli->size_h, 0, &v->recorder);
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
    double step_s = boids_model_time_base(info.model) == BOIDS_TIME_PER_SECOND ? info.dt : 1.0 / 60.0;
    boids_app_print_ffmpeg(v->rec_dir, 1.0 / (step_s * v->cli->frame_steps));
}

/* ---- input ------------------------------------------------------------------------------------ */

static void set_tool(viewer *v)
{
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    float wx, wy;
    boids_camera_to_world(&v->cam, (float)v->mouse_x, (float)v->mouse_y, &wx, &wy);
    boids_tool t = {wx, wy, 0, 0, BOIDS_TOOL_NONE, 0, 0, 0};
    if (v->tool_down && (v->tool_kind == TOOL_ATTRACT || v->tool_kind == TOOL_REPEL)) {
        /* A reach of a sixth of the view and a pull that would take a boid from rest to four
         * times its top speed in a second (60 frames for frame-based models): felt at once, yet
         * a force like the model's own. */
        bool per_second = boids_model_time_base(info.model) == BOIDS_TIME_PER_SECOND;
        t.kind = v->tool_kind == TOOL_ATTRACT ? BOIDS_TOOL_ATTRACT : BOIDS_TOOL_REPEL;
        t.radius = (float)v->fb_h / 6.0f / v->cam.zoom;
        t.strength = 4.0f * info.params.base.max_speed / (per_second ? 1.0f : 60.0f);
    }
    v->s.tool = t;
    if (boids_world_set_tool(v->s.world, &t) != BOIDS_OK) say_error(v, "tool");
}

static const char *tool_name(unsigned kind)
{
    static const char *const names[TOOL_COUNT] = {"none (drag pans)", "attract", "repel",
                                                  "obstacle (click adds, Shift+click removes)",
                                                  "predator (click adds)"};
    return kind < TOOL_COUNT ? names[kind] : "?";
}

static const char *color_name(int mode)
{
    static const char *const names[BOIDS_COLOR_COUNT] = {"swarm", "heading", "speed", "age"};
    return (unsigned)mode < BOIDS_COLOR_COUNT ? names[mode] : "?";
}

/* A click with the obstacle tool: a new obstacle at the cursor (the model's max_obstacle_size,
 * at least a hundredth of the view), or with Shift the obstacle under the cursor removed. */
static void obstacle_click(viewer *v, bool remove)
{
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    float wx, wy;
    boids_camera_to_world(&v->cam, (float)v->mouse_x, (float)v->mouse_y, &wx, &wy);
    if (wx < 0 || wy < 0 || wx >= info.width || wy >= info.height) return;
    boids_obstacle *list = malloc(sizeof *list * (info.obstacles + 1));
    if (!list || boids_world_read_obstacles(v->s.world, list, info.obstacles) != BOIDS_OK) {
        free(list);
        say_error(v, "obstacle");
        return;
    }
    uint32_t n = info.obstacles;
    if (remove) { /* the nearest whose disc (or a few pixels round it) holds the cursor */
        uint32_t best = n;
        float best_d = INFINITY, slack = 6.0f / v->cam.zoom;
        for (uint32_t k = 0; k < n; ++k) {
            float d = hypotf(list[k].x - wx, list[k].y - wy);
            if (list[k].replica == 0 && d <= list[k].radius + slack && d < best_d) best = k, best_d = d;
        }
        if (best == n) {
            free(list);
            return;
        }
        list[best] = list[--n];
    } else {
        float r = fmaxf(info.params.obstacles.max_obstacle_size, (float)v->fb_h / 100.0f / v->cam.zoom);
        list[n++] = (boids_obstacle){wx, wy, r, 0};
    }
    if (boids_world_set_obstacles(v->s.world, list, n) != BOIDS_OK) say_error(v, "obstacle");
    else say(v, "%u obstacle%s", n, n == 1 ? "" : "s");
    free(list);
}

static void on_key(GLFWwindow *win, int key, int scancode, int action, int mods)
{
    (void)scancode;
    viewer *v = glfwGetWindowUserPointer(win);
    if (action == GLFW_RELEASE) return;
    bool shift = (mods & GLFW_MOD_SHIFT) != 0, repeat = action == GLFW_REPEAT;
    boids_status st = BOIDS_OK;
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    switch (key) {
    case GLFW_KEY_UP: boids_panel_select(&v->panel, v->s.world, -1); break;
    case GLFW_KEY_DOWN: boids_panel_select(&v->panel, v->s.world, +1); break;
    case GLFW_KEY_LEFT:
    case GLFW_KEY_RIGHT:
        if (boids_panel_nudge(&v->panel, &v->s, key == GLFW_KEY_LEFT ? -1 : 1, shift) != BOIDS_OK)
            say_error(v, "parameter");
        break;
    default:
        if (repeat) return; /* the rest act once per press */
        switch (key) {
        case GLFW_KEY_ESCAPE:
        case GLFW_KEY_Q: glfwSetWindowShouldClose(win, GLFW_TRUE); break;
        case GLFW_KEY_SPACE: v->paused = !v->paused; break;
        case GLFW_KEY_N: v->step_once = true; break;
        case GLFW_KEY_R:
            if (shift) v->seed++;
            st = boids_session_reset(&v->s, v->seed);
            if (st == BOIDS_OK) world_changed(v);
            break;
        case GLFW_KEY_M: {
            int m = ((int)info.model + (shift ? -1 : 1) + BOIDS_MODEL_COUNT) % BOIDS_MODEL_COUNT;
            st = boids_session_set_model(&v->s, (boids_model)m);
            if (st == BOIDS_OK) {
                world_changed(v);
                say(v, "model %s", boids_model_name((boids_model)m));
            }
            break;
        }
        case GLFW_KEY_EQUAL:
        case GLFW_KEY_KP_ADD:
            st = boids_session_resize(&v->s, info.count ? info.count * 2 : 1);
            if (st == BOIDS_OK) world_changed(v);
            break;
        case GLFW_KEY_MINUS:
        case GLFW_KEY_KP_SUBTRACT:
            st = boids_session_resize(&v->s, info.count / 2);
            if (st == BOIDS_OK) world_changed(v);
            break;
        case GLFW_KEY_C: /* by age only where boids have ages */
            do
                v->style.color_mode = (v->style.color_mode + 1) % BOIDS_COLOR_COUNT;
            while (v->style.color_mode == BOIDS_COLOR_AGE && !(boids_model_attributes(info.model) & BOIDS_ATTR_BIT(AGE)));
            break;
        case GLFW_KEY_V:
            v->vsync = !v->vsync;
            glfwSwapInterval(v->vsync ? 1 : 0);
            break;
        case GLFW_KEY_LEFT_BRACKET: v->speed = v->speed > 1.0 / 64 ? v->speed * 0.5 : v->speed; break;
        case GLFW_KEY_RIGHT_BRACKET: v->speed = v->speed < 64 ? v->speed * 2.0 : v->speed; break;
        case GLFW_KEY_T: v->tool_kind = (v->tool_kind + (shift ? TOOL_COUNT - 1 : 1)) % TOOL_COUNT; break;
        case GLFW_KEY_TAB: v->panel.visible = !v->panel.visible; break;
        case GLFW_KEY_I: v->show_passes = !v->show_passes; break;
        case GLFW_KEY_P: v->want_screenshot = true; break;
        case GLFW_KEY_O:
            if (v->recorder) stop_recording(v);
            else start_recording(v, NULL);
            break;
        case GLFW_KEY_HOME: fit(v); break;
        case GLFW_KEY_H:
        case GLFW_KEY_F1: v->show_help = !v->show_help; break;
        default: break;
        }
    }
    if (st != BOIDS_OK) say_error(v, "that failed");
}

static void on_cursor(GLFWwindow *win, double x, double y)
{
    viewer *v = glfwGetWindowUserPointer(win);
    int ww, wh;
    glfwGetWindowSize(win, &ww, &wh);
    /* window coordinates -> framebuffer pixels (HiDPI) */
    double fx = ww > 0 ? x * v->fb_w / ww : x, fy = wh > 0 ? y * v->fb_h / wh : y;
    if (v->panning) boids_camera_pan(&v->cam, (float)(fx - v->mouse_x), (float)(fy - v->mouse_y));
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
            float wx, wy;
            boids_camera_to_world(&v->cam, (float)v->mouse_x, (float)v->mouse_y, &wx, &wy);
            if (boids_session_add_predator(&v->s, wx, wy) != BOIDS_OK) say_error(v, "predator");
            else world_changed(v);
        } else if (left && v->tool_kind != TOOL_NONE) {
            v->tool_down = true;
        } else {
            v->panning = true;
        }
    } else {
        boids_panel_release(&v->panel);
        v->panning = false;
        v->tool_down = false;
    }
}

static void on_scroll(GLFWwindow *win, double dx, double dy)
{
    (void)dx;
    viewer *v = glfwGetWindowUserPointer(win);
    boids_camera_zoom_at(&v->cam, (float)pow(1.15, dy), (float)v->mouse_x, (float)v->mouse_y);
}

/* ---- drawing ---------------------------------------------------------------------------------- */

static const boids_rgba hud_c = {225, 230, 240, 255}, hud_dim = {150, 160, 175, 255},
                        hud_bg = {10, 12, 16, 190}, hud_warn = {255, 120, 100, 255};

static void draw_hud(viewer *v)
{
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    float lh = boids_ui_line_height(v->ui), pad = lh * 0.4f;
    char l1[512], l2[256], l3[256], l4[512] = "";
    snprintf(l1, sizeof l1, "%s on %s: %s", boids_model_name(info.model),
             info.backend == BOIDS_BACKEND_GPU ? "gpu" : "cpu", info.renderer);
    snprintf(l2, sizeof l2, "%u boids, %u swarm%s | %.0f fps | sim %.2f ms/step | speed x%g%s", info.count,
             info.swarms, info.swarms == 1 ? "" : "s", v->fps, v->sim_ms_per_step, v->speed,
             v->paused ? " | PAUSED" : "");
    char catches[96] = "";
    if (info.predators)
        snprintf(catches, sizeof catches, " | %u predators, %u catch%s%s", info.predators, v->catches,
                 v->catches == 1 ? "" : "es", v->stopped ? " (stopped)" : "");
    snprintf(l3, sizeof l3, "step %llu%s | tool %s (T) | colour %s (C) | I: passes | H: help",
             (unsigned long long)info.steps, catches, tool_name(v->tool_kind), color_name(v->style.color_mode));
    if (v->show_passes) /* the world's profile, pass by pass (GL timer queries on the GPU) */
        for (int p = 0; p < BOIDS_PASS_COUNT; ++p) {
            size_t len = strlen(l4);
            snprintf(l4 + len, sizeof l4 - len, "%s%s %.2f", p ? " | " : "ms: ", boids_pass_name((boids_pass)p),
                     v->profile.ms[p]);
        }
    const char *lines[4] = {l1, l2, l3, l4};
    const int nlines = v->show_passes ? 4 : 3;
    float w = 0;
    for (int i = 0; i < nlines; ++i) {
        float tw = boids_ui_text_width(v->ui, lines[i]);
        if (tw > w) w = tw;
    }
    boids_ui_rect(v->ui, pad, pad, w + 2 * pad, lh * (float)nlines + pad, hud_bg);
    for (int i = 0; i < nlines; ++i)
        boids_ui_text(v->ui, 2 * pad, pad * 1.5f + lh * (float)i, lines[i], i ? hud_dim : hud_c);
    float y = lh * (float)nlines + 2 * pad;
    if (v->recorder) {
        char rec[256];
        snprintf(rec, sizeof rec, "REC %u frames (O stops)", boids_png_writer_frames(v->recorder));
        boids_ui_rect(v->ui, pad, y, boids_ui_text_width(v->ui, rec) + 2 * pad, lh + pad, hud_bg);
        boids_ui_text(v->ui, 2 * pad, y + pad * 0.5f, rec, hud_warn);
        y += lh + pad;
    }
    if (glfwGetTime() < v->message_until) {
        boids_ui_rect(v->ui, pad, y, boids_ui_text_width(v->ui, v->message) + 2 * pad, lh + pad, hud_bg);
        boids_ui_text(v->ui, 2 * pad, y + pad * 0.5f, v->message, hud_c);
    }
}

static const char *const help_lines[] = {
    "Space     pause / resume          N         one step",
    "R         reset (same seed)       Shift+R   reseed",
    "M         next model              Shift+M   previous model",
    "= / -     double / halve boids    [ / ]     slower / faster",
    "C         colour: swarm, heading, speed, age (kit)",
    "T         mouse tool: none, attract, repel (hold left button), obstacle (click",
    "          adds, Shift+click removes), predator (click adds; kit); Shift+T back",
    "Tab       parameter panel: Up/Down select, Left/Right change,",
    "          Shift coarse, or drag a slider",
    "Wheel     zoom at the cursor      drag      pan (right button always)",
    "Home      fit the world           V         vsync on / off",
    "I         time of each pass (grid, scan, scatter, reorder, steer, draw)",
    "P         screenshot              O         record PNG frames on / off",
    "H, F1     this help               Esc, Q    quit",
};

static void draw_help(viewer *v)
{
    float lh = boids_ui_line_height(v->ui), pad = lh * 0.6f, w = 0;
    size_t n = sizeof help_lines / sizeof help_lines[0];
    for (size_t i = 0; i < n; ++i) {
        float tw = boids_ui_text_width(v->ui, help_lines[i]);
        if (tw > w) w = tw;
    }
    float h = lh * (float)n + 2 * pad, x = ((float)v->fb_w - w) * 0.5f - pad, y = ((float)v->fb_h - h) * 0.5f;
    boids_ui_rect(v->ui, x, y, w + 2 * pad, h, (boids_rgba){10, 12, 16, 230});
    for (size_t i = 0; i < n; ++i) boids_ui_text(v->ui, x + pad, y + pad + lh * (float)i, help_lines[i], hud_c);
}

/* ---- statistics ------------------------------------------------------------------------------- */

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
    if (info.predators && info.replicas == 1 && boids_world_replicas(v->s.world, &rs, 1, NULL) == BOIDS_OK) {
        v->catches = rs.catches;
        v->stopped = rs.stopped;
    }
    v->profile_t0 = now;
}

/* ---- the loop --------------------------------------------------------------------------------- */

static void screenshot(viewer *v, const char *path)
{
    char name[64], dir[1024];
    if (!path) {
        time_t t = time(NULL);
        struct tm tm;
        localtime_r(&t, &tm);
        char stamp[32];
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        snprintf(name, sizeof name, "boids-%s-%d.png", stamp, v->shots++);
        path = name;
    }
    if (v->shooter && (v->shot_w != v->fb_w || v->shot_h != v->fb_h)) {
        boids_png_writer_destroy(v->shooter);
        v->shooter = NULL;
    }
    boids_status st = BOIDS_OK;
    if (!v->shooter) st = boids_png_writer_create(path_dir(path, dir, sizeof dir), v->fb_w, v->fb_h, 1, &v->shooter);
    v->shot_w = v->fb_w;
    v->shot_h = v->fb_h;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    if (st == BOIDS_OK) st = boids_png_writer_capture_as(v->shooter, path);
    if (st != BOIDS_OK) say_error(v, "screenshot");
    else say(v, "screenshot %s", path);
}

/* The window's picture: the flock, the HUD, the panel, the help. */
static boids_status draw_frame(viewer *v)
{
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    v->style.speed_lo = info.params.base.min_speed; /* the speed ramp follows the panel */
    v->style.speed_hi = info.params.base.max_speed;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    boids_status st = boids_renderer_draw(v->renderer, v->s.world, &v->cam, &v->style);
    if (st != BOIDS_OK) return st;
    boids_ui_begin(v->ui, (float)v->fb_w, (float)v->fb_h, v->ui_scale);
    draw_hud(v);
    boids_panel_draw(&v->panel, v->ui, v->s.world, (float)v->fb_w, (float)v->fb_h,
                     boids_ui_line_height(v->ui) * 0.4f);
    if (v->show_help) draw_help(v);
    return boids_ui_end(v->ui);
}

static int run(viewer *v)
{
    const boids_cli *cli = v->cli;
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    const double dt = boids_model_time_base(info.model) == BOIDS_TIME_PER_SECOND ? info.dt : 1.0 / 60.0;
    double last = glfwGetTime(), t0 = boids_app_now();
    v->fps_t0 = last;
    int code = BOIDS_EXIT_OK;
    boids_interrupt_install();
    while (!glfwWindowShouldClose(v->win) && !boids_interrupted()) {
        glfwPollEvents();
        double now = glfwGetTime(), real = now - last;
        last = now;
        glfwGetFramebufferSize(v->win, &v->fb_w, &v->fb_h);
        if (v->fb_w <= 0 || v->fb_h <= 0) continue; /* minimised */
        boids_camera_resize(&v->cam, (float)v->fb_w, (float)v->fb_h);
        if (v->tool_down || v->s.tool.kind != BOIDS_TOOL_NONE) set_tool(v);

        uint32_t steps = 0;
        if (v->recorder) {
            steps = v->paused ? 0 : cli->frame_steps;
        } else if (!v->paused) {
            /* Catch up with real time, but never spend much more than a display frame (1/60 s)
             * simulating: where steps are slow (llvmpipe, huge flocks) the flock runs slower
             * than real time and the window stays responsive. */
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
        if (cli->steps_given && v->steps_done + steps > cli->steps) steps = (uint32_t)(cli->steps - v->steps_done);
        if (steps > 0) {
            boids_status st = v->metrics.open ? boids_metrics_log_step(&v->metrics, v->s.world, steps)
                                              : boids_world_step(v->s.world, steps);
            if (st != BOIDS_OK) {
                boids_app_error(v->cli, "step"), code = BOIDS_EXIT_RUNTIME;
                break;
            }
            v->steps_done += steps;
        }
        profile_poll(v, now);

        if (v->recorder && steps > 0) {
            boids_target_bind(&v->rec_target);
            boids_status st = boids_renderer_draw(v->renderer, v->s.world, &v->rec_cam, &v->style);
            if (st == BOIDS_OK) st = boids_png_writer_capture(v->recorder);
            if (st != BOIDS_OK) {
                say_error(v, "recording");
                stop_recording(v);
            }
        }
        if (draw_frame(v) != BOIDS_OK) {
            boids_app_error(v->cli, "draw"), code = BOIDS_EXIT_RUNTIME;
            break;
        }
        bool last_frame = cli->steps_given && v->steps_done >= cli->steps;
        if (v->want_screenshot) screenshot(v, NULL);
        if (last_frame && cli->screenshot) {
            screenshot(v, cli->screenshot);
            v->shot_taken = true;
        }
        v->want_screenshot = false;
        if (v->recorder && boids_png_writer_poll(v->recorder) != BOIDS_OK) {
            say_error(v, "recording");
            stop_recording(v);
        }
        if (v->shooter && boids_png_writer_poll(v->shooter) != BOIDS_OK) say_error(v, "screenshot");
        glfwSwapBuffers(v->win);

        v->fps_frames++;
        if (now - v->fps_t0 >= 0.5) {
            v->fps = v->fps_frames / (now - v->fps_t0);
            v->fps_frames = 0;
            v->fps_t0 = now;
        }
        if (last_frame) break;
    }
    double wall = boids_app_now() - t0;
    if (code == BOIDS_EXIT_OK && boids_interrupted()) { /* a recording's frames end whole */
        stop_recording(v);
        fprintf(stderr, "boids: interrupted: no state, metrics, events or screenshot written\n");
        code = boids_interrupt_exit_code();
    }
    boids_interrupt_restore();
    /* --screenshot is of the last frame however the run ended (Q, the window's close box). */
    if (code == BOIDS_EXIT_OK && cli->screenshot && !v->shot_taken && draw_frame(v) == BOIDS_OK)
        screenshot(v, cli->screenshot);
    stop_recording(v);
    if (v->shooter) {
        if (boids_png_writer_destroy(v->shooter) != BOIDS_OK && code == BOIDS_EXIT_OK)
            boids_app_error(v->cli, "screenshot"), code = BOIDS_EXIT_RUNTIME;
        else if (cli->screenshot && code == BOIDS_EXIT_OK)
            printf("  screenshot written to %s\n", cli->screenshot);
        v->shooter = NULL;
    }
    printf("  window closed after %.1f s, %.1f fps at the end\n", wall, v->fps);
    if (code == BOIDS_EXIT_OK) code = boids_app_finish(cli, &v->s, v->steps_done, wall);
    return code;
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
        fprintf(stderr, "boids: no window (%s): running headless\n", boids_last_error());
        free(v);
        return BOIDS_EXIT_NO_WINDOW;
    }
    v->win = boids_gl_window(v->gl);
    int code = boids_app_open(cli, cli->def.backend == BOIDS_BACKEND_GPU ? v->gl : NULL, init, &v->s);
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
        float sx = 1, sy = 1;
        glfwGetWindowContentScale(v->win, &sx, &sy);
        v->ui_scale = sx > 0 ? sx : 1;
        glfwGetFramebufferSize(v->win, &v->fb_w, &v->fb_h);
        v->style = boids_default_draw_style(v->s.world);
        fit(v);
        if (cli->frames_dir) start_recording(v, cli->frames_dir); /* --frames records from the start */
        if (cli->metrics_path && (st = boids_metrics_log_open(&v->metrics, cli->metrics_path, cli->metrics_every,
                                                              v->s.world)) != BOIDS_OK)
            code = boids_app_error(cli, "--metrics");
        if (code == BOIDS_EXIT_OK) code = run(v);
        st = boids_metrics_log_close(&v->metrics, v->s.world, code == BOIDS_EXIT_OK);
        if (code == BOIDS_EXIT_OK && st != BOIDS_OK) code = boids_app_error(cli, "--metrics"), code = BOIDS_EXIT_RUNTIME;
        else if (code == BOIDS_EXIT_OK && cli->metrics_path)
            printf("  %llu rows of metrics written to %s\n", (unsigned long long)v->metrics.rows, cli->metrics_path);
    }
    boids_ui_destroy(v->ui);
    boids_renderer_destroy(v->renderer);
    boids_session_destroy(&v->s);
    boids_gl_destroy(v->gl);
    free(v);
    return code;
}
