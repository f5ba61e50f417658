#include "boids.h"

#include <math.h>
#include <stdlib.h>

#include "base/error.h"
#include "core/field.h"
#include "world/world.h"

/* The options with every default filled, checked: BOIDS_E_ARGUMENT naming the field. */
static boids_status resolve(const boids_sim *sim, const boids_field_options *o,
                            boids_field_setup *s)
{
    const boids_field_options none = {0};
    if (!o) o = &none;
    const float w = sim->def.width, h = sim->def.height, d = sim->def.depth;
    float shortest = w < h ? w : h;
    if (d > 0 && d < shortest) shortest = d;
    if (!(o->r_max >= 0) || isinf(o->r_max))
        return boids_fail_key(BOIDS_E_ARGUMENT, "r_max",
                              "%g is not a distance >= 0 (0: half the "
                              "world's shortest side)",
                              (double)o->r_max);
    if (o->bins > BOIDS_FIELD_BINS)
        return boids_fail_key(BOIDS_E_ARGUMENT, "bins", "%u exceeds the maximum of %d", o->bins,
                              BOIDS_FIELD_BINS);
    if (o->ranks > BOIDS_FIELD_RANKS)
        return boids_fail_key(BOIDS_E_ARGUMENT, "ranks", "%u exceeds the maximum of %d", o->ranks,
                              BOIDS_FIELD_RANKS);
    if (!(o->margin >= 0) || !(o->margin < 1))
        return boids_fail_key(BOIDS_E_ARGUMENT, "margin", "%g is not in [0, 1)", (double)o->margin);
    if (!(o->xi_from >= 0) || isinf(o->xi_from))
        return boids_fail_key(BOIDS_E_ARGUMENT, "xi_from", "%g is not a distance >= 0",
                              (double)o->xi_from);
    if (o->flock > BOIDS_FIELD_FLOCK_GROUP)
        return boids_fail_key(BOIDS_E_ARGUMENT, "flock",
                              "%u is not a flock (0 the replica, 1 each swarm, 2 each group)",
                              o->flock);
    *s = (boids_field_setup){.width = w,
                             .height = h,
                             .depth = d,
                             .wrap = sim->def.params.base.edges == BOIDS_EDGES_WRAP,
                             .r_max = o->r_max > 0 ? o->r_max : 0.5 * shortest,
                             .bins = o->bins ? o->bins : 64,
                             .ranks = o->ranks ? o->ranks : 20,
                             .margin = o->margin > 0 ? o->margin : 0.02,
                             .flock = o->flock,
                             .xi_from = o->xi_from,
                             .group_radius =
                                 boids_model_group_radius(sim->def.model, &sim->def.params)};
    return BOIDS_OK;
}

boids_status boids_world_field(boids_world *w, const boids_field_options *options, boids_field *out,
                               size_t n)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    BOIDS_REQUIRE(out, "out");
    const uint32_t R = w->sim.def.replicas, count = w->sim.def.count;
    const uint32_t per = count ? w->sim.per_replica : 0; /* (per_replica is 1 in an empty world) */
    if (n != R)
        return boids_fail(BOIDS_E_ARGUMENT, "field measures of %zu replicas from a world of %u", n,
                          R);
    boids_field_setup setup;
    boids_status st = resolve(&w->sim, options, &setup);
    if (st != BOIDS_OK) return st;
    boids_boid *state = malloc(sizeof *state * (count ? count : 1));
    boids_field *measured = malloc(sizeof *measured * R); /* out untouched unless all are done */
    st = state && measured ? boids_world_read(w, state, count)
                           : boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the field measures");
    /* every core on a large replica (threads for a small one cost more than they save) */
    boids_pool *pool = per >= 5000 && w->threads > 1 ? boids_pool_create(w->threads) : NULL;
    for (uint32_t r = 0; st == BOIDS_OK && r < R; ++r) {
        st = boids_field_compute(state + (size_t)r * per, per, &setup, pool, &w->sim.stop_request,
                                 &measured[r]);
        measured[r].step = w->sim.steps;
    }
    boids_pool_destroy(pool);
    for (uint32_t r = 0; st == BOIDS_OK && r < R; ++r) out[r] = measured[r];
    free(state), free(measured);
    return st;
}
