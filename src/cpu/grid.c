#include "cpu/grid.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

boids_status boids_cpu_grid_init(boids_cpu_grid *g, const boids_grid_dims *dims, uint32_t capacity)
{
    memset(g, 0, sizeof *g);
    g->dims = *dims;
    g->cells = boids_grid_cells(dims);
    g->capacity = capacity;
    size_t n = capacity ? capacity : 1;
    g->cell_count = malloc(sizeof(uint32_t) * (g->cells + 1u));
    g->cell_start = malloc(sizeof(uint32_t) * (g->cells + 2u));
    g->cell_of = malloc(sizeof(uint32_t) * n);
    g->order = malloc(sizeof(uint32_t) * n);
    g->slot_cell = malloc(sizeof(uint32_t) * n);
    g->src = malloc(sizeof(uint32_t) * n);
    if (!g->cell_count || !g->cell_start || !g->cell_of || !g->order || !g->slot_cell || !g->src) {
        boids_cpu_grid_free(g);
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for a grid of %u cells", g->cells);
    }
    return BOIDS_OK;
}

boids_status boids_cpu_grid_track_blocks(boids_cpu_grid *g)
{
    if (!g->block_any && !(g->block_any = calloc(g->cells, 1)))
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for a grid of %u cells", g->cells);
    return BOIDS_OK;
}

void boids_cpu_grid_free(boids_cpu_grid *g)
{
    free(g->block_any);
    free(g->cell_count);
    free(g->cell_start);
    free(g->cell_of);
    free(g->order);
    free(g->slot_cell);
    free(g->src);
    memset(g, 0, sizeof *g);
}

void boids_cpu_grid_count(boids_cpu_grid *g, const float *x, const float *y, const uint32_t *ids, uint32_t n,
                          uint32_t per_replica, const uint8_t *dead)
{
    const boids_grid_dims *d = &g->dims;
    memset(g->cell_count, 0, sizeof(uint32_t) * (g->cells + 1u));
    if (per_replica == 0) per_replica = 1;
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t id = ids ? ids[k] : k;
        uint32_t c = dead && dead[id] ? g->cells : boids_cell_of(d, id / per_replica, x[k], y[k]);
        g->cell_of[k] = c;
        g->cell_count[c]++;
    }
}

void boids_cpu_grid_scan(boids_cpu_grid *g)
{
    uint32_t sum = 0;
    for (uint32_t c = 0; c <= g->cells; ++c) {
        g->cell_start[c] = sum;
        sum += g->cell_count[c];
    }
    g->cell_start[g->cells + 1] = sum;
}

void boids_cpu_grid_scatter(boids_cpu_grid *g, const uint32_t *ids, uint32_t n)
{
    /* Each entry goes to the end of its cell's filled slots; cell_count serves as the cursor and
     * is restored. Entries that come in ascending id (ids NULL) leave ids ascending within each
     * cell. */
    for (uint32_t e = 0; e < n; ++e) {
        const uint32_t c = g->cell_of[e];
        const uint32_t k = g->cell_start[c + 1] - g->cell_count[c];
        g->order[k] = ids ? ids[e] : e;
        g->src[k] = e;
        g->slot_cell[k] = c;
        g->cell_count[c]--;
    }
    for (uint32_t c = 0; c <= g->cells; ++c) g->cell_count[c] = g->cell_start[c + 1] - g->cell_start[c];
    if (!ids) return;
    /* Otherwise a cell's newcomers may sit before boids of lower id: each such slot moves down
     * past those of higher id in its cell (an insertion sort), so ids ascend within each cell.
     * Where the entries come in the last step's order, few slots move, and not far. */
    for (uint32_t k = 1; k < n; ++k) {
        const uint32_t id = g->order[k], e = g->src[k], c = g->slot_cell[k];
        if (!((g->slot_cell[k - 1] == c) & (g->order[k - 1] > id))) continue;
        uint32_t j = k;
        for (; j > 0 && g->slot_cell[j - 1] == c && g->order[j - 1] > id; --j) {
            g->order[j] = g->order[j - 1];
            g->src[j] = g->src[j - 1];
        }
        g->order[j] = id;
        g->src[j] = e;
    }
}

void boids_cpu_grid_build(boids_cpu_grid *g, const float *x, const float *y, uint32_t n, uint32_t per_replica,
                          const uint8_t *dead)
{
    boids_cpu_grid_count(g, x, y, NULL, n, per_replica, dead);
    boids_cpu_grid_scan(g);
    boids_cpu_grid_scatter(g, NULL, n);
    if (g->block_any) boids_grid_mark_blocks(&g->dims, g->cell_start, g->cells, g->block_any);
}
