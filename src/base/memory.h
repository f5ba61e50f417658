/* The process's memory as the system counts it (the resident set: pages touched and not given
 * back), and giving pages back. Linux's /proc and madvise; elsewhere the counts read 0 and
 * nothing is given back. */
#ifndef BOIDS_BASE_MEMORY_H
#define BOIDS_BASE_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The resident set now, and its peak since the process began or the last reset (bytes; 0 where
 * the system does not say). */
uint64_t boids_resident_bytes(void);
uint64_t boids_resident_peak_bytes(void);
/* Starts the peak again from the resident set now; false where the system cannot. */
bool boids_resident_peak_reset(void);

/* Gives the whole pages inside [p, p + bytes) back to the system: the memory stays the caller's
 * and reads as zeros where next touched, which takes the pages again. For scratch arrays whose
 * contents no longer matter (never for data still to be read). */
void boids_pages_release(void *p, size_t bytes);
/* Zeros [p, p + bytes), holding no more than the pages at its two ends: the others go back. */
void boids_pages_zero(void *p, size_t bytes);

#endif
