/* boids_attributes.h: the per-boid attributes beyond position, velocity and swarm, declared once
 * (part of the public API, included by boids.h).
 *
 *   A(ID, name, type, default, min, max, description)
 *
 *   name     the member of boids_boid and the column of the state CSV
 *   type     FLOAT or UINT (32 bits either way)
 *   default  the value a boid gets when a state does not say (a random start, an --init file
 *            without the column, a switch to a model that has it): an expression of `p`, the
 *            world's boids_params
 *   min/max  the range a written state must respect
 *
 * A model lists the attributes it reads or writes in its manifest line (src/core/manifest.h); only
 * those are stored by a backend, dumped and read back. From this list come boids_boid, the GPU's
 * attribute buffer and its GLSL accessors (generated at build time by cmake/glsl_gen.c), the CSV
 * reader and writer, the checks of written states and the layout test. */
#ifndef BOIDS_ATTRIBUTES_H
#define BOIDS_ATTRIBUTES_H

#define BOIDS_ATTRIBUTE_LIST(A)                                                                    \
    A(BIAS, bias, FLOAT, p->adams.bias, 0, 1, "Adams' scout bias: the state of the dynamic bias")  \
    A(AGE, age, FLOAT, 0.5f, 0, 1, "kit: the boid's age; sight and top speed are best at 0.5")     \
    A(ALIVE, alive, UINT, 1, 0, 1, "kit: 1 while the boid lives, 0 once a predator caught it")

typedef enum boids_attribute {
#define BOIDS_X_ATTR_ENUM(ID, name, type, def, lo, hi, desc) BOIDS_ATTR_##ID,
    BOIDS_ATTRIBUTE_LIST(BOIDS_X_ATTR_ENUM)
#undef BOIDS_X_ATTR_ENUM
        BOIDS_ATTR_COUNT
} boids_attribute;

#define BOIDS_ATTR_BIT(ID) (1u << BOIDS_ATTR_##ID)

#define BOIDS_ATTR_CTYPE_FLOAT float
#define BOIDS_ATTR_CTYPE_UINT uint32_t
/* The members of boids_boid the list adds. */
#define BOIDS_X_ATTR_MEMBER(ID, name, type, def, lo, hi, desc) BOIDS_ATTR_CTYPE_##type name;

#endif /* BOIDS_ATTRIBUTES_H */
