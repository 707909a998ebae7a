/* hxb-cablecheck's judgement (hxb_cable_judge.h). */
#include "hxb_cable_judge.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { ST_UNKNOWN, ST_ABSENT, ST_DOWN, ST_UP };

typedef struct judge {
    const hxb_topo_t     *t;
    const cable_report_t *reps;
    FILE   *out;
    int     cluster, problems;
    int     nif;
    int    *st;           /* ST_* per topology interface */
    const cable_if_t **rif;   /* its report, or NULL */
    int    *parent;       /* union-find: segments */
    int    *active;       /* up, or heard by someone */
    int    *hears;        /* senders it heard (good tags) */
    int    *sw;           /* the switch the topology puts it on */
    int    *comp_size, *comp_ident, *comp_amb;   /* by root */
    int    *main_of;      /* per switch: its largest segment's root, -1 */
    int    *misplaced;
    int    *by_rail;      /* (node, dim, rail) -> interface, -1 */
    int     nsw;
} judge_t;

static const char dimname[] = "xyz";

static int uf_find(int *p, int a)
{
    while (p[a] != a) {
        p[a] = p[p[a]];
        a = p[a];
    }
    return a;
}

static void uf_union(int *p, int a, int b)
{
    a = uf_find(p, a);
    b = uf_find(p, b);
    if (a != b) {
        p[a < b ? b : a] = a < b ? a : b;
    }
}

/* a switch: (dim, rail, the line's node with coordinate 0 in dim) */
static int switch_of(const hxb_topo_t *t, int node, int dim, int rail)
{
    int c[HXB_DIMS], d;

    for (d = 0; d < HXB_DIMS; d++) {
        c[d] = t->nodes[node].coord[d];
    }
    c[dim] = 0;
    return (dim * t->rails + rail) * t->num_nodes + hxb_topo_node_id(t, c);
}

/* "switch y0 of line (2,*)": the line through the node with * in dim,
 * only the dimensions the grid has; no line when the grid is one line */
static const char *switch_name(const hxb_topo_t *t, int sw, char *buf, size_t len)
{
    int rep = sw % t->num_nodes, dr = sw / t->num_nodes;
    int dim = dr / t->rails, rail = dr % t->rails, d, n, dims = 0;

    for (d = 0; d < HXB_DIMS; d++) {
        dims += t->size[d] > 1;
    }
    n = snprintf(buf, len, "switch %c%d", dimname[dim], rail);
    if (dims > 1) {
        const char *sep = "";
        n += snprintf(buf + n, len - n, " of line (");
        for (d = 0; d < HXB_DIMS; d++) {
            if (t->size[d] <= 1) {
                continue;
            }
            if (d == dim) {
                n += snprintf(buf + n, len - n, "%s*", sep);
            } else {
                n += snprintf(buf + n, len - n, "%s%d", sep, t->nodes[rep].coord[d]);
            }
            sep = ",";
        }
        snprintf(buf + n, len - n, ")");
    }
    return buf;
}

/* "n2 eth1 (rail y0)", or "n2 y0" where the interface is named so */
static const char *rail_desc(const hxb_topo_t *t, int i, char *buf, size_t len)
{
    const hxb_topo_iface_t *f = &t->ifaces[i];
    char rn[8];

    snprintf(rn, sizeof(rn), "%c%d", dimname[f->dim], f->rail);
    if (strcmp(rn, f->ifname)) {
        snprintf(buf, len, "%s (rail %s)", f->ifname, rn);
    } else {
        snprintf(buf, len, "%s", f->ifname);
    }
    return buf;
}

