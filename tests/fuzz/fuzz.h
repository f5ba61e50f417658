/* What the fuzz targets share: the input written to a file of this process (the readers take a
 * path, as the program does). */
#ifndef BOIDS_FUZZ_H
#define BOIDS_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

static const char *fuzz_file(const uint8_t *data, size_t size, const char *ext)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/boids-fuzz-%ld.%s", (long)getpid(), ext);
    FILE *f = fopen(path, "wb");
    if (!f) return NULL;
    fwrite(data, 1, size, f);
    fclose(f);
    return path;
}

#endif
