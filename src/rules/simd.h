/* SIMD across boids, from one source: GCC's vector extensions, 8 lanes of float, each lane one
 * boid. A function that uses them is compiled for several instruction sets and chosen at run time
 * (BOIDS_SIMD_CLONES: AVX-512, AVX2, and the baseline SSE2, where 8 lanes are two registers), so
 * the binary runs anywhere and never needs -march=native. Every lane performs the scalar code's
 * operations in the scalar code's order (and the library is built without FMA contraction), so a
 * lane's result is the scalar result, bit for bit. */
#ifndef BOIDS_RULES_SIMD_H
#define BOIDS_RULES_SIMD_H

#include <stdint.h>

#define BOIDS_VINLINE static inline __attribute__((always_inline))
/* The next loop fully unrolled (a short one over a constant count), so its index is a constant
 * in each copy. */
#define BOIDS_UNROLL _Pragma("GCC unroll 16")
#if defined(__clang__)
/* clang (the fuzz build) refuses 32-byte vectors by value where AVX is off, inlined or not: 4
 * lanes there (one SSE register; a lane's result does not depend on how many lanes there are). */
#define BOIDS_LANES 4
#else
/* The helpers take and return vectors: where AVX is off that is another ABI, which only matters
 * across a call, and these are always inlined. */
#pragma GCC diagnostic ignored "-Wpsabi"
#define BOIDS_LANES 8
#endif
typedef float boids_vf __attribute__((vector_size(4 * BOIDS_LANES)));
typedef int32_t boids_vi __attribute__((vector_size(4 * BOIDS_LANES)));
typedef uint32_t boids_vu __attribute__((vector_size(4 * BOIDS_LANES)));

#if defined(__x86_64__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define BOIDS_SIMD_CLONES                                                                          \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define BOIDS_SIMD_CLONES
#endif

/* x in every lane: one broadcast. Macros, not inline functions: a helper is compiled for the
 * baseline target before it is inlined into a clone, and there GCC builds the vector from
 * inserts, one lane at a time. (And not 0 + x, an addition, which turns -0 into +0.) */
#if BOIDS_LANES == 8
#define BOIDS_SPLAT(x)                                                                             \
    {                                                                                              \
        x, x, x, x, x, x, x, x                                                                     \
    }
#else
#define BOIDS_SPLAT(x)                                                                             \
    {                                                                                              \
        x, x, x, x                                                                                 \
    }
#endif
#define boids_vf_all(x) ((boids_vf)BOIDS_SPLAT((float)(x)))
#define boids_vu_all(x) ((boids_vu)BOIDS_SPLAT((uint32_t)(x)))

/* a[0..n) in the first n lanes, `fill` in the others: a lane group's own values. A group short of
 * BOIDS_LANES builds its vector lane by lane from a[0..n) alone (lane l past n reads a[0], then
 * takes fill), every index a constant: written as a loop to n, GCC made it a call to memcpy into
 * the stack and a load that waited on those stores. */
BOIDS_VINLINE boids_vf boids_vf_load(const float *a, uint32_t n, float fill)
{
    boids_vf v;
    if (n == BOIDS_LANES) { /* a full group: one unaligned load, not a call to memcpy */
        __builtin_memcpy(&v, a, sizeof v);
        return v;
    }
    BOIDS_UNROLL
    for (uint32_t l = 0; l < BOIDS_LANES; ++l) v[l] = l < n ? a[l < n ? l : 0] : fill;
    return v;
}
BOIDS_VINLINE boids_vu boids_vu_load(const uint32_t *a, uint32_t n, uint32_t fill)
{
    boids_vu v;
    if (n == BOIDS_LANES) {
        __builtin_memcpy(&v, a, sizeof v);
        return v;
    }
    BOIDS_UNROLL
    for (uint32_t l = 0; l < BOIDS_LANES; ++l) v[l] = l < n ? a[l < n ? l : 0] : fill;
    return v;
}

/* The first n lanes of v to a[0..n). */
BOIDS_VINLINE void boids_vf_store(float *a, uint32_t n, boids_vf v)
{
    if (n == BOIDS_LANES) {
        __builtin_memcpy(a, &v, sizeof v);
        return;
    }
    /* (constant indices: as boids_vf_load, no memcpy from the stack) */
    BOIDS_UNROLL
    for (uint32_t l = 0; l < BOIDS_LANES; ++l) {
        if (l < n) a[l] = v[l];
    }
}

/* |x| lane by lane, as fabsf: the sign bit cleared. */
BOIDS_VINLINE boids_vf boids_vabs(boids_vf x)
{
    return (boids_vf)((boids_vi)x & (boids_vi)boids_vu_all(0x7fffffffu));
}

