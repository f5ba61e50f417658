/* Whether the CPU backend's AVX-512 paths exist in this build and run on this processor: the lane
 * walk (cpu/walk_avx512.c) and the grid's count, scan, scatter, sort and gather (cpu/grid.c),
 * each chosen at run time beside a portable path that
 * gives the same bits. Built by GCC on x86-64, the compiler their instruction counts were measured
 * with; the sanitizers' build keeps to the portable paths. */
#ifndef BOIDS_CPU_AVX512_H
#define BOIDS_CPU_AVX512_H

#include <stdbool.h>

#if defined(__x86_64__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define BOIDS_CPU_AVX512 1
/* A function in those instruction sets (arch=x86-64-v4, as the SIMD clones'), and one always
 * inlined into such a function. */
#define BOIDS_V4 __attribute__((target("arch=x86-64-v4")))
#define BOIDS_V4_INLINE static inline __attribute__((always_inline, target("arch=x86-64-v4")))
/* Whether this processor runs them. */
static inline bool boids_cpu_has_avx512(void) { return __builtin_cpu_supports("x86-64-v4"); }
/* Whether the backend takes each where it can (default true): tests turn them off to hold each
 * equal to its portable path (test_avx512). */
extern bool boids_cpu_walk_avx512_on, boids_cpu_count_avx512_on, boids_cpu_scan_avx512_on,
    boids_cpu_scatter_avx512_on, boids_cpu_sort_avx512_on, boids_cpu_gather_avx512_on;
#else
#define BOIDS_CPU_AVX512 0
#endif

#endif
