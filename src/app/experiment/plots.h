/* An experiment's figures, drawn with PLplot from its finished tables. */
#ifndef BOIDS_APP_EXPERIMENT_PLOTS_H
#define BOIDS_APP_EXPERIMENT_PLOTS_H

#include "app/experiment/design.h"

/* The figures of a finished directory from its tables: ages.png (the histogram of caught ages,
 * 10 bins, one panel per combination) where catches have ages, metrics.png (the mean over the
 * runs against time with a band of one standard deviation, one line per combination) where
 * there is a metrics.csv. Prints the names of what it wrote. Where PLplot is not installed, says
 * so and draws nothing: BOIDS_OK, since the tables hold every result. */
boids_status boids_exp_plot(const char *dir, const boids_experiment *e);

#endif
