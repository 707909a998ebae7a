/* NIC locality (hxb_locality.h): each rail's NIC found among hwloc's
 * network OS devices, its distance class from the cores we are bound to,
 * and the order of equal-speed rails that follows from it. */
#include "hxb_locality.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

static const char *const loc_names[HXB_LOC_NCLASSES] = {
    [HXB_LOC_NUMA] = "numa", [HXB_LOC_PACKAGE] = "package",
    [HXB_LOC_UNKNOWN] = "unknown", [HXB_LOC_OTHER] = "other",
};

const char *hxb_locality_class_name(hxb_loc_class_t cls)
{
    return ((unsigned)cls < HXB_LOC_NCLASSES) ? loc_names[cls] : "?";
}

static void loc_unknown(const char (*names)[IF_NAMESIZE], int n, hxb_loc_rail_t *out)
{
    int i;

    for (i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof(out[i]));
        snprintf(out[i].ifname, sizeof(out[i].ifname), "%s", names[i]);
        out[i].cls = HXB_LOC_UNKNOWN;
    }
}

#ifdef HXB_HAVE_HWLOC
static hwloc_obj_t loc_osdev(hwloc_topology_t topo, const char *ifname)
{
    hwloc_obj_t o = NULL;

    while ((o = hwloc_get_next_osdev(topo, o)) != NULL) {
        if ((o->attr->osdev.type == HWLOC_OBJ_OSDEV_NETWORK) && o->name &&
            !strcmp(o->name, ifname)) {
            return o;
        }
    }
    return NULL;
}

/* the object of this type whose cpuset includes set, or NULL */
static hwloc_obj_t loc_including(hwloc_topology_t topo, hwloc_obj_type_t type,
                                 hwloc_const_cpuset_t set)
{
    hwloc_obj_t o = NULL;

    while ((o = hwloc_get_next_obj_by_type(topo, type, o)) != NULL) {
        if (o->cpuset && hwloc_bitmap_isincluded(set, o->cpuset)) {
            return o;
        }
    }
    return NULL;
}

static hxb_loc_class_t loc_class(hwloc_topology_t topo, hwloc_const_cpuset_t cpus,
                                 hwloc_obj_t osdev, char *bdf, size_t bdf_max)
{
    hwloc_obj_t pci, anc, numa, pkg;

    for (pci = osdev->parent; pci && (pci->type != HWLOC_OBJ_PCI_DEVICE);
         pci = pci->parent) {
    }
    if (pci == NULL) {
        return HXB_LOC_UNKNOWN;   /* not a PCI NIC: nowhere in particular */
    }
    snprintf(bdf, bdf_max, "%04x:%02x:%02x.%01x", pci->attr->pcidev.domain,
             pci->attr->pcidev.bus, pci->attr->pcidev.dev, pci->attr->pcidev.func);
    anc = hwloc_get_non_io_ancestor_obj(topo, osdev);
    if ((anc == NULL) || (anc->cpuset == NULL) || hwloc_bitmap_iszero(cpus)) {
        return HXB_LOC_UNKNOWN;
    }
    /* bound across packages (or not at all): no NIC is nearer than another */
    pkg = loc_including(topo, HWLOC_OBJ_PACKAGE, cpus);
    if ((pkg == NULL) && (hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE) > 1)) {
        return HXB_LOC_UNKNOWN;
    }
    numa = loc_including(topo, HWLOC_OBJ_NUMANODE, cpus);
    if (numa && hwloc_bitmap_isincluded(anc->cpuset, numa->cpuset)) {
        return HXB_LOC_NUMA;
    }
    if (pkg == NULL) {   /* one package or none: everything is on it */
        return HXB_LOC_PACKAGE;
    }
    if (hwloc_bitmap_isincluded(anc->cpuset, pkg->cpuset)) {
        return HXB_LOC_PACKAGE;
    }
    /* attached above our package (hwloc could not place it) */
    return hwloc_bitmap_intersects(anc->cpuset, pkg->cpuset) ? HXB_LOC_UNKNOWN :
                                                               HXB_LOC_OTHER;
}

void hxb_locality_classify_in(hwloc_topology_t topo, hwloc_const_cpuset_t cpus,
                              const char (*names)[IF_NAMESIZE], int n,
                              hxb_loc_rail_t *out)
{
    hwloc_obj_t osdev;
    int i;

    loc_unknown(names, n, out);
    for (i = 0; i < n; i++) {
        osdev = loc_osdev(topo, names[i]);
        if (osdev != NULL) {
            out[i].cls = loc_class(topo, cpus, osdev, out[i].bdf, sizeof(out[i].bdf));
        }
    }
}

