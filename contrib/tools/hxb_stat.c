/* hxb-stat: a running process's hxb counters, per rail and per peer, read
 * from the file each interface keeps in shared memory
 * (uct_hxb/hxb_statfile.h), and state dumps on request. */
#include "hxb_statfile.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *usage_text =
    "Usage: hxb-stat [OPTIONS]          list running hxb processes (yours;\n"
    "                                   everyone's as root)\n"
    "       hxb-stat [OPTIONS] PID|FILE one process's counters: global, per rail,\n"
    "                                   per peer (each of its hxb interfaces)\n"
    "       hxb-stat --dump PID|FILE    ask it for a state dump (peers, windows,\n"
    "                                   queues, rails) and print it\n"
    "Options:\n"
    "  -w, --watch SECS   repeat every SECS seconds, with rates since the last\n"
    "  -c, --count N      stop after N reports (with --watch; default: until ^C)\n"
    "  -j, --json         one JSON object per report\n"
    "  -a, --all          every counter, zeros too (default: those not 0)\n"
    "  -d, --dump         state dump (no signal: the process's next counter\n"
    "                     update writes it; waits up to 5 s)\n"
    "      --dir DIR      where the files are (default " HXB_STAT_DIR ", or\n"
    "                     $HXB_STAT_DIR)\n"
    "  -h, --help         this text\n"
    "A process publishes its counters unless UCX_HXB_STAT=n; they are rewritten\n"
    "at most every UCX_HXB_STAT_PERIOD (100 ms). Files are readable by their\n"
    "owner (and root) only.\n";

static struct {
    int         json, all, dump;
    double      watch;
    long        count;
    const char *dir;
} opt = {.count = -1};

typedef struct {
    char **paths;
    int    n;
    long   pid;         /* only this pid's (-1: all) */
} found_t;

static void found_cb(const char *path, void *arg)
{
    found_t *f = arg;
    const char *base = strrchr(path, '/');
    unsigned uid, pid, proc;

    base = base ? base + 1 : path;
    if (sscanf(base, HXB_STAT_PREFIX "%u.%u.%u", &uid, &pid, &proc) != 3 ||
        (f->pid >= 0 && pid != (unsigned long)f->pid)) {
        return;
    }
    f->paths = realloc(f->paths, (f->n + 1) * sizeof(*f->paths));
    if (!f->paths) {
        fprintf(stderr, "hxb-stat: out of memory\n");
        exit(1);
    }
    f->paths[f->n++] = strdup(path);
}

static double wall_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t counter(const hxb_stat_snap_t *s, const char *name)
{
    unsigned i;

    for (i = 0; i < s->hdr.ncounters; i++) {
        if (!strcmp(s->counters[i].name, name)) {
            return s->counters[i].value;
        }
    }
    return 0;
}

