/* The example model of docs/writing-a-model.md: Reynolds' three sums with a linear drag.
 *
 * A model is a folder: loaded at run time (boids --model-dir examples/drag), or copied to
 * src/models/drag/ and named in src/models/list.h (one line), it is one model more, on both
 * backends, the same either way (tests/test_example_model.sh builds it in, from a copy of the
 * source tree, and loads it, so the guide's quotes from here cannot go stale). */
#ifndef BOIDS_MODELS_DRAG_MODEL_H
#define BOIDS_MODELS_DRAG_MODEL_H

/* The manifest row (src/core/manifest.h gives the columns). */
#define BOIDS_MODELS_DRAG(M)                                                                       \
    M(DRAG, "drag", PER_SECOND, BOIDS_BLOCK_BIT(REYNOLDS) | BOIDS_BLOCK_BIT(DRAG), drag, 0, 0,     \
      UNIFORM, "sep_radius=20 max_force=400", "",                                                  \
      "example model: Reynolds' sums, and a drag that takes c_d v per unit of time", "")

/* Its parameter block: one row, and the block in the list of its blocks (the shared Reynolds
 * block, which it also uses, is not its own). */
#define BOIDS_PARAMS_DRAG(P, B, F)                                                                 \
    P(B, F, drag, REAL, "1/T", 0, 100, 5, 0.5f, 0, 0.5f,                                           \
      "c_d, the share of its velocity a boid loses per unit of time")
#define BOIDS_BLOCKS_DRAG(X) X(DRAG, drag, BOIDS_PARAMS_DRAG)

#endif
