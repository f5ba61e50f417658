#define _POSIX_C_SOURCE 200809L
#include "render/png_writer.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stb_image_write.h>

#include "base/error.h"
#include "base/output_file.h"
#include "base/thread_pool.h"
#include "gl/context.h"

#define RING 3  /* reads in flight on the GPU, at most (1 for frames of more than budget / 8) */
#define QUEUE 4 /* frames waiting for an encoder, at most */
/* Frames held in memory (reads in flight, queued, being encoded: an encoder needs about 3
 * frame-sizes, its RGBA frame converted in place, stb's filtered copy and the compressed output)
 * stay within this, whatever --size and the core count: fewer reads in flight, fewer encoders
 * and a shorter queue at huge sizes. A frame larger than the budget / 6 (about 13400 x 13400)
 * needs one of each at least: 6 frame-sizes with the offscreen target (6 GiB at 16384 x 16384),
 * which the README states. */
#define MEMORY_BUDGET (1024.0 * 1024.0 * 1024.0)
#define PATH_MAX_LEN 4096

typedef struct job {
    unsigned char *rgba; /* as read: bottom row first */
    char path[PATH_MAX_LEN];
} job;

typedef struct slot {
    GLuint pbo;
    GLsync fence;
    char path[PATH_MAX_LEN];
} slot;

struct boids_png_writer {
    char dir[PATH_MAX_LEN];
    int width, height;
    unsigned frames;
    slot ring[RING];
    int ring_n, ring_head, ring_pending; /* ring_n slots in use */
    /* encoder pool */
    pthread_t *threads;
    int nthreads;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    job queue[QUEUE];
    int q_head, q_count, q_cap, active, quit;
    boids_status error;
    char error_text[PATH_MAX_LEN + 256];
};

/* stb_image_write's settings are globals the encoder threads read: set once, before any runs. */
static pthread_once_t stb_settings_once = PTHREAD_ONCE_INIT;
static void stb_settings(void)
{
    stbi_write_force_png_filter = 0; /* no per-row filter search: flocks are mostly background */
    stbi_write_png_compression_level = 2;
    stbi_flip_vertically_on_write(1); /* the read is bottom row first */
}

boids_status boids_check_output_dir(const char *dir)
{
    struct stat sb;
    if (!dir[0]) return boids_fail(BOIDS_E_EXPORT, "an empty name is no directory");
    if (stat(dir, &sb) != 0 && errno == ENOENT) { /* made, with its parents (mkdir -p) */
        char part[PATH_MAX_LEN];
        snprintf(part, sizeof part, "%s", dir);
        for (char *p = part + 1;; ++p)
            if (*p == '/' || *p == '\0') {
                char c = *p;
                *p = '\0';
                if (mkdir(part, 0777) != 0 && errno != EEXIST)
                    return boids_fail(BOIDS_E_EXPORT, "%s: cannot create %s: %s", dir, part,
                                      strerror(errno));
                *p = c;
                if (!c) break;
            }
    }
    if (stat(dir, &sb) != 0) return boids_fail(BOIDS_E_EXPORT, "%s: %s", dir, strerror(errno));
    if (!S_ISDIR(sb.st_mode)) return boids_fail(BOIDS_E_EXPORT, "%s: not a directory", dir);
    if (access(dir, W_OK | X_OK) != 0)
        return boids_fail(BOIDS_E_EXPORT, "%s: not writable: %s", dir, strerror(errno));
    return BOIDS_OK;
}

/* Keeps the first error an encoder meets, for the next capture or finish to report. */
static void record_error(boids_png_writer *w, const char *path, const char *what)
{
    pthread_mutex_lock(&w->lock);
    if (w->error == BOIDS_OK) {
        w->error = BOIDS_ERR_IO;
        snprintf(w->error_text, sizeof w->error_text, "%s: %s", path, what);
    }
    pthread_mutex_unlock(&w->lock);
}

typedef struct sink {
    FILE *f;
    int ok;
} sink;

static void sink_write(void *ctx, void *data, int size)
{
    sink *k = ctx;
    if (k->ok && fwrite(data, 1, (size_t)size, k->f) != (size_t)size) k->ok = 0;
}

/* The PNG of width x height RGB pixels, rows `row` bytes apart, bottom row first, streamed into a
 * temporary name, then renamed (base/output_file.h); an error names the path. */
static boids_status encode(const char *path, int width, int height, const uint8_t *rgb, size_t row)
{
    boids_output_file o;
    boids_status st = boids_output_open(&o, path);
    if (st != BOIDS_OK) return st;
    sink k = {o.f, 1};
    int encoded = stbi_write_png_to_func(sink_write, &k, width, height, 3, rgb, (int)row);
    if (!encoded || !k.ok) {
        int err = errno;
        boids_output_abort(&o);
        return boids_fail(BOIDS_E_EXPORT, "%s: %s", path,
                          encoded ? strerror(err) : "PNG encoding failed");
    }
    return boids_output_commit(&o);
}

