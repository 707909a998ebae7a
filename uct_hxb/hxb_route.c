/* Dimension-order routes over the topology (see hxb_route_rule.h), and
 * which rails reach a peer. */
#include "hxb_route.h"
#include "hxb_wire.h"

#include <arpa/inet.h>
#include <string.h>

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

int hxb_route_on_line(const hxb_topo_t *t, int a, int b, int dim)
{
    return hxb_route_diff(t, a, b) == (1u << dim);
}

static uint32_t prefix_mask(unsigned prefix)
{
    return prefix ? htonl(~0u << (32 - prefix)) : 0;
}

/* the first hop towards dst on a rail of the topology t, or -1 */
static int route_topo_rail(const hxb_topo_t *t, int me, int relay, int dst,
                           const hxb_rail_t *r, hxb_raddr_t *addr)
{
    const hxb_topo_iface_t *ti;
    unsigned diff = hxb_route_diff(t, me, dst);
    int hop;

    if ((diff != (1u << r->dim)) && (!relay || !(diff & (1u << r->dim)))) {
        return -1;
    }
    hop = hxb_route_next_hop(t, me, dst, r->dim);
    ti  = (hop >= 0) ? hxb_topo_iface(t, hop, r->dim, r->railno) : NULL;
    if (ti == NULL) {
        return -1;
    }
    memcpy(addr->mac, ti->mac, 6);
    addr->ip = ti->ip;
    addr->port = (hop == dst) ? 0 : htons(HXB_RELAY_PORT);
    return hop;
}

/* the peer's address in the subnet of rail r, or -1 */
static int route_subnet_rail(const hxb_rail_t *r, const hxb_raddr_t *peer,
                             int npeer, hxb_raddr_t *addr)
{
    int j;

    for (j = 0; j < npeer; j++) {
        if (r->ip && ((r->ip & prefix_mask(r->prefix)) ==
                      (peer[j].ip & prefix_mask(r->prefix)))) {
            memcpy(addr->mac, peer[j].mac, 6);
            addr->ip = peer[j].ip;
            return j;
        }
    }
    return -1;
}

uint32_t hxb_route_peer_rails(const hxb_topo_t *t, int me, int relay, int dst,
                              hxb_rail_t *const *rails, int nrails,
                              const hxb_raddr_t *peer, int npeer, uint16_t port,
                              hxb_raddr_t *addrs)
{
    uint32_t mask = 0;
    int i, found;

    if (t && ((dst < 0) || (dst >= t->num_nodes) || (dst == me))) {
        return 0;
    }
    for (i = 0; i < nrails; i++) {
        memset(&addrs[i], 0, sizeof(addrs[i]));
        found = t ? route_topo_rail(t, me, relay, dst, rails[i], &addrs[i]) :
                    route_subnet_rail(rails[i], peer, npeer, &addrs[i]);
        if (found < 0) {
            continue;
        }
        if (!addrs[i].port) {
            addrs[i].port = port;     /* the peer itself, not a relay */
        }
        mask |= 1u << i;
    }
    return mask;
}
