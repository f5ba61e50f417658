/* The Reynolds walk of a lane group with AVX-512's mask registers (cpu/walk_avx512.c), where the
 * compiler can make it and the processor has it; walk_reynolds.c chooses it at run time. */
#ifndef BOIDS_CPU_WALK_AVX512_H
#define BOIDS_CPU_WALK_AVX512_H

#include "cpu/steer.h"

#if defined(__x86_64__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define BOIDS_WALK_AVX512 1
/* walk_reynolds.c's walk_group for every Reynolds walk but Adams' box, the same bits. */
void boids_cpu_walk_avx512(const boids_cpu_step *s, uint32_t slot, const boids_cpu_group *g,
                           const reynolds_radii *radii, boids_cpu_lane_sums *out);
/* Whether this processor runs it (the instruction sets of arch=x86-64-v4, as the clones'). */
static inline bool boids_cpu_has_avx512(void) { return __builtin_cpu_supports("x86-64-v4"); }
/* Whether walk_reynolds.c takes it where it can (default true): tests turn it off to hold the
 * two walks equal (test_cpu_walks). */
extern bool boids_cpu_walk_avx512_on;
#else
#define BOIDS_WALK_AVX512 0
#endif

#endif
