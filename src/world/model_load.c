/* Loading a model folder at run time (boids_model_load): a folder of the same form as a built-in
 * one (src/models/<folder>/: model.h, rules.h) from anywhere, with no rebuild.
 *
 * The CPU: the folder's model.h and rules.h are compiled, with the system's C compiler ($BOIDS_CC,
 * else cc) and the flags the library's own rules have (no FMA contraction, so the two backends
 * agree bit for bit; the SIMD lanes' instruction sets chosen at run time by target clones), into
 * a shared object whose one export is its manifest (core/loaded.h): three generated units, the
 * rules for flat worlds, for 3D ones, and the manifest. The object is cached in the user's own
 * directory ($XDG_CACHE_HOME/boids/models, else ~/.cache/boids/models: created 0700, refused if
 * another user owns it or others may write to it, so nobody can plant a library there), under a
 * key of everything it was made from: the folder's files, the compiler and its flags, and the
 * library itself (its version and its file's size and time). An edited folder is compiled anew;
 * an unchanged one is loaded from the cache.
 *
 * The GPU: its steering program is made from the same rules.h (gpu/steer_source.c) and compiled
 * by the driver when a world first runs the model, as a built-in model's is.
 *
 * The model is then registered as the built-in ones are (core/models.c): its manifest row, its
 * parameters by name (core/params.c), its CPU rules (cpu/cpu_backend.c), its program. A process
 * loads a folder once; loading it again returns the same models. */
#define _GNU_SOURCE /* dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/digest.h"
#include "base/error.h"
#include "base/interrupt.h"
#include "core/models.h"
#include "cpu/cpu_backend.h"
#include "cpu/loaded.h"
#include "gpu/steer_source.h"

extern char **environ;

/* The flags of the library's own rules (src/CMakeLists.txt), and those of a shared object. */
static const char *const cc_flags[] = {"-std=c17", "-O3", "-DNDEBUG",
                                       "-DBOIDS_INTERNAL", /* the library's own view */
                                       "-fPIC", "-fvisibility=hidden", "-ffp-contract=off",
                                       "-fno-trapping-math", "-fno-math-errno", "-Wno-psabi",
                                       /* (else a call to no function compiles, and the
                                          load fails later on an undefined symbol: no line) */
                                       "-Werror=implicit-function-declaration", NULL};

/* The folders loaded in this process. */
typedef struct loaded_folder {
    char path[1024];
    uint64_t key;
    boids_model first;
    int models;
} loaded_folder;
static loaded_folder folders[BOIDS_LOADED_MAX];
static int folder_count;
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

/* snprintf, for paths: the folder's is at most FOLDER_MAX long (boids_model_load), so the
 * buffers, sized for it, hold every path made of it. */
#define FOLDER_MAX 700
static void fmt(char *out, size_t size, const char *f, ...) BOIDS_PRINTF(3, 4);
static void fmt(char *out, size_t size, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    vsnprintf(out, size, f, ap);
    va_end(ap);
}

/* ---- the key ----------------------------------------------------------------------------------
 */

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds the folder's files (every regular file, by name, in name order: the rules may include any
 * of them) to the key; fails naming a file it cannot read. */
static boids_status hash_folder(const char *dir, uint64_t *h)
{
    DIR *d = opendir(dir);
    if (!d)
        return boids_fail_file(BOIDS_E_MODEL_FOLDER, dir, 0, "cannot open: %s", strerror(errno));
    char *names[256];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;)
        if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    boids_status st = BOIDS_OK;
    for (int i = 0; i < n; ++i) {
        char path[1280];
        fmt(path, sizeof path, "%s/%s", dir, names[i] ? names[i] : "");
        struct stat sb;
        if (st != BOIDS_OK || !names[i] || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) continue;
        FILE *f = fopen(path, "rb");
        if (!f) {
            st = boids_fail_file(BOIDS_E_MODEL_FOLDER, path, 0, "cannot read: %s", strerror(errno));
            continue;
        }
        *h = boids_digest_text(*h, names[i]);
        char buf[8192];
        for (size_t got; (got = fread(buf, 1, sizeof buf, f)) > 0;) *h = boids_digest(*h, buf, got);
        fclose(f);
    }
    for (int i = 0; i < n; ++i) free(names[i]);
    return st;
}

/* The library's own file (the program, or libboids.so): its size and time go into the key, so a
 * rebuilt library compiles its loaded models anew. */
