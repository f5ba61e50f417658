/* The BOIDS_* environment variables (docs/reference.md, "The environment"), read strictly and in
 * one place: a bad value is refused naming the variable (BOIDS_E_ENVIRONMENT) wherever it is read,
 * and boids_environment_check reads every one, as the programs do at start whatever the backend
 * (a typo in a GPU setting once passed unseen where the run took the CPU). Unset or empty, a
 * variable is not set. */
#ifndef BOIDS_BASE_ENVIRONMENT_H
#define BOIDS_BASE_ENVIRONMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "boids.h"

/* The values of the variables that take a word, in the order boids_env_choice numbers them. */
extern const char *const boids_env_egl_platforms[]; /* BOIDS_EGL_PLATFORM: device, surfaceless */
extern const char *const boids_env_gpu_reads[];     /* BOIDS_GPU_READ: device, host */
extern const char *const boids_env_gpu_numerics[];  /* BOIDS_GPU_NUMERICS: native, perturbed */

/* The variable `name` as one of `choices` (NULL-terminated): *out its index, -1 where unset. */
boids_status boids_env_choice(const char *name, const char *const *choices, int *out);
/* The variable `name` as a whole number, digits only, at least `min`: *out, left as it is where
 * unset (*set false). */
boids_status boids_env_whole(const char *name, uint64_t min, uint64_t *out, bool *set);
/* Whether a 0-or-1 switch (BOIDS_GPU_CHECKS, BOIDS_GL_DEBUG) is 1; a bad value reads as 0 here,
 * and is refused by boids_environment_check. */
bool boids_env_switch(const char *name);
/* Every BOIDS_* variable's value, checked. */
boids_status boids_environment_check(void);

#endif
