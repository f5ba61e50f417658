#define _POSIX_C_SOURCE 200809L
#include "render/video_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/error.h"
#include "base/interrupt.h"
#include "base/output_file.h"
#include "gl/context.h"

extern char **environ;

struct boids_video_writer {
    boids_output_file out; /* the target and its temporary name (ffmpeg writes the latter) */
    int width, height;
    int pipe_fd; /* ffmpeg's stdin */
    pid_t pid;
    unsigned frames;
    bool torn;             /* a frame was cut off in the pipe: the stream cannot be kept */
    unsigned char *pixels; /* one frame as read: bottom row first (ffmpeg flips it) */
    struct sigaction old_pipe;
};

/* Starts ffmpeg in its own process group, reading frames from a pipe: its write end in *fd.
 * Returns 0 or the errno of what failed. */
static int spawn_ffmpeg(char *const argv[], pid_t *pid, int *fd)
{
    int fds[2];
    if (pipe(fds) != 0) return errno;
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    /* its own process group: Ctrl-C reaches boids, which then ends the video (and removes it)
     * instead of ffmpeg dying under a pipe still being written */
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    int err = posix_spawnp(pid, "ffmpeg", &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(fds[0]);
    if (err != 0) {
        close(fds[1]);
        return err;
    }
    *fd = fds[1];
    return 0;
}

static void free_writer(boids_video_writer *v)
{
    free(v->pixels);
    free(v);
}

boids_status boids_video_writer_create(const char *path, int width, int height, double fps,
                                       boids_video_writer **out)
{
    *out = NULL;
    boids_video_writer *v = calloc(1, sizeof *v);
    if (v) v->pixels = malloc((size_t)width * (size_t)height * 4);
    if (!v || !v->pixels) {
        if (v) free(v);
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for a %dx%d frame", width, height);
    }
    v->width = width;
    v->height = height;
    v->pipe_fd = -1;
    /* the temporary name, for ffmpeg; refuses what it must */
    boids_status st = boids_output_reserve(&v->out, path);
    if (st != BOIDS_OK) {
        free_writer(v);
        return st;
    }
    char size[64], rate[64];
    snprintf(size, sizeof size, "%dx%d", width, height);
    snprintf(rate, sizeof rate, "%.9g", fps);
    /* vflip: the read is bottom row first; pad: H.264 in yuv420p needs even sizes */
    /* clang-format off */
    char *argv[] = {"ffmpeg", "-hide_banner", "-loglevel", "error", "-y",
                    "-f", "rawvideo", "-pix_fmt", "rgba", "-s", size, "-framerate", rate, "-i", "-",
                    "-vf", "vflip,pad=ceil(iw/2)*2:ceil(ih/2)*2",
                    "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "18", "-f", "mp4", v->out.tmp,
                    NULL};
    /* clang-format on */
    int err = spawn_ffmpeg(argv, &v->pid, &v->pipe_fd);
    if (err != 0) {
        boids_output_abort(&v->out);
        free_writer(v);
        if (err == ENOENT)
            return boids_fail(BOIDS_E_EXPORT,
                              "ffmpeg is not installed (on PATH): install it (sudo apt install "
                              "ffmpeg), or write frames with --frames DIR and encode them later");
        return boids_fail(BOIDS_E_EXPORT, "%s: cannot start ffmpeg: %s", path, strerror(err));
    }
    fcntl(v->pipe_fd, F_SETFL, fcntl(v->pipe_fd, F_GETFL) | O_NONBLOCK); /* see capture */
    boids_interrupt_child(v->pid); /* a second Ctrl-C stops it too */
    /* a write to an ffmpeg that quit fails with EPIPE, reported, instead of killing boids */
    struct sigaction ignore = {0};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &v->old_pipe);
    *out = v;
    return BOIDS_OK;
}

