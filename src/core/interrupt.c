#define _POSIX_C_SOURCE 200809L
#include "app/interrupt.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t caught;
static struct sigaction old_int, old_term;

static void on_signal(int sig) { caught = sig; }

void boids_interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    caught = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
}

void boids_interrupt_restore(void)
{
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
}

int boids_interrupted(void) { return caught; }

int boids_interrupt_exit_code(void) { return 128 + (caught ? caught : SIGINT); }
