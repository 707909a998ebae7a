/* hxb-topo: check a topology file and print a node's view of it.
 *   hxb-topo FILE               check the file, print a summary
 *   hxb-topo FILE NODE          NODE's coordinates, rails and neighbours
 *   hxb-topo FILE NODE DEST     ... and its routes to DEST: one per
 *                               dimension order (hxb_route_rule.h) */
#include "hxb_route.h"
#include "hxb_topo.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

static const char dimname[] = "xyz";

int main(int argc, char **argv)
{
    char err[512], ip[INET_ADDRSTRLEN];
    hxb_topo_t t;
    int node, i, j;

    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: %s TOPOFILE [NODE [DEST]]\n", argv[0]);
        return 2;
    }
    if (hxb_topo_load(argv[1], &t, err, sizeof(err)) < 0) {
        fprintf(stderr, "hxb-topo: %s\n", err);
        return 1;
    }
    if (argc == 2) {
        printf("grid %dx%dx%d, %d rails per dimension, %d nodes, %d interfaces: ok\n",
               t.size[0], t.size[1], t.size[2], t.rails, t.num_nodes, t.num_ifaces);
        hxb_topo_free(&t);
        return 0;
    }
    node = hxb_topo_find_node(&t, argv[2]);
    if (node < 0) {
        fprintf(stderr, "hxb-topo: node '%s' is not in %s\n", argv[2], argv[1]);
        hxb_topo_free(&t);
        return 1;
    }
    printf("node %s id %d at (%d,%d,%d)\n", argv[2], node, t.nodes[node].coord[0],
           t.nodes[node].coord[1], t.nodes[node].coord[2]);
    for (i = 0; i < t.num_ifaces; i++) {
        const hxb_topo_iface_t *f = &t.ifaces[i];
        if (f->node != node) {
            continue;
        }
        inet_ntop(AF_INET, &f->ip, ip, sizeof(ip));
        printf("  rail %c%d %-8s %s/%d  neighbours:", dimname[f->dim], f->rail,
               f->ifname, ip, f->prefix);
        for (j = 0; j < t.num_nodes; j++) {
            if (hxb_route_on_line(&t, node, j, f->dim) &&
                hxb_topo_iface(&t, j, f->dim, f->rail)) {
                printf(" %s", t.nodes[j].name);
            }
        }
        printf("\n");
    }
    if (argc == 4) {
        int dst = hxb_topo_find_node(&t, argv[3]), d, n, k;
        int nodes[HXB_ROUTE_MAX_HOPS], dims[HXB_ROUTE_MAX_HOPS];
        if (dst < 0) {
            fprintf(stderr, "hxb-topo: node '%s' is not in %s\n", argv[3], argv[1]);
            hxb_topo_free(&t);
            return 1;
        }
        printf("routes to %s at (%d,%d,%d):\n", argv[3], t.nodes[dst].coord[0],
               t.nodes[dst].coord[1], t.nodes[dst].coord[2]);
        if (dst == node) {
            printf("  none: same node\n");
        }
        /* one path per first dimension; each rail of it is one striping lane */
        for (d = 0; d < HXB_DIMS; d++) {
            n = hxb_route_path(&t, node, dst, d, nodes, dims);
            if (n <= 0) {
                continue;
            }
            if (n == 1) {
                printf("  direct on %c:", dimname[d]);
            } else {
                printf("  order ");
                for (k = 0; k < n; k++) {
                    printf("%c", dimname[dims[k]] - 'a' + 'A');
                }
                printf(":");
            }
            printf(" %s", argv[2]);
            for (k = 0; k < n; k++) {
                printf(" -%c-> %s", dimname[dims[k]], t.nodes[nodes[k]].name);
            }
            printf("  (%d relay%s, first hop on rails", n - 1, n == 2 ? "" : "s");
            for (k = 0; k < t.num_ifaces; k++) {
                if (t.ifaces[k].node == node && t.ifaces[k].dim == d) {
                    printf(" %s", t.ifaces[k].ifname);
                }
            }
            printf(")\n");
        }
    }
    hxb_topo_free(&t);
    return 0;
}
