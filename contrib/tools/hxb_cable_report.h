/* hxb-cablecheck's view of one node's rails (a "report"): each rail the
 * topology names for the node, whether it exists, its link, MTU, speed and
 * MAC, and every HELLO (hxb-relayd's) or PROBE (hxb-cablecheck's) heard on
 * it. Gathered on the node (hxb_cable_listen.c), carried between nodes as
 * text (print/parse here), judged against the topology
 * (hxb_cable_judge.c). */
#ifndef HXB_CABLE_REPORT_H
#define HXB_CABLE_REPORT_H

#include "hxb_topo.h"

#include <stdint.h>
#include <stdio.h>

#define CABLE_MAX_IFS   48      /* rails of one node (3 dims x 16 rails) */
#define CABLE_MAX_HEARD 4096    /* distinct senders kept per rail: a line's
                                 * nodes, and a bound on forged ones */

/* one sender heard on a rail */
typedef struct cable_heard {
    int      src;           /* its node id, -1 if not in the topology */
    unsigned src_raw;       /* the node number it claimed */
    int      dim, rail;     /* the rail it says it sent on */
    uint8_t  mac[6];        /* the Ethernet source */
    int      bad_tag;       /* with a cluster key: the tag was wrong */
} cable_heard_t;

typedef struct cable_if {
    int      ti;            /* index into topo->ifaces */
    int      present, up;   /* interface exists; link up (carrier) */
    int      mtu;           /* -1 unknown */
    long     speed;         /* Mbit/s, -1 unknown (veths: 10000) */
    uint8_t  mac[6];
    int      nheard, cap;
    cable_heard_t *heard;   /* malloc'd: cable_report_free() */
} cable_if_t;

typedef struct cable_report {
    int      node;          /* node id */
    int      have;          /* a report was gathered or parsed */
    int      keyed;         /* frames were checked under the cluster key */
    char     err[256];      /* why not, if !have */
    int      nifs;
    cable_if_t ifs[CABLE_MAX_IFS];
} cable_report_t;

/* add a sender to a rail's list (up to CABLE_MAX_HEARD); -1 if full or
 * out of memory */
int  cable_heard_add(cable_if_t *c, const cable_heard_t *h);
/* free the lists of senders; r is then empty */
void cable_report_free(cable_report_t *r);

/* the text form: "hxb-cablecheck-report 1 ..." up to "end" */
void cable_report_print(const hxb_topo_t *t, const cable_report_t *r, FILE *f);
/* parse the first report in text[] (lines before it are skipped) for node
 * `node` into r (empty: zeroed or freed); 0, or -1 with r->err set */
int  cable_report_parse(const hxb_topo_t *t, int node, const char *text,
                        cable_report_t *r);

/* "x0", "y1": a rail's dimension and number */
const char *cable_rail_name(int dim, int rail, char *buf, size_t len);

#endif
