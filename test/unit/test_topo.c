/* Unit tests of the topology file parser (format: contrib/testbed/README.md). */
#include "hxb_topo.h"

#include <arpa/inet.h>
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmp_dir[200];   /* made by main(), emptied and removed at exit */
static char tmp_path[256];

/* write `text` to a fresh temporary file; its name is in tmp_path */
static const char *write_topo(const char *text)
{
    size_t len = strlen(text);
    int fd;

    snprintf(tmp_path, sizeof(tmp_path), "%s/topo_XXXXXX", tmp_dir);
    fd = mkstemp(tmp_path);
    ck_assert_msg(fd >= 0, "mkstemp: %s", strerror(errno));
    ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
    close(fd);
    return tmp_path;
}

static void remove_topo(void)
{
    if (tmp_path[0]) {
        unlink(tmp_path);
        tmp_path[0] = '\0';
    }
}

static int load(const char *text, hxb_topo_t *t, char *err, size_t errlen)
{
    const char *path = write_topo(text);
    int r;

    err[0] = '\0';
    r = hxb_topo_load(path, t, err, errlen);
    return r;
}

/* the file must be refused with "PATH:LINE: ..." ("PATH: ..." for line 0:
 * no line is at fault) mentioning `word` */
static void expect_error_at(const char *text, int line, const char *word,
                            const char *file, int srcline)
{
    hxb_topo_t t;
    char err[512], prefix[300];
    int r;

    memset(&t, 0x5a, sizeof(t));
    r = load(text, &t, err, sizeof(err));
    ck_assert_msg(r == -1, "%s:%d: file accepted, expected an error at line %d "
                  "(%s):\n%s", file, srcline, line, word, text);
    if (line) snprintf(prefix, sizeof(prefix), "%s:%d: ", tmp_path, line);
    else snprintf(prefix, sizeof(prefix), "%s: ", tmp_path);
    ck_assert_msg(strncmp(err, prefix, strlen(prefix)) == 0,
                  "%s:%d: error '%s' does not start with '%s'", file, srcline,
                  err, prefix);
    ck_assert_msg(strcasestr(err + strlen(prefix), word) != NULL,
                  "%s:%d: error '%s' does not mention '%s'", file, srcline, err,
                  word);
    /* nothing is left allocated */
    ck_assert_ptr_null(t.nodes);
    ck_assert_ptr_null(t.ifaces);
    ck_assert_int_eq(t.num_ifaces, 0);
    remove_topo();
}
#define EXPECT_ERROR(text, line, word) \
    expect_error_at(text, line, word, __FILE__, __LINE__)

#define HEAD2 "grid 2 1 1\nrails 2\nnode n0 0 0 0\nnode n1 1 0 0\n" /* 4 lines */

/* ------------------------------------------------------------------ */

static const char readme_example[] =
    "# hxb topology, written by hxb-testbed\n"
    "# testbed hxb, mtu 9000, management 198.18.0.0/24 on interface mgmt\n"
    "grid 2 1 1\n"
    "rails 2\n"
    "node n0 0 0 0\n"
    "node n1 1 0 0\n"
    "iface n0 x 0 x0 02:68:62:01:00:00 198.19.1.1/24\n"
    "iface n0 x 1 x1 02:68:62:01:01:00 198.19.2.1/24\n"
    "iface n1 x 0 x0 02:68:62:01:00:01 198.19.1.2/24\n"
    "iface n1 x 1 x1 02:68:62:01:01:01 198.19.2.2/24\n";

