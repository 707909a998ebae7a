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
#include <mpi.h>
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

static void run_blocking(const char *which, long min, long max)
{
    char *a = calloc(max * size, 1), *b = calloc(max * size, 1);
    static const char *names[] = { "allreduce", "alltoall", "bcast", "allgather", "reduce" };
    for (int c = 0; c < 5; c++) {
        if (!listed(which, names[c])) continue;
        for (long bytes = min; bytes <= max; bytes *= 2) {
            int iters = iters_for(bytes), n = (int)(bytes / 8);
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
    while ((opt = getopt(argc, argv, "m:n:c:o:v:s")) != -1) {
        if (opt == 'm') max = atol(optarg);
        else if (opt == 'n') min = atol(optarg) > 0 ? atol(optarg) : 8;
        else if (opt == 'c') which = optarg;
        else if (opt == 'o') overlap = optarg;
        else if (opt == 's') sleep_instead = 1;
        else if (opt == 'v' && nvar < MAXV - 2) variants[nvar++] = optarg;
        else { fprintf(stderr, "usage: %s [-n MIN] [-m MAX] [-c LIST] [-v VARIANT]... | -o BYTES,...\n", argv[0]); return 2; }
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
        run_blocking(which, min, max);
    }
    for (int v = 0; v < nv && v < 2; v++) MPI_Comm_free(&var[v].comm);
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
