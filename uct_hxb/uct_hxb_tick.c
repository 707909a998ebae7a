/* The idle tick: a timer in UCX's async thread for a process that stops
 * calling UCX for a while (it computes). The engine is progressed only by
 * the worker's calls, so without the tick
 *  - its peers, whose frames it does not acknowledge, would fail it after
 *    UCX_HXB_PEER_TIMEOUT although it lives (an MPI rank computing for
 *    longer than that while another sends to it);
 *  - frames it posted just before computing would wait in the rails'
 *    batches until its next call.
 * Every HXB_TICK_MS the tick tries the iface lock; held means the worker
 * is in UCX and nothing needs doing. Otherwise hxb_engine_idle_tick acts
 * if no progress pass ran for a while (PROTOCOL.md 8.7). It receives
 * nothing and calls back nothing: what arrives waits in the kernel. */
#ifdef HAVE_CONFIG_H
#include "hxb_config.h"
#endif
#include "uct_hxb.h"

#include <ucs/async/async.h>

#define HXB_TICK_MS 5

static void uct_hxb_tick(int id, ucs_event_set_types_t events, void *arg)
{
    uct_hxb_iface_t *iface = arg;

    if (!ucs_recursive_spin_trylock(&iface->lock)) {
        return;
    }
    hxb_engine_idle_tick(iface->engine);
    ucs_recursive_spin_unlock(&iface->lock);
}

ucs_status_t uct_hxb_tick_start(uct_hxb_iface_t *iface)
{
    ucs_status_t status;

    /* no async context of the worker's: its mode may be POLL (the BTL's),
     * which runs timers only when the worker polls, and a context held by
     * the worker would queue the tick for the worker to run ("missed") */
    status = ucs_async_add_timer(UCS_ASYNC_MODE_THREAD_SPINLOCK,
                                 ucs_time_from_msec(HXB_TICK_MS), uct_hxb_tick,
                                 iface, NULL, &iface->tick_id);
    if (status != UCS_OK) {
        ucs_error("hxb: cannot start the idle timer: %s",
                  ucs_status_string(status));
        iface->tick_id = -1;
    }
    return status;
}

void uct_hxb_tick_stop(uct_hxb_iface_t *iface)
{
    if (iface->tick_id >= 0) {
        ucs_async_remove_handler(iface->tick_id, 1);
        iface->tick_id = -1;
    }
}
