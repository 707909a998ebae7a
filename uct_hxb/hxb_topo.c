/* Topology file parser: every error names the file, the line and the problem. */
#include "hxb_topo.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int topo_err(char *err, size_t len, const char *path, int line,
                    const char *fmt, ...)
{
    va_list ap;
    int n = line ? snprintf(err, len, "%s:%d: ", path, line)
                 : snprintf(err, len, "%s: ", path);

    if (n < 0 || (size_t)n >= len) {
        return -1;
    }
    va_start(ap, fmt);
    vsnprintf(err + n, len - n, fmt, ap);
    va_end(ap);
    return -1;
}

static int parse_uint(const char *s, long max, long *out)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end || end == s || v < 0 || v > max) {
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_mac(const char *s, uint8_t mac[6])
{
    unsigned m[6];
    char tail;
    int i;

    /* only hex digits and colons: sscanf's %x would also take a sign or 0x */
    if (s[strspn(s, "0123456789abcdefABCDEF:")] != '\0') {
        return -1;
    }
    if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &m[0], &m[1], &m[2], &m[3],
               &m[4], &m[5], &tail) != 6) {
        return -1;
    }
    for (i = 0; i < 6; i++) {
        mac[i] = (uint8_t)m[i];
    }
    return 0;
}

static int parse_dim(const char *s)
{
    if (!strcmp(s, "x")) return 0;
    if (!strcmp(s, "y")) return 1;
    if (!strcmp(s, "z")) return 2;
    return -1;
}

int hxb_topo_node_id(const hxb_topo_t *t, const int c[HXB_DIMS])
{
    int d;

    for (d = 0; d < HXB_DIMS; d++) {
        if (c[d] < 0 || c[d] >= t->size[d]) {
            return -1;
        }
    }
    return c[0] + t->size[0] * (c[1] + t->size[1] * c[2]);
}

int hxb_topo_find_node(const hxb_topo_t *t, const char *name)
{
    int i;

    for (i = 0; i < t->num_nodes; i++) {
        if (t->nodes[i].defined && !strcmp(t->nodes[i].name, name)) {
            return i;
        }
    }
    return -1;
}

const hxb_topo_iface_t *hxb_topo_iface(const hxb_topo_t *t, int node, int dim,
                                       int rail)
{
    int i;

    for (i = 0; i < t->num_ifaces; i++) {
        const hxb_topo_iface_t *f = &t->ifaces[i];
        if (f->node == node && f->dim == dim && f->rail == rail) {
            return f;
        }
    }
    return NULL;
}

const hxb_topo_iface_t *hxb_topo_iface_by_name(const hxb_topo_t *t, int node,
                                               const char *ifname)
{
    int i;

    for (i = 0; i < t->num_ifaces; i++) {
        if (t->ifaces[i].node == node && !strcmp(t->ifaces[i].ifname, ifname)) {
            return &t->ifaces[i];
        }
    }
    return NULL;
}

void hxb_topo_free(hxb_topo_t *t)
{
    free(t->nodes);
    free(t->ifaces);
    memset(t, 0, sizeof(*t));
}

