/*
 * wsfloor: the floor of the echo benchmark. A minimal WebSocket echo server in C on epoll that
 * pays the kernel and nothing else: per readable event one recv into one shared buffer, the
 * client's frames unmasked in place with their headers rewritten for the server's role, and one
 * send. No allocation per message, no message assembly: a frame is echoed as its bytes arrive, so
 * a 16 MiB message costs no more memory than a 64 B one. A frame header cut by the end of a read
 * is carried (at most 13 bytes) to the next one, so pipelined and split frames both work.
 *
 *   wsfloor PORT    -> prints "listening on ws://127.0.0.1:PORT/" once it listens
 *
 * It answers pings with pongs, drops pongs, echoes a close frame and then closes. It checks only
 * what keeps itself sound (masked frames, a 63-bit length, a bounded request head): it is a
 * measuring stick on loopback, not a server for hostile clients. No UTF-8 check on text, no
 * extensions. Under back-pressure (a short send) the rest is kept per connection and the
 * connection is not read again until it has gone out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wsfloor_handshake.h"

#define READ_BUFFER (512 * 1024)      /* as uSockets' receive buffer */
#define HEAD_LIMIT 8192               /* the request head, handshake only */

typedef struct {
    int fd;
    int closing;                      /* a close frame came: close once all of it has gone out */
    char *head;                       /* the request head while upgrading, else NULL */
    size_t head_len;
    unsigned char carry[14];          /* a frame header cut by the end of the last read */
    size_t carried;
    uint64_t remaining;               /* payload bytes of the current frame still to come */
    unsigned char mask[4];
    unsigned mask_at;                 /* position in the mask of the next payload byte */
    int discard;                      /* the current frame is a pong: not echoed */
    unsigned char *pending;           /* output the socket did not take, kept across events */
    size_t pending_len, pending_cap, pending_at;
} conn_t;

static unsigned char buffer[14 + READ_BUFFER];
static int ep;

/* The whole close frame has been echoed: nothing more is read. */
static int closed(const conn_t *c) {
    return c->closing && c->remaining == 0;
}

static void closeConn(conn_t *c) {
    close(c->fd);
    free(c->head);
    free(c->pending);
    free(c);
}

static void watch(conn_t *c, uint32_t events) {
    struct epoll_event ev = {.events = events, .data.ptr = c};
    epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
}

/* Sends what the socket takes; keeps the rest and waits for EPOLLOUT. Returns -1 if the connection is gone. */
static int output(conn_t *c, const unsigned char *p, size_t n) {
    if (c->pending_len == 0) {
        while (n > 0) {
            ssize_t w = send(c->fd, p, n, MSG_NOSIGNAL);
            if (w < 0) {
                if (errno == EINTR) continue;
                if (errno == EAGAIN) break;
                return -1;
            }
            p += w;
            n -= w;
        }
        if (n == 0) return 0;
    }
    if (c->pending_len + n > c->pending_cap) {
        size_t cap = c->pending_len + n;
        unsigned char *grown = realloc(c->pending, cap);
        if (!grown) return -1;
        c->pending = grown;
        c->pending_cap = cap;
    }
    memcpy(c->pending + c->pending_len, p, n);
    c->pending_len += n;
    watch(c, EPOLLOUT);
    return 0;
}

/* Sends kept output; once all is out, reads again (or closes after an echoed close). */
static int flush(conn_t *c) {
    while (c->pending_at < c->pending_len) {
        ssize_t w = send(c->fd, c->pending + c->pending_at, c->pending_len - c->pending_at, MSG_NOSIGNAL);
        if (w < 0) return errno == EAGAIN || errno == EINTR ? 0 : -1;
        c->pending_at += w;
    }
    c->pending_at = c->pending_len = 0;
    if (closed(c)) return -1;
    watch(c, EPOLLIN);
    return 0;
}

/* dst[i] = src[i] ^ mask, from mask position `at`; dst <= src, so moving forward is safe. */
static void unmask(unsigned char *dst, const unsigned char *src, size_t n, const unsigned char mask[4], unsigned at) {
    unsigned char m[8];
    for (int i = 0; i < 8; i++) m[i] = mask[(at + i) & 3];
    uint64_t word;
    memcpy(&word, m, 8);
    size_t i = 0;
    if (dst == src) {             /* the common case: in place, which the compiler vectorises */
        for (; i + 8 <= n; i += 8) {
            uint64_t v;
            memcpy(&v, dst + i, 8);
            v ^= word;
            memcpy(dst + i, &v, 8);
        }
    } else {
        for (; i + 8 <= n; i += 8) {
            uint64_t v;
            memcpy(&v, src + i, 8);
            v ^= word;
            memcpy(dst + i, &v, 8);
        }
    }
    for (; i < n; i++) dst[i] = src[i] ^ m[i & 7];
}

/*
 * Turns the client's frames in buf[0..len) into the server's, in the same buffer: each header
 * loses its mask key (and a ping becomes a pong), each payload is unmasked. The first frame's
 * header is written just before its payload, so a read holding one frame is unmasked where it
 * lies and nothing moves; later frames move down by 4 bytes each as they are unmasked. Sets
 * *out to where the output starts; returns its length, or -1 on a protocol error.
 */
