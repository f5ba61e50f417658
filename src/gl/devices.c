#define _POSIX_C_SOURCE 200809L /* readlink */
#include "gl/devices.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Device queries of EGL_EXT_device_drm, EGL_EXT_device_drm_render_node and
 * EGL_EXT_device_query_name, should the loader's headers lack them. */
#ifndef EGL_DRM_DEVICE_FILE_EXT
#define EGL_DRM_DEVICE_FILE_EXT 0x3233
#endif
#ifndef EGL_DRM_RENDER_NODE_FILE_EXT
#define EGL_DRM_RENDER_NODE_FILE_EXT 0x3377
#endif
#ifndef EGL_RENDERER_EXT
#define EGL_RENDERER_EXT 0x335F
#endif

bool boids_egl_has_extension(const char *list, const char *ext)
{
    if (!list) return false;
    size_t n = strlen(ext);
    for (const char *p = list; (p = strstr(p, ext)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

/* A device's own words about itself: vendor and renderer where it names them, its DRM node, and
 * whether it is software; the parts joined by ", ". */
static void describe(boids_egl_device *d)
{
    const char *ext = eglQueryDeviceStringEXT(d->handle, EGL_EXTENSIONS);
    const char *parts[4] = {NULL, NULL, NULL, d->software ? "software" : NULL};
    if (boids_egl_has_extension(ext, "EGL_EXT_device_query_name")) {
        parts[0] = eglQueryDeviceStringEXT(d->handle, EGL_VENDOR);
        parts[1] = eglQueryDeviceStringEXT(d->handle, EGL_RENDERER_EXT);
    }
    if (boids_egl_has_extension(ext, "EGL_EXT_device_drm_render_node"))
        parts[2] = eglQueryDeviceStringEXT(d->handle, EGL_DRM_RENDER_NODE_FILE_EXT);
    if (!parts[2] && boids_egl_has_extension(ext, "EGL_EXT_device_drm"))
        parts[2] = eglQueryDeviceStringEXT(d->handle, EGL_DRM_DEVICE_FILE_EXT);
    size_t len = 0;
    d->name[0] = '\0';
    for (int i = 0; i < 4; ++i)
        if (parts[i] && parts[i][0] && len < sizeof d->name)
            len += (size_t)snprintf(d->name + len, sizeof d->name - len, "%s%s", len ? ", " : "",
                                    parts[i]);
    if (!d->name[0]) snprintf(d->name, sizeof d->name, "no name");
}

int boids_egl_devices(boids_egl_device *out, int max)
{
    if (!eglQueryDevicesEXT || !eglQueryDeviceStringEXT) return 0;
    EGLDeviceEXT handles[BOIDS_EGL_MAX_DEVICES];
    EGLint n = 0;
    if (max > BOIDS_EGL_MAX_DEVICES) max = BOIDS_EGL_MAX_DEVICES;
    if (!eglQueryDevicesEXT(max, handles, &n)) return 0;
    for (EGLint i = 0; i < n; ++i) {
        out[i].handle = handles[i];
        out[i].software = boids_egl_has_extension(
            eglQueryDeviceStringEXT(handles[i], EGL_EXTENSIONS), "EGL_MESA_device_software");
        describe(&out[i]);
    }
    return (int)n;
}

const char *boids_egl_error_name(EGLint code, char *buf, size_t n)
{
    static const struct {
        EGLint code;
        const char *name;
    } names[] = {{EGL_SUCCESS, "EGL_SUCCESS"},
                 {EGL_NOT_INITIALIZED, "EGL_NOT_INITIALIZED"},
                 {EGL_BAD_ACCESS, "EGL_BAD_ACCESS"},
                 {EGL_BAD_ALLOC, "EGL_BAD_ALLOC"},
                 {EGL_BAD_ATTRIBUTE, "EGL_BAD_ATTRIBUTE"},
                 {EGL_BAD_CONFIG, "EGL_BAD_CONFIG"},
                 {EGL_BAD_CONTEXT, "EGL_BAD_CONTEXT"},
                 {EGL_BAD_CURRENT_SURFACE, "EGL_BAD_CURRENT_SURFACE"},
                 {EGL_BAD_DISPLAY, "EGL_BAD_DISPLAY"},
                 {EGL_BAD_MATCH, "EGL_BAD_MATCH"},
                 {EGL_BAD_PARAMETER, "EGL_BAD_PARAMETER"},
                 {EGL_BAD_SURFACE, "EGL_BAD_SURFACE"},
                 {EGL_CONTEXT_LOST, "EGL_CONTEXT_LOST"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (names[i].code == code) return names[i].name;
    snprintf(buf, n, "EGL error 0x%x", (unsigned)code);
    return buf;
}

/* The first line of root/path, or "" if it cannot be read. */
static void first_line(const char *root, const char *path, char *out, size_t n)
{
    char full[512];
    snprintf(full, sizeof full, "%s%s", root, path);
    out[0] = '\0';
    FILE *f = fopen(full, "r");
    if (!f) return;
    if (fgets(out, (int)n, f)) out[strcspn(out, "\n")] = '\0';
    fclose(f);
}

/* A render node's driver under root: the name its device/driver link points to ("" if none). */
static void render_node_driver(const char *root, const char *node, char *out, size_t n)
{
    char link[768], target[512];
    snprintf(link, sizeof link, "%s/sys/class/drm/%s/device/driver", root, node);
    ssize_t len = readlink(link, target, sizeof target - 1);
    out[0] = '\0';
    if (len <= 0) return;
    target[len] = '\0';
    const char *base = strrchr(target, '/');
    snprintf(out, n, "%.100s", base ? base + 1 : target);
}

bool boids_gpu_kernel_evidence(const char *root, char *out, size_t n)
{
    out[0] = '\0';
    char line[256], path[512];
    first_line(root, "/proc/driver/nvidia/version", line, sizeof line);
    snprintf(path, sizeof path, "%s/dev/nvidia0", root);
    if (line[0] || access(path, F_OK) == 0) {
        const char *v = strstr(line, "Kernel Module");
        snprintf(out, n, "an NVIDIA GPU (%s)", v ? v : "/dev/nvidia0");
        return true;
    }
    /* DRM drivers that are no GPU: the virtual GEM and KMS devices */
    static const char *const virtual_drivers[] = {"vgem", "vkms"};
    snprintf(path, sizeof path, "%s/sys/class/drm", root);
    DIR *dir = opendir(path);
    if (!dir) return false;
    for (struct dirent *e; (e = readdir(dir)) != NULL && !out[0];) {
        if (strncmp(e->d_name, "renderD", 7) != 0) continue;
        char driver[128];
        render_node_driver(root, e->d_name, driver, sizeof driver);
        bool gpu = driver[0] != '\0';
        for (size_t i = 0; i < sizeof virtual_drivers / sizeof *virtual_drivers; ++i)
            gpu = gpu && strcmp(driver, virtual_drivers[i]) != 0;
        if (gpu) snprintf(out, n, "a GPU at /dev/dri/%s (kernel driver %s)", e->d_name, driver);
    }
    closedir(dir);
    return out[0] != '\0';
}

void boids_gpu_context_hints(const char *evidence, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
#define HINT(...) (len += (size_t)snprintf(out + len, len < n ? n - len : 0, __VA_ARGS__))
    if (strstr(evidence, "NVIDIA")) {
        const char *caps = getenv("NVIDIA_DRIVER_CAPABILITIES");
        if (caps && !strstr(caps, "graphics") && !strstr(caps, "all"))
            HINT("this container's NVIDIA_DRIVER_CAPABILITIES (%.60s) lacks 'graphics', which "
                 "brings the driver's OpenGL and EGL libraries; ",
                 caps);
        void *lib = dlopen("libEGL_nvidia.so.0", RTLD_LAZY | RTLD_LOCAL);
        if (lib)
            dlclose(lib);
        else
            HINT("NVIDIA's EGL library (libEGL_nvidia.so.0) is not installed: install the driver's "
                 "GL/EGL libraries (libnvidia-gl-<version> or the driver's full package); ");
        if (access("/usr/share/glvnd/egl_vendor.d/10_nvidia.json", F_OK) != 0 &&
            access("/etc/glvnd/egl_vendor.d/10_nvidia.json", F_OK) != 0)
            HINT("glvnd has no vendor file for it (egl_vendor.d/10_nvidia.json); ");
    }
    if (!len) HINT("the GPU's OpenGL/EGL driver libraries are missing or do not offer it; ");
    HINT("--backend cpu runs without a GPU, and BOIDS_EGL_PLATFORM=surfaceless forces Mesa's "
         "software rasterizer");
#undef HINT
}
