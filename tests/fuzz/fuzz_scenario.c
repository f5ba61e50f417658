/* The scenario reader on any bytes: a world definition whose parameters pass validation, or an
 * error naming the file; never a crash, a leak or an endless loop. */
#include <stdlib.h>

#include "core/scenario.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static boids_scenario sc; /* large */
    const char *path = fuzz_file(data, size, "ini");
    if (path && boids_scenario_load(path, 600, &sc) == BOIDS_OK &&
        boids_params_validate(sc.def.model, &sc.def.params) != BOIDS_OK)
        abort(); /* the loader validates what it returns */
    return 0;
}
