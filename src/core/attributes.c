/* The attribute table, generated from boids_attributes.h. */
#include <stddef.h>

#include "boids.h"

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

float boids_attribute_default(boids_attribute a, const boids_params *p)
{
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
