/* What the viewer draws over the flock. Everything scales with the window (viewer.ui_scale) and
 * lays itself out around the panel, which takes the right edge: the HUD (top left), the colour
 * legend and the live plot (bottom left) and the help (centred) shrink to the room left of it
 * rather than run under it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/viewer/viewer.h"
#include "app/cli/keys.h"
#include "boids_draw.h"

static const boids_rgba hud_c = {225, 230, 240, 255}, hud_dim = {150, 160, 175, 255},
                        hud_bg = {10, 12, 16, 190}, hud_warn = {255, 120, 100, 255},
                        plot_pol_c = {90, 200, 255, 255}, plot_nn_c = {255, 170, 70, 255},
                        key_c = {255, 210, 90, 255};

const char *boids_overlay_tool_name(unsigned kind)
{
    static const char *const names[TOOL_COUNT] = {"none (drag pans)", "attract", "repel",
                                                  "obstacle (click adds, Shift+click removes)",
                                                  "predator (click adds)"};
    return kind < TOOL_COUNT ? names[kind] : "?";
}

const char *boids_overlay_color_name(int mode)
{
    static const char *const names[BOIDS_COLOR_COUNT] = {"swarm", "heading", "speed", "age"};
    return (unsigned)mode < BOIDS_COLOR_COUNT ? names[mode] : "?";
}

static boids_rgba rgb(const float c[3])
{
    return (boids_rgba){(uint8_t)(c[0] * 255 + 0.5f), (uint8_t)(c[1] * 255 + 0.5f),
                        (uint8_t)(c[2] * 255 + 0.5f), 255};
}

static boids_rgba mix(const float a[3], const float b[3], float t)
{
    const float c[3] = {a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t,
                        a[2] + (b[2] - a[2]) * t};
    return rgb(c);
}

/* The scale at which lines of text `widest` wide (at the current scale) fit `room` pixels, never
 * above the current one. */
static float fit_scale(boids_ui *ui, float widest, float room)
{
    float s = boids_ui_get_scale(ui);
    return widest > room && widest > 0 ? s * fmaxf(0.25f, room / widest) : s;
}

/* Boxed lines of text at (x, y); returns the box's height. */
static float text_box(boids_ui *ui, float x, float y, const char *const *lines, int n,
                      const boids_rgba *colours)
{
    float lh = boids_ui_line_height(ui), pad = lh * 0.4f, w = 0;
    for (int i = 0; i < n; ++i) w = fmaxf(w, boids_ui_text_width(ui, lines[i]));
    boids_ui_rect(ui, x, y, w + 2 * pad, lh * (float)n + pad, hud_bg);
    for (int i = 0; i < n; ++i)
        boids_ui_text(ui, x + pad, y + pad * 0.5f + lh * (float)i, lines[i], colours[i]);
    return lh * (float)n + pad;
}

