/* The state CSV of --init and --dump: header `id,x,y,vx,vy,swarm` (a flat world) or
 * `id,x,y,z,vx,vy,vz,swarm` (a 3D one), then a column per attribute of the world's model
 * (boids_attributes.h), one row per boid in id order. A reader reads the
 * attribute columns it knows and ignores other extra columns. Floats are written with 9
 * significant digits, so a dump read back is bit-exact. */
#ifndef BOIDS_CORE_STATE_CSV_H
#define BOIDS_CORE_STATE_CSV_H

#include "boids.h"

typedef struct boids_csv_state {
    boids_boid *boids; /* id order (free it) */
    uint32_t count;
    uint32_t swarms;     /* largest swarm + 1 (1 for an empty file) */
    long *lines;         /* the file line of each id (free it) */
    unsigned attributes; /* the attribute columns the file had (BOIDS_ATTR_BIT); the others are
                            left 0 for the caller to default */
    bool three;          /* the file had the 3D columns (else z and vz are 0) */
} boids_csv_state;

/* Reads a state. Rows may come in any order but their ids must be 0..N-1, each once.
 * BOIDS_ERR_PARSE with "FILE:LINE: ..." for bad content, BOIDS_ERR_IO if it cannot be read. */
boids_status boids_csv_read(const char *path, boids_csv_state *out);
void boids_csv_state_free(boids_csv_state *s);

/* Writes a state atomically: to a temporary file beside `path`, then renamed over it, so a
 * failure never leaves a half-written file (nor destroys an older one). `attributes` says which
 * attribute columns to write (the world's model's); `three`, the 3D columns. */
boids_status boids_csv_write(const char *path, const boids_boid *boids, uint32_t count,
                             unsigned attributes, bool three);

/* The predators' CSV of --predators and --dump-predators: header `id,x,y,vx,vy` (a flat world)
 * or `id,x,y,z,vx,vy,vz` (a 3D one), one row per predator, in id order when written, in any order
 * when read (ids 0..N-1, each once). */
typedef struct boids_csv_predators {
    boids_predator *predators; /* id order (free it) */
    uint32_t count;
    long *lines; /* the file line of each id (free it) */
    bool three;  /* the file had the 3D columns (else z and vz are 0) */
} boids_csv_predators;
boids_status boids_predators_csv_read(const char *path, boids_csv_predators *out);
boids_status boids_predators_csv_write(const char *path, const boids_predator *predators,
                                       uint32_t count, bool three);

/* Checks that `path` could be created (its directory exists and is writable) before any work is
 * done, so a long run does not fail at the end. */
boids_status boids_csv_check_writable(const char *path);

#endif
