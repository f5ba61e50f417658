/* The rules' helpers on the CPU's SIMD lanes (src/rules/common.h, src/rules/simd.h) against the
 * scalar helpers of the CPU's own walks and predators (src/cpu/steer.h, core/geometry.h): the
 * scalar twins (the view cone, the minimum image) are written apart, and the others are the
 * rules' own helpers on a lane of their own, where this checks that a lane's result does not
 * depend on what its neighbours hold. every
 * lane must be the scalar result bit for bit, for the values where the two could part: zeros of
 * both signs, subnormals, the squares' underflow and overflow (set_length's rescue path), the
 * largest floats; the speed limits; the view cone's cosine over its whole range; and the walks'
 * integer tests of distances and slot ranges. The lanes are computed in functions compiled for
 * every instruction set the library dispatches to (BOIDS_SIMD_CLONES), so this machine's own path
 * is the one checked. */
#include <float.h>
#include <stdint.h>

#include "cpu/steer.h"
#include "rules/common.h"
#include "rules/simd.h"
#include "test.h"

static const float values[] = {0.0f,     -0.0f, 1e-40f, -3e-39f,  1e-20f,  -1e-19f,
                               2.5e-10f, 1.0f,  -3.0f,  7.25f,    -123.5f, 1e18f,
                               -1.9e19f, 3e19f, 1e30f,  -FLT_MAX, FLT_MAX};
enum { NV = sizeof values / sizeof values[0] };

static int same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Lane l: set_length of (x[l], y[l]) to len where on[l], then limit to lim; and sqrt(x[l]^2),
 * min_image(x[l], y[l]) in a world of 1000 (half 500), and the broadcast of x[0]. */
BOIDS_SIMD_CLONES static void lanes(const float *x, const float *y, const int32_t *on, float len,
                                    float lim, float *sx, float *sy, float *qx, float *qy,
                                    float *root, float *img, float *splat)
{
    boids_vf vx, vy;
    boids_vi von;
    for (int l = 0; l < BOIDS_LANES; ++l) vx[l] = x[l], vy[l] = y[l], von[l] = on[l] ? -1 : 0;
    const lane_vec a = set_length_where(VEC(vx, vy, 0), boids_vf_all(len), von);
    const lane_vec b = limit_length(VEC(vx, vy, 0), boids_vf_all(lim));
    const boids_vf ax = a.x, ay = a.y, bx = b.x, by = b.y;
    const boids_vf r = boids_vsqrt(vx * vx), m = boids_vmin_image(vx, vy, 1000.0f, 500.0f);
    const boids_vf s = boids_vf_all(x[0]);
    for (int l = 0; l < BOIDS_LANES; ++l) {
        sx[l] = ax[l], sy[l] = ay[l], qx[l] = bx[l], qy[l] = by[l];
        root[l] = r[l], img[l] = m[l], splat[l] = s[l];
    }
}

