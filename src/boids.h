/* boids.h: the one public header of the boids library.
 *
 * A world holds N boids in a W x H rectangle and steps them with one of the models of the papers
 * on one of two backends: OpenGL 4.3 compute shaders (BOIDS_BACKEND_GPU) or the plain C reference
 * (BOIDS_BACKEND_CPU). Both sit behind this API, so the program, the tests and the benchmark drive
 * them identically:
 *
 *     boids_world_def def = boids_default_world_def();   // every field filled, units below
 *     def.count = 100000;
 *     boids_world *w;
 *     if (boids_world_create(&def, &w) != BOIDS_OK) fprintf(stderr, "%s\n", boids_last_error());
 *     boids_world_step(w, 600);
 *     boids_world_read(w, boids, n);                       // in id order
 *     boids_world_destroy(w);
 *
 * Errors: every function that can fail returns a boids_status; the text of the last error on the
 * calling thread is boids_last_error(). Library code never exits the process.
 */
#ifndef BOIDS_H
#define BOIDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boids_shared.h" /* boids_params: the model parameters, shared with the shaders */

#ifdef __cplusplus
extern "C" {
#endif

#define BOIDS_VERSION_STRING "0.1.0"

/* ---- errors ---------------------------------------------------------------------------------- */

/* Stable codes; the X-macro keeps each code and its name in one place. */
#define BOIDS_STATUS_LIST(X)                                                                        \
    X(BOIDS_OK, "ok")                                                                               \
    X(BOIDS_ERR_INVALID, "invalid argument")                                                        \
    X(BOIDS_ERR_PARSE, "bad input file")                                                            \
    X(BOIDS_ERR_IO, "input/output error")                                                           \
    X(BOIDS_ERR_NO_MEMORY, "out of memory")                                                         \
    X(BOIDS_ERR_NO_GL, "no OpenGL 4.3 context with compute shaders")                                \
    X(BOIDS_ERR_GL, "OpenGL error")                                                                 \
    X(BOIDS_ERR_LIMIT, "a limit of the machine was exceeded")                                       \
    X(BOIDS_ERR_INTERNAL, "internal error")

typedef enum boids_status {
#define BOIDS_X_ENUM(code, text) code,
    BOIDS_STATUS_LIST(BOIDS_X_ENUM)
#undef BOIDS_X_ENUM
} boids_status;

/* Short name of a status ("invalid argument"). Never NULL. */
const char *boids_status_text(boids_status status);
/* One-line description of the last error raised on this thread; "" if none. The pointer stays
 * valid until the next failing call on this thread. */
const char *boids_last_error(void);

/* ---- models ---------------------------------------------------------------------------------- */

typedef enum boids_model {
    BOIDS_MODEL_SHIFFMAN_PER_SECOND, /* shiffman-per-second-model.md §3 (default)          */
    BOIDS_MODEL_ADAMS,               /* adams-simple-boids.md; §1 of the same             */
    BOIDS_MODEL_SHIFFMAN_PROCESSING, /* shiffman-per-second-model.md §2, table 2.6        */
    BOIDS_MODEL_SHIFFMAN_NOC,        /* shiffman-per-second-model.md §2, table 2.7        */
    BOIDS_MODEL_HYBRID,              /* hybrid-model.md §3                                */
    BOIDS_MODEL_PRIORITY,            /* priority-allocation.md, priority allocation       */
    BOIDS_MODEL_MEAN,                /* priority-allocation.md, mean allocation           */
    BOIDS_MODEL_COUNT
} boids_model;

/* Time base of a model: per-second models integrate with dt, frame-based ones advance one frame
 * per step and ignore dt. */
typedef enum boids_time_base { BOIDS_TIME_PER_SECOND, BOIDS_TIME_PER_FRAME } boids_time_base;

#define BOIDS_PARAM_RADIUS 1u   /* an interaction radius: the grid's cells are at least as large */
#define BOIDS_PARAM_INTEGER 2u  /* a whole number (a count, or a 0/1 switch with max 1) */

/* One settable parameter of a model: its name for --set, where it lives, its unit and range. */
typedef struct boids_param_info {
    const char *name;        /* e.g. "max_speed" */
    size_t offset;           /* offsetof(boids_params, field) */
    const char *unit;        /* e.g. "px/s" */
    float min, max;          /* inclusive range */
    float ui_max;            /* top of the viewer's slider (from max(min, 0)) */
    unsigned flags;          /* BOIDS_PARAM_* */
    const char *description; /* one line, with the paper's symbol */
} boids_param_info;

/* CLI name ("shiffman-per-second"), or NULL for an unknown model. */
const char *boids_model_name(boids_model model);
/* Looks a model up by its CLI name; BOIDS_ERR_INVALID (listing the names) if unknown. */
boids_status boids_model_from_name(const char *name, boids_model *out);
boids_time_base boids_model_time_base(boids_model model);
/* The model's paper values for every parameter. */
boids_params boids_model_default_params(boids_model model);
/* The parameters the model reads; *count receives their number. */
const boids_param_info *boids_model_params(boids_model model, size_t *count);
/* Sets one parameter by name from text, with a range check; errors name the key and the range. */
boids_status boids_params_set(boids_model model, boids_params *params, const char *key,
                              const char *value);
/* Checks every parameter of the model against its range (and finiteness). */
boids_status boids_params_validate(boids_model model, const boids_params *params);
/* "wrap", "bounded", "processing" -> BOIDS_EDGES_*; false for another name. */
bool boids_edges_from_name(const char *name, float *out);
const char *boids_edges_name(float edges);
/* Largest interaction radius of the model with these parameters, in px. */
float boids_params_max_radius(boids_model model, const boids_params *params);

/* ---- GL context ------------------------------------------------------------------------------ */

/* An OpenGL 4.3 core context: headless (EGL: the device platform on real GPUs, Mesa's surfaceless
 * platform otherwise) or a GLFW window. One small interface for both. */
typedef struct boids_gl boids_gl;

/* Headless context. BOIDS_ERR_NO_GL when no GL 4.3 context with compute shaders can be made. The
 * environment variable BOIDS_EGL_PLATFORM=device|surfaceless forces one platform. */
boids_status boids_gl_create_headless(boids_gl **out);
/* Window of width x height screen coordinates (GLFW), context current on this thread. */
boids_status boids_gl_create_window(int width, int height, const char *title, bool visible,
                                    boids_gl **out);
/* Destroys the context; others on the same display or window system live on. */
void boids_gl_destroy(boids_gl *gl);
/* Makes gl current on this thread (a no-op when it already is). Worlds do this themselves at
 * every call, so several GPU worlds, each with its own context, can be used in turn. */
boids_status boids_gl_make_current(boids_gl *gl);
/* GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)". Valid while gl lives. */
const char *boids_gl_renderer(const boids_gl *gl);
/* The GLFWwindow* of a window context, NULL for a headless one. */
void *boids_gl_window(const boids_gl *gl);

/* ---- worlds ---------------------------------------------------------------------------------- */

typedef enum boids_backend { BOIDS_BACKEND_GPU, BOIDS_BACKEND_CPU } boids_backend;

/* How the CPU backend finds neighbours: the uniform grid (default) or brute force O(N^2), which
 * exists for tests. The GPU backend always uses the grid. */
typedef enum boids_neighbor_search { BOIDS_NEIGHBORS_GRID, BOIDS_NEIGHBORS_BRUTE } boids_neighbor_search;

/* One boid as the API reads and writes it; its id is its index in the array. Units are the
 * model's own: px and px/s for per-second models, px and px/frame for frame-based ones. */
typedef struct boids_boid {
    float x, y;     /* position: 0 <= x < width, 0 <= y < height where the world wraps; in a
                       bounded world boids may be outside (the model steers them back) */
    float vx, vy;   /* velocity */
    uint32_t swarm; /* 0 <= swarm < swarms */
    float bias;     /* Adams' per-scout bias value (its dynamic state); 0 elsewhere */
} boids_boid;

typedef struct boids_world_def {
    boids_model model;      /* default BOIDS_MODEL_SHIFFMAN_PER_SECOND */
    boids_params params;    /* default: the model's paper values */
    boids_backend backend;  /* default BOIDS_BACKEND_GPU */
    uint32_t count;         /* number of boids N; default 100000 */
    uint32_t swarms;        /* number of swarms K >= 1; boid i starts in swarm i mod K; default 1 */
    float width, height;    /* world size in px; 0 = 16:9 at one boid per 1000 px^2 (default) */
    float dt;               /* step in s for per-second models; default 1/60 */
    uint64_t seed;          /* initial state; default 1 */
    float cell_size;        /* grid cell in px; 0 = the largest interaction radius (default);
                               must be >= that radius; the grid tiles the world exactly, so
                               cells may be slightly larger than asked */
    boids_neighbor_search neighbors; /* CPU only; default BOIDS_NEIGHBORS_GRID */
    int threads;            /* CPU only: worker threads, 0 = one per core (default) */
    boids_gl *gl;           /* GPU only: context to use (current on this thread); NULL = the
                               world creates and owns a headless one */
} boids_world_def;

typedef struct boids_world boids_world;

/* Most swarms a world may have. */
#define BOIDS_MAX_SWARMS 1024u

/* Largest velocity component a written state may hold (px/s or px/frame): far above any speed
 * limit, small enough that sums of N velocities cannot overflow a float. */
#define BOIDS_MAX_STATE_SPEED 1e7f

/* Facts about a created world (all sizes resolved). */
typedef struct boids_world_info {
    boids_model model;
    boids_backend backend;
    uint32_t count, swarms;
    float width, height;          /* px */
    uint32_t grid_w, grid_h;      /* cells */
    float cell_w, cell_h;         /* px */
    int threads;                  /* CPU worker threads (1 for GPU) */
    const char *renderer;         /* GL_RENDERER for GPU, "CPU reference" otherwise */
    uint64_t steps;               /* steps taken since creation or the last write */
    boids_params params;          /* the parameters in force */
    float dt;                     /* s */
    uint64_t seed;
} boids_world_info;

/* Every default filled in (see the field comments). */
boids_world_def boids_default_world_def(void);
/* The default world size for n boids: 16:9, one boid per 1000 px^2, whole px. */
void boids_default_world_size(uint32_t n, float *width, float *height);

/* Validates def, allocates the backend and fills a random initial state from def->seed
 * (positions uniform in the world, headings uniform, speeds uniform in [min_speed, max_speed]).
 * On failure *out is NULL and nothing is leaked. */
boids_status boids_world_create(const boids_world_def *def, boids_world **out);
void boids_world_destroy(boids_world *world);

/* Advances `steps` steps. The GPU backend only records GL commands: no read-back happens here. */
boids_status boids_world_step(boids_world *world, uint32_t steps);
/* Blocks until every step issued has finished (glFinish on the GPU); for timing. */
void boids_world_finish(boids_world *world);

/* Copies the state out in id order; n must equal the world's count. Checks what it returns: a
 * non-finite value (never expected) is BOIDS_ERR_INTERNAL, and a GPU whose shader loops were cut
 * short (llvmpipe stops a shader invocation after about 65535 loop iterations: a neighbourhood
 * that dense) is BOIDS_ERR_LIMIT, never a silently wrong state. */
boids_status boids_world_read(boids_world *world, boids_boid *out, size_t n);
/* Replaces the state (in id order); checks every value: finite, inside the world, velocity
 * components within +-BOIDS_MAX_STATE_SPEED, swarm < K. */
boids_status boids_world_write(boids_world *world, const boids_boid *in, size_t n);
/* The checks of boids_world_write alone; *bad (if not NULL) receives the index of the first boid
 * that fails them (SIZE_MAX if none or if n is wrong). */
boids_status boids_world_validate_state(const boids_world *world, const boids_boid *in, size_t n,
                                        size_t *bad);

void boids_world_get_info(const boids_world *world, boids_world_info *info);

/* Changes the model parameters of a running world (the viewer's panel): validated like a
 * definition; the grid follows the radii. On failure nothing changes. */
boids_status boids_world_set_params(boids_world *world, const boids_params *params);
/* Sets the mouse tool's force field (boids_tool in boids_shared.h); kind NONE switches it off. */
boids_status boids_world_set_tool(boids_world *world, const boids_tool *tool);
/* The GL buffer holding a GPU world's state, boids_gpu_boid[count] in some order (ids inside), for
 * drawing straight from it; valid until the next step. 0 for a CPU world. */
unsigned boids_world_gl_buffer(const boids_world *world);

#ifdef __cplusplus
}
#endif
#endif /* BOIDS_H */
