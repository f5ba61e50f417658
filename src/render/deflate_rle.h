/* A fast zlib (RFC 1950/1951) compressor for rendered frames, plugged into stb_image_write
 * through its STBIW_ZLIB_COMPRESS hook. stb's own deflate spends ~130 ms on a 1920x1080 frame;
 * this one looks only for repeats of the previous pixel (distance 3 in RGB scanlines, the runs of
 * background that make up most of a flock picture) and codes them with the fixed Huffman table:
 * one pass, ~10x faster, files about as small. The PNG around it is still stb's. */
#ifndef BOIDS_RENDER_DEFLATE_RLE_H
#define BOIDS_RENDER_DEFLATE_RLE_H

/* Same contract as stb's zlib_compress: a malloc'ed zlib stream of data[0..len), its length in
 * *out_len; NULL if out of memory. quality is ignored. */
unsigned char *boids_deflate_rle(unsigned char *data, int len, int *out_len, int quality);

#endif
