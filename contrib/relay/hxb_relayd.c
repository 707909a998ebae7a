/* hxb-relayd: makes this node a relay of the hyper-crossbar.
 *
 * It attaches the tc program (hxb_relay_bpf.c) to the ingress of every rail
 * the topology file lists for this node and keeps the program's port map
 * right: for each (dimension, coordinate, arrival rail) the rail to send on
 * and the neighbour's MAC there (every coordinate of each of our lines,
 * also those no route fixes: the program detours through them). A rail counts as live when its link is up
 * and the neighbour on it is alive: every node's daemon says HELLO on each
 * rail every interval, and a neighbour that was heard and then missed
 * --dead intervals is dead until it is heard again. Never heard counts as
 * alive (a node without a daemon still receives, it just does not relay).
 * The forwarding itself never touches this process. While it runs, a mark
 * file (hxb_relay_mark.h) tells processes on this node that relayed peers
 * are reachable.
 *
 *   hxb-relayd [--topo FILE] [--node NAME] [--interval MS] [--dead N]
 *              [--key FILE] [--stats FILE] [--rt-prio N] [--verbose]
 * HELLOs carry a MAC under the cluster key (--key, default
 * /etc/hxb/cluster.key, a file only root may read) and a counter: a forged
 * or replayed HELLO neither keeps a dead neighbour alive nor brings one
 * back. Without the file HELLOs are not authenticated (said at start).
 * It runs SCHED_RR (--rt-prio, like BFD and corosync daemons): its HELLOs
 * are its neighbours' only proof that it lives, and on a node whose cores
 * are all busy (MPI ranks polling) a normal-priority daemon missed --dead
 * intervals, its neighbours dropped its rails, and relayed frames were
 * lost for seconds. It wakes once per interval for microseconds.
 * Runs until SIGTERM or SIGINT, then detaches the program. */
#include "hxb_auth.h"
#include "hxb_relay_hello.h"
#include "hxb_relay_sock.h"
#include "hxb_relay_key.h"
#include "hxb_relay_maps.h"
#include "hxb_relay_mark.h"
#include "hxb_route.h"
#include "hxb_topo.h"
#include "hxb_wire.h"

#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

extern const unsigned char hxb_relay_obj[], hxb_relay_obj_end[];

_Static_assert(HXB_RELAY_VERSION == HXB_VERSION,
               "the tc program must forward the wire version hxb speaks");
_Static_assert(HXB_RELAY_UDP_PORT == HXB_RELAY_PORT,
               "processes must send relayed datagrams where the tc program takes them");

/* HELLOs of another line heard on a rail, said once each (a miscabled
 * rail, here or at the sender: hxb-cablecheck tells which) */
#define RELAY_STRAY_MAX 16

typedef struct relay_if {
    const hxb_topo_iface_t *ti;
    int      ifindex, fd, up;
    uint8_t  mac[6];
    int      hook_created, attached;
    uint32_t stray[RELAY_STRAY_MAX];   /* node << 16 | dim << 8 | rail */
    int      nstray;
} relay_if_t;

/* HELLO authentication: the cluster key, and what was refused */
static struct {
    int      on;
    uint64_t key[2];
    uint32_t epoch, seq;     /* ours: start time (ms), HELLOs sent */
    unsigned long rejected;  /* HELLOs with a wrong tag, or replayed */
    unsigned long other_line; /* HELLOs of another line (miscabling) */
} g_hello;


static const char dimname[] = "xyz";
static const hxb_topo_t *g_topo;   /* for messages */
static volatile sig_atomic_t g_stop;
static int g_verbose;