/* Encodes and writes one frame: each RGBA row made RGB in place (the row keeps its stride, stb
 * flips the rows, so no second copy of the frame), streamed into a temporary name, then renamed
 * (base/output_file.h). */
static void write_png(boids_png_writer *w, job *j)
{
    const size_t row = (size_t)w->width * 4;
    for (int y = 0; y < w->height; ++y) {
        unsigned char *p = j->rgba + row * (size_t)y;
        for (int x = 0; x < w->width; ++x) {
            p[3 * x] = p[4 * x];
            p[3 * x + 1] = p[4 * x + 1];
            p[3 * x + 2] = p[4 * x + 2];
        }
    }
    if (encode(j->path, w->width, w->height, j->rgba, row) != BOIDS_OK)
        record_error(w, j->path, boids_last_error_info()->detail);
}

boids_status boids_png_write_rgb(const char *path, int width, int height, const uint8_t *rgb)
{
    pthread_once(&stb_settings_once, stb_settings);
    return encode(path, width, height, rgb, (size_t)width * 3);
}

static void *encoder_main(void *arg)
{
    boids_png_writer *w = arg;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->quit && w->q_count == 0) pthread_cond_wait(&w->changed, &w->lock);
        if (w->q_count == 0 && w->quit) break;
        job j = w->queue[w->q_head];
        w->q_head = (w->q_head + 1) % QUEUE;
        w->q_count--;
        w->active++;
        pthread_cond_broadcast(&w->changed);
        pthread_mutex_unlock(&w->lock);
        write_png(w, &j);
        free(j.rgba);
        pthread_mutex_lock(&w->lock);
        w->active--;
        pthread_cond_broadcast(&w->changed);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

/* Waits for the oldest read to land, copies it out and queues it for an encoder (waiting for
 * room if the encoders are behind). */
static boids_status harvest_oldest(boids_png_writer *w)
{
    slot *s = &w->ring[(w->ring_head - w->ring_pending + w->ring_n) % w->ring_n];
    GLenum r;
    do {
        r = glClientWaitSync(s->fence, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000ull);
    } while (r == GL_TIMEOUT_EXPIRED);
    glDeleteSync(s->fence);
    s->fence = 0;
    w->ring_pending--;
    if (r == GL_WAIT_FAILED) return boids_fail(BOIDS_E_GL, "waiting for a frame read failed");

    size_t bytes = (size_t)w->width * 4 * (size_t)w->height;
    unsigned char *rgba = malloc(bytes);
    if (!rgba)
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for a %dx%d frame", w->width,
                          w->height);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, s->pbo);
    const unsigned char *px =
        glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, (GLsizeiptr)bytes, GL_MAP_READ_BIT);
    if (!px) {
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
        free(rgba);
        return boids_gl_check("mapping a frame") == BOIDS_OK
                   ? boids_fail(BOIDS_E_GL, "mapping a frame failed")
                   : BOIDS_ERR_GL;
    }
    memcpy(rgba, px, bytes); /* the conversion to RGB is the encoder's job, off this thread */
    glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);

    pthread_mutex_lock(&w->lock);
    while (w->q_count >= w->q_cap) pthread_cond_wait(&w->changed, &w->lock);
    job *j = &w->queue[(w->q_head + w->q_count) % QUEUE];
    j->rgba = rgba;
    memcpy(j->path, s->path, sizeof j->path);
    w->q_count++;
    pthread_cond_broadcast(&w->changed);
    pthread_mutex_unlock(&w->lock);
    return BOIDS_OK;
}

boids_status boids_png_writer_create(const char *dir, int width, int height, int threads,
                                     boids_png_writer **out)
{
    *out = NULL;
    boids_status st = boids_check_output_dir(dir);
    if (st != BOIDS_OK) return st;
    boids_png_writer *w = calloc(1, sizeof *w);
    if (!w) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory");
    snprintf(w->dir, sizeof w->dir, "%s", dir);
    w->width = width;
    w->height = height;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->changed, NULL);
    pthread_once(&stb_settings_once, stb_settings);
    double frame = 4.0 * width * height;
    w->ring_n = frame * RING <= MEMORY_BUDGET / 4 ? RING : 1;
    for (int i = 0; i < w->ring_n; ++i) {
        glGenBuffers(1, &w->ring[i].pbo);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, w->ring[i].pbo);
        glBufferData(GL_PIXEL_PACK_BUFFER, (GLsizeiptr)((size_t)width * height * 4), NULL,
                     GL_STREAM_READ);
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    int cores = threads > 0 ? threads : boids_cpu_count();
    int by_memory = (int)(MEMORY_BUDGET / (4.0 * frame));
    w->nthreads = cores < by_memory ? cores : by_memory > 0 ? by_memory : 1;
    int q = (int)(MEMORY_BUDGET / (2.0 * frame));
    w->q_cap = q < 1 ? 1 : q > QUEUE ? QUEUE : q;
    w->threads = calloc((size_t)w->nthreads, sizeof *w->threads);
    int started = 0;
    if (w->threads)
        for (; started < w->nthreads; ++started)
            if (pthread_create(&w->threads[started], NULL, encoder_main, w) != 0) break;
    w->nthreads = started;
    if (started == 0) {
        boids_png_writer_destroy(w);
        return boids_fail(BOIDS_E_NO_MEMORY, "could not start PNG encoder threads");
    }
    st = boids_gl_check("creating pixel buffers");
    if (st != BOIDS_OK) {
        boids_png_writer_destroy(w);
        return st;
    }
    *out = w;
    return BOIDS_OK;
}

