/* The GPUs of a machine as EGL and the kernel see them, for choosing the device a headless
 * context runs on (gl/context.c) and for saying why a GPU the machine has gives none. EGL must
 * be loaded (glad's gladLoaderLoadEGL) before boids_egl_devices. */
#ifndef BOIDS_GL_DEVICES_H
#define BOIDS_GL_DEVICES_H

#include <stdbool.h>
#include <stddef.h>

#include <glad/egl.h>

#include "boids.h"

/* One device of EGL_EXT_device_enumeration. */
typedef struct boids_egl_device {
    EGLDeviceEXT handle;
    bool software;  /* EGL_MESA_device_software: Mesa's llvmpipe, lavapipe under zink */
    char name[160]; /* what it says of itself: vendor and renderer where it names them (NVIDIA's
                       do), its DRM node, "software" */
} boids_egl_device;

#define BOIDS_EGL_MAX_DEVICES 16

/* The devices EGL offers, in its order (BOIDS_EGL_DEVICE=N picks the N-th); 0 when the device
 * platform is not offered. */
int boids_egl_devices(boids_egl_device *out, int max);

/* Whether the space-separated extension list has ext. */
bool boids_egl_has_extension(const char *list, const char *ext);

/* The name of an EGL error code ("EGL_BAD_ALLOC"), or "EGL error 0x...". */
const char *boids_egl_error_name(EGLint code, char *buf, size_t n);

/* Whether the kernel shows a hardware GPU under `root` ("" for this machine; tests give a tree of
 * their own): NVIDIA's driver (proc/driver/nvidia/version, dev/nvidia0), or a DRM render node of a
 * driver that is not a software one (sys/class/drm/renderD*: device/driver). `out` gets what was
 * found ("" if nothing). */
bool boids_gpu_kernel_evidence(const char *root, char *out, size_t n);

/* What keeps a GPU the kernel shows from giving an OpenGL context, as far as this process can
 * tell: a container's NVIDIA_DRIVER_CAPABILITIES without `graphics`, NVIDIA's EGL library
 * (libEGL_nvidia.so.0) not installed, no glvnd vendor file for it. `evidence` is
 * boids_gpu_kernel_evidence's finding. `out` gets the hints, or a general one. */
void boids_gpu_context_hints(const char *evidence, char *out, size_t n);

#endif
