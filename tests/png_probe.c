/* png_probe FILE: prints "WIDTH HEIGHT LIT" for a PNG, LIT being the pixels that differ from the
 * renderer's background; exit 1 if it does not decode. For the shell tests. */
#include <stdio.h>
#include <stdlib.h>

#include <stb_image.h> /* compiled in stb_image_impl.c */

#include "render/boid_renderer.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: png_probe FILE.png\n");
        return 2;
    }
    int w, h, comp;
    unsigned char *img = stbi_load(argv[1], &w, &h, &comp, 3);
    if (!img) {
        fprintf(stderr, "png_probe: %s: %s\n", argv[1], stbi_failure_reason());
        return 1;
    }
    const int bg[3] = {(int)(BOIDS_BACKGROUND_R * 255 + 0.5f),
                       (int)(BOIDS_BACKGROUND_G * 255 + 0.5f),
                       (int)(BOIDS_BACKGROUND_B * 255 + 0.5f)};
    long lit = 0;
    for (long i = 0; i < (long)w * h; ++i)
        lit += abs(img[3 * i] - bg[0]) > 1 || abs(img[3 * i + 1] - bg[1]) > 1 ||
               abs(img[3 * i + 2] - bg[2]) > 1;
    printf("%d %d %ld\n", w, h, lit);
    stbi_image_free(img);
    return 0;
}
