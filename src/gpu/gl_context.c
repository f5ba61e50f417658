/* GL 4.3 core contexts behind one small interface: headless through EGL (the device platform on
 * real GPUs, Mesa's surfaceless platform otherwise) or a GLFW window. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/egl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "base/error.h"
#include "gpu/checks.h"
#include "gpu/gl.h"

struct boids_gl {
    EGLDisplay display;
    EGLContext context;
    GLFWwindow *window;
    char renderer[256];
    bool software;       /* the EGL device says it runs on the CPU (EGL_MESA_device_software) */
    uint32_t loop_limit; /* measured by gpu/limits.c on first use; 0 until then */
};

/* EGL hands out one EGLDisplay per platform and device, and eglTerminate ends it for every
 * context on it; GLFW is one library-wide state. Both are therefore counted, so destroying one
 * context never ends another's display or window system. (Contexts are made and destroyed on one
 * thread.) */
#define MAX_DISPLAYS 8
static struct {
    EGLDisplay display;
    int users;
} displays[MAX_DISPLAYS];
static int glfw_users;
/* libEGL, once loaded (glad's loader), stays loaded for the process's life: unloading it when the
 * last context goes and loading it again for the next (--backend auto's probe, then the run's
 * context) leaks inside glvnd and Mesa, and saves nothing. */

static int display_acquire(EGLDisplay d)
{
    for (int i = 0; i < MAX_DISPLAYS; ++i)
        if (displays[i].users > 0 && displays[i].display == d) return ++displays[i].users;
    for (int i = 0; i < MAX_DISPLAYS; ++i)
        if (displays[i].users == 0) {
            displays[i].display = d;
            return displays[i].users = 1;
        }
    return 0; /* table full: never terminate it */
}

static void display_release(EGLDisplay d)
{
    for (int i = 0; i < MAX_DISPLAYS; ++i)
        if (displays[i].users > 0 && displays[i].display == d) {
            if (--displays[i].users == 0) eglTerminate(d);
            return;
        }
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
    int debug = getenv("BOIDS_GL_DEBUG") != NULL;
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

static int has_ext(const char *list, const char *ext)
{
    if (!list) return 0;
    size_t n = strlen(ext);
    for (const char *p = list; (p = strstr(p, ext)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
    return 0;
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
    return has_ext(eglQueryDeviceStringEXT((EGLDeviceEXT)device, EGL_EXTENSIONS),
                   "EGL_MESA_device_software");
}

/* Initialises `dpy` and makes a 4.3 core context current on it, without a surface. */
static boids_status try_display(boids_gl *gl, EGLDisplay dpy, const char *how)
{
    EGLint major, minor;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor))
        return boids_fail(BOIDS_E_NO_GL, "%s: eglInitialize failed", how);
    display_acquire(dpy);
    gladLoaderLoadEGL(dpy); /* display extensions */
    const char *ext = eglQueryString(dpy, EGL_EXTENSIONS);
    if (!has_ext(ext, "EGL_KHR_no_config_context") ||
        !has_ext(ext, "EGL_KHR_surfaceless_context")) {
        display_release(dpy);
        return boids_fail(BOIDS_E_NO_GL, "%s: no EGL_KHR_no_config_context/surfaceless_context",
                          how);
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        display_release(dpy);
        return boids_fail(BOIDS_E_NO_GL, "%s: desktop OpenGL is not offered", how);
    }
    int debug = getenv("BOIDS_GL_DEBUG") != NULL;
#ifndef NDEBUG
    debug = 1;
#endif
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                              4,
                              EGL_CONTEXT_MINOR_VERSION,
                              3,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK,
                              EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                              EGL_CONTEXT_OPENGL_DEBUG,
                              debug ? EGL_TRUE : EGL_FALSE,
                              EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
    if (ctx == EGL_NO_CONTEXT) {
        display_release(dpy);
        return boids_fail(BOIDS_E_NO_GL, "%s: no OpenGL 4.3 core context (EGL error 0x%x)", how,
                          (unsigned)eglGetError());
    }
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        eglDestroyContext(dpy, ctx);
        display_release(dpy);
        return boids_fail(BOIDS_E_NO_GL, "%s: eglMakeCurrent failed", how);
    }
    gl->display = dpy;
    gl->context = ctx;
    gl->software = device_is_software(dpy);
    boids_status st = finish_context(gl, (GLADloadfunc)eglGetProcAddress, how);
    if (st != BOIDS_OK) {
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(dpy, ctx);
        display_release(dpy);
        gl->display = EGL_NO_DISPLAY;
        gl->context = EGL_NO_CONTEXT;
    }
    return st;
}

