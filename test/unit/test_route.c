/* Unit tests of the relay rule, routes and which rails reach a peer
 * (uct_hxb/hxb_route.[ch]). */
#include "hxb_route.h"
#include "hxb_wire.h"

#include <arpa/inet.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>

/* a grid with every node defined; only what routes read */
static void grid(hxb_topo_t *t, int x, int y, int z)
{
    int i;

    memset(t, 0, sizeof(*t));
    t->size[0] = x;
    t->size[1] = y;
    t->size[2] = z;
    t->num_nodes = x * y * z;
    t->rails = 2;
    t->nodes = calloc(t->num_nodes, sizeof(*t->nodes));
    for (i = 0; i < t->num_nodes; i++) {
        t->nodes[i].coord[0] = i % x;
        t->nodes[i].coord[1] = (i / x) % y;
        t->nodes[i].coord[2] = i / (x * y);
        t->nodes[i].defined = 1;
    }
}

static int popcount(unsigned m) { return __builtin_popcount(m); }

/* every path on 3x3x2: as many hops as differing dimensions, one dimension
 * fixed per hop for good, first hop on the dimension asked for, ends at dst */
START_TEST(test_all_paths)
{
    int nodes[HXB_ROUTE_MAX_HOPS], dims[HXB_ROUTE_MAX_HOPS], s, d, f, n, i;
    hxb_topo_t t;

    grid(&t, 3, 3, 2);
    for (s = 0; s < t.num_nodes; s++) {
        for (d = 0; d < t.num_nodes; d++) {
            unsigned diff = hxb_route_diff(&t, s, d);
            for (f = 0; f < HXB_DIMS; f++) {
                n = hxb_route_path(&t, s, d, f, nodes, dims);
                if (s == d) {
                    ck_assert_int_eq(n, 0);
                    continue;
                }
                if (!(diff & (1u << f))) {
                    ck_assert_int_eq(n, -1);   /* that rail does not lead there */
                    continue;
                }
                ck_assert_int_eq(n, popcount(diff));
                ck_assert_int_eq(dims[0], f);
                ck_assert_int_eq(nodes[n - 1], d);
                for (i = 0; i < n; i++) {
                    int prev = i ? nodes[i - 1] : s;
                    ck_assert_uint_eq(hxb_route_diff(&t, prev, nodes[i]), 1u << dims[i]);
                    ck_assert(hxb_route_diff(&t, nodes[i], d) ==
                              (hxb_route_diff(&t, prev, d) & ~(1u << dims[i])));
                }
            }
        }
    }
    hxb_topo_free(&t);
}
END_TEST

/* the three rotations between opposite corners share no relay */
START_TEST(test_disjoint_rotations)
{
    int nodes[3][HXB_ROUTE_MAX_HOPS], dims[HXB_ROUTE_MAX_HOPS], f, g, i, j;
    hxb_topo_t t;

    grid(&t, 2, 2, 2);
    for (f = 0; f < 3; f++) {
        ck_assert_int_eq(hxb_route_path(&t, 0, 7, f, nodes[f], dims), 3);
    }
    for (f = 0; f < 3; f++) {
        for (g = f + 1; g < 3; g++) {
            for (i = 0; i < 2; i++) {
                for (j = 0; j < 2; j++) {
                    ck_assert_int_ne(nodes[f][i], nodes[g][j]);
                }
            }
        }
    }
    /* XYZ: n1 (1,0,0), n3 (1,1,0), n7 */
    ck_assert_int_eq(nodes[0][0], 1);
    ck_assert_int_eq(nodes[0][1], 3);
    hxb_topo_free(&t);
}
END_TEST

/* the relay rule continues the order from the arrival dimension */
START_TEST(test_next_dim)
{
    int a[3] = {1, 0, 0}, b[3] = {1, 1, 1}, c[3] = {0, 1, 1};

    ck_assert_int_eq(hxb_route_next_dim(a, b, 0), 1);  /* XYZ: then Y   */
    ck_assert_int_eq(hxb_route_next_dim(a, b, 2), 1);  /* skips equal X */
    ck_assert_int_eq(hxb_route_next_dim(c, b, 1), 0);  /* from Y: Z equal, X */
    ck_assert_int_eq(hxb_route_next_dim(b, b, 1), -1); /* arrived */
}
END_TEST

