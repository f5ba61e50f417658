/* Reynolds' steering as Shiffman writes it (Nature of Code, Processing's Flocking example):
 * three variants of one rule set, per second and frame by frame. Its parameters are the shared
 * Reynolds block (src/core/manifest.h), which other models (the guide's example) use too.
 *
 * This folder is the model: its manifest rows and parameter blocks (here), its rules
 * (rules.h, one text for the CPU and the GPU), and its oracle (oracle.c, the
 * tests' float64 step). src/models/list.h names the folder; docs/writing-a-model.md says what each
 * part is. */
#ifndef BOIDS_MODELS_SHIFFMAN_MODEL_H
#define BOIDS_MODELS_SHIFFMAN_MODEL_H

/* The manifest rows (src/core/manifest.h gives the columns). */
#define BOIDS_MODELS_SHIFFMAN(M)                                                                   \
    M(SHIFFMAN_PER_SECOND, "shiffman-per-second", PER_SECOND, BOIDS_BLOCK_BIT(REYNOLDS), shiffman, \
      0, 0, UNIFORM, "obstacle_radius=60 obstacle_factor=720", "",                                 \
      "Reynolds steering per second, each behaviour truncated to f_max (default)", "")             \
    M(SHIFFMAN_PROCESSING, "shiffman-processing", PER_FRAME, BOIDS_BLOCK_BIT(REYNOLDS), shiffman,  \
      0, 0, UNIFORM,                                                                               \
      "max_speed=2 max_force=0.03 min_speed=0 border_r=2 edges=processing obstacle_radius=60 "     \
      "obstacle_factor=0.12",                                                                      \
      "", "Processing's flocking example (table 2.6): the same rules, one frame a step", "")       \
    M(SHIFFMAN_NOC, "shiffman-noc", PER_FRAME, BOIDS_BLOCK_BIT(REYNOLDS), shiffman, 0, 0, UNIFORM, \
      "max_speed=3 max_force=0.05 min_speed=0 border_r=3 edges=processing obstacle_radius=60 "     \
      "obstacle_factor=0.2",                                                                       \
      "", "Nature of Code's flocking (table 2.7): the same rules, one frame a step", "")

/* Its parameter blocks, in the order of boids_params (src/core/manifest.h: X(ID, field,
 * rows)). */
#define BOIDS_BLOCKS_SHIFFMAN(X)

#endif