static void test_lanes_equal_scalar(void)
{
    const float lens[] = {1.0f, 200.0f, 3e-30f};
    int pairs = 0, mismatches = 0;
    for (int li = 0; li < 3; ++li)
        for (int start = 0; start < NV * NV; start += BOIDS_LANES) {
            float x[BOIDS_LANES], y[BOIDS_LANES], sx[BOIDS_LANES], sy[BOIDS_LANES], qx[BOIDS_LANES],
                qy[BOIDS_LANES], root[BOIDS_LANES], img[BOIDS_LANES], splat[BOIDS_LANES];
            int32_t on[BOIDS_LANES];
            for (int l = 0; l < BOIDS_LANES; ++l) {
                const int k = (start + l) % (NV * NV);
                x[l] = values[k / NV], y[l] = values[k % NV], on[l] = (k + li) % 5 != 0;
            }
            lanes(x, y, on, lens[li], lens[li], sx, sy, qx, qy, root, img, splat);
            for (int l = 0; l < BOIDS_LANES; ++l) {
                float ex = x[l], ey = y[l];
                if (on[l]) boids_set_length(&ex, &ey, lens[li]);
                float lx = x[l], ly = y[l];
                boids_limit(&lx, &ly, lens[li]);
                const int ok = same_bits(sx[l], ex) && same_bits(sy[l], ey) &&
                               same_bits(qx[l], lx) && same_bits(qy[l], ly) &&
                               same_bits(root[l], sqrtf(x[l] * x[l])) &&
                               same_bits(img[l], boids_min_image(x[l], y[l], 1000.0f, 500.0f)) &&
                               same_bits(splat[l], x[0]);
                CHECK_MSG(ok,
                          "(%g, %g) len %g on %d: lanes (%a, %a) limit (%a, %a), scalar (%a, %a) "
                          "(%a, %a)",
                          (double)x[l], (double)y[l], (double)lens[li], on[l], (double)sx[l],
                          (double)sy[l], (double)qx[l], (double)qy[l], (double)ex, (double)ey,
                          (double)lx, (double)ly);
                mismatches += !ok;
                ++pairs;
            }
        }
    printf("  %d lanes against the scalar helpers, %d differ\n", pairs, mismatches);
}

/* Lane l: speed_limits of (x[l], y[l]) within [vmin, vmax]. */
BOIDS_SIMD_CLONES static void limits_lanes(const float *x, const float *y, float vmin, float vmax,
                                           float *ox, float *oy)
{
    boids_vf vx, vy;
    for (int l = 0; l < BOIDS_LANES; ++l) vx[l] = x[l], vy[l] = y[l];
    const lane_vec v = speed_limits(VEC(vx, vy, 0), boids_vf_all(vmin), boids_vf_all(vmax));
    for (int l = 0; l < BOIDS_LANES; ++l) ox[l] = v.x[l], oy[l] = v.y[l];
}

/* The speed limits on lanes equal boids_cpu_speed_limits bit for bit: every pair of the values
 * above (at rest, below v_min, between, above v_max, overflowing), for two speed ranges. */
static void test_speed_limits_lanes(void)
{
    const float ranges[][2] = {{1.0f, 200.0f}, {0.0f, 3e-30f}};
    int n = 0, mismatches = 0;
    for (int ri = 0; ri < 2; ++ri)
        for (int start = 0; start < NV * NV; start += BOIDS_LANES) {
            float x[BOIDS_LANES], y[BOIDS_LANES], ox[BOIDS_LANES], oy[BOIDS_LANES];
            for (int l = 0; l < BOIDS_LANES; ++l) {
                const int k = (start + l) % (NV * NV);
                x[l] = values[k / NV], y[l] = values[k % NV];
            }
            limits_lanes(x, y, ranges[ri][0], ranges[ri][1], ox, oy);
            for (int l = 0; l < BOIDS_LANES; ++l) {
                float ex = x[l], ey = y[l];
                boids_cpu_speed_limits(&ex, &ey, ranges[ri][0], ranges[ri][1]);
                const int ok = same_bits(ox[l], ex) && same_bits(oy[l], ey);
                CHECK_MSG(ok, "(%g, %g) in [%g, %g]: lanes (%a, %a), scalar (%a, %a)", (double)x[l],
                          (double)y[l], (double)ranges[ri][0], (double)ranges[ri][1], (double)ox[l],
                          (double)oy[l], (double)ex, (double)ey);
                mismatches += !ok;
                ++n;
            }
        }
    printf("  %d speed limits on lanes against boids_cpu_speed_limits, %d differ\n", n, mismatches);
}

/* Lane l: cos_deg of deg[l]. */
BOIDS_SIMD_CLONES static void cos_lanes(const float *deg, float *out)
{
    boids_vf d;
    for (int l = 0; l < BOIDS_LANES; ++l) d[l] = deg[l];
    const boids_vf c = cos_deg(d);
    for (int l = 0; l < BOIDS_LANES; ++l) out[l] = c[l];
}