/* 2x2x1 grid, rails x0 and y0 on every node: iface of node n on dim d has
 * MAC 02:00:00:00:n:d and IP 10.d.0.n+1 */
static void grid_ifaces(hxb_topo_t *t)
{
    int n, d, k = 0;

    grid(t, 2, 2, 1);
    t->rails = 1;
    t->num_ifaces = t->num_nodes * 2;
    t->ifaces = calloc(t->num_ifaces, sizeof(*t->ifaces));
    for (n = 0; n < t->num_nodes; n++) {
        for (d = 0; d < 2; d++, k++) {
            t->ifaces[k].node = n;
            t->ifaces[k].dim  = d;
            t->ifaces[k].rail = 0;
            t->ifaces[k].mac[0] = 2;
            t->ifaces[k].mac[4] = n;
            t->ifaces[k].mac[5] = d;
            t->ifaces[k].ip = htonl(0x0a000001 + (d << 16) + n);
            t->ifaces[k].prefix = 24;
        }
    }
}

START_TEST(test_on_line)
{
    hxb_topo_t t;

    grid(&t, 2, 2, 2);
    ck_assert(hxb_route_on_line(&t, 0, 1, 0));     /* (0,0,0) - (1,0,0) */
    ck_assert(!hxb_route_on_line(&t, 0, 1, 1));
    ck_assert(hxb_route_on_line(&t, 0, 4, 2));     /* (0,0,1) */
    ck_assert(!hxb_route_on_line(&t, 0, 3, 0));    /* (1,1,0): two dims */
    ck_assert(!hxb_route_on_line(&t, 0, 0, 0));
    hxb_topo_free(&t);
}
END_TEST

/* with a topology: direct on the peer's line, through the neighbour on the
 * other dimension's line with relaying (MAC only), nothing to ourselves */
START_TEST(test_peer_rails_topo)
{
    hxb_rail_t rx = {.dim = 0, .railno = 0}, ry = {.dim = 1, .railno = 0};
    hxb_rail_t *rails[2] = {&rx, &ry};
    hxb_raddr_t addrs[2];
    uint16_t port = htons(4242);
    hxb_topo_t t;

    grid_ifaces(&t);
    /* node 0 (0,0) to node 1 (1,0): the x rail, at node 1's x iface */
    memset(addrs, 0, sizeof(addrs));
    ck_assert_uint_eq(hxb_route_peer_rails(&t, 0, 1, 1, rails, 2, NULL, 0, port,
                                           addrs), 0x1);
    ck_assert_int_eq(addrs[0].mac[4], 1);
    ck_assert_int_eq(addrs[0].mac[5], 0);
    ck_assert_uint_eq(addrs[0].ip, t.ifaces[2].ip);
    ck_assert_uint_eq(addrs[0].port, port);
    /* node 0 to node 3 (1,1): no line shared; without relaying nothing */
    ck_assert_uint_eq(hxb_route_peer_rails(&t, 0, 0, 3, rails, 2, NULL, 0, port,
                                           addrs), 0);
    /* with relaying both rails: x to node 1, y to node 2, at their MAC and
     * address and the relay port (raw and UDP rails are relayed alike) */
    memset(addrs, 0, sizeof(addrs));
    ck_assert_uint_eq(hxb_route_peer_rails(&t, 0, 1, 3, rails, 2, NULL, 0, port,
                                           addrs), 0x3);
    ck_assert_int_eq(addrs[0].mac[4], 1);
    ck_assert_int_eq(addrs[0].mac[5], 0);
    ck_assert_int_eq(addrs[1].mac[4], 2);
    ck_assert_int_eq(addrs[1].mac[5], 1);
    ck_assert_uint_eq(addrs[0].ip, t.ifaces[2].ip);
    ck_assert_uint_eq(addrs[1].ip, t.ifaces[5].ip);
    ck_assert_uint_eq(addrs[0].port, htons(HXB_RELAY_PORT));
    ck_assert_uint_eq(addrs[1].port, htons(HXB_RELAY_PORT));
    /* ourselves and nodes outside the grid: nothing */
    ck_assert_uint_eq(hxb_route_peer_rails(&t, 0, 1, 0, rails, 2, NULL, 0, port,
                                           addrs), 0);
    ck_assert_uint_eq(hxb_route_peer_rails(&t, 0, 1, 4, rails, 2, NULL, 0, port,
                                           addrs), 0);
    /* a rail number the neighbour lacks leads nowhere */
    ry.railno = 1;
    ck_assert_uint_eq(hxb_route_peer_rails(&t, 0, 1, 3, rails, 2, NULL, 0, port,
                                           addrs), 0x1);
    hxb_topo_free(&t);
}
END_TEST

