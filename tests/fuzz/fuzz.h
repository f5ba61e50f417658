/* What the fuzz targets share: the input written to a file of this process (the readers take a
 * path, as the program does), in $TMPDIR (tests/fuzz/run.sh gives each target a directory of
 * its own, removed at the end; /tmp where it is not set). */
#ifndef BOIDS_FUZZ_H
#define BOIDS_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline const char *fuzz_tmp_dir(void)
{
    const char *t = getenv("TMPDIR");
    return t && t[0] ? t : "/tmp";
}

static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *ext)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/boids-fuzz-%ld.%s", fuzz_tmp_dir(), (long)getpid(), ext);
    FILE *f = fopen(path, "wb");
    if (!f) return NULL;
    fwrite(data, 1, size, f);
    fclose(f);
    return path;
}

#endif
