/* Dimension-order routes over the topology (see hxb_route_rule.h). */
#include "hxb_route.h"

static void coords(const hxb_topo_t *t, int node, int c[HXB_DIMS])
{
    int d;

    for (d = 0; d < HXB_DIMS; d++) {
        c[d] = t->nodes[node].coord[d];
    }
}

unsigned hxb_route_diff(const hxb_topo_t *t, int a, int b)
{
    unsigned m = 0;
    int d;

    for (d = 0; d < HXB_DIMS; d++) {
        if (t->nodes[a].coord[d] != t->nodes[b].coord[d]) {
            m |= 1u << d;
        }
    }
    return m;
}

int hxb_route_next_hop(const hxb_topo_t *t, int here, int dst, int dim)
{
    int c[HXB_DIMS];

    if (here < 0 || dst < 0 || here >= t->num_nodes || dst >= t->num_nodes ||
        dim < 0 || dim >= HXB_DIMS ||
        t->nodes[here].coord[dim] == t->nodes[dst].coord[dim]) {
        return -1;
    }
    coords(t, here, c);
    c[dim] = t->nodes[dst].coord[dim];
    return hxb_topo_node_id(t, c);
}

int hxb_route_path(const hxb_topo_t *t, int src, int dst, int first_dim,
                   int nodes[HXB_ROUTE_MAX_HOPS], int dims[HXB_ROUTE_MAX_HOPS])
{
    int here = src, n = 0, d = first_dim, hc[HXB_DIMS], dc[HXB_DIMS];

    if (src == dst) {
        return 0;
    }
    if (hxb_route_next_hop(t, src, dst, first_dim) < 0) {
        return -1;
    }
    coords(t, dst, dc);
    while (d >= 0 && n < HXB_ROUTE_MAX_HOPS) {
        here = hxb_route_next_hop(t, here, dst, d);
        dims[n] = d;
        nodes[n++] = here;
        coords(t, here, hc);
        d = hxb_route_next_dim(hc, dc, d);
    }
    return here == dst ? n : -1;
}
