/* NIC locality: how far each rail's NIC is from the cores the calling
 * thread is bound to (hwloc), and the rail order that puts near NICs first
 * among rails of equal speed (doc/DESIGN.md, "Rail locality"). UCX-free. */
#ifndef HXB_LOCALITY_H
#define HXB_LOCALITY_H

#ifdef HAVE_CONFIG_H
#include "hxb_config.h"
#endif

#include <net/if.h>

#ifdef HXB_HAVE_HWLOC
#include <hwloc.h>
#endif

/* nearest first: the order rails of equal speed take */
typedef enum hxb_loc_class {
    HXB_LOC_NUMA = 0,     /* the NIC hangs off the NUMA node we run on      */
    HXB_LOC_PACKAGE,      /* off our package, another NUMA node of it       */
    HXB_LOC_UNKNOWN,      /* no PCI parent (veth, bridge), not in hwloc,
                             or we are not bound inside one package         */
    HXB_LOC_OTHER,        /* off another package                            */
    HXB_LOC_NCLASSES
} hxb_loc_class_t;

typedef struct hxb_loc_rail {
    char            ifname[IF_NAMESIZE];
    hxb_loc_class_t cls;
    char            bdf[16];   /* the NIC's PCI bus id ("0000:3b:00.0"), "" if none */
} hxb_loc_rail_t;

const char *hxb_locality_class_name(hxb_loc_class_t cls);

/* Classify interfaces names[0..n-1] against this host's hwloc topology
 * (loaded once per process; HWLOC_XMLFILE is honoured) and the CPUs of
 * cpu_list ("0-3,8"), or if NULL the calling thread's binding. *cpus_p,
 * if given, gets those CPUs as a list ("" if unknown; thread-local
 * storage). Without hwloc every rail is HXB_LOC_UNKNOWN. Returns 0, -1
 * for a bad or empty cpu_list. */
int hxb_locality_classify(const char (*names)[IF_NAMESIZE], int n,
                          hxb_loc_rail_t *out, const char *cpu_list,
                          const char **cpus_p);

#ifdef HXB_HAVE_HWLOC
/* the same in a given topology (loaded with I/O objects) and cpuset */
void hxb_locality_classify_in(hwloc_topology_t topo, hwloc_const_cpuset_t cpus,
                              const char (*names)[IF_NAMESIZE], int n,
                              hxb_loc_rail_t *out);
#endif

/* perm[0..n-1]: the rails' new order (perm[k] = old index of the k-th).
 * Only rails of equal speed[] trade places, nearest class first, keeping
 * their order within a class: every position keeps its speed, so striping
 * and rail choice by speed see the same rails, only ties (the lowest index
 * wins: small messages, the first stripes) go to near NICs. Returns
 * whether the order changed. */
int hxb_locality_order(const hxb_loc_rail_t *loc, const double *speed, int n,
                       int *perm);

/* "eth1 numa 0000:3b:00.0, eth0 other 0000:86:00.0" into buf */
void hxb_locality_str(const hxb_loc_rail_t *loc, const int *perm, int n,
                      char *buf, size_t max);

#endif
