#define _DEFAULT_SOURCE /* madvise */
#include "base/memory.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A "Name:   N kB" line of /proc/self/status, in bytes (0 where absent). */
static uint64_t status_kb(const char *name)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return 0;
    char line[256];
    unsigned long long kb = 0;
    const size_t len = strlen(name);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, name, len) == 0 && line[len] == ':') {
            if (sscanf(line + len + 1, "%llu", &kb) != 1) kb = 0;
            break;
        }
    fclose(f);
    return (uint64_t)kb * 1024u;
}

uint64_t boids_resident_bytes(void) { return status_kb("VmRSS"); }

uint64_t boids_resident_peak_bytes(void) { return status_kb("VmHWM"); }

bool boids_resident_peak_reset(void)
{
    /* "5" resets the peak resident set (Linux 4.0 on: Documentation/filesystems/proc.rst) */
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f) return false;
    const bool ok = fputs("5", f) >= 0;
    return fclose(f) == 0 && ok;
}

void boids_pages_release(void *p, size_t bytes)
{
    const long page = sysconf(_SC_PAGESIZE);
    if (!p || page <= 0) return;
    const uintptr_t size = (uintptr_t)page, from = ((uintptr_t)p + size - 1) / size * size,
                    to = ((uintptr_t)p + bytes) / size * size;
    if (to > from) madvise((void *)from, to - from, MADV_DONTNEED);
}

void boids_pages_zero(void *p, size_t bytes)
{
    const long page = sysconf(_SC_PAGESIZE);
    const uintptr_t size = page > 0 ? (uintptr_t)page : 1, at = (uintptr_t)p,
                    from = (at + size - 1) / size * size, to = (at + bytes) / size * size;
    if (!p || to <= from || page <= 0) {
        if (p) memset(p, 0, bytes);
        return;
    }
    memset(p, 0, from - at), memset((void *)to, 0, at + bytes - to);
    madvise((void *)from, to - from, MADV_DONTNEED);
}
