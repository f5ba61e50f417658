/* png_diff A.png B.png: whether two pictures show the same, as scripts/figures.sh asks of a
 * picture drawn again: the same size, and at most 2 % of the pixels differing by more than 48 of
 * 255 in a channel (another rasterizer may draw a triangle's edge a pixel over). Prints how many
 * differ; exit 0 when they match, 1 when not, 2 when one does not decode. */
#include <stdio.h>
#include <stdlib.h>

#include <stb_image.h> /* compiled in stb_image_impl.c */

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: png_diff A.png B.png\n");
        return 2;
    }
    int w[2], h[2], n;
    unsigned char *px[2];
    for (int k = 0; k < 2; ++k)
        if (!(px[k] = stbi_load(argv[1 + k], &w[k], &h[k], &n, 3))) {
            printf("%s does not decode as a picture\n", argv[1 + k]);
            return 2;
        }
    if (w[0] != w[1] || h[0] != h[1]) {
        printf("%dx%d against %dx%d\n", w[0], h[0], w[1], h[1]);
        return 1;
    }
    long differ = 0, total = (long)w[0] * h[0];
    for (long i = 0; i < total; ++i) {
        int most = 0;
        for (int c = 0; c < 3; ++c) {
            int d = abs(px[0][3 * i + c] - px[1][3 * i + c]);
            most = d > most ? d : most;
        }
        differ += most > 48;
    }
    printf("%ld of %ld pixels differ (%.2f %%)\n", differ, total, 100.0 * differ / total);
    stbi_image_free(px[0]);
    stbi_image_free(px[1]);
    return differ * 50 <= total ? 0 : 1;
}
