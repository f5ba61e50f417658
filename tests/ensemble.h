/* Comparing a flock's statistics after many steps honestly: against the spread of the CPU's own
 * ensemble, with a bound derived from that spread.
 *
 * Why. A real GPU contracts a * b + c into fused multiply-adds and approximates division and
 * square root, so its trajectories part from the CPU's within a few hundred steps: boid dynamics
 * are chaotic. One ulp of difference a step changes a flock's polarization after 500 steps by
 * 10-45 %. A statistic after many steps therefore has a spread, and a GPU's run differs from the
 * CPU's run of the same world by about that spread; a fixed bound (2 %, 3 %) fails on every real
 * GPU, or, compared only with identical runs, tests nothing.
 *
 * The model. The CPU runs the same world from K seeds: member 0 from the GPU run's own seed (the
 * same start: where the GPU rounds as IEEE does, the same run), member m from seed + m. The GPU's
 * run is taken as one more draw from the distribution these runs sample. If the statistic is
 * normal across the ensemble, (g - mean) / (s sqrt(1 + 1/K)) then follows Student's t with K - 1
 * degrees of freedom (the prediction interval of one new observation), and the check
 *
 *     |g - mean| <= t(K - 1) * s * sqrt(1 + 1/K) + slack
 *
 * with t the two-sided quantile of alpha = 1e-4 fails a right GPU with probability 1e-4: the
 * hundred-odd such checks of the suite on a real GPU give about one chance in a hundred of one
 * false alarm. `slack` is what one state's rounding alone may change (a statistic whose ensemble
 * has no spread, as a speed held at its limit, must still allow the GPU's ulps); each caller
 * states its own.
 *
 * Two ensembles (runs of the GPU's own, as a world's replicas or an experiment's seeds, against
 * the CPU's) compare their means by Welch's t: |mean_g - mean_c| <= t(nu) * sqrt(s_g^2 / n_g +
 * s_c^2 / n_c) + slack, nu from the Welch-Satterthwaite formula (rounded down: conservative).
 *
 * Why seeds, not one start nudged by an ulp (the other reading of "the same world perturbed"):
 * where a flock is weakly chaotic and driven by the rounding noise of every step, an ulp at the
 * start parts the runs far less than a GPU's rounding at every step does. Measured on kit-flock's
 * parameters (20000 boids, 500 steps): the mean nearest neighbour of 10 runs from nudged starts
 * spreads by 0.0006 px, of 10 seeds by 0.04 px, and the emulated GPU numerics land 0.065 px from
 * the unperturbed run: a bound from nudged starts cries wolf. A GPU run whose statistic differs
 * from the CPU's by no more than seeds differ is one a real GPU may give.
 *
 * Each test that uses these also shows that its check fails on a wrong rule (cohesion's sign
 * flipped, the separation radius a fifth short, ...) under the emulated GPU numerics too. */
#ifndef BOIDS_TEST_ENSEMBLE_H
#define BOIDS_TEST_ENSEMBLE_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The false-alarm probability of one check. */
#define TEST_ENSEMBLE_ALPHA 1e-4
/* Members a check may have (tests/ensemble_tool.c's limit too). */
#define TEST_ENSEMBLE_MAX 64

/* Student's t, two-sided quantile of TEST_ENSEMBLE_ALPHA (1 - 0.5e-4), for dof degrees of freedom;
 * scipy.stats.t.ppf(1 - 0.5e-4, dof) for dof = 1..60, then 4.025 (120) and 3.891 (the normal's). */
