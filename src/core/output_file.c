#define _POSIX_C_SOURCE 200809L
#include "core/output_file.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"

static void temp_name(const char *path, char *buf, size_t size)
{
    snprintf(buf, size, "%s.tmp.%ld", path, (long)getpid());
}

boids_status boids_output_check(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "is a directory, not a file");
    char tmp[4096];
    temp_name(path, tmp, sizeof tmp);
    FILE *f = fopen(tmp, "w");
    if (!f) return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "cannot write here: %s", strerror(errno));
    fclose(f);
    remove(tmp);
    return BOIDS_OK;
}

boids_status boids_output_open(boids_output_file *o, const char *path)
{
    snprintf(o->path, sizeof o->path, "%s", path);
    temp_name(path, o->tmp, sizeof o->tmp);
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