/* The view cone's cosine on lanes equals boids_cos_deg bit for bit over [0, 180] (both sides of
 * its branch at 90), in steps of 1/64 degree, mixed in each vector. */
static void test_cos_deg_lanes(void)
{
    int n = 0, mismatches = 0;
    for (int start = 0; start <= 180 * 64; start += BOIDS_LANES) {
        float deg[BOIDS_LANES], out[BOIDS_LANES];
        for (int l = 0; l < BOIDS_LANES; ++l) {
            const int k = (start + l * 37) % (180 * 64 + 1); /* neighbours far apart in angle */
            deg[l] = (float)k / 64.0f;
        }
        cos_lanes(deg, out);
        for (int l = 0; l < BOIDS_LANES; ++l) {
            const float e = boids_cos_deg(deg[l]);
            const int ok = same_bits(out[l], e);
            CHECK_MSG(ok, "cos_deg(%g): lane %a, scalar %a", (double)deg[l], (double)out[l],
                      (double)e);
            mismatches += !ok;
            ++n;
        }
    }
    printf("  %d cosines on lanes against boids_cos_deg, %d differ\n", n, mismatches);
}

/* Lane l: whether d2[l] passes boids_vdist_key against the three bounds of r2[l] (below, up to,
 * and up to per lane), as masks. */
BOIDS_SIMD_CLONES static void dist_lanes(const float *d2, const float *r2, int32_t *below,
                                         int32_t *upto, int32_t *upto_lanes)
{
    boids_vf d, r;
    boids_vi b, u;
    for (int l = 0; l < BOIDS_LANES; ++l)
        d[l] = d2[l], r[l] = r2[l], b[l] = boids_dist_below(r2[l]), u[l] = boids_dist_upto(r2[l]);
    const boids_vi key = boids_vdist_key(d), mb = key < b, mu = key < u,
                   mv = key < boids_vdist_upto(r);
    for (int l = 0; l < BOIDS_LANES; ++l) below[l] = mb[l], upto[l] = mu[l], upto_lanes[l] = mv[l];
}

/* The squared distances' integer tests equal the float compares they stand for,
 * (d2 > 0) & (d2 < r2) and (d2 > 0) & (d2 <= r2), for every pair of squares (+0, subnormals,
 * neighbours of a radius, the largest floats, +inf, NaN) and radii (those, and -0, negatives
 * and NaN, which find nothing). */
static void test_distance_keys(void)
{
    static const float squares[] = {0.0f,       1e-45f,     3e-39f, 1e-30f,  0.5f,     2500.0f,
                                    2499.9998f, 2500.0002f, 1e20f,  FLT_MAX, INFINITY, NAN};
    static const float radii[] = {0.0f,    -0.0f,      -1.0f,   1e-45f,   3e-39f,
                                  2500.0f, 2499.9998f, FLT_MAX, INFINITY, NAN};
    enum { NS = sizeof squares / sizeof squares[0], NR = sizeof radii / sizeof radii[0] };
    int n = 0, mismatches = 0;
    for (int start = 0; start < NS * NR; start += BOIDS_LANES) {
        float d2[BOIDS_LANES], r2[BOIDS_LANES];
        int32_t below[BOIDS_LANES], upto[BOIDS_LANES], upto_lanes[BOIDS_LANES];
        for (int l = 0; l < BOIDS_LANES; ++l) {
            const int k = (start + l) % (NS * NR);
            d2[l] = squares[k / NR], r2[l] = radii[k % NR];
        }
        dist_lanes(d2, r2, below, upto, upto_lanes);
        for (int l = 0; l < BOIDS_LANES; ++l) {
            const int lt = d2[l] > 0.0f && d2[l]<r2[l], le = d2[l]> 0.0f && d2[l] <= r2[l];
            const int ok =
                (below[l] != 0) == lt && (upto[l] != 0) == le && (upto_lanes[l] != 0) == le;
            CHECK_MSG(ok, "d2 %g, r2 %g: below %d upto %d upto per lane %d, floats %d %d",
                      (double)d2[l], (double)r2[l], below[l], upto[l], upto_lanes[l], lt, le);
            mismatches += !ok;
            ++n;
        }
    }
    printf("  %d distance keys against the float compares, %d differ\n", n, mismatches);
}

