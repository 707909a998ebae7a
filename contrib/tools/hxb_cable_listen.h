/* Gathering a node's report (hxb_cable_report.h) on the node itself: each
 * rail's link, MTU, speed and MAC from the kernel, and what arrives on it
 * while it listens for `wait_ms`: hxb-relayd's HELLOs and, unless passive,
 * the PROBEs it sends itself every 100 ms on each rail that is up (so that
 * it works where no hxb-relayd runs, when every node runs it at once).
 * Needs CAP_NET_RAW. */
#ifndef HXB_CABLE_LISTEN_H
#define HXB_CABLE_LISTEN_H

#include "hxb_cable_report.h"

/* key: the cluster key (NULL: frames are neither tagged nor checked).
 * 0, or -1 with r->err set. */
int cable_listen(const hxb_topo_t *t, int node, const uint64_t *key, int wait_ms,
                 int passive, cable_report_t *r);

#endif
