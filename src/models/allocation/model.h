/* Reynolds 1987's acceleration allocation: priority (the sums in order of priority within a
 * maximum acceleration) and mean (their weighted sum set to it).
 *
 * This folder is the model: its manifest rows and parameter blocks (here), its rules
 * (rules.h, one text for the CPU and the GPU), and its oracle (oracle.c, the
 * tests' float64 step). src/models/list.h names the folder; docs/writing-a-model.md says what each
 * part is. */
#ifndef BOIDS_MODELS_ALLOCATION_MODEL_H
#define BOIDS_MODELS_ALLOCATION_MODEL_H

/* The manifest rows (src/core/manifest.h gives the columns). */
#define BOIDS_MODELS_ALLOCATION(M)                                                                 \
    M(PRIORITY, "priority", PER_SECOND, BOIDS_BLOCK_BIT(ALLOCATION), allocation, 0,                \
      BOIDS_FEATURE_OBSTACLE_RULE, UNIFORM,                                                        \
      "min_speed=90 obstacle_radius=60 obstacle_factor=2000", "",                                  \
      "Reynolds 1987 priority allocation of a maximum acceleration", "")                           \
    M(MEAN, "mean", PER_SECOND, BOIDS_BLOCK_BIT(ALLOCATION), allocation, 0,                        \
      BOIDS_FEATURE_OBSTACLE_RULE, UNIFORM,                                                        \
      "min_speed=90 obstacle_radius=60 obstacle_factor=2000", "",                                  \
      "Reynolds 1987 mean allocation: the weighted sum set to a maximum acceleration", "")

/* Its parameter blocks, in the order of boids_params (src/core/manifest.h: X(ID, field,
 * rows)). */
#define BOIDS_BLOCKS_ALLOCATION(X) X(ALLOCATION, allocation, BOIDS_PARAMS_ALLOCATION)

/* Priority and mean allocation: docs/models.md (priority, mean) gives no values; these are ours
 * (README). */
#define BOIDS_PARAMS_ALLOCATION(P, B, F)                                                           \
    P(B, F, max_accel, REAL, "px/T^2", 0, 1e7f, 1000, 0.5f, 0, 180, "the maximum acceleration")    \
    P(B, F, sep_radius, REAL, "px", 0, 1e4f, 200, 200, BOIDS_PARAM_RADIUS, 25,                     \
      "the difference radius of vector 3")                                                         \
    P(B, F, neighbor_radius, REAL, "px", 0, 1e4f, 200, 200, BOIDS_PARAM_GROUP_RADIUS, 50,          \
      "the local neighbourhood of vectors 1 and 2")                                                \
    P(B, F, sep_weight, REAL, "px^2/T^2", -1e7f, 1e7f, 10000, 10000, 0, 2000,                      \
      "weight of vector 3, sum of (p - p_j)/d^2 (priority 1)")                                     \
    P(B, F, align_weight, REAL, "1/T", -1e3f, 1e3f, 10, 10, 0, 2,                                  \
      "weight of vector 2, mean velocity - v (priority 2)")                                        \
    P(B, F, cohesion_weight, REAL, "1/T^2", -1e3f, 1e3f, 10, 10, 0, 1,                             \
      "weight of vector 1, mean position - p (priority 3)")                                        \
    P(B, F, mean_set_length, REAL, "", 0, 1, 1, 1, BOIDS_PARAM_SWITCH, 0,                          \
      "mean allocation: 1 sets the sum's length to max_accel, 0 only truncates to it")

#endif
