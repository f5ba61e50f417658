#define _XOPEN_SOURCE 700 /* realpath */
#include "core/output_file.h"

#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"

#ifndef NAME_MAX
#define NAME_MAX 255
#endif

/* The suffix of a temporary name: the process id keeps two runs apart. False if it does not
 * fit. */
static bool temp_name(const char *path, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%s.tmp.%ld", path, (long)getpid());
    return n > 0 && (size_t)n < size;
}

/* Where a file named `path` is written: path itself, or the file a symlink leads to (so the
 * link stays a link). Refuses what a rename would destroy or cannot make. */
static boids_status resolve(const char *path, char *out, size_t size)
{
    if (!path[0]) return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "an empty name is no file");
    if (strlen(path) >= size) return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "the name is too long");
    snprintf(out, size, "%s", path);
    struct stat sb;
    if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode)) {
        char *real = realpath(path, NULL); /* the link's target, when it exists */
        if (real) {
            if (strlen(real) >= size) {
                free(real);
                return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "the name it links to is too long");
            }
            snprintf(out, size, "%s", real);
            free(real);
        } else {
            char target[PATH_MAX];
            ssize_t n = readlink(path, target, sizeof target - 1);
            if (n <= 0) return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "cannot follow the link: %s", strerror(errno));
            target[n] = '\0';
            int len = target[0] == '/' || !strchr(path, '/')
                          ? snprintf(out, size, "%s", target)
                          : snprintf(out, size, "%.*s/%s", (int)(strrchr(path, '/') - path), path, target);
            if (len < 0 || (size_t)len >= size)
                return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "the name it links to is too long");
        }
    }
    if (stat(out, &sb) == 0) {
        if (S_ISDIR(sb.st_mode)) return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "is a directory, not a file");
        if (!S_ISREG(sb.st_mode))
            return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0,
                                   "is a %s, not a regular file: boids writes a file under a temporary name and "
                                   "renames it into place, which would replace it",
                                   S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "device"
                                   : S_ISFIFO(sb.st_mode)                      ? "FIFO"
                                   : S_ISSOCK(sb.st_mode)                      ? "socket"
                                                                               : "special file");
    }
    if (strncmp(out, "/proc/", 6) == 0 || strncmp(out, "/sys/", 5) == 0)
        return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "is in %.*s, where files are not written",
                               (int)(strchr(out + 1, '/') - out), out);
    const char *base = strrchr(out, '/');
    base = base ? base + 1 : out;
    char tmp[4096];
    bool fits = temp_name(out, tmp, sizeof tmp);
    const char *tbase = strrchr(tmp, '/');
    tbase = tbase ? tbase + 1 : tmp;
    if (!*base) return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "names a directory, not a file");
    if (!fits || strlen(tbase) > NAME_MAX)
        return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0,
                               "the name is too long once the temporary suffix (.tmp.PID) is added");
    return BOIDS_OK;
}

boids_status boids_output_check(const char *path)
{
    char where[4096], tmp[4096];
    boids_status st = resolve(path, where, sizeof where);
    if (st != BOIDS_OK) return st;
    if (!temp_name(where, tmp, sizeof tmp)) return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "the name is too long");
    FILE *f = fopen(tmp, "w");
    if (!f) return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "cannot write here: %s", strerror(errno));
    fclose(f);
    remove(tmp);
    return BOIDS_OK;
}

boids_status boids_output_open(boids_output_file *o, const char *path)
{
    o->f = NULL;
    boids_status st = resolve(path, o->path, sizeof o->path);
    if (st != BOIDS_OK) return st;
    if (!temp_name(o->path, o->tmp, sizeof o->tmp)) return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "the name is too long");
    o->f = fopen(o->tmp, "w");
    if (!o->f) return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "cannot write: %s", strerror(errno));
    return BOIDS_OK;
}

boids_status boids_output_commit(boids_output_file *o)
{
    int ok = !ferror(o->f) && fflush(o->f) == 0 && fsync(fileno(o->f)) == 0;
    int err = errno;
    ok = (fclose(o->f) == 0) && ok;
    o->f = NULL;
    if (!ok) {
        remove(o->tmp);
        return boids_fail_file(BOIDS_E_FILE_WRITE, o->path, 0, "write failed: %s", strerror(err));
    }
    if (rename(o->tmp, o->path) != 0) {
        err = errno;
        remove(o->tmp);
        return boids_fail_file(BOIDS_E_FILE_WRITE, o->path, 0, "cannot rename the finished file into place: %s",
                               strerror(err));
    }
    return BOIDS_OK;
}

void boids_output_abort(boids_output_file *o)
{
    if (o->f) fclose(o->f);
    o->f = NULL;
    remove(o->tmp);
}
