/* Collective latency for hxb-bench-coll: Allreduce (double sum), Alltoall,
 * Bcast and Allgather, sizes 8 B to MAX bytes per rank (doubling), coll
 * tuned and coll hxb measured in the same process, call by call.
 *
 * Two duplicates of MPI_COMM_WORLD are made, one while coll_hxb_enable is
 * 0 (set through MPI_T: Open MPI's tuned takes it) and one while it is 1
 * (coll hxb takes it, when it would take MPI_COMM_WORLD). Each iteration
 * times one call on each, in alternating order, so that a slow moment of a
 * shared host hits both alike. A variant (-v "label:var=value,...") is a
 * call on the hxb communicator with coll hxb's MPI_T variables set to
 * other values (e.g. "rsag:coll_hxb_allreduce_rsag_min=0") for that call.
 * Per iteration the slowest rank's time counts; the median over the
 * iterations is printed (and the mean, and how many calls took over 3 ms
 * more than the median: stalls):
 *   bench NAME BYTES LABEL MEDIAN_US MEAN_US STALLS
 *
 *   hxb-bench-coll-mpi [-m MAX] [-c allreduce,alltoall,bcast,allgather,reduce] [-v VARIANT]...
 *                      [-C barrier|global|both]
 *       -C global: calls start at an agreed time of a global clock
 *       (hxb_gclock) instead of after MPI_Barrier: rank 0 picks T0 = now +
 *       a margin and broadcasts it once per size; call j starts when the
 *       global clock reaches T0 + j * SLOT (SLOT: 3 times the slowest
 *       warm-up call + 1 ms) and takes max over ranks of its exit time - its
 *       start (ReproMPI); a call whose start a rank reached late (the one
 *       before overran its slot) is left out. The clock is resynced before
 *       every size. Its lines have the label LABEL@global. -C both: the same
 *       slots, alternately started so and by MPI_Barrier right at the slot's
 *       start (timed as today, each rank from its own barrier exit), so one
 *       run compares the two. -C barrier (default): today's loop. For
 *       global and both, per label and way of starting, also:
 *         clock NAME BYTES LABEL barrier|global VALID MEDIAN_US SPREAD_PCT
 *               SKEW_US SKEW_PCT SKEW_MAX_US ERR_US
 *       VALID: calls counted; SPREAD_PCT: half the interquartile range of
 *       the calls' times, % of the median; SKEW: how far apart the ranks
 *       started (max - min of their start times on the global clock; the
 *       median over calls, also in % of the median time, and the largest);
 *       for global starts this is what the ranks saw, the clock's own error
 *       is ERR_US: the bound of a time (twice the largest rank's bound).
 *   hxb-bench-coll-mpi -o BYTES[,BYTES...] [-s]
 *       Iallreduce overlap (MPI_THREAD_MULTIPLE, which coll hxb's worker
 *       needs), for tuned (libnbc) and hxb: t_comm = Iallreduce + Wait
 *       alone, t_comp = a computation without MPI calls calibrated to
 *       about t_comm, t_both = Iallreduce, the computation, Wait; the three
 *       timed in turn in one loop, medians of the slowest rank. Prints
 *       "overlap LABEL BYTES COMM_US COMP_US BOTH_US PCT", PCT = share of
 *       the communication hidden behind the computation,
 *       100 * (1 - (t_both - t_comp) / t_comm), clamped to 0..100 (as
 *       OSU's osu_iallreduce reports it). -s: the "computation" sleeps
 *       instead, leaving the CPU to MPI (tells overlap lost to progress
 *       from overlap lost to CPU contention on an oversubscribed host). */
#include "hxb_gclock.h"

#include <mpi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXV 8
#define MAXSET 4

typedef struct {
    const char *label;
    MPI_Comm comm;
    int nset;
    MPI_T_cvar_handle h[MAXSET];
    int val[MAXSET], def[MAXSET];
} variant_t;

static int rank, size, nv;
static variant_t var[MAXV];
enum { CLOCK_BARRIER, CLOCK_GLOBAL, CLOCK_BOTH };
static int clock_mode = CLOCK_BARRIER;
static hxb_gclock_t *gclock;

static int cvar(const char *name, MPI_T_cvar_handle *h)
{
    int idx, n;
    if (MPI_SUCCESS != MPI_T_cvar_get_index(name, &idx)) return -1;
    if (MPI_SUCCESS != MPI_T_cvar_handle_alloc(idx, NULL, h, &n)) return -1;
    return 0;
}

