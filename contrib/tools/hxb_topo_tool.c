/* hxb-topo: check a topology file and print a node's view of it.
 *   hxb-topo FILE            check the file, print a summary
 *   hxb-topo FILE NODE       NODE's coordinates, rails and neighbours */
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

    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s TOPOFILE [NODE]\n", argv[0]);
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
            int d, same = 1;
            for (d = 0; d < HXB_DIMS; d++) {
                if (d != f->dim && t.nodes[j].coord[d] != t.nodes[node].coord[d]) {
                    same = 0;
                }
            }
            if (same && j != node && hxb_topo_iface(&t, j, f->dim, f->rail)) {
                printf(" %s", t.nodes[j].name);
            }
        }
        printf("\n");
    }
    hxb_topo_free(&t);
    return 0;
}