/* Lane l: whether slots k0, k0 + 1, ... k0 + count - 1 lie in [begin[l], end[l]), one bit each,
 * counted as the walks count them. */
BOIDS_SIMD_CLONES static void slot_lanes(uint32_t k0, uint32_t count, const uint32_t *begin,
                                         const uint32_t *end, uint32_t *bits)
{
    boids_vu b, e;
    for (int l = 0; l < BOIDS_LANES; ++l) b[l] = begin[l], e[l] = end[l], bits[l] = 0;
    const boids_vi bound = boids_vslot_bound(b, e);
    boids_vu at = boids_vslot_from(k0, b);
    for (uint32_t k = 0; k < count; ++k, at += boids_vu_all(1)) {
        const boids_vi in = (boids_vi)at < bound;
        int32_t m[BOIDS_LANES];
        memcpy(m, &in, sizeof m);
        for (int l = 0; l < BOIDS_LANES; ++l) bits[l] |= (uint32_t)(m[l] & 1) << k;
    }
}

/* The slot test equals begin <= k < end for ranges before, around and after the slots walked,
 * empty ones, and ranges at 0 and near 2^31. */
static void test_slot_ranges(void)
{
    static const uint32_t bases[] = {0, 5, 1000, 0x7fffff00u};
    static const int32_t offs[][2] = {{0, 0},  {0, 1},   {0, 31},  {3, 3},   {3, 9},
                                      {-5, 2}, {-5, -1}, {10, 40}, {31, 32}, {-1, 40}};
    enum { NO = sizeof offs / sizeof offs[0] };
    int n = 0, mismatches = 0;
    for (size_t bi = 0; bi < sizeof bases / sizeof bases[0]; ++bi)
        for (int start = 0; start < NO; start += BOIDS_LANES) {
            const uint32_t k0 = bases[bi] + 8;
            uint32_t begin[BOIDS_LANES], end[BOIDS_LANES], bits[BOIDS_LANES];
            for (int l = 0; l < BOIDS_LANES; ++l) {
                const int o = (start + l) % NO;
                begin[l] = (uint32_t)((int64_t)k0 + offs[o][0]),
                end[l] = (uint32_t)((int64_t)k0 + offs[o][1]);
                if (end[l] < begin[l]) end[l] = begin[l];
            }
            slot_lanes(k0, 32, begin, end, bits);
            for (int l = 0; l < BOIDS_LANES; ++l)
                for (uint32_t k = 0; k < 32; ++k) {
                    const int in = k0 + k >= begin[l] && k0 + k < end[l],
                              got = (int)(bits[l] >> k & 1u);
                    CHECK_MSG(got == in, "slot %u in [%u, %u): %d, expected %d", k0 + k, begin[l],
                              end[l], got, in);
                    mismatches += got != in;
                    ++n;
                }
        }
    printf("  %d slot tests against begin <= k < end, %d differ\n", n, mismatches);
}

/* Lane l: in_view (rules/common.h) of heading (vx[l], vy[l]), offset (dx[l], dy[l]), cosine c[l].
 */
BOIDS_SIMD_CLONES static void view_lanes(const float *vx, const float *vy, const float *dx,
                                         const float *dy, const float *c, int32_t *out)
{
    boids_vf a, b, p, q, k;
    for (int l = 0; l < BOIDS_LANES; ++l)
        a[l] = vx[l], b[l] = vy[l], p[l] = dx[l], q[l] = dy[l], k[l] = c[l];
    const boids_vi in = in_view(VEC(a, b, 0), VEC(p, q, 0), p * p + q * q, k);
    for (int l = 0; l < BOIDS_LANES; ++l) out[l] = in[l];
}

