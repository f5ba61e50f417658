/* The example model of docs/adding-a-model.md: Reynolds' three sums with a linear drag.
 *
 * A build configured with -DBOIDS_EXAMPLE_MODEL=ON includes this file from the two lists it
 * extends (src/boids_models.h, src/boids_params.h) and compiles its rules, rules/drag.h, for both
 * backends. The suite builds and checks it (tests/test_example_model.sh), so the guide's quotes
 * from here cannot go stale. A model of the simulator proper writes the same lines straight into
 * those lists and its rules into src/rules/. */
#ifndef BOIDS_EXAMPLE_DRAG_MODEL_H
#define BOIDS_EXAMPLE_DRAG_MODEL_H

/* The manifest line (a row of BOIDS_MODEL_LIST). */
#define BOIDS_EXAMPLE_MODELS(M)                                                                    \
    M(DRAG, "drag", PER_SECOND, BOIDS_BLOCK_BIT(REYNOLDS) | BOIDS_BLOCK_BIT(DRAG), drag, 0, 0,     \
      UNIFORM, "sep_radius=20 max_force=400", "",                                                  \
      "example model: Reynolds' sums, and a drag that takes c_d v per unit of time", "")

/* Its parameter block: one row, and the block in the list of blocks (BOIDS_PARAM_BLOCK_LIST). */
#define BOIDS_PARAMS_DRAG(P, B, F)                                                                 \
    P(B, F, drag, REAL, "1/T", 0, 100, 5, 0.5f, 0, 0.5f,                                           \
      "c_d, the share of its velocity a boid loses per unit of time")
#define BOIDS_EXAMPLE_PARAM_BLOCKS(X) X(DRAG, drag, BOIDS_PARAMS_DRAG)

#endif
