/* Routes on the hyper-crossbar (rule in hxb_route_rule.h): which neighbour
 * a rail leads to towards a destination, the whole path for tools, and
 * which of a process's rails reach a peer. */
#ifndef HXB_ROUTE_H
#define HXB_ROUTE_H

#include "hxb_rail.h"
#include "hxb_route_rule.h"
#include "hxb_topo.h"

#include <stdint.h>

#define HXB_ROUTE_MAX_HOPS HXB_DIMS

/* The neighbour on our line of dimension `dim` towards `dst` (our
 * coordinates with that one replaced by dst's), or -1 if we already agree
 * with dst in `dim` (a rail of that dimension does not lead towards it). */
int hxb_route_next_hop(const hxb_topo_t *t, int here, int dst, int dim);

/* The path from src to dst that starts on dimension first_dim: fills
 * nodes[0..n-1] (nodes[n-1] == dst) and dims[] (the dimension of each hop)
 * and returns n, 0 if src == dst, or -1 if first_dim does not lead to dst. */
int hxb_route_path(const hxb_topo_t *t, int src, int dst, int first_dim,
                   int nodes[HXB_ROUTE_MAX_HOPS], int dims[HXB_ROUTE_MAX_HOPS]);

/* The dimensions in which a and b differ, as a bit mask (bit d = dim d). */
unsigned hxb_route_diff(const hxb_topo_t *t, int a, int b);

/* a and b are on one line of dimension dim: they differ in it alone */
int hxb_route_on_line(const hxb_topo_t *t, int a, int b, int dim);

/* Which of our rails reach the peer on node dst, and its address on each:
 * for each rails[i] that does, fills addrs[i] (port: the peer's, network
 * order) and sets bit i of the mask returned.
 * With a topology t, in which we are node me: a rail reaches dst directly
 * when dst is on the rail's line, at dst's interface of the same dimension
 * and rail number; with relay set, so does every rail of a dimension in
 * which dst differs, addressed to the neighbour on that line towards dst
 * (the first relay of the path that starts with that dimension): its MAC,
 * its address and the relay port, HXB_RELAY_PORT (a relay forwards raw
 * frames and UDP datagrams sent there alike). Each such rail is then one
 * path, so striping over rails is striping over paths.
 * dst == me and dst outside t reach nothing.
 * Without a topology (t NULL): the rail in whose IPv4 subnet one of the
 * peer's rail addresses peer[0..npeer-1] (as it advertised them) lies, at
 * that address; me and relay are not used. */
uint32_t hxb_route_peer_rails(const hxb_topo_t *t, int me, int relay, int dst,
                              hxb_rail_t *const *rails, int nrails,
                              const hxb_raddr_t *peer, int npeer, uint16_t port,
                              hxb_raddr_t *addrs);

#endif
