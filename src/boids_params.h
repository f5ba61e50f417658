/* boids_params.h: every model parameter, declared once (part of the public API, included by
 * boids.h).
 *
 * Parameters come in blocks: `base` (speed limits and edges, which every model has) and one block
 * per family of rules. A model has the base block and the blocks its manifest line names
 * (boids_models.h). Each row below is the whole declaration of one parameter:
 *
 *   P(B, F, field, type, unit, min, max, slider_s, slider_f, flags, default, description)
 *
 *   B, F         the block's ID and field, passed through (so one list generates every table)
 *   field        the struct member and the name users type (--set, scenario files, the panel)
 *   type         REAL (a float) or COUNT (a whole number of things: a uint32_t, `uint` in GLSL;
 *                read and set by name as a float like the others)
 *   unit         "T" stands for the model's time unit: s for per-second models, frame for
 *                frame-based ones ("px/T^2" reads px/s^2 or px/frame^2)
 *   min, max     the valid range, inclusive
 *   slider_s/_f  the top of the viewer's slider for per-second / frame-based models
 *   flags        BOIDS_PARAM_RADIUS (the grid's cells are at least as large),
 *                BOIDS_PARAM_OBSTACLE_RADIUS (the same, where the world has obstacles),
 *                BOIDS_PARAM_GROUP_RADIUS (the model's alignment radius, which also links
 *                boids into groups for the metrics: one per model),
 *                BOIDS_PARAM_ZONE (the width of one of nested zones: the widths of a
 *                model's zones add up to an interaction radius, and to its group radius
 *                where the group flag is on one of them),
 *                BOIDS_PARAM_INTEGER (a count or a 0/1 switch), BOIDS_PARAM_SWITCH (0/1),
 *                BOIDS_PARAM_EDGES (takes wrap|bounded|processing too)
 *   default      the value of the block's source paper (cited in the description); a model's
 *                manifest line overrides some of them with its own paper's table
 *
 * From these rows come the C structs below, the GLSL structs of the shaders (generated at build
 * time by cmake/glsl_gen.c), the --set / scenario / panel tables (src/core/params.c), --help and
 * the layout test, so nothing is declared twice. Every block struct is padded to whole vec4s
 * (std140), which the union with `_std140` does without hand-written padding. */
#ifndef BOIDS_PARAMS_H
#define BOIDS_PARAMS_H

/* A parameter's flags: one bit each, */
#define BOIDS_PARAM_RADIUS                                                                         \
    (1u << 0) /* an interaction radius: the grid's cells are at least as large */
#define BOIDS_PARAM_INTEGER (1u << 1)     /* a whole number (a count) */
#define BOIDS_PARAM_BINARY (1u << 2)      /* 0 or 1 */
#define BOIDS_PARAM_NAMED_EDGES (1u << 3) /* also by name: wrap, bounded, processing */
/* a reach around obstacles: an interaction radius where the world has obstacles */
#define BOIDS_PARAM_OBSTACLE_RADIUS (1u << 4)
/* boids within it of each other are in one group (the metrics) */
#define BOIDS_PARAM_GROUPS (1u << 5)
/* a count (type COUNT): stored as a uint32_t, a whole number like BOIDS_PARAM_INTEGER */
#define BOIDS_PARAM_COUNT (1u << 6)
/* the width of one of nested zones (Couzin's): the zones' widths add up to an interaction radius */
#define BOIDS_PARAM_ZONE (1u << 7)
/* and the combinations the rows use */
#define BOIDS_PARAM_SWITCH (BOIDS_PARAM_INTEGER | BOIDS_PARAM_BINARY)     /* 0 or 1 */
#define BOIDS_PARAM_EDGES (BOIDS_PARAM_INTEGER | BOIDS_PARAM_NAMED_EDGES) /* BOIDS_EDGES_* */
/* the alignment radius: an interaction radius, and the groups' */
#define BOIDS_PARAM_GROUP_RADIUS (BOIDS_PARAM_RADIUS | BOIDS_PARAM_GROUPS)

/* Every model: speed limits and the world's edges. Defaults: docs/models.md (shiffman-per-second)
 */
#define BOIDS_PARAMS_BASE(P, B, F)                                                                 \
    P(B, F, max_speed, REAL, "px/T", 0, 1e6f, 600, 20, 0, 180, "v_max, maximum speed")             \
    P(B, F, min_speed, REAL, "px/T", 0, 1e6f, 600, 20, 0, 54,                                      \
      "v_min, slower boids are sped up to it, along their heading (must be <= max_speed)")         \
    P(B, F, edges, REAL, "", 0, 2, 2, 2, BOIDS_PARAM_EDGES, 0,                                     \
      "0 wrap (a torus), 1 bounded (a box boids may leave), 2 processing (borders()); names work") \
    P(B, F, border_r, REAL, "px", 0, 1e4f, 20, 20, 0, 0,                                           \
      "r of Processing's borders(): a boid past -r reappears at size + r (edges = processing)")

