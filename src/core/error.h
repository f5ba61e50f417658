/* Internal error helpers: every failure goes through boids_fail(), which records a one-line
 * message for boids_last_error() and returns the status, so callers write
 *     return boids_fail(BOIDS_ERR_INVALID, "count %u exceeds %u", n, max);
 */
#ifndef BOIDS_CORE_ERROR_H
#define BOIDS_CORE_ERROR_H

#include "boids.h"

#if defined(__GNUC__)
#define BOIDS_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define BOIDS_PRINTF(fmt, args)
#endif

boids_status boids_fail(boids_status status, const char *fmt, ...) BOIDS_PRINTF(2, 3);
/* Clears the thread's last error (used where a failure is tried and recovered from). */
void boids_clear_error(void);

#endif
