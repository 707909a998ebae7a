/* hxb_gclock - a global clock for MPI benchmarks (see hxb_gclock.h).
 *
 * Kernel receive time stamps (SO_TIMESTAMPING) would take the receiver's
 * scheduling delay out of each sample, but an MPI program has no socket to
 * ask: the transport's sockets belong to the MPI library (btl hxb's rails
 * inside libuct_hxb), which hands a message over only after its progress
 * loop found it. The minimum-RTT filter does that job here: of many round
 * trips, the fastest one had the least delay on both sides. */
#include "hxb_gclock.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#define TAG_PING 1
#define TAG_PONG 2
#define TAG_POINTS 3
#define TAG_RPING 4         /* both ways: the rank pings the reference */
#define TAG_RPONG 5
#define MAX_POINTS 4096     /* the newest ones are kept */

struct hxb_gclock {
    MPI_Comm comm;
    int rank, size, pingpongs, per_round;
    int both;               /* ping-pongs both ways (HXB_GCLOCK_BOTHWAYS) */
    double spin;            /* hxb_gclock_wait_until spins this long (s) */
    int n, first;           /* points held, index of the oldest (ring) */
    hxb_gclock_point_t pt[MAX_POINTS];
    hxb_gclock_model_t model;
};

double hxb_gclock_local(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int env_int(const char *name, int def, int min)
{
    const char *s = getenv(name);
    int v = s && *s ? atoi(s) : def;
    return v < min ? min : v;
}

/* Until the reference's first ping of this rank's turn: polling with short
 * sleeps, so that ranks waiting for their turn leave the CPUs to the two
 * that ping-pong (on an oversubscribed node a polling rank delays them, and
 * unevenly). That ping's round trip is slow, and lost to the minimum. */
static int await_turn(hxb_gclock_t *g)
{
    MPI_Request rq;
    int done = 0, rc = MPI_Irecv(NULL, 0, MPI_BYTE, 0, TAG_PING, g->comm, &rq);
    while (MPI_SUCCESS == rc && !(rc = MPI_Test(&rq, &done, MPI_STATUS_IGNORE)) && !done) {
        struct timespec ts = { 0, 20000 };
        nanosleep(&ts, NULL);
    }
    return rc;
}

/* Collective: per rank, `per` fit points of `m` ping-pongs each, into
 * out[0..per) (rank 0: nothing). The reference interleaves the ranks, so a
 * rank's points spread over the round. Both ways (g->both): after the
 * reference's m pings the rank pings the reference m times, and the
 * point is the mean of the two fastest round trips' offsets. A
 * ping-pong's offset is off by half the difference of its two one-way
 * delays; the part of it that comes from the roles (who pings, who
 * answers with its clock) has the opposite sign the other way round and
 * cancels: one way, every rank's offset came out 0.7-1.4 us above the
 * truth, all with the same sign. */
static int round_trip(hxb_gclock_t *g, int per, int m, hxb_gclock_point_t *out)
{
    int rc = MPI_SUCCESS;
    if (0 == g->rank) {
        hxb_gclock_point_t *all = malloc(sizeof(*all) * per * g->size);
        if (!all) return MPI_ERR_NO_MEM;
        for (int f = 0; f < per; f++) {
            for (int r = 1; r < g->size; r++) {
                double best = INFINITY;
                for (int k = 0; k < m && MPI_SUCCESS == rc; k++) {
                    double tr, ta = hxb_gclock_local(), tb;
                    rc = MPI_Send(NULL, 0, MPI_BYTE, r, TAG_PING, g->comm);
                    if (MPI_SUCCESS == rc) rc = MPI_Recv(&tr, 1, MPI_DOUBLE, r, TAG_PONG, g->comm, MPI_STATUS_IGNORE);
                    tb = hxb_gclock_local();
                    if (tb - ta < best) {
                        best = tb - ta;
                        all[r * per + f] = (hxb_gclock_point_t){ tr, tr - (ta + tb) / 2, (tb - ta) / 2 };
                    }
                }
                for (int k = 0; g->both && k < m && MPI_SUCCESS == rc; k++) {
                    double t;   /* the rank's pings: our clock in answer */
                    rc = MPI_Recv(NULL, 0, MPI_BYTE, r, TAG_RPING, g->comm, MPI_STATUS_IGNORE);
                    t = hxb_gclock_local();
                    if (MPI_SUCCESS == rc) rc = MPI_Send(&t, 1, MPI_DOUBLE, r, TAG_RPONG, g->comm);
                }
            }
        }
        for (int r = 1; r < g->size && MPI_SUCCESS == rc; r++)
            rc = MPI_Send(&all[r * per], 3 * per, MPI_DOUBLE, r, TAG_POINTS, g->comm);
        free(all);
    } else {
        hxb_gclock_point_t *rev = calloc(per, sizeof(*rev));
        if (!rev) return MPI_ERR_NO_MEM;
        for (int f = 0; f < per && MPI_SUCCESS == rc; f++) {
            double best = INFINITY;
            for (int k = 0; k < m && MPI_SUCCESS == rc; k++) {
                double t;
                if (0 == k) rc = await_turn(g);   /* the first ping of our turn */
                else rc = MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_PING, g->comm, MPI_STATUS_IGNORE);
                t = hxb_gclock_local();
                if (MPI_SUCCESS == rc) rc = MPI_Send(&t, 1, MPI_DOUBLE, 0, TAG_PONG, g->comm);
            }
            for (int k = 0; g->both && k < m && MPI_SUCCESS == rc; k++) {
                double t0, ta = hxb_gclock_local(), tb;
                rc = MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_RPING, g->comm);
                if (MPI_SUCCESS == rc) rc = MPI_Recv(&t0, 1, MPI_DOUBLE, 0, TAG_RPONG, g->comm, MPI_STATUS_IGNORE);
                tb = hxb_gclock_local();
                if (tb - ta < best) {
                    best = tb - ta;
                    rev[f] = (hxb_gclock_point_t){ (ta + tb) / 2, (ta + tb) / 2 - t0, (tb - ta) / 2 };
                }
            }
        }
        if (MPI_SUCCESS == rc) rc = MPI_Recv(out, 3 * per, MPI_DOUBLE, 0, TAG_POINTS, g->comm, MPI_STATUS_IGNORE);
        for (int f = 0; g->both && f < per && MPI_SUCCESS == rc; f++) {
            out[f].x = (out[f].x + rev[f].x) / 2;
            out[f].y = (out[f].y + rev[f].y) / 2;
            if (rev[f].h > out[f].h) out[f].h = rev[f].h;
        }
        free(rev);
    }
    return rc;
}