static int list(void)
{
    long uid = geteuid() == 0 ? -1 : (long)geteuid();
    found_t f = {.pid = -1};
    int i, n;

    n = hxb_stat_list(opt.dir, uid, found_cb, &f);
    if (n < 0) {
        fprintf(stderr, "hxb-stat: %s: %s\n", opt.dir ? opt.dir : HXB_STAT_DIR,
                strerror(-n));
        return 1;
    }
    if (opt.json) {
        printf("[");
    } else {
        printf("%-8s %-6s %-12s %-10s %-5s %5s %5s %8s %12s %12s %10s\n", "PID",
               "UID", "HOST", "NODE.PROC", "MODE", "RAILS", "PEERS", "UP_S",
               "TX_FRAMES", "RX_FRAMES", "RETX");
    }
    for (i = 0; i < f.n; i++) {
        hxb_stat_snap_t s;
        char err[512];

        if (hxb_stat_read(f.paths[i], &s, err, sizeof(err)) < 0) {
            if (!opt.json) {
                fprintf(stderr, "hxb-stat: %s\n", err);
            }
            continue;
        }
        if (opt.json) {
            printf("%s{\"pid\":%u,\"uid\":%u,\"host\":\"%s\",\"node\":%u,\"proc\":%u,"
                   "\"mode\":\"%s\",\"rails\":%u,\"peers\":%u,\"file\":\"%s\"}",
                   i ? "," : "", s.hdr.pid, s.hdr.uid, s.hdr.node_name, s.hdr.node,
                   s.hdr.proc, s.hdr.mode, s.hdr.nrails, s.hdr.npeers_all, f.paths[i]);
        } else {
            char np[16];

            snprintf(np, sizeof(np), "%u.%u", s.hdr.node, s.hdr.proc);
            printf("%-8u %-6u %-12.12s %-10s %-5s %5u %5u %8.1f %12" PRIu64 " %12"
                   PRIu64 " %10" PRIu64 "\n", s.hdr.pid, s.hdr.uid, s.hdr.node_name,
                   np, s.hdr.mode, s.hdr.nrails, s.hdr.npeers_all,
                   wall_now() - s.hdr.started, counter(&s, "tx_frames"),
                   counter(&s, "rx_frames"), counter(&s, "retransmits"));
        }
        hxb_stat_snap_free(&s);
        free(f.paths[i]);
    }
    if (opt.json) {
        printf("]\n");
    } else if (!f.n) {
        printf("(no running hxb process%s)\n", uid < 0 ? "" : " of yours");
    }
    free(f.paths);
    return 0;
}

/* the previous report of one file, for rates */
typedef struct {
    hxb_stat_snap_t s;
    int             have;
} prev_t;

static const hxb_stat_peer_t *prev_peer(const prev_t *pv, const hxb_stat_peer_t *p)
{
    unsigned i;

    for (i = 0; pv->have && i < pv->s.hdr.npeers; i++) {
        if (pv->s.peers[i].node == p->node && pv->s.peers[i].proc == p->proc) {
            return &pv->s.peers[i];
        }
    }
    return NULL;
}

static double rate(uint64_t now, uint64_t before, double dt)
{
    return dt > 0 && now >= before ? (now - before) / dt : 0;
}

