/* Predators (models with BOIDS_FEATURE_PREDATORS), CPU reference: the catches at the start of a
 * step made so, in order. From the kit paper (§2.3, eq. 5, tables 1 and 3) and the authors' code
 * where the paper is silent:
 *
 *   catch: a living boid of a running replica within boid_size + predator_size (minimum image,
 *     3D where the world is) of a predator dies; within reach of several, the lowest predator id
 *     catches it (found by boids_cpu_catch, cpu/hunt.c). Each catch is a BOIDS_EVENT_CATCH event
 *     and counts for the replica, which stops at the step its catches reach stop_after_catches
 *     (0: never): a step's catches are taken in the order (predator, boid), as the authors' code
 *     lets its predators catch one after another, and those past the K-th are not made (the boid
 *     lives on, the replica has stopped).
 *   hunt: see cpu/hunt.c.
 *
 * The catches found stay per backend, as the boids' walks do (their order is a matter of the
 * CPU's threads or the GPU's atomics, and test_agreement and test_kit hold the two equal); made
 * so here in the order shaders/catch_apply.comp and stop.comp take them. */
#include <math.h>
#include <stdlib.h>

#include "cpu/steer.h"

static int by_replica_predator_boid(const void *pa, const void *pb)
{
    const boids_catch *a = pa, *b = pb;
    if (a->replica != b->replica) return a->replica < b->replica ? -1 : 1;
    if (a->predator != b->predator) return a->predator < b->predator ? -1 : 1;
    return a->boid < b->boid ? -1 : a->boid > b->boid;
}

void boids_cpu_apply_catches(const boids_cpu_step *s)
{
    const uint32_t n = *s->catch_count, stop = s->params->predators.stop_after_catches;
    qsort(s->catches, n, sizeof *s->catches, by_replica_predator_boid);
    for (uint32_t i = 0; i < n; ++i) {
        const boids_catch *c = &s->catches[i];
        boids_replica_record *r = &s->replicas[c->replica];
        if (stop > 0 && r->catches >= stop) continue; /* past the K-th: not made */
        s->attr[BOIDS_ATTR_ALIVE][c->boid] = 0;
        r->catches++;
        if (s->sim->def.event_mask & (1u << BOIDS_EVENT_CATCH))
            boids_cpu_emit(s, BOIDS_EVENT_CATCH, c->boid, c->predator,
                           boids_cpu_attr_float(s, BOIDS_ATTR_AGE, c->boid), sqrtf(c->d2), 0.0f,
                           0.0f);
    }
    for (uint32_t r = 0; r < s->sim->def.replicas;
         ++r) /* a replica stops at the step its catches reach K */
        if (stop > 0 && s->replicas[r].catches >= stop && s->replicas[r].stop_step == BOIDS_RUNNING)
            s->replicas[r].stop_step = s->step;
}
