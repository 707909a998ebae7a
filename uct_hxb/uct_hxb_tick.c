/* The idle tick: a thread that looks in every HXB_TICK_MS on a process
 * that stops calling UCX for a while (it computes). The engine is
 * progressed only by the worker's calls, so without the tick
 *  - its peers, whose frames it does not acknowledge, would fail it after
 *    UCX_HXB_PEER_TIMEOUT although it lives (an MPI rank computing for
 *    longer than that while another sends to it);
 *  - frames it posted just before computing would wait in the rails'
 *    batches until its next call.
 * Each tick tries the iface lock; held means the worker is in UCX and
 * nothing needs doing. Otherwise hxb_engine_idle_tick acts if no progress
 * pass ran for a while (PROTOCOL.md 8.7). It receives nothing and calls
 * back nothing: what arrives waits in the kernel.
 *
 * Not a UCS async timer: UCX 1.13's async thread waits for its next timer
 * in whole milliseconds, rounded down, and polls without sleeping for the
 * last one; at a 5 ms period that thread used 18 % of a core. poll() here
 * sleeps its full timeout. */
#ifdef HAVE_CONFIG_H
#include "hxb_config.h"
#endif
#include "uct_hxb.h"
#include "hxb_clock.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define HXB_TICK_MS 5

static void *uct_hxb_tick_main(void *arg)
{
    uct_hxb_iface_t *iface = arg;
    struct pollfd pfd      = {.fd = iface->tick_fd, .events = POLLIN};

    for (;;) {
        int n = poll(&pfd, 1, HXB_TICK_MS);

        if (n > 0) {
            break;              /* stop */
        }
        if (n < 0 && errno != EINTR) {
            ucs_error("hxb: idle tick: poll: %m");
            break;
        }
        if (ucs_recursive_spin_trylock(&iface->lock)) {
            iface->entries++;   /* the caller's next event_arm makes a pass */
            hxb_engine_idle_tick(iface->engine);
            /* hxb-stat's counters stay fresh while the caller computes or
             * sleeps: the tick is the only thread then */
            if (iface->statfile) {
                double now = hxb_now();

                if (now >= iface->stat_next) {
                    uct_hxb_iface_stat_update(iface, now);
                }
            }
            ucs_recursive_spin_unlock(&iface->lock);
        }
    }
    return NULL;
}

ucs_status_t uct_hxb_tick_start(uct_hxb_iface_t *iface)
{
    sigset_t all, old;
    int ret;

    iface->tick_fd = eventfd(0, EFD_CLOEXEC);
    if (iface->tick_fd < 0) {
        ucs_error("hxb: idle tick: eventfd: %m");
        return UCS_ERR_IO_ERROR;
    }
    /* the application's signals go to its own threads, not to this one */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    ret = pthread_create(&iface->tick_thread, NULL, uct_hxb_tick_main, iface);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (ret != 0) {
        ucs_error("hxb: idle tick: pthread_create: %s", strerror(ret));
        close(iface->tick_fd);
        iface->tick_fd = -1;
        return UCS_ERR_IO_ERROR;
    }
    pthread_setname_np(iface->tick_thread, "hxb-tick");
    return UCS_OK;
}

void uct_hxb_tick_stop(uct_hxb_iface_t *iface)
{
    uint64_t one = 1;

    if (iface->tick_fd < 0) {
        return;
    }
    if (write(iface->tick_fd, &one, sizeof(one)) != sizeof(one)) {
        ucs_warn("hxb: idle tick: cannot stop it: %m");
    }
    pthread_join(iface->tick_thread, NULL);   /* a tick under way ends */
    close(iface->tick_fd);
    iface->tick_fd = -1;
}
