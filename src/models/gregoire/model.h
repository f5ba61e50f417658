/* Gregoire & Chate 2004: Vicsek's constant-speed particles with vectorial noise, and a pair force
 * that holds them together: a hard core, a spring about r_e, a constant pull out to r_0. The
 * force depends on each pair's distance, which the Reynolds walk's sums do not keep, so it has a
 * pair rule (gregoire_pair in rules.h), which the pair walk of each backend runs (rules/common.h).
 *
 * This folder is the model: its manifest row and parameter block (here), its rules and pair rule
 * (rules.h, one text for the CPU and the GPU), and its oracle (oracle.c, the
 * tests' float64 step). src/models/list.h names the folder; docs/writing-a-model.md says what each
 * part is. */
#ifndef BOIDS_MODELS_GREGOIRE_MODEL_H
#define BOIDS_MODELS_GREGOIRE_MODEL_H

/* The manifest row (src/core/manifest.h gives the columns). */
#define BOIDS_MODELS_GREGOIRE(M)                                                                   \
    M(GREGOIRE, "gregoire-chate", PER_FRAME, BOIDS_BLOCK_BIT(GREGOIRE), gregoire, 0,               \
      BOIDS_FEATURE_OWN_WALK | BOIDS_FEATURE_NEAREST | BOIDS_FEATURE_PAIR_RULE, CENTRE,            \
      "max_speed=0.05 min_speed=0.05 obstacle_radius=3 max_obstacle_size=1.5 "                     \
      "obstacle_factor=0.05",                                                                      \
      "boids=256 world=32x32 dt=1 steps=3000",                                                     \
      "Gregoire & Chate 2004: vectorial-noise Vicsek particles bound by a pair force",             \
      "scenarios/gregoire-chate-flock.ini")

/* Its parameter blocks, in the order of boids_params (src/core/manifest.h: X(ID, field,
 * rows)). */
#define BOIDS_BLOCKS_GREGOIRE(X) X(GREGOIRE, gregoire, BOIDS_PARAMS_GREGOIRE)

/* Gregoire & Chate 2004 (Phys. Rev. Lett. 92, 025702): docs/models.md (gregoire-chate).
 * Frame-based (dt = 1): every particle moves at v_0 = max_speed (the preset's 0.05, and
 * min_speed too) along v_0 Theta[alpha sum v_j / v_0 + beta sum f_ij e_ij + eta n_i xi_i] over
 * its neighbours within r_0, itself included in the alignment. The lengths are the paper's
 * units (the program calls them px). */
#define BOIDS_PARAMS_GREGOIRE(P, B, F)                                                             \
    P(B, F, radius, REAL, "px", 0, 1e4f, 5, 5, BOIDS_PARAM_GROUP_RADIUS, 1,                        \
      "r_0: the neighbours are the particles within r_0 (with nearest:K, the K nearest)")          \
    P(B, F, core_radius, REAL, "px", 0, 1e4f, 5, 5, BOIDS_PARAM_RADIUS, 0.2f,                      \
      "r_c, the hard core: a particle within it of another only flees it (f = -infinity)")         \
    P(B, F, equilibrium, REAL, "px", 0, 1e4f, 5, 5, 0, 0.5f,                                       \
      "r_e, the preferred distance: f < 0 (repulsion) below it, f > 0 (attraction) above")         \
    P(B, F, attraction_radius, REAL, "px", 0, 1e4f, 5, 5, 0, 0.8f,                                 \
      "r_a: f = (r - r_e) / 4 (r_a - r_e) from r_c to r_a, and f = 1 from r_a to r_0")             \
    P(B, F, alpha, REAL, "", 0, 1e3f, 10, 10, 0, 3,                                                \
      "alpha, the alignment's weight: the sum of the neighbours' headings, its own included")      \
    P(B, F, beta, REAL, "", 0, 1e3f, 10, 10, 0, 1,                                                 \
      "beta, the pair force's weight: the sum of f_ij times the unit vector towards j")            \
    P(B, F, eta, REAL, "", 0, 1e3f, 2, 2, 0, 0.3f,                                                 \
      "eta, the vectorial noise: eta n_i times a random unit vector, n_i the neighbours, "         \
      "itself included")

#endif
