/* The viewer's state, shared by its two files: viewer.c (the window, the loop, input, recording)
 * and viewer_overlay.c (what is drawn over the flock: HUD, panel, legend, plot, tool, help). */
#ifndef BOIDS_APP_VIEWER_VIEWER_H
#define BOIDS_APP_VIEWER_VIEWER_H

#include "app/app.h"
#include "app/metrics_log.h"
#include "app/viewer/panel.h"
#include "base/glfw.h"
#include "render/boid_renderer.h"
#include "render/png_writer.h"
#include "render/target.h"
#include "render/ui.h"

#define MAX_STEPS_PER_FRAME 8
#define PLOT_SAMPLES 240   /* the live plot's history: 60 s at 4 samples a second */
#define PLOT_PERIOD_S 0.25 /* between two samples (wall clock, while the flock moves) */

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
    float ui_scale; /* from the framebuffer's size: the overlay grows and shrinks with the window */
    /* time */
    double acc, speed;
    bool paused, step_once, vsync, show_help, show_passes, show_plot;
    uint64_t steps_done; /* this run's steps, for --steps and the summary */
    uint64_t seed;
    /* input */
    double mouse_x, mouse_y; /* framebuffer pixels */
    bool panning, tool_down;
    bool orbiting; /* a 3D world's left drag turns the camera about its target */
    unsigned tool_kind;
    /* statistics */
    boids_profile profile; /* the last half second's, per pass */
    uint32_t catches;      /* models with predators: replica 0's catches, read with the profile */
    bool stopped;
    double profile_t0;
    double sim_ms_per_step, fps, fps_t0;
    int fps_frames;
    /* the live plot (G): polarization and mean nearest-neighbour distance, a ring of samples */
    float plot_pol[PLOT_SAMPLES], plot_nn[PLOT_SAMPLES];
    int plot_count, plot_head;
    double plot_t0;
    uint64_t plot_last_step;
    /* output */
    boids_metrics_log metrics; /* --metrics (a reset starts its steps again from 0) */
    boids_png_writer *recorder, *shooter;
    boids_target rec_target;
    boids_camera rec_cam;
    char rec_dir[1200];
    int recordings,
        files; /* recordings, and files saved by keys (screenshots, states, scenarios) */
    bool want_screenshot, want_clean_screenshot, shot_taken;
    int shot_w, shot_h;
    char message[2048];
    double message_until;
} viewer;

/* Draws the HUD, the panel, the colour legend, the live plot, the mouse tool's reach and the help
 * (the last two only when on) over the flock, scaled to the window, the HUD, legend, plot and
 * help kept clear of the panel. */
void boids_overlay_draw(viewer *v);
/* The HUD's names of the mouse tool and the colour mode. */
const char *boids_overlay_tool_name(unsigned kind);
const char *boids_overlay_color_name(int mode);

#endif
