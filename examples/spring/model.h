/* The second example of docs/writing-a-model.md: a model with a per-pair rule and no walk of its
 * own. Each pair within r_s pulls or pushes along a linear spring about a preferred distance,
 * and a boid turns towards its own swarm's mean heading there: a pair force, which the Reynolds
 * walk's sums cannot give (they do not keep each pair's distance), so the folder writes what one
 * pair adds (spring_pair in rules.h) and each backend's pair walk runs it.
 *
 * Loaded at run time (boids --model-dir examples/spring) or copied to src/models/ and named in
 * src/models/list.h, it is the same model (tests/test_model_load.sh). */
#ifndef BOIDS_EXAMPLE_SPRING_MODEL_H
#define BOIDS_EXAMPLE_SPRING_MODEL_H

/* The manifest row (src/core/manifest.h gives the columns): per second, its own block, the pair
 * walk (BOIDS_FEATURE_OWN_WALK | BOIDS_FEATURE_PAIR_RULE: no walk of its own), a uniform
 * start. */
#define BOIDS_MODELS_SPRING(M)                                                                     \
    M(SPRING, "spring", PER_SECOND, BOIDS_BLOCK_BIT(SPRING), spring, 0,                            \
      BOIDS_FEATURE_OWN_WALK | BOIDS_FEATURE_PAIR_RULE | BOIDS_FEATURE_NEAREST, UNIFORM,           \
      "max_speed=150", "",                                                                         \
      "example model: a linear spring between each pair within r_s, and alignment", "")

/* Its parameter block: its own force limit (the Reynolds block's max_force is not among the
 * model's parameters, since the row names no block but its own): a model's parameters are its
 * blocks' rows and those of the shared blocks its row names (here none but the base and the
 * obstacles, which every model has; the preset sets the base's max_speed). */
#define BOIDS_PARAMS_SPRING(P, B, F)                                                               \
    P(B, F, radius, REAL, "px", 0, 1e4f, 200, 200, BOIDS_PARAM_GROUP_RADIUS, 40,                   \
      "r_s: the pairs within it pull or push, and align")                                          \
    P(B, F, rest, REAL, "px", 0, 1e4f, 100, 100, 0, 20,                                            \
      "r_e, the spring's rest length: it pushes closer pairs apart and pulls farther ones in")     \
    P(B, F, stiffness, REAL, "1/T^2", 0, 1e6f, 20, 1, 0, 2,                                        \
      "k: a pair at distance r adds k (r - r_e) along the unit vector towards the other")          \
    P(B, F, align, REAL, "1/T", 0, 1e4f, 10, 1, 0, 2,                                              \
      "w_a: the turn towards the mean velocity of its own swarm within r_s, per unit of time")     \
    P(B, F, force_limit, REAL, "px/T^2", 0, 1e7f, 2000, 5, 0, 600,                                 \
      "F_max: the summed force is truncated to it")
#define BOIDS_BLOCKS_SPRING(X) X(SPRING, spring, BOIDS_PARAMS_SPRING)

#endif
