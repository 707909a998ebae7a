/* What a frame's tag costs (PROTOCOL.md 8.13): nanoseconds per
 * hxb_frame_tag for an 8-byte AM, a full PUT frame at MTU 1500 and at
 * MTU 9000, in each UCX_HXB_AUTH mode, and the checksum of the same frames
 * beside it (what UCX_HXB_CHECKSUM costs). The least of 9 rounds of 200k
 * calls: a busy host slows some rounds, none speeds one up. Under
 * valgrind --tool=callgrind (HXB_AUTH_COST_N=1000: calls per round) the
 * instructions per call are the figure that does not depend on the host
 * (HXB_AUTH_COST_ONLY=10*row+column runs one cell).
 *   hxb-auth-cost */
#include "hxb_wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
    static uint8_t payload[9000];
    static const struct { const char *name; unsigned kind; size_t ext, pl; } f[] = {
        {"AM 8 B", HXB_K_AM, sizeof(hxb_am_ext_t), 8},
        {"PUT, MTU 1500", HXB_K_PUT, sizeof(hxb_put_ext_t), 1408},
        {"PUT, MTU 9000", HXB_K_PUT, sizeof(hxb_put_ext_t), 8896},
    };
    hxb_auth_t auth = {.key = {1, 2}, .job_key = 3};
    volatile uint64_t sink = 0;
    unsigned i, m, r, k, n = 200000;
    uint8_t ext[64] = {0};
    hxb_hdr_t h;

    if (getenv("HXB_AUTH_COST_N")) {
        n = (unsigned)atoi(getenv("HXB_AUTH_COST_N"));
    }

    memset(&h, 0, sizeof(h));
    printf("%-14s | %9s %9s %9s | %9s  (ns per frame)\n", "frame", "off", "header", "full",
           "checksum");
    for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
        struct iovec iov[2] = {{ext, f[i].ext}, {payload, f[i].pl}};
        double best[4];

        h.kind = (uint8_t)f[i].kind;
        h.len = (uint16_t)(f[i].ext + f[i].pl);
        for (m = 0; m < 4; m++) {
            best[m] = 1e9;
            if (getenv("HXB_AUTH_COST_ONLY") &&   /* "I M": one cell */
                (unsigned)atoi(getenv("HXB_AUTH_COST_ONLY")) != 10 * i + m) {
                continue;
            }
            auth.mode = (int)m;
            for (r = 0; r < 9; r++) {
                double t0 = now();
                for (k = 0; k < n; k++) {
                    h.seq = k;
                    sink += m < 3 ? hxb_frame_tag(&auth, &h, iov, 2)
                                  : hxb_frame_csum(&h, iov, 2);
                }
                t0 = (now() - t0) / n * 1e9;
                best[m] = t0 < best[m] ? t0 : best[m];
            }
        }
        printf("%-14s | %9.1f %9.1f %9.1f | %9.1f\n", f[i].name, best[0], best[1], best[2],
               best[3]);
    }
    return sink == 42;
}
