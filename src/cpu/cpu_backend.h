/* Internal access to the CPU backend for tests. */
#ifndef BOIDS_CPU_BACKEND_H
#define BOIDS_CPU_BACKEND_H

#include "cpu/steer.h"

/* The grid of the last step of a CPU world (NULL for a GPU world or brute-force search). */
const boids_cpu_grid *boids_cpu_backend_grid(const boids_world *w);

#endif
