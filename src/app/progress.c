#include "app/progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "base/clock.h"

const char *boids_duration_text(double s, char *buf, int size)
{
    if (s < 0) s = 0;
    if (s < 60)
        snprintf(buf, (size_t)size, "%.0f s", s);
    else if (s < 3600)
        snprintf(buf, (size_t)size, "%d min %d s", (int)(s / 60), (int)s % 60);
    else
        snprintf(buf, (size_t)size, "%d h %d min", (int)(s / 3600), (int)s % 3600 / 60);
    return buf;
}

void boids_progress_start(boids_progress *p, uint64_t total, const char *unit)
{
    memset(p, 0, sizeof *p);
    p->tty = isatty(STDERR_FILENO) != 0;
    p->t0 = p->last = boids_clock_seconds();
    p->total = total;
    p->unit = unit;
}

void boids_progress_update(boids_progress *p, uint64_t done)
{
    if (!p->tty) return;
    const double now = boids_clock_seconds(), el = now - p->t0;
    if (el < 1.0 || now - p->last < 0.25) return;
    p->last = now;
    char left[64] = "", spent[32];
    if (p->total && done && done < p->total) {
        char t[32];
        snprintf(left, sizeof left, ", about %s left",
                 boids_duration_text(el / (double)done * (double)(p->total - done), t, sizeof t));
    }
    fprintf(stderr, "\r  %llu", (unsigned long long)done);
    if (p->total) fprintf(stderr, "/%llu", (unsigned long long)p->total);
    fprintf(stderr, " %s, %.3g %s/s, %s elapsed%s%s%s\033[K", p->unit, (double)done / el, p->unit,
            boids_duration_text(el, spent, sizeof spent), left, p->note[0] ? ", " : "", p->note);
    fflush(stderr);
    p->shown = true;
}

void boids_progress_end(boids_progress *p)
{
    if (!p->shown) return;
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
    p->shown = false;
}
