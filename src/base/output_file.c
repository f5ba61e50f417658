#define _XOPEN_SOURCE 700 /* realpath, mkstemp, fchmod */
#include "base/output_file.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"

/* The temporary name of a file written to `path`: BOIDS_TEMP_PREFIX and six random characters
 * (mkstemp's) in the target's directory, whatever the target's name, so a name as long as the
 * file system allows still has one, and two processes never share one. buf gets the pattern;
 * false if it does not fit. */
static bool temp_pattern(const char *path, char *buf, size_t size)
{
    const char *slash = strrchr(path, '/');
    int n = slash
                ? snprintf(buf, size, "%.*s/%sXXXXXX", (int)(slash - path), path, BOIDS_TEMP_PREFIX)
                : snprintf(buf, size, "%sXXXXXX", BOIDS_TEMP_PREFIX);
    return n > 0 && (size_t)n < size;
}

/* ---- temporary files that a signal must not leave behind ---------------------------------- */

/* The temporary files open now, for boids_output_remove_temps(), which a signal handler calls:
 * so only fixed slots, a flag per slot, and unlink(). */
#define TEMP_SLOTS 64
static struct {
    volatile sig_atomic_t used;
    char path[4096];
} temps[TEMP_SLOTS];
static pthread_mutex_t temps_lock = PTHREAD_MUTEX_INITIALIZER;

static void temp_register(const char *tmp)
{
    pthread_mutex_lock(&temps_lock);
    for (int i = 0; i < TEMP_SLOTS; ++i)
        if (!temps[i].used) {
            snprintf(temps[i].path, sizeof temps[i].path, "%s", tmp);
            temps[i].used = 1;
            break;
        }
    pthread_mutex_unlock(&temps_lock);
}

static void temp_forget(const char *tmp)
{
    pthread_mutex_lock(&temps_lock);
    for (int i = 0; i < TEMP_SLOTS; ++i)
        if (temps[i].used && strcmp(temps[i].path, tmp) == 0) {
            temps[i].used = 0;
            break;
        }
    pthread_mutex_unlock(&temps_lock);
}

void boids_output_remove_temps(void)
{
    for (int i = 0; i < TEMP_SLOTS; ++i)
        if (temps[i].used) unlink(temps[i].path);
}

/* Where a file named `path` is written: path itself, or the file a symlink leads to (so the
 * link stays a link). Refuses what a rename would destroy or cannot make. */
static boids_status resolve(const char *path, char *out, size_t size)
{
    if (!path[0]) return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "an empty name is no file");
    if (strlen(path) >= size)
        return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "the name is too long");
    snprintf(out, size, "%s", path);
    struct stat sb;
    if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode)) {
        char *real = realpath(path, NULL); /* the link's target, when it exists */
        if (real) {
            if (strlen(real) >= size) {
                free(real);
                return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0,
                                       "the name it links to is too long");
            }
            snprintf(out, size, "%s", real);
            free(real);
        } else {
            char target[PATH_MAX];
            ssize_t n = readlink(path, target, sizeof target - 1);
            if (n <= 0)
                return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "cannot follow the link: %s",
                                       strerror(errno));
            target[n] = '\0';
            int len = target[0] == '/' || !strchr(path, '/')
                          ? snprintf(out, size, "%s", target)
                          : snprintf(out, size, "%.*s/%s", (int)(strrchr(path, '/') - path), path,
                                     target);
            if (len < 0 || (size_t)len >= size)
                return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0,
                                       "the name it links to is too long");
        }
    }
    if (stat(out, &sb) == 0) {
        if (S_ISDIR(sb.st_mode))
            return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "is a directory, not a file");
        if (!S_ISREG(sb.st_mode))
            return boids_fail_file(
                BOIDS_E_FILE_WRITE, path, 0,
                "is a %s, not a regular file: boids writes a file under a temporary name and "
                "renames it into place, which would replace it",
                S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "device"
                : S_ISFIFO(sb.st_mode)                     ? "FIFO"
                : S_ISSOCK(sb.st_mode)                     ? "socket"
                                                           : "special file");
    }
    if (strncmp(out, "/proc/", 6) == 0 || strncmp(out, "/sys/", 5) == 0)
        return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0,
                               "is in %.*s, where files are not written",
                               (int)(strchr(out + 1, '/') - out), out);
    const char *base = strrchr(out, '/');
    base = base ? base + 1 : out;
    char tmp[4096];
    if (!*base)
        return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "names a directory, not a file");
    if (!temp_pattern(out, tmp, sizeof tmp))
        return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "the name is too long");
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", base > out ? (int)(base - out) : 1, base > out ? out : ".");
    long name_max = pathconf(dir, _PC_NAME_MAX);
    if (name_max <= 0) name_max = 255;
    if ((long)strlen(base) > name_max)
        return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0,
                               "the name is longer than the file system allows (%ld bytes)",
                               name_max);
    return BOIDS_OK;
}

