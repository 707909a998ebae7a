/* A running process's counters in shared memory, and dumps on request
 * (hxb_statfile.h; doc/DESIGN.md, "Counters while a job runs").
 *
 * Liveness: the writer holds an exclusive flock on its file for its life
 * (the kernel drops it when the process dies, however it dies), so a
 * reader tells a live file from a stale one without trusting a pid that
 * may have been reused. */
#include "hxb_statfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PEERS_INIT   64         /* room for so many peers at first; doubles */
#define MAX_COUNTERS 128
#define READ_TRIES   2000       /* copies tried before giving up (EBUSY) */

struct hxb_statfile {
    double           next_at;   /* next update due */
    double           period;
    int              fd;
    hxb_stat_hdr_t  *hdr;       /* the mapping ... */
    size_t           len;       /* ... of so many bytes */
    hxb_peer_info_t *info;      /* scratch for hxb_engine_peers */
    int              info_max;
    unsigned         sigs_seen;
    int              named_extra; /* the counters' names are written, with
                                   * so many extra ones (-1: not yet) */
    char             path[256];
};

#define ENGINE_COUNTER(_f) {#_f, offsetof(hxb_engine_stats_t, _f)}
static const struct {
    const char *name;
    size_t      off;
} engine_counters[] = {
    ENGINE_COUNTER(tx_frames), ENGINE_COUNTER(rx_frames),
    ENGINE_COUNTER(retransmits), ENGINE_COUNTER(rto_fired),
    ENGINE_COUNTER(fast_retx), ENGINE_COUNTER(rack_retx),
    ENGINE_COUNTER(acks_sent), ENGINE_COUNTER(acks_rcvd),
    ENGINE_COUNTER(am_delivered), ENGINE_COUNTER(ooo_held),
    ENGINE_COUNTER(peers_failed), ENGINE_COUNTER(peers_reset),
    ENGINE_COUNTER(challenges), ENGINE_COUNTER(busy_sent),
    ENGINE_COUNTER(busy_rcvd), ENGINE_COUNTER(busy_learned),
    ENGINE_COUNTER(rail_failovers), ENGINE_COUNTER(spurious),
    ENGINE_COUNTER(am_bundled), ENGINE_COUNTER(put_bundled),
    ENGINE_COUNTER(put_copied), ENGINE_COUNTER(atomics_done),
    ENGINE_COUNTER(atomic_bundled), ENGINE_COUNTER(rail_cuts),
    ENGINE_COUNTER(cwnd_cuts), ENGINE_COUNTER(cc_delay_cuts),
    ENGINE_COUNTER(cc_delay_samples), ENGINE_COUNTER(cwnd_undos),
    ENGINE_COUNTER(resp_revoked), ENGINE_COUNTER(tx_short), ENGINE_COUNTER(rx_short),
};
#define N_ENGINE_COUNTERS (sizeof(engine_counters) / sizeof(engine_counters[0]))

/* signals asking for a dump, since the process began (hxb_statfile_dump_signal) */
static volatile sig_atomic_t dump_sigs;

static size_t file_len(int max_peers)
{
    return sizeof(hxb_stat_hdr_t) + MAX_COUNTERS * sizeof(hxb_stat_counter_t) +
           HXB_MAX_RAILS * sizeof(hxb_stat_rail_t) +
           (size_t)max_peers * sizeof(hxb_stat_peer_t);
}

static double wall_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void name_copy(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
}

/* the file's room: grow it (and the mapping) to hold max_peers */
static int sf_grow(hxb_statfile_t *sf, int max_peers)
{
    size_t len = file_len(max_peers);
    void *m;

    if (ftruncate(sf->fd, len) < 0) {
        return -errno;
    }
    m = sf->hdr ? mremap(sf->hdr, sf->len, len, MREMAP_MAYMOVE) :
                  mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, sf->fd, 0);
    if (m == MAP_FAILED) {
        return -errno;
    }
    sf->hdr = m;
    sf->len = len;
    return 0;
}

static int sf_create(const char *path)
{
    return open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
}