int hxb_topo_load(const char *path, hxb_topo_t *t, char *err, size_t errlen)
{
    char buf[512], *tok[10], *save, *p;
    int lineno = 0, grid_line = 0, ntok, cap = 0, i, d;
    FILE *f;

    memset(t, 0, sizeof(*t));
    f = fopen(path, "r");
    if (!f) {
        return topo_err(err, errlen, path, 0, "cannot open: %s", strerror(errno));
    }
    while (fgets(buf, sizeof(buf), f)) {
        lineno++;
        if (!strchr(buf, '\n') && !feof(f)) {
            topo_err(err, errlen, path, lineno, "line too long");
            goto fail;
        }
        if ((p = strchr(buf, '#'))) {
            *p = '\0';
        }
        ntok = 0;
        for (p = strtok_r(buf, " \t\r\n", &save); p && ntok < 10;
             p = strtok_r(NULL, " \t\r\n", &save)) {
            tok[ntok++] = p;
        }
        if (ntok == 0) {
            continue;
        }
        if (!strcmp(tok[0], "grid")) {
            long v;
            if (ntok != 4) {
                topo_err(err, errlen, path, lineno, "'grid' needs X Y Z");
                goto fail;
            }
            if (t->nodes) {
                topo_err(err, errlen, path, lineno, "'grid' given twice");
                goto fail;
            }
            for (d = 0; d < HXB_DIMS; d++) {
                if (parse_uint(tok[1 + d], HXB_MAX_NODES, &v) || v < 1) {
                    topo_err(err, errlen, path, lineno,
                             "grid size '%s' is not a number in 1..%d",
                             tok[1 + d], HXB_MAX_NODES);
                    goto fail;
                }
                t->size[d] = (int)v;
            }
            if ((long long)t->size[0] * t->size[1] * t->size[2] > HXB_MAX_NODES) {
                topo_err(err, errlen, path, lineno, "grid has more than %d nodes",
                         HXB_MAX_NODES);
                goto fail;
            }
            t->num_nodes = t->size[0] * t->size[1] * t->size[2];
            grid_line = lineno;
            t->nodes = calloc(t->num_nodes, sizeof(*t->nodes));
            if (!t->nodes) {
                topo_err(err, errlen, path, lineno, "out of memory");
                goto fail;
            }
        } else if (!strcmp(tok[0], "rails")) {
            long v;
            if (ntok != 2 || parse_uint(tok[1], 16, &v) || v < 1) {
                topo_err(err, errlen, path, lineno, "'rails' needs a number in 1..16");
                goto fail;
            }
            if (t->rails) {
                topo_err(err, errlen, path, lineno, "'rails' given twice");
                goto fail;
            }
            t->rails = (int)v;
        } else if (!strcmp(tok[0], "node")) {
            int c[HXB_DIMS], id;
            long v;
            if (!t->nodes) {
                topo_err(err, errlen, path, lineno, "'node' before 'grid'");
                goto fail;
            }
            if (ntok != 5) {
                topo_err(err, errlen, path, lineno, "'node' needs NAME X Y Z");
                goto fail;
            }
            for (d = 0; d < HXB_DIMS; d++) {
                if (parse_uint(tok[2 + d], HXB_MAX_NODES, &v)) {
                    topo_err(err, errlen, path, lineno, "bad coordinate '%s'",
                             tok[2 + d]);
                    goto fail;
                }
                c[d] = (int)v;
            }
            id = hxb_topo_node_id(t, c);
            if (id < 0) {
                topo_err(err, errlen, path, lineno,
                         "node %s at (%d,%d,%d) is outside the %dx%dx%d grid",
                         tok[1], c[0], c[1], c[2], t->size[0], t->size[1],
                         t->size[2]);
                goto fail;
            }
            if (t->nodes[id].defined) {
                topo_err(err, errlen, path, lineno,
                         "node %s has the coordinates of node %s", tok[1],
                         t->nodes[id].name);
                goto fail;
            }
            if (hxb_topo_find_node(t, tok[1]) >= 0) {
                topo_err(err, errlen, path, lineno, "node %s defined twice", tok[1]);
                goto fail;
            }
            if (strlen(tok[1]) >= sizeof(t->nodes[id].name)) {
                topo_err(err, errlen, path, lineno, "node name too long");
                goto fail;
            }
            strcpy(t->nodes[id].name, tok[1]);
            for (d = 0; d < HXB_DIMS; d++) {
                t->nodes[id].coord[d] = (uint16_t)c[d];
            }
            t->nodes[id].defined = 1;
        } else if (!strcmp(tok[0], "iface")) {
            hxb_topo_iface_t fi;
            struct in_addr a;
            char *slash;
            long v;
            int node;

            memset(&fi, 0, sizeof(fi));
            if (!t->rails) {     /* rail numbers are checked against it */
                topo_err(err, errlen, path, lineno, "'iface' before 'rails'");
                goto fail;
            }
            if (ntok != 7) {
                topo_err(err, errlen, path, lineno,
                         "'iface' needs NODE DIM RAIL IFNAME MAC IPV4/PREFIX");
                goto fail;
            }
            node = t->nodes ? hxb_topo_find_node(t, tok[1]) : -1;
            if (node < 0) {
                topo_err(err, errlen, path, lineno,
                         "iface of unknown node '%s' (define it with 'node' first)",
                         tok[1]);
                goto fail;
            }
            fi.node = (uint16_t)node;
            d = parse_dim(tok[2]);
            if (d < 0) {
                topo_err(err, errlen, path, lineno,
                         "dimension '%s' is not x, y or z", tok[2]);
                goto fail;
            }
            fi.dim = (uint8_t)d;
            if (t->size[d] < 2) {
                topo_err(err, errlen, path, lineno,
                         "interface on dimension %s, but the grid has size 1 there",
                         tok[2]);
                goto fail;
            }
            if (parse_uint(tok[3], 255, &v) || v >= t->rails) {
                topo_err(err, errlen, path, lineno,
                         "rail '%s' is not in 0..%d", tok[3], t->rails - 1);
                goto fail;
            }
            fi.rail = (uint8_t)v;
            if (strlen(tok[4]) >= sizeof(fi.ifname)) {
                topo_err(err, errlen, path, lineno, "interface name too long");
                goto fail;
            }
            strcpy(fi.ifname, tok[4]);
            if (parse_mac(tok[5], fi.mac)) {
                topo_err(err, errlen, path, lineno, "bad MAC address '%s'", tok[5]);
                goto fail;
            }
            slash = strchr(tok[6], '/');
            if (!slash || parse_uint(slash + 1, 32, &v)) {
                topo_err(err, errlen, path, lineno,
                         "address '%s' is not IPV4/PREFIX", tok[6]);
                goto fail;
            }
            *slash = '\0';
            if (inet_pton(AF_INET, tok[6], &a) != 1) {
                topo_err(err, errlen, path, lineno, "bad IPv4 address '%s'", tok[6]);
                goto fail;
            }
            fi.ip = a.s_addr;
            fi.prefix = (uint8_t)v;
            if (hxb_topo_iface(t, node, fi.dim, fi.rail)) {
                topo_err(err, errlen, path, lineno,
                         "node %s has two interfaces on %s rail %d", tok[1],
                         tok[2], fi.rail);
                goto fail;
            }
            if (hxb_topo_iface_by_name(t, node, fi.ifname)) {
                topo_err(err, errlen, path, lineno,
                         "node %s lists interface %s twice", tok[1], fi.ifname);
                goto fail;
            }
            if (t->num_ifaces == cap) {
                hxb_topo_iface_t *n;
                cap = cap ? 2 * cap : 64;
                n = realloc(t->ifaces, cap * sizeof(*n));
                if (!n) {
                    topo_err(err, errlen, path, lineno, "out of memory");
                    goto fail;
                }
                t->ifaces = n;
            }
            t->ifaces[t->num_ifaces++] = fi;
        } else {
            topo_err(err, errlen, path, lineno, "unknown keyword '%s'", tok[0]);
            goto fail;
        }
    }
    if (!t->nodes) {
        topo_err(err, errlen, path, 0, "no 'grid' line");   /* no line is at fault */
        goto fail;
    }
    if (!t->rails) {
        topo_err(err, errlen, path, 0, "no 'rails' line");
        goto fail;
    }
    for (i = 0; i < t->num_nodes; i++) {
        if (!t->nodes[i].defined) {
            int c0 = i % t->size[0], c1 = (i / t->size[0]) % t->size[1],
                c2 = i / (t->size[0] * t->size[1]);
            topo_err(err, errlen, path, grid_line, "no node at (%d,%d,%d) of the %dx%dx%d grid",
                     c0, c1, c2, t->size[0], t->size[1], t->size[2]);
            goto fail;
        }
    }
    fclose(f);
    return 0;

fail:
    fclose(f);
    hxb_topo_free(t);
    return -1;
}