static void print_text(const char *path, const hxb_stat_snap_t *s, const prev_t *pv,
                       double dt)
{
    const hxb_stat_hdr_t *h = &s->hdr;
    unsigned i, n = 0;

    printf("pid %u on %s: hxb node %u proc %u epoch 0x%08x, %s rails; up %.1f s, "
           "updated %.2f s ago (%" PRIu64 " updates)\n", h->pid, h->node_name,
           h->node, h->proc, h->epoch, h->mode, wall_now() - h->started,
           wall_now() - h->updated, h->updates);
    printf("counters:");
    for (i = 0; i < h->ncounters; i++) {
        if (opt.all || s->counters[i].value) {
            printf("%s %s=%" PRIu64, (++n % 6) ? "" : "\n ", s->counters[i].name,
                   s->counters[i].value);
        }
    }
    printf("\n%-10s %-4s %-4s %3s %4s %7s %5s %6s %12s %14s %12s %14s %7s %6s %6s",
           "RAIL", "KIND", "LINK", "DIM", "RAIL", "MBIT/S", "INFL", "WINDOW",
           "TX_FRAMES", "TX_BYTES", "RX_FRAMES", "RX_BYTES", "TX_AGAIN", "TX_ERR",
           "RXDROP");
    printf(dt > 0 ? " %9s %9s\n" : "\n", "TX_MB/S", "RX_MB/S");
    for (i = 0; i < h->nrails; i++) {
        const hxb_stat_rail_t *r = &s->rails[i];

        printf("%-10s %-4s %-4s %3u %4u %7.0f %5u %6.1f %12" PRIu64 " %14" PRIu64
               " %12" PRIu64 " %14" PRIu64 " %7" PRIu64 " %6" PRIu64 " %6" PRIu64,
               r->name, r->kind, r->up ? "up" : "DOWN", r->dim, r->railno,
               r->speed * 8e-6, r->inflight, r->window, r->stats.tx_frames,
               r->stats.tx_bytes, r->stats.rx_frames, r->stats.rx_bytes,
               r->stats.tx_again, r->stats.tx_errors, r->stats.rx_ring_drops);
        if (dt > 0 && i < pv->s.hdr.nrails) {
            printf(" %9.2f %9.2f", rate(r->stats.tx_bytes, pv->s.rails[i].stats.tx_bytes,
                                        dt) * 1e-6,
                   rate(r->stats.rx_bytes, pv->s.rails[i].stats.rx_bytes, dt) * 1e-6);
        }
        printf("\n");
    }
    printf("%-11s %-10s %-7s %6s %7s %5s %5s %4s %9s %9s %12s %12s %8s %7s",
           "PEER", "EPOCH", "STATE", "RAILS", "SUSPECT", "INFL", "UNACK", "OPS",
           "SRTT_US", "RTO_US", "TX_FRAMES", "RX_FRAMES", "RETX", "IDLE_S");
    printf(dt > 0 ? " %9s %9s %7s\n" : "\n", "TX_MB/S", "RX_MB/S", "RETX/S");
    for (i = 0; i < h->npeers; i++) {
        const hxb_stat_peer_t *p = &s->peers[i], *q = dt > 0 ? prev_peer(pv, p) : NULL;
        char id[16];

        snprintf(id, sizeof(id), "%u.%u", p->node, p->proc);
        printf("%-11s 0x%08x %-7s %#6x %#7x %5u %5u %4u %9.1f %9.1f %12" PRIu64
               " %12" PRIu64 " %8" PRIu64 " %7.2f", id, p->epoch,
               p->failed ? "FAILED" : p->busy ? "busy" : p->active ? "active" : "idle",
               p->rail_mask, p->suspect, p->inflight, p->unacked, p->ops_queued,
               p->srtt * 1e6, p->rto * 1e6, p->stats.tx_frames, p->stats.rx_frames,
               p->stats.retransmits, p->idle);
        if (dt > 0) {
            printf(" %9.2f %9.2f %7.1f",
                   q ? rate(p->stats.tx_bytes, q->stats.tx_bytes, dt) * 1e-6 : 0,
                   q ? rate(p->stats.rx_bytes, q->stats.rx_bytes, dt) * 1e-6 : 0,
                   q ? rate(p->stats.retransmits, q->stats.retransmits, dt) : 0);
        }
        printf("\n");
    }
    if (h->npeers < h->npeers_all) {
        printf("(%u more peers not shown)\n", h->npeers_all - h->npeers);
    }
}