int hxb_statfile_open(hxb_statfile_t **sf_p, const char *dir,
                      const hxb_statfile_id_t *id, char *err, size_t errlen)
{
    hxb_statfile_t *sf = calloc(1, sizeof(*sf));
    hxb_stat_hdr_t *h;
    int ret;

    if (!sf) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    snprintf(sf->path, sizeof(sf->path), "%s/" HXB_STAT_PREFIX "%u.%u.%u",
             dir ? dir : HXB_STAT_DIR, (unsigned)geteuid(), (unsigned)getpid(),
             id->proc);
    sf->fd = sf_create(sf->path);
    if (sf->fd < 0 && errno == EEXIST && !hxb_stat_alive(sf->path)) {
        /* a dead process of ours with the same pid left it (a file of
         * another user's in a sticky /dev/shm cannot be unlinked: then
         * the create fails again and nothing is published) */
        unlink(sf->path);
        sf->fd = sf_create(sf->path);
    }
    if (sf->fd < 0) {
        ret = -errno;
        snprintf(err, errlen, "%s: %s", sf->path, strerror(errno));
        free(sf);
        return ret;
    }
    /* held for the process's life: readers tell live files by it */
    if (flock(sf->fd, LOCK_EX | LOCK_NB) < 0 ||
        (ret = sf_grow(sf, PEERS_INIT)) < 0) {
        ret = -errno;
        snprintf(err, errlen, "%s: %s", sf->path, strerror(errno));
        hxb_statfile_close(sf);
        return ret;
    }
    sf->period      = id->period;
    sf->named_extra = -1;
    h = sf->hdr;
    h->magic        = HXB_STAT_MAGIC;
    h->version      = HXB_STAT_VERSION;
    h->hdr_size     = sizeof(hxb_stat_hdr_t);
    h->counter_size = sizeof(hxb_stat_counter_t);
    h->rail_size    = sizeof(hxb_stat_rail_t);
    h->peer_size    = sizeof(hxb_stat_peer_t);
    h->size         = sizeof(hxb_stat_hdr_t);
    h->pid          = getpid();
    h->uid          = geteuid();
    h->node         = id->node;
    h->proc         = id->proc;
    h->epoch        = id->epoch;
    h->period       = id->period;
    h->started      = wall_now();
    gethostname(h->node_name, sizeof(h->node_name) - 1);
    name_copy(h->mode, sizeof(h->mode), id->mode);
    sf->sigs_seen   = dump_sigs;
    *sf_p = sf;
    return 0;
}

void hxb_statfile_close(hxb_statfile_t *sf)
{
    char dump[sizeof(sf->path) + 8];

    if (!sf) {
        return;
    }
    snprintf(dump, sizeof(dump), "%s.dump", sf->path);
    unlink(dump);
    unlink(sf->path);
    if (sf->hdr) {
        munmap(sf->hdr, sf->len);
    }
    if (sf->fd >= 0) {
        close(sf->fd);
    }
    free(sf->info);
    free(sf);
}

static void dump_write(hxb_statfile_t *sf, hxb_engine_t *e, FILE *f)
{
    const hxb_stat_hdr_t *h = sf->hdr;
    time_t t = time(NULL);
    char when[32];

    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", localtime(&t));
    fprintf(f, "hxb dump: pid %u on %s, hxb node %u proc %u, %s rails, %s\n",
            h->pid, h->node_name, h->node, h->proc, h->mode, when);
    hxb_engine_dump(e, f);
    fflush(f);
}

/* a request through the file: the dump goes to <file>.dump, created anew
 * (O_EXCL: nobody else's file or link is written through) */
static void dump_requested(hxb_statfile_t *sf, hxb_engine_t *e, uint32_t req)
{
    char path[sizeof(sf->path) + 8];
    int fd, ret = 0;
    FILE *f;

    snprintf(path, sizeof(path), "%s.dump", sf->path);
    unlink(path);
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 || !(f = fdopen(fd, "w"))) {
        ret = errno;
        if (fd >= 0) {
            close(fd);
        }
    } else {
        dump_write(sf, e, f);
        if (ferror(f)) {
            ret = EIO;
        }
        fclose(f);
    }
    sf->hdr->dump_err = ret;
    __atomic_store_n(&sf->hdr->dump_done, req, __ATOMIC_RELEASE);
}

