/* A node's report in text (hxb_cable_report.h): what a node sends back to
 * the hxb-cablecheck that asked it (--remote). One fact per line:
 *   hxb-cablecheck-report 1 NODE keyed|unkeyed
 *   if IFNAME present 0|1 up 0|1 mtu N speed N mac MAC
 *   heard IFNAME NODE|#NUM RAIL MAC ok|badtag
 *   end */
#include "hxb_cable_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char dimname[] = "xyz";

const char *cable_rail_name(int dim, int rail, char *buf, size_t len)
{
    snprintf(buf, len, "%c%d", dim >= 0 && dim < HXB_DIMS ? dimname[dim] : '?', rail);
    return buf;
}

static void mac_str(const uint8_t *m, char *buf)
{
    sprintf(buf, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

static int mac_parse(const char *s, uint8_t *m)
{
    unsigned v[6];
    int i;

    if (sscanf(s, "%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6) {
        return -1;
    }
    for (i = 0; i < 6; i++) {
        if (v[i] > 255) {
            return -1;
        }
        m[i] = v[i];
    }
    return 0;
}

int cable_heard_add(cable_if_t *c, const cable_heard_t *h)
{
    if (c->nheard == c->cap) {
        int cap = c->cap ? c->cap * 2 : 16;
        cable_heard_t *n;
        if (c->cap >= CABLE_MAX_HEARD) {
            return -1;
        }
        n = realloc(c->heard, (size_t)cap * sizeof(*n));
        if (n == NULL) {
            return -1;
        }
        c->heard = n;
        c->cap = cap;
    }
    c->heard[c->nheard++] = *h;
    return 0;
}

void cable_report_free(cable_report_t *r)
{
    int i;

    for (i = 0; i < r->nifs; i++) {
        free(r->ifs[i].heard);
        r->ifs[i].heard = NULL;
        r->ifs[i].nheard = r->ifs[i].cap = 0;
    }
}

void cable_report_print(const hxb_topo_t *t, const cable_report_t *r, FILE *f)
{
    char mac[18], rn[8];
    int i, j;

    fprintf(f, "hxb-cablecheck-report 1 %s %s\n", t->nodes[r->node].name,
            r->keyed ? "keyed" : "unkeyed");
    for (i = 0; i < r->nifs; i++) {
        const cable_if_t *c = &r->ifs[i];
        const char *ifname = t->ifaces[c->ti].ifname;
        mac_str(c->mac, mac);
        fprintf(f, "if %s present %d up %d mtu %d speed %ld mac %s\n", ifname,
                c->present, c->up, c->mtu, c->speed, mac);
        for (j = 0; j < c->nheard; j++) {
            const cable_heard_t *h = &c->heard[j];
            mac_str(h->mac, mac);
            if (h->src >= 0) {
                fprintf(f, "heard %s %s", ifname, t->nodes[h->src].name);
            } else {
                fprintf(f, "heard %s #%u", ifname, h->src_raw);
            }
            fprintf(f, " %s %s %s\n", cable_rail_name(h->dim, h->rail, rn, sizeof(rn)),
                    mac, h->bad_tag ? "badtag" : "ok");
        }
    }
    fprintf(f, "end\n");
}

/* a node by name, by binary search over the topology's names sorted once
 * (hxb_topo_find_node searches them all: a cluster's reports name nodes
 * some 10^5 times). The sorted order is kept for one topology (its address,
 * node table and size); should it be another's, a miss falls back to the
 * search of all, so a name is never missed. */
static const hxb_topo_t *g_sorted_for;
static const hxb_topo_node_t *g_sorted_nodes;
static int g_sorted_n, *g_sorted;

static const hxb_topo_t *g_cmp_t;
static int name_cmp(const void *a, const void *b)
{
    return strcmp(g_cmp_t->nodes[*(const int *)a].name, g_cmp_t->nodes[*(const int *)b].name);
}

static int find_node(const hxb_topo_t *t, const char *name)
{
    int lo = 0, hi = t->num_nodes - 1, i;

    if (g_sorted_for != t || g_sorted_nodes != t->nodes || g_sorted_n != t->num_nodes) {
        free(g_sorted);
        g_sorted = malloc((size_t)t->num_nodes * sizeof(int));
        if (g_sorted == NULL) {
            g_sorted_for = NULL;
            return hxb_topo_find_node(t, name);
        }
        for (i = 0; i < t->num_nodes; i++) {
            g_sorted[i] = i;
        }
        g_cmp_t = t;
        qsort(g_sorted, t->num_nodes, sizeof(int), name_cmp);
        g_sorted_for = t;
        g_sorted_nodes = t->nodes;
        g_sorted_n = t->num_nodes;
    }
    while (lo <= hi) {
        int mid = (lo + hi) / 2, c = strcmp(name, t->nodes[g_sorted[mid]].name);
        if (c == 0) {
            return g_sorted[mid];
        }
        if (c < 0) {
            hi = mid - 1;
        } else {
            lo = mid + 1;
        }
    }
    return hxb_topo_find_node(t, name);
}

static cable_if_t *find_if(const hxb_topo_t *t, cable_report_t *r, const char *ifname)
{
    int i;

    for (i = 0; i < r->nifs; i++) {
        if (!strcmp(t->ifaces[r->ifs[i].ti].ifname, ifname)) {
            return &r->ifs[i];
        }
    }
    return NULL;
}

int cable_report_parse(const hxb_topo_t *t, int node, const char *text,
                       cable_report_t *r)
{
    const char *p = strstr(text, "hxb-cablecheck-report 1 ");
    char line[512], a[80], b[80], c[16], d[32], e[16], name[80], kw[16];
    int i, n, lineno = 0;

    memset(r, 0, sizeof(*r));
    r->node = node;
    /* the rails the topology gives the node, in its order */
    for (i = 0; i < t->num_ifaces && r->nifs < CABLE_MAX_IFS; i++) {
        if (t->ifaces[i].node == node) {
            r->ifs[r->nifs].ti = i;
            r->ifs[r->nifs].mtu = -1;
            r->ifs[r->nifs].speed = -1;
            r->nifs++;
        }
    }
    if (p == NULL || (p != text && p[-1] != '\n')) {
        snprintf(r->err, sizeof(r->err), "no report in its output");
        return -1;
    }
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        cable_if_t *ci;
        if (len >= sizeof(line)) {
            len = sizeof(line) - 1;
        }
        memcpy(line, p, len);
        line[len] = '\0';
        p = nl ? nl + 1 : p + strlen(p);
        lineno++;
        if (lineno == 1) {
            if (sscanf(line, "hxb-cablecheck-report 1 %79s %15s", name, kw) != 2 ||
                strcmp(name, t->nodes[node].name)) {
                snprintf(r->err, sizeof(r->err), "its report is of another node (%.160s)", line);
                return -1;
            }
            r->keyed = !strcmp(kw, "keyed");
            continue;
        }
        if (!strcmp(line, "end")) {
            r->have = 1;
            return 0;
        }
        if (!strncmp(line, "if ", 3)) {
            int pr, up, mtu;
            long speed;
            if (sscanf(line, "if %79s present %d up %d mtu %d speed %ld mac %31s", a, &pr,
                       &up, &mtu, &speed, d) != 6 || !(ci = find_if(t, r, a))) {
                goto bad;
            }
            ci->present = pr;
            ci->up = up;
            ci->mtu = mtu;
            ci->speed = speed;
            if (mac_parse(d, ci->mac)) {
                goto bad;
            }
        } else if (!strncmp(line, "heard ", 6)) {
            cable_heard_t hh, *h = &hh;
            char dc;
            int rail;
            if (sscanf(line, "heard %79s %79s %15s %31s %15s", a, b, c, d, e) != 5 ||
                !(ci = find_if(t, r, a)) || sscanf(c, "%c%d", &dc, &rail) != 2 ||
                !strchr("xyz", dc)) {
                goto bad;
            }
            memset(h, 0, sizeof(*h));
            if (b[0] == '#') {
                h->src = -1;
                h->src_raw = strtoul(b + 1, NULL, 10);
            } else {
                h->src = find_node(t, b);
                if (h->src < 0) {
                    goto bad;
                }
                h->src_raw = h->src;
            }
            h->dim = strchr("xyz", dc) - "xyz";
            h->rail = rail;
            h->bad_tag = !strcmp(e, "badtag");
            if (mac_parse(d, h->mac)) {
                goto bad;
            }
            if (cable_heard_add(ci, h) < 0) {
                snprintf(r->err, sizeof(r->err), "more than %d senders on its %s, or out of "
                         "memory", CABLE_MAX_HEARD, a);
                return -1;
            }
        } else {
            goto bad;
        }
    }
    snprintf(r->err, sizeof(r->err), "its report ends early");
    return -1;
bad:
    n = snprintf(r->err, sizeof(r->err), "bad line in its report: ");
    snprintf(r->err + n, sizeof(r->err) - n, "%.200s", line);
    return -1;
}
