#include "render/deflate_rle.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct bits {
    unsigned char *out;
    size_t pos, cap;
    uint64_t acc; /* pending bits, LSB first */
    int n;
} bits;

static void put(bits *b, uint32_t value, int count)
{
    b->acc |= (uint64_t)value << b->n;
    b->n += count;
    while (b->n >= 8) {
        b->out[b->pos++] = (unsigned char)b->acc;
        b->acc >>= 8;
        b->n -= 8;
    }
}

/* Huffman codes go MSB first: reverse them into the LSB-first stream. */
static uint32_t reverse(uint32_t code, int len)
{
    uint32_t r = 0;
    for (int i = 0; i < len; ++i) r |= ((code >> i) & 1u) << (len - 1 - i);
    return r;
}

/* Fixed-Huffman code of a literal/length symbol (RFC 1951, 3.2.6), already reversed. */
static uint32_t sym_code[288];
static int sym_len[288];
/* Length 3..258 -> symbol and extra bits. */
static uint16_t len_sym[259];
static uint8_t len_extra_bits[259];
static uint16_t len_extra_val[259];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void)
{
    for (int s = 0; s < 288; ++s) {
        uint32_t code;
        int len;
        if (s < 144) code = 0x30u + (uint32_t)s, len = 8;
        else if (s < 256) code = 0x190u + (uint32_t)(s - 144), len = 9;
        else if (s < 280) code = (uint32_t)(s - 256), len = 7;
        else code = 0xC0u + (uint32_t)(s - 280), len = 8;
        sym_code[s] = reverse(code, len);
        sym_len[s] = len;
    }
    static const uint16_t base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
    static const uint8_t extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
    for (int l = 3; l <= 258; ++l) {
        int c = 28;
        while (base[c] > l) --c;
        len_sym[l] = (uint16_t)(257 + c);
        len_extra_bits[l] = extra[c];
        len_extra_val[l] = (uint16_t)(l - base[c]);
    }
}

static void literal(bits *b, unsigned char c) { put(b, sym_code[c], sym_len[c]); }

unsigned char *boids_deflate_rle(unsigned char *data, int len, int *out_len, int quality)
{
    (void)quality;
    pthread_once(&tables_once, build_tables); /* encoder threads call this concurrently */
    size_t n = len > 0 ? (size_t)len : 0;
    bits b = {0};
    b.cap = n + n / 8 + 64; /* literals cost at most 9 bits a byte */
    b.out = malloc(b.cap);
    if (!b.out) return NULL;
    b.out[b.pos++] = 0x78; /* zlib: deflate, 32K window */
    b.out[b.pos++] = 0x01; /* fastest, (0x7801 % 31 == 0) */
    put(&b, 1, 1);         /* final block */
    put(&b, 1, 2);         /* fixed Huffman */
    size_t i = 0;
    while (i < n) {
        size_t run = 0;
        if (i >= 3) {
            size_t max = n - i < 258 ? n - i : 258;
            while (run < max && data[i + run] == data[i + run - 3]) ++run;
        }
        if (run >= 3) {
            put(&b, sym_code[len_sym[run]], sym_len[len_sym[run]]);
            if (len_extra_bits[run]) put(&b, len_extra_val[run], len_extra_bits[run]);
            put(&b, reverse(2, 5), 5); /* distance code 2 = distance 3, no extra bits */
            i += run;
        } else {
            literal(&b, data[i]);
            ++i;
        }
    }
    put(&b, sym_code[256], sym_len[256]); /* end of block */
    if (b.n > 0) put(&b, 0, 8 - b.n);
    /* Adler-32 of the uncompressed data, big-endian. */
    uint32_t a = 1, s2 = 0;
    for (size_t k = 0; k < n;) {
        size_t block = n - k < 5552 ? n - k : 5552; /* no overflow before the modulo */
        for (size_t e = k + block; k < e; ++k) {
            a += data[k];
            s2 += a;
        }
        a %= 65521u;
        s2 %= 65521u;
    }
    uint32_t adler = (s2 << 16) | a;
    b.out[b.pos++] = (unsigned char)(adler >> 24);
    b.out[b.pos++] = (unsigned char)(adler >> 16);
    b.out[b.pos++] = (unsigned char)(adler >> 8);
    b.out[b.pos++] = (unsigned char)adler;
    *out_len = (int)b.pos;
    return b.out;
}
