/* Routes on the hyper-crossbar (rule in hxb_route_rule.h): which neighbour
 * a rail leads to towards a destination, and the whole path for tools. */
#ifndef HXB_ROUTE_H
#define HXB_ROUTE_H

#include "hxb_route_rule.h"
#include "hxb_topo.h"

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

#endif