static void print_json(const char *path, const hxb_stat_snap_t *s)
{
    const hxb_stat_hdr_t *h = &s->hdr;
    unsigned i;

    printf("{\"file\":\"%s\",\"pid\":%u,\"uid\":%u,\"host\":\"%s\",\"node\":%u,"
           "\"proc\":%u,\"epoch\":%u,\"mode\":\"%s\",\"started\":%.3f,\"updated\":%.3f,"
           "\"now\":%.3f,\"updates\":%" PRIu64 ",\"counters\":{", path, h->pid, h->uid,
           h->node_name, h->node, h->proc, h->epoch, h->mode, h->started, h->updated,
           wall_now(), h->updates);
    for (i = 0; i < h->ncounters; i++) {
        printf("%s\"%s\":%" PRIu64, i ? "," : "", s->counters[i].name,
               s->counters[i].value);
    }
    printf("},\"rails\":[");
    for (i = 0; i < h->nrails; i++) {
        const hxb_stat_rail_t *r = &s->rails[i];

        printf("%s{\"name\":\"%s\",\"kind\":\"%s\",\"up\":%u,\"dim\":%u,\"rail\":%u,"
               "\"speed\":%.0f,\"inflight\":%u,\"window\":%.1f,\"tx_frames\":%" PRIu64
               ",\"tx_bytes\":%" PRIu64 ",\"rx_frames\":%" PRIu64 ",\"rx_bytes\":%" PRIu64
               ",\"tx_again\":%" PRIu64 ",\"tx_errors\":%" PRIu64 ",\"rx_ring_drops\":%"
               PRIu64 ",\"tx_gso\":%" PRIu64 ",\"rx_gro\":%" PRIu64 ",\"rx_foreign\":%" PRIu64 "}",
               i ? "," : "",
               r->name, r->kind, r->up, r->dim, r->railno, r->speed, r->inflight,
               r->window, r->stats.tx_frames, r->stats.tx_bytes, r->stats.rx_frames,
               r->stats.rx_bytes, r->stats.tx_again, r->stats.tx_errors,
               r->stats.rx_ring_drops, r->stats.tx_gso, r->stats.rx_gro,
               r->stats.rx_foreign);
    }
    printf("],\"peers\":[");
    for (i = 0; i < h->npeers; i++) {
        const hxb_stat_peer_t *p = &s->peers[i];

        printf("%s{\"node\":%u,\"proc\":%u,\"epoch\":%u,\"rail_mask\":%u,\"suspect\":%u,"
               "\"failed\":%u,\"busy\":%u,\"active\":%u,\"inflight\":%u,\"unacked\":%u,"
               "\"ops_queued\":%u,\"gets_pending\":%u,\"acks_owed\":%u,\"srtt\":%.9f,"
               "\"rttvar\":%.9f,\"rto\":%.9f,\"min_rtt\":%.9f,\"idle\":%.3f,"
               "\"tx_frames\":%" PRIu64 ",\"tx_bytes\":%" PRIu64 ",\"rx_frames\":%"
               PRIu64 ",\"rx_bytes\":%" PRIu64 ",\"retransmits\":%" PRIu64 "}",
               i ? "," : "", p->node, p->proc, p->epoch, p->rail_mask, p->suspect,
               p->failed, p->busy, p->active, p->inflight, p->unacked, p->ops_queued,
               p->gets_pending, p->acks_owed, p->srtt, p->rttvar, p->rto, p->min_rtt,
               p->idle, p->stats.tx_frames, p->stats.tx_bytes, p->stats.rx_frames,
               p->stats.rx_bytes, p->stats.retransmits);
    }
    printf("],\"peers_all\":%u}\n", h->npeers_all);
}

/* PID (each of its interfaces' files) or a file's path */
static int find(const char *what, found_t *f)
{
    char *end;
    long pid = strtol(what, &end, 10);
    struct stat st;
    int i, n;

    if (*what && !*end && pid > 0) {
        f->pid = pid;
        n = hxb_stat_list(opt.dir, -1, found_cb, f);
        if (n < 0) {
            fprintf(stderr, "hxb-stat: %s: %s\n", opt.dir ? opt.dir : HXB_STAT_DIR,
                    strerror(-n));
            return -1;
        }
        if (!f->n) {
            if (kill(pid, 0) < 0 && errno == ESRCH) {
                fprintf(stderr, "hxb-stat: no process %ld\n", pid);
            } else {
                fprintf(stderr, "hxb-stat: process %ld publishes no hxb counters "
                        "(no hxb interface open, or UCX_HXB_STAT=n)\n", pid);
            }
            return -1;
        }
        for (i = 0; i < f->n; i++) {
            if (stat(f->paths[i], &st) == 0 && st.st_uid != geteuid() &&
                geteuid() != 0) {
                fprintf(stderr, "hxb-stat: process %ld is user %u's: its counters "
                        "are readable by that user and root only\n", pid,
                        (unsigned)st.st_uid);
                return -1;
            }
        }
        return 0;
    }
    f->paths = malloc(sizeof(*f->paths));   /* a file's path, as given */
    if (!f->paths || !(f->paths[0] = strdup(what))) {
        fprintf(stderr, "hxb-stat: out of memory\n");
        return -1;
    }
    f->n = 1;
    return 0;
}