/* without a topology: the peer's address in each rail's IPv4 subnet */
START_TEST(test_peer_rails_subnet)
{
    hxb_rail_t ra = {.ip = htonl(0x0a000001), .prefix = 24};   /* 10.0.0.1/24 */
    hxb_rail_t rb = {.ip = htonl(0x0a010001), .prefix = 24};   /* 10.1.0.1/24 */
    hxb_rail_t rc = {.ip = 0, .prefix = 0};                    /* no address  */
    hxb_rail_t *rails[3] = {&ra, &rb, &rc};
    hxb_raddr_t peer[2] = {{.mac = {2, 0, 0, 0, 0, 9}, .ip = htonl(0x0a010002)},
                           {.mac = {2, 0, 0, 0, 0, 8}, .ip = htonl(0x0a020002)}};
    hxb_raddr_t addrs[3];

    memset(addrs, 0, sizeof(addrs));
    ck_assert_uint_eq(hxb_route_peer_rails(NULL, -1, 1, 7, rails, 3, peer, 2,
                                           htons(99), addrs), 0x2);
    ck_assert_uint_eq(addrs[1].ip, peer[0].ip);
    ck_assert_int_eq(addrs[1].mac[5], 9);
    ck_assert_uint_eq(addrs[1].port, htons(99));
    /* the peer's second address is in rail a's subnet once it is /8 */
    ra.prefix = 8;
    ck_assert_uint_eq(hxb_route_peer_rails(NULL, -1, 1, 7, rails, 3, peer, 2,
                                           htons(99), addrs), 0x3);
    ck_assert_uint_eq(addrs[0].ip, peer[0].ip);   /* the first that fits */
    ck_assert_uint_eq(hxb_route_peer_rails(NULL, -1, 1, 7, rails, 3, peer, 0,
                                           htons(99), addrs), 0);
}
END_TEST

/* a rail placed on the y line of the grid routes there; a placed speed
 * replaces the kernel's, none keeps it */
START_TEST(test_place)
{
    hxb_rail_t r = {.speed = 1.25e9};
    hxb_rail_t *rails[1] = {&r};
    hxb_raddr_t addrs[1];
    hxb_topo_t t;

    grid_ifaces(&t);
    hxb_rail_place(&r, 1, 0, 0);
    ck_assert_int_eq(r.dim, 1);
    ck_assert_int_eq(r.railno, 0);
    ck_assert(r.speed == 1.25e9);
    ck_assert_uint_eq(hxb_route_peer_rails(&t, 0, 0, 2, rails, 1, NULL, 0, 0,
                                           addrs), 0x1);   /* (0,1) */
    ck_assert_uint_eq(hxb_route_peer_rails(&t, 0, 0, 1, rails, 1, NULL, 0, 0,
                                           addrs), 0);
    hxb_rail_place(&r, 0, 0, 125e6);
    ck_assert(r.speed == 125e6);
    hxb_topo_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("route");
    TCase *tc = tcase_create("route");
    SRunner *r;
    int failed;

    tcase_add_test(tc, test_all_paths);
    tcase_add_test(tc, test_disjoint_rotations);
    tcase_add_test(tc, test_next_dim);
    tcase_add_test(tc, test_on_line);
    tcase_add_test(tc, test_peer_rails_topo);
    tcase_add_test(tc, test_peer_rails_subnet);
    tcase_add_test(tc, test_place);
    suite_add_tcase(s, tc);
    r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
