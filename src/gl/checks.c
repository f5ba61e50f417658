#include "gl/checks.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/environment.h"
#include "base/error.h"

_Thread_local boids_gpu_command_count boids_gpu_commands;
_Thread_local uint64_t boids_gpu_block_limit = UINT64_MAX;

static int checks_state = -1; /* -1 unread, 0 off, 1 on */
static char violation[400];   /* the first one not yet taken */

bool boids_gpu_checks_on(void)
{
    if (checks_state < 0) {
        checks_state = boids_env_switch("BOIDS_GPU_CHECKS");
    }
    return checks_state == 1;
}

void boids_gpu_poison(GLuint buffer)
{
    if (!boids_gpu_checks_on() || !buffer) return;
    const GLuint word = BOIDS_GPU_POISON_WORD;
    GLint old = 0;
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &old);
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
    glClearBufferData(GL_COPY_WRITE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &word);
    glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)old);
    /* The clear done before anything else touches the buffer. Without this, NVIDIA's driver
     * (580.159, an H200) let the glBufferSubData that followed at once (the predators of a world
     * whose number of them had just changed) land first, and the clear then wiped it: the state
     * read back as poison though GL orders the two commands. */
    glFinish();
}

uint64_t boids_gpu_buffer_bytes(GLuint b)
{
    if (!b) return 0;
    GLint old = 0;
    GLint64 size = 0;
    glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &old);
    glBindBuffer(GL_COPY_READ_BUFFER, b);
    glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
    glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)old);
    return size > 0 ? (uint64_t)size : 0;
}

/* Records the first violation (printf-style) and prints it. */
__attribute__((format(printf, 1, 2))) static void note(const char *fmt, ...)
{
    if (violation[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(violation, sizeof violation, fmt, ap);
    va_end(ap);
    fprintf(stderr, "boids: GPU check: %s\n", violation);
}

/* The blocks of one interface (storage or uniform) of prog against the indexed bindings. */
static void check_interface(GLuint prog, const char *what, GLenum iface, GLenum binding_query,
                            GLenum size_query)
{
    GLint blocks = 0;
    glGetProgramInterfaceiv(prog, iface, GL_ACTIVE_RESOURCES, &blocks);
    for (GLint i = 0; i < blocks; ++i) {
        const GLenum props[2] = {GL_BUFFER_BINDING, GL_BUFFER_DATA_SIZE};
        GLint v[2] = {0, 0};
        char name[64] = "";
        glGetProgramResourceiv(prog, iface, (GLuint)i, 2, props, 2, NULL, v);
        glGetProgramResourceName(prog, iface, (GLuint)i, sizeof name, NULL, name);
        GLint bound = 0;
        GLint64 range = 0;
        glGetIntegeri_v(binding_query, (GLuint)v[0], &bound);
        glGetInteger64i_v(size_query, (GLuint)v[0], &range);
        if (!bound) {
            note("%s: block %s (binding %d) has no buffer bound", what, name, (int)v[0]);
            continue;
        }
        GLint64 size = range ? range : (GLint64)boids_gpu_buffer_bytes((GLuint)bound);
        if (size <= 0)
            note("%s: block %s (binding %d) is bound to a buffer without storage", what, name,
                 (int)v[0]);
        else if (iface == GL_SHADER_STORAGE_BLOCK && (uint64_t)size > boids_gpu_block_limit)
            note("%s: block %s (binding %d) is bound to %lld bytes, more than the storage block "
                 "allows (%llu bytes)",
                 what, name, (int)v[0], (long long)size, (unsigned long long)boids_gpu_block_limit);
    }
}

/* The program's buffer textures (samplerBuffer and its integer kinds): each unit must show a
 * buffer with storage (an unbound one reads as zeros on llvmpipe, as garbage elsewhere). */
static void check_texels(GLuint prog, const char *what)
{
    GLint uniforms = 0;
    glGetProgramInterfaceiv(prog, GL_UNIFORM, GL_ACTIVE_RESOURCES, &uniforms);
    for (GLint i = 0; i < uniforms; ++i) {
        const GLenum props[2] = {GL_TYPE, GL_LOCATION};
        GLint v[2] = {0, -1};
        glGetProgramResourceiv(prog, GL_UNIFORM, (GLuint)i, 2, props, 2, NULL, v);
        if (v[0] != GL_SAMPLER_BUFFER && v[0] != GL_INT_SAMPLER_BUFFER &&
            v[0] != GL_UNSIGNED_INT_SAMPLER_BUFFER)
            continue;
        char name[64] = "";
        glGetProgramResourceName(prog, GL_UNIFORM, (GLuint)i, sizeof name, NULL, name);
        GLint unit = 0, texture = 0, buffer = 0;
        glGetUniformiv(prog, v[1], &unit);
        glActiveTexture(GL_TEXTURE0 + (GLenum)unit);
        glGetIntegerv(GL_TEXTURE_BINDING_BUFFER, &texture);
        if (texture)
            glGetTexLevelParameteriv(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_BUFFER_DATA_STORE_BINDING,
                                     &buffer);
        glActiveTexture(GL_TEXTURE0);
        if (!buffer || boids_gpu_buffer_bytes((GLuint)buffer) == 0)
            note("%s: buffer texture %s (unit %d) shows no buffer", what, name, (int)unit);
    }
}

void boids_gpu_check_bindings(const char *what)
{
    if (!boids_gpu_checks_on()) return;
    GLint prog = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &prog);
    char label[96] = "";
    if (prog) glGetObjectLabel(GL_PROGRAM, (GLuint)prog, sizeof label, NULL, label);
    char pass[200];
    snprintf(pass, sizeof pass, "%s (program %s)", what, label[0] ? label : "without a name");
    if (!prog) {
        note("%s: no program in use", pass);
        return;
    }
    check_interface((GLuint)prog, pass, GL_SHADER_STORAGE_BLOCK, GL_SHADER_STORAGE_BUFFER_BINDING,
                    GL_SHADER_STORAGE_BUFFER_SIZE);
    check_interface((GLuint)prog, pass, GL_UNIFORM_BLOCK, GL_UNIFORM_BUFFER_BINDING,
                    GL_UNIFORM_BUFFER_SIZE);
    check_texels((GLuint)prog, pass);
}

boids_status boids_gpu_checks_take(void)
{
    if (!violation[0]) return BOIDS_OK;
    boids_status st = boids_fail(BOIDS_E_GL, "GPU check failed: %s", violation);
    violation[0] = '\0';
    return st;
}
