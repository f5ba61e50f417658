/* PLplot, as the program's figures use it (experiments, the benchmark): a PNG through the cairo
 * device, with one palette: colour 0 background, 1 ink, 2 grid, 3 and on the series. The PNG is
 * written under a temporary name and renamed into place when finished, as every output. PLplot
 * itself is loaded by boids_plot_begin (app/plplot.h), so the pl* calls work once it succeeded. */
#ifndef BOIDS_APP_PLOT_H
#define BOIDS_APP_PLOT_H

#include "boids.h"
#include "app/plplot.h"
#include "base/output_file.h"

/* Series colours: 3 to 3 + BOIDS_PLOT_SERIES - 1; more series than that share them. */
#define BOIDS_PLOT_SERIES 10

/* BOIDS_OK where figures can be drawn; else BOIDS_E_FILE_WRITE saying what to install (PLplot,
 * or its pngcairo device). A program without them still writes its tables: figures are what a
 * headless server may lack, and the callers say so and go on (the tables make them later). */
boids_status boids_plot_available(void);
/* Starts a width x height PNG for path with nx x ny panels; BOIDS_E_FILE_WRITE saying what to
 * install where PLplot, or its pngcairo device, is missing. */
boids_status boids_plot_begin(boids_output_file *o, const char *path, int width, int height, int nx,
                              int ny);
/* Finishes it (plend) and renames it into place. */
boids_status boids_plot_end(boids_output_file *o);
/* Draws from now on in palette colour `colour` at opacity alpha (0 clear, 1 opaque). */
void boids_plot_colour(int colour, double alpha);

#endif
