#include "app/viewer/panel.h"

#include <math.h>
#include <stdio.h>

#include "base/error.h"

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

/* How a row is shown and changed: a slider, an on/off switch, or a choice among names (edges). */
typedef enum { ROW_SLIDER, ROW_SWITCH, ROW_CHOICE } row_kind;
static const char *const edge_names[] = {"wrap", "bounded", "processing"};
#define EDGE_CHOICES 3

static row_kind kind_of(const boids_param_info *info)
{
    if (info->flags & BOIDS_PARAM_NAMED_EDGES) return ROW_CHOICE;
    if (info->flags & BOIDS_PARAM_BINARY) return ROW_SWITCH;
    return ROW_SLIDER;
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
    const boids_param_info *row = &pi[p->selected];
    float now = value_of(&info.params, row);
    if (kind_of(row) == ROW_SWITCH)
        return set_row(s, p->selected, now != 0 ? 0.0f : 1.0f); /* toggles */
    if (kind_of(row) == ROW_CHOICE)                             /* cycles */
        return set_row(s, p->selected,
                       (float)(((int)now + direction + EDGE_CHOICES) % EDGE_CHOICES));
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
    if ((size_t)p->dragging >= n || kind_of(&pi[p->dragging]) != ROW_SLIDER) return;
    float lo, hi;
    slider_range(&pi[p->dragging], &lo, &hi);
    float t = (x - p->bar_x) / p->bar_w;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    set_row(s, p->dragging,
            lo + t * (hi - lo)); /* a rejected value (min > max) just does nothing */
}

bool boids_panel_press(boids_panel *p, boids_session *s, float x, float y)
{
    if (!boids_panel_hit(p, x, y)) return false;
    int row = (int)floorf((y - p->y - p->row_h) / p->row_h);
    if (row >= 0 && row < p->rows) {
        row += p->first;
        p->selected = row;
        boids_world_info info;
        boids_world_get_info(s->world, &info);
        size_t n;
        const boids_param_info *pi = boids_model_params(info.model, &n);
        if ((size_t)row >= n || x < p->bar_x - 4 || x > p->bar_x + p->bar_w + 4) return true;
        if (kind_of(&pi[row]) == ROW_SWITCH) {
            boids_panel_nudge(p, s, 1, false);        /* a click toggles */
        } else if (kind_of(&pi[row]) == ROW_CHOICE) { /* a click picks the segment under it */
            int k = (int)floorf((x - p->bar_x) / p->bar_w * EDGE_CHOICES);
            set_row(s, row, (float)(k < 0 ? 0 : k >= EDGE_CHOICES ? EDGE_CHOICES - 1 : k));
        } else {
            p->dragging = row;
            boids_panel_drag(p, s, x);
        }
    }
    return true;
}

void boids_panel_release(boids_panel *p) { p->dragging = -1; }

