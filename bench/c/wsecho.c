/*
 * wsecho: a closed-loop WebSocket echo load client in C (epoll), so that a fast server is not
 * limited by its load client. Each connection keeps exactly one binary message in flight; the
 * frame is masked once in advance; every echo is compared byte for byte with what was sent.
 *
 *   wsecho HOST PORT CONNECTIONS SIZE WARMUP_SECONDS MEASURE_SECONDS [SERVER_PID]
 *
 * Prints one line: messages=N seconds=S mismatches=M cpu_user=U cpu_sys=Y
 * (the CPU seconds this process used during the measured window), and with SERVER_PID also
 * server_cpu=C: the server's utime + stime (all its threads, /proc/PID/stat) over exactly that
 * window, so its CPU per message does not depend on whether this client kept up. Exit 1 on any error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    int fd;
    size_t sent;      /* bytes of the frame written so far */
    size_t got;       /* bytes of the echo read so far */
    unsigned char *echo;
    int waiting;      /* registered for EPOLLOUT */
} conn_t;

static unsigned char *frame, *expected;
static size_t frame_len, expected_len;

static void die(const char *what);

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static double cpu(int user) {
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    struct timeval tv = user ? r.ru_utime : r.ru_stime;
    return tv.tv_sec + tv.tv_usec / 1e6;
}

/* utime + stime of a whole process (fields 14 and 15 of /proc/PID/stat), in seconds; -1 if unreadable. */
static double process_cpu(long pid) {
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');     /* the command name may hold spaces and parentheses */
    if (!p) return -1;
    unsigned long utime = 0, stime = 0;
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2) return -1;
    return (double) (utime + stime) / sysconf(_SC_CLK_TCK);
}

static void die(const char *what) {
    fprintf(stderr, "wsecho: %s: %s\n", what, strerror(errno));
    exit(1);
}

/* Writes what the socket takes of the frame; asks for EPOLLOUT while some is left. */
static void send_more(int ep, conn_t *k, int index) {
    while (k->sent < frame_len) {
        ssize_t w = write(k->fd, frame + k->sent, frame_len - k->sent);
        if (w < 0) {
            if (errno != EAGAIN) die("write");
            struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT, .data.u32 = index};
            epoll_ctl(ep, EPOLL_CTL_MOD, k->fd, &ev);
            k->waiting = 1;
            return;
        }
        k->sent += w;
    }
    if (k->waiting) {
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = index};
        epoll_ctl(ep, EPOLL_CTL_MOD, k->fd, &ev);
        k->waiting = 0;
    }
}

static size_t header(unsigned char *out, uint64_t len, int masked) {
    size_t n = 2;
    out[0] = 0x82;
    if (len <= 125) {
        out[1] = (unsigned char) len;
    } else if (len <= 0xFFFF) {
        out[1] = 126;
        out[2] = len >> 8; out[3] = len & 0xFF;
        n = 4;
    } else {
        out[1] = 127;
        for (int i = 0; i < 8; i++) out[2 + i] = (len >> (56 - 8 * i)) & 0xFF;
        n = 10;
    }
    if (masked) out[1] |= 0x80;
    return n;
}

static int connect_upgrade(const char *host, int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) die("socket");
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    inet_pton(AF_INET, host, &a.sin_addr);
    if (connect(fd, (struct sockaddr *) &a, sizeof a) < 0) die("connect");
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    char req[512];
    int n = snprintf(req, sizeof req, "GET / HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", host, port);
    if (write(fd, req, n) != n) die("write request");
    char head[4096];
    size_t have = 0;
    while (have < sizeof head - 1) {            /* byte by byte: nothing after the head is consumed */
        ssize_t r = read(fd, head + have, 1);
        if (r <= 0) die("read response");
        have += r;
        head[have] = 0;
        if (have >= 4 && memcmp(head + have - 4, "\r\n\r\n", 4) == 0) break;
    }
    if (strncmp(head, "HTTP/1.1 101", 12) != 0) {
        fprintf(stderr, "wsecho: upgrade refused: %.40s\n", head);
        exit(1);
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    return fd;
}

