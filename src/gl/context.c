/* GL 4.3 core contexts behind one small interface: headless through EGL (the device platform on
 * real GPUs, Mesa's software rasterizer only where the machine has no GPU; gl/devices.c says
 * which devices there are and why a GPU gives none) or a GLFW window. */
#define _POSIX_C_SOURCE 200809L /* getpid */
#include "gl/context.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glad/egl.h>

#include "base/environment.h"
#include "base/error.h"
#include "base/glfw.h"
#include "base/parse.h"
#include "gl/checks.h"
#include "gl/devices.h"
#include "gl/limits.h"

struct boids_gl {
    EGLDisplay display;
    EGLContext context;
    GLFWwindow *window;
    char renderer[256];
    char device[400];        /* which device it runs on, and why (boids_gl_device) */
    bool software;           /* the EGL device says it runs on the CPU (EGL_MESA_device_software) */
    boids_gpu_limits limits; /* asked when made (gl/limits.c) */
    bool told_of_resets;     /* the driver tells of a GPU reset (GL_LOSE_CONTEXT_ON_RESET) */
    bool lost;               /* a GPU reset took it: every later call fails */
    GLuint views[BOIDS_GL_TEXEL_VIEWS]; /* boids_gl_texel_view's buffer textures, made on first
                                         * use and gone with the context */
};

/* EGL hands out one EGLDisplay per platform and device, and eglTerminate ends it for every
 * context on it; GLFW is one library-wide state. Both are therefore counted, so destroying one
 * context never ends another's display or window system; the counts are locked, since worlds, and
 * so their contexts, may be made and destroyed on any thread. `opened_by` is the process that
 * opened the displays in use: a forked child inherits them without the driver's threads. */
#define MAX_DISPLAYS 8
static struct {
    EGLDisplay display;
    int users;
} displays[MAX_DISPLAYS];
static int glfw_users;
static pid_t opened_by;
static pthread_mutex_t contexts_lock = PTHREAD_MUTEX_INITIALIZER;
/* The dispatch limit of the context current on this thread (boids_gl_dispatch_groups_x). */
static _Thread_local uint32_t current_groups_x = 65535u;
/* The context made current on this thread by boids_gl_make_current (boids_gl_check's). */
static _Thread_local boids_gl *current_gl;
/* libEGL, once loaded (glad's loader), stays loaded for the process's life: unloading it when the
 * last context goes and loading it again for the next (--backend auto's probe, then the run's
 * context) leaks inside glvnd and Mesa, and saves nothing. */

static void display_acquire(EGLDisplay d)
{
    pthread_mutex_lock(&contexts_lock);
    int i = 0;
    while (i < MAX_DISPLAYS && !(displays[i].users > 0 && displays[i].display == d)) ++i;
    if (i == MAX_DISPLAYS) /* a new one, in a free place (none: never terminated) */
        for (i = 0; i < MAX_DISPLAYS && displays[i].users > 0;) ++i;
    if (i < MAX_DISPLAYS) displays[i].display = d, displays[i].users++;
    opened_by = getpid();
    pthread_mutex_unlock(&contexts_lock);
}

static void display_release(EGLDisplay d)
{
    pthread_mutex_lock(&contexts_lock);
    for (int i = 0; i < MAX_DISPLAYS; ++i)
        if (displays[i].users > 0 && displays[i].display == d) {
            if (--displays[i].users == 0) eglTerminate(d);
            break;
        }
    pthread_mutex_unlock(&contexts_lock);
}

/* BOIDS_E_FORKED where this process is a child forked while its parent had GPU contexts open:
 * the child has the parent's EGL displays but not the driver's threads behind them, and a context
 * made there hangs. */
