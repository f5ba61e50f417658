/* A read of the device's state in id order, on the device (shaders/id_order.comp): the agents'
 * slots go to columns indexed by id, which the host then copies, column by column, straight into
 * the caller's arrays. The steps keep agents in cell order (gpu_backend.c), so a read by id is a
 * random scatter: a GPU does it in a fraction of a millisecond, where the host would walk the
 * slots at random (several copies' time for a million boids). The same pass checks that the
 * slots hold every id exactly once. Its buffers are made on first use. */
#ifndef BOIDS_GPU_ID_ORDER_H
#define BOIDS_GPU_ID_ORDER_H

#include "gpu/sort.h"

typedef struct boids_gpu_id_order {
    GLuint prog;
    GLint u_stamp, u_agents;
    GLuint columns, swarm, marks; /* x, y, vx, vy one after another; the swarms; each id's mark */
    GLuint columns_z;             /* a 3D world's z and vz one after another (else 0) */
    uint32_t capacity;            /* agents the buffers hold */
    uint32_t stamp;               /* the last read's mark */
    int dims; /* the world's dimension: 3 adds the columns z and vz (set before a run) */
} boids_gpu_id_order;

/* Runs the pass over `count` agents (which: 0 the boids, 1 the predators, which have no swarm)
 * whose slots are `slots`. The frame's uniform block and the report must be bound; the report's
 * bad_slots must be 0. Once the report says it still is, column c (x, y, vx, vy) of the state is
 * boids_gpu_id_order_column's range of `columns` (z and vz of a 3D world the same of
 * `columns_z`), and the swarms the first `count` of `swarm`. */
boids_status boids_gpu_id_order_run(boids_gpu_id_order *o, uint32_t which, uint32_t count,
                                    boids_gpu_hot slots);
/* Where float column c (0 x, 1 y, 2 vx, 3 vy; of columns_z, 0 z, 1 vz) of a run over `count`
 * agents starts, in bytes. */
static inline size_t boids_gpu_id_order_column(uint32_t c, uint32_t count)
{
    return sizeof(float) * (size_t)c * count;
}
void boids_gpu_id_order_free(boids_gpu_id_order *o);
/* The bytes of its buffers (0 before the first run), asked of the driver. */
uint64_t boids_gpu_id_order_bytes(const boids_gpu_id_order *o);

#endif
