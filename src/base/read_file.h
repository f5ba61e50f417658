/* A file's whole content, read at once (small inputs: a model folder's sources). */
#ifndef BOIDS_BASE_READ_FILE_H
#define BOIDS_BASE_READ_FILE_H

#include <stddef.h>

/* The file's bytes with a 0 after them (malloc'ed: the caller frees it), their number in *size
 * where size is not NULL; NULL where the file cannot be opened or read, or memory ran out. */
char *boids_read_file(const char *path, size_t *size);

#endif