START_TEST(test_good_readme_example)
{
    hxb_topo_t t;
    char err[512];
    const hxb_topo_iface_t *f;
    const uint8_t mac[6] = {0x02, 0x68, 0x62, 0x01, 0x01, 0x01};
    int c[HXB_DIMS];

    ck_assert_msg(load(readme_example, &t, err, sizeof(err)) == 0, "%s", err);
    ck_assert_int_eq(t.size[0], 2);
    ck_assert_int_eq(t.size[1], 1);
    ck_assert_int_eq(t.size[2], 1);
    ck_assert_int_eq(t.rails, 2);
    ck_assert_int_eq(t.num_nodes, 2);
    ck_assert_int_eq(t.num_ifaces, 4);
    ck_assert_str_eq(t.nodes[0].name, "n0");
    ck_assert_str_eq(t.nodes[1].name, "n1");
    ck_assert_int_eq(t.nodes[1].coord[0], 1);
    ck_assert_int_eq(hxb_topo_find_node(&t, "n1"), 1);
    ck_assert_int_eq(hxb_topo_find_node(&t, "n2"), -1);

    c[0] = 1; c[1] = 0; c[2] = 0;
    ck_assert_int_eq(hxb_topo_node_id(&t, c), 1);
    c[0] = 2;
    ck_assert_int_eq(hxb_topo_node_id(&t, c), -1);
    c[0] = 0; c[1] = 1;
    ck_assert_int_eq(hxb_topo_node_id(&t, c), -1);
    c[1] = 0; c[2] = -1;
    ck_assert_int_eq(hxb_topo_node_id(&t, c), -1);

    f = hxb_topo_iface(&t, 1, 0, 1);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(f->node, 1);
    ck_assert_int_eq(f->dim, 0);
    ck_assert_int_eq(f->rail, 1);
    ck_assert_str_eq(f->ifname, "x1");
    ck_assert_mem_eq(f->mac, mac, 6);
    ck_assert_uint_eq(f->ip, inet_addr("198.19.2.2"));
    ck_assert_int_eq(f->prefix, 24);
    f = hxb_topo_iface(&t, 0, 0, 0);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(f->ifname, "x0");
    ck_assert_uint_eq(f->ip, inet_addr("198.19.1.1"));
    ck_assert_ptr_null(hxb_topo_iface(&t, 0, 1, 0));   /* no y dimension */
    ck_assert_ptr_null(hxb_topo_iface(&t, 0, 0, 2));   /* no rail 2 */
    ck_assert_ptr_null(hxb_topo_iface(&t, 2, 0, 0));   /* no node 2 */
    ck_assert_ptr_eq(hxb_topo_iface_by_name(&t, 1, "x1"), hxb_topo_iface(&t, 1, 0, 1));
    ck_assert_ptr_null(hxb_topo_iface_by_name(&t, 1, "y0"));

    hxb_topo_free(&t);
    ck_assert_ptr_null(t.nodes);
    ck_assert_int_eq(t.num_ifaces, 0);
    remove_topo();
}
END_TEST

/* a 3x2x2 grid, 2 rails, nodes listed in reverse, comments, tabs, CRLF */
START_TEST(test_good_3d)
{
    static char text[32768];
    const int X = 3, Y = 2, Z = 2, R = 2, size[3] = {X, Y, Z};
    hxb_topo_t t;
    char err[512];
    size_t o = 0;
    int i, d, r, n = X * Y * Z;

    o += snprintf(text + o, sizeof(text) - o,
                  "  # leading comment\n\ngrid\t%d %d %d   # trailing comment\r\n"
                  "rails %d\n", X, Y, Z, R);
    for (i = n - 1; i >= 0; i--) {
        o += snprintf(text + o, sizeof(text) - o, "node host-%d %d %d %d\n", i,
                      i % X, (i / X) % Y, i / (X * Y));
    }
    for (i = 0; i < n; i++) {
        for (d = 0; d < 3; d++) {
            for (r = 0; r < R; r++) {
                o += snprintf(text + o, sizeof(text) - o,
                              "iface host-%d %c %d %c%d 02:68:62:%02X:%02x:%02x "
                              "10.%d.%d.%d/16\n", i, "xyz"[d], r, "xyz"[d], r,
                              d + 1, r, i, d, r, i + 1);
            }
        }
    }
    ck_assert_msg(load(text, &t, err, sizeof(err)) == 0, "%s", err);
    ck_assert_int_eq(t.num_nodes, n);
    ck_assert_int_eq(t.rails, R);
    ck_assert_int_eq(t.num_ifaces, n * 3 * R);
    for (i = 0; i < n; i++) {
        int c[3] = {i % X, (i / X) % Y, i / (X * Y)};
        char name[32];
        snprintf(name, sizeof(name), "host-%d", i);
        ck_assert_int_eq(hxb_topo_node_id(&t, c), i);
        ck_assert_int_eq(hxb_topo_find_node(&t, name), i);
        ck_assert_str_eq(t.nodes[i].name, name);
        for (d = 0; d < 3; d++) {
            ck_assert_int_eq(t.nodes[i].coord[d], c[d]);
            ck_assert_int_lt(c[d], size[d]);
            for (r = 0; r < R; r++) {
                const hxb_topo_iface_t *f = hxb_topo_iface(&t, i, d, r);
                char ifn[8], ip[32];
                ck_assert_ptr_nonnull(f);
                snprintf(ifn, sizeof(ifn), "%c%d", "xyz"[d], r);
                snprintf(ip, sizeof(ip), "10.%d.%d.%d", d, r, i + 1);
                ck_assert_str_eq(f->ifname, ifn);
                ck_assert_uint_eq(f->mac[3], d + 1);
                ck_assert_uint_eq(f->mac[4], r);
                ck_assert_uint_eq(f->mac[5], i);
                ck_assert_uint_eq(f->ip, inet_addr(ip));
                ck_assert_int_eq(f->prefix, 16);
                ck_assert_ptr_eq(hxb_topo_iface_by_name(&t, i, ifn), f);
            }
        }
    }
    hxb_topo_free(&t);
    remove_topo();
}
END_TEST

