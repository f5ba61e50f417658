#include "app/panel.h"

#include <math.h>
#include <stdio.h>

#include "core/error.h"

static const boids_rgba panel_bg = {16, 19, 26, 215}, text_c = {220, 225, 235, 255},
                        dim_c = {140, 150, 165, 255}, sel_c = {255, 210, 90, 255},
                        bar_bg = {45, 52, 66, 255}, bar_fg = {90, 160, 255, 255};

void boids_panel_init(boids_panel *p)
{
    *p = (boids_panel){.visible = true, .selected = 0, .dragging = -1};
}

static float value_of(const boids_params *params, const boids_param_info *info)
{
    return *(const float *)((const char *)params + info->offset);
}

static void slider_range(const boids_param_info *info, float *lo, float *hi)
{
    *lo = info->min > 0.0f ? info->min : 0.0f;
    *hi = info->ui_max;
}

boids_status boids_panel_set(boids_session *s, const char *key, const char *value)
{
    return boids_session_set_param(s, key, value);
}

/* Sets row `row` to v through the text path (9 significant digits: the float exactly). */
static boids_status set_row(boids_session *s, int row, float v)
{
    boids_world_info info;
    boids_world_get_info(s->world, &info);
    size_t n;
    const boids_param_info *pi = boids_model_params(info.model, &n);
    if (row < 0 || (size_t)row >= n) return BOIDS_OK;
    if (v < pi[row].min) v = pi[row].min;
    if (v > pi[row].max) v = pi[row].max;
    char text[32];
    snprintf(text, sizeof text, "%.9g", (double)v);
    return boids_panel_set(s, pi[row].name, text);
}

boids_status boids_panel_nudge(boids_panel *p, boids_session *s, int direction, bool coarse)
{
    boids_world_info info;
    boids_world_get_info(s->world, &info);
    size_t n;
    const boids_param_info *pi = boids_model_params(info.model, &n);
    if (n == 0) return BOIDS_OK;
    if (p->selected >= (int)n) p->selected = (int)n - 1;
    float lo, hi;
    slider_range(&pi[p->selected], &lo, &hi);
    float step = (hi - lo) * (coarse ? 0.1f : 0.01f);
    float v = value_of(&info.params, &pi[p->selected]) + (float)direction * step;
    /* snap to the step grid, so repeated nudges land on round numbers */
    v = roundf(v / step) * step;
    return set_row(s, p->selected, v);
}

void boids_panel_select(boids_panel *p, boids_world *w, int delta)
{
    boids_world_info info;
    boids_world_get_info(w, &info);
    size_t n;
    boids_model_params(info.model, &n);
    if (n == 0) return;
    p->selected = (int)(((long)p->selected + delta + (long)n) % (long)n);
}

bool boids_panel_hit(const boids_panel *p, float x, float y)
{
    return p->visible && p->rows > 0 && x >= p->x && x <= p->x + p->w && y >= p->y &&
           y <= p->y + p->row_h * (float)(p->rows + 1);
}

void boids_panel_drag(boids_panel *p, boids_session *s, float x)
{
    if (p->dragging < 0) return;
    boids_world_info info;
    boids_world_get_info(s->world, &info);
    size_t n;
    const boids_param_info *pi = boids_model_params(info.model, &n);
    if ((size_t)p->dragging >= n) return;
    float lo, hi;
    slider_range(&pi[p->dragging], &lo, &hi);
    float t = (x - p->bar_x) / p->bar_w;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    set_row(s, p->dragging, lo + t * (hi - lo)); /* a rejected value (min > max) just does nothing */
}

bool boids_panel_press(boids_panel *p, boids_session *s, float x, float y)
{
    if (!boids_panel_hit(p, x, y)) return false;
    int row = (int)floorf((y - p->y - p->row_h) / p->row_h);
    if (row >= 0 && row < p->rows) {
        p->selected = row;
        if (x >= p->bar_x - 4 && x <= p->bar_x + p->bar_w + 4) {
            p->dragging = row;
            boids_panel_drag(p, s, x);
        }
    }
    return true;
}

void boids_panel_release(boids_panel *p) { p->dragging = -1; }

void boids_panel_draw(boids_panel *p, boids_ui *ui, const boids_world *w, float fb_w, float fb_h, float top)
{
    p->rows = 0;
    if (!p->visible) return;
    boids_world_info info;
    boids_world_get_info(w, &info);
    size_t n;
    const boids_param_info *pi = boids_model_params(info.model, &n);
    /* Shrink to fit the window's height (Adams has 17 parameters). */
    float scale = boids_ui_get_scale(ui), need = boids_ui_line_height(ui) * 1.9f * (float)(n + 1);
    if (need > fb_h - top && need > 0) boids_ui_set_scale(ui, scale * fmaxf(0.4f, (fb_h - top) / need));
    float lh = boids_ui_line_height(ui), pad = lh * 0.4f;
    p->row_h = lh * 1.9f;
    p->w = lh * 15.0f;
    p->x = fb_w - p->w - pad;
    p->y = top;
    p->rows = (int)n;
    p->bar_x = p->x + pad;
    p->bar_w = p->w - 2.0f * pad;
    boids_ui_rect(ui, p->x, p->y, p->w, p->row_h * (float)(n + 1), panel_bg);
    char title[96];
    snprintf(title, sizeof title, "%s [Tab]", boids_model_name(info.model));
    boids_ui_text(ui, p->x + pad, p->y + pad, title, dim_c);
    for (size_t i = 0; i < n; ++i) {
        float y = p->y + p->row_h * (float)(i + 1);
        boids_rgba c = (int)i == p->selected ? sel_c : text_c;
        float v = value_of(&info.params, &pi[i]);
        char line[96];
        snprintf(line, sizeof line, "%s %.4g %s", pi[i].name, (double)v, pi[i].unit);
        boids_ui_text(ui, p->x + pad, y + lh * 0.1f, line, c);
        float lo, hi;
        slider_range(&pi[i], &lo, &hi);
        float t = hi > lo ? (v - lo) / (hi - lo) : 0;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        float by = y + lh * 1.15f, bh = lh * 0.45f;
        boids_ui_rect(ui, p->bar_x, by, p->bar_w, bh, bar_bg);
        boids_ui_rect(ui, p->bar_x, by, p->bar_w * t, bh, (int)i == p->selected ? sel_c : bar_fg);
    }
    boids_ui_set_scale(ui, scale);
}
