#define _POSIX_C_SOURCE 200809L
#include "base/interrupt.h"

#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/environment.h"
#include "base/output_file.h"

#ifdef __linux__
#include <sys/prctl.h>
#endif

static volatile sig_atomic_t caught;
static volatile pid_t child;
static struct timespec first_at; /* when the first signal came */

static void on_signal(int sig)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now); /* async-signal-safe */
    if (!caught) {
        first_at = now;
        caught = sig;
        return;
    }
    /* the same signal twice within a second is one event delivered twice (timeout(1) signals the
     * process and then its process group), not a user insisting */
    if ((now.tv_sec - first_at.tv_sec) + (now.tv_nsec - first_at.tv_nsec) * 1e-9 < 1.0) return;
    /* a second signal: now, leaving no temporary file and no child behind */
    boids_output_remove_temps();
    if (child > 0) kill(child, SIGTERM);
    _exit(128 + sig);
}

void boids_interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: a blocked write returns EINTR and its caller sees the flag */
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; ++i) {
        struct sigaction old;
        /* nohup's SIGHUP stays ignored (SIGINT and SIGTERM are always taken: a script's
         * background job inherits an ignored SIGINT, and still means to be stoppable) */
        if (sigs[i] == SIGHUP && sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
}

void boids_interrupt_with_parent(void)
{
    uint64_t pid = 0;
    bool set = false;
    if (boids_env_whole("BOIDS_PARENT_PID", 1, &pid, &set) != BOIDS_OK || !set)
        return; /* (a bad value is refused by boids_environment_check) */
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if ((uint64_t)getppid() != pid) kill(getpid(), SIGTERM); /* it ended before the prctl */
#endif
}

int boids_interrupted(void) { return caught; }

bool boids_should_stop(const int *request)
{
    return caught || (request && __atomic_load_n(request, __ATOMIC_RELAXED));
}

const char *boids_stop_reason(void) { return caught ? "a signal" : "boids_world_interrupt"; }

int boids_interrupt_exit_code(void) { return 128 + (caught ? caught : SIGINT); }

void boids_interrupt_child(pid_t pid) { child = pid; }