static void set(variant_t *v, int on)
{
    for (int i = 0; i < v->nset; i++) MPI_T_cvar_write(v->h[i], on ? &v->val[i] : &v->def[i]);
}

/* tuned and hxb communicators; returns 0 when coll hxb is not loaded */
static int make_comms(void)
{
    MPI_T_cvar_handle en;
    int off = 0, on = 1;
    var[0].label = "tuned";
    if (cvar("coll_hxb_enable", &en) < 0) {
        if (0 == rank) printf("# coll hxb not loaded: tuned only\n");
        MPI_Comm_dup(MPI_COMM_WORLD, &var[0].comm);
        nv = 1;
        return 0;
    }
    if (MPI_SUCCESS != MPI_T_cvar_write(en, &off)) {
        if (0 == rank) printf("# coll_hxb_enable cannot be set through MPI_T\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &var[0].comm);
    MPI_T_cvar_write(en, &on);
    var[1].label = "hxb";
    MPI_Comm_dup(MPI_COMM_WORLD, &var[1].comm);
    MPI_T_cvar_handle_free(&en);
    nv = 2;
    return 1;
}

/* "label:name=value,name=value" */
static void add_variant(char *spec)
{
    variant_t *v = &var[nv];
    char *colon = strchr(spec, ':');
    if (nv >= MAXV || !colon) { if (0 == rank) fprintf(stderr, "bad variant %s\n", spec); MPI_Abort(MPI_COMM_WORLD, 2); }
    *colon = 0;
    v->label = spec;
    v->comm = var[1].comm;
    for (char *tok = strtok(colon + 1, ","); tok && v->nset < MAXSET; tok = strtok(NULL, ",")) {
        char *eq = strchr(tok, '=');
        if (!eq) continue;
        *eq = 0;
        if (cvar(tok, &v->h[v->nset]) < 0) {
            if (0 == rank) fprintf(stderr, "no MPI_T variable %s\n", tok);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        v->val[v->nset] = atoi(eq + 1);
        MPI_T_cvar_read(v->h[v->nset], &v->def[v->nset]);
        v->nset++;
    }
    nv++;
}

static int iters_for(long bytes)
{
    int it = 60;
    if (bytes > 16384) it = (int)(60.0 * 16384 / bytes);
    return it < 20 ? 20 : it;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* times[v * iters + i] per rank -> slowest rank per call -> median, mean */
static void report(const char *name, long bytes, double *t, int iters)
{
    int n = nv * iters;
    double *worst = malloc(n * sizeof(double));
    MPI_Reduce(t, worst, n, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        for (int v = 0; v < nv; v++) {
            double *w = worst + v * iters, mean = 0;
            int stalls = 0;
            for (int i = 0; i < iters; i++) mean += w[i];
            qsort(w, iters, sizeof(double), cmp);
            for (int i = 0; i < iters; i++) stalls += w[i] > w[iters / 2] + 3e-3;
            printf("bench %s %ld %s %.1f %.1f %d\n", name, bytes, var[v].label,
                   w[iters / 2] * 1e6, mean / iters * 1e6, stalls);
        }
        fflush(stdout);
    }
    free(worst);
}

/* name is one of the comma-separated words of list */
static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n) {
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == 0)) return 1;
    }
    return 0;
}

static void coll_call(int c, MPI_Comm comm, char *a, char *b, int n)
{
    if (c == 0) MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, comm);
    else if (c == 1) MPI_Alltoall(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, comm);
    else if (c == 2) MPI_Bcast(a, n, MPI_DOUBLE, 0, comm);
    else if (c == 3) MPI_Allgather(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, comm);
    else MPI_Reduce(a, b, n, MPI_DOUBLE, MPI_SUM, 0, comm);
}

static double quantile(double *sorted, int n, double q)
{
    return n ? sorted[(int)(q * (n - 1) + 0.5)] : 0;
}

/* rank 0: the bench and clock lines of one label and way of starting,
 * from the slowest rank's times t[0..n) and start skews sk (NAN = left out) */
