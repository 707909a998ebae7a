/* hxb-topo: check a topology file and print a node's view of it.
 *   hxb-topo FILE               check the file, print a summary
 *   hxb-topo FILE NODE          NODE's coordinates, rails and neighbours
 *   hxb-topo FILE NODE DEST     ... and its routes to DEST: one per
 *                               dimension order (hxb_route_rule.h)
 *   hxb-topo --locality [--cpus LIST] [IFACE...]
 *                               each NIC's distance to our cores, and the
 *                               order hxb gives equal-speed rails */
#include "hxb_locality.h"
#include "hxb_rail.h"
#include "hxb_route.h"
#include "hxb_topo.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

static const char dimname[] = "xyz";

static void usage(FILE *f, const char *prog)
{
    fprintf(f,
            "usage: %s TOPOFILE [NODE [DEST]]\n"
            "       %s --locality [--cpus LIST] [IFACE...]\n"
            "Check a topology file (doc/TOPOLOGY.md) and print a node's view of it:\n"
            "  TOPOFILE             check the file, print a summary\n"
            "  TOPOFILE NODE        NODE's coordinates, rails and neighbours\n"
            "  TOPOFILE NODE DEST   ... and its routes to DEST, one per dimension order\n"
            "  --locality           each interface's NIC (PCI bus id) and its distance to\n"
            "                       the CPUs (numa, package, unknown, other; hwloc), then\n"
            "                       the order hxb gives rails of equal speed: near first.\n"
            "                       IFACE default: every up Ethernet interface\n"
            "  --cpus LIST          CPUs to measure from (\"0-3,8\"; default: our binding)\n"
            "  -h, --help           this text\n"
            "HWLOC_XMLFILE=FILE reads the machine's topology from an hwloc XML file.\n",
            "hxb-topo", "hxb-topo");
}

/* --locality: how hxb_locality.c sees this host's NICs */
static int locality(int argc, char **argv)
{
    char names[HXB_MAX_RAILS][IF_NAMESIZE], str[HXB_MAX_RAILS * 48];
    hxb_loc_rail_t loc[HXB_MAX_RAILS];
    double speed[HXB_MAX_RAILS];
    const char *cpu_list = NULL, *cpus;
    int perm[HXB_MAX_RAILS], n = 0, i;
    hxb_rail_t rail;

    for (i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--cpus") && (i + 1 < argc)) {
            cpu_list = argv[++i];
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "hxb-topo: unknown option '%s'\n", argv[i]);
            usage(stderr, argv[0]);
            return 2;
        } else if (n == HXB_MAX_RAILS) {
            fprintf(stderr, "hxb-topo: at most %d interfaces\n", HXB_MAX_RAILS);
            return 2;
        } else {
            snprintf(names[n++], IF_NAMESIZE, "%s", argv[i]);
        }
    }
    if (n == 0) {
        n = hxb_rail_default_names(names, HXB_MAX_RAILS);
    }
    if (hxb_locality_classify((const char (*)[IF_NAMESIZE])names, n, loc, cpu_list,
                              &cpus) < 0) {
        fprintf(stderr, "hxb-topo: bad --cpus '%s' (a list such as 0-3,8)\n", cpu_list);
        return 2;
    }
    printf("cpus %s\n", cpus[0] ? cpus : "unknown");
    for (i = 0; i < n; i++) {
        /* the kernel's speed where it has one: only equal speeds reorder */
        memset(&rail, 0, sizeof(rail));
        snprintf(rail.ifname, sizeof(rail.ifname), "%s", names[i]);
        speed[i] = (hxb_rail_refresh(&rail) == 0) ? rail.speed : 0;
        printf("%-15s %-8s %s\n", loc[i].ifname, hxb_locality_class_name(loc[i].cls),
               loc[i].bdf[0] ? loc[i].bdf : "-");
    }
    hxb_locality_order(loc, speed, n, perm);
    hxb_locality_str(loc, perm, n, str, sizeof(str));
    printf("rail order: %s\n", str);
    return 0;
}

int main(int argc, char **argv)
{
    char err[512], ip[INET_ADDRSTRLEN];
    hxb_topo_t t;
    int node, i, j;

    if ((argc >= 2) && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        usage(stdout, argv[0]);
        return 0;
    }
    if ((argc >= 2) && !strcmp(argv[1], "--locality")) {
        return locality(argc, argv);
    }
    if ((argc >= 2) && (argv[1][0] == '-')) {
        fprintf(stderr, "hxb-topo: unknown option '%s'\n", argv[1]);
        usage(stderr, argv[0]);
        return 2;
    }
    if (argc < 2 || argc > 4) {
        usage(stderr, argv[0]);
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