/* The view cone on lanes decides as the scalar walks' boids_in_view: headings and offsets from
 * the values above (at rest, tiny, huge, both signs), against cones narrow and wide, through
 * the right angle and all around. */
static void test_in_view_lanes(void)
{
    const float cosines[] = {1.0f, 0.9f, 0.5f, 1e-7f, 0.0f, -0.3f, -0.99f, -1.0f};
    const float dirs[] = {0.0f, 1.0f, -1.0f, 0.25f, -3.5f, 1e-20f, 7e18f};
    enum { ND = sizeof dirs / sizeof dirs[0], NC = sizeof cosines / sizeof cosines[0] };
    int n = 0, mismatches = 0;
    const int total = ND * ND * ND * ND * NC;
    for (int start = 0; start < total; start += BOIDS_LANES) {
        float vx[BOIDS_LANES], vy[BOIDS_LANES], dx[BOIDS_LANES], dy[BOIDS_LANES], c[BOIDS_LANES];
        int32_t got[BOIDS_LANES];
        for (int l = 0; l < BOIDS_LANES; ++l) {
            int k = (start + l) % total;
            vx[l] = dirs[k % ND], k /= ND;
            vy[l] = dirs[k % ND], k /= ND;
            dx[l] = dirs[k % ND], k /= ND;
            dy[l] = dirs[k % ND], k /= ND;
            c[l] = cosines[k];
        }
        view_lanes(vx, vy, dx, dy, c, got);
        for (int l = 0; l < BOIDS_LANES; ++l) {
            const float d2 = dx[l] * dx[l] + dy[l] * dy[l];
            if (!(d2 > 0.0f)) continue; /* the walks ask only of offsets that are not zero */
            const bool want = boids_in_view(vx[l], vy[l], 0.0f, dx[l], dy[l], 0.0f, d2, c[l]);
            const bool ok = (got[l] != 0) == want;
            CHECK_MSG(ok, "v (%g, %g) d (%g, %g) c %g: lanes %d, scalar %d", (double)vx[l],
                      (double)vy[l], (double)dx[l], (double)dy[l], (double)c[l], got[l] != 0, want);
            mismatches += !ok;
            ++n;
        }
    }
    printf("  %d view cones on lanes against boids_in_view, %d differ\n", n, mismatches);
}

/* Lane l: noise (rules/common.h) of boid id[l], draw k, in a step of a world. */
BOIDS_SIMD_CLONES static void noise_lanes(uint32_t seed, uint32_t step, const uint32_t *id,
                                          uint32_t k, float *out)
{
    const boids_rules_ctx c = {.seed = seed, .step = step, .per_replica = 1u << 30}, *ctx = &c;
    boids_vu v;
    for (int l = 0; l < BOIDS_LANES; ++l) v[l] = id[l];
    const boids_vf r = noise(ctx, v, boids_vu_all(k));
    for (int l = 0; l < BOIDS_LANES; ++l) out[l] = r[l];
}

/* The rules' noise: a function of (seed, step, id, k) alone, whatever lane a boid is in; within
 * [0, 1) and uniform (16 bins, chi-square); and another seed, step, id or draw gives another
 * number. */
