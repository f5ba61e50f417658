/* Couzin et al. 2002: zones of repulsion, orientation and attraction, a blind volume, a limited
 * turn. Its neighbours count by zone, so it has a pair rule (couzin_pair in rules.h: what one
 * neighbour adds), which the pair walk of each backend runs (rules/common.h).
 *
 * This folder is the model: its manifest rows and parameter blocks (here), its rules and pair
 * rule (rules.h, one text for the CPU and the GPU), and its oracle
 * (oracle.c, the tests' float64 step). src/models/list.h names the folder; docs/writing-a-model.md
 * says what each part is. */
#ifndef BOIDS_MODELS_COUZIN_MODEL_H
#define BOIDS_MODELS_COUZIN_MODEL_H

/* The manifest rows (src/core/manifest.h gives the columns). */
#define BOIDS_MODELS_COUZIN(M)                                                                     \
    M(COUZIN, "couzin", PER_SECOND, BOIDS_BLOCK_BIT(COUZIN), couzin, 0,                            \
      BOIDS_FEATURE_OWN_WALK | BOIDS_FEATURE_NEAREST | BOIDS_FEATURE_PAIR_RULE, CENTRE,            \
      "max_speed=3 min_speed=3 obstacle_radius=5 max_obstacle_size=2 obstacle_factor=30",          \
      "boids=100 world=100x100x100 dt=0.1 steps=3000",                                             \
      "Couzin et al. 2002: zones of repulsion, orientation, attraction; blind behind",             \
      "scenarios/couzin-school.ini")

/* Its parameter blocks, in the order of boids_params (src/core/manifest.h: X(ID, field,
 * rows)). */
#define BOIDS_BLOCKS_COUZIN(X) X(COUZIN, couzin, BOIDS_PARAMS_COUZIN)

/* Couzin, Krause, James, Ruxton & Franks 2002: docs/models.md (couzin). Per second, at constant
 * speed s = max_speed (the preset's 3, and min_speed too); three nested zones around each
 * individual (repulsion within r_r, orientation out to r_r + delta r_o, attraction out to
 * r_r + delta r_o + delta r_a), a blind volume behind, a turn of at most theta tau a step and
 * a Gaussian angular noise. */
#define BOIDS_PARAMS_COUZIN(P, B, F)                                                               \
    P(B, F, repulsion_radius, REAL, "px", 0, 1e4f, 10, 10, BOIDS_PARAM_ZONE, 1,                    \
      "r_r, the zone of repulsion: away from everyone within it, nothing else counts")             \
    P(B, F, orientation_width, REAL, "px", 0, 1e4f, 20, 20, BOIDS_PARAM_ZONE, 2,                   \
      "delta r_o, the zone of orientation's width beyond r_r: heads as they head")                 \
    P(B, F, attraction_width, REAL, "px", 0, 1e4f, 20, 20, BOIDS_PARAM_ZONE | BOIDS_PARAM_GROUPS,  \
      14, "delta r_a, the zone of attraction's width beyond the orientation's: towards them")      \
    P(B, F, perception, REAL, "deg", 0, 360, 360, 360, 0, 270,                                     \
      "alpha, the field of perception around the heading; the rest behind is blind")               \
    P(B, F, turning_rate, REAL, "deg/T", 0, 1e5f, 400, 40, 0, 40,                                  \
      "theta, the largest turn; a step turns at most theta tau (tau = dt)")                        \
    P(B, F, noise, REAL, "rad", 0, 10, 1, 1, 0, 0.05f,                                             \
      "sigma, the desired direction turned by a spherically wrapped Gaussian of that sd")          \
    P(B, F, own_heading, REAL, "", 0, 1, 1, 1, BOIDS_PARAM_SWITCH, 1,                              \
      "1: its own heading adds to the orientation sum (eq. 2's j from 1); 0: the others' only")    \
    P(B, F, blind_repulsion, REAL, "", 0, 1, 1, 1, BOIDS_PARAM_SWITCH, 1,                          \
      "1: the blind volume hides from the repulsion too; 0: repulsion from all around")

#endif