static void fill(hxb_statfile_t *sf, hxb_engine_t *e, double now,
                 const hxb_stat_counter_t *extra, int nextra, int npeers)
{
    const hxb_engine_stats_t *st = hxb_engine_stats(e);
    hxb_stat_hdr_t *h = sf->hdr;
    hxb_stat_counter_t *c = (hxb_stat_counter_t *)(h + 1);
    hxb_stat_rail_t *rl;
    hxb_stat_peer_t *pp;
    unsigned nc = 0, i;
    int nrails = hxb_engine_num_rails(e), shown;

    /* the names once (formatting them took most of an update's time),
     * again only if the caller's extra counters change in number */
    int named = (sf->named_extra == nextra);

    for (i = 0; i < N_ENGINE_COUNTERS; i++, nc++) {
        if (!named) {
            name_copy(c[nc].name, sizeof(c[nc].name), engine_counters[i].name);
        }
        c[nc].value = *(const uint64_t *)((const char *)st + engine_counters[i].off);
    }
    for (i = 0; i < (unsigned)nextra && nc < MAX_COUNTERS; i++, nc++) {
        if (!named) {
            memcpy(c[nc].name, extra[i].name, sizeof(c[nc].name));
        }
        c[nc].value = extra[i].value;
    }
    for (i = 0; i < HXB_DROP_MAX && nc < MAX_COUNTERS; i++, nc++) {
        if (!named) {
            snprintf(c[nc].name, sizeof(c[nc].name), "drop_%s", hxb_drop_names[i]);
        }
        c[nc].value = st->drops[i];
    }
    sf->named_extra = nextra;
    rl = (hxb_stat_rail_t *)(c + nc);
    for (i = 0; i < (unsigned)nrails; i++) {
        const hxb_rail_t *r = hxb_engine_rail(e, i);

        memset(&rl[i], 0, sizeof(rl[i]));
        memcpy(rl[i].name, r->ifname, sizeof(rl[i].name));   /* both 16, ended */
        memcpy(rl[i].kind, h->mode, sizeof(rl[i].kind));
        rl[i].up     = !!r->up;
        rl[i].dim    = r->dim;
        rl[i].railno = r->railno;
        rl[i].speed  = r->speed;
        rl[i].stats  = r->stats;
        hxb_engine_rail_load(e, i, &rl[i].inflight, &rl[i].window);
    }
    pp = (hxb_stat_peer_t *)(rl + nrails);
    shown = npeers < sf->info_max ? npeers : sf->info_max;
    for (i = 0; i < (unsigned)shown; i++) {
        const hxb_peer_info_t *in = &sf->info[i];

        memset(&pp[i], 0, sizeof(pp[i]));
        pp[i].node         = in->node;
        pp[i].proc         = in->proc;
        pp[i].epoch        = in->epoch;
        pp[i].rail_mask    = in->rail_mask;
        pp[i].suspect      = in->suspect;
        pp[i].failed       = in->failed;
        pp[i].busy         = in->busy;
        pp[i].active       = in->active;
        pp[i].inflight     = in->inflight;
        pp[i].unacked      = in->unacked;
        pp[i].ops_queued   = in->ops_queued;
        pp[i].gets_pending = in->gets_pending;
        pp[i].acks_owed    = in->acks_owed;
        pp[i].srtt         = in->srtt;
        pp[i].rttvar       = in->rttvar;
        pp[i].rto          = in->rto;
        pp[i].min_rtt      = in->min_rtt;
        pp[i].idle         = in->last_rx ? now - in->last_rx : -1;
        pp[i].stats        = in->stats;
    }
    h->ncounters  = nc;
    h->nrails     = nrails;
    h->npeers     = shown;
    h->npeers_all = npeers;
    h->size       = (uint32_t)((char *)(pp + shown) - (char *)h);
    h->updated    = wall_now();
    h->updates++;
}

double hxb_statfile_update(hxb_statfile_t *sf, hxb_engine_t *e, double now,
                           const hxb_stat_counter_t *extra, int nextra)
{
    unsigned sigs = dump_sigs;
    uint32_t req;
    int npeers;

    /* the peers first, outside the sequence: room for all of them */
    npeers = hxb_engine_peers(e, sf->info, sf->info_max);
    if (npeers > sf->info_max) {
        int max = sf->info_max ? sf->info_max : PEERS_INIT;
        void *m;

        while (max < npeers) {
            max *= 2;
        }
        m = realloc(sf->info, max * sizeof(*sf->info));
        if (m) {
            sf->info = m;
            if ((size_t)max > (sf->len - file_len(0)) / sizeof(hxb_stat_peer_t) &&
                sf_grow(sf, max) < 0) {
                max = (sf->len - file_len(0)) / sizeof(hxb_stat_peer_t);
            }
            sf->info_max = max;
            npeers = hxb_engine_peers(e, sf->info, sf->info_max);
        }
    }
    __atomic_store_n(&sf->hdr->gen, sf->hdr->gen + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    fill(sf, e, now, extra, nextra, npeers);
    __atomic_store_n(&sf->hdr->gen, sf->hdr->gen + 1, __ATOMIC_RELEASE);

    req = __atomic_load_n(&sf->hdr->dump_req, __ATOMIC_ACQUIRE);
    if (req != sf->hdr->dump_done) {
        dump_requested(sf, e, req);
    }
    if (sigs != sf->sigs_seen) {
        sf->sigs_seen = sigs;
        dump_write(sf, e, stderr);
    }
    sf->next_at = now + sf->period;
    return sf->next_at;
}

static void dump_signal_handler(int signo)
{
    dump_sigs++;    /* the next update dumps: nothing else is safe here */
}

int hxb_statfile_dump_signal(int signo)
{
    struct sigaction sa, old;

    if (sigaction(signo, NULL, &old) < 0) {
        return -errno;
    }
    if (old.sa_handler == dump_signal_handler) {
        return 0;
    }
    if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) {
        return -EBUSY;    /* the application's: leave it */
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = dump_signal_handler;
    sa.sa_flags   = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    return sigaction(signo, &sa, NULL) < 0 ? -errno : 0;
}

/* --- reader --- */

int hxb_stat_alive(const char *path)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), alive;

    if (fd < 0) {
        return errno != ENOENT;    /* unreadable (another user's): assume so */
    }
    alive = flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
    close(fd);
    return alive;
}

