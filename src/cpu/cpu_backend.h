/* The CPU reference backend, and its internals for tests. */
#ifndef BOIDS_CPU_BACKEND_H
#define BOIDS_CPU_BACKEND_H

#include "core/backend.h"
#include "cpu/loaded.h"
#include "cpu/grid.h"

boids_status boids_cpu_backend_create(const boids_sim *sim, const boids_backend_ops **ops,
                                      void **impl, const char **renderer, const char **device,
                                      int *threads);

/* A loaded model's rules, flat and 3D (world/model_load.c, before the model is visible). */
void boids_cpu_add_rules(boids_model model, boids_cpu_rules_fn flat, boids_cpu_rules_fn three);

#endif
