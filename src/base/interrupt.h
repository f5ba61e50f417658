/* Ctrl-C, SIGTERM and SIGHUP, for the program's whole life (boids_interrupt_install, first thing
 * in main). The first signal is only noted: the long loops look at it (between steps, frames,
 * runs, benchmark rows) and stop within about a second, keep what is complete (frames, an
 * experiment's finished runs, a benchmark's rows) and exit with 128 + the signal's number, as a
 * shell expects of an interrupted program; a blocked write (a stalled ffmpeg's pipe) returns
 * EINTR and gives up. A second signal, a second or more after the first, ends the process at
 * once: the handler removes the temporary files open at that moment (base/output_file.h) and
 * stops the child process it was told of (ffmpeg), so even then nothing half-written stays under
 * an output's name. (Two within a second are one: timeout(1) sends its signal to the process and
 * again to its process group.) */
#ifndef BOIDS_BASE_INTERRUPT_H
#define BOIDS_BASE_INTERRUPT_H

#include <stdbool.h>
#include <sys/types.h>

void boids_interrupt_install(void);
/* BOIDS_PARENT_PID=PID (the Python package sets it for the programs it runs): when that process,
 * the parent, ends, the program gets SIGTERM and stops as above (Linux's parent-death signal),
 * so that a worker killed outright leaves no shard running on as an orphan; a parent gone
 * already is a signal at once. Elsewhere, or unset, nothing. */
void boids_interrupt_with_parent(void);
/* The first signal that arrived, or 0. */
int boids_interrupted(void);
/* 128 + that signal. */
int boids_interrupt_exit_code(void);
/* The child process a second signal must stop (0: none). */
void boids_interrupt_child(pid_t pid);
/* Whether a long loop is to stop: a signal came (above), or a caller asked through `request`, a
 * flag it sets from another thread or a signal handler (boids_world_interrupt; NULL: none). */
bool boids_should_stop(const int *request);
/* Which of the two it was, for a message: "a signal" or "boids_world_interrupt". */
const char *boids_stop_reason(void);

#endif
