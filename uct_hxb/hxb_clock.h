/* The engine's clock, in seconds: monotonic, so timeouts survive clock
 * changes. Header-only: the engine reads it on every progress pass, and the
 * in-memory rails (below the engine) time their stalls with it too. */
#ifndef HXB_CLOCK_H
#define HXB_CLOCK_H

#include <time.h>

static inline double hxb_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

#endif
