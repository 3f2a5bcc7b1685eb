/* WebSocket masking in C, in the styles of the masking article's LibraryLink kernels, built with
 * gcc -O2 as CreateLibrary would. Usage: mask OUTDIR SIZE...
 * For each size: times each kernel into a preallocated output buffer, prints
 * "RESULT <impl> <size> <median ns>", and writes the output to OUTDIR/<impl>-<size>.bin so the
 * runner can check it against the Java reference. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The key length arrives at run time, as maskLen does in the article (not a constant 4). */
static volatile size_t key_length_source = 4;

/* mask6: one byte at a time with i % keyLen. */
__attribute__((noinline)) static void mask6_style(const uint8_t *in, uint8_t *out, size_t n, const uint8_t *key, size_t keyLen) {
    for (size_t i = 0; i < n; i++) {
        out[i] = in[i] ^ key[i % keyLen];
    }
}

/* mask7: whole key-length blocks in a nested loop, then the tail. */
__attribute__((noinline)) static void mask7_style(const uint8_t *in, uint8_t *out, size_t n, const uint8_t *key, size_t keyLen) {
    size_t whole = n - n % keyLen;
    for (size_t i = 0; i < whole; i += keyLen) {
        for (size_t j = 0; j < keyLen; j++) {
            out[i + j] = in[i + j] ^ key[j];
        }
    }
    for (size_t i = whole; i < n; i++) {
        out[i] = in[i] ^ key[i % keyLen];
    }
}

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t) t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int compare(const void *a, const void *b) {
    int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
    return (x > y) - (x < y);
}

typedef void (*kernel)(const uint8_t *, uint8_t *, size_t, const uint8_t *, size_t);

static void run(const char *name, kernel k, const char *outdir, size_t n) {
    static const uint8_t key[4] = {0x37, 0xfa, 0x21, 0x3d};
    size_t keyLen = key_length_source;
    uint8_t *in = malloc(n), *out = malloc(n);
    for (size_t i = 0; i < n; i++) {
        in[i] = (uint8_t) (i * 131 + 7);
    }
    size_t reps = (32u << 20) / n;
    if (reps < 5) reps = 5;
    if (reps > 2000) reps = 2000;
    for (size_t r = 0; r < reps / 5 + 1; r++) {
        k(in, out, n, key, keyLen);
    }
    int64_t *times = malloc(reps * sizeof(int64_t));
    for (size_t r = 0; r < reps; r++) {
        int64_t t = now_ns();
        k(in, out, n, key, keyLen);
        times[r] = now_ns() - t;
    }
    qsort(times, reps, sizeof(int64_t), compare);
    printf("RESULT %s %zu %lld\n", name, n, (long long) times[reps / 2]);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%zu.bin", outdir, name, n);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(out, 1, n, f);
        fclose(f);
    }
    free(times);
    free(in);
    free(out);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s OUTDIR SIZE...\n", argv[0]);
        return 2;
    }
    for (int a = 2; a < argc; a++) {
        size_t n = (size_t) strtoull(argv[a], NULL, 10);
        run("c-mask6-style", mask6_style, argv[1], n);
        run("c-mask7-style", mask7_style, argv[1], n);
    }
    return 0;
}
