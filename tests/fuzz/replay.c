/* Runs a libFuzzer target over files without libFuzzer (any compiler):
 * every file named on the command line, or inside a directory named there.
 * CTest replays the seed corpus and every regression input this way, so a
 * crash once found stays fixed in the ordinary and sanitizer builds. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#if defined(__SANITIZE_ADDRESS__)
#define RBD_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RBD_ASAN 1
#endif
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 1; }
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) { unsigned char *b = realloc(buf, cap *= 2); if (!b) { free(buf); buf = NULL; } else buf = b; }
    }
    fclose(f);
    if (!buf) { fprintf(stderr, "%s: out of memory\n", path); return 1; }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    int files = 0, bad = 0;
#ifndef RBD_ASAN
    /* libFuzzer's -rss_limit_mb in a plain build: an input that makes a
     * parser allocate gigabytes fails here (ASan's shadow memory would not
     * fit under such a limit, so sanitizer builds go without) */
    struct rlimit lim = { 1ul << 30, 1ul << 30 };
    setrlimit(RLIMIT_DATA, &lim);
#endif
    for (int k = 1; k < argc; k++) {
        struct stat st;
        if (stat(argv[k], &st) != 0) { perror(argv[k]); return 1; }
        if (!S_ISDIR(st.st_mode)) { bad |= run_file(argv[k]); files++; continue; }
        DIR *d = opendir(argv[k]);
        if (!d) { perror(argv[k]); return 1; }
        char **names = NULL;
        int n = 0;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            char **p = realloc(names, sizeof *p * (size_t)(n + 1));
            if (!p) break;
            names = p;
            size_t len = strlen(argv[k]) + strlen(e->d_name) + 2;
            if (!(names[n] = malloc(len))) break;
            snprintf(names[n++], len, "%s/%s", argv[k], e->d_name);
        }
        closedir(d);
        qsort(names, (size_t)n, sizeof *names, cmp);
        for (int j = 0; j < n; j++) { bad |= run_file(names[j]); files++; free(names[j]); }
        free(names);
    }
    printf("%d inputs replayed\n", files);
    return bad || files == 0;
}
