/*
 * wsfloor's side of the opening handshake: the Sec-WebSocket-Key found in the request head, and
 * the 101 answer with its Sec-WebSocket-Accept (SHA-1 and base64, both self-contained).
 */
#ifndef WSFLOOR_HANDSHAKE_H
#define WSFLOOR_HANDSHAKE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "wsfloor_sha1.h"

static void base64(const unsigned char *in, size_t n, char *out) {
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = in[i] << 16 | (i + 1 < n ? in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
        out[o++] = digits[v >> 18 & 63];
        out[o++] = digits[v >> 12 & 63];
        out[o++] = i + 1 < n ? digits[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? digits[v & 63] : '=';
    }
    out[o] = 0;
}

/* The Sec-WebSocket-Key's value in a NUL-terminated head (trimmed, at most 60 bytes), or 0. */
static size_t findKey(const char *head, char *key) {
    for (const char *line = strstr(head, "\r\n"); line; line = strstr(line + 2, "\r\n")) {
        const char *p = line + 2;
        if (strncasecmp(p, "Sec-WebSocket-Key:", 18) != 0) continue;
        p += 18;
        while (*p == ' ' || *p == '\t') p++;
        size_t n = 0;
        while (p[n] && p[n] != '\r' && p[n] != ' ' && p[n] != '\t' && n < 60) n++;
        memcpy(key, p, n);
        key[n] = 0;
        return n;
    }
    return 0;
}

/* The 101 answer to a NUL-terminated request head, written to response; its length, or -1 if the head is no GET with a key. */
static int switchingProtocols(const char *head, char *response, size_t cap) {
    char key[64 + 36];
    size_t keyLen = findKey(head, key);
    if (strncmp(head, "GET ", 4) != 0 || keyLen == 0) return -1;
    memcpy(key + keyLen, "258EAFA5-E914-47DA-95CA-C5AB0DC85B11", 36);
    unsigned char digest[20];
    sha1((const unsigned char *) key, keyLen + 36, digest);
    char accept[32];
    base64(digest, 20, accept);
    return snprintf(response, cap, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                    "Connection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n", accept);
}

#endif
