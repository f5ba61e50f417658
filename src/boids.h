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
 * The lists this header is built from, each the one place of its concept: boids_models.h (what
 * a model may have), boids_params.h (parameters, by name), boids_attributes.h (per-boid
 * attributes), boids_errors.h (every error) and boids_values.h (the edges, the tool and the events,
 * which the shaders read too). The GPU's layout is internal (shaders/boids_shared.h).
 *
 * Errors: every function that can fail returns a boids_status; boids_last_error_info() describes
 * the last error on the calling thread (a stable id, the key and file or boid it is about, the
 * message). Library code never exits the process, and no argument crashes it: a NULL pointer, an
 * enum out of range or a size that does not match is BOIDS_E_ARGUMENT (or the id of what the
 * argument means: BOIDS_E_DEF_MODEL, ...); a function that returns no status gives its "none"
 * instead (NULL or "?" for a name, 0, NaN for a parameter's value) and does nothing.
 *
 * Threads: a world may be used from any thread, and from several: its calls take turns (a lock
 * per world; a call waits for another's to end). A GPU world with a context of its own leaves it
 * current on no thread after each call (about 3 us on llvmpipe), so the next call may come from
 * another; a context the caller gave (def.gl) stays as the caller has it. The error of a call is
 * the calling thread's.
 *
 * fork(): a child gets a copy of the parent's worlds without their worker threads or GPU
 * context, so any call on one there is BOIDS_E_FORKED, and boids_world_destroy leaves it alone;
 * nor may the child open the GPU while its parent had a context open (BOIDS_E_FORKED, where the
 * driver would hang). A child makes its own CPU worlds freely. Python's multiprocessing: its
 * 'spawn' or 'forkserver' start method, or create every GPU world in the children.
 */
#ifndef BOIDS_H
#define BOIDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boids_attributes.h"
#include "boids_errors.h"
#include "boids_models.h"
#include "boids_params.h"
#include "boids_values.h"

#ifdef __cplusplus
extern "C" {
#endif

/* BOIDS_API marks what libboids.so exports: every function this header declares, and nothing
 * else (the layers below are the library's own, and so are glad's GL pointers). The build links
 * the shared library with a version script made from these marks (cmake/boids_exports.cmake), so
 * the same objects also make the tests' internal library; a build of these sources with
 * -fvisibility=hidden keeps the same exports. tests/test_exports.sh holds the two lists equal. */
#if defined(__GNUC__) || defined(__clang__)
#define BOIDS_API __attribute__((visibility("default")))
#else
#define BOIDS_API
#endif

/* The version, in this one place: CMake reads it from here (the project's, the package's). */
#define BOIDS_VERSION_MAJOR 0
#define BOIDS_VERSION_MINOR 7
#define BOIDS_VERSION_PATCH 0
#define BOIDS_X_TEXT(x) #x
#define BOIDS_X_VERSION_TEXT(a, b, c) BOIDS_X_TEXT(a) "." BOIDS_X_TEXT(b) "." BOIDS_X_TEXT(c)
#define BOIDS_VERSION_STRING                                                                       \
    BOIDS_X_VERSION_TEXT(BOIDS_VERSION_MAJOR, BOIDS_VERSION_MINOR, BOIDS_VERSION_PATCH)

/* ---- errors ---------------------------------------------------------------------------------- */

typedef enum boids_status {
#define BOIDS_X_STATUS_ENUM(code, text) code,
    BOIDS_STATUS_LIST(BOIDS_X_STATUS_ENUM)
#undef BOIDS_X_STATUS_ENUM
} boids_status;

typedef enum boids_error_id {
#define BOIDS_X_ERROR_ENUM(id, status, text) BOIDS_E_##id,
    BOIDS_ERROR_LIST(BOIDS_X_ERROR_ENUM)
#undef BOIDS_X_ERROR_ENUM
        BOIDS_E_COUNT
} boids_error_id;

/* The last error raised on a thread. Pointers stay valid until the next failing call on it. */
typedef struct boids_error {
    boids_error_id id;
    boids_status status;
    const char *key;     /* the world-definition field ("count", "dt", ...), parameter
                            ("max_speed") or CSV column the error is about; "" if none */
    const char *related; /* the other keys a relation between settings involves, comma-separated
                            ("min_speed,max_speed"); "" if none: a program names where each
                            came from, since the user may have changed any of them */
    const char *path;    /* the file it is about; "" if none */
    long line;           /* the file's line; 0 if none */
    long long index;     /* the boid (STATE_* ids), predator (PREDATOR_STATE) or obstacle
                            (DEF_OBSTACLE) it is about, by index; -1 if none */
    const char *detail;  /* the message without the key or file:line in front */
    /* the whole one-line message ("max_speed: 2e6 is outside [0, 1e6] px/s") */
    const char *message;
} boids_error;

/* Short name of a status ("invalid argument"). Never NULL. */
BOIDS_API const char *boids_status_text(boids_status status);
/* Short text of an error id ("parameter value outside its range"); its name is BOIDS_E_<ID>. */
BOIDS_API const char *boids_error_text(boids_error_id id);
/* The id's name without its prefix ("PARAM_RANGE" for BOIDS_E_PARAM_RANGE): stable across
 * versions, unlike the id's number. */
BOIDS_API const char *boids_error_name(boids_error_id id);
/* One-line description of the last error raised on this thread; "" if none. */
BOIDS_API const char *boids_last_error(void);
BOIDS_API const boids_error *boids_last_error_info(void);

/* ---- models and parameters ------------------------------------------------------------------- */

/* A model: its id in this process's registry, the built-in models first (shiffman-per-second is
 * 0), then those loaded at run time. Look a model up by name (boids_model_from_name): the name is
 * what stays, while an id may differ between versions of the library. */
typedef int boids_model;

/* Time base of a model: per-second models integrate with dt, frame-based ones advance one frame
 * per step and ignore dt. */
typedef enum boids_time_base { BOIDS_TIME_PER_SECOND, BOIDS_TIME_PER_FRAME } boids_time_base;

/* One settable parameter of a model (a row of its manifest, resolved for the model's time
 * base): its name for --set, where it lives, its unit and range. */
typedef struct boids_param_info {
    const char *name;        /* e.g. "max_speed" */
    int block;               /* the library's own index of the parameter's block */
    size_t offset;           /* where it lives in boids_params, in bytes (the library's layout) */
    const char *unit;        /* e.g. "px/s" (px/frame for frame-based models) */
    float min, max;          /* inclusive range */
    float ui_max;            /* top of the viewer's slider (from max(min, 0)) */
    unsigned flags;          /* BOIDS_PARAM_* */
    float block_default;     /* the block's default (the model's preset may differ) */
    const char *description; /* one line, with the paper's symbol */
} boids_param_info;

/* CLI name ("shiffman-per-second"), or NULL for an unknown model. */
BOIDS_API const char *boids_model_name(boids_model model);
/* One line about the model, for --help. */
BOIDS_API const char *boids_model_summary(boids_model model);
/* Looks a model up by its CLI name; BOIDS_E_MODEL_UNKNOWN (listing the names) if unknown. */
BOIDS_API boids_status boids_model_from_name(const char *name, boids_model *out);
BOIDS_API boids_time_base boids_model_time_base(boids_model model);
/* The attributes (BOIDS_ATTR_BIT) and features (BOIDS_FEATURE_*) of a model. */
BOIDS_API unsigned boids_model_attributes(boids_model model);
BOIDS_API unsigned boids_model_features(boids_model model);
/* The model's paper values for every parameter (its preset). */
BOIDS_API boids_params boids_model_default_params(boids_model model);
/* The parameters the model reads, base block first; *count receives their number. */
BOIDS_API const boids_param_info *boids_model_params(boids_model model, size_t *count);
/* The model's parameter of that name, or NULL. */
BOIDS_API const boids_param_info *boids_model_param(boids_model model, const char *name);
/* A parameter's value in params. */
BOIDS_API float boids_param_get(const boids_params *params, const boids_param_info *info);
/* Sets one parameter by name from text, with a range check; errors name the key and the range. */
BOIDS_API boids_status boids_params_set(boids_model model, boids_params *params, const char *key,
                                        const char *value);
/* Checks every parameter of the model against its range (and finiteness), and min <= max speed. */
BOIDS_API boids_status boids_params_validate(boids_model model, const boids_params *params);
/* "wrap", "bounded", "processing" -> BOIDS_EDGES_*; false for another name. */
BOIDS_API bool boids_edges_from_name(const char *name, float *out);
/* The name of BOIDS_EDGES_*; "?" for another value. */
BOIDS_API const char *boids_edges_name(float edges);
/* The model's group radius: its alignment radius (the parameter flagged BOIDS_PARAM_GROUP_RADIUS:
 * align_radius, visual_range, neighbor_radius, view_radius, radius), or for nested zones their
 * outer radius (couzin: r_r + delta r_o + delta r_a), in px. */
BOIDS_API float boids_model_group_radius(boids_model model, const boids_params *params);
/* Largest interaction radius of the model with these parameters, in px (nested zones: their
 * outer radius): the grid's cells are at least as large. The reach around obstacles counts where
 * the world has some. */
BOIDS_API float boids_params_max_radius(boids_model model, const boids_params *params,
                                        bool with_obstacles);

/* A model folder loaded at run time (docs/writing-a-model.md): a folder of the form of a built-in
 * one (model.h, rules.h) from anywhere. Its CPU rules are compiled with the system's C compiler
 * ($BOIDS_CC, else cc) into the user's cache ($XDG_CACHE_HOME/boids/models, else
 * ~/.cache/boids/models) the first time, and taken from there after; its GPU program is made
 * from the same rules.h. Its models are then models like the built-in ones, by name or by id
 * (boids_model_from_name, boids_model_params, world definitions). Loading a folder again in one
 * process returns the same models; a folder edited since is refused (BOIDS_E_MODEL_DUPLICATE).
 * Errors: BOIDS_E_MODEL_FOLDER, _COMPILER (none found: the message says what to install),
 * _COMPILE (the compiler's messages, naming the folder's file and line, go to stderr; the error
 * holds the first), _MANIFEST, _DUPLICATE, _CACHE. Thread-safe. */
typedef struct boids_model_load_info {
    boids_model first; /* the folder's first model (a folder may hold several: `models`) */
    int models;
    bool compiled;     /* its CPU rules were compiled now (false: from the cache, or loaded) */
    double seconds;    /* how long the load took */
    char object[1024]; /* the compiled object in the cache ("" where loaded before) */
} boids_model_load_info;
BOIDS_API boids_status boids_model_load(const char *folder, boids_model_load_info *info);

/* One per-boid attribute (a row of boids_attributes.h). */
typedef struct boids_attribute_info {
    const char *name; /* member of boids_boid and CSV column, e.g. "bias" */
    bool is_uint;     /* a uint32_t (else a float) */
    size_t offset;    /* offsetof(boids_boid, name) */
    float min, max;   /* the range a written state must respect */
    const char *description;
} boids_attribute_info;

BOIDS_API const boids_attribute_info *boids_attribute_info_of(boids_attribute attribute);
/* An attribute's default for a world with these parameters (NULL: each model's defaults). */
BOIDS_API float boids_attribute_default(boids_attribute attribute, const boids_params *params);

/* ---- GL context ------------------------------------------------------------------------------ */

/* An OpenGL 4.3 core context: headless (EGL: the device platform on real GPUs, Mesa's surfaceless
 * platform otherwise) or a GLFW window. One small interface for both. */
typedef struct boids_gl boids_gl;

/* Headless context, on the first hardware GPU that EGL's device platform offers and that gives a
 * GL 4.3 core context. Mesa's software rasterizer (llvmpipe) only where the machine has no GPU:
 * where it has one (an EGL device, NVIDIA's kernel driver, a DRM render node of a GPU driver) that
 * gives no context, BOIDS_ERR_NO_GL with the reasons (EGL's errors, a missing vendor library, a
 * container without NVIDIA's `graphics` capability), never a silent fall back. The environment:
 * BOIDS_EGL_DEVICE=N takes device N of EGL's list (boids_gl_device names it; `gpu_info devices`
 * lists them), BOIDS_EGL_PLATFORM=device (hardware only) or surfaceless (the software
 * rasterizer); a bad value is BOIDS_E_ENVIRONMENT. */
BOIDS_API boids_status boids_gl_create_headless(boids_gl **out);
/* Window of width x height screen coordinates (GLFW), context current on this thread. */
BOIDS_API boids_status boids_gl_create_window(int width, int height, const char *title,
                                              bool visible, boids_gl **out);
/* Destroys the context; others on the same display or window system live on. */
BOIDS_API void boids_gl_destroy(boids_gl *gl);
/* Makes gl current on this thread (a no-op when it already is). Worlds do this themselves at
 * every call, so several GPU worlds, each with its own context, can be used in turn. */
BOIDS_API boids_status boids_gl_make_current(boids_gl *gl);
/* GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)". Valid while gl lives. */
BOIDS_API const char *boids_gl_renderer(const boids_gl *gl);
/* Which device the context runs on and why it was taken, e.g. "EGL device 0 of 2 (NVIDIA
 * Corporation, NVIDIA H100 80GB HBM3, /dev/dri/renderD128)" or "EGL device 0 of 1 (software,
 * /dev/dri/renderD128): no hardware GPU found". Valid while gl lives. */
BOIDS_API const char *boids_gl_device(const boids_gl *gl);
/* True when a headless context's EGL device says it runs on the CPU (Mesa's
 * EGL_MESA_device_software: llvmpipe, zink over lavapipe): OpenGL on the CPU, not a GPU. False
 * for window contexts, whose window system does not say. */
BOIDS_API bool boids_gl_is_software(const boids_gl *gl);
/* The GLFWwindow* of a window context, NULL for a headless one. */
BOIDS_API void *boids_gl_window(const boids_gl *gl);
/* Whether a GPU world on gl steps bit for bit as the CPU backend does: *out true where the driver
 * rounds as IEEE 754 does and never fuses a multiply-add (llvmpipe, zink over lavapipe), measured
 * by a compute shader's products, sums, quotients and square roots on a few thousand operands
 * against the CPU's, never read from the renderer's name; false on real GPUs (they fuse and
 * approximate: there a GPU world is within the CPU's spread, not equal) and under
 * BOIDS_GPU_NUMERICS=perturbed. A few milliseconds. */
BOIDS_API boids_status boids_gl_bitwise(boids_gl *gl, bool *out);

/* ---- worlds ---------------------------------------------------------------------------------- */

typedef enum boids_backend { BOIDS_BACKEND_GPU, BOIDS_BACKEND_CPU } boids_backend;

/* How the CPU backend finds neighbours: the uniform grid (default) or brute force O(N^2), which
 * exists for tests. The GPU backend always uses the grid. */
typedef enum boids_neighbor_search {
    BOIDS_NEIGHBORS_GRID,
    BOIDS_NEIGHBORS_BRUTE
} boids_neighbor_search;

/* One boid as the API reads and writes it; its id is its index in the array. Units are the
 * model's own: px and px/s for per-second models, px and px/frame for frame-based ones. The
 * members after swarm are the attributes of boids_attributes.h: a world keeps those of its model
 * and reads back the default for the others. */
typedef struct boids_boid {
    float x, y;     /* position: 0 <= x < width, 0 <= y < height (0 <= z < depth) where the
                       world wraps; in a bounded world boids may be outside (the model steers
                       them back) */
    float vx, vy;   /* velocity */
    uint32_t swarm; /* 0 <= swarm < swarms */
    BOIDS_ATTRIBUTE_LIST(BOIDS_X_ATTR_MEMBER)
    float z, vz; /* a 3D world's third coordinate and velocity component; a flat world reads 0
                    and ignores what is written (last, so {x, y, vx, vy, swarm} stays a flat
                    boid) */
} boids_boid;

/* An obstacle: a circle in one replica's flat world, a sphere in a 3D one (px). */
typedef struct boids_obstacle {
    float x, y;       /* centre: inside the world [0, width) x [0, height) */
    float radius;     /* >= 0 */
    uint32_t replica; /* the replica it stands in (0 for a world of one) */
    float z;          /* a 3D world's centre's third coordinate, in [0, depth); a flat world reads
                         0 and ignores what is written (last, so {x, y, radius, replica} stays a
                         flat obstacle) */
} boids_obstacle;

/* A predator (models with BOIDS_FEATURE_PREDATORS), as the API reads and writes it; its id is its
 * index: predator p belongs to replica p / predators-per-replica. Units as boids_boid. */
typedef struct boids_predator {
    float x, y;
    float vx, vy;
    float z, vz; /* a 3D world's, as boids_boid's: a flat world reads 0 and ignores what is
                    written (last, so {x, y, vx, vy} stays a flat predator) */
} boids_predator;

/* How a world's random initial state is laid out (boids_world_def.layout). */
/* X(ID, name, description); the layout of name is made by boids_init_<name> (core/init_state.c). */
#define BOIDS_LAYOUT_LIST(X)                                                                       \
    X(UNIFORM, uniform,                                                                            \
      "boids uniform over the world, headings uniform, speeds in [v_min, v_max]")                  \
    X(CENTRE, centre,                                                                              \
      "the kit paper's: boids in the centre square [3/8, 5/8] of each axis, velocity "             \
      "components in [-50, 50] at a top speed of 150 (scaled to the model's; a model at one "      \
      "speed starts at it), predators in the corner squares")                                      \
    X(FLOCK, flock,                                                                                \
      "a flock as it has formed: boids in the centre square [3/8, 5/8] of each axis, all with "    \
      "one velocity (uniform's draw for the first), predators as uniform's")
typedef enum boids_layout {
    BOIDS_LAYOUT_MODEL, /* the model's own (its manifest line's) */
#define BOIDS_X_LAYOUT_ENUM(ID, name, desc) BOIDS_LAYOUT_##ID,
    BOIDS_LAYOUT_LIST(BOIDS_X_LAYOUT_ENUM)
#undef BOIDS_X_LAYOUT_ENUM
        BOIDS_LAYOUT_COUNT
} boids_layout;
/* "uniform", "centre", "flock" -> BOIDS_LAYOUT_*; BOIDS_E_DEF_LAYOUT (listing them) for another
 * name. */
BOIDS_API boids_status boids_layout_from_name(const char *name, boids_layout *out);
BOIDS_API const char *boids_layout_name(boids_layout layout);

typedef struct boids_world_def {
    boids_model model;     /* default shiffman-per-second (id 0) */
    boids_params params;   /* default: the model's paper values */
    boids_backend backend; /* default BOIDS_BACKEND_GPU */
    uint32_t count;        /* number of boids N; default 100000 */
    uint32_t swarms;       /* number of swarms K >= 1; boid i starts in swarm i mod K; default 1 */
    float width, height;   /* world size in px; 0 = 16:9 at one boid per 1000 px^2 (default) */
    /* the world's depth in px: 0 = a flat world, x and y only (default); > 0 = a box of three
       dimensions, width x height x depth (width and height 0 with a depth > 0: a cube of the
       default 3D size, boids_default_world_size_3d) */
    float depth;
    float dt;            /* step in s for per-second models; default 1/60 */
    uint64_t seed;       /* initial state; default 1 */
    boids_layout layout; /* the initial state's layout; default BOIDS_LAYOUT_MODEL */
    float cell_size;     /* grid cell in px; 0 = the largest interaction radius (default);
                            at least half that radius: below the radius each walk reaches two
                            cells each way (blocks of 5x5, 5x5x5 in 3D); the grid tiles the
                            world exactly, so cells may be slightly larger than asked */
    boids_neighbor_search neighbors; /* CPU only; default BOIDS_NEIGHBORS_GRID */
    int threads;                     /* CPU only: worker threads, 0 = one per core (default) */
    /* independent copies of the world in one (experiments run many runs as one world): count /
     * replicas boids each, in id order; replica r starts from seed + r, as a world of its own
     * would; neighbours never cross replicas. count must be a multiple; default 1 */
    uint32_t replicas;
    const boids_obstacle *obstacles; /* explicit obstacles (copied at creation); NULL: the
                               params' `obstacles` random ones in every replica (default) */
    uint32_t obstacle_count;
    uint32_t event_mask;     /* event kinds to record, bits 1 << BOIDS_EVENT_*; default: catches */
    uint32_t event_capacity; /* events held between two takes (more are counted as lost);
                                default 65536 */
    boids_gl *gl;            /* GPU only: context to use (current on this thread); NULL = the
                                world creates and owns a headless one */
    /* whom a boid flocks with: 0 = the model's radii (metric, default); K in [1,
       BOIDS_MAX_NEAREST] = its K nearest of its swarm, whatever their distance (topological:
       Ballerini et al. 2008), ties by id: the alignment and cohesion of the models on the
       Reynolds walk and Vicsek's mean heading, Couzin's orientation and attraction; separation
       and repulsion stay metric; kit refuses it */
    uint32_t nearest;
} boids_world_def;

typedef struct boids_world boids_world;

/* Most boids a world may have, 2^28: the API's bound, which keeps every 32-bit index clear of
 * overflow. A GPU world is bound by its driver too: its largest storage buffer holds 16 bytes a
 * boid (llvmpipe's 128 MiB: 8 388 607 boids; NVIDIA's 2 GiB: 134 million), and boids_world_create
 * refuses more with BOIDS_E_GPU_LIMIT, naming the limit, before any buffer is made. The CPU
 * backend's bound is memory (BOIDS_E_NO_MEMORY). */
#define BOIDS_MAX_BOIDS (1u << 28)
/* Most swarms a world may have. */
#define BOIDS_MAX_SWARMS 1024u
/* Most replicas, obstacles and predators a world may have. */
#define BOIDS_MAX_REPLICAS 65536u
#define BOIDS_MAX_OBSTACLES (1u << 20)
#define BOIDS_MAX_PREDATORS (1u << 20)
/* Most events a world may hold between two takes. */
#define BOIDS_MAX_EVENT_CAPACITY (1u << 24)

/* Largest velocity component a written state may hold (px/s or px/frame): far above any speed
 * limit, small enough that sums of N velocities cannot overflow a float. */
#define BOIDS_MAX_STATE_SPEED 1e7f

/* Facts about a created world (all sizes resolved). */
typedef struct boids_world_info {
    boids_model model;
    boids_backend backend;
    uint32_t count, swarms;
    float width, height;     /* px */
    uint32_t grid_w, grid_h; /* cells */
    float cell_w, cell_h;    /* px */
    int threads;             /* CPU worker threads (1 for GPU) */
    const char *renderer;    /* GL_RENDERER for GPU, "CPU reference" otherwise */
    uint64_t steps;          /* steps taken since creation or the last write */
    uint32_t replicas;       /* independent copies of the world */
    uint32_t predators;      /* predators in all (replicas x per replica) */
    uint32_t obstacles;      /* obstacles in all */
    float dt;                /* s */
    uint64_t seed;
    const char *device; /* the GPU's device and why it was taken (boids_gl_device); "" for CPU */
    uint32_t dims;      /* 2 (a flat world) or 3 */
    float depth;        /* px; 0 in a flat world */
    uint32_t grid_d;    /* cells along z (1 in a flat world) */
    float cell_d;       /* px (0 in a flat world) */
    /* The cells of cell_w x cell_h (x cell_d) that tile the world along x, y (and z): the grid's
     * own counts, but in a torus with more such cells than the grid may hold, whose cells fold
     * onto the grid (cell i along x lies in the grid's column i mod grid_w). */
    uint32_t fine_w, fine_h, fine_d;
    boids_params params; /* the parameters in force (last: bindings mirror the fields above) */
} boids_world_info;

/* Every default filled in (see the field comments). */
BOIDS_API boids_world_def boids_default_world_def(void);
/* The default world size for n boids: 16:9, one boid per 1000 px^2, whole px. */
BOIDS_API void boids_default_world_size(uint32_t n, float *width, float *height);
/* The default 3D world for n boids: a cube with the flat default's spacing between boids (one
 * boid per 1000^1.5 px^3, about 31.6 px apart, as one per 1000 px^2 is), whole px. */
BOIDS_API float boids_default_world_size_3d(uint32_t n);
/* Fills in def's size where it asks for the default (width 0), as boids_world_create does: the
 * flat default for its boids per replica, or the default cube where it has a depth. NULL is
 * ignored. */
BOIDS_API void boids_world_def_resolve_size(boids_world_def *def);
/* def's world for n boids at the density it has (a scenario's box, for a larger or smaller
 * flock): each side times (n / count)^(1/2), or ^(1/3) where it has a depth; a def without a
 * size or a count keeps its size (width 0: the default's for n). Its count becomes n. NULL is
 * ignored. */
BOIDS_API void boids_world_def_scale(boids_world_def *def, uint32_t n);

/* Whether boids_world_create would take def's settings (its model, sizes, counts, parameters,
 * obstacles), without making the world: BOIDS_OK, or the error create would give. Whether there
 * is the memory or a GPU for it is not checked. */
BOIDS_API boids_status boids_world_def_validate(const boids_world_def *def);
/* Validates def, allocates the backend and fills a random initial state from def->seed
 * (positions uniform in the world, headings uniform, speeds uniform in [min_speed, max_speed],
 * attributes at their defaults). On failure *out is NULL and nothing is leaked. */
BOIDS_API boids_status boids_world_create(const boids_world_def *def, boids_world **out);
/* Frees the world. It takes its turn as the other calls do: a call under way on another thread
 * ends first (stop a long one with boids_world_interrupt). No call may begin once it has begun. */
BOIDS_API void boids_world_destroy(boids_world *world);

/* Advances `steps` steps. The GPU backend only records GL commands: no read-back happens here.
 * BOIDS_ERR_INTERRUPTED where a stop ended the call (boids_world_interrupt, or the boids
 * programs' Ctrl-C): the steps before are taken, a CPU step under way is undone (the GPU looks
 * between steps), the step count says how many, and the world is usable. */
BOIDS_API boids_status boids_world_step(boids_world *world, uint32_t steps);
/* Asks the world's long calls to stop (on) or lets them run again (off). While on, a
 * boids_world_step or boids_world_metrics under way or to come returns BOIDS_ERR_INTERRUPTED
 * within about a second (a CPU step looks every few hundred boids, the GPU's between steps; the
 * GPU's metrics are a few dispatches, and end first). For a caller's Ctrl-C: its handler, or a
 * thread waiting on the call, sets it; the caller turns it off once the call has returned.
 * Takes no lock and only stores a flag, so it is safe from any thread and from a signal handler;
 * a NULL world is ignored. (Python's World.step and metrics use it for KeyboardInterrupt.) */
BOIDS_API void boids_world_interrupt(boids_world *world, bool on);
/* Blocks until every step issued has finished (glFinish on the GPU); for timing. */
BOIDS_API void boids_world_finish(boids_world *world);
/* Holds the world for the calling thread until the matching boids_world_unlock: other threads'
 * calls on it wait, this thread's go on (locks nest; each needs its unlock). For reading as one
 * state what several calls return (the count, then the boids) beside a thread that changes them;
 * boids_world_image holds it itself. A GPU world's own context stays current on the thread until
 * the last unlock. A world destroyed while locked by its destroyer is
 * unlocked. BOIDS_E_ARGUMENT for a NULL world, BOIDS_E_FORKED in a forked child's copy. */
BOIDS_API boids_status boids_world_lock(boids_world *world);
/* Ends the calling thread's latest boids_world_lock. BOIDS_E_ARGUMENT where this thread holds no
 * lock on the world (another thread's lock is that thread's to end). */
BOIDS_API boids_status boids_world_unlock(boids_world *world);

/* Copies the state out in id order; n must equal the world's count. Attributes the model does
 * not have read as their defaults. Checks what it returns: a non-finite value (never expected)
 * is BOIDS_E_STATE_CORRUPT, and a GPU whose shader loops were cut short (llvmpipe stops a shader
 * invocation after about 65535 loop iterations: a neighbourhood that dense) is
 * BOIDS_E_GPU_LOOP_LIMIT, never a silently wrong state. */
BOIDS_API boids_status boids_world_read(boids_world *world, boids_boid *out, size_t n);
/* Replaces the state (in id order); checks every value: finite, inside the world, velocity
 * components within +-BOIDS_MAX_STATE_SPEED, swarm < K, the model's attributes in range. */
BOIDS_API boids_status boids_world_write(boids_world *world, const boids_boid *in, size_t n);
/* The checks of boids_world_write alone (the failing boid is in boids_last_error_info()). */
BOIDS_API boids_status boids_world_validate_state(const boids_world *world, const boids_boid *in,
                                                  size_t n);

BOIDS_API void boids_world_get_info(const boids_world *world, boids_world_info *info);
/* The others each agent (boid or predator) looks at a step, estimated: the agents of the 3x3 grid
 * cells around it, spread evenly. Times the agents, the checks of a step. The grid's cells are as
 * large as the largest radius, so a world whose radii reach most of it costs far more a step than
 * its size suggests (the program notes it above 2e8 checks, the Python package warns). */
BOIDS_API double boids_world_neighbors_per_agent(const boids_world *world);

/* Changes the model parameters of a running world (the viewer's panel): validated like a
 * definition; the grid follows the radii; another number of predators keeps each replica's first
 * ones and adds those a world made with the new number would start with (or drops the last);
 * another number of random obstacles draws them anew. The step count goes on. On failure
 * nothing changes. */
BOIDS_API boids_status boids_world_set_params(boids_world *world, const boids_params *params);
/* Changes the number of boids of a running world (the viewer's resize): each replica keeps its
 * first boids (by id) and gains those a world of `count` boids would start with, or drops its last
 * ones; the world's size, parameters, obstacles, predators, tool and step count stay, and the
 * events gathered so far come with the next take. The replicas' catches and stops start over, as
 * after boids_world_write. count must divide among the replicas (BOIDS_E_DEF_COUNT, naming
 * "count"). On failure nothing changes. */
BOIDS_API boids_status boids_world_set_count(boids_world *world, uint32_t count);
/* Sets the mouse tool's force field (boids_tool in boids_values.h); kind NONE switches it off. */
BOIDS_API boids_status boids_world_set_tool(boids_world *world, const boids_tool *tool);

/* ---- opening a world by name (programs, bindings) -------------------------------------------- */

/* Creates a world as a scenario file and settings describe it, so that a binding need not lay out
 * boids_world_def: `scenario` a file or the bare name of an installed preset ("kit"), or NULL for
 * the default world; then n key/value settings over it, as a scenario file's lines take them
 * (model, which is applied first and brings its preset; boids, swarms, world "WxH", seed, dt,
 * layout, obstacle "X,Y,R" or in 3D "X,Y,Z,R"; every parameter of the model by its --set name), and
 * "backend" (auto (default): the GPU where it is hardware, else the CPU; gpu; cpu) and "threads".
 * Errors name the key, or the file and line. */
BOIDS_API boids_status boids_world_open(const char *scenario, const char *const *keys,
                                        const char *const *values, size_t n, boids_world **out);

/* The state by column, in id order, one 4-byte value per boid in each of the ncols arrays
 * (info.count entries each): "x", "y", "vx", "vy" (float), "swarm" (uint32_t) and the model's
 * attributes by name ("age": float, "alive": uint32_t; boids_attribute_info_of says which). One
 * read of the state whatever ncols is. An unknown column, or an attribute the model lacks, is
 * BOIDS_E_ARGUMENT naming it. */
BOIDS_API boids_status boids_world_read_columns(boids_world *world, const char *const *names,
                                                void *const *out, size_t ncols);
/* Writes the named columns, keeping the others: the state is read, the columns replaced, and the
 * whole written back and validated as boids_world_write does (finite, in range; the failing boid
 * named). The world's step count starts again from 0. */
BOIDS_API boids_status boids_world_write_columns(boids_world *world, const char *const *names,
                                                 const void *const *in, size_t ncols);
/* A parameter of the world in force, by its --set name; BOIDS_E_PARAM_UNKNOWN if the model has
 * none of that name. */
BOIDS_API boids_status boids_world_get_param(boids_world *world, const char *key, float *out);
/* A model's default for a parameter: its preset's value where the preset sets it, else the
 * block's default. BOIDS_E_PARAM_UNKNOWN if the model has none of that name. */
BOIDS_API boids_status boids_model_param_default(boids_model model, const char *key, float *out);
/* Sets one parameter from its text, as --set does (the same range checks, edges by name), and
 * the world's parameters to the result. */
BOIDS_API boids_status boids_world_set_param(boids_world *world, const char *key,
                                             const char *value);

/* The sizes and counts of the lists, for bindings that cannot read the enums or sizeof. */
BOIDS_API size_t boids_world_info_size(void);
/* The layout of a public struct a binding mirrors (boids_error, boids_param_info,
 * boids_attribute_info, boids_world_info, boids_metrics, boids_event, boids_events,
 * boids_predator, boids_profile, boids_field_options, boids_field), so the mirror can be checked
 * against the library it loads: *out = sizeof(type) where field is NULL, else offsetof(type,
 * field). BOIDS_E_ARGUMENT naming the type or the field where there is no such one. */
BOIDS_API boids_status boids_type_layout(const char *type, const char *field, size_t *out);
BOIDS_API int boids_model_count(void);
BOIDS_API int boids_attribute_count(void);
BOIDS_API int boids_pass_count(void);

/* ---- predators, obstacles, replicas ---------------------------------------------------------- */

/* The predators (models with BOIDS_FEATURE_PREDATORS; n must equal info.predators), in id order. */
BOIDS_API boids_status boids_world_read_predators(boids_world *world, boids_predator *out,
                                                  size_t n);
/* Replaces them; checked like a boid state (finite, inside the world, speed bounded). */
BOIDS_API boids_status boids_world_write_predators(boids_world *world, const boids_predator *in,
                                                   size_t n);
/* The obstacles (n must equal info.obstacles), replica by replica. */
BOIDS_API boids_status boids_world_read_obstacles(const boids_world *world, boids_obstacle *out,
                                                  size_t n);
/* Replaces every obstacle (the viewer places and removes them); checked: inside the world, radius
 * >= 0, replica < replicas. The grid follows the obstacles' reach. */
BOIDS_API boids_status boids_world_set_obstacles(boids_world *world, const boids_obstacle *list,
                                                 size_t n);

/* The state of a replica (read back from the GPU when asked, never per step). */
typedef struct boids_replica_status {
    uint32_t catches;   /* boids caught so far */
    bool stopped;       /* it reached stop_after_catches: it no longer moves */
    uint64_t stop_step; /* the step it stopped at (its catch pass), if stopped */
} boids_replica_status;
/* n must equal info.replicas. *all_stopped (if not NULL): every replica stopped. */
BOIDS_API boids_status boids_world_replicas(boids_world *world, boids_replica_status *out, size_t n,
                                            bool *all_stopped);

/* ---- metrics --------------------------------------------------------------------------------- */

/* Observables of one replica's living boids (caught boids are gone), computed where the world
 * lives: the GPU in its own passes (only these numbers are read back), the CPU from its state. */
typedef struct boids_metrics {
    uint64_t step;       /* the world's step count when measured */
    uint32_t alive;      /* living boids, whom the rest is about */
    uint32_t groups;     /* groups: boids linked within the group radius (the model's alignment
                            radius, boids_model_group_radius), connected components; swarms
                            do not matter */
    uint32_t catches;    /* boids caught so far */
    double polarization; /* |sum of unit headings| / alive, in [0, 1]; 1 = all aligned */
    double mean_nn;      /* mean distance to the nearest other living boid (minimum image), px */
    double mean_speed;   /* px/s or px/frame */
    double min_speed, max_speed;
    double milling; /* the flock's turning about its centre of mass c: |sum of r_i x v_i| /
                       sum of |r_i| |v_i|, r_i = p_i - c (minimum image; on a torus c is each
                       axis's circular mean), in [0, 1]; 1 = every boid circles c the same way
                       (a mill), 0 = no turning (a flock flying straight, or at random) */
} boids_metrics;

/* One entry per replica (n must equal info.replicas). BOIDS_ERR_INTERRUPTED where a stop ended
 * it (boids_world_interrupt, a signal): nothing is written. A CPU world keeps what they need
 * (about 100 bytes a boid) for the next call, until it is destroyed. */
BOIDS_API boids_status boids_world_metrics(boids_world *world, boids_metrics *out, size_t n);

/* ---- field measures -------------------------------------------------------------------------- */

/* What empirical studies measure of real flocks, of one replica's living boids (its own mean
 * velocity taken out), in double precision, exact (every pair within r_max; every boid's nearest
 * `ranks`), with the minimum image where the world wraps. See docs/models.md's "Field measures".
 * - Correlations (Cavagna et al. 2010): the fluctuations u_i = v_i - the mean velocity and
 *   s_i = |v_i| - the mean speed; C(r) = the mean of u_i.u_j over the pairs at distance r (a bin
 *   of width dr) over the mean of u_i.u_i (so C(0) = 1); the same of s_i. xi is C's first zero.
 * - Neighbour anisotropy (Ballerini et al. 2008): the unit vector u_n(i) from each boid to its
 *   n-th nearest (distance, then id, orders ties); M(n) = the mean of u_n u_n^T; W(n) the unit
 *   eigenvector of M(n)'s smallest eigenvalue; V the unit mean velocity; gamma(n) = (W(n).V)^2,
 *   1/d where the neighbours lie alike in every direction. n_c: the first n where gamma(n) falls
 *   to within `margin` of 1/d (or below) after it was above: the nearest may lie ahead, gamma(1)
 *   low, before the next ones' anisotropy. */
/* A flock: the replica's living boids (default); each swarm's; each group's (boids linked
 * within the group radius, as boids_metrics.groups counts them). With several flocks each boid's
 * fluctuations are from its own flock's means, only pairs and neighbours within one flock count,
 * and C and M(n) are summed over the flocks, M(n) in each flock's own frame (its mean velocity
 * along the first axis; in 3D the second along the world axis least aligned with it, made
 * orthogonal): so gamma(n) = W(n)'s first component squared. */
#define BOIDS_FIELD_FLOCK_REPLICA 0u
#define BOIDS_FIELD_FLOCK_SWARM 1u
#define BOIDS_FIELD_FLOCK_GROUP 2u
#define BOIDS_FIELD_BINS 256 /* C(r)'s bins at most */
#define BOIDS_FIELD_RANKS 32 /* gamma(n)'s ranks at most */
typedef struct boids_field_options {
    float r_max;    /* px, > 0; 0: half the world's shortest side. The pairs counted (the cost)
                       are those within r_max: N x density x the disc (ball) of r_max */
    uint32_t bins;  /* C(r)'s bins over [0, r_max), <= BOIDS_FIELD_BINS; 0: 64 */
    uint32_t ranks; /* gamma(n) for n = 1..ranks, <= BOIDS_FIELD_RANKS; 0: 20 */
    float margin;   /* n_c's margin above 1/d, >= 0; 0: 0.02 */
    uint32_t flock; /* BOIDS_FIELD_FLOCK_*: what a flock is (its mean taken out, its pairs and
                       neighbours counted) */
    float xi_from;  /* px, >= 0: xi and xi_speed are C's first fall to 0 at r >= xi_from (the
                       bins whose centre lies nearer are passed over, and C must be positive once
                       before it falls: a hard core's fleeing pairs anti-correlate at contact);
                       0: from r = 0, where C is 1 */
} boids_field_options;

typedef struct boids_field {
    uint64_t step;
    uint32_t alive;   /* living boids */
    uint32_t bins;    /* bin k holds the pairs at distance [k dr, (k + 1) dr) */
    uint32_t ranks;   /* gamma's: the options', at most alive - 1 */
    uint32_t n_c;     /* 0: gamma(n) never falls to 1/d + margin after being above, up to ranks */
    double dr, r_max; /* px */
    double xi;        /* C's first zero (linear between the centres of the bins about it, C(0)
                         = 1 before the first), px, from the options' xi_from on; 0: C does not
                         fall to 0 within r_max */
    double xi_speed;  /* the same of the speeds' C */
    double diameter;  /* px: the largest distance between two boids of the largest flock (the
                         flock's size L; on a torus, unwrapped about its first boid: meaningful
                         while it spans less than half the world); 0 under two boids */
    double pairs[BOIDS_FIELD_BINS];      /* pairs in bin k */
    double c_velocity[BOIDS_FIELD_BINS]; /* C at bin k; 0 where it holds no pair, or where every
                                            velocity (speed) is the mean */
    double c_speed[BOIDS_FIELD_BINS];
    double gamma[BOIDS_FIELD_RANKS]; /* gamma(n) at [n - 1]; 0 where the mean velocity is 0 */
} boids_field;

/* One entry per replica (n must equal info.replicas); options NULL: every default. Computed on
 * the host from the state, read back once from a GPU world. BOIDS_ERR_INTERRUPTED where a stop
 * ended it (boids_world_interrupt, a signal): nothing is written. */
BOIDS_API boids_status boids_world_field(boids_world *world, const boids_field_options *options,
                                         boids_field *out, size_t n);

/* What a step's neighbour walks read in the world's current state, counted on the host: per
 * living boid, the candidates (the boids of the cells around its own, which the walk reads one by
 * one) and the neighbours among them (others within the model's largest radius,
 * boids_params_max_radius). The cells are the world's grid, the same on both backends: the cost
 * of a step follows the candidates, and boids-bench prints them. (A world of nearest:K searches
 * other cells too: its candidates here are the metric walk's.) A GPU world's state is read back
 * once. */
typedef struct boids_census {
    uint32_t living;   /* boids counted (the caught of kit are in no cell) */
    double candidates; /* per living boid, itself included */
    double neighbours; /* per living boid */
    float radius;      /* px */
    /* the bytes of the GPU's buffers the world holds (its step's, and those its reads and
     * metrics made so far), asked of the driver; 0 for a CPU world */
    uint64_t device_bytes;
} boids_census;
BOIDS_API boids_status boids_world_census(boids_world *world, boids_census *out);

/* ---- events ---------------------------------------------------------------------------------- */

/* The events of the steps since the last take, in the order (step, kind, subject, other), the
 * same on both backends. `events` stays valid until the next take, write or destroy. */
typedef struct boids_events {
    const boids_event *events;
    size_t count;
    uint64_t lost; /* events beyond the world's event_capacity, dropped */
} boids_events;

/* Reads the events back (the GPU's only read-back of them) and starts a new list. When events
 * were lost, the kept ones are still returned and the status is BOIDS_E_EVENTS_LOST. */
BOIDS_API boids_status boids_world_take_events(boids_world *world, boids_events *out);

/* ---- profile --------------------------------------------------------------------------------- */

/* The passes of a step (and the drawing), timed by GL timer queries on the GPU and by the wall
 * clock on the CPU. */
#define BOIDS_PASS_LIST(X)                                                                         \
    X(PREDATORS, "predators", "the predators' grid and the catches (models with predators)")       \
    X(GRID, "grid", "cell of every boid, histogram of boids per cell")                             \
    X(SCAN, "scan", "prefix sum of the histogram")                                                 \
    X(SCATTER, "scatter", "each boid takes a slot of its cell")                                    \
    X(REORDER, "reorder", "the state copied into cell order")                                      \
    X(STEER, "steer", "the model's rules and the integration")                                     \
    X(HUNT, "hunt", "the predators' steering (models with predators)")                             \
    X(DRAW, "draw", "drawing the boids (the renderer)")

typedef enum boids_pass {
#define BOIDS_X_PASS_ENUM(ID, name, desc) BOIDS_PASS_##ID,
    BOIDS_PASS_LIST(BOIDS_X_PASS_ENUM)
#undef BOIDS_X_PASS_ENUM
        BOIDS_PASS_COUNT
} boids_pass;

BOIDS_API const char *boids_pass_name(boids_pass pass);

typedef struct boids_profile {
    double ms[BOIDS_PASS_COUNT];        /* mean milliseconds per step (per draw for DRAW) */
    uint64_t samples[BOIDS_PASS_COUNT]; /* how many steps (draws) the means are over */
    double step_ms;                     /* the sum of the step's passes */
    /* The GPU's GL commands a step, means over the steps since creation or the reset: compute
     * dispatches, memory barriers and buffer clears (0 on the CPU). */
    double dispatches_per_step, barriers_per_step, clears_per_step;
} boids_profile;

/* Per-pass times since creation or the last reset. The GPU times a sample of the steps (the first
 * of each boids_world_step call) with timer queries it reads later without waiting, so the newest
 * steps may not count yet (boids_world_finish makes them count). */
BOIDS_API void boids_world_get_profile(boids_world *world, boids_profile *out);
BOIDS_API void boids_world_reset_profile(boids_world *world);
/* Adds `samples` timings of `pass` that sum to sum_ms: how a renderer reports its draws
 * (BOIDS_PASS_DRAW) to the world's profile. */
BOIDS_API void boids_world_profile_add(boids_world *world, boids_pass pass, double sum_ms,
                                       uint64_t samples);

/* ---- drawing --------------------------------------------------------------------------------- */

/* The GL buffers of a GPU world's state, for drawing straight from them; valid until the next
 * step. pos_vel: vec4 (px, py, vx, vy) per slot; swarm and id: uint per slot; slots are in some
 * order (the cell order of the last step), the same for the three, living boids first: the
 * slots from cell_start[alive_at] on hold dead boids (alive_at is the index of the uint in
 * cell_start that counts the living; draw them with glDrawArraysInstancedIndirect from it).
 * pred_pos_vel: the predators' vec4s. attributes: uint words, attribute k of boid id at
 * attr_base[k] + id. A 3D world's vec2 (pz, vz) per slot are buffers of their own, pos_vel_z and
 * pred_pos_vel_z, in the same slot order (0 in a flat world). All 0 for a CPU world. */
typedef struct boids_gl_state {
    unsigned pos_vel, swarm, id;
    unsigned cell_start, alive_at;
    unsigned pred_pos_vel, predators;
    unsigned attributes;
    uint32_t attr_base[BOIDS_ATTR_COUNT];
    unsigned pos_vel_z, pred_pos_vel_z;
} boids_gl_state;
BOIDS_API boids_gl_state boids_world_gl_state(const boids_world *world);

/* The world as the program's --frames draw it, whole (a 3D world's box from above a corner):
 * width x height pixels of 8-bit RGB, rows top to bottom, into rgb (3 x width x height bytes).
 * Either backend: drawn in a headless context of its own from a read of the state (a few tens of
 * milliseconds and the read; not for every step), so it needs OpenGL 4.3 (BOIDS_ERR_NO_GL where
 * there is none). Sides in [1, 16384]. */
BOIDS_API boids_status boids_world_image(boids_world *world, uint32_t width, uint32_t height,
                                         uint8_t *rgb);
/* The same picture written to path as a PNG, whole or not at all (a temporary name, then
 * renamed). */
BOIDS_API boids_status boids_world_save_png(boids_world *world, uint32_t width, uint32_t height,
                                            const char *path);

#ifdef __cplusplus
}
#endif
#endif /* BOIDS_H */
