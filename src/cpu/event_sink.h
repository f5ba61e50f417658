/* Where a CPU step's events go as they happen: the rules (the tool's), the catches and any thread
 * of the pool record them into one log under a lock, and the world sorts them when they are
 * taken. Beneath the backend and the rules alike, so that recording one calls into neither. */
#ifndef BOIDS_CPU_EVENT_SINK_H
#define BOIDS_CPU_EVENT_SINK_H

#include <pthread.h>

#include "core/events.h"

typedef struct boids_cpu_event_sink {
    pthread_mutex_t lock;
    boids_event_log log;
} boids_cpu_event_sink;

/* Records an event (thread-safe). */
static inline void boids_cpu_event_record(boids_cpu_event_sink *sink, const boids_event *e)
{
    pthread_mutex_lock(&sink->lock);
    boids_event_log_push(&sink->log, e);
    pthread_mutex_unlock(&sink->lock);
}

#endif