/* this host's topology with its NICs, loaded once per process */
static pthread_once_t loc_once = PTHREAD_ONCE_INIT;
static hwloc_topology_t loc_topo;

static void loc_load(void)
{
    hwloc_topology_t t;

    if (hwloc_topology_init(&t) < 0) {
        return;
    }
    if ((hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT) < 0) ||
        (hwloc_topology_load(t) < 0)) {
        hwloc_topology_destroy(t);
        return;
    }
    loc_topo = t;
}

int hxb_locality_classify(const char (*names)[IF_NAMESIZE], int n,
                          hxb_loc_rail_t *out, const char *cpu_list,
                          const char **cpus_p)
{
    static __thread char cpus_str[256];
    hwloc_bitmap_t cpus;
    cpu_set_t mask;
    int c;

    cpus_str[0] = '\0';
    if (cpus_p) {
        *cpus_p = cpus_str;
    }
    loc_unknown(names, n, out);
    cpus = hwloc_bitmap_alloc();
    if (cpus == NULL) {
        return 0;
    }
    if (cpu_list) {
        if ((hwloc_bitmap_list_sscanf(cpus, cpu_list) < 0) || hwloc_bitmap_iszero(cpus)) {
            hwloc_bitmap_free(cpus);
            return -1;
        }
    } else if (sched_getaffinity(0, sizeof(mask), &mask) == 0) {
        /* the binding from the kernel, not hwloc_get_cpubind: that refuses
         * a topology read from HWLOC_XMLFILE; CPU numbers are os indexes */
        for (c = 0; c < CPU_SETSIZE; c++) {
            if (CPU_ISSET(c, &mask)) {
                hwloc_bitmap_set(cpus, c);
            }
        }
    }
    pthread_once(&loc_once, loc_load);
    if (loc_topo == NULL) {
        hwloc_bitmap_free(cpus);
        return 0;
    }
    hwloc_bitmap_list_snprintf(cpus_str, sizeof(cpus_str), cpus);
    hxb_locality_classify_in(loc_topo, cpus, names, n, out);
    hwloc_bitmap_free(cpus);
    return 0;
}

#else /* !HXB_HAVE_HWLOC */

int hxb_locality_classify(const char (*names)[IF_NAMESIZE], int n,
                          hxb_loc_rail_t *out, const char *cpu_list,
                          const char **cpus_p)
{
    if (cpus_p) {
        *cpus_p = "";
    }
    loc_unknown(names, n, out);
    return 0;
}

#endif

int hxb_locality_order(const hxb_loc_rail_t *loc, const double *speed, int n,
                       int *perm)
{
    int done[n > 0 ? n : 1], pos[n > 0 ? n : 1];
    int i, j, k, m, cls, changed = 0;

    for (i = 0; i < n; i++) {
        perm[i] = i;
        done[i] = 0;
    }
    /* each group of equal speed keeps its positions, refilled by class */
    for (i = 0; i < n; i++) {
        if (done[i]) {
            continue;
        }
        for (m = 0, j = i; j < n; j++) {
            if (!done[j] && (speed[j] == speed[i])) {
                pos[m++] = j;
                done[j]  = 1;
            }
        }
        for (k = 0, cls = 0; cls < HXB_LOC_NCLASSES; cls++) {
            for (j = 0; j < m; j++) {
                if (loc[pos[j]].cls == (hxb_loc_class_t)cls) {
                    changed |= perm[pos[k]] != pos[j];
                    perm[pos[k++]] = pos[j];
                }
            }
        }
    }
    return changed;
}

void hxb_locality_str(const hxb_loc_rail_t *loc, const int *perm, int n,
                      char *buf, size_t max)
{
    size_t len = 0;
    int i, r;

    if (max == 0) {
        return;
    }
    buf[0] = '\0';
    for (i = 0; (i < n) && (len < max); i++) {
        r    = perm ? perm[i] : i;
        len += snprintf(buf + len, max - len, "%s%s %s%s%s", i ? ", " : "",
                        loc[r].ifname, hxb_locality_class_name(loc[r].cls),
                        loc[r].bdf[0] ? " " : "", loc[r].bdf);
    }
}