/* Least squares of y on x over the points held, each weighted by 1/h^2 (a
 * slow round trip bounds its point less tightly). The drift is used only
 * when it is over 3 standard errors AND moves the offset across the fit's
 * span by more than the points' bound: on a busy host the points' errors
 * come in runs, which the standard error does not see, and a short
 * baseline would extrapolate them (2 us over 1 s is a 2 ppm "drift", 1.2 ms
 * in 10 minutes). Unused, the slope still widens the error bound. */
static void fit(hxb_gclock_t *g, double halfrtt)
{
    hxb_gclock_model_t *md = &g->model;
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, sse = 0, lo = INFINITY, hi = -INFINITY;
    memset(md, 0, sizeof(*md));
    md->npoints = g->n;
    md->halfrtt = halfrtt;
    if (0 == g->rank || 0 == g->n) return;
#define EACH(p) for (int i_ = 0; i_ < g->n; i_++) \
    for (const hxb_gclock_point_t *p = &g->pt[(g->first + i_) % MAX_POINTS]; p; p = NULL)
#define W(p) (1.0 / ((p)->h * (p)->h + 1e-18))
    EACH(p) {
        sw += W(p);
        sx += W(p) * p->x;
        sy += W(p) * p->y;
        if (p->x < lo) lo = p->x;
        if (p->x > hi) hi = p->x;
    }
    md->x0 = sx / sw;
    md->offset = sy / sw;
    EACH(p) {
        double dx = p->x - md->x0, dy = p->y - md->offset;
        sxx += W(p) * dx * dx;
        sxy += W(p) * dx * dy;
    }
    if (g->n >= 3 && sxx > 0) {
        md->drift_fit = sxy / sxx;
        EACH(p) {
            double e = p->y - md->offset - md->drift_fit * (p->x - md->x0);
            sse += W(p) * e * e;
        }
        md->drift_se = sqrt(sse / (g->n - 2) / sxx);
        if (fabs(md->drift_fit) > 3 * md->drift_se && fabs(md->drift_fit) * (hi - lo) > halfrtt)
            md->drift = md->drift_fit;
    }
    sse = 0;
    EACH(p) {
        double e = p->y - md->offset - md->drift * (p->x - md->x0);
        sse += W(p) * e * e;
    }
    md->resid = sqrt(sse / sw);
#undef EACH
#undef W
}

