/* The head of a model's steering program: what makes the shared steering pass one model's. One
 * text for the programs cmake/glsl_gen.c writes at build time (the built-in models) and those
 * gpu/steer_source.c makes when a model is loaded (boids_model_load): BOIDS_THIS_MODEL, its
 * attributes and features, steer_common.glsl, its rules, then the walk its features name: the
 * pair walk (walk_pairs.glsl) with the model's pair rule, or the Reynolds walk
 * (steer_reynolds.glsl). `rules_include` is what the program's #include names for
 * the model's rules.h ("models/couzin/rules.h"; a loaded model's own path). Header-only: the
 * generator compiles without the library. */
#ifndef BOIDS_GPU_STEER_HEAD_H
#define BOIDS_GPU_STEER_HEAD_H

#include <stdio.h>

#include "boids_models.h"

/* Writes the program's text (after `prelude`, which follows the #version line) into out, as
 * snprintf does; returns its length. A model without predators sorts the boids it moves for the
 * next step (BOIDS_SORTS_NEXT_STEP: steer_common.glsl's sort_for_next_step) and declares no
 * predators' blocks (BOIDS_WITHOUT_PREDATORS: neighbors.glsl). */
static inline int boids_steer_head(char *out, size_t cap, const char *prelude, const char *name,
                                   const char *summary, unsigned id, unsigned attrs,
                                   unsigned features, const char *rules, const char *rules_include)
{
    const char *walk_fmt =
        (features & BOIDS_FEATURE_PAIR_RULE)
            ? "#define RULES_ZONES %1$s_zones\n#define RULES_ZONES_OF %1$s_zones_of\n"
              "#define RULES_REACH %1$s_reach\n#define RULES_PAIR %1$s_pair\n"
              "#define RULES_SUMS %1$s_sums\n#define RULES_SUMS_FIELDS %1$s_sums_fields\n"
              "#define RULES_STEER %1$s_steer\n#include \"walk_pairs.glsl\"\n"
            : "#define RULES_RADII %1$s_radii\n#define RULES_STEER %1$s_steer\n"
              "#include \"steer_reynolds.glsl\"\n";
    int n = snprintf(out, cap,
                     "#version 430 core\n%s// The steering pass of %s: %s\n"
                     "#define BOIDS_THIS_MODEL %uu\n#define BOIDS_MODEL_ATTRS %uu\n"
                     "#define BOIDS_MODEL_FEATURES %uu\n%s#include \"steer_common.glsl\"\n"
                     "#include \"%s\"\n",
                     prelude, name, summary, id, attrs, features,
                     (features & BOIDS_FEATURE_PREDATORS)
                         ? ""
                         : "#define BOIDS_WITHOUT_PREDATORS 1\n#define BOIDS_SORTS_NEXT_STEP 1\n",
                     rules_include);
    if (n < 0 || (size_t)n >= cap) return n;
    int w = snprintf(out + n, cap - (size_t)n, walk_fmt, rules);
    return w < 0 ? w : n + w;
}

#endif
