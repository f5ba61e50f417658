/* The predators' CSV reader (--predators) on any bytes. */
#include <math.h>
#include <stdlib.h>

#include "core/state_csv.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, "csv");
    boids_csv_predators c;
    if (path && boids_predators_csv_read(path, &c) == BOIDS_OK) {
        for (uint32_t i = 0; i < c.count; ++i) {
            const boids_predator *p = &c.predators[i];
            if (!isfinite(p->x) || !isfinite(p->y) || !isfinite(p->vx) || !isfinite(p->vy) ||
                !isfinite(p->z) || !isfinite(p->vz) || (!c.three && (p->z != 0 || p->vz != 0)))
                abort();
        }
        free(c.predators);
        free(c.lines);
    }
    return 0;
}
