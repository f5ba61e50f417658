/* Vicsek et al. 1995: constant speed, the mean heading within r, a random turn.
 *
 * This folder is the model: its manifest rows and parameter blocks (here), its rules
 * (rules.h, one text for the CPU and the GPU), and its oracle (oracle.c, the
 * tests' float64 step). src/models/list.h names the folder; docs/writing-a-model.md says what each
 * part is. */
#ifndef BOIDS_MODELS_VICSEK_MODEL_H
#define BOIDS_MODELS_VICSEK_MODEL_H

/* The manifest rows (src/core/manifest.h gives the columns). */
#define BOIDS_MODELS_VICSEK(M)                                                                     \
    M(VICSEK, "vicsek", PER_FRAME, BOIDS_BLOCK_BIT(VICSEK), vicsek, 0, 0, UNIFORM,                 \
      "max_speed=0.03 min_speed=0.03 obstacle_radius=3 max_obstacle_size=1.5 "                     \
      "obstacle_factor=0.03",                                                                      \
      "boids=4000 world=31.6x31.6 dt=1 steps=2000",                                                \
      "Vicsek et al. 1995: constant speed, the mean heading within r, a random turn",              \
      "scenarios/vicsek-flock.ini")

/* Its parameter blocks, in the order of boids_params (src/core/manifest.h: X(ID, field,
 * rows)). */
#define BOIDS_BLOCKS_VICSEK(X) X(VICSEK, vicsek, BOIDS_PARAMS_VICSEK)

/* Vicsek et al. 1995: docs/models.md (vicsek). Frame-based (dt = 1): every particle moves at v =
 * max_speed (the preset's 0.03, and min_speed too, so the particles start at v) and takes the
 * mean heading within r, itself included, turned by a random noise. */
#define BOIDS_PARAMS_VICSEK(P, B, F)                                                               \
    P(B, F, radius, REAL, "px", 0, 1e4f, 5, 5, BOIDS_PARAM_GROUP_RADIUS, 1,                        \
      "r: a particle heads the mean way of the particles within r, itself included")               \
    P(B, F, eta, REAL, "", 0, 1e3f, 6.3f, 6.3f, 0, 2,                                              \
      "eta, the noise: angular, a turn uniform in [-eta/2, eta/2] radians (max 2 pi; 3D: 2 eta "   \
      "sr; ordered below ~3 at rho = 4); vectorial, eta n_i times a random unit vector (ordered "  \
      "below ~0.65)")                                                                              \
    P(B, F, vectorial, REAL, "", 0, 1, 1, 1, BOIDS_PARAM_SWITCH, 0,                                \
      "0: the paper's angular noise; 1: vectorial noise added to the sum of the n_i headings "     \
      "(Gregoire & Chate 2004)")

#endif
