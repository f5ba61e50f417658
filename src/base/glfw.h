/* GLFW, loaded when a window is first asked for (base/library.h): a headless program never needs
 * libglfw.so.3, nor the X or Wayland libraries it brings. Include this instead of
 * <GLFW/glfw3.h>; after boids_glfw_load() succeeded, the glfw* calls below work as usual. A
 * program that links GLFW itself shares the same library (dlopen returns the one loaded). */
#ifndef BOIDS_BASE_GLFW_H
#define BOIDS_BASE_GLFW_H

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "boids.h"

/* Every GLFW function the project calls; a call to one not listed fails to link. */
#define BOIDS_GLFW_FUNCTIONS(X)                                                                    \
    X(glfwCreateWindow)                                                                            \
    X(glfwDestroyWindow)                                                                           \
    X(glfwGetCurrentContext)                                                                       \
    X(glfwGetFramebufferSize)                                                                      \
    X(glfwGetProcAddress)                                                                          \
    X(glfwGetTime)                                                                                 \
    X(glfwGetWindowSize)                                                                           \
    X(glfwGetWindowUserPointer)                                                                    \
    X(glfwInit)                                                                                    \
    X(glfwMakeContextCurrent)                                                                      \
    X(glfwPollEvents)                                                                              \
    X(glfwSetCursorPosCallback)                                                                    \
    X(glfwSetErrorCallback)                                                                        \
    X(glfwSetKeyCallback)                                                                          \
    X(glfwSetMouseButtonCallback)                                                                  \
    X(glfwSetScrollCallback)                                                                       \
    X(glfwSetWindowShouldClose)                                                                    \
    X(glfwSetWindowUserPointer)                                                                    \
    X(glfwSwapBuffers)                                                                             \
    X(glfwSwapInterval)                                                                            \
    X(glfwTerminate)                                                                               \
    X(glfwWindowHint)                                                                              \
    X(glfwWindowShouldClose)

#define BOIDS_GLFW_MEMBER(name) __typeof__(name) *name;
typedef struct boids_glfw_table {
    BOIDS_GLFW_FUNCTIONS(BOIDS_GLFW_MEMBER)
} boids_glfw_table;
#undef BOIDS_GLFW_MEMBER

/* Filled by boids_glfw_load; call through the names below, not through this. */
extern boids_glfw_table boids_glfw;

/* Loads libglfw.so.3 once per process; BOIDS_E_NO_GL naming the library and its package when it
 * is missing. Every call returns the first one's result. */
boids_status boids_glfw_load(void);

/* The names, redirected to the table (the preprocessor does not expand a name inside its own
 * expansion, so boids_glfw.glfwInit stays a member). glfw.c, which fills the table by name, goes
 * without. */
#ifndef BOIDS_GLFW_LOADER
#define glfwCreateWindow boids_glfw.glfwCreateWindow
#define glfwDestroyWindow boids_glfw.glfwDestroyWindow
#define glfwGetCurrentContext boids_glfw.glfwGetCurrentContext
#define glfwGetFramebufferSize boids_glfw.glfwGetFramebufferSize
#define glfwGetProcAddress boids_glfw.glfwGetProcAddress
#define glfwGetTime boids_glfw.glfwGetTime
#define glfwGetWindowSize boids_glfw.glfwGetWindowSize
#define glfwGetWindowUserPointer boids_glfw.glfwGetWindowUserPointer
#define glfwInit boids_glfw.glfwInit
#define glfwMakeContextCurrent boids_glfw.glfwMakeContextCurrent
#define glfwPollEvents boids_glfw.glfwPollEvents
#define glfwSetCursorPosCallback boids_glfw.glfwSetCursorPosCallback
#define glfwSetErrorCallback boids_glfw.glfwSetErrorCallback
#define glfwSetKeyCallback boids_glfw.glfwSetKeyCallback
#define glfwSetMouseButtonCallback boids_glfw.glfwSetMouseButtonCallback
#define glfwSetScrollCallback boids_glfw.glfwSetScrollCallback
#define glfwSetWindowShouldClose boids_glfw.glfwSetWindowShouldClose
#define glfwSetWindowUserPointer boids_glfw.glfwSetWindowUserPointer
#define glfwSwapBuffers boids_glfw.glfwSwapBuffers
#define glfwSwapInterval boids_glfw.glfwSwapInterval
#define glfwTerminate boids_glfw.glfwTerminate
#define glfwWindowHint boids_glfw.glfwWindowHint
#define glfwWindowShouldClose boids_glfw.glfwWindowShouldClose
#endif

#endif
