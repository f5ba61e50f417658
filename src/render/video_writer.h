/* --video FILE.mp4: frames piped to ffmpeg as raw RGBA, which encodes them (H.264, yuv420p) into
 * the file's temporary name (base/output_file.h); the name is renamed into place only when
 * ffmpeg finished cleanly and wrote something, so a failed recording never leaves a half-written
 * video under the target's name nor destroys an older one. Ctrl-C ends the stream after the
 * frame in flight (a second at most: a stalled ffmpeg is then stopped and its file removed) and
 * lets ffmpeg finish the file, which keeps the frames sent so far (a second Ctrl-C drops it).
 * ffmpeg runs in its own process, so the encoding overlaps the simulation; a full pipe makes
 * capture wait (the back-pressure that keeps memory bounded). */
#ifndef BOIDS_RENDER_VIDEO_WRITER_H
#define BOIDS_RENDER_VIDEO_WRITER_H

#include <stdbool.h>

#include "gl/gl.h"

typedef struct boids_video_writer boids_video_writer;

/* Starts ffmpeg (found on PATH) writing path's temporary
 * name at fps frames per second, frames width x height. BOIDS_E_EXPORT saying how to install it
 * when there is no ffmpeg. */
boids_status boids_video_writer_create(const char *path, int width, int height, double fps,
                                       boids_video_writer **out);
/* Reads the bound read framebuffer (width x height at 0, 0) and sends it to ffmpeg. */
boids_status boids_video_writer_capture(boids_video_writer *v);
unsigned boids_video_writer_frames(const boids_video_writer *v);
/* Closes the pipe and waits for ffmpeg; keep: rename the video into place (when ffmpeg
 * succeeded and wrote a file that is not empty), else remove it; *kept (where not NULL): whether
 * the video is in place. Frees v. */
boids_status boids_video_writer_finish(boids_video_writer *v, bool keep, bool *kept);

#endif