/* Reynolds steering, as Shiffman writes it: docs/models.md (shiffman-per-second) (the Nature of
 * Code values scaled to seconds at 60 fps); the frame-based variants override them with §2's
 * tables. */
#define BOIDS_PARAMS_REYNOLDS(P, B, F)                                                             \
    P(B, F, max_force, REAL, "px/T^2", 0, 1e7f, 1000, 0.5f, 0, 180,                                \
      "f_max, each behaviour's steering force is truncated to it")                                 \
    P(B, F, sep_radius, REAL, "px", 0, 1e4f, 200, 200, BOIDS_PARAM_RADIUS, 25,                     \
      "r_sep (desiredseparation), separation radius: counts every swarm")                          \
    P(B, F, align_radius, REAL, "px", 0, 1e4f, 200, 200, BOIDS_PARAM_GROUP_RADIUS, 50,             \
      "r_ali (neighbordist), alignment radius: same swarm only")                                   \
    P(B, F, cohesion_radius, REAL, "px", 0, 1e4f, 200, 200, BOIDS_PARAM_RADIUS, 50,                \
      "r_coh (neighbordist), cohesion radius: same swarm only")                                    \
    P(B, F, sep_weight, REAL, "", -1e3f, 1e3f, 5, 5, 0, 1.5f, "w_sep, separation weight")          \
    P(B, F, align_weight, REAL, "", -1e3f, 1e3f, 5, 5, 0, 1, "w_ali, alignment weight")            \
    P(B, F, cohesion_weight, REAL, "", -1e3f, 1e3f, 5, 5, 0, 1, "w_coh, cohesion weight")

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

/* Priority and mean allocation: docs/models.md (priority, mean) gives no values; these are ours
 * (README). */
#define BOIDS_PARAMS_ALLOCATION(P, B, F)                                                           \
    P(B, F, max_accel, REAL, "px/T^2", 0, 1e7f, 1000, 0.5f, 0, 180, "the maximum acceleration")    \
    P(B, F, sep_radius, REAL, "px", 0, 1e4f, 200, 200, BOIDS_PARAM_RADIUS, 25,                     \
      "the difference radius of vector 3")                                                         \
    P(B, F, neighbor_radius, REAL, "px", 0, 1e4f, 200, 200, BOIDS_PARAM_GROUP_RADIUS, 50,          \
      "the local neighbourhood of vectors 1 and 2")                                                \
    P(B, F, sep_weight, REAL, "px^2/T^2", -1e7f, 1e7f, 10000, 10000, 0, 2000,                      \
      "weight of vector 3, sum of (p - p_j)/d^2 (priority 1)")                                     \
    P(B, F, align_weight, REAL, "1/T", -1e3f, 1e3f, 10, 10, 0, 2,                                  \
      "weight of vector 2, mean velocity - v (priority 2)")                                        \
    P(B, F, cohesion_weight, REAL, "1/T^2", -1e3f, 1e3f, 10, 10, 0, 1,                             \
      "weight of vector 1, mean position - p (priority 3)")                                        \
    P(B, F, mean_set_length, REAL, "", 0, 1, 1, 1, BOIDS_PARAM_SWITCH, 0,                          \
      "mean allocation: 1 sets the sum's length to max_accel, 0 only truncates to it")

/* Every model: obstacles, circles in the world (per replica). Each pushes the boids within
 * obstacle_radius of its centre away along the unit vector from the centre, times
 * obstacle_factor, whatever its size: eq. 4 of docs/models.md (kit), whose table 1 and
 * 2 give the defaults (the other models' presets scale them to their own forces). Models with
 * BOIDS_FEATURE_OBSTACLE_RULE use them in their own rules instead (priority and mean: in their
 * third vector). */