static boids_status check_not_forked(void)
{
    pthread_mutex_lock(&contexts_lock);
    bool inherited = false;
    for (int i = 0; i < MAX_DISPLAYS; ++i) inherited |= displays[i].users > 0;
    inherited &= opened_by != 0 && opened_by != getpid();
    const pid_t parent = opened_by;
    pthread_mutex_unlock(&contexts_lock);
    if (!inherited) return BOIDS_OK;
    return boids_fail(BOIDS_E_FORKED,
                      "this process was forked from process %d while it had GPU contexts open, "
                      "and a child cannot use them: start children before opening the GPU, or "
                      "with Python's multiprocessing 'spawn' or 'forkserver' start method",
                      (int)parent);
}

static void GLAD_API_PTR debug_callback(GLenum source, GLenum type, GLuint id, GLenum severity,
                                        GLsizei length, const GLchar *message, const void *user)
{
    (void)source, (void)id, (void)length, (void)user;
    if (severity == GL_DEBUG_SEVERITY_NOTIFICATION) return;
    fprintf(stderr, "boids: GL debug (%s): %s\n", type == GL_DEBUG_TYPE_ERROR ? "error" : "message",
            message);
}

/* After a context is current: load GL, check 4.3 with compute shaders, record the renderer and,
 * when BOIDS_GL_DEBUG is set (or in debug builds), route KHR_debug messages to stderr. */
static boids_status finish_context(boids_gl *gl, GLADloadfunc load, const char *how)
{
    int version = gladLoadGL(load);
    if (!version) return boids_fail(BOIDS_E_NO_GL, "%s: could not load OpenGL functions", how);
    if (!GLAD_GL_VERSION_4_3)
        return boids_fail(BOIDS_E_NO_GL, "%s: OpenGL %d.%d, but 4.3 (compute shaders) is needed",
                          how, GLAD_VERSION_MAJOR(version), GLAD_VERSION_MINOR(version));
    const char *r = (const char *)glGetString(GL_RENDERER);
    snprintf(gl->renderer, sizeof gl->renderer, "%s", r ? r : "unknown renderer");
    boids_status st = boids_gpu_limits_query(&gl->limits);
    if (st != BOIDS_OK) return st;
    current_groups_x = gl->limits.groups_x;
    boids_gpu_block_limit = gl->limits.block_bytes;
    current_gl = gl;
    GLint strategy = 0;
    glGetIntegerv(GL_RESET_NOTIFICATION_STRATEGY, &strategy);
    gl->told_of_resets = strategy == GL_LOSE_CONTEXT_ON_RESET;
    glGetError(); /* a driver without the query: GL_INVALID_ENUM, not the next pass's error */
    int debug = boids_env_switch("BOIDS_GL_DEBUG");
#ifndef NDEBUG
    debug = 1;
#endif
    if (debug && GLAD_GL_KHR_debug) {
        glEnable(GL_DEBUG_OUTPUT);
        glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
        glDebugMessageCallback(debug_callback, NULL);
    }
    return BOIDS_OK;
}

/* Whether the display's EGL device runs on the CPU: Mesa marks its software devices (llvmpipe,
 * and lavapipe under zink) with EGL_MESA_device_software. A property the driver states, never
 * guessed from the renderer's name. */
static bool device_is_software(EGLDisplay dpy)
{
    EGLAttrib device = 0;
    if (!eglQueryDisplayAttribEXT || !eglQueryDeviceStringEXT ||
        !eglQueryDisplayAttribEXT(dpy, EGL_DEVICE_EXT, &device) || !device)
        return false;
    return boids_egl_has_extension(eglQueryDeviceStringEXT((EGLDeviceEXT)device, EGL_EXTENSIONS),
                                   "EGL_MESA_device_software");
}

/* A failed EGL call's error, read at once (a later call, eglTerminate's too, replaces it). */
static boids_status egl_failed(const char *how, const char *call)
{
    char buf[32];
    const char *err = boids_egl_error_name(eglGetError(), buf, sizeof buf);
    return boids_fail(BOIDS_E_NO_GL, "%s: %s failed (%s)", how, call, err);
}

