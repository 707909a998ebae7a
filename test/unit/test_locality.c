/* Unit tests of NIC locality (uct_hxb/hxb_locality.[ch]) on an hwloc
 * topology read from XML (test/unit/data/locality-2pkg.xml): two packages
 * of one NUMA node and two cores each (PUs 0-1 and 2-3); eth1's PCI device
 * hangs off package 0, eth0's off package 1. Nothing is bound: the tests
 * pass the cpuset a process would be bound to. */
#include "hxb_locality.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

typedef char ifname_t[IF_NAMESIZE];

static void check_perm(const int *perm, int n, const int *want)
{
    int i;

    for (i = 0; i < n; i++) {
        ck_assert_int_eq(perm[i], want[i]);
    }
}

#ifdef HXB_HAVE_HWLOC
static hwloc_topology_t topo;

static void topo_setup(void)
{
    ck_assert_int_eq(hwloc_topology_init(&topo), 0);
    ck_assert_int_eq(hwloc_topology_set_xml(topo, HXB_SRCDIR
                                            "/test/unit/data/locality-2pkg.xml"), 0);
    ck_assert_int_eq(hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_ALL), 0);
    ck_assert_int_eq(hwloc_topology_load(topo), 0);
}

static void topo_teardown(void)
{
    hwloc_topology_destroy(topo);
}

/* classify names[] for the cpu list cpus, then order them at equal speeds */
static int classify(const char *cpus, const ifname_t *names, int n,
                    hxb_loc_rail_t *loc, int *perm)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    double speed[8] = {0};

    ck_assert_int_eq(hwloc_bitmap_list_sscanf(set, cpus), 0);
    hxb_locality_classify_in(topo, set, names, n, loc);
    hwloc_bitmap_free(set);
    return hxb_locality_order(loc, speed, n, perm);
}

START_TEST(test_near_first)
{
    const ifname_t names[] = {"eth0", "eth1"};
    hxb_loc_rail_t loc[2];
    int perm[2];
    char str[128];

    /* on package 0: eth1 is near, eth0 far, so eth1 goes first */
    ck_assert_int_eq(classify("0-1", names, 2, loc, perm), 1);
    ck_assert_int_eq(loc[0].cls, HXB_LOC_OTHER);
    ck_assert_str_eq(loc[0].bdf, "0000:86:00.0");
    ck_assert_int_eq(loc[1].cls, HXB_LOC_NUMA);
    ck_assert_str_eq(loc[1].bdf, "0000:3b:00.0");
    check_perm(perm, 2, (int[]){1, 0});
    hxb_locality_str(loc, perm, 2, str, sizeof(str));
    ck_assert_str_eq(str, "eth1 numa 0000:3b:00.0, eth0 other 0000:86:00.0");

    /* one core of package 1: the configured order is already near first */
    ck_assert_int_eq(classify("3", names, 2, loc, perm), 0);
    ck_assert_int_eq(loc[0].cls, HXB_LOC_NUMA);
    ck_assert_int_eq(loc[1].cls, HXB_LOC_OTHER);
    check_perm(perm, 2, (int[]){0, 1});
}
END_TEST

START_TEST(test_unbound)
{
    const ifname_t names[] = {"eth0", "eth1"};
    hxb_loc_rail_t loc[2];
    int perm[2];

    /* bound across both packages: neither NIC is nearer, nothing moves */
    ck_assert_int_eq(classify("0-3", names, 2, loc, perm), 0);
    ck_assert_int_eq(loc[0].cls, HXB_LOC_UNKNOWN);
    ck_assert_int_eq(loc[1].cls, HXB_LOC_UNKNOWN);
    check_perm(perm, 2, (int[]){0, 1});
    ck_assert_int_eq(classify("1-2", names, 2, loc, perm), 0);
    check_perm(perm, 2, (int[]){0, 1});
}
END_TEST

START_TEST(test_veth_unchanged)
{
    const ifname_t names[] = {"veth1", "veth0", "x0"};
    hxb_loc_rail_t loc[3];
    int perm[3], i;

    /* interfaces with no PCI parent (not in hwloc at all): unknown */
    ck_assert_int_eq(classify("0-1", names, 3, loc, perm), 0);
    for (i = 0; i < 3; i++) {
        ck_assert_int_eq(loc[i].cls, HXB_LOC_UNKNOWN);
        ck_assert_str_eq(loc[i].bdf, "");
        ck_assert_str_eq(loc[i].ifname, names[i]);
    }
    check_perm(perm, 3, (int[]){0, 1, 2});
}
END_TEST

START_TEST(test_mixed)
{
    const ifname_t names[] = {"eth0", "veth0", "eth1"};
    hxb_loc_rail_t loc[3];
    int perm[3];

    /* known near, then unknown, then known far */
    ck_assert_int_eq(classify("0", names, 3, loc, perm), 1);
    check_perm(perm, 3, (int[]){2, 1, 0});
}
END_TEST
#endif

START_TEST(test_equal_speeds_only)
{
    hxb_loc_rail_t loc[4] = {
        {"a", HXB_LOC_OTHER, ""}, {"b", HXB_LOC_NUMA, ""},
        {"c", HXB_LOC_NUMA, ""},  {"d", HXB_LOC_UNKNOWN, ""}};
    double speed[4] = {125e6, 1250e6, 125e6, 125e6};
    int perm[4];

    /* positions 0, 2, 3 (1 Gbit/s) refilled nearest first: c, d, a; the
     * 10 Gbit/s rail keeps its place, whatever its class */
    ck_assert_int_eq(hxb_locality_order(loc, speed, 4, perm), 1);
    check_perm(perm, 4, (int[]){2, 1, 3, 0});
    /* different speeds never trade places */
    speed[0] = 1e9;
    speed[2] = 2e9;
    speed[3] = 3e9;
    ck_assert_int_eq(hxb_locality_order(loc, speed, 4, perm), 0);
    check_perm(perm, 4, (int[]){0, 1, 2, 3});
}
END_TEST

START_TEST(test_this_host)
{
    const ifname_t names[] = {"hxb-none0"};
    hxb_loc_rail_t loc[1];
    const char *cpus = NULL;

    /* an interface this host does not have: unknown, and no failure */
    ck_assert_int_eq(hxb_locality_classify(names, 1, loc, NULL, &cpus), 0);
    ck_assert_int_eq(loc[0].cls, HXB_LOC_UNKNOWN);
    ck_assert_ptr_nonnull(cpus);
    ck_assert_str_eq(hxb_locality_class_name(HXB_LOC_PACKAGE), "package");
#ifdef HXB_HAVE_HWLOC
    ck_assert_int_eq(hxb_locality_classify(names, 1, loc, "x", NULL), -1);
    ck_assert_int_eq(hxb_locality_classify(names, 1, loc, "0", &cpus), 0);
    ck_assert_str_eq(cpus, "0");
#endif
}
END_TEST

int main(void)
{
    Suite *s = suite_create("locality");
    TCase *tc = tcase_create("locality");
    SRunner *r;
    int failed;

#ifdef HXB_HAVE_HWLOC
    tcase_add_checked_fixture(tc, topo_setup, topo_teardown);
    tcase_add_test(tc, test_near_first);
    tcase_add_test(tc, test_unbound);
    tcase_add_test(tc, test_veth_unchanged);
    tcase_add_test(tc, test_mixed);
#endif
    /* hwloc reads the host's topology: slow on a loaded host */
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_equal_speeds_only);
    tcase_add_test(tc, test_this_host);
    suite_add_tcase(s, tc);
    r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
