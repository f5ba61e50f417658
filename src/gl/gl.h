/* Internal GL include: glad's loader (generated into the build tree) and the public header, whose
 * boids_gl is the context (gl/context.h has the rest of its interface). */
#ifndef BOIDS_GL_GL_H
#define BOIDS_GL_GL_H

#include <glad/gl.h>

#include "boids.h"

#endif