/* A 4.3 core context current on the initialised display dpy, without a surface. */
static boids_status make_context(boids_gl *gl, EGLDisplay dpy, const char *how)
{
    const char *ext = eglQueryString(dpy, EGL_EXTENSIONS);
    if (!boids_egl_has_extension(ext, "EGL_KHR_no_config_context") ||
        !boids_egl_has_extension(ext, "EGL_KHR_surfaceless_context"))
        return boids_fail(BOIDS_E_NO_GL, "%s: no EGL_KHR_no_config_context/surfaceless_context",
                          how);
    if (!eglBindAPI(EGL_OPENGL_API)) return egl_failed(how, "eglBindAPI(desktop OpenGL)");
    int debug = boids_env_switch("BOIDS_GL_DEBUG");
#ifndef NDEBUG
    debug = 1;
#endif
    /* Asked to tell of a GPU reset (EGL 1.5): a GPU resets a context whose pass runs too long or
     * faults, and without the notification every later call silently does nothing, so results
     * would be read from buffers no pass wrote. A driver that refuses it gets the context
     * without (the last pair cut off). */
    EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                        4,
                        EGL_CONTEXT_MINOR_VERSION,
                        3,
                        EGL_CONTEXT_OPENGL_PROFILE_MASK,
                        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                        EGL_CONTEXT_OPENGL_DEBUG,
                        debug ? EGL_TRUE : EGL_FALSE,
                        EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
                        EGL_LOSE_CONTEXT_ON_RESET,
                        EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
    if (ctx == EGL_NO_CONTEXT) {
        attribs[sizeof attribs / sizeof attribs[0] - 3] = EGL_NONE;
        ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
    }
    if (ctx == EGL_NO_CONTEXT) return egl_failed(how, "eglCreateContext(OpenGL 4.3 core)");
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        boids_status st = egl_failed(how, "eglMakeCurrent");
        eglDestroyContext(dpy, ctx);
        return st;
    }
    gl->display = dpy;
    gl->context = ctx;
    gl->software = device_is_software(dpy);
    boids_status st = finish_context(gl, (GLADloadfunc)eglGetProcAddress, how);
    if (st != BOIDS_OK) {
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(dpy, ctx);
        gl->display = EGL_NO_DISPLAY;
        gl->context = EGL_NO_CONTEXT;
    }
    return st;
}

/* Initialises dpy and makes a context current on it; the display is released on failure. */
static boids_status try_display(boids_gl *gl, EGLDisplay dpy, const char *how)
{
    EGLint major, minor;
    if (dpy == EGL_NO_DISPLAY) return egl_failed(how, "eglGetPlatformDisplay");
    if (!eglInitialize(dpy, &major, &minor)) return egl_failed(how, "eglInitialize");
    display_acquire(dpy);
    gladLoaderLoadEGL(dpy); /* display extensions */
    boids_status st = make_context(gl, dpy, how);
    if (st != BOIDS_OK) display_release(dpy);
    return st;
}

/* Device i of the EGL device platform. */
static boids_status try_device(boids_gl *gl, const boids_egl_device *devs, int i, int n)
{
    char how[300];
    snprintf(how, sizeof how, "EGL device %d of %d (%s)", i, n, devs[i].name);
    if (!eglGetPlatformDisplayEXT) return boids_fail(BOIDS_E_NO_GL, "%s: no device platform", how);
    EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devs[i].handle, NULL);
    boids_status st = try_display(gl, dpy, how);
    if (st == BOIDS_OK) snprintf(gl->device, sizeof gl->device, "%s", how);
    return st;
}

/* Mesa's surfaceless platform: its software rasterizer where no GPU is offered. */
static boids_status try_surfaceless(boids_gl *gl, const char *why)
{
    if (!eglGetPlatformDisplayEXT)
        return boids_fail(BOIDS_E_NO_GL, "EGL: eglGetPlatformDisplayEXT is not offered");
    EGLDisplay dpy =
        eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    boids_status st = try_display(gl, dpy, "EGL surfaceless platform");
    if (st == BOIDS_OK)
        snprintf(gl->device, sizeof gl->device, "EGL surfaceless platform, %s", why);
    return st;
}