boids_status boids_video_writer_capture(boids_video_writer *v)
{
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, v->width, v->height, GL_RGBA, GL_UNSIGNED_BYTE, v->pixels);
    boids_status st = boids_gl_check("reading a frame");
    if (st != BOIDS_OK) return st;
    const size_t frame = (size_t)v->width * (size_t)v->height * 4;
    size_t left = frame;
    const unsigned char *p = v->pixels;
    double signal_seen = 0;
    while (left > 0) {
        /* A stalled ffmpeg must not keep boids from stopping: wait for room in the pipe a tenth of
         * a second at a time, looking at the signals between (a signal may reach another thread
         * and never interrupt this one's write); after a signal, the frame in flight is finished
         * for up to a second by the clock, so that the video keeps every frame before it. (It was
         * ten passes of this loop: a pipe takes 64 KiB a pass, so a frame of 640x360 or more was
         * always cut, and the whole video removed.) */
        struct pollfd pfd = {v->pipe_fd, POLLOUT, 0};
        if (boids_interrupted()) {
            const double now = boids_clock_seconds();
            if (signal_seen == 0) signal_seen = now;
            if (now - signal_seen > 1.0) {
                v->torn = left < frame;
                return boids_fail(BOIDS_E_EXPORT, "%s: interrupted while ffmpeg took a frame",
                                  v->out.path);
            }
        }
        if (poll(&pfd, 1, 100) == 0) continue;
        ssize_t n = write(v->pipe_fd, p, left);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0)
            return boids_fail(BOIDS_E_EXPORT,
                              "%s: ffmpeg stopped taking frames (%s): see its message above",
                              v->out.path, n < 0 ? strerror(errno) : "no progress");
        p += n;
        left -= (size_t)n;
    }
    v->frames++;
    return BOIDS_OK;
}

unsigned boids_video_writer_frames(const boids_video_writer *v) { return v->frames; }

boids_status boids_video_writer_finish(boids_video_writer *v, bool keep, bool *kept)
{
    if (kept) *kept = false;
    if (!v) return BOIDS_OK;
    keep = keep && !v->torn;
    close(v->pipe_fd);                /* end of input: ffmpeg finishes the file */
    if (!keep) kill(v->pid, SIGTERM); /* a video not kept: no need to wait for its end */
    int status = 0;
    pid_t r;
    bool killed = !keep;
    /* ffmpeg finishing (looked at every 20 ms). It encodes the frames it still holds (an encoder
     * looks some 40 frames ahead: seconds at 1920x1080 on 2 cores, which is why two seconds lost
     * such videos after a signal) and writes the file's index. A wait of over half a second is
     * said, so that a quiet terminal is not taken for a hang; after a signal, a second one stops
     * ffmpeg at once (base/interrupt.h) and a minute stops it anyway. */
    bool said = false;
    const double t0 = boids_clock_seconds();
    for (int ticks = 0;; ++ticks) {
        r = waitpid(v->pid, &status, WNOHANG);
        if (r == v->pid || (r < 0 && errno != EINTR)) break;
        if (!killed && !said && boids_clock_seconds() - t0 > 0.5) {
            fprintf(stderr, "boids: finishing %s: ffmpeg encodes the last of its %u frames%s\n",
                    v->out.path, v->frames,
                    boids_interrupted() ? " (Ctrl-C again drops the video)" : "");
            said = true;
        }
        if (boids_interrupted() && !killed && ticks > 3000)
            kill(v->pid, SIGTERM), keep = false, killed = true;
        if (!boids_interrupted()) ticks = 0;
        nanosleep(&(struct timespec){0, 20000000}, NULL);
    }
    if (said && r == v->pid && !killed)
        fprintf(stderr, "boids: ffmpeg finished %s in %.1f s\n", v->out.path,
                boids_clock_seconds() - t0);
    sigaction(SIGPIPE, &v->old_pipe, NULL);
    boids_interrupt_child(0);
    boids_status st = BOIDS_OK;
    bool clean = r == v->pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (keep && !clean)
        st = boids_fail(BOIDS_E_EXPORT, "%s: ffmpeg failed (%s %d): see its message above",
                        v->out.path, WIFEXITED(status) ? "exit status" : "signal",
                        WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    struct stat written;
    if (keep && clean && (stat(v->out.tmp, &written) != 0 || written.st_size == 0))
        st = boids_fail(BOIDS_E_EXPORT, "%s: ffmpeg ended without writing the video", v->out.path);
    if (keep && clean && st == BOIDS_OK) st = boids_output_commit_named(&v->out);
    if (!keep || st != BOIDS_OK) boids_output_abort(&v->out);
    if (kept) *kept = keep && st == BOIDS_OK;
    free(v->pixels);
    free(v);
    return st;
}