static void draw_hud(viewer *v, float room)
{
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    char l[5][512];
    snprintf(l[0], sizeof l[0], "%s on %s: %s", boids_model_name(info.model),
             info.backend == BOIDS_BACKEND_GPU ? "gpu" : "cpu", info.renderer);
    snprintf(l[1], sizeof l[1], "%u boids, %u swarm%s | %.0f fps | sim %.2f ms/step | speed x%g%s",
             info.count, info.swarms, info.swarms == 1 ? "" : "s", v->fps, v->sim_ms_per_step,
             v->speed, v->paused ? " | PAUSED" : "");
    char catches[96] = "";
    if (info.predators)
        snprintf(catches, sizeof catches, " | %u predator%s, %u catch%s%s", info.predators,
                 info.predators == 1 ? "" : "s", v->catches, v->catches == 1 ? "" : "es",
                 v->stopped ? " (stopped)" : "");
    snprintf(l[2], sizeof l[2], "step %llu | seed %llu | zoom %.3gx | vsync %s (V)%s",
             (unsigned long long)(v->s.steps_before + info.steps), (unsigned long long)v->seed,
             (double)v->cam.zoom, v->vsync ? "on" : "off", catches);
    snprintf(l[3], sizeof l[3], "tool %s (T) | colour %s (C) | G: plot | I: passes | H: help",
             v->cam.three && v->tool_kind == TOOL_NONE ? "none (drag turns, Shift+drag pans)"
                                                       : boids_overlay_tool_name(v->tool_kind),
             boids_overlay_color_name(v->style.color_mode));
    l[4][0] = '\0';
    if (v->show_passes) /* the world's profile, pass by pass (GL timer queries on the GPU) */
        for (int p = 0; p < BOIDS_PASS_COUNT; ++p) {
            if (v->profile.samples[p] == 0)
                continue; /* a pass this world has not (no predators: no hunt) */
            size_t len = strlen(l[4]);
            snprintf(l[4] + len, sizeof l[4] - len, "%s%s %.2f",
                     len ? " | " : "ms: ", boids_pass_name((boids_pass)p), v->profile.ms[p]);
        }
    const char *lines[5] = {l[0], l[1], l[2], l[3], l[4]};
    const boids_rgba colours[5] = {hud_c, hud_dim, hud_dim, hud_dim, hud_dim};
    const int n = v->show_passes ? 5 : 4;
    float widest = 0;
    for (int i = 0; i < n; ++i) widest = fmaxf(widest, boids_ui_text_width(v->ui, lines[i]));
    float scale = boids_ui_get_scale(v->ui), pad = boids_ui_line_height(v->ui) * 0.4f;
    boids_ui_set_scale(v->ui, fit_scale(v->ui, widest + 3 * pad, room - pad));
    float y = pad + text_box(v->ui, pad, pad, lines, n, colours) + pad * 0.5f;
    char extra[2][2100];
    int k = 0;
    boids_rgba extra_c[2];
    if (v->recorder) {
        snprintf(extra[k], sizeof extra[k], "REC %u frames (O stops)",
                 boids_png_writer_frames(v->recorder));
        extra_c[k++] = hud_warn;
    }
    if (glfwGetTime() < v->message_until) {
        snprintf(extra[k], sizeof extra[k], "%s", v->message);
        extra_c[k++] = hud_c;
    }
    for (int i = 0; i < k; ++i) {
        const char *one[1] = {extra[i]};
        float w = boids_ui_text_width(v->ui, extra[i]), s = boids_ui_get_scale(v->ui);
        boids_ui_set_scale(v->ui, fit_scale(v->ui, w + 3 * pad, room - pad));
        y += text_box(v->ui, pad, y, one, 1, &extra_c[i]) + pad * 0.5f;
        boids_ui_set_scale(v->ui, s);
    }
    boids_ui_set_scale(v->ui, scale);
}

/* A swatch of the legend: one colour, or a ramp from c0 to c1. */
typedef struct legend_item {
    boids_rgba c0, c1;
    const char *text;
    bool ramp;
} legend_item;

/* The heading colour of direction d (the shaders' heading_color: each of three axes mixed into
 * red, green and blue about a mid grey) as a swatch named `name`. */
static legend_item heading_item(const float d[3], const char *name)
{
    float c[3];
    for (int i = 0; i < 3; ++i) c[i] = (float)BOIDS_HEADING_MID + (float)BOIDS_HEADING_AMP * d[i];
    return (legend_item){rgb(c), rgb(c), name, false};
}

/* The heading mode's swatches: a flat world's eight screen directions (N up; world y points
 * down), a 3D world's six axes (boids3d.vert: x, -y (up), z to red, green, blue). */