/* A new temporary file for the target `where` (resolved): its name in tmp, open for writing. */
static FILE *temp_create(const char *where, char *tmp, size_t size)
{
    if (!temp_pattern(where, tmp, size)) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    int fd = mkstemp(tmp);
    if (fd < 0) return NULL;
    temp_register(tmp);
    FILE *f = fdopen(fd, "w");
    if (!f) {
        int err = errno;
        close(fd);
        unlink(tmp);
        temp_forget(tmp);
        errno = err;
    }
    return f;
}

static void temp_remove(const char *tmp)
{
    unlink(tmp);
    temp_forget(tmp);
}

boids_status boids_output_check(const char *path)
{
    char where[4096], tmp[4096];
    boids_status st = resolve(path, where, sizeof where);
    if (st != BOIDS_OK) return st;
    FILE *f = temp_create(where, tmp, sizeof tmp);
    if (!f)
        return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "cannot write here: %s",
                               strerror(errno));
    fclose(f);
    temp_remove(tmp);
    return BOIDS_OK;
}

boids_status boids_output_open(boids_output_file *o, const char *path)
{
    o->f = NULL;
    boids_status st = resolve(path, o->path, sizeof o->path);
    if (st != BOIDS_OK) return st;
    o->f = temp_create(o->path, o->tmp, sizeof o->tmp);
    if (!o->f)
        return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "cannot write: %s", strerror(errno));
    /* mkstemp makes it 0600; a finished file has the usual mode */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fileno(o->f), 0666 & ~mask);
    return BOIDS_OK;
}

boids_status boids_output_commit(boids_output_file *o)
{
    errno = 0; /* a failure the stream noted earlier (ferror) has no errno of its own now */
    int ok = !ferror(o->f) && fflush(o->f) == 0 && fsync(fileno(o->f)) == 0;
    int err = errno;
    ok = (fclose(o->f) == 0) && ok;
    o->f = NULL;
    if (!ok) {
        temp_remove(o->tmp);
        return boids_fail_file(BOIDS_E_FILE_WRITE, o->path, 0, "write failed: %s",
                               err ? strerror(err) : "a write failed earlier (is the disk full?)");
    }
    if (rename(o->tmp, o->path) != 0) {
        err = errno;
        temp_remove(o->tmp);
        return boids_fail_file(BOIDS_E_FILE_WRITE, o->path, 0,
                               "cannot rename the finished file into place: %s", strerror(err));
    }
    temp_forget(o->tmp);
    return BOIDS_OK;
}

boids_status boids_output_reserve(boids_output_file *o, const char *path)
{
    boids_status st = boids_output_open(o, path);
    if (st != BOIDS_OK) return st;
    fclose(o->f);
    o->f = NULL;
    return BOIDS_OK;
}

boids_status boids_output_commit_named(boids_output_file *o)
{
    o->f = fopen(o->tmp, "a"); /* to sync it, as every output */
    if (!o->f) {
        boids_status st = boids_fail_file(BOIDS_E_FILE_WRITE, o->path, 0,
                                          "the file written is gone: %s", strerror(errno));
        temp_remove(o->tmp);
        return st;
    }
    return boids_output_commit(o);
}

void boids_output_abort(boids_output_file *o)
{
    if (o->f) fclose(o->f);
    o->f = NULL;
    if (o->tmp[0]) temp_remove(o->tmp);
    o->tmp[0] = '\0';
}
