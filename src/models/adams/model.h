/* Adams' simple boids (Cornell ECE 5730): raw sums onto the velocity, margins, and scout groups
 * with a bias.
 *
 * This folder is the model: its manifest rows and parameter blocks (here), its rules
 * (rules.h, one text for the CPU and the GPU), and its oracle (oracle.c, the
 * tests' float64 step). src/models/list.h names the folder; docs/writing-a-model.md says what each
 * part is. */
#ifndef BOIDS_MODELS_ADAMS_MODEL_H
#define BOIDS_MODELS_ADAMS_MODEL_H

/* The manifest rows (src/core/manifest.h gives the columns). */
#define BOIDS_MODELS_ADAMS(M)                                                                      \
    M(ADAMS, "adams", PER_FRAME, BOIDS_BLOCK_BIT(ADAMS), adams, BOIDS_ATTR_BIT(BIAS), 0, UNIFORM,  \
      "max_speed=6 min_speed=3 edges=bounded obstacle_radius=60 obstacle_factor=0.8", "",          \
      "Adams' simple boids: raw sums onto v, margins, scout groups with a bias", "")

/* Its parameter blocks, in the order of boids_params (src/core/manifest.h: X(ID, field,
 * rows)). */
#define BOIDS_BLOCKS_ADAMS(X) X(ADAMS, adams, BOIDS_PARAMS_ADAMS)

/* Adams' simple boids: docs/models.md (adams), "Recommended parameter values"; frame-based. */
#define BOIDS_PARAMS_ADAMS(P, B, F)                                                                \
    P(B, F, protected_range, REAL, "px", 0, 1e4f, 50, 50, BOIDS_PARAM_RADIUS, 8,                   \
      "protectedRange: separation sums raw offsets inside it")                                     \
    P(B, F, visual_range, REAL, "px", 0, 1e4f, 200, 200, BOIDS_PARAM_GROUP_RADIUS, 40,             \
      "visualRange: alignment and cohesion average inside it")                                     \
    P(B, F, avoid_factor, REAL, "", -1e3f, 1e3f, 0.5f, 0.5f, 0, 0.05f, "avoidfactor")              \
    P(B, F, matching_factor, REAL, "", -1e3f, 1e3f, 0.5f, 0.5f, 0, 0.05f, "matchingfactor")        \
    P(B, F, centering_factor, REAL, "", -1e3f, 1e3f, 0.01f, 0.01f, 0, 0.0005f, "centeringfactor")  \
    P(B, F, turn_factor, REAL, "px/T^2", -1e3f, 1e3f, 2, 2, 0, 0.2f,                               \
      "turnfactor, applied past a margin")                                                         \
    P(B, F, margin, REAL, "px", 0, 1e6f, 400, 400, 0, 100,                                         \
      "distance of the margins from the edges")                                                    \
    P(B, F, include_protected, REAL, "", 0, 1, 1, 1, BOIDS_PARAM_SWITCH, 0,                        \
      "1: boids in the protected range also count in the visual averages (the formal version of "  \
      "the rules); "                                                                               \
      "0: else-if, as the pseudocode")                                                             \
    P(B, F, scout1_count, COUNT, "boids", 0, 16776960, 1000, 1000, BOIDS_PARAM_INTEGER, 0,         \
      "scout group 1 (ids from 0), biased to the right")                                           \
    P(B, F, scout2_count, COUNT, "boids", 0, 16776960, 1000, 1000, BOIDS_PARAM_INTEGER, 0,         \
      "scout group 2 (the next ids), biased to the left")                                          \
    P(B, F, bias, REAL, "", 0, 1, 0.05f, 0.05f, 0, 0.001f,                                         \
      "biasval: static, or where the dynamic one starts")                                          \
    P(B, F, max_bias, REAL, "", 0, 1, 0.05f, 0.05f, 0, 0.01f, "maxbias of the dynamic bias")       \
    P(B, F, bias_increment, REAL, "", 0, 1, 0.001f, 0.001f, 0, 0.00004f,                           \
      "bias_increment of the dynamic bias")                                                        \
    P(B, F, dynamic_bias, REAL, "", 0, 1, 1, 1, BOIDS_PARAM_SWITCH, 0,                             \
      "1: each scout's bias grows while it heads its way (ECE 5730)")

#endif
