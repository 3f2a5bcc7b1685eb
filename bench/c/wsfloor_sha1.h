/*
 * SHA-1 (FIPS 180-4), only for wsfloor's Sec-WebSocket-Accept: self-contained, so the floor needs
 * no crypto library on the machine. Not for anything secret.
 */
#ifndef WSFLOOR_SHA1_H
#define WSFLOOR_SHA1_H

#include <stdint.h>
#include <string.h>

static uint32_t sha1_rotl(uint32_t x, int n) {
    return x << n | x >> (32 - n);
}

static void sha1_block(uint32_t h[5], const unsigned char *p) {
    uint32_t w[80];
    for (int i = 0; i < 16; i++) w[i] = (uint32_t) p[4 * i] << 24 | p[4 * i + 1] << 16 | p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 80; i++) w[i] = sha1_rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) { f = (b & c) | (~b & d); k = 0x5A827999; }
        else if (i < 40) { f = b ^ c ^ d; k = 0x6ED9EBA1; }
        else if (i < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDC; }
        else { f = b ^ c ^ d; k = 0xCA62C1D6; }
        uint32_t t = sha1_rotl(a, 5) + f + e + k + w[i];
        e = d; d = c; c = sha1_rotl(b, 30); b = a; a = t;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
}

/* The 20-byte digest of in[0..n). */
static void sha1(const unsigned char *in, size_t n, unsigned char out[20]) {
    uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    size_t full = n - n % 64;
    for (size_t i = 0; i < full; i += 64) sha1_block(h, in + i);
    unsigned char tail[128] = {0};
    size_t rest = n - full;
    memcpy(tail, in + full, rest);
    tail[rest] = 0x80;
    size_t tailLen = rest + 9 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t) n * 8;
    for (int i = 0; i < 8; i++) tail[tailLen - 1 - i] = (unsigned char) (bits >> (8 * i));
    sha1_block(h, tail);
    if (tailLen == 128) sha1_block(h, tail + 64);
    for (int i = 0; i < 20; i++) out[i] = (unsigned char) (h[i / 4] >> (24 - 8 * (i % 4)));
}

#endif
