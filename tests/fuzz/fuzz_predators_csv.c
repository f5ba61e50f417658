/* The predators' CSV reader (--predators) on any bytes. */
#include <math.h>
#include <stdlib.h>

#include "core/state_csv.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, "csv");
    boids_predator *p;
    uint32_t n;
    long *lines;
    if (path && boids_predators_csv_read(path, &p, &n, &lines) == BOIDS_OK) {
        for (uint32_t i = 0; i < n; ++i)
            if (!isfinite(p[i].x) || !isfinite(p[i].y) || !isfinite(p[i].vx) || !isfinite(p[i].vy))
                abort();
        free(p);
        free(lines);
    }
    return 0;
}
