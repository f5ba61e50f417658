/* PLplot, as the program's figures use it (experiments, the benchmark): a PNG through the cairo
 * device, with one palette: colour 0 background, 1 ink, 2 grid, 3 and on the series. */
#ifndef BOIDS_APP_PLOT_H
#define BOIDS_APP_PLOT_H

#include "boids.h"

/* Starts a width x height PNG at path with nx x ny panels (plend() finishes it);
 * BOIDS_E_FILE_WRITE saying what to install where PLplot has no pngcairo device. */
boids_status boids_plot_begin(const char *path, int width, int height, int nx, int ny);

#endif
