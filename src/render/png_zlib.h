/* The zlib stream inside our PNGs: Debian's libdeflate at level 1, plugged into stb_image_write
 * through its STBIW_ZLIB_COMPRESS hook (stb keeps the PNG format, filtering and CRCs). On a
 * 1920x1080 flock frame stb's own deflate takes ~60 ms; libdeflate level 1 takes ~16 ms and makes
 * files 15 % smaller than stb's. (A run-length deflate written here was ~15 % faster than
 * libdeflate but made files 1.8 times larger, so it went: README, "PNG export".) */
#ifndef BOIDS_RENDER_PNG_ZLIB_H
#define BOIDS_RENDER_PNG_ZLIB_H

/* Same contract as stb's zlib_compress: a malloc'ed zlib stream of data[0..len), its length in
 * *out_len; NULL if out of memory. quality is ignored (always level 1). Thread-safe. */
unsigned char *boids_png_zlib(unsigned char *data, int len, int *out_len, int quality);

#endif