/* nodes need not have interfaces; a 1x1x1 grid is a valid (tiny) cluster */
START_TEST(test_good_minimal)
{
    hxb_topo_t t;
    char err[512];

    ck_assert_msg(load("grid 1 1 1\nrails 1\nnode solo 0 0 0\n", &t, err,
                       sizeof(err)) == 0, "%s", err);
    ck_assert_int_eq(t.num_nodes, 1);
    ck_assert_int_eq(t.num_ifaces, 0);
    ck_assert_ptr_null(hxb_topo_iface(&t, 0, 0, 0));
    hxb_topo_free(&t);
    remove_topo();
}
END_TEST

/* the file the testbed wrote, when one is running */
START_TEST(test_good_testbed_file)
{
    const char *path = "/run/hxb/hxb/topo.conf";
    hxb_topo_t t;
    char err[512];
    int i;

    if (access(path, R_OK) != 0) {
        return;
    }
    ck_assert_msg(hxb_topo_load(path, &t, err, sizeof(err)) == 0, "%s", err);
    ck_assert_int_gt(t.num_nodes, 0);
    for (i = 0; i < t.num_nodes; i++) {
        int c[3] = {t.nodes[i].coord[0], t.nodes[i].coord[1], t.nodes[i].coord[2]};
        ck_assert(t.nodes[i].defined);
        ck_assert_int_eq(hxb_topo_node_id(&t, c), i);
    }
    for (i = 0; i < t.num_ifaces; i++) {
        const hxb_topo_iface_t *f = &t.ifaces[i];
        ck_assert_ptr_eq(hxb_topo_iface(&t, f->node, f->dim, f->rail), f);
        ck_assert_int_lt(f->rail, t.rails);
        ck_assert_int_gt(t.size[f->dim], 1);
    }
    hxb_topo_free(&t);
}
END_TEST

START_TEST(test_missing_file)
{
    hxb_topo_t t;
    char err[512];

    ck_assert_int_eq(hxb_topo_load("/nonexistent/hxb/topo.conf", &t, err,
                                   sizeof(err)), -1);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/hxb/topo.conf"));
    ck_assert_ptr_nonnull(strcasestr(err, "open"));
}
END_TEST

/* ---- bad files: one per kind of mistake, with the line to blame ---- */

START_TEST(test_bad_keyword)
{
    EXPECT_ERROR("grid 2 1 1\nrails 1\nnodes n0 0 0 0\nnode n1 1 0 0\n", 3,
                 "unknown keyword");
    EXPECT_ERROR("# c\n\ngrid 1 1 1\nrails 1\nnode n0 0 0 0\nGRID 1 1 1\n", 6,
                 "unknown keyword");
}
END_TEST

START_TEST(test_bad_node_outside)
{
    EXPECT_ERROR("grid 2 1 1\nrails 1\nnode n0 0 0 0\nnode n1 2 0 0\n", 4, "outside");
    EXPECT_ERROR("grid 2 2 1\nrails 1\nnode n0 0 0 0\nnode n1 1 0 1\n", 4, "outside");
    EXPECT_ERROR("grid 2 1 1\nrails 1\nnode n0 0 0 0\nnode n1 1 0 -1\n", 4,
                 "coordinate");
    EXPECT_ERROR("grid 2 1 1\nrails 1\nnode n0 0 0 0\nnode n1 one 0 0\n", 4,
                 "coordinate");
}
END_TEST

START_TEST(test_bad_node_duplicate)
{
    EXPECT_ERROR("grid 2 1 1\nrails 1\nnode n0 0 0 0\nnode n1 0 0 0\n", 4,
                 "coordinates");
    /* the same name twice is as wrong */
    EXPECT_ERROR("grid 2 1 1\nrails 1\nnode n0 0 0 0\nnode n0 1 0 0\n", 4, "twice");
    EXPECT_ERROR("node n0 0 0 0\ngrid 1 1 1\nrails 1\n", 1, "grid");
    EXPECT_ERROR("grid 2 1 1\nrails 1\nnode n0 0 0\n", 3, "node");
}
END_TEST

