/* Internal helpers over the attribute schema (boids_attributes.h): an attribute's value as the
 * 32-bit word the backends store (a float's bits, or the uint), read and written by the schema's
 * offsets, so no code names an attribute it does not use. */
#ifndef BOIDS_CORE_ATTRIBUTES_H
#define BOIDS_CORE_ATTRIBUTES_H

#include <string.h>

#include "boids.h"

static inline uint32_t boids_boid_attr_bits(const boids_boid *b, boids_attribute a)
{
    uint32_t v;
    memcpy(&v, (const char *)b + boids_attribute_info_of(a)->offset, sizeof v);
    return v;
}

static inline void boids_boid_set_attr_bits(boids_boid *b, boids_attribute a, uint32_t v)
{
    memcpy((char *)b + boids_attribute_info_of(a)->offset, &v, sizeof v);
}

/* The stored word of an attribute's default. */
static inline uint32_t boids_attribute_default_bits(boids_attribute a, const boids_params *p)
{
    float f = boids_attribute_default(a, p);
    uint32_t v;
    if (boids_attribute_info_of(a)->is_uint) return (uint32_t)f;
    memcpy(&v, &f, sizeof v);
    return v;
}

/* An attribute's value as a double (for range checks and text). */
static inline double boids_boid_attr_value(const boids_boid *b, boids_attribute a)
{
    uint32_t v = boids_boid_attr_bits(b, a);
    if (boids_attribute_info_of(a)->is_uint) return v;
    float f;
    memcpy(&f, &v, sizeof f);
    return f;
}

/* Sets every attribute outside `keep` (a mask of BOIDS_ATTR_BIT) to its default. */
static inline void boids_boid_default_attrs(boids_boid *b, unsigned keep, const boids_params *p)
{
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a)
        if (!(keep & (1u << a)))
            boids_boid_set_attr_bits(b, (boids_attribute)a,
                                     boids_attribute_default_bits((boids_attribute)a, p));
}

#endif
