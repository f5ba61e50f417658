/* A list of events with a fixed capacity: what a backend gathers between two takes. Events past
 * the capacity are counted, not kept (the same rule on the GPU), and the list is sorted into the
 * order the API promises: (step, kind, subject, other). */
#ifndef BOIDS_CORE_EVENTS_H
#define BOIDS_CORE_EVENTS_H

#include "boids.h"

typedef struct boids_event_log {
    boids_event *events;
    size_t count, capacity;
    uint64_t lost;
} boids_event_log;

boids_status boids_event_log_init(boids_event_log *log, size_t capacity);
void boids_event_log_free(boids_event_log *log);
/* Keeps e if there is room, else counts it lost. */
static inline void boids_event_log_push(boids_event_log *log, const boids_event *e)
{
    if (log->count < log->capacity)
        log->events[log->count++] = *e;
    else
        log->lost++;
}
void boids_event_log_clear(boids_event_log *log);
/* Sorts into (step, kind, subject, other, values) order: the same list whatever the order the
 * events were found in. */
void boids_event_log_sort(boids_event_log *log);

#endif
