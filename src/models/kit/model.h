/* Bruschke & Golks' model: view cones, predators that hunt and catch, individuality by age. What
 * one flockmate and one predator add is its pair rule (rules.h); the GPU runs it on the shared
 * pair walk, the CPU on lane groups of its own (walk.c: BOIDS_FEATURE_LANE_WALK).
 *
 * This folder is the model: its manifest rows and parameter blocks (here), its rules
 * (rules.h, one text for the CPU and the GPU), its CPU walk (walk.c), and its oracle
 * (oracle.c, the tests' float64 step). src/models/list.h names the folder; docs/writing-a-model.md
 * says what each part is. */
#ifndef BOIDS_MODELS_KIT_MODEL_H
#define BOIDS_MODELS_KIT_MODEL_H

/* The manifest rows (src/core/manifest.h gives the columns). */
#define BOIDS_MODELS_KIT(M)                                                                        \
    M(KIT, "kit", PER_SECOND, BOIDS_BLOCK_BIT(KIT) | BOIDS_BLOCK_BIT(PREDATORS), kit,              \
      BOIDS_ATTR_BIT(AGE) | BOIDS_ATTR_BIT(ALIVE),                                                 \
      BOIDS_FEATURE_PREDATORS | BOIDS_FEATURE_OWN_WALK | BOIDS_FEATURE_PAIR_RULE |                 \
          BOIDS_FEATURE_LANE_WALK,                                                                 \
      CENTRE, "max_speed=150 min_speed=25 obstacles=4",                                            \
      "boids=35 world=4000x4000 dt=0.08 steps=3000",                                               \
      "Bruschke & Golks: view cones, predators that catch, individuality by age",                  \
      "scenarios/kit-flock.ini")

/* Its parameter blocks, in the order of boids_params (src/core/manifest.h: X(ID, field,
 * rows)). */
#define BOIDS_BLOCKS_KIT(X)                                                                        \
    X(KIT, kit, BOIDS_PARAMS_KIT)                                                                  \
    X(PREDATORS, predators, BOIDS_PARAMS_PREDATORS)

/* The kit model: docs/models.md (kit), table 2 (boids) and table 3 (predators); its
 * velocities are px/s, its forces velocity changes per step (v += F, no dt: eq. 10). */
#define BOIDS_PARAMS_KIT(P, B, F)                                                                  \
    P(B, F, view_radius, REAL, "px", 0, 1e5f, 2000, 2000, BOIDS_PARAM_GROUP_RADIUS, 950,           \
      "R, the view field's radius (at age 0.5; eq. 7 shrinks it for the young and old)")           \
    P(B, F, view_angle, REAL, "deg", 0, 180, 180, 180, 0, 110,                                     \
      "alpha, the view field's half-angle from the heading (110: a 220-degree cone; eq. 8)")       \
    P(B, F, sep_radius, REAL, "px", 0, 1e5f, 200, 200, BOIDS_PARAM_RADIUS, 45,                     \
      "R_S: separation from every boid within it, seen or not (eq. 3)")                            \
    P(B, F, predator_radius, REAL, "px", 0, 1e5f, 1000, 1000, BOIDS_PARAM_RADIUS, 300,             \
      "R_P: boids flee the predators within it (eq. 6)")                                           \
    P(B, F, cohesion_factor, REAL, "1/step", -1e3f, 1e3f, 2, 2, 0, 0.5f, "c_c, cohesion (eq. 1)")  \
    P(B, F, alignment_factor, REAL, "1/step", -1e3f, 1e3f, 0.5f, 0.5f, 0, 0.045f,                  \
      "c_a, alignment (eq. 2)")                                                                    \
    P(B, F, separation_factor, REAL, "px/s/step", -1e5f, 1e5f, 100, 100, 0, 10,                    \
      "c_s, separation (eq. 3)")                                                                   \
    P(B, F, predator_factor, REAL, "px/s/step", -1e5f, 1e5f, 2000, 2000, 0, 500,                   \
      "c_pa, fleeing (eq. 6)")                                                                     \
    P(B, F, c_view_radius, REAL, "px", 0, 1e5f, 400, 400, 0, 20,                                   \
      "c_r,view: view radius lost at age 0 or 1, times 4 (eq. 7: R - c (age - 0.5)^2)")            \
    P(B, F, c_view_angle, REAL, "deg", 0, 720, 400, 400, 0, 20,                                    \
      "c_alpha,view: view angle lost, the same way (eq. 8)")                                       \
    P(B, F, c_maxspeed, REAL, "px/s", 0, 1e6f, 400, 400, 0, 50,                                    \
      "c_maxspeed: max speed lost, the same way (eq. 9)")

#define BOIDS_PARAMS_PREDATORS(P, B, F)                                                            \
    P(B, F, predators, COUNT, "", 0, 100000, 100, 100, BOIDS_PARAM_INTEGER, 3,                     \
      "random predators per world (replaced by --predators FILE)")                                 \
    P(B, F, pred_view_radius, REAL, "px", 0, 1e5f, 2000, 2000, BOIDS_PARAM_RADIUS, 1000,           \
      "a predator's view radius: it attacks the nearest boid it sees (eq. 5)")                     \
    P(B, F, pred_view_angle, REAL, "deg", 0, 180, 180, 180, 0, 110,                                \
      "a predator's view half-angle")                                                              \
    P(B, F, pred_sep_radius, REAL, "px", 0, 1e5f, 200, 200, BOIDS_PARAM_RADIUS, 45,                \
      "predators keep apart from the predators within it")                                         \
    P(B, F, pred_obstacle_radius, REAL, "px", 0, 1e5f, 500, 500, BOIDS_PARAM_OBSTACLE_RADIUS, 250, \
      "a predator's R_O")                                                                          \
    P(B, F, pred_max_speed, REAL, "px/s", 0, 1e6f, 400, 400, 0, 158, "a predator's v_max")         \
    P(B, F, pred_min_speed, REAL, "px/s", 0, 1e6f, 400, 400, 0, 55, "a predator's v_min")          \
    P(B, F, pred_sep_factor, REAL, "px/s/step", -1e5f, 1e5f, 200, 200, 0, 30, "a predator's c_pa") \
    P(B, F, pred_obstacle_factor, REAL, "px/s/step", 0, 1e7f, 1000, 1000, 0, 200,                  \
      "a predator's c_oa")                                                                         \
    P(B, F, attack_factor, REAL, "px/s/step", -1e5f, 1e5f, 500, 500, 0, 100,                       \
      "c_at, the attack (eq. 5)")                                                                  \
    P(B, F, boid_size, REAL, "px", 0, 1e4f, 50, 50, 0, 10,                                         \
      "a boid's size: caught within boid_size + predator_size")                                    \
    P(B, F, predator_size, REAL, "px", 0, 1e4f, 50, 50, 0, 10, "a predator's size")                \
    P(B, F, stop_after_catches, COUNT, "catches", 0, 1e9f, 20, 20, BOIDS_PARAM_INTEGER, 4,         \
      "a world (a replica) stops after that many catches; 0: never (table 1's max caught boids)")

#endif