static void report_clock(const char *name, long bytes, const char *label, const char *how,
                         double *t, double *sk, int n, double err)
{
    int m = 0, stalls = 0;
    double mean = 0;
    for (int i = 0; i < n; i++) {
        if (t[i] != t[i]) continue;     /* NAN: a late start */
        t[m] = t[i];
        sk[m++] = sk[i];
    }
    if (0 == m) {
        printf("clock %s %ld %s %s 0 - - - - - %.2f\n", name, bytes, label, how, err * 1e6);
        return;
    }
    for (int i = 0; i < m; i++) mean += t[i] / m;
    qsort(t, m, sizeof(double), cmp);
    qsort(sk, m, sizeof(double), cmp);
    double med = quantile(t, m, 0.5);
    for (int i = 0; i < m; i++) stalls += t[i] > med + 3e-3;
    printf("bench %s %ld %s%s %.1f %.1f %d\n", name, bytes, label,
           strcmp(how, "global") ? "" : "@global", med * 1e6, mean * 1e6, stalls);
    printf("clock %s %ld %s %s %d %.1f %.2f %.2f %.2f %.2f %.2f\n", name, bytes, label, how, m,
           med * 1e6, 100 * (quantile(t, m, 0.75) - quantile(t, m, 0.25)) / 2 / med,
           quantile(sk, m, 0.5) * 1e6, 100 * quantile(sk, m, 0.5) / med, sk[m - 1] * 1e6, err * 1e6);
}

/* -C global|both: one size's calls in slots of the global clock (see the
 * head of the file). Per slot j: the variant, the way of starting (0 =
 * barrier, 1 = global), and per rank its start and exit on the global
 * clock, its own duration and whether it came late. */