/* a round's points into the ring, then refit */
static int learn(hxb_gclock_t *g)
{
    hxb_gclock_point_t *p = calloc(g->per_round, sizeof(*p));
    double h = 0;
    int rc;
    if (!p) return MPI_ERR_NO_MEM;
    rc = round_trip(g, g->per_round, g->pingpongs, p);
    if (MPI_SUCCESS == rc && g->rank > 0) {
        for (int i = 0; i < g->per_round; i++) {
            if (g->n == MAX_POINTS) {
                g->first = (g->first + 1) % MAX_POINTS;
                g->n--;
            }
            g->pt[(g->first + g->n++) % MAX_POINTS] = p[i];
            if (p[i].h > h) h = p[i].h;
        }
        fit(g, h);
    }
    free(p);
    return rc;
}

int hxb_gclock_init(hxb_gclock_t **gp, MPI_Comm comm, double span)
{
    hxb_gclock_t *g = calloc(1, sizeof(*g));
    int rc;
    *gp = NULL;
    if (!g) return MPI_ERR_NO_MEM;
    g->pingpongs = env_int("HXB_GCLOCK_PINGPONGS", 50, 1);
    g->per_round = env_int("HXB_GCLOCK_POINTS", 8, 1);
    g->spin = env_int("HXB_GCLOCK_SPIN_US", 50, 0) * 1e-6;
    g->both = env_int("HXB_GCLOCK_BOTHWAYS", 1, 0) != 0;
    /* naps end within 1 us of when asked, not the default 50 us timer slack */
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    /* a communicator of its own: no message of the program can match ours */
    rc = MPI_Comm_dup(comm, &g->comm);
    if (MPI_SUCCESS != rc) { free(g); return rc; }
    MPI_Comm_rank(g->comm, &g->rank);
    MPI_Comm_size(g->comm, &g->size);
    rc = learn(g);
    if (MPI_SUCCESS == rc && span > 0) {
        struct timespec ts = { (time_t)span, (long)((span - (time_t)span) * 1e9) };
        nanosleep(&ts, NULL);
        rc = learn(g);
    }
    if (MPI_SUCCESS != rc) { hxb_gclock_free(g); return rc; }
    *gp = g;
    return MPI_SUCCESS;
}

int hxb_gclock_resync(hxb_gclock_t *g) { return learn(g); }

int hxb_gclock_measure(hxb_gclock_t *g, int pingpongs, hxb_gclock_point_t *p)
{
    memset(p, 0, sizeof(*p));
    return round_trip(g, 1, pingpongs < 1 ? 1 : pingpongs, p);
}

void hxb_gclock_free(hxb_gclock_t *g)
{
    if (!g) return;
    if (MPI_COMM_NULL != g->comm) MPI_Comm_free(&g->comm);
    free(g);
}

const hxb_gclock_model_t *hxb_gclock_model(const hxb_gclock_t *g) { return &g->model; }

double hxb_gclock_model_offset(const hxb_gclock_model_t *m, double local)
{
    return m->offset + m->drift * (local - m->x0);
}

double hxb_gclock_model_error(const hxb_gclock_model_t *m, double local)
{
    double slope = 3 * m->drift_se;
    if (0 == m->npoints) return 0;   /* the reference itself */
    if (0 == m->drift && fabs(m->drift_fit) > slope) slope = fabs(m->drift_fit);
    return m->halfrtt + m->resid + slope * fabs(local - m->x0);
}

double hxb_gclock_now(const hxb_gclock_t *g)
{
    double t = hxb_gclock_local();
    return t - hxb_gclock_model_offset(&g->model, t);
}

double hxb_gclock_error(const hxb_gclock_t *g)
{
    return hxb_gclock_model_error(&g->model, hxb_gclock_local());
}

/* MPI progress: transports without a progress thread (btl hxb) send what
 * a rank posted, and acknowledge what it got, only while the rank is in
 * MPI; a rank that left a collective with its last message still queued
 * would hold up the others until its next MPI call */
static void progress(const hxb_gclock_t *g)
{
    int flag;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, g->comm, &flag, MPI_STATUS_IGNORE);
}

double hxb_gclock_wait_until(const hxb_gclock_t *g, double t)
{
    double now = hxb_gclock_now(g);
    if (now >= t) return now - t;
    /* in naps of up to 100 us until g->spin before, so that ranks waiting
     * for one start leave the CPUs to those still working (on an
     * oversubscribed node, ranks spinning together keep each other off the
     * CPU at the start time); then spinning. MPI progress all the while. */
    while (t - now > g->spin) {
        double nap = t - now - g->spin;
        struct timespec ts = { 0, (long)((nap < 100e-6 ? nap : 100e-6) * 1e9) };
        progress(g);
        nanosleep(&ts, NULL);
        now = hxb_gclock_now(g);
    }
    while (hxb_gclock_now(g) < t) progress(g);
    return 0;
}
