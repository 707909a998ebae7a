/* Hyper-crossbar topology: grid size, node coordinates and which interface
 * is which (dimension, rail). Read from the file the testbed (or an
 * administrator) writes; format in doc/TOPOLOGY.md. */
#ifndef HXB_TOPO_H
#define HXB_TOPO_H

#include <stddef.h>
#include <stdint.h>

#define HXB_DIMS      3
#define HXB_MAX_NODES 4096

typedef struct hxb_topo_iface {
    uint16_t node;          /* node id                                 */
    uint8_t  dim;           /* 0 = x, 1 = y, 2 = z                     */
    uint8_t  rail;          /* rail number within the dimension        */
    char     ifname[16];
    uint8_t  mac[6];
    uint32_t ip;            /* IPv4, network order (0 if none)         */
    uint8_t  prefix;
} hxb_topo_iface_t;

typedef struct hxb_topo_node {
    char     name[64];
    uint16_t coord[HXB_DIMS];
    int      defined;
} hxb_topo_node_t;

typedef struct hxb_topo {
    int               size[HXB_DIMS];  /* grid X, Y, Z                */
    int               rails;           /* rails per dimension          */
    int               num_nodes;       /* X*Y*Z                        */
    hxb_topo_node_t  *nodes;           /* indexed by node id           */
    hxb_topo_iface_t *ifaces;
    int               num_ifaces;
} hxb_topo_t;

/* Parse `path`. On error returns -1 and writes "file:line: problem" to err. */
int  hxb_topo_load(const char *path, hxb_topo_t *topo, char *err, size_t errlen);
void hxb_topo_free(hxb_topo_t *topo);

/* node id from coordinates (x fastest), -1 if outside the grid */
int  hxb_topo_node_id(const hxb_topo_t *topo, const int coord[HXB_DIMS]);
int  hxb_topo_find_node(const hxb_topo_t *topo, const char *name);
/* interface of node on (dim, rail), or NULL */
const hxb_topo_iface_t *hxb_topo_iface(const hxb_topo_t *topo, int node,
                                       int dim, int rail);
const hxb_topo_iface_t *hxb_topo_iface_by_name(const hxb_topo_t *topo,
                                               int node, const char *ifname);

#endif