/* copy each record at its own size into ours (fields added later are 0) */
static void *records(const char *buf, size_t *off, size_t size, unsigned n,
                     unsigned their, size_t ours)
{
    char *a = calloc(n ? n : 1, ours);
    unsigned i;

    if (!a || *off + (size_t)n * their > size) {
        free(a);
        return NULL;
    }
    for (i = 0; i < n; i++) {
        memcpy(a + i * ours, buf + *off + (size_t)i * their, their < ours ? their : ours);
    }
    *off += (size_t)n * their;
    return a;
}

static int snap_parse(hxb_stat_snap_t *snap, const char *buf, size_t size)
{
    const hxb_stat_hdr_t *h = (const hxb_stat_hdr_t *)buf;
    size_t off;

    memset(&snap->hdr, 0, sizeof(snap->hdr));
    memcpy(&snap->hdr, buf, h->hdr_size < sizeof(snap->hdr) ? h->hdr_size :
                                                              sizeof(snap->hdr));
    off = h->hdr_size;
    snap->counters = records(buf, &off, size, h->ncounters, h->counter_size,
                             sizeof(hxb_stat_counter_t));
    snap->rails = records(buf, &off, size, h->nrails, h->rail_size,
                          sizeof(hxb_stat_rail_t));
    snap->peers = records(buf, &off, size, h->npeers, h->peer_size,
                          sizeof(hxb_stat_peer_t));
    if (!snap->counters || !snap->rails || !snap->peers) {
        return -EPROTO;
    }
    return 0;
}

void hxb_stat_snap_free(hxb_stat_snap_t *snap)
{
    free(snap->counters);
    free(snap->rails);
    free(snap->peers);
    free(snap->buf);
    memset(snap, 0, sizeof(*snap));
}

int hxb_stat_read(const char *path, hxb_stat_snap_t *snap, char *err,
                  size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), tries, ret = -EBUSY;
    const hxb_stat_hdr_t *h;
    struct stat st;
    size_t len = 0, size;
    void *m = MAP_FAILED;
    uint32_t g1, g2;
    char *buf = NULL;

    memset(snap, 0, sizeof(*snap));
    if (fd < 0) {
        ret = -errno;
        snprintf(err, errlen, "%s: %s", path, errno == ENOENT ?
                 "no such file (the process ended?)" : strerror(errno));
        return ret;
    }
    for (tries = 0; tries < READ_TRIES; tries++) {
        if (m == MAP_FAILED) {
            if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
                (size_t)st.st_size < sizeof(hxb_stat_hdr_t)) {
                ret = -EPROTO;
                break;
            }
            len = st.st_size;
            m   = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
            if (m == MAP_FAILED) {
                ret = -errno;
                break;
            }
        }
        h = m;
        if (h->magic != HXB_STAT_MAGIC) {
            ret = -EPROTO;
            break;
        }
        if (h->version != HXB_STAT_VERSION) {
            snprintf(err, errlen, "%s: layout version %u, this reader knows %u "
                     "(hxb-stat and libuct_hxb from different releases)", path,
                     h->version, HXB_STAT_VERSION);
            ret = -EPROTO;
            goto out;
        }
        g1 = __atomic_load_n(&h->gen, __ATOMIC_ACQUIRE);
        size = h->size;
        if (g1 & 1) {
            usleep(tries < 10 ? 0 : 1000);
            continue;
        }
        if (size < sizeof(hxb_stat_hdr_t)) {
            ret = -EPROTO;
            break;
        }
        if (size > len) {          /* grown since mapped */
            munmap(m, len);
            m = MAP_FAILED;
            continue;
        }
        buf = realloc(buf, size);
        if (!buf) {
            ret = -ENOMEM;
            break;
        }
        memcpy(buf, m, size);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        g2 = __atomic_load_n(&h->gen, __ATOMIC_RELAXED);
        if (g1 == g2) {
            ret = snap_parse(snap, buf, size);
            break;
        }
    }
    if (ret == -EPROTO) {
        snprintf(err, errlen, "%s: not an hxb statfile (or damaged)", path);
    } else if (ret == -EBUSY) {
        snprintf(err, errlen, "%s: no consistent copy (the writer died while "
                 "updating it?)", path);
    } else if (ret < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(-ret));
    }
