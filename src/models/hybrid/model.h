/* The hybrid model: Adams' separation with Reynolds' alignment and cohesion, one clamp on the
 * sum.
 *
 * This folder is the model: its manifest rows and parameter blocks (here), its rules
 * (rules.h, one text for the CPU and the GPU), and its oracle (oracle.c, the
 * tests' float64 step). src/models/list.h names the folder; docs/writing-a-model.md says what each
 * part is. */
#ifndef BOIDS_MODELS_HYBRID_MODEL_H
#define BOIDS_MODELS_HYBRID_MODEL_H

/* The manifest rows (src/core/manifest.h gives the columns). */
#define BOIDS_MODELS_HYBRID(M)                                                                     \
    M(HYBRID, "hybrid", PER_SECOND, BOIDS_BLOCK_BIT(HYBRID), hybrid, 0, 0, UNIFORM,                \
      "obstacle_radius=60 obstacle_factor=720", "",                                                \
      "Adams' separation, Reynolds' alignment and cohesion, one clamp on the sum", "")

/* Its parameter blocks, in the order of boids_params (src/core/manifest.h: X(ID, field,
 * rows)). */
#define BOIDS_BLOCKS_HYBRID(X) X(HYBRID, hybrid, BOIDS_PARAMS_HYBRID)

/* The hybrid model: docs/models.md (hybrid) (the "new" defaults). */
#define BOIDS_PARAMS_HYBRID(P, B, F)                                                               \
    P(B, F, max_force, REAL, "px/T^2", 0, 1e7f, 1000, 0.5f, 0, 180,                                \
      "F_max, the total force is truncated to it")                                                 \
    P(B, F, sep_radius, REAL, "px", 0, 1e4f, 200, 200, BOIDS_PARAM_RADIUS, 12,                     \
      "r_p: separation sums raw offsets inside it (every swarm)")                                  \
    P(B, F, align_radius, REAL, "px", 0, 1e4f, 200, 200, BOIDS_PARAM_GROUP_RADIUS, 50,             \
      "r_v for alignment (same swarm only)")                                                       \
    P(B, F, cohesion_radius, REAL, "px", 0, 1e4f, 200, 200, BOIDS_PARAM_RADIUS, 50,                \
      "r_v for cohesion (same swarm only)")                                                        \
    P(B, F, sep_weight, REAL, "1/T^2", -1e3f, 1e3f, 5, 5, 0, 1.5f, "w_sep, on the raw offsets")    \
    P(B, F, align_weight, REAL, "1/T", -1e3f, 1e3f, 5, 5, 0, 1,                                    \
      "w_ali, on (desired - v), unclamped")                                                        \
    P(B, F, cohesion_weight, REAL, "1/T", -1e3f, 1e3f, 5, 5, 0, 1,                                 \
      "w_coh, on (desired - v), unclamped")

#endif