static int heading_items(int dims, legend_item items[10])
{
    if (dims == 3) {
        static const char *const names[6] = {"+x", "-x", "up", "down", "+z", "-z"};
        static const float dirs[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                         {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
        for (int k = 0; k < 6; ++k) items[k] = heading_item(dirs[k], names[k]);
        return 6;
    }
    static const char *const names[8] = {"E", "NE", "N", "NW", "W", "SW", "S", "SE"};
    for (int k = 0; k < 8; ++k) {
        float a = 0.78539816f * (float)k, dx = cosf(a), dy = -sinf(a);
        const float c[3] = {dx, -0.5f * dx + 0.8660254f * dy, -0.5f * dx - 0.8660254f * dy};
        items[k] = heading_item(c, names[k]);
    }
    return 8;
}

/* The swatches of the current colour mode (label: room for a ramp's text); returns how many. */
static int legend_items(const viewer *v, const boids_world_info *info, legend_item items[10],
                        char label[64])
{
    static const float swarm[BOIDS_SWARM_COLORS][3] = {
        {BOIDS_RGB_SWARM_0}, {BOIDS_RGB_SWARM_1}, {BOIDS_RGB_SWARM_2}, {BOIDS_RGB_SWARM_3},
        {BOIDS_RGB_SWARM_4}, {BOIDS_RGB_SWARM_5}, {BOIDS_RGB_SWARM_6}, {BOIDS_RGB_SWARM_7}};
    static const float slow[3] = {BOIDS_RGB_SLOW}, fast[3] = {BOIDS_RGB_FAST},
                       young[3] = {BOIDS_RGB_YOUNG}, middle[3] = {BOIDS_RGB_MIDDLE},
                       old[3] = {BOIDS_RGB_OLD}, predator[3] = {BOIDS_RGB_PREDATOR};
    int n = 0;
    switch (v->style.color_mode) {
    case BOIDS_COLOR_HEADING: n = heading_items(info->dims, items); break;
    case BOIDS_COLOR_SPEED:
        snprintf(label, 64, "%.4g .. %.4g %s", (double)info->params.base.min_speed,
                 (double)info->params.base.max_speed,
                 boids_model_time_base(info->model) == BOIDS_TIME_PER_SECOND ? "px/s" : "px/frame");
        items[n++] = (legend_item){rgb(slow), rgb(fast), label, true};
        break;
    case BOIDS_COLOR_AGE:
        items[n++] = (legend_item){rgb(young), rgb(middle), "young", true};
        items[n++] = (legend_item){rgb(middle), rgb(old), "0.5 .. old", true};
        break;
    default:
        for (uint32_t k = 0; k < info->swarms && k < BOIDS_SWARM_COLORS; ++k) {
            static const char *const digits[8] = {"0", "1", "2", "3", "4", "5", "6", "7"};
            items[n++] = (legend_item){rgb(swarm[k]), rgb(swarm[k]), digits[k], false};
        }
        if (info->swarms > BOIDS_SWARM_COLORS) items[n - 1].text = "7 (then again)";
        break;
    }
    if (info->predators)
        items[n++] = (legend_item){rgb(predator), rgb(predator), "predator", false};
    return n;
}

/* The colour legend of the current mode, at the bottom left; returns its top. */
static float draw_legend(viewer *v, float room)
{
    boids_world_info info;
    boids_world_get_info(v->s.world, &info);
    float scale = boids_ui_get_scale(v->ui);
    /* a legend is at most about 34 characters wide */
    boids_ui_set_scale(
        v->ui,
        fit_scale(v->ui, boids_ui_text_width(v->ui, "colour: heading (C changes) 00000000"), room));
    float lh = boids_ui_line_height(v->ui), pad = lh * 0.4f, sw = lh * 0.8f;
    float h = 2 * lh + 1.5f * pad, top = (float)v->fb_h - pad - h, x0 = pad + pad,
          y1 = top + pad * 0.5f + lh;
    char title[96];
    snprintf(title, sizeof title, "colour: %s (C changes)",
             boids_overlay_color_name(v->style.color_mode));
    float w = boids_ui_text_width(v->ui, title) + 2 * pad;
    /* the second line: swatches and their labels, measured first for the box */
    float x = x0;
    float items_w = 0;
    char label[64];
    legend_item items[10];
    int n = legend_items(v, &info, items, label);
    for (int k = 0; k < n; ++k)
        items_w += (items[k].ramp ? 4 * sw : sw) + pad * 0.5f +
                   boids_ui_text_width(v->ui, items[k].text) + pad;
    w = fmaxf(w, items_w + 2 * pad);
    boids_ui_rect(v->ui, pad, top, w, h, hud_bg);
    boids_ui_text(v->ui, x0, top + pad * 0.5f, title, hud_c);
    for (int k = 0; k < n; ++k) {
        const legend_item *it = &items[k];
        if (it->ramp) {
            const float a[3] = {it->c0.r / 255.f, it->c0.g / 255.f, it->c0.b / 255.f};
            const float b[3] = {it->c1.r / 255.f, it->c1.g / 255.f, it->c1.b / 255.f};
            for (int i = 0; i < 16; ++i)
                boids_ui_rect(v->ui, x + 4 * sw * (float)i / 16, y1 + lh * 0.1f, 4 * sw / 16 + 0.5f,
                              sw, mix(a, b, (i + 0.5f) / 16));
            x += 4 * sw;
        } else {
            boids_ui_rect(v->ui, x, y1 + lh * 0.1f, sw, sw, it->c0);
            x += sw;
        }
        x += pad * 0.5f;
        x += boids_ui_text(v->ui, x, y1, it->text, hud_dim) + pad;
    }
    boids_ui_set_scale(v->ui, scale);
    return top;
}

/* The live plot (G) above the legend: polarization (0..1) and the mean nearest-neighbour distance
 * (0..its largest sample) over the last PLOT_SAMPLES samples. */
static void draw_plot(viewer *v, float room, float bottom)
{
    float scale = boids_ui_get_scale(v->ui);
    float lh = boids_ui_line_height(v->ui), pad = lh * 0.4f;
    float w = fminf(room - 2 * pad, lh * 18), h = lh * 6;
    if (w < lh * 4) return;
    float x = pad, y = bottom - pad * 0.5f - h;
    boids_ui_rect(v->ui, x, y, w, h, hud_bg);
    float nn_max = 0;
    for (int i = 0; i < v->plot_count; ++i) nn_max = fmaxf(nn_max, v->plot_nn[i]);
    const int n = v->plot_count;
    const float last_pol = n ? v->plot_pol[(v->plot_head + PLOT_SAMPLES - 1) % PLOT_SAMPLES] : 0;
    const float last_nn = n ? v->plot_nn[(v->plot_head + PLOT_SAMPLES - 1) % PLOT_SAMPLES] : 0;
    char a[96], b[96];
    snprintf(a, sizeof a, "polarization %.3f", (double)last_pol);
    snprintf(b, sizeof b, "nearest neighbour %.1f px (top %.1f)", (double)last_nn, (double)nn_max);
    boids_ui_set_scale(v->ui, fit_scale(v->ui, boids_ui_text_width(v->ui, b) + 2 * pad, w));
    float tl = boids_ui_line_height(v->ui);
    boids_ui_text(v->ui, x + pad, y + pad * 0.5f, a, plot_pol_c);
    boids_ui_text(v->ui, x + pad, y + pad * 0.5f + tl, b, plot_nn_c);
    boids_ui_set_scale(v->ui, scale);
    float gx = x + pad, gy = y + 2 * tl + pad, gw = w - 2 * pad, gh = h - (gy - y) - pad;
    boids_ui_rect(v->ui, gx, gy + gh, gw, 1, hud_dim);
    if (n < 2) {
        boids_ui_text(v->ui, gx, gy, n ? "collecting..." : "paused: no samples yet", hud_dim);
        return;
    }
    for (int i = 1; i < n; ++i) {
        int k0 = (v->plot_head - n + i - 1 + 2 * PLOT_SAMPLES) % PLOT_SAMPLES,
            k1 = (k0 + 1) % PLOT_SAMPLES;
        float x0 = gx + gw * (float)(i - 1) / (PLOT_SAMPLES - 1),
              x1 = gx + gw * (float)i / (PLOT_SAMPLES - 1);
        boids_ui_line(v->ui, x0, gy + gh * (1 - v->plot_pol[k0]), x1,
                      gy + gh * (1 - v->plot_pol[k1]), 2, plot_pol_c);
        if (nn_max > 0)
            boids_ui_line(v->ui, x0, gy + gh * (1 - v->plot_nn[k0] / nn_max), x1,
                          gy + gh * (1 - v->plot_nn[k1] / nn_max), 2, plot_nn_c);
    }
}

/* The mouse tool's reach: the force field's radius, or the obstacle a click would place. */
static void draw_tool(viewer *v)
{
    float r = 0;
    boids_rgba c = {255, 255, 255, 150};
    if (v->tool_kind == TOOL_ATTRACT || v->tool_kind == TOOL_REPEL) {
        r = (float)v->fb_h / 6.0f; /* as set_tool's reach */
        c = v->tool_kind == TOOL_ATTRACT ? (boids_rgba){120, 255, 150, 160}
                                         : (boids_rgba){255, 140, 120, 160};
        if (v->tool_down) c.a = 255;
    } else if (v->tool_kind == TOOL_OBSTACLE) {
        boids_world_info info;
        boids_world_get_info(v->s.world, &info);
        r = fmaxf(info.params.obstacles.max_obstacle_size * boids_camera_scale(&v->cam),
                  (float)v->fb_h / 100.0f); /* as obstacle_click's (a 3D view's: at its target) */
    }
    if (r > 0)
        boids_ui_circle(v->ui, (float)v->mouse_x, (float)v->mouse_y, r, 2.0f * v->ui_scale, c);
}

/* The help: the rows of viewer_keys.h, a label and what it does, in two columns of rows (the
 * font is not monospaced, so each column's labels are measured). */
static const boids_viewer_key_text help_rows[] = {BOIDS_VIEWER_KEYS(BOIDS_VIEWER_KEY_TEXT)};
#define HELP_ROWS ((int)(sizeof help_rows / sizeof help_rows[0]))
#define HELP_LINES ((HELP_ROWS + 1) / 2)
#define HELP_CLOSE "H, F1 or Esc closes this help."

/* Where the help's four columns start (label and help of the left rows, then of the right
 * ones) at the current scale; returns the whole width. */
static float help_columns(boids_ui *ui, float x[4])
{
    float w[4] = {0, 0, 0, 0}, gap = boids_ui_line_height(ui);
    for (int i = 0; i < HELP_ROWS; ++i) {
        const int side = i < HELP_LINES ? 0 : 2;
        w[side] = fmaxf(w[side], boids_ui_text_width(ui, help_rows[i].label));
        w[side + 1] = fmaxf(w[side + 1], boids_ui_text_width(ui, help_rows[i].help));
    }
    x[0] = 0;
    x[1] = w[0] + gap;
    x[2] = x[1] + w[1] + 2 * gap;
    x[3] = x[2] + w[2] + gap;
    return fmaxf(x[3] + w[3], boids_ui_text_width(ui, HELP_CLOSE));
}

static void draw_help(viewer *v, float room)
{
    const int lines = HELP_LINES + 2;
    float col[4], scale = boids_ui_get_scale(v->ui);
    float widest = help_columns(v->ui, col), lh = boids_ui_line_height(v->ui), pad = lh * 0.6f;
    float s = fit_scale(v->ui, widest + 4 * pad, room);
    float sh =
        scale *
        fminf(1.0f, fmaxf(0.25f, ((float)v->fb_h - 2 * pad) / (lh * (float)lines + 2 * pad)));
    boids_ui_set_scale(v->ui, fminf(s, sh));
    widest = help_columns(v->ui, col);
    lh = boids_ui_line_height(v->ui);
    pad = lh * 0.6f;
    float h = lh * (float)lines + 2 * pad, x = (room - widest) * 0.5f - pad,
          y = ((float)v->fb_h - h) * 0.5f;
    if (x < 0) x = 0;
    /* opaque: nothing shows through */
    boids_ui_rect(v->ui, x, y, widest + 2 * pad, h, (boids_rgba){10, 12, 16, 255});
    for (int i = 0; i < HELP_ROWS; ++i) {
        const int side = i < HELP_LINES ? 0 : 2, line = i < HELP_LINES ? i : i - HELP_LINES;
        const float ty = y + pad + lh * (float)line;
        boids_ui_text(v->ui, x + pad + col[side], ty, help_rows[i].label, key_c);
        boids_ui_text(v->ui, x + pad + col[side + 1], ty, help_rows[i].help, hud_c);
    }
    boids_ui_text(v->ui, x + pad, y + pad + lh * (float)(HELP_LINES + 1), HELP_CLOSE, hud_warn);
    boids_ui_set_scale(v->ui, scale);
}

void boids_overlay_draw(viewer *v)
{
    boids_ui_begin(v->ui, (float)v->fb_w, (float)v->fb_h, v->ui_scale);
    float pad = boids_ui_line_height(v->ui) * 0.4f;
    boids_panel_draw(&v->panel, v->ui, v->s.world, (float)v->fb_w, (float)v->fb_h, pad);
    /* the room left of the panel */
    float room = v->panel.visible && v->panel.rows > 0 ? v->panel.x - pad : (float)v->fb_w - pad;
    draw_tool(v);
    draw_hud(v, room);
    float legend_top = draw_legend(v, room - pad);
    if (v->show_plot) draw_plot(v, room, legend_top);
    if (v->show_help) draw_help(v, room);
}