START_TEST(test_bad_iface_unknown_node)
{
    EXPECT_ERROR(HEAD2 "iface n2 x 0 x0 02:68:62:01:00:00 198.19.1.1/24\n", 5,
                 "unknown node");
    /* nodes must come first */
    EXPECT_ERROR("grid 2 1 1\nrails 1\nnode n0 0 0 0\n"
                 "iface n1 x 0 x0 02:68:62:01:00:01 198.19.1.2/24\n"
                 "node n1 1 0 0\n", 4, "unknown node");
}
END_TEST

START_TEST(test_bad_iface_dim_size1)
{
    EXPECT_ERROR(HEAD2 "iface n0 x 0 x0 02:68:62:01:00:00 198.19.1.1/24\n"
                 "iface n0 y 0 y0 02:68:62:02:00:00 198.19.3.1/24\n", 6, "size 1");
    EXPECT_ERROR(HEAD2 "iface n0 z 1 z1 02:68:62:03:01:00 198.19.3.1/24\n", 5,
                 "size 1");
    EXPECT_ERROR(HEAD2 "iface n0 w 0 w0 02:68:62:03:01:00 198.19.3.1/24\n", 5,
                 "dimension");
}
END_TEST

START_TEST(test_bad_iface_other)
{
    /* rail beyond 'rails' */
    EXPECT_ERROR(HEAD2 "iface n0 x 2 x2 02:68:62:01:02:00 198.19.1.1/24\n", 5, "rail");
    /* two interfaces on one rail, one name twice */
    EXPECT_ERROR(HEAD2 "iface n0 x 0 x0 02:68:62:01:00:00 198.19.1.1/24\n"
                 "iface n0 x 0 x9 02:68:62:01:00:09 198.19.1.9/24\n", 6,
                 "two interfaces");
    EXPECT_ERROR(HEAD2 "iface n0 x 0 x0 02:68:62:01:00:00 198.19.1.1/24\n"
                 "iface n0 x 1 x0 02:68:62:01:01:00 198.19.2.1/24\n", 6, "twice");
    /* missing field */
    EXPECT_ERROR(HEAD2 "iface n0 x 0 x0 198.19.1.1/24\n", 5, "iface");
}
END_TEST

START_TEST(test_bad_mac)
{
    static const char *macs[] = {
        "02:68:62:01:00",          /* five groups */
        "02:68:62:01:00:00:00",    /* seven */
        "02:68:62:01:00:0g",       /* not hex */
        "02:68:62:01:00:123",      /* three digits */
        "02-68-62-01-00-00",       /* wrong separator */
        "zz:68:62:01:00:00",
        "-1:68:62:01:00:00",       /* a sign is no hex digit */
        "+2:68:62:01:00:00",
        "0x:68:62:01:00:00",
        "02:68:62:01:00:",
        "",
    };
    char text[512];
    size_t i;

    for (i = 0; i < sizeof(macs) / sizeof(macs[0]); i++) {
        if (!macs[i][0]) {
            continue;      /* an empty token is a missing field */
        }
        snprintf(text, sizeof(text), HEAD2 "# comment\n"
                 "iface n0 x 0 x0 %s 198.19.1.1/24\n", macs[i]);
        EXPECT_ERROR(text, 6, "MAC");
    }
}
END_TEST

START_TEST(test_bad_ip)
{
    static const struct { const char *ip; const char *word; } ips[] = {
        {"198.19.1.300/24", "IPv4"},
        {"198.19.1/24", "IPv4"},
        {"host/24", "IPv4"},
        {"::1/64", "IPv4"},
        {"198.19.1.1", "PREFIX"},
        {"198.19.1.1/", "PREFIX"},
        {"198.19.1.1/33", "PREFIX"},
        {"198.19.1.1/-1", "PREFIX"},
        {"198.19.1.1/x", "PREFIX"},
    };
    char text[512];
    size_t i;

    for (i = 0; i < sizeof(ips) / sizeof(ips[0]); i++) {
        snprintf(text, sizeof(text), HEAD2
                 "iface n0 x 0 x0 02:68:62:01:00:00 198.19.1.1/24\n"
                 "iface n0 x 1 x1 02:68:62:01:01:00 %s\n", ips[i].ip);
        EXPECT_ERROR(text, 6, ips[i].word);
    }
}
END_TEST

/* a grid position nobody claims: blame the grid line, name the position */
START_TEST(test_bad_missing_node)
{
    EXPECT_ERROR("grid 2 1 1\nrails 1\nnode n0 0 0 0\n", 1, "no node at (1,0,0)");
    EXPECT_ERROR("# c\ngrid 2 2 1\nrails 1\nnode a 0 0 0\nnode b 1 0 0\n"
                 "node d 1 1 0\n", 2, "no node at (0,1,0)");
}
END_TEST

