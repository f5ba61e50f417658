/* Internal error helpers: every failure goes through one of these, which record the error for
 * boids_last_error_info() (its id, the key, file or boid it is about, and the message) and return
 * its status, so callers write
 *     return boids_fail_key(BOIDS_E_DEF_COUNT, "count", "%u exceeds the maximum of %u", n, max);
 * The message is "KEY: DETAIL", "PATH:LINE: DETAIL" or DETAIL alone. */
#ifndef BOIDS_BASE_ERROR_H
#define BOIDS_BASE_ERROR_H

#include "boids.h"

#if defined(__GNUC__)
#define BOIDS_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define BOIDS_PRINTF(fmt, args)
#endif

/* An error about nothing in particular. */
boids_status boids_fail(boids_error_id id, const char *fmt, ...) BOIDS_PRINTF(2, 3);
/* An error about a definition field, a parameter or a column: "key: detail". */
boids_status boids_fail_key(boids_error_id id, const char *key, const char *fmt, ...)
    BOIDS_PRINTF(3, 4);
/* An error about a relation between settings: key's, and the other keys of `related`
 * ("min_speed,max_speed"), any of which the user may have set. */
boids_status boids_fail_keys(boids_error_id id, const char *key, const char *related,
                             const char *fmt, ...) BOIDS_PRINTF(4, 5);
/* An error about boid `boid` of a state (and its field `key`, or ""): "boid N: detail". */
boids_status boids_fail_boid(boids_error_id id, size_t boid, const char *key, const char *fmt, ...)
    BOIDS_PRINTF(4, 5);
/* An error about item `index` of a list (a predator, an obstacle), whose detail names it. */
boids_status boids_fail_index(boids_error_id id, size_t index, const char *key, const char *fmt,
                              ...) BOIDS_PRINTF(4, 5);
/* An error about a file, at `line` (0: the whole file): "path:line: detail" or "path: detail". */
boids_status boids_fail_file(boids_error_id id, const char *path, long line, const char *fmt, ...)
    BOIDS_PRINTF(4, 5);
/* Puts a file and line in front of the last error (an error found in a value read from a file),
 * keeping its id and key; `status`, if not BOIDS_OK, becomes its status (a bad value in a file is
 * BOIDS_ERR_PARSE). Returns the error's status. */
boids_status boids_error_in_file(const char *path, long line, boids_status status);
/* A pointer argument of a library call that is NULL: BOIDS_E_ARGUMENT about `what` (the
 * argument's name in boids.h). */
boids_status boids_fail_null(const char *what);
/* Returns boids_fail_null(what) from the enclosing function where p is NULL. */
#define BOIDS_REQUIRE(p, what)                                                                     \
    do {                                                                                           \
        if (!(p)) return boids_fail_null(what);                                                    \
    } while (0)
/* Clears the thread's last error (used where a failure is tried and recovered from). */
void boids_clear_error(void);

#endif
