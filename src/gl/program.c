#include "gl/program.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/environment.h"
#include "base/error.h"
#include "gl/shader_sources.h"

boids_status boids_gpu_numerics_perturbed(bool *perturbed)
{
    int numerics;
    boids_status st = boids_env_choice("BOIDS_GPU_NUMERICS", boids_env_gpu_numerics, &numerics);
    *perturbed = numerics == 1;
    return st;
}

/* The file of source number n in a legend ("...; n = name; ..."), into out; "" if none. */
static void legend_file(const char *legend, long n, char *out, size_t size)
{
    char key[24];
    snprintf(key, sizeof key, " %ld = ", n);
    const char *at = strstr(legend, key);
    out[0] = '\0';
    if (at) snprintf(out, size, "%.*s", (int)strcspn(at + strlen(key), ";"), at + strlen(key));
}

/* A log's lines with the driver's places ("0:100073(1): " as Mesa writes them, "0(100073) : " as
 * NVIDIA does) as file:line where the program's lines encode the file (BOIDS_SHADER_LINE_SPAN);
 * other lines as they are. To stderr where `show`; its first line, so translated, into first. */
static void print_log(const char *log, const char *legend, char *first, size_t size, bool show)
{
    first[0] = '\0';
    const bool spans =
        strncmp(legend, BOIDS_SHADER_LINE_LEGEND, strlen(BOIDS_SHADER_LINE_LEGEND)) == 0;
    for (const char *p = log; p && *p;) {
        const char *end = strchr(p, '\n');
        const int n = end ? (int)(end - p) : (int)strlen(p);
        long src = 0, line = 0;
        int used = 0;
        char file[600];
        if (spans &&
            (sscanf(p, "%ld:%ld%n", &src, &line, &used) == 2 ||
             sscanf(p, "%ld(%ld)%n", &src, &line, &used) == 2) &&
            line >= BOIDS_SHADER_LINE_SPAN && used < n) {
            legend_file(legend, line / BOIDS_SHADER_LINE_SPAN, file, sizeof file);
            if (show)
                fprintf(stderr, "%s:%ld%.*s\n", file, line % BOIDS_SHADER_LINE_SPAN, n - used,
                        p + used);
            if (!first[0])
                snprintf(first, size, "%s:%ld%.*s", file, line % BOIDS_SHADER_LINE_SPAN, n - used,
                         p + used);
        } else if (show) {
            fprintf(stderr, "%.*s\n", n, p);
        }
        p = end ? end + 1 : NULL;
    }
}

/* Whether this program (its name and defines) failed to compile before in this process, so its
 * log was printed whole already: a tool that makes several worlds (boids check: a world per
 * configuration) would print the same log for each. */
static bool failed_before(const char *name, const char *defines)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static char seen[8][256];
    static int count;
    char key[256];
    snprintf(key, sizeof key, "%s|%s", name, defines);
    pthread_mutex_lock(&lock);
    bool found = false;
    for (int i = 0; i < count && i < 8 && !found; ++i) found = strcmp(seen[i], key) == 0;
    if (!found) snprintf(seen[count++ % 8], sizeof seen[0], "%s", key);
    pthread_mutex_unlock(&lock);
    return found;
}