/* x where the mask lane is all ones, +0.0 where it is 0 (as boids_mask). */
BOIDS_VINLINE boids_vf boids_vmask(boids_vf x, boids_vi m) { return (boids_vf)((boids_vi)x & m); }
/* a where the mask lane is all ones, else b. */
BOIDS_VINLINE boids_vf boids_vselect(boids_vi m, boids_vf a, boids_vf b)
{
    return (boids_vf)(((boids_vi)a & m) | ((boids_vi)b & ~m));
}
/* boids_min_image, lane by lane. */
BOIDS_VINLINE boids_vf boids_vmin_image(boids_vf a, boids_vf b, float size, float half)
{
    boids_vf d = b - a;
    boids_vf vs = boids_vf_all(size), vh = boids_vf_all(half);
    return boids_vselect(d > vh, d - vs, boids_vselect(d < -vh, d + vs, d));
}

/* A squared distance's range tests as one integer compare each. For x >= +0 (a sum of squares:
 * never negative, never -0) the bits of x, read as an unsigned integer, order as x does, with +inf
 * and NaN above every finite value. So (d2 > 0) & (d2 < r2) is (bits(d2) - 1) < (bits(r2) - 1),
 * unsigned; both sides moved down by 2^31 make it a signed compare, which every instruction set
 * has: boids_vdist_key(d2) < boids_dist_below(r2). The key of 0 is the largest int, below no
 * bound, so the test leaves out the boid itself and coincident boids, as d2 > 0 does; a NaN d2's
 * key is below no bound either. A bound that nothing is below stands for r2 <= 0 or NaN, where
 * the float compares find nothing. test_simd checks both against the float compares. */
BOIDS_VINLINE boids_vi boids_vdist_key(boids_vf d2)
{
    return (boids_vi)((boids_vu)d2 + boids_vu_all(0x7fffffffu));
}
/* The bound for (d2 > 0) & (d2 < r2) (bias 2^31 - 1), and for (d2 > 0) & (d2 <= r2) (2^31). */
static inline int32_t boids_dist_bound(float r2, uint32_t bias)
{
    uint32_t b;
    __builtin_memcpy(&b, &r2, sizeof b);
    return r2 > 0.0f ? (int32_t)(b + bias) : INT32_MIN;
}
static inline int32_t boids_dist_below(float r2) { return boids_dist_bound(r2, 0x7fffffffu); }
static inline int32_t boids_dist_upto(float r2) { return boids_dist_bound(r2, 0x80000000u); }

/* boids_dist_upto, lane by lane (a bound per lane). */
BOIDS_VINLINE boids_vi boids_vdist_upto(boids_vf r2)
{
    const boids_vi b = (boids_vi)((boids_vu)r2 + boids_vu_all(0x80000000u));
    return (boids_vi)boids_vselect(r2 > boids_vf_all(0.0f), (boids_vf)b,
                                   (boids_vf)boids_vu_all(0x80000000u));
}

/* Slot k within [begin, end) as one signed compare, for k counted up one candidate at a time:
 * (boids_vi)at < boids_vslot_bound(begin, end), where at = boids_vslot_from(k0, begin) gains 1 per
 * candidate after k0 (unsigned, so its wrap is defined). (k - begin) < (end - begin) unsigned is
 * the test (a k below begin wraps to a large offset); both sides moved down by 2^31 make it
 * signed. An empty range (end = begin) holds nothing. */
BOIDS_VINLINE boids_vu boids_vslot_from(uint32_t k0, boids_vu begin)
{
    return boids_vu_all(k0) - begin + boids_vu_all(0x80000000u);
}
BOIDS_VINLINE boids_vi boids_vslot_bound(boids_vu begin, boids_vu end)
{
    return (boids_vi)(end - begin + boids_vu_all(0x80000000u));
}

/* v's lanes in the order idx names them: lane l takes v[idx[l]] (idx[l] < BOIDS_LANES). One
 * permute where the instruction set has it (AVX2's vpermd). */
BOIDS_VINLINE boids_vu boids_vu_permute(boids_vu v, boids_vu idx)
{
#if defined(__clang__) /* (no __builtin_shuffle) */
    boids_vu r;
    for (uint32_t l = 0; l < BOIDS_LANES; ++l) r[l] = v[idx[l] % BOIDS_LANES];
    return r;
#else
    return __builtin_shuffle(v, idx);
#endif
}

/* Whether any lane of mask m is set (one OR across the lanes). */
BOIDS_VINLINE int boids_vany(boids_vi m)
{
    uint64_t w[sizeof m / 8];
    __builtin_memcpy(w, &m, sizeof m);
    uint64_t any = 0;
    for (unsigned k = 0; k < sizeof m / 8; ++k) any |= w[k];
    return any != 0;
}

/* sqrt lane by lane: IEEE's correctly rounded square root, so each lane is sqrtf's bits (the
 * library is built with -fno-math-errno, so this becomes one vector instruction). */
BOIDS_VINLINE boids_vf boids_vsqrt(boids_vf x)
{
    for (int l = 0; l < BOIDS_LANES; ++l) x[l] = __builtin_sqrtf(x[l]);
    return x;
}

/* floor lane by lane (floorf's bits). Only the edges' rare far-outside wrap takes it. */
BOIDS_VINLINE boids_vf boids_vfloor(boids_vf x)
{
    for (int l = 0; l < BOIDS_LANES; ++l) x[l] = __builtin_floorf(x[l]);
    return x;
}

#endif