/* EGL_EXT_platform_device: the first hardware device that gives a context. */
static boids_status try_device_platform(boids_gl *gl)
{
    if (!eglQueryDevicesEXT || !eglGetPlatformDisplayEXT || !eglQueryDeviceStringEXT)
        return boids_fail(BOIDS_E_NO_GL, "EGL device platform: not offered");
    EGLDeviceEXT devices[16];
    EGLint n = 0;
    if (!eglQueryDevicesEXT(16, devices, &n) || n == 0)
        return boids_fail(BOIDS_E_NO_GL, "EGL device platform: no devices");
    for (EGLint i = 0; i < n; ++i) {
        const char *ext = eglQueryDeviceStringEXT(devices[i], EGL_EXTENSIONS);
        if (has_ext(ext, "EGL_MESA_device_software")) continue; /* llvmpipe: use surfaceless */
        EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
        if (try_display(gl, dpy, "EGL device platform") == BOIDS_OK) return BOIDS_OK;
    }
    return boids_fail(BOIDS_E_NO_GL, "EGL device platform: no hardware device gave a context");
}

static boids_status try_surfaceless_platform(boids_gl *gl)
{
    if (!eglGetPlatformDisplayEXT)
        return boids_fail(BOIDS_E_NO_GL, "EGL: eglGetPlatformDisplayEXT is not offered");
    EGLDisplay dpy =
        eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    return try_display(gl, dpy, "EGL surfaceless platform");
}

boids_status boids_gl_create_headless(boids_gl **out)
{
    *out = NULL;
    boids_gl *gl = calloc(1, sizeof *gl);
    if (!gl) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory");
    gl->display = EGL_NO_DISPLAY;
    gl->context = EGL_NO_CONTEXT;
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) {
        free(gl);
        return boids_fail(BOIDS_E_NO_GL, "EGL: could not load libEGL");
    }
    const char *force = getenv("BOIDS_EGL_PLATFORM");
    boids_status st;
    char why[600] = "";
    if (force && strcmp(force, "device") == 0) {
        st = try_device_platform(gl);
        snprintf(why, sizeof why, "%s", boids_last_error());
    } else if (force && strcmp(force, "surfaceless") == 0) {
        st = try_surfaceless_platform(gl);
        snprintf(why, sizeof why, "%s", boids_last_error());
    } else {
        st = try_device_platform(gl);
        if (st != BOIDS_OK) {
            char first[300];
            snprintf(first, sizeof first, "%s", boids_last_error());
            st = try_surfaceless_platform(gl);
            snprintf(why, sizeof why, "%s; %s", first, boids_last_error());
        }
    }
    if (st != BOIDS_OK) {
        free(gl);
        return boids_fail(BOIDS_E_NO_GL, "no OpenGL 4.3 context with compute shaders (%s)", why);
    }
    *out = gl;
    return BOIDS_OK;
}

static void glfw_release(void)
{
    if (--glfw_users == 0) glfwTerminate();
}

static _Thread_local char glfw_message[512];
static void glfw_error(int code, const char *text)
{
    snprintf(glfw_message, sizeof glfw_message, "GLFW error 0x%x: %s", (unsigned)code, text);
}

boids_status boids_gl_create_window(int width, int height, const char *title, bool visible,
                                    boids_gl **out)
{
    *out = NULL;
    glfwSetErrorCallback(glfw_error);
    glfw_message[0] = '\0';
    if (glfw_users == 0 && !glfwInit())
        return boids_fail(BOIDS_E_NO_GL, "no window: %s", glfw_message);
    glfw_users++;
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

boids_status boids_gl_make_current(boids_gl *gl)
{
    if (gl->window) {
        if (glfwGetCurrentContext() != gl->window) glfwMakeContextCurrent(gl->window);
        return BOIDS_OK;
    }
    if (eglGetCurrentContext() != gl->context &&
        !eglMakeCurrent(gl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, gl->context))
        return boids_fail(BOIDS_E_GL, "eglMakeCurrent failed (EGL error 0x%x)",
                          (unsigned)eglGetError());
    return BOIDS_OK;
}

const char *boids_gl_renderer(const boids_gl *gl) { return gl->renderer; }

bool boids_gl_is_software(const boids_gl *gl) { return gl->software; }

uint32_t *boids_gl_loop_limit_slot(boids_gl *gl) { return &gl->loop_limit; }

void *boids_gl_window(const boids_gl *gl) { return gl->window; }

boids_status boids_gl_check(const char *what)
{
    GLenum e = glGetError();
    if (e == GL_NO_ERROR) return boids_gpu_checks_take();
    while (glGetError() != GL_NO_ERROR) {
    }
    return boids_fail(BOIDS_E_GL, "%s: GL error 0x%x", what, (unsigned)e);
}