static boids_status compile(GLenum type, const char *name, int dims, const char *extra, GLuint *out)
{
    const boids_shader_source *src = boids_shader_find(name);
    if (!src) return boids_fail(BOIDS_E_SHADER, "shader %s was not embedded in this build", name);
    bool perturbed = false;
    boids_status st = boids_gpu_numerics_perturbed(&perturbed);
    if (st != BOIDS_OK) return st;
    /* The definitions (the perturbed numerics, a 3D world's dimension) go after the #version line
     * (the source's #line directives that follow keep the error messages' numbers right). */
    const char *after_version = strchr(src->text, '\n');
    char defines[192] = "";
    if (perturbed && type == GL_COMPUTE_SHADER)
        strcat(defines, "#define BOIDS_NUMERICS_PERTURBED 1\n");
    if (dims == 3) strcat(defines, "#define BOIDS_DIMS 3\n");
    if (extra && strlen(defines) + strlen(extra) < sizeof defines) strcat(defines, extra);
    const char *parts[3] = {src->text, defines, ""};
    GLint lengths[3] = {-1, -1, -1};
    GLsizei count = 1;
    if (defines[0] && after_version) {
        lengths[0] = (GLint)(after_version + 1 - src->text);
        parts[2] = after_version + 1;
        count = 3;
    }
    GLuint sh = glCreateShader(type);
    glShaderSource(sh, count, parts, lengths);
    glCompileShader(sh);
    GLint ok = 0, len = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        glGetShaderiv(sh, GL_INFO_LOG_LENGTH, &len);
        char *log = calloc(1, (size_t)len + 1);
        if (log) glGetShaderInfoLog(sh, len, NULL, log);
        /* The full log goes to stderr (it can be long), once; the error text keeps the first
         * line. */
        const bool again = failed_before(name, defines);
        if (!again)
            fprintf(stderr, "boids: compiling %s failed (source numbers: %s):\n", name,
                    src->legend);
        char first[700];
        print_log(log ? log : "", src->legend, first, sizeof first, !again);
        if (first[0]) /* a place in a file: the error says it alone */
            st = boids_fail(BOIDS_E_SHADER, "compiling shader %s failed: %s", name, first);
        else
            st = boids_fail(BOIDS_E_SHADER, "compiling shader %s failed (sources: %s): %.300s",
                            name, src->legend, log ? log : "");
        free(log);
        glDeleteShader(sh);
        return st;
    }
    *out = sh;
    return BOIDS_OK;
}

static boids_status link(GLuint prog, const char *what)
{
    glLinkProgram(prog);
    GLint ok = 0, len = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (ok) return BOIDS_OK;
    glGetProgramiv(prog, GL_INFO_LOG_LENGTH, &len);
    char *log = calloc(1, (size_t)len + 1);
    if (log) glGetProgramInfoLog(prog, len, NULL, log);
    fprintf(stderr, "boids: linking %s failed:\n%s\n", what, log ? log : "");
    boids_status st = boids_fail(BOIDS_E_SHADER, "linking %s failed: %.300s", what, log ? log : "");
    free(log);
    return st;
}

boids_status boids_program_compute(const char *name, int dims, GLuint *out)
{
    return boids_program_compute_with(name, dims, NULL, out);
}

boids_status boids_program_compute_with(const char *name, int dims, const char *defines,
                                        GLuint *out)
{
    GLuint cs;
    boids_status st = compile(GL_COMPUTE_SHADER, name, dims, defines, &cs);
    if (st != BOIDS_OK) return st;
    GLuint prog = glCreateProgram();
    glAttachShader(prog, cs);
    st = link(prog, name);
    glDeleteShader(cs);
    if (st != BOIDS_OK) {
        glDeleteProgram(prog);
        return st;
    }
    glObjectLabel(GL_PROGRAM, prog, -1,
                  name); /* for the check mode's and the debug output's messages */
    *out = prog;
    return BOIDS_OK;
}

boids_status boids_program_graphics(const char *vert, const char *frag, GLuint *out)
{
    GLuint vs, fs;
    boids_status st = compile(GL_VERTEX_SHADER, vert, 2, NULL, &vs);
    if (st != BOIDS_OK) return st;
    st = compile(GL_FRAGMENT_SHADER, frag, 2, NULL, &fs);
    if (st != BOIDS_OK) {
        glDeleteShader(vs);
        return st;
    }
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    st = link(prog, vert);
    glDeleteShader(vs);
    glDeleteShader(fs);
    if (st != BOIDS_OK) {
        glDeleteProgram(prog);
        return st;
    }
    glObjectLabel(GL_PROGRAM, prog, -1, vert);
    *out = prog;
    return BOIDS_OK;
}