static ssize_t reframe(conn_t *c, unsigned char *buf, size_t len, unsigned char **out) {
    size_t r = 0, w = 0;
    int started = 0;
    while (r < len && !closed(c)) {
        if (c->remaining == 0) {                        /* a frame header */
            size_t avail = len - r;
            if (avail < 2) goto carry;
            unsigned char b0 = buf[r], b1 = buf[r + 1];
            if (!(b1 & 0x80)) return -1;                 /* a client's frame must be masked */
            unsigned l7 = b1 & 0x7F;
            size_t extra = l7 == 126 ? 2 : l7 == 127 ? 8 : 0, header = 2 + extra + 4;
            if (avail < header) goto carry;
            uint64_t plen = l7;
            if (extra) {
                plen = 0;
                for (size_t i = 0; i < extra; i++) plen = plen << 8 | buf[r + 2 + i];
                if (plen >> 63) return -1;
            }
            unsigned opcode = b0 & 0x0F;
            memcpy(c->mask, buf + r + header - 4, 4);
            c->mask_at = 0;
            c->remaining = plen;
            c->discard = opcode == 0xA;
            if (opcode == 0x8) c->closing = 1;
            if (opcode == 0x9) b0 = (b0 & 0xF0) | 0xA;
            if (!c->discard) {
                if (!started) {
                    w = r + 4;                           /* the header just before the payload */
                    *out = buf + w;
                    started = 1;
                }
                unsigned char lengthBytes[8];
                memcpy(lengthBytes, buf + r + 2, extra);
                buf[w] = b0;
                buf[w + 1] = b1 & 0x7F;
                memcpy(buf + w + 2, lengthBytes, extra);
                w += 2 + extra;
            }
            r += header;
            c->carried = 0;
        }
        size_t take = c->remaining < len - r ? (size_t) c->remaining : len - r;
        if (!c->discard) {
            if (!started) {
                w = r;
                *out = buf + w;
                started = 1;
            }
            unmask(buf + w, buf + r, take, c->mask, c->mask_at);
            w += take;
        }
        r += take;
        c->remaining -= take;
        c->mask_at = (c->mask_at + take) & 3;
    }
    return started ? (ssize_t) (buf + w - *out) : 0;
carry:
    c->carried = len - r;
    memcpy(c->carry, buf + r, c->carried);
    return started ? (ssize_t) (buf + w - *out) : 0;
}

/* One readable event on an open connection: one recv, the frames reframed, one send. */
static int echo(conn_t *c) {
    size_t carried = c->carried;
    memcpy(buffer, c->carry, carried);
    ssize_t n = recv(c->fd, buffer + carried, READ_BUFFER, 0);
    if (n == 0) return -1;
    if (n < 0) return errno == EAGAIN || errno == EINTR ? 0 : -1;
    c->carried = 0;
    unsigned char *out = NULL;
    ssize_t len = reframe(c, buffer, carried + n, &out);
    if (len < 0) return -1;
    if (len > 0 && output(c, out, len) < 0) return -1;
    return closed(c) && c->pending_len == 0 ? -1 : 0;
}

/* Reads the request head; on its end answers 101 and echoes any frames that came after it. */
static int upgrade(conn_t *c) {
    ssize_t n = recv(c->fd, c->head + c->head_len, HEAD_LIMIT - 1 - c->head_len, 0);
    if (n == 0) return -1;
    if (n < 0) return errno == EAGAIN || errno == EINTR ? 0 : -1;
    c->head_len += n;
    c->head[c->head_len] = 0;
    char *end = strstr(c->head, "\r\n\r\n");
    if (!end) return c->head_len < HEAD_LIMIT - 1 ? 0 : -1;
    char response[160];
    int len = switchingProtocols(c->head, response, sizeof response);
    if (len < 0) {
        static const char refused[] = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
        send(c->fd, refused, sizeof refused - 1, MSG_NOSIGNAL);
        return -1;
    }
    if (output(c, (unsigned char *) response, len) < 0) return -1;
    size_t after = c->head + c->head_len - (end + 4);
    memcpy(buffer, end + 4, after);
    free(c->head);
    c->head = NULL;
    if (after == 0) return 0;
    unsigned char *out = NULL;
    ssize_t framed = reframe(c, buffer, after, &out);
    if (framed < 0 || (framed > 0 && output(c, out, framed) < 0)) return -1;
    return closed(c) && c->pending_len == 0 ? -1 : 0;
}

static void acceptAll(int listener) {
    for (;;) {
        int fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) return;                             /* EAGAIN, or out of descriptors: try at the next event */
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        conn_t *c = calloc(1, sizeof *c);
        char *head = malloc(HEAD_LIMIT);
        if (!c || !head) {
            free(c);
            free(head);
            close(fd);
            continue;
        }
        c->fd = fd;
        c->head = head;
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
        if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) closeConn(c);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: wsfloor PORT\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) == 0) {         /* room for the bench's idle connections */
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1]))};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    if (listener < 0 || bind(listener, (struct sockaddr *) &a, sizeof a) < 0 || listen(listener, 4096) < 0) {
        perror("wsfloor: listen");
        return 1;
    }
    ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event lev = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(ep, EPOLL_CTL_ADD, listener, &lev);
    printf("listening on ws://127.0.0.1:%s/\n", argv[1]);
    fflush(stdout);
    struct epoll_event events[512];
    for (;;) {
        int n = epoll_wait(ep, events, 512, -1);
        if (n < 0 && errno != EINTR) {
            perror("wsfloor: epoll_wait");
            return 1;
        }
        for (int e = 0; e < n; e++) {
            conn_t *c = events[e].data.ptr;
            if (!c) {
                acceptAll(listener);
                continue;
            }
            uint32_t ev = events[e].events;
            int gone;
            if (c->pending_len > 0) {
                gone = ev & (EPOLLOUT | EPOLLERR | EPOLLHUP) ? flush(c) : 0;
            } else if (ev & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
                gone = c->head ? upgrade(c) : echo(c);
            } else {
                gone = 0;
            }
            if (gone < 0) closeConn(c);
        }
    }
}
