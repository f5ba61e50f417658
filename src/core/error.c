#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_error[1024];

const char *boids_status_text(boids_status status)
{
    switch (status) {
#define BOIDS_X_CASE(code, text)                                                                    \
    case code:                                                                                      \
        return text;
        BOIDS_STATUS_LIST(BOIDS_X_CASE)
#undef BOIDS_X_CASE
    }
    return "unknown status";
}

const char *boids_last_error(void) { return last_error; }

void boids_clear_error(void) { last_error[0] = '\0'; }

boids_status boids_fail(boids_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}
