/* hxb-membw: the host's memory bandwidth right now, as one memcpy between
 * two 128 MiB buffers (far larger than any cache) sees it, in GB/s.
 *
 * The benchmarks print it before and after their runs. This host is a VM
 * whose last-level cache and memory are shared with other tenants: when
 * they are busy, every copy that misses the cache slows down, and with it
 * the kernel's copy of each sent frame (doc/RESULTS.md, "The slow mode").
 * A low figure here marks runs measured on a busy host.
 *
 * usage: hxb-membw [SECONDS]   (default 1; prints min, median and max of
 * the copies made in that time) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BUF_BYTES ((size_t)128 << 20)
#define MAX_COPIES 4096

static double now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 1.0, start, t0, t1;
    static double gbs[MAX_COPIES];
    char *a, *b;
    int n = 0;

    if (secs <= 0 || secs > 60) {
        fprintf(stderr, "usage: hxb-membw [SECONDS (0-60]]\n");
        return 2;
    }
    a = malloc(BUF_BYTES);
    b = malloc(BUF_BYTES);
    if (!a || !b) {
        fprintf(stderr, "hxb-membw: out of memory\n");
        return 1;
    }
    memset(a, 1, BUF_BYTES);    /* fault every page in before timing */
    memset(b, 2, BUF_BYTES);
    memcpy(b, a, BUF_BYTES);    /* the first copy is slower: not counted */
    start = now();
    do {
        t0 = now();
        memcpy(b, a, BUF_BYTES);
        t1 = now();
        a[n % BUF_BYTES]++;     /* the copies are not all the same */
        gbs[n++] = BUF_BYTES / (t1 - t0) / 1e9;
    } while (t1 - start < secs && n < MAX_COPIES);
    qsort(gbs, n, sizeof(gbs[0]), cmp_double);
    printf("memcpy %.1f GB/s (min %.1f, max %.1f, %d copies of %zu MiB)\n",
           gbs[n / 2], gbs[0], gbs[n - 1], n, BUF_BYTES >> 20);
    return b[BUF_BYTES / 2] == 0;   /* never: it reads b, so the copies stay */
}