/* BOIDS_EGL_PLATFORM (device, surfaceless or unset) and BOIDS_EGL_DEVICE (an index of the device
 * list, or unset: *device -1). */
static boids_status read_environment(int ndev, const boids_egl_device *devs, const char **platform,
                                     int *device)
{
    int which;
    boids_status st = boids_env_choice("BOIDS_EGL_PLATFORM", boids_env_egl_platforms, &which);
    *platform = which >= 0 ? boids_env_egl_platforms[which] : NULL;
    *device = -1;
    if (st != BOIDS_OK) return st;
    const char *v = getenv("BOIDS_EGL_DEVICE");
    if (!v || !*v) return BOIDS_OK;
    char list[BOIDS_EGL_MAX_DEVICES * 170] = "";
    uint32_t i = 0;
    if (boids_parse_u32(v, UINT32_MAX, &i) && i < (uint32_t)ndev) return *device = (int)i, BOIDS_OK;
    for (int k = 0, len = 0; k < ndev && len < (int)sizeof list; ++k)
        len += snprintf(list + len, sizeof list - (size_t)len, "; %d: %s", k, devs[k].name);
    return boids_fail_key(BOIDS_E_ENVIRONMENT, "BOIDS_EGL_DEVICE",
                          "'%.40s' is not a device of this machine (%d EGL device%s%s)", v, ndev,
                          ndev == 1 ? "" : "s", list);
}

/* The first hardware device that gives a context. None there: the software rasterizer, unless
 * the machine has a GPU that gave none or that EGL does not offer: then an error that says why. */
static boids_status choose_device(boids_gl *gl, const boids_egl_device *devs, int n,
                                  const char *platform)
{
    char tried[1200] = "";
    size_t len = 0;
    int hardware = 0;
    for (int i = 0; i < n; ++i) {
        if (devs[i].software) continue;
        ++hardware;
        const boids_status st = try_device(gl, devs, i, n);
        /* a bad setting (BOIDS_GPU_LIMIT_*) is the user's to fix, not this device's failure */
        if (st == BOIDS_OK || boids_last_error_info()->id == BOIDS_E_ENVIRONMENT) return st;
        len += (size_t)snprintf(tried + len, len < sizeof tried ? sizeof tried - len : 0, "%s%s",
                                len ? "; " : "", boids_last_error());
    }
    char evidence[300] = "", hints[700];
    if (!hardware && !boids_gpu_kernel_evidence("", evidence, sizeof evidence)) {
        if (platform && !strcmp(platform, "device"))
            return boids_fail(BOIDS_E_NO_GL, "EGL device platform (BOIDS_EGL_PLATFORM=device): no "
                                             "hardware device");
        for (int i = 0; i < n; ++i) /* the software device, as EGL lists it */
            if (devs[i].software && try_device(gl, devs, i, n) == BOIDS_OK) {
                snprintf(gl->device + strlen(gl->device), sizeof gl->device - strlen(gl->device),
                         ": no hardware GPU found");
                return BOIDS_OK;
            }
        return try_surfaceless(gl, "software: no hardware GPU found");
    }
    boids_gpu_context_hints(evidence, hints, sizeof hints);
    if (hardware)
        return boids_fail(BOIDS_E_NO_GL,
                          "the GPU gave no OpenGL 4.3 context, and boids does not fall back to "
                          "software where a GPU exists: %s. Hints: %s",
                          tried, hints);
    return boids_fail(BOIDS_E_NO_GL,
                      "this machine has %s, but EGL offers no device for it (so no OpenGL "
                      "context), and boids does not fall back to software where a GPU exists. "
                      "Hints: %s",
                      evidence, hints);
}

