/* The engine's clock, in seconds: monotonic, so timeouts survive clock
 * changes. Header-only: the engine reads it on every progress pass, and the
 * in-memory rails (below the engine) time their stalls with it too. */
#ifndef HXB_CLOCK_H
#define HXB_CLOCK_H

#include <time.h>

#ifdef HXB_VIRTUAL_CLOCK
/* test/fuzz: time is what the test says it is, so that timeouts, probes
 * and peer failure happen within one input, and replays are exact */
extern double hxb_virtual_now;
static inline double hxb_now(void) { return hxb_virtual_now; }
#else
static inline double hxb_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
#endif

/* CLOCK_REALTIME minus the engine's clock, now: the kernel stamps received
 * packets in real time (tpacket headers, SO_TIMESTAMPNS) */
static inline double hxb_clock_real_offset(void)
{
    struct timespec r, m;

    clock_gettime(CLOCK_REALTIME, &r);
    clock_gettime(CLOCK_MONOTONIC, &m);
    return (double)(r.tv_sec - m.tv_sec) + (r.tv_nsec - m.tv_nsec) * 1e-9;
}

#endif
