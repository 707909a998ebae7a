/* Unit tests of hxb-cablecheck's judgement (contrib/tools/hxb_cable_judge.c)
 * and of its reports' text form (hxb_cable_report.c): a cluster's wiring is
 * modelled (each rail on a switch, up or down, its MTU), every rail up hears
 * the others on its switch, and the judgement must name each fault as an
 * administrator would want it, and nothing else. */
#include "hxb_cable_judge.h"
#include "hxb_cable_report.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static hxb_topo_t T;
static cable_report_t *R;
/* the wiring: per topology interface, the switch it is on (an index of
 * another interface that belongs there: its own by default), -1 unplugged
 * (link down), -2 on a switch port that goes nowhere (link up, alone) */
static int wire[512], mtu[512], present[512];

/* a grid X x Y x Z with `rails` rails, named as the testbed names them */
static void grid(int X, int Y, int Z, int rails)
{
    char path[] = "/tmp/test_cable_XXXXXX", err[256];
    int fd = mkstemp(path), i, d, r, size[3] = {X, Y, Z}, n = X * Y * Z;
    FILE *f;

    ck_assert_msg(fd >= 0, "mkstemp: %s", strerror(errno));
    f = fdopen(fd, "w");
    fprintf(f, "grid %d %d %d\nrails %d\n", X, Y, Z, rails);
    for (i = 0; i < n; i++) {
        fprintf(f, "node n%d %d %d %d\n", i, i % X, i / X % Y, i / (X * Y));
    }
    for (i = 0; i < n; i++) {
        for (d = 0; d < 3; d++) {
            for (r = 0; r < rails && size[d] > 1; r++) {
                fprintf(f, "iface n%d %c %d %c%d 02:00:00:%02x:%02x:%02x 10.%d.%d.%d/24\n",
                        i, "xyz"[d], r, "xyz"[d], r, d, r, i, d, r, i + 1);
            }
        }
    }
    fclose(f);
    ck_assert_msg(hxb_topo_load(path, &T, err, sizeof(err)) == 0, "%s", err);
    unlink(path);
    ck_assert_int_le(T.num_ifaces, 512);
    for (i = 0; i < T.num_ifaces; i++) {
        wire[i] = i;
        mtu[i] = 9000;
        present[i] = 1;
    }
    R = calloc(T.num_nodes, sizeof(*R));
}

static void teardown(void)
{
    for (int n = 0; n < T.num_nodes; n++) {
        cable_report_free(&R[n]);
    }
    free(R);
    hxb_topo_free(&T);
}

static int ifi(const char *node, const char *ifname)
{
    const hxb_topo_iface_t *f = hxb_topo_iface_by_name(&T, hxb_topo_find_node(&T, node),
                                                     ifname);
    ck_assert_msg(f != NULL, "%s %s", node, ifname);
    return f - T.ifaces;
}

/* the switch an interface's cable ends in: follow wire[] to a fixed point */
static int where(int i)
{
    int k = 0;

    while (i >= 0 && wire[i] != i && k++ < 512) {
        i = wire[i];
    }
    return i < 0 ? -1 : i;
}

static int same_switch(int a, int b)
{
    int wa = where(a), wb = where(b);
    const hxb_topo_iface_t *fa, *fb;
    int d;

    if (wa < 0 || wb < 0) {
        return 0;
    }
    fa = &T.ifaces[wa];
    fb = &T.ifaces[wb];
    if (fa->dim != fb->dim || fa->rail != fb->rail) {
        return 0;
    }
    for (d = 0; d < 3; d++) {
        if (d != fa->dim && T.nodes[fa->node].coord[d] != T.nodes[fb->node].coord[d]) {
            return 0;
        }
    }
    return 1;
}

/* the reports the nodes in `who` (NULL: all) would give */
static void observe(const char *who)
{
    int n, i, k;

    for (n = 0; n < T.num_nodes; n++) {
        cable_report_t *r = &R[n];
        char name[80];
        snprintf(name, sizeof(name), " %s ", T.nodes[n].name);
        cable_report_free(r);
        memset(r, 0, sizeof(*r));
        r->node = n;
        if (who && !strstr(who, name)) {
            continue;
        }
        r->have = 1;
        r->keyed = 1;
        for (i = 0; i < T.num_ifaces; i++) {
            cable_if_t *c;
            if (T.ifaces[i].node != n) {
                continue;
            }
            c = &r->ifs[r->nifs++];
            c->ti = i;
            c->present = present[i];
            c->up = present[i] && wire[i] != -1;
            c->mtu = mtu[i];
            c->speed = 10000;
            memcpy(c->mac, T.ifaces[i].mac, 6);
            for (k = 0; k < T.num_ifaces && c->up; k++) {
                cable_heard_t h;
                if (k == i || !present[k] || !same_switch(i, k)) {
                    continue;
                }
                memset(&h, 0, sizeof(h));
                h.src = h.src_raw = T.ifaces[k].node;
                h.dim = T.ifaces[k].dim;
                h.rail = T.ifaces[k].rail;
                memcpy(h.mac, T.ifaces[k].mac, 6);
                ck_assert_int_eq(cable_heard_add(c, &h), 0);
            }
        }
    }
}