boids_status boids_gl_create_headless(boids_gl **out)
{
    BOIDS_REQUIRE(out, "out");
    *out = NULL;
    boids_status forked = check_not_forked();
    if (forked != BOIDS_OK) return forked;
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY))
        return boids_fail(BOIDS_E_NO_GL, "EGL: could not load libEGL.so.1");
    boids_egl_device devs[BOIDS_EGL_MAX_DEVICES];
    const int n = boids_egl_devices(devs, BOIDS_EGL_MAX_DEVICES);
    const char *platform;
    int device;
    boids_status st = read_environment(n, devs, &platform, &device);
    if (st != BOIDS_OK) return st;
    boids_gl *gl = calloc(1, sizeof *gl);
    if (!gl) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory");
    gl->display = EGL_NO_DISPLAY;
    gl->context = EGL_NO_CONTEXT;
    if (device >= 0)
        st = try_device(gl, devs, device, n);
    else if (platform && !strcmp(platform, "surfaceless"))
        st = try_surfaceless(gl, "asked for by BOIDS_EGL_PLATFORM");
    else
        st = choose_device(gl, devs, n, platform);
    if (st != BOIDS_OK) {
        free(gl);
        return st;
    }
    *out = gl;
    return BOIDS_OK;
}

static void glfw_release(void)
{
    pthread_mutex_lock(&contexts_lock);
    if (--glfw_users == 0) glfwTerminate();
    pthread_mutex_unlock(&contexts_lock);
}

static _Thread_local char glfw_message[512];
static void glfw_error(int code, const char *text)
{
    snprintf(glfw_message, sizeof glfw_message, "GLFW error 0x%x: %s", (unsigned)code, text);
}

