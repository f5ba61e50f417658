/* boids_models.h: what a model may have (part of the public API, included by boids.h). The
 * models themselves are a registry the library fills, built-in ones first, then those loaded at
 * run time (boids_model_load): a program lists them (boids_model_count, boids_model_name) and
 * looks them up by name (boids_model_from_name). A model's id is valid within the process that
 * got it; its name is what stays. */
#ifndef BOIDS_MODELS_H
#define BOIDS_MODELS_H

/* Features a model may have (the features column). */
/* predators that hunt and catch: the predator state, catch events, dead boids, stop_after_catches
 */
#define BOIDS_FEATURE_PREDATORS 1u
/* the rules treat obstacles themselves (the external-force hook leaves its generic push out) */
#define BOIDS_FEATURE_OBSTACLE_RULE 2u
/* the rules walk the neighbours their own way instead of taking the Reynolds walk's sums */
#define BOIDS_FEATURE_OWN_WALK 4u
/* an own walk that reads the world's nearest:K (boids_world_def.nearest); a model on the
 * Reynolds walk reads it there */
#define BOIDS_FEATURE_NEAREST 8u
/* an own walk that is the shared pair walk (rules/common.h, "the pair walk"): the model's rules.h
 * says what one pair adds to its sums (<rules>_pair), and has no walk of its own */
#define BOIDS_FEATURE_PAIR_RULE 16u
/* a pair rule whose sums the CPU gathers on lane groups of the folder's own (walk.c: several
 * boids of a cell row at once, each candidate's pair rule on all of them; kit's, measured faster
 * than the CPU's pair walk), the same bits; the GPU runs the pair walk */
#define BOIDS_FEATURE_LANE_WALK 32u

#endif /* BOIDS_MODELS_H */