static char out[16384];

/* judge; the output in out[]; the number of problems */
static int judge(int cluster)
{
    FILE *f = fmemopen(out, sizeof(out), "w");
    int n;

    ck_assert_ptr_nonnull(f);
    n = cable_judge(&T, R, cluster, f);
    fclose(f);
    if (getenv("HXB_TEST_SHOW")) {
        fputs(out, stderr);   /* to read what an administrator would */
    }
    return n;
}

#define HAS(s) ck_assert_msg(strstr(out, s) != NULL, "no '%s' in:\n%s", s, out)

START_TEST(test_correct)
{
    grid(3, 3, 1, 2);
    observe(NULL);
    ck_assert_int_eq(judge(1), 0);
    HAS("all 36 rails as the topology says (9 nodes");
    observe(" n4 ");
    ck_assert_int_eq(judge(0), 0);
    HAS("all 4 rails as the topology says (n4:");
    teardown();
}
END_TEST

START_TEST(test_swap)
{
    grid(3, 3, 1, 2);
    wire[ifi("n4", "x0")] = ifi("n1", "y1");
    wire[ifi("n4", "y1")] = ifi("n3", "x0");
    observe(NULL);
    ck_assert_int_eq(judge(1), 2);
    HAS("n4: x0 is cabled to switch y1 of line (1,*) (reaches n1, n7) but the topology "
        "says switch x0 of line (*,1) (n3, n5); swapped with y1?");
    HAS("n4: y1 is cabled to switch x0 of line (*,1) (reaches n3, n5) but the topology "
        "says switch y1 of line (1,*) (n1, n7); swapped with x0?");
    /* seen from n4 alone: the same */
    observe(" n4 ");
    ck_assert_int_eq(judge(0), 2);
    HAS("swapped with y1?");
    HAS("swapped with x0?");
    /* seen from n3: n4's y1 is where its x0 should be, and n4's x0 is missing */
    observe(" n3 ");
    ck_assert_int_eq(judge(0), 2);
    HAS("n4: y1 is cabled to switch x0 of line (*,1) (reaches n3, n5)");
    HAS("n3 x0: does not hear n4 x0");
    teardown();
}
END_TEST

START_TEST(test_move_unplug_mtu_absent)
{
    grid(3, 3, 1, 2);
    wire[ifi("n2", "y1")] = ifi("n0", "x0");
    wire[ifi("n3", "x1")] = -1;
    mtu[ifi("n5", "y0")] = 1500;
    present[ifi("n7", "x0")] = 0;
    observe(NULL);
    ck_assert_int_eq(judge(1), 4);
    HAS("n2: y1 is cabled to switch x0 of line (*,0) (reaches n0, n1, its own x0) but the "
        "topology says switch y1 of line (2,*) (n5, n8) (where its x0 belongs)");
    HAS("n3 x1: link down");
    HAS("switch y0 of line (2,*): n5 y0 MTU 1500, the others 9000");
    HAS("n7: no interface x0, which the topology names as its rail x0");
    /* a 1 Gbit/s NIC among 10 Gbit/s ones (the kernel's speed, sysfs) */
    R[3].ifs[0].speed = 1000;
    ck_assert_int_eq(judge(1), 5);
    HAS("switch x0 of line (*,1): n3 x0 speed 1000 Mbit/s, the others 10000 Mbit/s");
    teardown();
}
END_TEST

START_TEST(test_isolated_and_silent)
{
    grid(3, 3, 1, 1);
    /* on a switch port that goes nowhere */
    wire[ifi("n4", "y0")] = -2;
    observe(NULL);
    ck_assert_int_eq(judge(1), 1);
    HAS("n4 y0: link up, but it hears no one and no one hears it on switch y0 of line (1,*) "
        "(where n1, n7 reach each other)");
    /* nothing heard anywhere: one line */
    wire[ifi("n4", "y0")] = ifi("n4", "y0");
    observe(NULL);
    for (int n = 0; n < T.num_nodes; n++) {
        for (int k = 0; k < R[n].nifs; k++) {
            R[n].ifs[k].nheard = 0;
        }
    }
    ck_assert_int_eq(judge(1), 1);
    HAS("no rail heard a HELLO or a probe");
    teardown();
}
END_TEST

