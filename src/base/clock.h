/* The monotonic clock: for timing work, never for results. */
#ifndef BOIDS_BASE_CLOCK_H
#define BOIDS_BASE_CLOCK_H

/* Seconds since some fixed point in the past. */
double boids_clock_seconds(void);

#endif