void boids_panel_draw(boids_panel *p, boids_ui *ui, const boids_world *w, float fb_w, float fb_h,
                      float top)
{
    p->rows = 0;
    if (!p->visible) return;
    boids_world_info info;
    boids_world_get_info(w, &info);
    size_t n;
    const boids_param_info *pi = boids_model_params(info.model, &n);
    /* Shrink to fit the window's height, down to a size still legible; beyond that the rows
     * scroll, following the selected one (kit has 35 parameters). */
    float scale = boids_ui_get_scale(ui), room = fb_h - top * 2;
    float need = boids_ui_line_height(ui) * 1.9f * (float)(n + 1);
    if (need > room && need > 0) boids_ui_set_scale(ui, scale * fmaxf(0.7f, room / need));
    float lh = boids_ui_line_height(ui), pad = lh * 0.4f;
    p->row_h = lh * 1.9f;
    int fit = (int)floorf(room / p->row_h) - 1;
    int visible = fit < 1 ? 1 : fit < (int)n ? fit : (int)n;
    if (p->selected >= (int)n) p->selected = n ? (int)n - 1 : 0;
    if (p->selected < p->first) p->first = p->selected;
    if (p->selected >= p->first + visible) p->first = p->selected - visible + 1;
    if (p->first > (int)n - visible) p->first = (int)n - visible;
    if (p->first < 0) p->first = 0;
    p->w = lh * 15.0f;
    p->x = fb_w - p->w - pad;
    p->y = top;
    p->rows = visible;
    p->bar_x = p->x + pad;
    p->bar_w = p->w - 2.0f * pad;
    boids_ui_rect(ui, p->x, p->y, p->w, p->row_h * (float)(visible + 1), panel_bg);
    char title[128];
    if (visible < (int)n)
        snprintf(title, sizeof title, "%s [Tab] %d-%d of %zu (Up/Down)",
                 boids_model_name(info.model), p->first + 1, p->first + visible, n);
    else
        snprintf(title, sizeof title, "%s [Tab]", boids_model_name(info.model));
    boids_ui_text(ui, p->x + pad, p->y + pad, title, dim_c);
    for (size_t i = (size_t)p->first; i < (size_t)(p->first + visible); ++i) {
        float y = p->y + p->row_h * (float)(i - (size_t)p->first + 1);
        boids_rgba c = (int)i == p->selected ? sel_c : text_c;
        float v = value_of(&info.params, &pi[i]);
        char line[96];
        float by = y + lh * 1.15f, bh = lh * 0.45f;
        row_kind kind = kind_of(&pi[i]);
        if (kind == ROW_SWITCH) { /* the name, and a box that is filled when on */
            snprintf(line, sizeof line, "%s: %s", pi[i].name, v != 0 ? "on" : "off");
            boids_ui_text(ui, p->x + pad, y + lh * 0.1f, line, c);
            float box = lh * 0.8f, bx = p->bar_x + p->bar_w - box;
            boids_ui_rect(ui, bx, y + lh * 0.1f, box, box, bar_bg);
            if (v != 0)
                boids_ui_rect(ui, bx + box * 0.2f, y + lh * 0.1f + box * 0.2f, box * 0.6f,
                              box * 0.6f, (int)i == p->selected ? sel_c : bar_fg);
            continue;
        }
        if (kind == ROW_CHOICE) { /* the name, and one segment per choice, the chosen one lit */
            snprintf(line, sizeof line, "%s: %s", pi[i].name, edge_names[(int)v % EDGE_CHOICES]);
            boids_ui_text(ui, p->x + pad, y + lh * 0.1f, line, c);
            float segment = p->bar_w / EDGE_CHOICES;
            float scale = boids_ui_get_scale(ui);
            boids_ui_set_scale(ui, scale * 0.6f);
            for (int k = 0; k < EDGE_CHOICES; ++k) {
                bool on = (int)v == k;
                boids_ui_rect(ui, p->bar_x + segment * (float)k + 1, by - bh * 0.5f, segment - 2,
                              bh * 1.6f, on ? ((int)i == p->selected ? sel_c : bar_fg) : bar_bg);
                boids_ui_text(ui, p->bar_x + segment * (float)k + 3, by - bh * 0.4f, edge_names[k],
                              on ? (boids_rgba){10, 12, 16, 255} : dim_c);
            }
            boids_ui_set_scale(ui, scale);
            continue;
        }
        snprintf(line, sizeof line, "%s %.4g %s", pi[i].name, (double)v, pi[i].unit);
        boids_ui_text(ui, p->x + pad, y + lh * 0.1f, line, c);
        float lo, hi;
        slider_range(&pi[i], &lo, &hi);
        float t = hi > lo ? (v - lo) / (hi - lo) : 0;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        boids_ui_rect(ui, p->bar_x, by, p->bar_w, bh, bar_bg);
        boids_ui_rect(ui, p->bar_x, by, p->bar_w * t, bh, (int)i == p->selected ? sel_c : bar_fg);
    }
    boids_ui_set_scale(ui, scale);
}