static void run_slots(int c, const char *name, long bytes, char *a, char *b, int n, int iters)
{
    int nmodes = clock_mode == CLOCK_BOTH ? 2 : 1, ns = iters * nv * nmodes, j = 0;
    double *mine = calloc(4 * ns, sizeof(double)), *mx = calloc(4 * ns, sizeof(double));
    double *mn = calloc(ns, sizeof(double)), *lo = calloc(ns, sizeof(double));
    double *st = calloc(ns, sizeof(double));
    int *sv = calloc(ns, sizeof(int)), *sm = calloc(ns, sizeof(int));
    double warm = 0, slot, t0 = 0, err;
    if (MPI_SUCCESS != hxb_gclock_resync(gclock)) {
        fprintf(stderr, "hxb-bench-coll-mpi: rank %d: clock resync failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 0; i < 2; i++) {        /* warm-up, and how long a call takes */
        for (int v = 0; v < nv; v++) {
            set(&var[v], 1);
            MPI_Barrier(MPI_COMM_WORLD);
            double s = hxb_gclock_local();
            coll_call(c, var[v].comm, a, b, n);
            s = hxb_gclock_local() - s;
            if (s > warm) warm = s;
            set(&var[v], 0);
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, &warm, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    slot = 3 * warm + 1e-3;
    if (0 == rank) t0 = hxb_gclock_now(gclock) + 20e-3 + slot;
    MPI_Bcast(&t0, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int i = 0; i < iters; i++) {
        for (int k = 0; k < nv; k++) {
            int v = (k + (i & 1) * (nv - 1)) % nv;    /* alternate who goes first */
            for (int h = 0; h < nmodes; h++, j++) {
                int global = clock_mode == CLOCK_GLOBAL || (h + i) % 2;   /* and how */
                double start = t0 + j * slot, s, sg, late;   /* slot j's start */
                set(&var[v], 1);
                late = hxb_gclock_wait_until(gclock, start);
                if (!global) MPI_Barrier(MPI_COMM_WORLD);
                sg = hxb_gclock_now(gclock);               /* start as this rank saw it */
                s = hxb_gclock_local();
                coll_call(c, var[v].comm, a, b, n);
                mine[4 * j] = hxb_gclock_now(gclock);      /* exit, global */
                mine[4 * j + 1] = hxb_gclock_local() - s;  /* own duration */
                mine[4 * j + 2] = sg;
                mine[4 * j + 3] = late > 0;
                mn[j] = mine[4 * j + 2];
                sv[j] = v;
                sm[j] = global;
                st[j] = start;
                set(&var[v], 0);
            }
        }
    }
    err = 2 * hxb_gclock_error(gclock);
    MPI_Reduce(mine, mx, 4 * ns, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(mn, lo, ns, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (0 == rank) {
        double *t = malloc(ns * sizeof(double)), *sk = malloc(ns * sizeof(double));
        for (int v = 0; v < nv; v++) {
            for (int h = 0; h < 2; h++) {
                int m = 0;
                if (clock_mode == CLOCK_GLOBAL && h == 0) continue;
                for (int x = 0; x < ns; x++) {
                    if (sv[x] != v || sm[x] != h) continue;
                    /* global: the slowest exit from the agreed start; a late
                     * start is left out. barrier: the slowest rank's own time */
                    t[m] = h ? (mx[4 * x + 3] > 0 ? NAN : mx[4 * x] - st[x]) : mx[4 * x + 1];
                    sk[m++] = mx[4 * x + 2] - lo[x];
                }
                report_clock(name, bytes, var[v].label, h ? "global" : "barrier", t, sk, m, err);
            }
        }
        fflush(stdout);
        free(t);
        free(sk);
    }
    free(mine);
    free(mx);
    free(mn);
    free(lo);
    free(st);
    free(sv);
    free(sm);
}

static void run_blocking(const char *which, long min, long max)
{
    char *a = calloc(max * size, 1), *b = calloc(max * size, 1);
    static const char *names[] = { "allreduce", "alltoall", "bcast", "allgather", "reduce" };
    for (int c = 0; c < 5; c++) {
        if (!listed(which, names[c])) continue;
        for (long bytes = min; bytes <= max; bytes *= 2) {
            int iters = iters_for(bytes), n = (int)(bytes / 8);
            if (clock_mode != CLOCK_BARRIER) {
                run_slots(c, names[c], bytes, a, b, n, iters);
                continue;
            }
            double *t = calloc(nv * iters, sizeof(double));
            for (int i = -2; i < iters; i++) {        /* 2 warm-up rounds */
                for (int k = 0; k < nv; k++) {
                    int v = (k + (i & 1) * (nv - 1)) % nv;    /* alternate who goes first */
                    variant_t *x = &var[v];
                    set(x, 1);
                    MPI_Barrier(MPI_COMM_WORLD);    /* the same barrier for all */
                    double t0 = MPI_Wtime();
                    if (c == 0) MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, x->comm);
                    else if (c == 1) MPI_Alltoall(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, x->comm);
                    else if (c == 2) MPI_Bcast(a, n, MPI_DOUBLE, 0, x->comm);
                    else if (c == 3) MPI_Allgather(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, x->comm);
                    else MPI_Reduce(a, b, n, MPI_DOUBLE, MPI_SUM, 0, x->comm);
                    if (i >= 0) t[v * iters + i] = MPI_Wtime() - t0;
                    set(x, 0);
                }
            }
            report(names[c], bytes, t, iters);
            free(t);
        }
    }
    free(a);
    free(b);
}

static volatile double sink;

static int sleep_instead;    /* -s: the "computation" sleeps (needs no CPU) */

/* about `secs` of computation that makes no MPI call */
static void compute(double secs, double loops_per_sec)
{
    if (sleep_instead) {
        struct timespec ts = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };
        nanosleep(&ts, NULL);
        return;
    }
    long n = (long)(secs * loops_per_sec);
    double x = 0;
    for (long i = 0; i < n; i++) x += i * 0.5;
    sink = x;
}

/* median over calls of the slowest rank's time (t[i] per rank) */
static double median_slowest(double *t, int n, MPI_Comm comm)
{
    double *w = malloc(n * sizeof(double)), m;
    MPI_Allreduce(t, w, n, MPI_DOUBLE, MPI_MAX, comm);
    qsort(w, n, sizeof(double), cmp);
    m = w[n / 2];
    free(w);
    return m;
}

/* Per call, in one loop so that a slow moment of the shared host hits all
 * three alike: comm = Iallreduce + Wait, comp = the computation alone
 * (calibrated beforehand to take about comm), both = Iallreduce, the
 * computation, Wait; medians of the slowest rank. */
static void run_overlap(char *list)
{
    double t0 = MPI_Wtime();
    compute(0.2, 1e8);
    double lps = 0.2 * 1e8 / (MPI_Wtime() - t0);
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        long bytes = atol(tok);
        int n = (int)(bytes / 8), iters = iters_for(bytes);
        double *a = calloc(n + 1, 8), *b = calloc(n + 1, 8);
        double *tc = calloc(iters, sizeof(double)), *tp = calloc(iters, sizeof(double));
        double *tb = calloc(iters, sizeof(double));
        for (int v = 0; v < nv && v < 2; v++) {
            MPI_Comm comm = var[v].comm;
            MPI_Request rq;
            int cal = iters < 10 ? iters : 10;
            for (int i = -2; i < cal; i++) {           /* the communication's length */
                MPI_Barrier(comm);
                double s = MPI_Wtime();
                MPI_Iallreduce(a, b, n, MPI_DOUBLE, MPI_SUM, comm, &rq);
                MPI_Wait(&rq, MPI_STATUS_IGNORE);
                if (i >= 0) tc[i] = MPI_Wtime() - s;
            }
            double target = median_slowest(tc, cal, comm);
            for (int round = 0; round < 2; round++) {  /* the computation's loops for it */
                for (int i = 0; i < cal; i++) {
                    MPI_Barrier(comm);
                    double s = MPI_Wtime();
                    compute(target, lps);
                    tp[i] = MPI_Wtime() - s;
                }
                lps *= target / median_slowest(tp, cal, comm);
            }
            for (int i = -2; i < iters; i++) {
                double s;
                MPI_Barrier(comm);
                s = MPI_Wtime();
                MPI_Iallreduce(a, b, n, MPI_DOUBLE, MPI_SUM, comm, &rq);
                MPI_Wait(&rq, MPI_STATUS_IGNORE);
                if (i >= 0) tc[i] = MPI_Wtime() - s;
                MPI_Barrier(comm);
                s = MPI_Wtime();
                compute(target, lps);
                if (i >= 0) tp[i] = MPI_Wtime() - s;
                MPI_Barrier(comm);
                s = MPI_Wtime();
                MPI_Iallreduce(a, b, n, MPI_DOUBLE, MPI_SUM, comm, &rq);
                compute(target, lps);
                MPI_Wait(&rq, MPI_STATUS_IGNORE);
                if (i >= 0) tb[i] = MPI_Wtime() - s;
            }
            double comm_t = median_slowest(tc, iters, comm), comp = median_slowest(tp, iters, comm);
            double both = median_slowest(tb, iters, comm);
            double pct = 100.0 * (1.0 - (both - comp) / comm_t);
            if (pct < 0) pct = 0;
            if (pct > 100) pct = 100;
            if (0 == rank) {
                printf("overlap %s %ld %.1f %.1f %.1f %.0f\n", var[v].label, bytes,
                       comm_t * 1e6, comp * 1e6, both * 1e6, pct);
                fflush(stdout);
            }
        }
        free(a);
        free(b);
        free(tc);
        free(tp);
        free(tb);
    }
}

int main(int argc, char **argv)
{
    long max = 1 << 20, min = 8;
    char *which = "allreduce,alltoall,bcast,allgather", *overlap = NULL, *variants[MAXV];
    int opt, provided, nvar = 0;
    while ((opt = getopt(argc, argv, "m:n:c:o:v:sC:")) != -1) {
        if (opt == 'm') max = atol(optarg);
        else if (opt == 'n') min = atol(optarg) > 0 ? atol(optarg) : 8;
        else if (opt == 'c') which = optarg;
        else if (opt == 'o') overlap = optarg;
        else if (opt == 's') sleep_instead = 1;
        else if (opt == 'C' && !strcmp(optarg, "barrier")) clock_mode = CLOCK_BARRIER;
        else if (opt == 'C' && !strcmp(optarg, "global")) clock_mode = CLOCK_GLOBAL;
        else if (opt == 'C' && !strcmp(optarg, "both")) clock_mode = CLOCK_BOTH;
        else if (opt == 'v' && nvar < MAXV - 2) variants[nvar++] = optarg;
        else { fprintf(stderr, "usage: %s [-n MIN] [-m MAX] [-c LIST] [-v VARIANT]... [-C barrier|global|both] | -o BYTES,...\n", argv[0]); return 2; }
    }
    MPI_Init_thread(&argc, &argv, overlap ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
    /* the level MPI_Init_thread gave: Open MPI 4.1's MPI_T_init_thread
     * overwrites the library's thread level with the one asked here */
    MPI_T_init_thread(provided, &opt);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int have_hxb = make_comms();
    for (int i = 0; i < nvar && have_hxb; i++) add_variant(variants[i]);
    if (overlap) {
        int level;
        MPI_Query_thread(&level);
        if (0 == rank) printf("# thread level %s\n", level == MPI_THREAD_MULTIPLE
                              ? "multiple" : "below multiple: coll hxb falls back to libnbc");
        run_overlap(overlap);
    } else {
        if (clock_mode != CLOCK_BARRIER) {
            /* two rounds 1 s apart; resynced before every size */
            int rc = hxb_gclock_init(&gclock, MPI_COMM_WORLD, 1.0);
            if (MPI_SUCCESS != rc) {
                fprintf(stderr, "hxb-bench-coll-mpi: rank %d: clock sync failed (MPI error %d)\n", rank, rc);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
        run_blocking(which, min, max);
        hxb_gclock_free(gclock);
    }
    for (int v = 0; v < nv && v < 2; v++) MPI_Comm_free(&var[v].comm);
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