int main(int argc, char **argv) {
    if (argc != 7 && argc != 8) {
        fprintf(stderr, "usage: wsecho HOST PORT CONNECTIONS SIZE WARMUP_SECONDS MEASURE_SECONDS [SERVER_PID]\n");
        return 2;
    }
    const char *host = argv[1];
    int port = atoi(argv[2]), conns = atoi(argv[3]);
    size_t size = strtoul(argv[4], NULL, 10);
    double warmup = atof(argv[5]), measure = atof(argv[6]);
    long server_pid = argc == 8 ? atol(argv[7]) : 0;

    unsigned char key[4] = {0x37, 0xfa, 0x21, 0x3d};
    unsigned char *payload = malloc(size + 1);
    srand(size);
    for (size_t i = 0; i < size; i++) payload[i] = rand() & 0xFF;
    frame = malloc(size + 14);
    size_t h = header(frame, size, 1);
    memcpy(frame + h, key, 4);
    for (size_t i = 0; i < size; i++) frame[h + 4 + i] = payload[i] ^ key[i & 3];
    frame_len = h + 4 + size;
    expected = malloc(size + 10);
    size_t eh = header(expected, size, 0);
    memcpy(expected + eh, payload, size);
    expected_len = eh + size;

    int ep = epoll_create1(0);
    conn_t *c = calloc(conns, sizeof *c);
    for (int i = 0; i < conns; i++) {
        c[i].fd = connect_upgrade(host, port);
        c[i].echo = malloc(expected_len);
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = i};
        if (epoll_ctl(ep, EPOLL_CTL_ADD, c[i].fd, &ev) < 0) die("epoll_ctl");
    }
    long messages = 0, mismatches = 0;
    double start = now(), measure_from = start + warmup, until = measure_from + measure;
    double user0 = 0, sys0 = 0, server0 = 0;
    int measuring = 0;
    for (int i = 0; i < conns; i++) send_more(ep, &c[i], i);
    struct epoll_event events[256];
    for (;;) {
        double t = now();
        if (!measuring && t >= measure_from) {
            measuring = 1;
            messages = mismatches = 0;
            user0 = cpu(1);
            sys0 = cpu(0);
            if (server_pid > 0) server0 = process_cpu(server_pid);
        }
        if (t >= until) break;
        int n = epoll_wait(ep, events, 256, 50);
        for (int e = 0; e < n; e++) {
            int i = events[e].data.u32;
            conn_t *k = &c[i];
            if (events[e].events & EPOLLOUT) send_more(ep, k, i);
            if (events[e].events & EPOLLIN) {
                ssize_t r = read(k->fd, k->echo + k->got, expected_len - k->got);
                if (r == 0) { fprintf(stderr, "wsecho: server closed a connection\n"); return 1; }
                if (r < 0) { if (errno == EAGAIN) continue; die("read"); }
                k->got += r;
                if (k->got == expected_len && k->sent == frame_len) {
                    if (memcmp(k->echo, expected, expected_len) != 0) mismatches++;
                    messages++;
                    k->sent = 0;
                    k->got = 0;
                    send_more(ep, k, i);
                }
            }
        }
    }
    double seconds = now() - measure_from;
    double server1 = server_pid > 0 ? process_cpu(server_pid) : -1;
    printf("messages=%ld seconds=%.3f mismatches=%ld cpu_user=%.3f cpu_sys=%.3f",
           messages, seconds, mismatches, cpu(1) - user0, cpu(0) - sys0);
    if (server_pid > 0) {
        if (server0 < 0 || server1 < 0) { fprintf(stderr, "wsecho: cannot read /proc/%ld/stat\n", server_pid); return 1; }
        printf(" server_cpu=%.3f", server1 - server0);
    }
    printf("\n");
    return mismatches == 0 ? 0 : 1;
}
