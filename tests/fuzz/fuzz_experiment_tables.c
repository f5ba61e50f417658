/* What `boids experiment --resume` reads, on any bytes: a directory holding a fixed manifest (a
 * kit experiment of 6 runs in 2 combinations, metrics every 50 steps) and a fuzzed runs.csv, the
 * fuzzed bytes split at a 0xFF byte into runs.csv, events.csv and metrics.csv. The tables are
 * accepted (every row checked and kept, or dropped as an unfinished run's) or refused naming the
 * file; never a crash, a leak or an endless loop; and what they keep stays consistent: a run done
 * has its runs.csv row. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/experiment/files.h"
#include "base/error.h"
#include "fuzz.h"

static const char manifest[] =
    "version = " BOIDS_VERSION_STRING "\n"
    "backend = cpu\nruns = 3\nseed = 1\nsteps = 200\nmetrics_every = 50\n"
    "sweep = c_maxspeed=0,200\nmodel = kit\nboids = 35\n";

static void put(const char *dir, const char *name, const uint8_t *data, size_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(data, 1, size, f);
    fclose(f);
}

static void clear(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        char path[512];
        if (e->d_name[0] == '.' && (!e->d_name[1] || e->d_name[1] == '.')) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d) closedir(d);
}

/* The manifest as the program writes it, fingerprint included: the fixed text above read, then
 * written whole (a manifest without its fingerprint is refused). */
static size_t written_manifest(const char *dir, char *out, size_t cap)
{
    static boids_experiment e;
    put(dir, "manifest.ini", (const uint8_t *)manifest, sizeof manifest - 1);
    if (boids_exp_manifest_parse(dir, &e) != BOIDS_OK) abort();
    snprintf(e.command, sizeof e.command, "boids experiment kit --runs 3 (the fuzzer's)");
    snprintf(e.renderer, sizeof e.renderer, "CPU reference");
    if (boids_exp_manifest_write(dir, &e) != BOIDS_OK) abort();
    free(e.obstacles);
    char path[512];
    snprintf(path, sizeof path, "%s/manifest.ini", dir);
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(out, 1, cap, f) : 0;
    if (f) fclose(f);
    if (n == 0 || n == cap) abort();
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char dir[256], whole[16384];
    static size_t whole_len;
    static boids_experiment e;
    if (!dir[0]) snprintf(dir, sizeof dir, "%s/boids-fuzz-exp-%ld", fuzz_tmp_dir(), (long)getpid());
    mkdir(dir, 0777);
    clear(dir);
    if (!whole_len) {
        whole_len = written_manifest(dir, whole, sizeof whole);
        clear(dir);
    }
    put(dir, "manifest.ini", (const uint8_t *)whole, whole_len);
    static const char *const names[3] = {"runs.csv", "events.csv", "metrics.csv"};
    size_t at = 0;
    for (int k = 0; k < 3; ++k) { /* the parts between 0xFF bytes */
        const uint8_t *end = at < size ? memchr(data + at, 0xFF, size - at) : NULL;
        size_t len = end ? (size_t)(end - (data + at)) : size - at;
        put(dir, names[k], data + at, at < size ? len : 0);
        at += len + 1;
    }
    if (boids_exp_manifest_read(dir, &e) != BOIDS_OK) { /* the fixed manifest reads */
        fprintf(stderr, "%s\n", boids_last_error());
        abort();
    }
    boids_exp_tables t;
    if (boids_exp_tables_open(&t, dir, &e, true) == BOIDS_OK) {
        for (uint64_t r = 0; r < boids_experiment_total(&e); ++r)
            if (t.done[r] && t.done_count == 0) abort();
        boids_exp_tables_finish(&t);
    } else {
        free(t.done);
    }
    free(e.obstacles);
    e.obstacles = NULL;
    return 0;
}