static void on_signal(int sig) { g_stop = sig; }

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void logmsg(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "hxb-relayd: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static int link_state(int sock, const char *ifname, uint8_t mac[6])
{
    struct ifreq ifr;

    memset(&ifr, 0, sizeof(ifr));
    snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
    if (ioctl(sock, SIOCGIFFLAGS, &ifr) < 0) {
        return 0;
    }
    if (!((ifr.ifr_flags & IFF_UP) && (ifr.ifr_flags & IFF_RUNNING))) {
        return 0;
    }
    if (mac && ioctl(sock, SIOCGIFHWADDR, &ifr) == 0) {
        memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
    }
    return 1;
}

static void send_hello(relay_if_t *rif, int node, unsigned interval_ms)
{
    struct __attribute__((packed)) {
        hxb_hdr_t       h;
        hxb_hello_ext_t x;
    } f;
    struct sockaddr_ll sll;

    memset(&f, 0, sizeof(f));
    f.h.version  = HXB_VERSION;
    f.h.kind     = HXB_K_HELLO;
    f.h.hops     = 1;
    f.h.len      = sizeof(f.x);
    f.h.src_node = node;
    f.h.dst_node = HXB_NODE_NONE;
    f.x.dim      = rif->ti->dim;
    f.x.rail     = rif->ti->rail;
    f.x.interval_ms = interval_ms;
    if (g_hello.on) {
        f.h.src_epoch = g_hello.epoch;
        f.h.seq = ++g_hello.seq;
        f.h.tag = hxb_relay_hello_tag(g_hello.key, &f.h, &f.x);
    }
    memset(&sll, 0, sizeof(sll));
    sll.sll_family   = AF_PACKET;
    sll.sll_protocol = htons(HXB_ETHERTYPE);
    sll.sll_ifindex  = rif->ifindex;
    sll.sll_halen    = 6;
    memset(sll.sll_addr, 0xff, 6);
    sendto(rif->fd, &f, sizeof(f), MSG_DONTWAIT, (struct sockaddr *)&sll,
           sizeof(sll));   /* best effort: a rail that is down says nothing */
}

/* say once per (rail, sender node, its dim and rail) that a HELLO of
 * another line arrived here; what it was is for hxb-cablecheck to judge */
static void stray_hello(relay_if_t *rif, const hxb_hdr_t *h, const hxb_hello_ext_t *x)
{
    const hxb_topo_t *t = g_topo;
    char rn[8], me[40];
    uint32_t id = (uint32_t)h->src_node << 16 | (uint32_t)x->dim << 8 | x->rail;
    int i;

    for (i = 0; i < rif->nstray; i++) {
        if (rif->stray[i] == id) {
            return;
        }
    }
    if (rif->nstray == RELAY_STRAY_MAX) {
        return;
    }
    rif->stray[rif->nstray++] = id;
    /* "rail x0", or "rail eth2 (x0)" where the interface is named otherwise */
    snprintf(rn, sizeof(rn), "%c%d", dimname[rif->ti->dim], rif->ti->rail);
    snprintf(me, sizeof(me), strcmp(rn, rif->ti->ifname) ? "%s (%s)" : "%s",
             rif->ti->ifname, rn);
    if (h->src_node < t->num_nodes && x->dim < HXB_DIMS) {
        logmsg("rail %s hears the HELLOs node %s sends on its rail %c%d, which the "
               "topology puts on another switch: a cable on the wrong switch? "
               "(hxb-cablecheck tells which)", me, t->nodes[h->src_node].name,
               dimname[x->dim], x->rail);
    } else {
        logmsg("rail %s hears HELLOs of node number %u, rail %c%u, not in the topology "
               "(another cluster on this switch?)", me, h->src_node,
               x->dim < HXB_DIMS ? dimname[x->dim] : '?', x->rail);
    }
}

static void recv_hellos(relay_if_t *rif, relay_nbr_t *nb, int nnb, double t)
{
    uint8_t buf[256];
    struct sockaddr_ll from;
    socklen_t fl;
    const hxb_hello_ext_t *x = (const void *)(buf + sizeof(hxb_hdr_t));
    relay_nbr_t *n;
    ssize_t len;
    int errs = 0, v;

    for (;;) {
        fl  = sizeof(from);
        len = recvfrom(rif->fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
        if (len < 0) {
            /* a link that went down leaves ENETDOWN pending: reading it
             * clears it (else poll() reports POLLERR for ever) */
            if (errno == EAGAIN || errno == EWOULDBLOCK || ++errs > 4) {
                return;
            }
            continue;
        }
        if (from.sll_ifindex != rif->ifindex) {
            continue;   /* not this rail's (bind() makes it never happen) */
        }
        /* the checks: hxb_relay_hello.c */
        v = hxb_relay_hello_check(buf, (size_t)len, rif->ti->dim, rif->ti->rail,
                                  from.sll_addr, from.sll_halen, nb, nnb,
                                  g_hello.on ? g_hello.key : NULL, &n);
        if (v == HXB_HELLO_IGNORED) {
            continue;
        }
        if (v == HXB_HELLO_OTHER_LINE) {
            /* never used for routing, but not silently: a rail cabled to
             * the wrong switch (or a neighbour's) shows up here */
            g_hello.other_line++;
            stray_hello(rif, (const hxb_hdr_t *)buf, x);
            continue;
        }
        if (v == HXB_HELLO_OTHER_MAC) {
            if (g_verbose) {
                logmsg("HELLO for node %d on %c%d from another MAC: ignored",
                       n->node, dimname[n->dim], n->rail);
            }
            continue;
        }
        if (v != HXB_HELLO_TAKEN) {
            g_hello.rejected++;
            if (g_verbose) {
                logmsg("HELLO for node %d on %c%d %s: ignored", n->node,
                       dimname[n->dim], n->rail,
                       v == HXB_HELLO_BAD_TAG ? "with a wrong tag" : "replayed");
            }
            continue;
        }
        if (!n->alive && n->heard && g_verbose) {
            logmsg("neighbour %d on %c%d is back", n->node, dimname[n->dim], n->rail);
        }
        n->heard = t;
        n->period = x->interval_ms * 1e-3;
        n->alive = 1;
    }
}

/* The UDP ports processes bind (port 0: the kernel's ephemeral range),
 * the only ones a relayed datagram may go to on its last hop */
static void local_port_range(__u16 *lo, __u16 *hi)
{
    unsigned a = 32768, b = 60999;
    FILE *f = fopen("/proc/sys/net/ipv4/ip_local_port_range", "r");

    if (f) {
        if (fscanf(f, "%u %u", &a, &b) != 2 || a < 1024 || b > 65535 || a > b) {
            a = 32768;
            b = 60999;
        }
        fclose(f);
    }
    *lo = a;
    *hi = b;
}

/* Hold the relay port on every address, so that no one else receives what
 * UDP rails send to it here; the tc program takes those datagrams first,
 * this socket sees only the ones it passes up (for this node: none). */
static int relay_port_socket(void)
{
    struct sockaddr_in sa;
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

    if (fd < 0) {
        return -errno;
    }
    memset(&sa, 0, sizeof(sa));
    sa.sin_family = AF_INET;
    sa.sin_port = htons(HXB_RELAY_UDP_PORT);
    if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
        int e = -errno;
        close(fd);
        return e;
    }
    return fd;
}

/* the live port for (dim, coord) when arriving on rail `rail`: the same
 * rail number if live, else the next live one */
static int pick_port(const hxb_topo_t *t, relay_if_t *ifs, int nifs,
                     relay_nbr_t *nb, int nnb, int me, int dim, int coord,
                     int rail, struct hxb_relay_port *port)
{
    int c[HXB_DIMS], k, i, d, node;
    relay_nbr_t *n;

    for (d = 0; d < HXB_DIMS; d++) {
        c[d] = t->nodes[me].coord[d];
    }
    c[dim] = coord;
    node = hxb_topo_node_id(t, c);
    for (k = 0; k < t->rails; k++) {
        const hxb_topo_iface_t *nti;
        int r = (rail + k) % t->rails;
        for (i = 0; i < nifs; i++) {
            if (ifs[i].ti->dim == dim && ifs[i].ti->rail == r && ifs[i].up) {
                break;
            }
        }
        n = (i < nifs) ? hxb_relay_find_nbr(nb, nnb, node, dim, r) : NULL;
        if (n && n->alive) {
            memset(port, 0, sizeof(*port));
            port->ifindex = ifs[i].ifindex;
            memcpy(port->dmac, n->mac, 6);
            memcpy(port->smac, ifs[i].mac, 6);
            nti = hxb_topo_iface(t, node, dim, r);
            port->dip = nti ? nti->ip : 0;
            port->sip = ifs[i].ti->ip;
            return 0;
        }
    }
    return -1;
}

static int write_stats(const char *path, const char *name, int stats_fd,
                       relay_nbr_t *nb, int nnb, const hxb_topo_t *t,
                       char *last, size_t lastlen)
{
    static const char *names[HXB_RELAY_NCOUNTERS] = {
        "forwarded", "local", "hop_limit", "no_route", "deflected", "detour",
        "udp", "refused"};
    int ncpu = libbpf_num_possible_cpus(), i, j, n = 0;
    char buf[8192], tmp[4200];
    unsigned long long sum;
    __u64 vals[ncpu > 0 ? ncpu : 1];
    FILE *f;

    n += snprintf(buf + n, sizeof(buf) - n, "node %s", name);
    for (i = 0; i < HXB_RELAY_NCOUNTERS; i++) {
        __u32 key = i;
        sum = 0;
        if (bpf_map_lookup_elem(stats_fd, &key, vals) == 0) {
            for (j = 0; j < ncpu; j++) {
                sum += vals[j];
            }
        }
        n += snprintf(buf + n, sizeof(buf) - n, " %s=%llu", names[i], sum);
    }
    n += snprintf(buf + n, sizeof(buf) - n, " hello_rejected=%lu hello_other_line=%lu\n",
                  g_hello.rejected, g_hello.other_line);
    for (i = 0; i < nnb && n < (int)sizeof(buf) - 100; i++) {
        n += snprintf(buf + n, sizeof(buf) - n, "neighbour %c%d %s %s\n",
                      dimname[nb[i].dim], nb[i].rail, t->nodes[nb[i].node].name,
                      !nb[i].heard ? "unknown" : nb[i].alive ? "alive" : "dead");
    }
    if (path == NULL || !strcmp(buf, last)) {
        return 0;
    }
    snprintf(last, lastlen, "%s", buf);
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    f = fopen(tmp, "w");
    if (f == NULL) {
        return -errno;
    }
    fputs(buf, f);
    fclose(f);
    return rename(tmp, path) ? -errno : 0;
}

/* SCHED_RR at prio unless already real-time (a service manager set it);
 * without the privilege the daemon still works, and says what it risks */
static void relay_set_prio(unsigned prio)
{
    struct sched_param sp = {.sched_priority = (int)prio};
    int pol = sched_getscheduler(0);

    if (prio == 0 || pol == SCHED_FIFO || pol == SCHED_RR) {
        return;
    }
    if (sched_setscheduler(0, SCHED_RR | SCHED_RESET_ON_FORK, &sp) < 0) {
        logmsg("cannot run SCHED_RR (--rt-prio %u): %s; on a node whose cores "
               "are all busy its HELLOs may be late and neighbours see its rails "
               "die and come back", prio, strerror(errno));
    }
}

static void usage(FILE *f, const char *argv0)
{
    fprintf(f,
            "usage: %s [--topo FILE] [--node NAME] [--interval MS] [--dead N]\n"
            "          [--key FILE] [--stats FILE] [--rt-prio N] [--verbose]\n"
            "Relay hxb frames of other nodes across the hyper-crossbar in the kernel (a tc\n"
            "program on every rail), with HELLOs to the neighbours; run as root on every node.\n"
            "  --topo      topology file (default $HXB_TOPO)\n"
            "  --node      this node's name in it (default $HXB_NODE, else the host name)\n"
            "  --interval  HELLO and link-check period in ms (default 100)\n"
            "  --dead      a neighbour missing this many HELLOs is dead (default 3)\n"
            "  --key       cluster key authenticating HELLOs, the same file on every\n"
            "              node, root's alone (default " HXB_CLUSTER_KEY "; if that\n"
            "              does not exist, HELLOs are not authenticated)\n"
            "  --stats     keep counters and neighbour states in this file\n"
            "  --rt-prio   run SCHED_RR at this priority, so that HELLOs leave on time\n"
            "              when every core is busy (default 10; 0: leave the policy\n"
            "              as started; needs CAP_SYS_NICE, else a warning)\n"
            "  --verbose   also log ignored HELLOs and neighbours coming back\n"
            "  -h, --help  this text\n"
            "Exit status: 0 on SIGTERM/SIGINT, 1 on an error, 2 for a bad option.\n",
            argv0);
}

/* a whole decimal number in [lo, hi], or a message naming the option */
static int relay_opt_uint(const char *name, const char *arg, unsigned lo, unsigned hi,
                          unsigned *out)
{
    char *end;
    unsigned long v;

    errno = 0;
    v = strtoul(arg, &end, 10);
    if (!*arg || *end || errno || *arg == '-' || v < lo || v > hi) {
        fprintf(stderr, "hxb-relayd: %s: a whole number from %u to %u, not '%s'\n", name,
                lo, hi, arg);
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"topo", 1, 0, 't'}, {"node", 1, 0, 'n'}, {"interval", 1, 0, 'i'},
        {"dead", 1, 0, 'd'}, {"stats", 1, 0, 's'}, {"verbose", 0, 0, 'v'},
        {"key", 1, 0, 'k'}, {"rt-prio", 1, 0, 'r'},
        {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    const char *topo_path = getenv("HXB_TOPO"), *node_name = getenv("HXB_NODE");
    const char *stats_path = NULL, *key_path = NULL;
    unsigned interval_ms = 100, dead = 3, rt_prio = 10;
    char err[512], host[256], last[8192] = "";
    struct bpf_object *obj = NULL;
    struct bpf_program *prog;
    int cfg_fd, in_fd, ports_fd, stats_fd, prog_fd, me, i, j, c, opt, rc = 1;
    int nifs = 0, nnb = 0, sock = -1, marked = 0, udp_fd = -1;
    relay_if_t ifs[HXB_RELAY_MAX_IFS];
    relay_nbr_t *nb = NULL;
    struct pollfd pfd[HXB_RELAY_MAX_IFS];
    struct hxb_relay_cfg cfg;
    hxb_topo_t t;
    double next_tick = 0;
    LIBBPF_OPTS(bpf_object_open_opts, oopts, .object_name = "hxb_relay");

    while ((opt = getopt_long(argc, argv, "t:n:i:d:s:k:r:vh", opts, NULL)) != -1) {
        switch (opt) {
        case 't': topo_path = optarg; break;
        case 'n': node_name = optarg; break;
        case 'i':
            if (relay_opt_uint("--interval", optarg, 1, 60000, &interval_ms) < 0) {
                return 2;
            }
            break;
        case 'd':
            if (relay_opt_uint("--dead", optarg, 1, 1000, &dead) < 0) {
                return 2;
            }
            break;
        case 's': stats_path = optarg; break;
        case 'k': key_path = optarg; break;
        case 'r':
            if (relay_opt_uint("--rt-prio", optarg, 0, 99, &rt_prio) < 0) {
                return 2;
            }
            break;
        case 'v': g_verbose = 1; break;
        case 'h': usage(stdout, "hxb-relayd"); return 0;
        default:  usage(stderr, "hxb-relayd"); return 2;
        }
    }
    if (!topo_path || !*topo_path) {
        usage(stderr, "hxb-relayd");
        return 2;
    }
    if (hxb_topo_load(topo_path, &t, err, sizeof(err)) < 0) {
        logmsg("%s", err);
        return 1;
    }
    g_topo = &t;
    relay_set_prio(rt_prio);
    c = hxb_relay_key_load(key_path ? key_path : HXB_CLUSTER_KEY, key_path != NULL,
                           g_hello.key, err, sizeof(err));
    if (c < 0) {
        logmsg("%s", err);
        hxb_topo_free(&t);
        return 1;
    }
    g_hello.on = (c == 0);
    if (c > 0) {
        logmsg("no cluster key (%s): HELLOs are not authenticated, anyone who "
               "can send raw frames on a rail can fake a neighbour's state",
               HXB_CLUSTER_KEY);
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        g_hello.epoch = (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
    }
    /* one daemon per namespace: a second one would replace the first's tc
     * program and, when either exits, detach the other's */
    c = hxb_relay_mark_lock();
    if (c < 0) {
        logmsg(c == -EWOULDBLOCK ? "another hxb-relayd runs in this network namespace"
                                 : "cannot take the daemon lock in %s: %s",
               HXB_RELAY_MARK_DIR, strerror(-c));
        hxb_topo_free(&t);
        return 1;
    }
    /* before anything is attached: a signal must always reach the cleanup */
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGHUP, on_signal);
    signal(SIGQUIT, on_signal);
    signal(SIGPIPE, SIG_IGN);
    if (!node_name || !*node_name) {
        gethostname(host, sizeof(host));
        host[sizeof(host) - 1] = '\0';
        node_name = host;
    }
    me = hxb_topo_find_node(&t, node_name);
    if (me < 0) {
        logmsg("node '%s' is not in %s (use --node)", node_name, topo_path);
        goto out;
    }
    sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    udp_fd = relay_port_socket();
    if (udp_fd < 0) {
        logmsg("UDP port %d (where UDP rails send relayed datagrams): %s", HXB_RELAY_UDP_PORT,
               strerror(-udp_fd));
        goto out;
    }

    /* our rails, and the neighbours on each */
    nb = calloc((size_t)t.num_ifaces, sizeof(*nb));
    for (i = 0; i < t.num_ifaces && nb; i++) {
        const hxb_topo_iface_t *ti = &t.ifaces[i];
        if (ti->node == me) {
            if (nifs == HXB_RELAY_MAX_IFS) {
                logmsg("more than %d rails", HXB_RELAY_MAX_IFS);
                goto out;
            }
            memset(&ifs[nifs], 0, sizeof(ifs[nifs]));
            ifs[nifs].ti = ti;
            ifs[nifs].ifindex = if_nametoindex(ti->ifname);
            if (!ifs[nifs].ifindex) {
                logmsg("rail %s of node %s (%s): %s", ti->ifname, node_name,
                       topo_path, strerror(errno));
                goto out;
            }
            memcpy(ifs[nifs].mac, ti->mac, 6);
            ifs[nifs].up = link_state(sock, ti->ifname, ifs[nifs].mac);
            ifs[nifs].fd = hxb_relay_hello_socket(ifs[nifs].ifindex, 0);
            if (ifs[nifs].fd < 0) {
                logmsg("packet socket on %s: %s (needs CAP_NET_RAW)", ti->ifname,
                       strerror(-ifs[nifs].fd));
                goto out;
            }
            nifs++;
        } else if (hxb_route_on_line(&t, me, ti->node, ti->dim)) {
            nb[nnb].node = ti->node;
            nb[nnb].dim  = ti->dim;
            nb[nnb].rail = ti->rail;
            nb[nnb].alive = 1;
            memcpy(nb[nnb].mac, ti->mac, 6);
            nnb++;
        }
    }
    if (!nb || nifs == 0) {
        logmsg("node %s has no rails in %s", node_name, topo_path);
        goto out;
    }

    /* load the program and fill the maps that do not change */
    libbpf_set_strict_mode(LIBBPF_STRICT_ALL);
    obj = bpf_object__open_mem(hxb_relay_obj, hxb_relay_obj_end - hxb_relay_obj,
                               &oopts);
    if (!obj || bpf_object__load(obj)) {
        logmsg("loading the tc program failed: %s (needs CAP_BPF and "
               "CAP_NET_ADMIN)", strerror(errno));
        goto out;
    }
    prog     = bpf_object__find_program_by_name(obj, "hxb_relay");
    prog_fd  = bpf_program__fd(prog);
    cfg_fd   = bpf_object__find_map_fd_by_name(obj, "hxb_cfg");
    in_fd    = bpf_object__find_map_fd_by_name(obj, "hxb_in");
    ports_fd = bpf_object__find_map_fd_by_name(obj, "hxb_ports");
    stats_fd = bpf_object__find_map_fd_by_name(obj, "hxb_stats");
    memset(&cfg, 0, sizeof(cfg));
    cfg.node = me;
    cfg.num_nodes = t.num_nodes;
    for (i = 0; i < HXB_DIMS; i++) {
        cfg.size[i]  = t.size[i];
        cfg.coord[i] = t.nodes[me].coord[i];
    }
    local_port_range(&cfg.port_min, &cfg.port_max);
    c = 0;
    if (bpf_map_update_elem(cfg_fd, &c, &cfg, BPF_ANY)) {
        logmsg("map update: %s", strerror(errno));
        goto out;
    }
    for (i = 0; i < nifs; i++) {
        struct hxb_relay_in in = {ifs[i].ti->dim, ifs[i].ti->rail};
        __u32 k = ifs[i].ifindex;
        bpf_map_update_elem(in_fd, &k, &in, BPF_ANY);
    }

    /* attach: from now on frames for other nodes are forwarded */
    for (i = 0; i < nifs; i++) {
        LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifs[i].ifindex,
                    .attach_point = BPF_TC_INGRESS);
        LIBBPF_OPTS(bpf_tc_opts, topts, .handle = 0x88b5, .priority = 1,
                    .prog_fd = prog_fd, .flags = BPF_TC_F_REPLACE);
        int e = bpf_tc_hook_create(&hook);
        if (e && e != -EEXIST) {
            logmsg("tc hook on %s: %s", ifs[i].ti->ifname, strerror(-e));
            goto out;
        }
        ifs[i].hook_created = (e == 0);
        e = bpf_tc_attach(&hook, &topts);
        if (e) {
            logmsg("tc attach on %s: %s", ifs[i].ti->ifname, strerror(-e));
            goto out;
        }
        ifs[i].attached = 1;
    }
    if (g_stop) {
        goto out;           /* told to stop while attaching */
    }
    /* processes here count relayed peers as reachable only with this mark */
    c = hxb_relay_mark_write(node_name);
    if (c < 0) {
        logmsg("cannot write the relay mark in %s: %s", HXB_RELAY_MARK_DIR,
               strerror(-c));
        goto out;
    }
    marked = 1;
    if (g_verbose) {
        logmsg("node %s (%d,%d,%d): relaying on %d rails, %d neighbours", node_name,
               cfg.coord[0], cfg.coord[1], cfg.coord[2], nifs, nnb);
    }

    while (!g_stop) {
        double tnow = now_s();
        if (tnow >= next_tick) {
            next_tick = tnow + interval_ms * 1e-3;
            for (i = 0; i < nifs; i++) {
                int up = link_state(sock, ifs[i].ti->ifname, ifs[i].mac);
                if (up != ifs[i].up && g_verbose) {
                    logmsg("rail %s %s", ifs[i].ti->ifname, up ? "up" : "down");
                }
                ifs[i].up = up;
                if (up) {
                    send_hello(&ifs[i], me, interval_ms);
                }
            }
            for (i = 0; i < nnb; i++) {
                /* by the neighbour's own HELLO period, if longer than ours */
                double period = nb[i].period > interval_ms * 1e-3 ? nb[i].period
                                                                  : interval_ms * 1e-3;
                if (nb[i].heard && nb[i].alive &&
                    tnow - nb[i].heard > dead * period + 0.05) {
                    nb[i].alive = 0;
                    if (g_verbose) {
                        logmsg("neighbour %s on %c%d is dead", t.nodes[nb[i].node].name,
                               dimname[nb[i].dim], nb[i].rail);
                    }
                }
            }
            /* every (dimension, coordinate, arrival rail) we may forward to */
            for (j = 0; j < HXB_DIMS; j++) {
                for (c = 0; c < t.size[j]; c++) {
                    int r;
                    if (c == t.nodes[me].coord[j]) {
                        continue;
                    }
                    for (r = 0; r < t.rails; r++) {
                        struct hxb_relay_key key = {j, r, c};
                        struct hxb_relay_port port, old;
                        if (pick_port(&t, ifs, nifs, nb, nnb, me, j, c, r, &port)) {
                            bpf_map_delete_elem(ports_fd, &key);
                        } else if (bpf_map_lookup_elem(ports_fd, &key, &old) ||
                                   memcmp(&old, &port, sizeof(port))) {
                            bpf_map_update_elem(ports_fd, &key, &port, BPF_ANY);
                        }
                    }
                }
            }
            write_stats(stats_path, node_name, stats_fd, nb, nnb, &t, last,
                        sizeof(last));
        }
        for (i = 0; i < nifs; i++) {
            pfd[i].fd = ifs[i].fd;
            pfd[i].events = POLLIN;
        }
        c = (int)((next_tick - now_s()) * 1000) + 1;
        if (poll(pfd, nifs, c > 0 ? c : 0) > 0) {
            tnow = now_s();
            for (i = 0; i < nifs; i++) {
                if (pfd[i].revents & (POLLIN | POLLERR)) {
                    recv_hellos(&ifs[i], nb, nnb, tnow);
                }
            }
        }
    }
    last[0] = '\0';
    write_stats(stats_path, node_name, stats_fd, nb, nnb, &t, last, sizeof(last));
    rc = 0;

out:
    if (marked) {
        hxb_relay_mark_remove();
    }
    for (i = 0; i < nifs; i++) {
        LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifs[i].ifindex,
                    .attach_point = BPF_TC_INGRESS);
        LIBBPF_OPTS(bpf_tc_opts, topts, .handle = 0x88b5, .priority = 1);
        if (ifs[i].attached) {
            bpf_tc_detach(&hook, &topts);
        }
        if (ifs[i].hook_created) {
            bpf_tc_hook_destroy(&hook);
        }
        if (ifs[i].fd >= 0) {
            close(ifs[i].fd);
        }
    }
    bpf_object__close(obj);
    if (sock >= 0) {
        close(sock);
    }
    if (udp_fd >= 0) {
        close(udp_fd);
    }
    free(nb);
    hxb_topo_free(&t);
    return rc;
}
