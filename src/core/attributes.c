/* The attribute table, generated from boids_attributes.h. */
#include <stddef.h>

#include "boids.h"
#include "core/models.h"

static const boids_attribute_info attributes[BOIDS_ATTR_COUNT] = {
#define BOIDS_X_ATTR_ROW(ID, name, type, def, lo, hi, desc)                                        \
    [BOIDS_ATTR_##                                                                                 \
        ID] = {#name, BOIDS_ATTR_IS_UINT_##type, offsetof(boids_boid, name), lo, hi, desc},
#define BOIDS_ATTR_IS_UINT_FLOAT false
#define BOIDS_ATTR_IS_UINT_UINT true
    BOIDS_ATTRIBUTE_LIST(BOIDS_X_ATTR_ROW)
#undef BOIDS_X_ATTR_ROW
};

const boids_attribute_info *boids_attribute_info_of(boids_attribute a)
{
    return (unsigned)a < BOIDS_ATTR_COUNT ? &attributes[a] : NULL;
}

/* Every model's own blocks at their defaults (the base block the last model's): what an
 * attribute's default reads where no parameters are given. */
static boids_params every_default(void)
{
    boids_params all = boids_model_default_params((boids_model)0);
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        const boids_params d = boids_model_default_params((boids_model)m);
        const unsigned blocks = boids_model_blocks((boids_model)m);
#define BOIDS_X_COPY_BLOCK(ID, field, rows)                                                        \
    if (blocks & BOIDS_BLOCK_BIT(ID)) all.field = d.field;
        BOIDS_PARAM_BLOCK_LIST(BOIDS_X_COPY_BLOCK)
#undef BOIDS_X_COPY_BLOCK
    }
    return all;
}

float boids_attribute_default(boids_attribute a, const boids_params *p)
{
    boids_params defaults;
    if (!p) defaults = every_default(), p = &defaults; /* (NULL was dereferenced: bias) */
    switch (a) {
#define BOIDS_X_ATTR_DEFAULT(ID, name, type, def, lo, hi, desc)                                    \
    case BOIDS_ATTR_##ID: return (float)(def);
        BOIDS_ATTRIBUTE_LIST(BOIDS_X_ATTR_DEFAULT)
#undef BOIDS_X_ATTR_DEFAULT
    default: break;
    }
    (void)p;
    return 0.0f;
}

int boids_attribute_count(void) { return BOIDS_ATTR_COUNT; }