START_TEST(test_line_of_two)
{
    /* 2x2x2: a swap on a line of two cannot say which node is wrong */
    grid(2, 2, 2, 2);
    wire[ifi("n1", "x0")] = ifi("n0", "x1");
    wire[ifi("n1", "x1")] = ifi("n0", "x0");
    observe(NULL);
    ck_assert_int_eq(judge(1), 1);
    HAS("reach each other, but the topology puts them on different switches");
    HAS("n0 x0 (switch x0 of line (*,0,0)), n1 x1 (switch x1 of line (*,0,0)) reach each other");
    HAS("; x0 and x1 swapped on n0 or on n1?");
    teardown();
}
END_TEST

START_TEST(test_bad_tag_stranger_mac)
{
    grid(3, 3, 1, 1);
    observe(" n0 ");
    /* n0's x0 hears a node not in the topology, one with a wrong tag, and
     * n1 from a MAC the topology does not give it */
    {
        cable_if_t *c = &R[0].ifs[0];
        cable_heard_t h;
        ck_assert_int_eq(c->ti, ifi("n0", "x0"));
        memset(&h, 0, sizeof(h));
        h.src = -1;
        h.src_raw = 77;
        ck_assert_int_eq(cable_heard_add(c, &h), 0);
        h = c->heard[0];
        h.bad_tag = 1;
        ck_assert_int_eq(cable_heard_add(c, &h), 0);
        c->heard[0].mac[5] ^= 1;
    }
    ck_assert_int_eq(judge(0), 3);
    HAS("n0 x0: hears node number 77 (rail x0), which is not in the topology");
    HAS("n0 x0: frames claiming to be n");
    HAS("have a wrong tag");
    HAS("x0: sends from MAC");
    teardown();
}
END_TEST

START_TEST(test_report_text)
{
    cable_report_t back;
    char buf[8192];
    FILE *f;

    grid(3, 3, 1, 2);
    wire[ifi("n4", "x0")] = -1;
    mtu[ifi("n4", "y1")] = 1500;
    observe(NULL);
    R[4].ifs[2].heard[0].bad_tag = 1;
    f = fmemopen(buf, sizeof(buf), "w");
    fputs("ssh: a banner line\n", f);
    cable_report_print(&T, &R[4], f);
    fclose(f);
    ck_assert_int_eq(cable_report_parse(&T, 4, buf, &back), 0);
    ck_assert_int_eq(back.have, 1);
    ck_assert_int_eq(back.nifs, R[4].nifs);
    for (int i = 0; i < back.nifs; i++) {
        ck_assert_int_eq(back.ifs[i].ti, R[4].ifs[i].ti);
        ck_assert_int_eq(back.ifs[i].up, R[4].ifs[i].up);
        ck_assert_int_eq(back.ifs[i].mtu, R[4].ifs[i].mtu);
        ck_assert_int_eq(back.ifs[i].nheard, R[4].ifs[i].nheard);
        for (int k = 0; k < back.ifs[i].nheard; k++) {
            ck_assert(!memcmp(&back.ifs[i].heard[k], &R[4].ifs[i].heard[k],
                              sizeof(cable_heard_t)));
        }
    }
    /* another node's report, a cut one, garbage: refused with a reason */
    cable_report_free(&back);
    ck_assert_int_eq(cable_report_parse(&T, 3, buf, &back), -1);
    ck_assert(strstr(back.err, "another node") != NULL);
    cable_report_free(&back);
    *strstr(buf, "end\n") = '\0';
    ck_assert_int_eq(cable_report_parse(&T, 4, buf, &back), -1);
    ck_assert(strstr(back.err, "ends early") != NULL);
    cable_report_free(&back);
    ck_assert_int_eq(cable_report_parse(&T, 4, "Permission denied\n", &back), -1);
    cable_report_free(&back);
    teardown();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cable");
    TCase *tc = tcase_create("judge");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, test_correct);
    tcase_add_test(tc, test_swap);
    tcase_add_test(tc, test_move_unplug_mtu_absent);
    tcase_add_test(tc, test_isolated_and_silent);
    tcase_add_test(tc, test_line_of_two);
    tcase_add_test(tc, test_bad_tag_stranger_mac);
    tcase_add_test(tc, test_report_text);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