#define BOIDS_PARAMS_OBSTACLES(P, B, F)                                                            \
    P(B, F, obstacles, COUNT, "", 0, 100000, 50, 50, BOIDS_PARAM_INTEGER, 0,                       \
      "random obstacles per world (replaced by explicit ones: --obstacle, a scenario's obstacle)") \
    P(B, F, max_obstacle_size, REAL, "px", 0, 1e5f, 200, 200, 0, 35,                               \
      "a random obstacle's radius is uniform in [0, max_obstacle_size] (the kit paper's table 1)") \
    P(B, F, obstacle_radius, REAL, "px", 0, 1e4f, 500, 500, BOIDS_PARAM_OBSTACLE_RADIUS, 250,      \
      "R_O: boids within it of an obstacle's centre are pushed away (the kit paper's table 2)")    \
    P(B, F, obstacle_factor, REAL, "force", 0, 1e7f, 1000, 5, 0, 200,                              \
      "c_oa, the push, in the model's force unit (px/s^2; px/frame^2; kit: px/s per step)")

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

/* The blocks: X(ID, field of boids_params, row list). base comes first; the order is the order of
 * the blocks in boids_params, in the GPU's uniform block and in --help. */
/* The example model's block, in a build with it (boids_models.h says how). */
#include "boids_models.h"
#define BOIDS_PARAM_BLOCK_LIST(X)                                                                  \
    X(BASE, base, BOIDS_PARAMS_BASE)                                                               \
    X(REYNOLDS, reynolds, BOIDS_PARAMS_REYNOLDS)                                                   \
    X(ADAMS, adams, BOIDS_PARAMS_ADAMS)                                                            \
    X(HYBRID, hybrid, BOIDS_PARAMS_HYBRID)                                                         \
    X(ALLOCATION, allocation, BOIDS_PARAMS_ALLOCATION)                                             \
    X(OBSTACLES, obstacles, BOIDS_PARAMS_OBSTACLES)                                                \
    X(KIT, kit, BOIDS_PARAMS_KIT)                                                                  \
    X(PREDATORS, predators, BOIDS_PARAMS_PREDATORS)                                                \
    X(VICSEK, vicsek, BOIDS_PARAMS_VICSEK)                                                         \
    X(COUZIN, couzin, BOIDS_PARAMS_COUZIN)                                                         \
    BOIDS_EXAMPLE_PARAM_BLOCKS(X)

typedef enum boids_param_block {
#define BOIDS_X_BLOCK_ENUM(ID, field, rows) BOIDS_BLOCK_##ID,
    BOIDS_PARAM_BLOCK_LIST(BOIDS_X_BLOCK_ENUM)
#undef BOIDS_X_BLOCK_ENUM
        BOIDS_BLOCK_COUNT
} boids_param_block;

#define BOIDS_BLOCK_BIT(ID) (1u << BOIDS_BLOCK_##ID)
/* The blocks every model has, whatever its manifest line says: speed limits, edges, obstacles. */
#define BOIDS_BLOCKS_EVERY_MODEL (BOIDS_BLOCK_BIT(BASE) | BOIDS_BLOCK_BIT(OBSTACLES))

/* One struct per block, its members in row order, padded to whole vec4s. */
#define BOIDS_PARAM_CTYPE_REAL float
#define BOIDS_PARAM_CTYPE_COUNT uint32_t
#define BOIDS_PARAM_TYPE_FLAGS_REAL 0u
#define BOIDS_PARAM_TYPE_FLAGS_COUNT BOIDS_PARAM_COUNT
#define BOIDS_X_PARAM_MEMBER(B, F, field, type, ...) BOIDS_PARAM_CTYPE_##type field;
#define BOIDS_X_PARAM_ONE(B, ...) +1
#define BOIDS_X_BLOCK_STRUCT(ID, field, rows)                                                      \
    typedef union boids_##field##_params {                                                         \
        struct {                                                                                   \
            rows(BOIDS_X_PARAM_MEMBER, ID, field)                                                  \
        };                                                                                         \
        float _std140[((0 rows(BOIDS_X_PARAM_ONE, ID, field)) + 3) / 4 * 4];                       \
    } boids_##field##_params;
BOIDS_PARAM_BLOCK_LIST(BOIDS_X_BLOCK_STRUCT)
#undef BOIDS_X_BLOCK_STRUCT

/* Every parameter of every block. A model reads only the blocks of its manifest line. Units are
 * the model's own: px, px/s and px/s^2 for per-second models, px, px/frame and px/frame^2 for
 * frame-based ones. Counts are whole numbers (uint32_t); switches and the edges are floats. */
typedef struct boids_params {
#define BOIDS_X_BLOCK_FIELD(ID, field, rows) boids_##field##_params field;
    BOIDS_PARAM_BLOCK_LIST(BOIDS_X_BLOCK_FIELD)
#undef BOIDS_X_BLOCK_FIELD
} boids_params;

#endif /* BOIDS_PARAMS_H */