boids_status boids_png_writer_capture_as(boids_png_writer *w, const char *path)
{
    boids_status st = BOIDS_OK;
    if (w->ring_pending == w->ring_n && (st = harvest_oldest(w)) != BOIDS_OK) return st;
    slot *s = &w->ring[w->ring_head];
    snprintf(s->path, sizeof s->path, "%s", path);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, s->pbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, w->width, w->height, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    s->fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glFlush(); /* so the read starts now, and the fence can signal without anyone waiting */
    w->ring_head = (w->ring_head + 1) % w->ring_n;
    w->ring_pending++;
    st = boids_png_writer_poll(w);
    if (st == BOIDS_OK) st = boids_gl_check("reading a frame");
    return st;
}

boids_status boids_png_writer_poll(boids_png_writer *w)
{
    boids_status st = BOIDS_OK;
    /* Hand on whatever has already landed, without waiting. */
    while (w->ring_pending > 0) {
        slot *old = &w->ring[(w->ring_head - w->ring_pending + w->ring_n) % w->ring_n];
        GLenum r = glClientWaitSync(old->fence, 0, 0);
        if (r != GL_ALREADY_SIGNALED && r != GL_CONDITION_SATISFIED) break;
        if ((st = harvest_oldest(w)) != BOIDS_OK) return st;
    }
    pthread_mutex_lock(&w->lock);
    if (w->error != BOIDS_OK) st = boids_fail(BOIDS_E_EXPORT, "%s", w->error_text);
    pthread_mutex_unlock(&w->lock);
    return st;
}

bool boids_output_dir_has_frames(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return false;
    bool found = false;
    for (struct dirent *ent; !found && (ent = readdir(d)) != NULL;) /* any frame, of any kind */
        found = strncmp(ent->d_name, "frame_", 6) == 0 && strstr(ent->d_name, ".png") != NULL;
    closedir(d);
    return found;
}

boids_status boids_png_writer_capture(boids_png_writer *w)
{
    char path[PATH_MAX_LEN];
    int n = snprintf(path, sizeof path, "%s/frame_%06u.png", w->dir, w->frames);
    if (n < 0 || (size_t)n >= sizeof path)
        return boids_fail(BOIDS_E_EXPORT, "%s: path too long", w->dir);
    boids_status st = boids_png_writer_capture_as(w, path);
    if (st == BOIDS_OK) w->frames++;
    return st;
}

unsigned boids_png_writer_frames(const boids_png_writer *w) { return w->frames; }

boids_status boids_png_writer_finish(boids_png_writer *w)
{
    boids_status st = BOIDS_OK;
    while (w->ring_pending > 0 && st == BOIDS_OK) st = harvest_oldest(w);
    pthread_mutex_lock(&w->lock);
    while (w->q_count > 0 || w->active > 0) pthread_cond_wait(&w->changed, &w->lock);
    if (st == BOIDS_OK && w->error != BOIDS_OK)
        st = boids_fail(BOIDS_E_EXPORT, "%s", w->error_text);
    pthread_mutex_unlock(&w->lock);
    return st;
}

boids_status boids_png_writer_destroy(boids_png_writer *w)
{
    if (!w) return BOIDS_OK;
    boids_status st = w->nthreads > 0 ? boids_png_writer_finish(w) : BOIDS_OK;
    pthread_mutex_lock(&w->lock);
    w->quit = 1;
    pthread_cond_broadcast(&w->changed);
    pthread_mutex_unlock(&w->lock);
    for (int i = 0; i < w->nthreads; ++i) pthread_join(w->threads[i], NULL);
    for (int i = 0; i < RING; ++i) {
        if (w->ring[i].fence) glDeleteSync(w->ring[i].fence);
        if (w->ring[i].pbo) glDeleteBuffers(1, &w->ring[i].pbo);
    }
    free(w->threads);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->changed);
    free(w);
    return st;
}
