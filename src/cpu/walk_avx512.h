/* The Reynolds walk of a lane group with AVX-512's mask registers (cpu/walk_avx512.c), where the
 * compiler can make it and the processor has it; walk_reynolds.c chooses it at run time. */
#ifndef BOIDS_CPU_WALK_AVX512_H
#define BOIDS_CPU_WALK_AVX512_H

#include "cpu/avx512.h"
#include "cpu/steer.h"

#if BOIDS_CPU_AVX512
/* walk_reynolds.c's walk_group for every Reynolds walk but Adams' box, the same bits. */
void boids_cpu_walk_avx512(const boids_cpu_step *s, uint32_t slot, const boids_cpu_group *g,
                           const reynolds_radii *radii, boids_cpu_lane_sums *out);
#endif

#endif