out:
    if (m != MAP_FAILED) {
        munmap(m, len);
    }
    close(fd);
    if (ret < 0) {
        hxb_stat_snap_free(snap);
        free(buf);
        return ret;
    }
    snap->buf = buf;
    return 0;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* hxb.<uid>.<pid>.<proc>, nothing more */
static int stat_name(const char *name, unsigned *uid)
{
    unsigned pid, proc;
    int n = -1;

    return sscanf(name, HXB_STAT_PREFIX "%u.%u.%u%n", uid, &pid, &proc, &n) == 3 &&
           n == (int)strlen(name);
}

int hxb_stat_list(const char *dir, long uid, void (*cb)(const char *path, void *arg),
                  void *arg)
{
    char path[512], **names = NULL;
    int n = 0, cap = 0, i, live = 0;
    struct dirent *d;
    struct stat st;
    unsigned fuid;
    DIR *dp;

    dir = dir ? dir : HXB_STAT_DIR;
    dp  = opendir(dir);
    if (!dp) {
        return -errno;
    }
    while ((d = readdir(dp))) {
        if (!stat_name(d->d_name, &fuid) || (uid >= 0 && fuid != (unsigned long)uid)) {
            continue;
        }
        snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
        /* the name says whose it is; a file another user made under that
         * name (in a shared /dev/shm) is not listed */
        if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != fuid) {
            continue;
        }
        if (n == cap) {
            char **m = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof(*names));

            if (!m) {
                break;
            }
            names = m;
        }
        names[n++] = strdup(path);
    }
    closedir(dp);
    if (n) {
        qsort(names, n, sizeof(*names), name_cmp);
    }
    for (i = 0; i < n; i++) {
        if (!names[i]) {
            continue;
        }
        if (hxb_stat_alive(names[i])) {
            cb(names[i], arg);
            live++;
        } else if (lstat(names[i], &st) == 0 &&
                   (st.st_uid == geteuid() || geteuid() == 0)) {
            snprintf(path, sizeof(path), "%s.dump", names[i]);
            unlink(path);
            unlink(names[i]);      /* stale: its process died */
        }
        free(names[i]);
    }
    free(names);
    return live;
}

int hxb_stat_dump_request(const char *path, double timeout, char *out,
                          size_t outlen, char *err, size_t errlen)
{
    int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC), ret = 0;
    hxb_stat_hdr_t *h;
    uint32_t req;
    double waited;

    if (fd < 0) {
        ret = -errno;
        snprintf(err, errlen, "%s: %s", path, errno == ENOENT ?
                 "no such file (the process ended?)" : strerror(errno));
        return ret;
    }
    h = mmap(NULL, sizeof(*h), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (h == MAP_FAILED) {
        ret = -errno;
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return ret;
    }
    if (h->magic != HXB_STAT_MAGIC || h->version != HXB_STAT_VERSION) {
        snprintf(err, errlen, "%s: not an hxb statfile of version %u", path,
                 HXB_STAT_VERSION);
        munmap(h, sizeof(*h));
        return -EPROTO;
    }
    req = __atomic_add_fetch(&h->dump_req, 1, __ATOMIC_ACQ_REL);
    for (waited = 0; ; waited += 0.01) {
        if ((int32_t)(__atomic_load_n(&h->dump_done, __ATOMIC_ACQUIRE) - req) >= 0) {
            break;
        }
        if (waited >= timeout) {
            snprintf(err, errlen, "pid %u made no update for %.1f s (stopped, "
                     "or inside a long call): no dump", h->pid, timeout);
            ret = -ETIMEDOUT;
            break;
        }
        usleep(10000);
    }
    if (!ret && h->dump_err) {
        snprintf(err, errlen, "pid %u could not write its dump: %s", h->pid,
                 strerror(h->dump_err));
        ret = -h->dump_err;
    }
    munmap(h, sizeof(*h));
    if (!ret) {
        snprintf(out, outlen, "%s.dump", path);
    }
    return ret;
}
