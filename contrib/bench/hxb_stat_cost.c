/* What hxb-stat's counters cost the process that publishes them
 * (uct_hxb/hxb_statfile.c): microseconds per rewrite of the file for an
 * engine with 1, 64 and 1024 peers, and the share of a core that takes at
 * the default period (UCX_HXB_STAT_PERIOD=100ms) and at 1 ms. The least of
 * 9 rounds: a busy host slows some rounds, none speeds one up. The file
 * goes to $TMPDIR (default /tmp), and is removed.
 *   hxb-stat-cost */
#include "hxb_statfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
    static const int npeers[] = {1, 64, 1024};
    hxb_statfile_id_t id = {.proc = 1, .mode = "udp", .period = 0.1};
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    hxb_callbacks_t cb = {0};
    hxb_engine_cfg_t cfg;
    unsigned i, k, r, n = 2000;
    char err[300];

    printf("# hxb-stat-cost: one rewrite of the counters file, least of 9 rounds of %u\n", n);
    printf("%6s %12s %16s %14s\n", "peers", "us/update", "core at 100ms", "core at 1ms");
    for (i = 0; i < sizeof(npeers) / sizeof(npeers[0]); i++) {
        hxb_statfile_t *sf;
        hxb_engine_t *e;
        double best = 1e9, t;

        hxb_engine_cfg_default(&cfg);
        if (hxb_engine_create(&cfg, &cb, &e) < 0) {
            fprintf(stderr, "hxb-stat-cost: engine\n");
            return 1;
        }
        for (k = 0; k < (unsigned)npeers[i]; k++) {
            if (!hxb_peer_get(e, k / 64, k % 64, 1, NULL, 0)) {
                fprintf(stderr, "hxb-stat-cost: peer %u\n", k);
                return 1;
            }
        }
        if (hxb_statfile_open(&sf, dir, &id, err, sizeof(err)) < 0) {
            fprintf(stderr, "hxb-stat-cost: %s\n", err);
            return 1;
        }
        for (r = 0; r < 9; r++) {
            t = now();
            for (k = 0; k < n; k++) {
                hxb_statfile_update(sf, e, 0, NULL, 0);
            }
            t = (now() - t) / n;
            best = t < best ? t : best;
        }
        printf("%6d %12.2f %15.4f%% %13.3f%%\n", npeers[i], best * 1e6, best * 10 * 100,
               best * 1000 * 100);
        hxb_statfile_close(sf);
        hxb_engine_destroy(e);
    }
    return 0;
}