static void test_noise(void)
{
    enum { N = 1 << 16, BINS = 16 };
    int bins[BINS] = {0}, outside = 0, lane_moved = 0, same[4] = {0};
    for (uint32_t i = 0; i < N; i += BOIDS_LANES) {
        uint32_t id[BOIDS_LANES], rev[BOIDS_LANES];
        float r[BOIDS_LANES], back[BOIDS_LANES], other[4][BOIDS_LANES];
        for (int l = 0; l < BOIDS_LANES; ++l)
            id[l] = i + (uint32_t)l, rev[BOIDS_LANES - 1 - l] = id[l];
        noise_lanes(7, 42, id, 0, r);
        noise_lanes(7, 42, rev, 0, back);
        noise_lanes(8, 42, id, 0, other[0]);
        noise_lanes(7, 43, id, 0, other[1]);
        noise_lanes(7, 42, rev, 0, other[2]); /* another boid in each lane */
        noise_lanes(7, 42, id, 1, other[3]);
        for (int l = 0; l < BOIDS_LANES; ++l) {
            outside += !(r[l] >= 0.0f && r[l] < 1.0f);
            if (!outside) ++bins[(int)(r[l] * BINS)];
            lane_moved += !same_bits(r[l], back[BOIDS_LANES - 1 - l]);
            for (int o = 0; o < 4; ++o)
                same[o] += (o != 2 || id[l] != rev[l]) && same_bits(r[l], other[o][l]);
        }
    }
    double chi2 = 0.0, expect = (double)N / BINS;
    for (int b = 0; b < BINS; ++b) chi2 += (bins[b] - expect) * (bins[b] - expect) / expect;
    printf("  %d draws: %d outside [0, 1), chi-square %.1f over %d bins, %d change with the lane; "
           "equal draws for another seed %d, step %d, boid %d, k %d\n",
           N, outside, chi2, BINS, lane_moved, same[0], same[1], same[2], same[3]);
    CHECK(outside == 0);
    CHECK(lane_moved == 0);
    CHECK(chi2 < 37.7); /* p = 0.001 for 15 degrees of freedom */
    for (int o = 0; o < 4; ++o) CHECK(same[o] < N / 1000);
}

/* The rules' wrap of the torus (wrap_coord, the step's edges) is the host's boids_wrap (initial
 * states, the tool) lane by lane, bit for bit: one size off, far outside, and the rounding that
 * lands a tiny negative x + size on size itself. */
BOIDS_SIMD_CLONES static void wrap_lanes(const float *x, float size, float *out)
{
    boids_vf v;
    for (int l = 0; l < BOIDS_LANES; ++l) v[l] = x[l];
    const boids_vf w = wrap_coord(v, boids_vf_all(size));
    for (int l = 0; l < BOIDS_LANES; ++l) out[l] = w[l];
}

static void test_wrap_lanes(void)
{
    static const float xs[] = {0.0f,    -0.0f,    -1e-9f,  640.0f,  639.99994f, -10.0f, 650.0f,
                               5000.5f, -5000.5f, 1279.0f, -641.0f, 2e7f,       -2e7f,  1e30f,
                               1e-40f,  320.0f,   -640.0f, 1280.0f, 3e-39f,     -1e-30f};
    enum { N = sizeof xs / sizeof xs[0] };
    const float sizes[] = {640.0f, 1.0f, 2.0e7f};
    int mismatches = 0, checked = 0;
    for (int si = 0; si < 3; ++si)
        for (int start = 0; start < N; start += BOIDS_LANES) {
            float x[BOIDS_LANES], out[BOIDS_LANES];
            for (int l = 0; l < BOIDS_LANES; ++l) x[l] = xs[(start + l) % N];
            wrap_lanes(x, sizes[si], out);
            for (int l = 0; l < BOIDS_LANES && start + l < N; ++l, ++checked) {
                const float want = boids_wrap(x[l], sizes[si]);
                if (!same_bits(out[l], want) || !(out[l] >= 0.0f && out[l] < sizes[si])) {
                    ++mismatches;
                    printf("  wrap(%g, %g): lanes %.9g, boids_wrap %.9g\n", x[l], sizes[si], out[l],
                           want);
                }
            }
        }
    printf("  %d wraps, lanes against boids_wrap: %d differ\n", checked, mismatches);
    CHECK(mismatches == 0 && checked == 3 * N);
}

TEST_MAIN(TEST(test_noise), TEST(test_wrap_lanes), TEST(test_in_view_lanes),
          TEST(test_lanes_equal_scalar), TEST(test_speed_limits_lanes), TEST(test_cos_deg_lanes),
          TEST(test_distance_keys), TEST(test_slot_ranges))