static void problem(judge_t *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* one problem, one line */
static void problem(judge_t *j, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfprintf(j->out, fmt, ap);
    va_end(ap);
    fputc('\n', j->out);
    j->problems++;
}

/* the nodes of a list of interfaces, "n1, n5" (at most 8, then "..."); a
 * rail of node `self` as "its own x0" */
static void node_list(judge_t *j, const int *ifs, int n, int self, char *buf, size_t len)
{
    char d[64];
    int i, k = 0;

    buf[0] = '\0';
    for (i = 0; i < n && k < (int)len - 1; i++) {
        const hxb_topo_iface_t *f = &j->t->ifaces[ifs[i]];
        if (i == 8) {
            k += snprintf(buf + k, len - k, ", ... (%d in all)", n);
            break;
        }
        if (f->node == self) {
            k += snprintf(buf + k, len - k, "%sits own %s", i ? ", " : "",
                          rail_desc(j->t, ifs[i], d, sizeof(d)));
        } else {
            k += snprintf(buf + k, len - k, "%s%s", i ? ", " : "", j->t->nodes[f->node].name);
        }
    }
    if (n == 0) {
        snprintf(buf, len, "no one");
    }
}

/* members of segment root `root` but `except`, into out[] */
static int seg_members(judge_t *j, int root, int except, int *out)
{
    int i, n = 0;

    for (i = 0; i < j->nif; i++) {
        if (i != except && j->active[i] && uf_find(j->parent, i) == root) {
            out[n++] = i;
        }
    }
    return n;
}

/* the topology's rails on switch sw but `except`, into out[] */
static int sw_members(judge_t *j, int sw, int except, int *out)
{
    int i, n = 0;

    for (i = 0; i < j->nif; i++) {
        if (i != except && j->sw[i] == sw) {
            out[n++] = i;
        }
    }
    return n;
}

/* the topology's interface of (node, dim, rail), or -1: by the table
 * j->by_rail when there is one (hxb_topo_iface searches the whole list,
 * which costs seconds on thousands of nodes) */
static int iface_index(const judge_t *j, int node, int dim, int rail)
{
    const hxb_topo_iface_t *f;

    if (node < 0 || node >= j->t->num_nodes || dim < 0 || dim >= HXB_DIMS || rail < 0 ||
        rail >= j->t->rails) {
        return -1;
    }
    if (j->by_rail) {
        return j->by_rail[(node * HXB_DIMS + dim) * j->t->rails + rail];
    }
    f = hxb_topo_iface(j->t, node, dim, rail);
    return f ? (int)(f - j->t->ifaces) : -1;
}

static void mac_str(const uint8_t *m, char *buf)
{
    sprintf(buf, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

/* what each node says of its own rails, and what it heard */
static void take_reports(judge_t *j)
{
    const hxb_topo_t *t = j->t;
    char a[64], m1[18], m2[18];
    int n, k;

    for (n = 0; n < t->num_nodes; n++) {
        const cable_report_t *r = &j->reps[n];
        if (!r->have) {
            if (j->cluster) {
                problem(j, "%s: no report (%s): its rails are not checked", t->nodes[n].name,
                        r->err[0] ? r->err : "no answer");
            }
            continue;
        }
        for (k = 0; k < r->nifs; k++) {
            const cable_if_t *c = &r->ifs[k];
            int i = c->ti;
            const hxb_topo_iface_t *f = &t->ifaces[i];
            j->rif[i] = c;
            j->st[i] = !c->present ? ST_ABSENT : !c->up ? ST_DOWN : ST_UP;
            rail_desc(t, i, a, sizeof(a));
            if (!c->present) {
                problem(j, "%s: no interface %s, which the topology names as its rail %c%d",
                        t->nodes[n].name, f->ifname, dimname[f->dim], f->rail);
                continue;
            }
            if (memcmp(c->mac, f->mac, 6)) {
                mac_str(c->mac, m1);
                mac_str(f->mac, m2);
                problem(j, "%s %s: MAC %s, the topology says %s (a replaced NIC? the "
                        "relays ignore its HELLOs until the file says so)",
                        t->nodes[n].name, a, m1, m2);
            }
            if (!c->up) {
                problem(j, "%s %s: link down", t->nodes[n].name, a);
                continue;
            }
            j->active[i] = 1;
        }
    }
}

/* join what hears what into segments */
static void join_segments(judge_t *j)
{
    const hxb_topo_t *t = j->t;
    char a[64], m1[18], m2[18];
    int i, h;
    char *mac_said = calloc((size_t)j->nif + 1, 1);

    for (i = 0; i < j->nif; i++) {
        const cable_if_t *c = j->rif[i];
        if (!c || j->st[i] != ST_UP) {
            continue;
        }
        rail_desc(t, i, a, sizeof(a));
        for (h = 0; h < c->nheard; h++) {
            const cable_heard_t *x = &c->heard[h];
            int g = x->src >= 0 ? iface_index(j, x->src, x->dim, x->rail) : -1;
            if (x->bad_tag) {
                problem(j, "%s %s: frames claiming to be %s%s's rail %c%d have a wrong tag "
                        "(it has another cluster key, or they are forged)",
                        t->nodes[t->ifaces[i].node].name, a, x->src >= 0 ? "" : "node #",
                        x->src >= 0 ? t->nodes[x->src].name : "", dimname[x->dim], x->rail);
                if (x->src < 0) {
                    fprintf(j->out, "  (node number %u)\n", x->src_raw);
                }
                continue;
            }
            if (g < 0) {
                if (x->src >= 0) {
                    problem(j, "%s %s: hears %s say it sends on its rail %c%d, which the "
                            "topology does not give it", t->nodes[t->ifaces[i].node].name, a,
                            t->nodes[x->src].name, dimname[x->dim], x->rail);
                } else {
                    problem(j, "%s %s: hears node number %u (rail %c%d), which is not in the "
                            "topology (another cluster on this switch?)",
                            t->nodes[t->ifaces[i].node].name, a, x->src_raw,
                            dimname[x->dim], x->rail);
                }
                continue;
            }
            /* a sender that does not report for itself: its MAC from here */
            if (!j->rif[g] && memcmp(x->mac, t->ifaces[g].mac, 6) && mac_said &&
                !mac_said[g]) {
                mac_said[g] = 1;
                mac_str(x->mac, m1);
                mac_str(t->ifaces[g].mac, m2);
                problem(j, "%s %s: sends from MAC %s, the topology says %s",
                        t->nodes[t->ifaces[g].node].name, rail_desc(t, g, a, sizeof(a)),
                        m1, m2);
                rail_desc(t, i, a, sizeof(a));
            }
            j->hears[i]++;
            j->active[g] = 1;
            uf_union(j->parent, i, g);
        }
    }
    free(mac_said);
}

/* rails sorted by a key (a segment's root and a switch, or a switch) */
typedef struct keyed {
    long key;
    int  i;
} keyed_t;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed_t *x = a, *y = b;

    return x->key < y->key ? -1 : x->key > y->key ? 1 : x->i - y->i;
}

/* each segment's switch: the one most of its rails belong on (a tie:
 * ambiguous, e.g. two rails of a line of two that reach each other) */
static void name_segments(judge_t *j)
{
    keyed_t *v = malloc(((size_t)j->nif + 1) * sizeof(*v));
    int i, n = 0, a, b;

    for (i = 0; i < j->nsw; i++) {
        j->main_of[i] = -1;
    }
    for (i = 0; i < j->nif; i++) {
        j->comp_size[i] = 0;
        j->comp_ident[i] = -1;
        j->comp_amb[i] = 0;
    }
    if (v == NULL) {
        return;
    }
    for (i = 0; i < j->nif; i++) {
        if (j->active[i]) {
            v[n].key = (long)uf_find(j->parent, i) * j->nsw + j->sw[i];
            v[n++].i = i;
        }
    }
    qsort(v, n, sizeof(*v), keyed_cmp);
    /* a run of one root; within it, runs of one switch */
    for (a = 0; a < n; a = b) {
        int root = v[a].key / j->nsw, best = -1, bestc = 0, amb = 0, c, k;
        for (b = a; b < n && v[b].key / j->nsw == root; b++) {
        }
        for (k = a; k < b; k += c) {
            for (c = 1; k + c < b && v[k + c].key == v[k].key; c++) {
            }
            if (c > bestc) {
                best = v[k].key % j->nsw;
                bestc = c;
                amb = 0;
            } else if (c == bestc) {
                amb = 1;
            }
        }
        j->comp_size[root] = b - a;
        j->comp_ident[root] = best;
        j->comp_amb[root] = amb;
        if (!amb && (j->main_of[best] < 0 ||
                     j->comp_size[j->main_of[best]] < j->comp_size[root])) {
            j->main_of[best] = root;
        }
    }
    free(v);
}

static void judge_misplaced(judge_t *j)
{
    const hxb_topo_t *t = j->t;
    int *a = malloc(j->nif * sizeof(int)), *b = malloc(j->nif * sizeof(int));
    char s1[96], s2[96], l1[600], l2[600], d[64], d2[64], hint[160];
    int i, k;

    for (i = 0; i < j->nif; i++) {
        int root;
        if (!j->active[i]) {
            continue;
        }
        root = uf_find(j->parent, i);
        if (j->comp_size[root] < 2 || j->comp_amb[root] || j->comp_ident[root] == j->sw[i]) {
            continue;
        }
        j->misplaced[i] = 1;
    }
    for (i = 0; i < j->nif; i++) {
        int root, na, nb, node = t->ifaces[i].node;
        if (!j->misplaced[i]) {
            continue;
        }
        root = uf_find(j->parent, i);
        na = seg_members(j, root, i, a);
        nb = sw_members(j, j->sw[i], i, b);
        node_list(j, a, na, node, l1, sizeof(l1));
        node_list(j, b, nb, node, l2, sizeof(l2));
        hint[0] = '\0';
        for (k = 0; k < j->nif; k++) {
            int r2;
            if (k == i || t->ifaces[k].node != node || j->sw[k] != j->comp_ident[root]) {
                continue;
            }
            r2 = uf_find(j->parent, k);
            if (j->misplaced[k] && j->comp_ident[r2] == j->sw[i]) {
                snprintf(hint, sizeof(hint), "; swapped with %s?",
                         rail_desc(t, k, d2, sizeof(d2)));
            } else {
                snprintf(hint, sizeof(hint), " (where its %s belongs)",
                         rail_desc(t, k, d2, sizeof(d2)));
            }
        }
        problem(j, "%s: %s is cabled to %s (reaches %s) but the topology says %s (%s)%s",
                t->nodes[node].name, rail_desc(t, i, d, sizeof(d)),
                switch_name(t, j->comp_ident[root], s1, sizeof(s1)), l1,
                switch_name(t, j->sw[i], s2, sizeof(s2)), l2, hint);
    }
    /* segments that could be either of two switches */
    for (i = 0; i < j->nif; i++) {
        int n, m, p = 0;
        if (!j->active[i] || uf_find(j->parent, i) != i || j->comp_size[i] < 2 ||
            !j->comp_amb[i]) {
            continue;
        }
        n = seg_members(j, i, -1, a);
        l1[0] = '\0';
        for (m = 0; m < n; m++) {
            p += snprintf(l1 + p, sizeof(l1) - p, "%s%s %s (%s)", m ? ", " : "",
                          t->nodes[t->ifaces[a[m]].node].name, rail_desc(t, a[m], d, sizeof(d)),
                          switch_name(t, j->sw[a[m]], s1, sizeof(s1)));
            if (p >= (int)sizeof(l1)) {
                break;
            }
        }
        hint[0] = '\0';
        if (n == 2 && t->ifaces[a[0]].node != t->ifaces[a[1]].node) {
            /* A.p with B.q, and A.q with B.p: A's or B's p and q swapped */
            const hxb_topo_iface_t *p0 = &t->ifaces[a[0]], *p1 = &t->ifaces[a[1]];
            int q0 = iface_index(j, p0->node, p1->dim, p1->rail);
            int q1 = iface_index(j, p1->node, p0->dim, p0->rail);
            if (q0 >= 0 && q1 >= 0 && j->active[q0] && j->active[q1] &&
                uf_find(j->parent, q0) == uf_find(j->parent, q1)) {
                if (a[0] > q0) {
                    continue;   /* said with the other pair */
                }
                snprintf(hint, sizeof(hint), "; %s and %s swapped on %s or on %s?",
                         rail_desc(t, a[0], d, sizeof(d)), rail_desc(t, q0, d2, sizeof(d2)),
                         t->nodes[p0->node].name, t->nodes[p1->node].name);
            }
        }
        problem(j, "%s reach each other, but the topology puts them on different switches: "
                "one of these cables is on the wrong switch (cannot tell which: as many "
                "rails for each)%s", l1, hint);
    }
    free(a);
    free(b);
}

/* rails up but not on the switch they belong on, nor on any other */
static void judge_missing(judge_t *j)
{
    const hxb_topo_t *t = j->t;
    int *a = malloc(j->nif * sizeof(int)), *b = malloc(j->nif * sizeof(int));
    char s1[96], l1[600], l2[600], d[64], d2[64];
    int i, k;

    for (i = 0; i < j->nif; i++) {
        int node = t->ifaces[i].node, root, mainr, na, nb;
        if (j->misplaced[i]) {
            continue;
        }
        mainr = j->main_of[j->sw[i]];
        root = j->active[i] ? uf_find(j->parent, i) : -1;
        if (j->rif[i] && j->st[i] == ST_UP) {
            if (root == mainr && j->comp_size[root] > 1) {
                if (!j->hears[i] && j->cluster) {
                    problem(j, "%s %s: the others on %s hear it, it hears none of them "
                            "(its receive side?)", t->nodes[node].name,
                            rail_desc(t, i, d, sizeof(d)),
                            switch_name(t, j->sw[i], s1, sizeof(s1)));
                }
                continue;
            }
            if (j->comp_size[root] > 1) {
                if (!j->comp_amb[root] && mainr >= 0) {
                    /* a second segment of its switch: split in two */
                    na = seg_members(j, root, i, a);
                    node_list(j, a, na, -1, l1, sizeof(l1));
                    nb = seg_members(j, mainr, -1, b);
                    node_list(j, b, nb, -1, l2, sizeof(l2));
                    problem(j, "%s %s: on %s but reaches only %s, not %s: the switch is "
                            "split", t->nodes[node].name, rail_desc(t, i, d, sizeof(d)),
                            switch_name(t, j->sw[i], s1, sizeof(s1)), l1, l2);
                }
                continue;       /* else ambiguous: said above */
            }
            nb = sw_members(j, j->sw[i], i, b);
            if (nb == 0) {
                continue;       /* alone on its switch by the topology */
            }
            node_list(j, b, nb, -1, l2, sizeof(l2));
            if (mainr >= 0 && j->comp_size[mainr] > 1) {
                na = seg_members(j, mainr, -1, a);
                node_list(j, a, na, -1, l1, sizeof(l1));
                problem(j, "%s %s: link up, but it hears no one and no one hears it on %s "
                        "(where %s reach each other): its cable is not on that switch, or "
                        "the switch port is down", t->nodes[node].name,
                        rail_desc(t, i, d, sizeof(d)),
                        switch_name(t, j->sw[i], s1, sizeof(s1)), l1);
            } else if (j->cluster) {
                problem(j, "%s %s: link up, but it hears no one and no one hears it on %s "
                        "(%s)", t->nodes[node].name, rail_desc(t, i, d, sizeof(d)),
                        switch_name(t, j->sw[i], s1, sizeof(s1)), l2);
            } else {
                problem(j, "%s %s: hears no one on %s (%s): its cable, or no hxb-relayd "
                        "runs on them (check every node at once: --remote)",
                        t->nodes[node].name, rail_desc(t, i, d, sizeof(d)),
                        switch_name(t, j->sw[i], s1, sizeof(s1)), l2);
            }
            continue;
        }
        /* a rail of a node that did not report: said below by the
         * rails of its switch that did (what they do not hear) */
    }
    /* one node's view: the neighbours its rails do not hear */
    for (k = 0; k < j->nif && !j->cluster; k++) {
        int rk, nb, m;
        if (!j->rif[k] || j->st[k] != ST_UP || j->misplaced[k]) {
            continue;
        }
        rk = uf_find(j->parent, k);
        if (j->comp_size[rk] < 2) {
            continue;   /* said as "hears no one" */
        }
        nb = sw_members(j, j->sw[k], k, b);
        for (m = 0; m < nb; m++) {
            i = b[m];
            if (j->rif[i] || j->misplaced[i] || (j->active[i] && uf_find(j->parent, i) == rk)) {
                continue;
            }
            problem(j, "%s %s: does not hear %s %s (its link or cable, or no hxb-relayd "
                    "runs there)", t->nodes[t->ifaces[k].node].name,
                    rail_desc(t, k, d2, sizeof(d2)), t->nodes[t->ifaces[i].node].name,
                    rail_desc(t, i, d, sizeof(d)));
        }
    }
    free(a);
    free(b);
}

/* MTU and speed alike on every switch (of the rails that are where they
 * belong and reported them) */
static void judge_alike(judge_t *j, int speed)
{
    const hxb_topo_t *t = j->t;
    keyed_t *v = malloc(((size_t)j->nif + 1) * sizeof(*v));
    char s1[96], d[64], line[1200];
    int i, n = 0, a, b;

    if (v == NULL) {
        return;
    }
#define VAL(x) (speed ? j->rif[x]->speed : (long)j->rif[x]->mtu)
    for (i = 0; i < j->nif; i++) {
        if (j->rif[i] && j->st[i] == ST_UP && !j->misplaced[i] && VAL(i) > 0) {
            v[n].key = j->sw[i];
            v[n++].i = i;
        }
    }
    qsort(v, n, sizeof(*v), keyed_cmp);
    for (a = 0; a < n; a = b) {
        int k, q, best = a, bestc = 0, tie = 0, p;
        for (b = a + 1; b < n && v[b].key == v[a].key; b++) {
        }
        for (k = a + 1; k < b && VAL(v[k].i) == VAL(v[a].i); k++) {
        }
        if (k == b) {
            continue;   /* alike (or alone) */
        }
        for (k = a; k < b; k++) {
            int c = 0;
            for (q = a; q < b; q++) {
                c += VAL(v[q].i) == VAL(v[k].i);
            }
            if (c > bestc) {
                bestc = c;
                best = k;
                tie = 0;
            } else if (c == bestc && VAL(v[k].i) != VAL(v[best].i)) {
                tie = 1;
            }
        }
        switch_name(t, v[a].key, s1, sizeof(s1));
        p = snprintf(line, sizeof(line), "%s:", s1);
        for (k = a; k < b && p < (int)sizeof(line); k++) {
            int m = v[k].i;
            if (!tie && VAL(m) == VAL(v[best].i)) {
                continue;
            }
            p += snprintf(line + p, sizeof(line) - p, "%s %s %s %s %ld%s",
                          p > (int)strlen(s1) + 1 ? "," : "", t->nodes[t->ifaces[m].node].name,
                          rail_desc(t, m, d, sizeof(d)), speed ? "speed" : "MTU", VAL(m),
                          speed ? " Mbit/s" : "");
        }
        if (!tie && p < (int)sizeof(line)) {
            snprintf(line + p, sizeof(line) - p, ", the others %ld%s", VAL(v[best].i),
                     speed ? " Mbit/s" : "");
        }
        problem(j, "%s", line);
    }
#undef VAL
    free(v);
}

/* rails up, reported, with neighbours, and not one of them heard a thing */
static int heard_nothing(judge_t *j)
{
    int i, up = 0;

    for (i = 0; i < j->nif; i++) {
        if (j->hears[i]) {
            return 0;
        }
        up += j->rif[i] && j->st[i] == ST_UP;
    }
    return up > 1 || (up == 1 && !j->cluster);
}

static int heard_bad(judge_t *j)
{
    int i, h;

    for (i = 0; i < j->nif; i++) {
        for (h = 0; j->rif[i] && h < j->rif[i]->nheard; h++) {
            if (j->rif[i]->heard[h].bad_tag) {
                return 1;
            }
        }
    }
    return 0;
}

int cable_judge(const hxb_topo_t *t, const cable_report_t *reps, int cluster, FILE *out)
{
    judge_t j;
    int i, nrails = 0, nrep = 0;

    memset(&j, 0, sizeof(j));
    j.t = t;
    j.reps = reps;
    j.out = out;
    j.cluster = cluster;
    j.nif = t->num_ifaces;
    j.nsw = HXB_DIMS * t->rails * t->num_nodes;
    j.st = calloc(j.nif + 1, sizeof(int));
    j.rif = calloc(j.nif + 1, sizeof(*j.rif));
    j.parent = calloc(j.nif + 1, sizeof(int));
    j.active = calloc(j.nif + 1, sizeof(int));
    j.hears = calloc(j.nif + 1, sizeof(int));
    j.sw = calloc(j.nif + 1, sizeof(int));
    j.comp_size = calloc(j.nif + 1, sizeof(int));
    j.comp_ident = calloc(j.nif + 1, sizeof(int));
    j.comp_amb = calloc(j.nif + 1, sizeof(int));
    j.misplaced = calloc(j.nif + 1, sizeof(int));
    j.main_of = calloc(j.nsw + 1, sizeof(int));
    if (!j.st || !j.rif || !j.parent || !j.active || !j.hears || !j.sw || !j.comp_size ||
        !j.comp_ident || !j.comp_amb || !j.misplaced || !j.main_of) {
        problem(&j, "hxb-cablecheck: out of memory");
        goto out;
    }
    j.by_rail = malloc(((size_t)t->num_nodes * HXB_DIMS * t->rails + 1) * sizeof(int));
    if (j.by_rail) {
        for (i = 0; i < t->num_nodes * HXB_DIMS * t->rails; i++) {
            j.by_rail[i] = -1;
        }
        for (i = 0; i < j.nif; i++) {
            const hxb_topo_iface_t *f = &t->ifaces[i];
            j.by_rail[(f->node * HXB_DIMS + f->dim) * t->rails + f->rail] = i;
        }
    }
    for (i = 0; i < j.nif; i++) {
        j.parent[i] = i;
        j.sw[i] = switch_of(t, t->ifaces[i].node, t->ifaces[i].dim, t->ifaces[i].rail);
    }
    take_reports(&j);
    join_segments(&j);
    name_segments(&j);
    judge_misplaced(&j);
    if (heard_nothing(&j)) {
        /* one line, not one per rail: no one sends anything (or only
         * frames with wrong tags, each said above) */
        if (!heard_bad(&j)) {
            problem(&j, "no rail heard a HELLO or a probe: %s", cluster ?
                    "no hxb-relayd runs, and the nodes did not probe (--passive)" :
                    "no hxb-relayd runs on the neighbours? (check every node at once: "
                    "--remote)");
        }
    } else {
        judge_missing(&j);
    }
    judge_alike(&j, 0);
    judge_alike(&j, 1);
    for (i = 0; i < j.nif; i++) {
        nrails += j.rif[i] != NULL;
    }
    for (i = 0; i < t->num_nodes; i++) {
        nrep += reps[i].have;
    }
    if (j.problems == 0) {
        if (cluster) {
            fprintf(out, "all %d rails as the topology says (%d nodes: every link up, each "
                    "rail on its switch with all its neighbours, MTU and speed alike on "
                    "every switch)\n", nrails, nrep);
        } else {
            int who = 0;
            while (who < t->num_nodes - 1 && !reps[who].have) {
                who++;
            }
            fprintf(out, "all %d rails as the topology says (%s: every link up, each rail "
                    "hears its neighbours and no one else)\n", nrails,
                    nrep == 1 ? t->nodes[who].name : "these nodes");
        }
    } else {
        fprintf(out, "%d problem%s found\n", j.problems, j.problems == 1 ? "" : "s");
    }
out:
    free(j.st);
    free(j.rif);
    free(j.parent);
    free(j.active);
    free(j.hears);
    free(j.sw);
    free(j.comp_size);
    free(j.comp_ident);
    free(j.comp_amb);
    free(j.misplaced);
    free(j.main_of);
    free(j.by_rail);
    return j.problems;
}