static inline double test_t_quantile(double dof)
{
    static const double t[60] = {
        6366.198, 99.992, 28.000, 15.544, 11.178, 9.082, 7.885, 7.120, 6.594, 6.211, 5.921, 5.694,
        5.513,    5.363,  5.239,  5.134,  5.044,  4.966, 4.897, 4.837, 4.784, 4.736, 4.693, 4.654,
        4.619,    4.587,  4.558,  4.530,  4.506,  4.482, 4.461, 4.441, 4.422, 4.405, 4.389, 4.374,
        4.359,    4.346,  4.333,  4.321,  4.309,  4.298, 4.288, 4.278, 4.269, 4.260, 4.252, 4.243,
        4.236,    4.228,  4.221,  4.214,  4.208,  4.202, 4.196, 4.190, 4.184, 4.179, 4.174, 4.169};
    if (!(dof >= 1)) return INFINITY;
    if (dof < 61) return t[(int)dof - 1]; /* rounded down: the larger quantile */
    return dof < 120 ? 4.169 : dof < 1e9 ? 4.025 : 3.891;
}

typedef struct test_sample {
    double mean, sd; /* sd: the sample standard deviation (n - 1) */
    int n;
} test_sample;

static inline test_sample test_sample_of(const double *v, int n)
{
    test_sample s = {0, 0, n};
    for (int i = 0; i < n; ++i) s.mean += v[i];
    s.mean = n ? s.mean / n : 0;
    for (int i = 0; i < n; ++i) s.sd += (v[i] - s.mean) * (v[i] - s.mean);
    s.sd = n > 1 ? sqrt(s.sd / (n - 1)) : 0;
    return s;
}

/* The slack of a metric (boids_metrics), one state's rounding: the GPU's and the CPU's metrics of
 * one state agree within 1e-4 in polarization and 1e-5 of a distance or a speed (test_metrics);
 * counts (alive, groups, catches) exactly. `kind`: "polarization", "measure" (a distance or a
 * speed, of about `mean`) or "count"; -1 for another word. */
static inline double test_metric_slack(const char *kind, double mean)
{
    if (!strcmp(kind, "polarization")) return 1e-4;
    if (!strcmp(kind, "measure")) return 1e-5 * fabs(mean);
    if (!strcmp(kind, "count")) return 0;
    return -1;
}

/* One run's statistic g against the CPU's ensemble: the check above, with its derivation printed
 * on one line. True when it holds. */
static inline bool test_in_spread(const char *what, double g, test_sample cpu, double slack)
{
    const double t = test_t_quantile(cpu.n - 1), widen = sqrt(1.0 + 1.0 / cpu.n);
    const double bound = t * cpu.sd * widen + slack, d = fabs(g - cpu.mean);
    const bool holds = d <= bound;
    printf("    %-14s gpu %-10.6g cpu %.6g +- %.3g (%d runs): |d| %.3g %s %.3g = t %.2f x sd x "
           "%.3f + slack %.3g\n",
           what, g, cpu.mean, cpu.sd, cpu.n, d, holds ? "<=" : "> ", bound, t, widen, slack);
    return holds;
}

/* Two ensembles' means (the GPU's runs, the CPU's): Welch's check above. True when it holds. */
static inline bool test_same_mean(const char *what, test_sample gpu, test_sample cpu, double slack)
{
    const double vg = gpu.sd * gpu.sd / gpu.n, vc = cpu.sd * cpu.sd / cpu.n, se = sqrt(vg + vc);
    /* Welch-Satterthwaite; with no spread on either side the bound is the slack alone */
    const double nu =
        vg + vc > 0 ? (vg + vc) * (vg + vc) / (vg * vg / (gpu.n - 1) + vc * vc / (cpu.n - 1)) : 1e9;
    const double t = test_t_quantile(floor(nu)), bound = t * se + slack;
    const double d = fabs(gpu.mean - cpu.mean);
    const bool holds = d <= bound;
    printf("    %-14s gpu %.6g +- %.3g (%d runs), cpu %.6g +- %.3g (%d runs): |d| %.3g %s %.3g = "
           "t(%.0f) %.2f x se %.3g + slack %.3g\n",
           what, gpu.mean, gpu.sd, gpu.n, cpu.mean, cpu.sd, cpu.n, d, holds ? "<=" : "> ", bound,
           nu, t, se, slack);
    return holds;
}

#endif
