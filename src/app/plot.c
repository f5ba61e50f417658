/* PLplot, as the program's figures use it: a PNG through the cairo device and one palette
 * (plot.h). */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <string.h>

#include "app/plot.h"
#include "base/error.h"

static const int palette[][3] = {{255, 255, 255}, {30, 30, 35},    {200, 200, 205}, {31, 119, 180},
                                 {255, 127, 14},  {44, 160, 44},   {214, 39, 40},   {148, 103, 189},
                                 {140, 86, 75},   {227, 119, 194}, {127, 127, 127}, {188, 189, 34},
                                 {23, 190, 207}};
_Static_assert(sizeof palette / sizeof palette[0] == 3 + BOIDS_PLOT_SERIES, "a colour per series");

boids_status boids_plot_available(void)
{
    boids_status st = boids_plplot_load(); /* "a figure needs libplplot.so.17 ..." */
    if (st != BOIDS_OK) return st;
    static const char *menu[256], *dev[256];
    const char **m = menu, **d = dev;
    int n = 256;
    plgDevs(&m, &d, &n);
    bool cairo = false;
    for (int i = 0; i < n; ++i) cairo |= strcmp(d[i], "pngcairo") == 0;
    if (!cairo)
        return boids_fail(BOIDS_E_FILE_WRITE,
                          "PLplot has no pngcairo device (apt install plplot-driver-cairo)");
    return BOIDS_OK;
}

boids_status boids_plot_begin(boids_output_file *o, const char *path, int width, int height, int nx,
                              int ny)
{
    boids_status st = boids_plot_available();
    if (st != BOIDS_OK) return st;
    st = boids_output_reserve(o, path);
    if (st != BOIDS_OK) return st;
    plsdev("pngcairo");
    plsfnam(o->tmp);
    plspage(0, 0, width, height, 0, 0);
    plscmap0n((int)(sizeof palette / sizeof palette[0]));
    for (int i = 0; i < (int)(sizeof palette / sizeof palette[0]); ++i)
        plscol0(i, palette[i][0], palette[i][1], palette[i][2]);
    plssub(nx, ny);
    plinit();
    plfontld(1);
    return BOIDS_OK;
}

boids_status boids_plot_end(boids_output_file *o)
{
    plend();
    return boids_output_commit_named(o);
}

void boids_plot_colour(int colour, double alpha)
{
    plscol0a(colour, palette[colour][0], palette[colour][1], palette[colour][2], alpha);
    plcol0(colour);
}
