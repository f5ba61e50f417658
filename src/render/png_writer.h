/* PNG sequences and screenshots without stalling the simulation: the framebuffer is read into a
 * ring of pixel buffer objects (asynchronous), a few frames later the finished read is copied out
 * and handed to worker threads that encode the PNG (stb_image_write) and write it under a
 * temporary name, then rename it: a partially written PNG never exists under its final name.
 * If the encoders fall behind, capture waits for a free slot; the encoders and the queue are
 * sized so the frames in memory stay within about 1 GiB at any --size. */
#ifndef BOIDS_RENDER_PNG_WRITER_H
#define BOIDS_RENDER_PNG_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "gl/gl.h"

typedef struct boids_png_writer boids_png_writer;

/* Checks that dir exists and is writable (BOIDS_ERR_IO naming it otherwise) before anything
 * else; frames are width x height. threads: encoder threads (0 = one per core). */
boids_status boids_png_writer_create(const char *dir, int width, int height, int threads,
                                     boids_png_writer **out);
/* Starts reading the bound read framebuffer (width x height at 0, 0) as the next frame,
 * dir/frame_NNNNNN.png, numbered from 0. */
boids_status boids_png_writer_capture(boids_png_writer *w);
/* Same, to an explicit file name (a screenshot). */
boids_status boids_png_writer_capture_as(boids_png_writer *w, const char *path);
/* Hands on the captures whose reads have landed, without waiting (call once a frame: on a real
 * GPU the reads finish while the program goes on). Returns an encoder's first error, if any. */
boids_status boids_png_writer_poll(boids_png_writer *w);
/* Waits for every capture to be encoded and written. Returns the first write error, if any. */
boids_status boids_png_writer_finish(boids_png_writer *w);
/* Frames captured so far (numbered ones). */
unsigned boids_png_writer_frames(const boids_png_writer *w);
/* Finishes and frees. */
boids_status boids_png_writer_destroy(boids_png_writer *w);
/* Writes width x height RGB pixels, bottom row first (as glReadPixels gives them), to path as a
 * PNG, whole or not at all (base/output_file.h). */
boids_status boids_png_write_rgb(const char *path, int width, int height, const uint8_t *rgb);
/* Checks that dir is a writable directory, making it (and its parents) if it does not exist. */
boids_status boids_check_output_dir(const char *dir);
/* True if dir already holds a frame_000000.png (a new sequence would mix with it). */
bool boids_output_dir_has_frames(const char *dir);

#endif
