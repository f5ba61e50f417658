/* The state CSV of --init and --dump: header `id,x,y,vx,vy,swarm`, one row per boid in id order.
 * Extra columns may follow (later models write age, alive, ...); a reader ignores those it does
 * not know. Floats are written with 9 significant digits, so a dump read back is bit-exact. */
#ifndef BOIDS_CORE_STATE_CSV_H
#define BOIDS_CORE_STATE_CSV_H

#include "boids.h"

/* Reads a state. Rows may come in any order but their ids must be 0..N-1, each once; *boids is
 * malloc'ed in id order (free it), *swarms = largest swarm + 1 (1 for an empty file). If lines is
 * not NULL, *lines receives the file line of each id (malloc'ed), for messages about a boid.
 * An extra column `bias` is read into boids[].bias (*has_bias then true).
 * BOIDS_ERR_PARSE with "FILE:LINE: ..." for bad content, BOIDS_ERR_IO if it cannot be read. */
boids_status boids_csv_read(const char *path, boids_boid **boids, uint32_t *count, uint32_t *swarms,
                            long **lines, bool *has_bias);

/* Writes a state atomically: to a temporary file beside `path`, then renamed over it, so a
 * failure never leaves a half-written file (nor destroys an older one). with_bias adds the
 * column `bias` (Adams' per-scout state). */
boids_status boids_csv_write(const char *path, const boids_boid *boids, uint32_t count, bool with_bias);

/* Checks that `path` could be created (its directory exists and is writable) before any work is
 * done, so a long run does not fail at the end. */
boids_status boids_csv_check_writable(const char *path);

#endif
