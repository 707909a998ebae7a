/* Collective latency for hxb-bench-coll: mean time per call of Allreduce
 * (double sum), Alltoall, Bcast and Allgather, sizes 8 B to MAX bytes per
 * rank (doubling), after warm-up calls; the slowest rank's mean is reported.
 *
 *   hxb-bench-coll-mpi [-m MAX] [-c allreduce,alltoall,bcast,allgather]
 *       prints "bench NAME BYTES US"
 *   hxb-bench-coll-mpi -o BYTES[,BYTES...]
 *       Iallreduce overlap (needs MPI_THREAD_MULTIPLE for coll hxb's
 *       worker): per size, t_comm = Iallreduce + Wait alone, t_comp = a
 *       computation without MPI calls calibrated to last t_comm, t_both =
 *       Iallreduce, the computation, Wait. Prints
 *       "overlap BYTES COMM_US COMP_US BOTH_US PCT" with PCT = share of the
 *       communication hidden behind the computation,
 *       100 * (1 - (t_both - t_comp) / t_comm), clamped to 0..100 (as OSU's
 *       osu_iallreduce reports it). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size;

static double slowest(double t)
{
    double worst;
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

static int iters_for(long bytes)
{
    int it = 100;
    if (bytes > 8192) it = (int)(100.0 * 8192 / bytes);
    return it < 10 ? 10 : it;
}

static void run_blocking(const char *which, long max)
{
    char *a = calloc(max * size, 1), *b = calloc(max * size, 1);
    static const char *names[] = { "allreduce", "alltoall", "bcast", "allgather" };
    for (int c = 0; c < 4; c++) {
        if (!strstr(which, names[c])) continue;
        for (long bytes = 8; bytes <= max; bytes *= 2) {
            int iters = iters_for(bytes), n = (int)(bytes / 8);
            double t = 0;
            for (int i = -2; i < iters; i++) {        /* 2 warm-up calls */
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                if (c == 0) MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                else if (c == 1) MPI_Alltoall(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, MPI_COMM_WORLD);
                else if (c == 2) MPI_Bcast(a, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
                else MPI_Allgather(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, MPI_COMM_WORLD);
                if (i >= 0) t += MPI_Wtime() - t0;
            }
            double worst = slowest(t / iters);
            if (0 == rank) { printf("bench %s %ld %.1f\n", names[c], bytes, worst * 1e6); fflush(stdout); }
        }
    }
    free(a);
    free(b);
}

static volatile double sink;

/* about `secs` of computation that makes no MPI call */
static void compute(double secs, long loops_per_sec)
{
    long n = (long)(secs * loops_per_sec);
    double x = 0;
    for (long i = 0; i < n; i++) x += i * 0.5;
    sink = x;
}

static void run_overlap(char *list)
{
    /* calibrate the computation loop once */
    long loops = 1 << 24;
    double t0 = MPI_Wtime();
    compute(1.0, loops);
    long lps = (long)(loops / (MPI_Wtime() - t0));
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        long bytes = atol(tok);
        int n = (int)(bytes / 8), iters = iters_for(bytes);
        double *a = calloc(n + 1, 8), *b = calloc(n + 1, 8);
        MPI_Request rq;
        double comm = 0, comp = 0, both = 0;
        for (int i = -2; i < iters; i++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double s = MPI_Wtime();
            MPI_Iallreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq);
            MPI_Wait(&rq, MPI_STATUS_IGNORE);
            if (i >= 0) comm += MPI_Wtime() - s;
        }
        comm = slowest(comm / iters);
        for (int i = 0; i < iters; i++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double s = MPI_Wtime();
            compute(comm, lps);
            comp += MPI_Wtime() - s;
        }
        comp = slowest(comp / iters);
        for (int i = -2; i < iters; i++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double s = MPI_Wtime();
            MPI_Iallreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq);
            compute(comm, lps);
            MPI_Wait(&rq, MPI_STATUS_IGNORE);
            if (i >= 0) both += MPI_Wtime() - s;
        }
        both = slowest(both / iters);
        double pct = 100.0 * (1.0 - (both - comp) / comm);
        if (pct < 0) pct = 0;
        if (pct > 100) pct = 100;
        if (0 == rank) {
            printf("overlap %ld %.1f %.1f %.1f %.0f\n", bytes, comm * 1e6, comp * 1e6, both * 1e6, pct);
            fflush(stdout);
        }
        free(a);
        free(b);
    }
}

int main(int argc, char **argv)
{
    long max = 1 << 20;
    char *which = "allreduce,alltoall,bcast,allgather", *overlap = NULL;
    int opt, provided;
    while ((opt = getopt(argc, argv, "m:c:o:")) != -1) {
        if (opt == 'm') max = atol(optarg);
        else if (opt == 'c') which = optarg;
        else if (opt == 'o') overlap = optarg;
        else { fprintf(stderr, "usage: %s [-m MAX] [-c LIST] [-o BYTES,...]\n", argv[0]); return 2; }
    }
    if (overlap) MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (overlap) {
        if (0 == rank) printf("# thread level %d (%s)\n", provided,
                              provided == MPI_THREAD_MULTIPLE ? "multiple" : "not multiple: coll hxb falls back");
        run_overlap(overlap);
    } else {
        run_blocking(which, max);
    }
    MPI_Finalize();
    return 0;
}
