/* Ctrl-C and SIGTERM: the handler only notes the signal; the program's loops look at it between
 * steps, stop, discard the outputs of the unfinished run (no temporary file, no half-written
 * output stays), keep what was already complete (frames, an experiment's finished runs) and
 * exit with 128 + the signal's number, as a shell expects of an interrupted program. */
#ifndef BOIDS_APP_INTERRUPT_H
#define BOIDS_APP_INTERRUPT_H

#include <stdbool.h>

void boids_interrupt_install(void);
void boids_interrupt_restore(void);
/* The signal that arrived since the install, or 0. */
int boids_interrupted(void);
/* 128 + that signal. */
int boids_interrupt_exit_code(void);

#endif
