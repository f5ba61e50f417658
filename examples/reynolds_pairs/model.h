/* shiffman-per-second's rules with its sums gathered by the pair walk instead of the Reynolds
 * walk: the same model, bit for bit (tests/test_model_load.sh holds it so on both backends), and
 * the measure of what the Reynolds walk's lane groups are worth (docs/bench.md: the pair walk,
 * which walks one boid at a time, is several times slower on the CPU). A folder to load at run
 * time: boids --model-dir examples/reynolds_pairs --model reynolds-pairs. */
#ifndef BOIDS_EXAMPLE_REYNOLDS_PAIRS_MODEL_H
#define BOIDS_EXAMPLE_REYNOLDS_PAIRS_MODEL_H

/* The manifest row (core/manifest.h gives the columns): shiffman-per-second's, but for the walk
 * (BOIDS_FEATURE_OWN_WALK | BOIDS_FEATURE_PAIR_RULE). Metric neighbours only: in a world of
 * nearest:K the Reynolds walk and the pair walk choose their nearest differently. */
#define BOIDS_MODELS_REYNOLDS_PAIRS(M)                                                             \
    M(REYNOLDS_PAIRS, "reynolds-pairs", PER_SECOND, BOIDS_BLOCK_BIT(REYNOLDS), reynolds_pairs, 0,  \
      BOIDS_FEATURE_OWN_WALK | BOIDS_FEATURE_PAIR_RULE, UNIFORM,                                   \
      "obstacle_radius=60 obstacle_factor=720", "",                                                \
      "example: shiffman-per-second's sums on the pair walk (the same bits, slower)", "")

#endif
