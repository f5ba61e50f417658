/* Putting a state back in id order on the host: both backends keep it in cell (slot) order, and a
 * read wants each column in id order. (The GPU backend may do it on the device instead: see
 * gpu/id_order.h.) */
#ifndef BOIDS_CORE_ID_ORDER_H
#define BOIDS_CORE_ID_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "base/thread_pool.h"
#include "boids.h"

#define BOIDS_SCATTER_COLUMNS 5 /* x, y, vx, vy, swarm: 32-bit words, copied as bits */

/* dst[c][ids[k]] = src[c][k * stride[c]] for k < n and each column c whose src[c] and dst[c] are
 * both given. In two passes through blocks of ids, so that the writes of the second stay within a
 * cache-sized window (a plain scatter misses the cache on nearly every write), each pass shared
 * among the pool's threads (pool NULL: the caller's alone). ids[0..n) must hold every id below n
 * exactly once, and is checked to on the way: *bad_id is the first id found out of range or in
 * two slots (the columns then hold junk), else UINT32_MAX. Fails only for want of memory. */
boids_status boids_scatter_by_id(uint32_t n, const uint32_t *ids,
                                 const uint32_t *const src[BOIDS_SCATTER_COLUMNS],
                                 const size_t stride[BOIDS_SCATTER_COLUMNS],
                                 uint32_t *const dst[BOIDS_SCATTER_COLUMNS], boids_pool *pool,
                                 uint32_t *bad_id);

#endif
