#include "core/events.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"

boids_status boids_event_log_init(boids_event_log *log, size_t capacity)
{
    memset(log, 0, sizeof *log);
    log->events = malloc(sizeof *log->events * (capacity ? capacity : 1));
    if (!log->events)
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %zu events", capacity);
    log->capacity = capacity;
    return BOIDS_OK;
}

void boids_event_log_free(boids_event_log *log)
{
    free(log->events);
    memset(log, 0, sizeof *log);
}

void boids_event_log_clear(boids_event_log *log)
{
    log->count = 0;
    log->lost = 0;
}

static int compare(const void *pa, const void *pb)
{
    const boids_event *a = pa, *b = pb;
    if (a->step != b->step) return a->step < b->step ? -1 : 1;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (a->subject != b->subject) return a->subject < b->subject ? -1 : 1;
    if (a->other != b->other) return a->other < b->other ? -1 : 1;
    return memcmp(a->value, b->value, sizeof a->value); /* never equal in practice: total order */
}

void boids_event_log_sort(boids_event_log *log)
{
    qsort(log->events, log->count, sizeof *log->events, compare);
}