START_TEST(test_bad_missing_grid_rails)
{
    hxb_topo_t t;
    char err[512];

    /* no line is at fault */
    EXPECT_ERROR("# just a comment\nrails 1\n", 0, "'grid'");
    EXPECT_ERROR("grid 1 1 1\nnode n0 0 0 0\n\n", 0, "'rails'");
    /* an empty file */
    ck_assert_int_eq(load("", &t, err, sizeof(err)), -1);
    ck_assert_ptr_nonnull(strstr(err, tmp_path));
    ck_assert_ptr_nonnull(strstr(err, "grid"));
    remove_topo();
}
END_TEST

START_TEST(test_bad_grid_rails_lines)
{
    EXPECT_ERROR("grid 2 1\nrails 1\n", 1, "grid");
    EXPECT_ERROR("grid 2 0 1\nrails 1\n", 1, "grid size");
    EXPECT_ERROR("grid 2 1 x\nrails 1\n", 1, "grid size");
    EXPECT_ERROR("grid 100 100 1\nrails 1\n", 1, "more than");
    EXPECT_ERROR("grid 1 1 1\ngrid 1 1 1\n", 2, "twice");
    EXPECT_ERROR("grid 1 1 1\nrails 0\n", 2, "rails");
    EXPECT_ERROR("grid 1 1 1\nrails 17\n", 2, "rails");
    EXPECT_ERROR("grid 1 1 1\nrails\n", 2, "rails");
    EXPECT_ERROR("grid 1 1 1\nrails 2\nrails 1\n", 3, "twice");
    /* rail numbers are checked against 'rails': it must come first (a rail
     * 7 of 2 was accepted, and the relay dropped what arrived on it) */
    EXPECT_ERROR("grid 2 1 1\nnode a 0 0 0\nnode b 1 0 0\n"
                 "iface a x 7 x0 02:00:00:00:00:01 198.19.1.1/24\nrails 2\n", 4, "before 'rails'");
}
END_TEST

START_TEST(test_bad_long_line)
{
    char text[2048];

    memset(text, 0, sizeof(text));
    strcpy(text, "grid 1 1 1\nrails 1\nnode n0 0 0 0 #");
    memset(text + strlen(text), 'x', 1000);
    strcat(text, "\n");
    EXPECT_ERROR(text, 3, "too long");
}
END_TEST

static Suite *topo_suite(void)
{
    Suite *s = suite_create("topo");
    TCase *tc = tcase_create("good");

    tcase_add_test(tc, test_good_readme_example);
    tcase_add_test(tc, test_good_3d);
    tcase_add_test(tc, test_good_minimal);
    tcase_add_test(tc, test_good_testbed_file);
    tcase_add_test(tc, test_missing_file);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad");
    tcase_add_test(tc, test_bad_keyword);
    tcase_add_test(tc, test_bad_node_outside);
    tcase_add_test(tc, test_bad_node_duplicate);
    tcase_add_test(tc, test_bad_iface_unknown_node);
    tcase_add_test(tc, test_bad_iface_dim_size1);
    tcase_add_test(tc, test_bad_iface_other);
    tcase_add_test(tc, test_bad_mac);
    tcase_add_test(tc, test_bad_ip);
    tcase_add_test(tc, test_bad_missing_node);
    tcase_add_test(tc, test_bad_missing_grid_rails);
    tcase_add_test(tc, test_bad_grid_rails_lines);
    tcase_add_test(tc, test_bad_long_line);
    suite_add_tcase(s, tc);
    return s;
}

static void remove_tmp_dir(void)
{
    DIR *d = opendir(tmp_dir);
    struct dirent *de;
    char p[512];

    if (d) {
        while ((de = readdir(d))) {
            if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
                snprintf(p, sizeof(p), "%s/%s", tmp_dir, de->d_name);
                unlink(p);
            }
        }
        closedir(d);
    }
    rmdir(tmp_dir);
}

int main(void)
{
    const char *base = getenv("TMPDIR");
    SRunner *sr;
    int failed;

    snprintf(tmp_dir, sizeof(tmp_dir), "%s/hxb_test_topo_XXXXXX",
             base && *base ? base : "/tmp");
    if (!mkdtemp(tmp_dir)) {
        perror("mkdtemp");
        return EXIT_FAILURE;
    }
    sr = srunner_create(topo_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    remove_tmp_dir();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