static int show(const char *what)
{
    found_t f = {.pid = -1};
    prev_t *pv;
    long report;
    int i, ret = 0;

    if (find(what, &f) < 0) {
        return 1;
    }
    pv = calloc(f.n, sizeof(*pv));
    for (report = 0; opt.count < 0 || report < opt.count; report++) {
        if (report) {
            usleep((useconds_t)(opt.watch * 1e6));
        }
        for (i = 0; i < f.n; i++) {
            hxb_stat_snap_t s;
            char err[512];

            if (hxb_stat_read(f.paths[i], &s, err, sizeof(err)) < 0) {
                fprintf(stderr, "hxb-stat: %s\n", err);
                ret = 1;
                goto out;
            }
            if (opt.json) {
                print_json(f.paths[i], &s);
            } else {
                /* rates over the writer's own update times: a copy is up
                 * to a period old */
                print_text(f.paths[i], &s, &pv[i],
                           pv[i].have ? s.hdr.updated - pv[i].s.hdr.updated : 0);
                printf("\n");
            }
            fflush(stdout);
            if (pv[i].have) {
                hxb_stat_snap_free(&pv[i].s);
            }
            pv[i].s    = s;
            pv[i].have = 1;
        }
        if (opt.watch <= 0) {
            break;
        }
    }
out:
    for (i = 0; i < f.n; i++) {
        if (pv[i].have) {
            hxb_stat_snap_free(&pv[i].s);
        }
        free(f.paths[i]);
    }
    free(pv);
    free(f.paths);
    return ret;
}

static int dump(const char *what)
{
    found_t f = {.pid = -1};
    char path[600], err[600], line[1024];
    int i, ret = 0;
    FILE *in;

    if (find(what, &f) < 0) {
        return 1;
    }
    for (i = 0; i < f.n; i++) {
        if (hxb_stat_dump_request(f.paths[i], 5.0, path, sizeof(path), err,
                                  sizeof(err)) < 0) {
            fprintf(stderr, "hxb-stat: %s\n", err);
            ret = 1;
        } else if (!(in = fopen(path, "r"))) {
            fprintf(stderr, "hxb-stat: %s: %s\n", path, strerror(errno));
            ret = 1;
        } else {
            while (fgets(line, sizeof(line), in)) {
                fputs(line, stdout);
            }
            fclose(in);
            unlink(path);
        }
        free(f.paths[i]);
    }
    free(f.paths);
    return ret;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"watch", required_argument, NULL, 'w'},
        {"count", required_argument, NULL, 'c'},
        {"json", no_argument, NULL, 'j'},
        {"all", no_argument, NULL, 'a'},
        {"dump", no_argument, NULL, 'd'},
        {"dir", required_argument, NULL, 'D'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    char *end;
    int c;

    opt.dir = getenv("HXB_STAT_DIR");
    while ((c = getopt_long(argc, argv, "w:c:jadh", longopts, NULL)) != -1) {
        switch (c) {
        case 'w':
            opt.watch = strtod(optarg, &end);
            if (*end || opt.watch <= 0) {
                fprintf(stderr, "hxb-stat: --watch %s: seconds, more than 0\n", optarg);
                return 2;
            }
            break;
        case 'c':
            opt.count = strtol(optarg, &end, 10);
            if (*end || opt.count <= 0) {
                fprintf(stderr, "hxb-stat: --count %s: a number, more than 0\n", optarg);
                return 2;
            }
            break;
        case 'j': opt.json = 1; break;
        case 'a': opt.all = 1; break;
        case 'd': opt.dump = 1; break;
        case 'D': opt.dir = optarg; break;
        case 'h': fputs(usage_text, stdout); return 0;
        default: fputs(usage_text, stderr); return 2;
        }
    }
    if (optind < argc - 1) {
        fprintf(stderr, "hxb-stat: one process at a time\n%s", usage_text);
        return 2;
    }
    if (optind == argc) {
        if (opt.dump) {
            fprintf(stderr, "hxb-stat: --dump needs a PID\n");
            return 2;
        }
        return list();
    }
    return opt.dump ? dump(argv[optind]) : show(argv[optind]);
}
