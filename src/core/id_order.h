/* Putting a state back in id order: both backends keep it in cell (slot) order, and a read by
 * column wants each column in id order. */
#ifndef BOIDS_CORE_ID_ORDER_H
#define BOIDS_CORE_ID_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "boids.h"

/* dst[c][ids[k]] = src[c][k * stride] for k < n and the four columns c (a NULL dst[c] is left
 * out). In two passes through blocks of ids, so that the writes of the second stay within a
 * cache-sized window: a plain scatter misses the cache on nearly every write. */
boids_status boids_scatter_by_id(uint32_t n, const uint32_t *ids, const float *const src[4],
                                 size_t stride, float *const dst[4]);

#endif
