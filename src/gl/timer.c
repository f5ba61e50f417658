#include "gl/timer.h"

#include <string.h>

/* A timestamp, and a flush so that the driver takes it now. llvmpipe runs a compute dispatch as
 * it is issued but writes a timestamp only when it next flushes its queue: without the flush each
 * mark was taken after the following pass had run, and the split was one pass late (the steering's
 * time showed as the reorder's). A timed step happens once per call, so the flushes cost little. */
static void stamp(GLuint query)
{
    glQueryCounter(query, GL_TIMESTAMP);
    glFlush();
}

void boids_gpu_timer_init(boids_gpu_timer *t)
{
    memset(t, 0, sizeof *t);
    glGenQueries(BOIDS_TIMER_RING * BOIDS_TIMER_MARKS, &t->queries[0][0]);
    t->open = -1;
}

void boids_gpu_timer_destroy(boids_gpu_timer *t)
{
    if (t->queries[0][0]) glDeleteQueries(BOIDS_TIMER_RING * BOIDS_TIMER_MARKS, &t->queries[0][0]);
    memset(t, 0, sizeof *t);
    t->open = -1;
}

bool boids_gpu_timer_begin(boids_gpu_timer *t)
{
    if (t->pending == BOIDS_TIMER_RING) boids_gpu_timer_poll(t);
    if (t->pending == BOIDS_TIMER_RING) return false;
    t->open = t->next;
    stamp(t->queries[t->open][0]);
    t->marks[t->open] = 1;
    return true;
}

void boids_gpu_timer_mark(boids_gpu_timer *t, boids_pass pass)
{
    if (t->open < 0 || t->marks[t->open] >= BOIDS_TIMER_MARKS) return;
    int m = t->marks[t->open]++;
    stamp(t->queries[t->open][m]);
    t->pass_of[t->open][m] = (int)pass;
}

void boids_gpu_timer_end(boids_gpu_timer *t)
{
    if (t->open < 0) return;
    t->open = -1;
    t->next = (t->next + 1) % BOIDS_TIMER_RING;
    t->pending++;
}

void boids_gpu_timer_poll(boids_gpu_timer *t)
{
    while (t->pending > 0) {
        int set = (t->next - t->pending + BOIDS_TIMER_RING) % BOIDS_TIMER_RING;
        int n = t->marks[set];
        GLint ready = 0;
        glGetQueryObjectiv(t->queries[set][n - 1], GL_QUERY_RESULT_AVAILABLE, &ready);
        if (!ready) return;
        GLuint64 prev = 0;
        glGetQueryObjectui64v(t->queries[set][0], GL_QUERY_RESULT, &prev);
        for (int m = 1; m < n; ++m) {
            GLuint64 ts = 0;
            glGetQueryObjectui64v(t->queries[set][m], GL_QUERY_RESULT, &ts);
            int p = t->pass_of[set][m];
            t->acc.sum_ms[p] += ts > prev ? (double)(ts - prev) * 1e-6 : 0.0;
            t->acc.samples[p]++;
            prev = ts;
        }
        t->pending--;
    }
}
