/* ensemble: tests/ensemble.h for the shell tests, so that they compare a GPU run with the CPU's
 * ensemble by the same rule as the C tests.
 *
 *   ensemble check WHAT SLACK G C1 C2 ...  one run's statistic G against the CPU ensemble C1..Ck
 *   ensemble same WHAT SLACK G1 .. -- C1 ..  two ensembles' means (the GPU's runs, the CPU's)
 *
 * SLACK is a number, or the kind of metric whose rounding it is (test_metric_slack):
 * polarization, measure (a distance or a speed) or count.
 *
 * check and same print the derivation and exit 0 when the statistic is within the spread, 1 when
 * it is beyond; 2 on bad usage. */
#include <stdlib.h>
#include <string.h>

#include "ensemble.h"

static int usage(void)
{
    fprintf(stderr, "usage: ensemble check WHAT SLACK GPU CPU1 CPU2 ...\n"
                    "       ensemble same WHAT SLACK GPU1 GPU2 ... -- CPU1 CPU2 ...\n");
    return 2;
}

static int number(const char *text, double *out)
{
    char *end;
    *out = strtod(text, &end);
    if (end == text || *end || !isfinite(*out)) {
        fprintf(stderr, "ensemble: '%s' is not a number\n", text);
        return 0;
    }
    return 1;
}

/* argv[0..n) as numbers into v (at most TEST_ENSEMBLE_MAX). */
static int numbers(char **argv, int n, double *v)
{
    if (n < 1 || n > TEST_ENSEMBLE_MAX) {
        fprintf(stderr, "ensemble: %d values (1 to %d)\n", n, TEST_ENSEMBLE_MAX);
        return 0;
    }
    for (int i = 0; i < n; ++i)
        if (!number(argv[i], &v[i])) return 0;
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 6) return usage();
    double slack, g[TEST_ENSEMBLE_MAX], c[TEST_ENSEMBLE_MAX];
    const bool by_kind = test_metric_slack(argv[3], 0) >= 0;
    if (!by_kind && !number(argv[3], &slack)) return 2;
    if (strcmp(argv[1], "check") == 0) {
        const int k = argc - 5;
        if (!numbers(argv + 4, 1, g) || !numbers(argv + 5, k, c)) return 2;
        const test_sample cpu = test_sample_of(c, k);
        if (by_kind) slack = test_metric_slack(argv[3], cpu.mean);
        return test_in_spread(argv[2], g[0], cpu, slack) ? 0 : 1;
    }
    if (by_kind) {
        fprintf(stderr, "ensemble: same takes a number for SLACK\n");
        return 2;
    }
    if (strcmp(argv[1], "same") == 0) {
        int sep = 4;
        while (sep < argc && strcmp(argv[sep], "--") != 0) ++sep;
        const int ng = sep - 4, nc = argc - sep - 1;
        if (sep == argc || !numbers(argv + 4, ng, g) || !numbers(argv + sep + 1, nc, c))
            return usage();
        return test_same_mean(argv[2], test_sample_of(g, ng), test_sample_of(c, nc), slack) ? 0 : 1;
    }
    return usage();
}
