/* The state CSV reader (--init) on any bytes: it returns a state or an error, never crashes,
 * leaks or reads out of bounds; a state it returns has finite values and ids 0..N-1. */
#include <math.h>
#include <stdlib.h>

#include "core/state_csv.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, "csv");
    boids_csv_state s;
    if (path && boids_csv_read(path, &s) == BOIDS_OK) {
        for (uint32_t i = 0; i < s.count; ++i)
            if (!isfinite(s.boids[i].x) || !isfinite(s.boids[i].y) || !isfinite(s.boids[i].vx) ||
                !isfinite(s.boids[i].vy))
                abort();
        free(s.boids);
        free(s.lines);
    }
    return 0;
}
