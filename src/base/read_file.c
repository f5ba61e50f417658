#include "base/read_file.h"

#include <stdio.h>
#include <stdlib.h>

char *boids_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *t = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (t = malloc((size_t)n + 1))) {
        if (fread(t, 1, (size_t)n, f) == (size_t)n) {
            t[n] = '\0';
            if (size) *size = (size_t)n;
        } else {
            free(t);
            t = NULL;
        }
    }
    fclose(f);
    return t;
}
