#include "base/environment.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/parse.h"

const char *const boids_env_egl_platforms[] = {"device", "surfaceless", NULL};
const char *const boids_env_gpu_reads[] = {"device", "host", NULL};
const char *const boids_env_gpu_numerics[] = {"native", "perturbed", NULL};

static const char *value_of(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

boids_status boids_env_choice(const char *name, const char *const *choices, int *out)
{
    const char *v = value_of(name);
    *out = -1;
    if (!v) return BOIDS_OK;
    char list[160] = "";
    size_t len = 0;
    for (int i = 0; choices[i]; ++i) {
        if (!strcmp(v, choices[i])) return *out = i, BOIDS_OK;
        len += (size_t)snprintf(list + len, len < sizeof list ? sizeof list - len : 0, "%s%s",
                                i ? (choices[i + 1] ? ", " : " or ") : "", choices[i]);
    }
    return boids_fail_key(BOIDS_E_ENVIRONMENT, name, "'%.40s' is not %s", v, list);
}

boids_status boids_env_whole(const char *name, uint64_t min, uint64_t *out, bool *set)
{
    const char *v = value_of(name);
    *set = false;
    if (!v) return BOIDS_OK;
    uint64_t x = 0;
    if (!boids_parse_u64(v, &x))
        return boids_fail_key(BOIDS_E_ENVIRONMENT, name,
                              "'%.40s' is not a whole number below 2^64 (digits only)", v);
    if (x < min)
        return boids_fail_key(BOIDS_E_ENVIRONMENT, name, "'%llu' is below %llu",
                              (unsigned long long)x, (unsigned long long)min);
    *out = x;
    *set = true;
    return BOIDS_OK;
}

static const char *const off_on[] = {"0", "1", NULL};

bool boids_env_switch(const char *name)
{
    int v = -1;
    return boids_env_choice(name, off_on, &v) == BOIDS_OK && v == 1;
}

boids_status boids_environment_check(void)
{
    static const struct {
        const char *name;
        const char *const *choices; /* NULL: a whole number of at least min */
        uint64_t min;
    } vars[] = {
        {"BOIDS_EGL_PLATFORM", boids_env_egl_platforms, 0},
        {"BOIDS_EGL_DEVICE", NULL, 0},
        {"BOIDS_GPU_READ", boids_env_gpu_reads, 0},
        {"BOIDS_GPU_NUMERICS", boids_env_gpu_numerics, 0},
        {"BOIDS_GPU_LIMIT_BLOCK_BYTES", NULL, 1},
        {"BOIDS_GPU_LIMIT_GROUPS_X", NULL, 1},
        {"BOIDS_GPU_LIMIT_TEXELS", NULL, 1},
        {"BOIDS_GPU_CHECKS", off_on, 0},
        {"BOIDS_GL_DEBUG", off_on, 0},
        {"BOIDS_PARENT_PID", NULL, 1},
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; ++i) {
        int choice;
        uint64_t whole;
        bool set;
        boids_status st = vars[i].choices
                              ? boids_env_choice(vars[i].name, vars[i].choices, &choice)
                              : boids_env_whole(vars[i].name, vars[i].min, &whole, &set);
        if (st != BOIDS_OK) return st;
    }
    return BOIDS_OK;
}