boids_status boids_gl_create_window(int width, int height, const char *title, bool visible,
                                    boids_gl **out)
{
    BOIDS_REQUIRE(out, "out");
    *out = NULL;
    BOIDS_REQUIRE(title, "title");
    if (width < 1 || height < 1 || width > 16384 || height > 16384)
        return boids_fail_key(BOIDS_E_ARGUMENT, "width", "a window of %d x %d: each in [1, 16384]",
                              width, height);
    boids_status loaded = boids_glfw_load(); /* "a window needs libglfw.so.3 ..." */
    if (loaded != BOIDS_OK) return loaded;
    glfwSetErrorCallback(glfw_error);
    glfw_message[0] = '\0';
    pthread_mutex_lock(&contexts_lock);
    const bool started = glfw_users > 0 || glfwInit();
    glfw_users += started;
    pthread_mutex_unlock(&contexts_lock);
    if (!started) return boids_fail(BOIDS_E_NO_GL, "no window: %s", glfw_message);
    boids_gl *gl = calloc(1, sizeof *gl);
    if (!gl) {
        glfw_release();
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory");
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    gl->window = glfwCreateWindow(width, height, title, NULL, NULL);
    snprintf(gl->device, sizeof gl->device, "a GLFW window's context");
    if (!gl->window) {
        free(gl);
        glfw_release();
        return boids_fail(BOIDS_E_NO_GL, "no OpenGL 4.3 window: %s", glfw_message);
    }
    glfwMakeContextCurrent(gl->window);
    boids_status st = finish_context(gl, (GLADloadfunc)glfwGetProcAddress, "GLFW window");
    if (st != BOIDS_OK) {
        glfwDestroyWindow(gl->window);
        free(gl);
        glfw_release();
        return st;
    }
    *out = gl;
    return BOIDS_OK;
}

void boids_gl_destroy(boids_gl *gl)
{
    if (!gl) return;
    if (gl->window) {
        glfwDestroyWindow(gl->window);
        glfw_release();
    } else if (gl->display != EGL_NO_DISPLAY) {
        if (eglGetCurrentContext() == gl->context)
            eglMakeCurrent(gl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(gl->display, gl->context);
        display_release(gl->display);
    }
    free(gl);
}

/* The error of every call on a context a GPU reset took. */
static boids_status context_lost(const boids_gl *gl)
{
    return boids_fail(BOIDS_E_GL,
                      "%s reset its OpenGL context (a pass ran too long or faulted, or the "
                      "driver recovered from another program's fault): what the worlds on it "
                      "held on the GPU is lost, and their results since the last good call are "
                      "not to be trusted; make them anew, or run --backend cpu",
                      gl->renderer);
}

boids_status boids_gl_make_current(boids_gl *gl)
{
    BOIDS_REQUIRE(gl, "gl");
    if (gl->lost) return context_lost(gl);
    current_groups_x = gl->limits.groups_x; /* this context's dispatches */
    boids_gpu_block_limit = gl->limits.block_bytes;
    current_gl = gl;
    if (gl->window) {
        if (glfwGetCurrentContext() != gl->window) glfwMakeContextCurrent(gl->window);
        return BOIDS_OK;
    }
    if (eglGetCurrentContext() != gl->context &&
        !eglMakeCurrent(gl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, gl->context)) {
        char buf[32];
        return boids_fail(BOIDS_E_GL, "eglMakeCurrent failed (%s)",
                          boids_egl_error_name(eglGetError(), buf, sizeof buf));
    }
    return BOIDS_OK;
}

void boids_gl_release(boids_gl *gl)
{
    if (gl && !gl->window && eglGetCurrentContext() == gl->context)
        eglMakeCurrent(gl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

const char *boids_gl_renderer(const boids_gl *gl) { return gl ? gl->renderer : ""; }

const char *boids_gl_device(const boids_gl *gl) { return gl ? gl->device : ""; }

bool boids_gl_is_software(const boids_gl *gl) { return gl && gl->software; }

boids_gpu_limits *boids_gl_limits(boids_gl *gl) { return &gl->limits; }

bool boids_gl_told_of_resets(const boids_gl *gl) { return gl && gl->told_of_resets; }

uint32_t boids_gl_dispatch_groups_x(void) { return current_groups_x; }

void boids_gl_texel_view(GLuint unit, GLenum format, GLuint buffer)
{
    boids_gl *gl = current_gl;
    if (!gl || unit >= BOIDS_GL_TEXEL_VIEWS) return;
    if (!gl->views[unit]) glGenTextures(1, &gl->views[unit]);
    glActiveTexture(GL_TEXTURE0 + unit);
    glBindTexture(GL_TEXTURE_BUFFER, gl->views[unit]);
    glTexBuffer(GL_TEXTURE_BUFFER, format, buffer);
    glActiveTexture(GL_TEXTURE0);
}

void *boids_gl_window(const boids_gl *gl) { return gl ? gl->window : NULL; }

/* Whether the driver says the GPU reset the current context (KHR/ARB_robustness). */
static bool reset_happened(void)
{
    if (GLAD_GL_KHR_robustness && glGetGraphicsResetStatus)
        return glGetGraphicsResetStatus() != GL_NO_ERROR;
    if (GLAD_GL_ARB_robustness && glGetGraphicsResetStatusARB)
        return glGetGraphicsResetStatusARB() != GL_NO_ERROR;
    return false;
}

boids_status boids_gl_check(const char *what)
{
    boids_gl *gl = current_gl;
    if (gl && gl->lost) return context_lost(gl);
    GLenum e = glGetError();
    if (e == GL_CONTEXT_LOST || (gl && gl->told_of_resets && reset_happened())) {
        if (gl) gl->lost = true;
        return gl ? context_lost(gl)
                  : boids_fail(BOIDS_E_GL, "%s: the GPU reset the context", what);
    }
    if (e == GL_NO_ERROR) return boids_gpu_checks_take();
    /* a bounded drain: a lost context may say GL_CONTEXT_LOST for ever */
    for (int i = 0; i < 64 && glGetError() != GL_NO_ERROR; ++i) {
    }
    return boids_fail(BOIDS_E_GL, "%s: GL error 0x%x", what, (unsigned)e);
}