static uint64_t hash_library(uint64_t h)
{
    Dl_info info;
    struct stat sb;
    h = boids_digest_text(h, BOIDS_VERSION_STRING);
    if (dladdr((void *)boids_model_load, &info) && info.dli_fname &&
        stat(info.dli_fname, &sb) == 0) {
        h = boids_digest(h, &sb.st_size, sizeof sb.st_size);
        h = boids_digest(h, &sb.st_mtim, sizeof sb.st_mtim);
    }
    return h;
}

/* ---- where things are -------------------------------------------------------------------------
 */

/* The cache directory (made 0700 where missing), refused where another user owns it or others
 * may write to it. */
static boids_status cache_dir(char *out, size_t size)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char base[1024];
    if (xdg && xdg[0] == '/')
        fmt(base, sizeof base, "%s/boids", xdg);
    else if (home && home[0] == '/')
        fmt(base, sizeof base, "%s/.cache/boids", home);
    else
        return boids_fail(BOIDS_E_MODEL_CACHE, "no cache directory for compiled models: set "
                                               "XDG_CACHE_HOME or HOME to an absolute path");
    fmt(out, size, "%s/models", base);
    char parent[1024];
    fmt(parent, sizeof parent, "%s", base);
    char *slash = strrchr(parent, '/');
    if (slash && slash != parent) { /* ~/.cache itself, where missing */
        *slash = '\0';
        mkdir(parent, 0700);
    }
    mkdir(base, 0700);
    if (mkdir(out, 0700) != 0 && errno != EEXIST)
        return boids_fail_file(BOIDS_E_MODEL_CACHE, out, 0, "cannot make the cache directory: %s",
                               strerror(errno));
    struct stat sb;
    if (lstat(out, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return boids_fail_file(BOIDS_E_MODEL_CACHE, out, 0, "the cache is not a directory");
    if (sb.st_uid != getuid() || (sb.st_mode & 022))
        return boids_fail_file(BOIDS_E_MODEL_CACHE, out, 0,
                               "the cache directory is %s: compiled models are loaded only from a "
                               "directory of the user's own (chmod go-w, or set XDG_CACHE_HOME)",
                               sb.st_uid != getuid() ? "another user's" : "writable by others");
    return BOIDS_OK;
}

/* The C compiler: $BOIDS_CC, else cc, found on PATH (a name with a slash is taken as it is). */
static boids_status find_compiler(char *out, size_t size)
{
    const char *cc = getenv("BOIDS_CC");
    if (!cc || !cc[0]) cc = "cc";
    if (strchr(cc, '/')) {
        fmt(out, size, "%s", cc);
        if (access(out, X_OK) == 0) return BOIDS_OK;
    } else {
        const char *path = getenv("PATH");
        for (const char *p = path ? path : "/usr/bin:/bin"; p && *p;) {
            const char *end = strchr(p, ':');
            const int n = end ? (int)(end - p) : (int)strlen(p);
            fmt(out, size, "%.*s/%s", n, p, cc);
            if (n > 0 && access(out, X_OK) == 0) return BOIDS_OK;
            p = end ? end + 1 : NULL;
        }
    }
    return boids_fail_key(BOIDS_E_MODEL_COMPILER, "BOIDS_CC",
                          "no C compiler found (%s, on PATH): a loaded model's CPU rules are "
                          "compiled when it is first loaded; install one (apt-get install gcc) "
                          "or name it in BOIDS_CC (one program, a name or a path, no flags)",
                          cc);
}

/* The library's headers the folder's units include, as -I flags: those installed beside it
 * (PREFIX/share/boids/include: src/'s headers, shaders/ and models/, which holds the list of the
 * folders), else, for a program run from its build, the source tree's it was built from
 * (BOIDS_LOADED_INCLUDES: src/, shaders/ and the build's model_folders/, separated by ':'). */
#define HEADER_DIRS 3
static boids_status header_dirs(char dirs[HEADER_DIRS][1100])
{
    struct stat sb;
    Dl_info info;
    char lib[1024] = ".";
    if (dladdr((void *)boids_model_load, &info) && info.dli_fname) {
        fmt(lib, sizeof lib, "%s", info.dli_fname);
        char *slash = strrchr(lib, '/');
        if (slash) *slash = '\0';
    }
    const char *sub[HEADER_DIRS] = {"", "/shaders", "/models"};
    for (int i = 0; i < HEADER_DIRS; ++i)
        fmt(dirs[i], sizeof dirs[i], "-I%s/../share/boids/include%s", lib, sub[i]);
    if (stat(dirs[0] + 2, &sb) == 0) return BOIDS_OK;
    char installed[1100];
    fmt(installed, sizeof installed, "%s", dirs[0] + 2);
#ifdef BOIDS_LOADED_INCLUDES
    bool all = true;
    const char *p = BOIDS_LOADED_INCLUDES;
    for (int i = 0; i < HEADER_DIRS; ++i) {
        const char *end = strchr(p, ':');
        const int n = end ? (int)(end - p) : (int)strlen(p);
        fmt(dirs[i], sizeof dirs[i], "-I%.*s", n, p);
        all &= stat(dirs[i] + 2, &sb) == 0;
        p = end ? end + 1 : p + n;
    }
    if (all) return BOIDS_OK;
#endif
    return boids_fail(BOIDS_E_MODEL_COMPILER,
                      "the library's headers for compiling a model were not found (%s): "
                      "reinstall boids",
                      installed);
}

/* ---- compiling --------------------------------------------------------------------------------
 */

/* Writes one generated unit: the folder's model.h, and its blocks as BOIDS_LOADED_BLOCKS
 * (core/manifest.h) where it has any, then body (a format); false where it cannot. */
static bool write_unit(const char *path, const char *dir, const char *up, int dims,
                       const char *body, ...) BOIDS_PRINTF(5, 6);
static bool write_unit(const char *path, const char *dir, const char *up, int dims,
                       const char *body, ...)
{
    FILE *f = fopen(path, "w");
    if (!f) return false;
    fprintf(f,
            "/* Generated by boids_model_load (src/world/model_load.c) for %s: do not edit. */\n"
            "#define BOIDS_DIMS %d\n#include \"%s/model.h\"\n"
            "#ifndef BOIDS_MODELS_%s\n#error \"%s/model.h defines no BOIDS_MODELS_%s(M), the "
            "folder's manifest rows\"\n#endif\n"
            "#ifdef BOIDS_BLOCKS_%s\n#define BOIDS_LOADED_BLOCKS(X) BOIDS_BLOCKS_%s(X)\n#endif\n",
            dir, dims, dir, up, dir, up, up, up);
    va_list ap;
    va_start(ap, body);
    const bool ok = vfprintf(f, body, ap) >= 0;
    va_end(ap);
    return fclose(f) == 0 && ok;
}

/* The rules for a world of `dims` dimensions: on the pair walk where a row has a pair rule, else
 * on the Reynolds walk's sums (as cmake/glsl_gen.c writes the built-in models'). */
static bool rules_unit(const char *path, const char *dir, const char *name, const char *up,
                       int dims)
{
    return write_unit(
        path, dir, up, dims,
        "#include \"cpu/lanes.h\"\n"
        "#define BOIDS_X_LOADED_FEATURES(ID, name, time, blocks, rules, attrs, features, ...) "
        "| (features)\n"
        "#if (0 BOIDS_MODELS_%s(BOIDS_X_LOADED_FEATURES)) & BOIDS_FEATURE_PAIR_RULE\n"
        "#include \"cpu/walk_pairs.h\"\n#include \"%s/rules.h\"\nBOIDS_CPU_PAIR_RULES(%s)\n"
        "#else\n#include \"%s/rules.h\"\nBOIDS_CPU_REYNOLDS_RULES(%s)\n#endif\n",
        up, dir, name, dir, name);
}

/* The manifest, the only symbol the object exports, and the trampolines. */
static bool manifest_unit(const char *path, const char *dir, const char *name, const char *up)
{
    return write_unit(
        path, dir, up, 2,
        "#include <stddef.h>\n#include \"cpu/loaded.h\"\n\n"
        "static boids_cpu_imports imports;\nBOIDS_LOADED_TRAMPOLINES(imports)\n"
        "void boids_cpu_rules_%s(const boids_cpu_step *s, uint32_t begin, uint32_t end);\n"
        "void boids_cpu_rules3_%s(const boids_cpu_step *s, uint32_t begin, uint32_t end);\n"
        "_Static_assert(sizeof(boids_param_blocks) == offsetof(boids_param_blocks, loaded) + "
        "BOIDS_PARAMS_LOADED_FLOATS * sizeof(float), \"%s/model.h: the folder's blocks take more "
        "than the loaded area's floats\");\n"
        "static const boids_manifest_row rows[] = {BOIDS_MODELS_%s(BOIDS_X_MANIFEST_ROW)};\n"
        "#ifdef BOIDS_LOADED_BLOCKS\n"
        "#define X_PARAMS(ID, field, rows) rows(BOIDS_X_PARAM_ROW, ID, field)\n"
        "#define X_BLOCK(ID, field, rows) {BOIDS_BLOCK_##ID, #field, "
        "sizeof(boids_##field##_params)},\n"
        "static const boids_param_row params[] = {BOIDS_LOADED_BLOCKS(X_PARAMS)};\n"
        "static const boids_loaded_block blocks[] = {BOIDS_LOADED_BLOCKS(X_BLOCK)};\n"
        "#define COUNT(a) (sizeof a / sizeof a[0])\n"
        "#else\nstatic const boids_param_row *const params = NULL;\n"
        "static const boids_loaded_block *const blocks = NULL;\n#define COUNT(a) 0\n#endif\n"
        "__attribute__((visibility(\"default\"))) const boids_loaded_manifest "
        "boids_loaded_manifest_v1 = {BOIDS_LOADED_ABI, sizeof(boids_param_blocks), "
        "BOIDS_BLOCK_OBSTACLES + 1, rows, sizeof rows / sizeof rows[0], blocks, COUNT(blocks), "
        "params, COUNT(params), boids_cpu_rules_%s, boids_cpu_rules3_%s, &imports};\n",
        name, name, dir, up, name, name);
}

/* The folder's oracle (oracle.c, where it has one), with the geometry the oracles share, and
 * each row's oracle exported (a weak reference: NULL for a row its oracle.c leaves out). */
static bool oracle_unit(const char *path, const char *dir, const char *up)
{
    return write_unit(path, dir, up, 2,
                      "#include \"models/oracle_geometry.c\"\n#include \"%s/oracle.c\"\n"
                      "#define X_DECL(ID, ...) extern const boids_oracle boids_oracle_##ID "
                      "__attribute__((weak));\nBOIDS_MODELS_%s(X_DECL)\n"
                      "#define X_ORACLE(ID, ...) &boids_oracle_##ID,\n"
                      "__attribute__((visibility(\"default\"))) const boids_oracle *const "
                      "boids_loaded_oracles_v1[] = {BOIDS_MODELS_%s(X_ORACLE)};\n",
                      dir, up, up);
}

/* Starts cc with args (after the flags and -I's) and its messages into log; 0 where it cannot. */
static pid_t spawn_cc(const char *cc, char dirs[HEADER_DIRS][1100], const char *const *args,
                      const char *log)
{
    const char *argv[32];
    int a = 0;
    argv[a++] = cc;
    for (int i = 0; cc_flags[i]; ++i) argv[a++] = cc_flags[i];
    for (int i = 0; i < HEADER_DIRS; ++i) argv[a++] = dirs[i];
    while (*args) argv[a++] = *args++;
    argv[a] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    const int rc = posix_spawn(&pid, cc, &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    return rc == 0 ? pid : 0;
}

/* How a compiler's run ended: 0 success, 1 it failed, 2 a signal stopped it (a Ctrl-C reaches
 * the compiler with the program). */
static int wait_cc(pid_t pid)
{
    int status = 0;
    for (pid_t r; (r = waitpid(pid, &status, WNOHANG)) == 0 || (r < 0 && errno == EINTR);) {
        if (boids_interrupted()) { /* a signal to the program alone: its compilers stop too */
            kill(pid, SIGTERM);
            waitpid(pid, &status, 0);
            return 2;
        }
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    return WIFSIGNALED(status) ? 2 : WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

/* Compiles the three units (four with an oracle) at once (each its own process: the machine's cores
 * share them), then links them into `object`. *failed_log: the log of the first unit that failed,
 * where one did. */
static boids_status run_compiler(const char *cc, char dirs[HEADER_DIRS][1100], const char *work,
                                 int units, const char *object, const char **failed_log)
{
    static const char *const names[4] = {"rules", "rules3", "manifest", "oracle"};
    static char logs[5][1200];
    char src[4][1200], obj[4][1200];
    pid_t pid[4];
    for (int i = 0; i < units; ++i) {
        fmt(src[i], sizeof src[i], "%s/%s.c", work, names[i]);
        fmt(obj[i], sizeof obj[i], "%s/%s.o", work, names[i]);
        fmt(logs[i], sizeof logs[i], "%s/%s.log", work, names[i]);
        const char *args[] = {"-c", src[i], "-o", obj[i], NULL};
        pid[i] = spawn_cc(cc, dirs, args, logs[i]);
    }
    int worst = 0;
    *failed_log = NULL;
    for (int i = 0; i < units; ++i) {
        const int end = pid[i] ? wait_cc(pid[i]) : 3;
        if (end == 1 && !*failed_log) *failed_log = logs[i];
        worst = end > worst ? end : worst;
    }
    if (worst == 0) {
        fmt(logs[4], sizeof logs[4], "%s/link.log", work);
        const char *args[] = {"-shared", obj[0], obj[1], obj[2], units > 3 ? obj[3] : "-lm",
                              "-o",      object, "-lm",  NULL};
        const pid_t link = spawn_cc(cc, dirs, args, logs[4]);
        worst = link ? wait_cc(link) : 3;
        if (worst == 1) *failed_log = logs[4];
    }
    if (worst == 3)
        return boids_fail_key(BOIDS_E_MODEL_COMPILER, "BOIDS_CC", "cannot run %s: %s", cc,
                              strerror(errno));
    if (worst == 2)
        return boids_fail(BOIDS_E_INTERRUPTED, "compiling the model folder was interrupted");
    return worst ? BOIDS_ERR_PARSE : BOIDS_OK;
}

/* The compiler's messages: all to stderr, and into the error the first error's text at the first
 * place in the folder's own files the messages name (an error inside one of the library's macros
 * is reported where the macro was expanded: that place is the user's), with a hint for the
 * mistake whose messages point elsewhere. A compiler that failed and said nothing is said so. */
static boids_status compile_failed(const char *dir, const char *log, const char *cc)
{
    char first[512] = "", where[512] = "", line[1024];
    size_t dir_len = strlen(dir), lines = 0;
    bool member = false;
    FILE *f = log ? fopen(log, "r") : NULL;
    while (f && fgets(line, sizeof line, f)) {
        if (!lines++) fprintf(stderr, "boids: compiling the model folder %s failed:\n", dir);
        fputs(line, stderr);
        line[strcspn(line, "\n")] = '\0';
        const char *e = strstr(line, "error: ");
        if (!first[0] && e) fmt(first, sizeof first, "%s", e + 7);
        member |= e && strstr(line, "has no member named") != NULL;
        char *colon = line[dir_len] == '/' ? strchr(line + dir_len, ':') : NULL;
        if (!where[0] && !strncmp(line, dir, dir_len) && colon && colon[1] >= '0' &&
            colon[1] <= '9') { /* DIR/file:LINE:COL: ... */
            char *end = strchr(colon + 1, ':');
            if (end && end[1] >= '0' && end[1] <= '9') end = strchr(end + 1, ':');
            if (end) *end = '\0';
            fmt(where, sizeof where, "%s", line + dir_len + 1);
        }
    }
    if (f) fclose(f);
    if (!lines)
        return boids_fail_key(BOIDS_E_MODEL_COMPILE, "BOIDS_CC",
                              "%s: the compiler (%s) failed and printed nothing: is it a C "
                              "compiler?",
                              dir, cc);
    const char *base = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
    char names[300] = "";
    if (!where[0]) /* in the units made for the folder (removed with the failed build) */
        fmt(names, sizeof names,
            " (in the code made for the folder, which calls its rules by its name: does rules.h "
            "define %s_radii and %s_steer, or a pair rule's %s_zones_of, _reach, _pair?)",
            base, base, base);
    return boids_fail_file(BOIDS_E_MODEL_COMPILE, dir, 0, "its C does not compile: %s%s%s%s%s",
                           where[0] ? where : "", where[0] ? ": " : "",
                           first[0] ? first : "(the compiler's messages are above)",
                           member ? " (a parameter the rules read that no block of model.h "
                                    "declares? its blocks are BOIDS_BLOCKS_<FOLDER>)"
                                  : "",
                           names);
}

/* Removes the compile's directory and what it holds (no subdirectories). */
static void remove_dir(const char *work)
{
    DIR *d = opendir(work);
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[1300];
        fmt(path, sizeof path, "%s/%s", work, e->d_name);
        if (e->d_name[0] != '.') unlink(path);
    }
    if (d) closedir(d);
    rmdir(work);
}

/* The object of `key` in the cache, compiled where it is not there yet (into a directory of this
 * process's, then renamed into place: a process that races us or a compile cut short leaves no
 * half-written object under the final name). */
static boids_status build_object(const char *dir, const char *name, uint64_t key, char *object,
                                 size_t size, bool *compiled)
{
    char cache[1024], cc[1024], dirs[HEADER_DIRS][1100];
    boids_status st = cache_dir(cache, sizeof cache);
    if (st != BOIDS_OK) return st;
    fmt(object, size, "%s/%s-%016llx.so", cache, name, (unsigned long long)key);
    *compiled = false;
    if (access(object, R_OK) == 0) return BOIDS_OK;
    if ((st = find_compiler(cc, sizeof cc)) != BOIDS_OK || (st = header_dirs(dirs)) != BOIDS_OK)
        return st;
    char work[1100], up[128], path[1300], tmp[1300];
    const char *log = NULL;
    fmt(work, sizeof work, "%s/%s-%016llx.%ld.tmp", cache, name, (unsigned long long)key,
        (long)getpid());
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof up; ++i)
        up[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 'a' + 'A' : name[i]);
    up[i] = '\0';
    if (mkdir(work, 0700) != 0 && errno != EEXIST)
        return boids_fail_file(BOIDS_E_MODEL_CACHE, work, 0, "cannot make: %s", strerror(errno));
    bool ok = true;
    fmt(path, sizeof path, "%s/rules.c", work);
    ok &= rules_unit(path, dir, name, up, 2);
    fmt(path, sizeof path, "%s/rules3.c", work);
    ok &= rules_unit(path, dir, name, up, 3);
    fmt(path, sizeof path, "%s/manifest.c", work);
    ok &= manifest_unit(path, dir, name, up);
    fmt(path, sizeof path, "%s/oracle.c", dir);
    const int units = access(path, R_OK) == 0 ? 4 : 3; /* its oracle, where it has one */
    fmt(path, sizeof path, "%s/oracle.c", work);
    if (units == 4) ok &= oracle_unit(path, dir, up);
    fmt(tmp, sizeof tmp, "%s/%s.so", work, name);
    if (!ok)
        st = boids_fail_file(BOIDS_E_MODEL_CACHE, work, 0, "cannot write the units");
    else if ((st = run_compiler(cc, dirs, work, units, tmp, &log)) == BOIDS_ERR_PARSE)
        st = compile_failed(dir, log, cc);
    else if (st == BOIDS_OK && access(tmp, R_OK) != 0)
        st = boids_fail_key(BOIDS_E_MODEL_COMPILE, "BOIDS_CC",
                            "%s: the compiler (%s) succeeded but made no object: is it a C "
                            "compiler?",
                            dir, cc);
    else if (st == BOIDS_OK && rename(tmp, object) != 0)
        st = boids_fail_file(BOIDS_E_MODEL_CACHE, object, 0, "cannot write: %s", strerror(errno));
    *compiled = st == BOIDS_OK;
    remove_dir(work);
    return st;
}

/* ---- registering ------------------------------------------------------------------------------
 */

typedef struct publish_ctx {
    const boids_loaded_manifest *m;
    const boids_manifest_row *row;
    const char *folder;
} publish_ctx;

/* A loaded row's tables (core/models.c calls it before the model is visible). */
static boids_status publish(boids_model model, void *arg)
{
    const publish_ctx *c = arg;
    boids_status st =
        boids_params_add_loaded(model, c->row, c->m->params, c->m->param_count, c->folder);
    if (st == BOIDS_OK) st = boids_params_check_preset(model, c->row, c->folder);
    if (st == BOIDS_OK)
        st = boids_steer_source_add(model, c->row, c->m->blocks, c->m->block_count, c->m->params,
                                    c->m->param_count, c->folder);
    if (st == BOIDS_OK) boids_cpu_add_rules(model, c->m->rules, c->m->rules3);
    return st;
}

/* What the library needs of a manifest row before it registers it. */
static boids_status check_row(const boids_manifest_row *r, const char *folder, const char *name)
{
    const char *bad = NULL;
    char rules[256];
    if (!r->name || !r->name[0])
        bad = "a model without a name";
    else if (strcmp(r->rules, name) != 0)
        bad =
            (snprintf(rules, sizeof rules,
                      "'%.48s' in its rules column (the fifth), where the folder's name, '%.48s', "
                      "belongs",
                      r->rules, name),
             rules);
    else if ((unsigned)r->time_base > BOIDS_TIME_PER_FRAME)
        bad = "an unknown time base";
    else if ((unsigned)r->init >= BOIDS_LAYOUT_COUNT || r->init == BOIDS_LAYOUT_MODEL)
        bad = "an unknown layout";
    else if (r->features & BOIDS_FEATURE_PREDATORS)
        bad = "predators (a loaded model cannot have them yet: the hunt is built in)";
    else if (r->features & BOIDS_FEATURE_LANE_WALK)
        bad = "lane groups of its own (BOIDS_FEATURE_LANE_WALK: a built-in model's walk.c)";
    else if ((r->features & BOIDS_FEATURE_OWN_WALK) && !(r->features & BOIDS_FEATURE_PAIR_RULE))
        bad = "a walk of its own (a loaded model walks on the Reynolds walk or the pair walk: "
              "write its pair rule, BOIDS_FEATURE_PAIR_RULE)";
    if (!bad) return BOIDS_OK;
    return boids_fail_file(BOIDS_E_MODEL_MANIFEST, folder, 0, "model.h: model %s has %s",
                           r->name ? r->name : "?", bad);
}

/* Opens the object and registers its models. */
static boids_status register_object(const char *object, const char *folder, const char *name,
                                    uint64_t digest, boids_model *first, int *count)
{
    void *h = dlopen(object, RTLD_NOW | RTLD_LOCAL);
    if (!h) return boids_fail_file(BOIDS_E_MODEL_CACHE, object, 0, "cannot load: %s", dlerror());
    boids_loaded_manifest *m = dlsym(h, BOIDS_LOADED_SYMBOL);
    if (!m || m->abi != BOIDS_LOADED_ABI || m->params_size != sizeof(boids_param_blocks) ||
        m->first_block != BOIDS_BLOCK_COUNT || m->row_count == 0 ||
        m->first_block + m->block_count > 32)
        return boids_fail_file(BOIDS_E_MODEL_MANIFEST, object, 0,
                               "not a model object of this library (remove it to compile anew)");
    *m->imports =
        (boids_cpu_imports){boids_cpu_candidates,  boids_cpu_group_at,      boids_cpu_obstacle_push,
                            boids_cpu_ranges_near, boids_cpu_walk_reynolds, boids_model_features};
    /* Never closed, nor is the folder's name freed: the rules and texts serve the process to
     * its end. */
    folder = strdup(folder);
    if (!folder) return boids_fail(BOIDS_E_NO_MEMORY, "no memory to load a model");
    for (size_t i = 0; i < m->row_count; ++i) {
        boids_status st = check_row(&m->rows[i], folder, name);
        if (st != BOIDS_OK) return st;
    }
    const void *const *oracles = dlsym(h, "boids_loaded_oracles_v1"); /* NULL: none */
    for (size_t i = 0; i < m->row_count; ++i) {
        publish_ctx c = {m, &m->rows[i], folder};
        boids_model id;
        boids_status st = boids_model_register(&m->rows[i], folder, oracles ? oracles[i] : NULL,
                                               digest, publish, &c, &id);
        if (st != BOIDS_OK) return st;
        if (i == 0) *first = id;
        *count = (int)i + 1;
    }
    return BOIDS_OK;
}

/* The folder's checks before anything is compiled: a directory with model.h and rules.h, a name
 * that is a C identifier and no built-in folder's, and no walk of its own. */
static boids_status check_folder(const char *dir, const char *name)
{
    struct stat sb;
    char path[1300];
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return boids_fail_file(BOIDS_E_MODEL_FOLDER, dir, 0, "not a model folder: %s",
                               stat(dir, &sb) != 0 ? strerror(errno) : "not a directory");
    DIR *d = opendir(dir);
    if (!d)
        return boids_fail_file(BOIDS_E_MODEL_FOLDER, dir, 0, "cannot open the model folder: %s",
                               strerror(errno));
    closedir(d);
    const char *need[] = {"model.h", "rules.h"};
    for (int i = 0; i < 2; ++i) {
        fmt(path, sizeof path, "%s/%s", dir, need[i]);
        if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
            return boids_fail_file(BOIDS_E_MODEL_FOLDER, path, 0,
                                   "%s: a model folder has a model.h and a rules.h, files "
                                   "(docs/writing-a-model.md)",
                                   stat(path, &sb) != 0 ? strerror(errno) : "not a file");
        if (access(path, R_OK) != 0)
            return boids_fail_file(BOIDS_E_MODEL_FOLDER, path, 0, "cannot read: %s",
                                   strerror(errno));
    }
    fmt(path, sizeof path, "%s/walk.c", dir);
    if (stat(path, &sb) == 0)
        return boids_fail_file(BOIDS_E_MODEL_FOLDER, path, 0,
                               "a loaded model cannot have a walk of its own: write its pair rule "
                               "(<rules>_pair, BOIDS_FEATURE_PAIR_RULE) instead");
    bool ident = name[0] >= 'a' && name[0] <= 'z';
    for (const char *p = name; *p; ++p)
        ident &= (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_';
    if (!ident || strlen(name) > 48)
        return boids_fail_file(BOIDS_E_MODEL_FOLDER, dir, 0,
                               "a model folder's name is its rules' prefix: lower-case letters, "
                               "digits and _, from a letter (not '%s')",
                               name);
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m)
        if (strcmp(boids_model_rules_name((boids_model)m), name) == 0)
            return boids_fail_key(BOIDS_E_MODEL_DUPLICATE, name,
                                  "%s: the folder's name is a built-in model's (%s): rename it",
                                  dir, boids_model_name((boids_model)m));
    return BOIDS_OK;
}

boids_status boids_model_load(const char *folder, boids_model_load_info *info)
{
    BOIDS_REQUIRE(folder, "folder");
    const double t0 = boids_clock_seconds();
    char dir[1024];
    if (!realpath(folder, dir))
        return boids_fail_file(BOIDS_E_MODEL_FOLDER, folder, 0, "no model folder '%s': %s", folder,
                               strerror(errno));
    if (strlen(dir) > FOLDER_MAX)
        return boids_fail_file(BOIDS_E_MODEL_FOLDER, folder, 0,
                               "a model folder's path is %d characters at most", FOLDER_MAX);
    const char *slash = strrchr(dir, '/');
    const char *name = slash ? slash + 1 : dir;
    boids_status st = check_folder(dir, name);
    uint64_t key = hash_library(BOIDS_DIGEST_START);
    for (int i = 0; cc_flags[i]; ++i) key = boids_digest_text(key, cc_flags[i]);
    const char *cc = getenv("BOIDS_CC");
    key = boids_digest_text(key, cc ? cc : "cc");
    uint64_t digest = BOIDS_DIGEST_START; /* the folder's files alone */
    if (st == BOIDS_OK) st = hash_folder(dir, &digest);
    if (st != BOIDS_OK) return st;
    key = boids_digest(key, &digest, sizeof digest);
    boids_model_load_info out = {0};
    pthread_mutex_lock(&load_lock);
    int f = 0;
    while (f < folder_count && strcmp(folders[f].path, dir) != 0) ++f;
    if (f < folder_count && folders[f].key != key)
        st = boids_fail_file(BOIDS_E_MODEL_DUPLICATE, dir, 0,
                             "this process loaded the folder before it changed: a process loads "
                             "a folder once (start it again for the new text)");
    else if (f < folder_count)
        out.first = folders[f].first, out.models = folders[f].models;
    else if ((st = build_object(dir, name, key, out.object, sizeof out.object, &out.compiled)) ==
             BOIDS_OK)
        st = register_object(out.object, dir, name, digest, &out.first, &out.models);
    if (st == BOIDS_OK && f == folder_count && folder_count < BOIDS_LOADED_MAX) {
        folders[f] = (loaded_folder){.key = key, .first = out.first, .models = out.models};
        fmt(folders[f].path, sizeof folders[f].path, "%s", dir);
        ++folder_count;
    }
    pthread_mutex_unlock(&load_lock);
    out.seconds = boids_clock_seconds() - t0;
    if (st == BOIDS_OK && out.object[0] && boids_model_load_reporter)
        boids_model_load_reporter(folder, &out);
    if (st == BOIDS_OK && info) *info = out;
    return st;
}
