/* Unit tests of the relay rule and routes (uct_hxb/hxb_route.[ch]). */
#include "hxb_route.h"

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

int main(void)
{
    Suite *s = suite_create("route");
    TCase *tc = tcase_create("route");
    SRunner *r;
    int failed;

    tcase_add_test(tc, test_all_paths);
    tcase_add_test(tc, test_disjoint_rotations);
    tcase_add_test(tc, test_next_dim);
    suite_add_tcase(s, tc);
    r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
