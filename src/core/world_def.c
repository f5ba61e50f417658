/* The world definition's defaults: what a world is when nothing is said. */
#include <math.h>
#include <string.h>

#include "boids.h"

boids_world_def boids_default_world_def(void)
{
    boids_world_def def;
    memset(&def, 0, sizeof def);
    def.model = BOIDS_MODEL_SHIFFMAN_PER_SECOND;
    def.params = boids_model_default_params(def.model);
    def.backend = BOIDS_BACKEND_GPU;
    def.count = 100000;
    def.swarms = 1;
    def.width = 0.0f;
    def.height = 0.0f;
    def.dt = 1.0f / 60.0f;
    def.seed = 1;
    def.cell_size = 0.0f;
    def.neighbors = BOIDS_NEIGHBORS_GRID;
    def.threads = 0;
    def.replicas = 1;
    def.obstacles = NULL;
    def.obstacle_count = 0;
    def.event_mask = 1u << BOIDS_EVENT_CATCH;
    def.event_capacity = 1u << 16;
    def.gl = NULL;
    return def;
}

void boids_default_world_size(uint32_t n, float *width, float *height)
{
    /* 16:9 with area n * 1000 px^2; at least the area of one boid so n = 0 still has a world. */
    double area = 1000.0 * (n > 0 ? n : 1);
    double w = sqrt(area * 16.0 / 9.0);
    if (width) *width = (float)fmax(1.0, round(w));
    if (height) *height = (float)fmax(1.0, round(w * 9.0 / 16.0));
}

float boids_default_world_size_3d(uint32_t n)
{
    /* volume n * 1000^1.5 px^3: the flat default's mean spacing, sqrt(1000) px, along z too */
    return (float)fmax(1.0, round(cbrt(pow(1000.0, 1.5) * (n > 0 ? n : 1))));
}

void boids_world_def_scale(boids_world_def *d, uint32_t n)
{
    if (!d) return;
    if (d->width > 0.0f && d->height > 0.0f && d->count > 0) {
        const double k = d->depth > 0.0f ? cbrt((double)n / d->count) : sqrt((double)n / d->count);
        d->width = (float)(d->width * k), d->height = (float)(d->height * k);
        d->depth = (float)(d->depth * k);
    }
    d->count = n;
}

void boids_world_def_resolve_size(boids_world_def *d)
{
    if (!d || d->width != 0.0f) return;
    const uint32_t per = d->count / (d->replicas ? d->replicas : 1);
    if (d->depth > 0.0f)
        d->width = d->height = d->depth = boids_default_world_size_3d(per);
    else
        boids_default_world_size(per, &d->width, &d->height);
}
