/* The global clock over time, for hxb-bench-clock: every rank learns its
 * clock's offset and drift against rank 0 (hxb_gclock), then every INTERVAL
 * seconds for DURATION seconds a fresh ping-pong measures each rank's offset
 * again, which is compared with what the model predicted for that moment:
 * the model as resynced at every check so far ("model", as a benchmark that
 * resyncs between repetitions uses it) and the first sync's alone ("first").
 * Rank 0 prints, one line per rank (times in seconds unless named):
 *   node RANK HOST WTIME_MINUS_MONOTONIC
 *   sync RANK OFFSET DRIFT_PPM DRIFT_SE_PPM BOUND_US HALFRTT_US RESID_US POINTS
 *   check K ELAPSED RANK MEASURED PREDICTED DIFF_US FIRST_DIFF_US MEAS_HALFRTT_US BOUND_US
 * (ELAPSED: seconds since the first sync, by rank 0's clock; on a busy host a
 * check and resync may take longer than INTERVAL, and the times already
 * past are skipped)
 *   final RANK OFFSET DRIFT_PPM DRIFT_SE_PPM BOUND_US HALFRTT_US RESID_US POINTS
 * (OFFSET = the rank's CLOCK_MONOTONIC minus rank 0's, at the time of the line)
 *
 *   hxb-bench-clock-mpi [-d DURATION] [-i INTERVAL] [-s SPAN] [-p PINGPONGS] [-n]
 *     -s  seconds between the first sync's two rounds (default 1)
 *     -p  round trips of each check's measurement (default 200)
 *     -n  no resync at the checks (the model stays the first sync's) */
#include "hxb_gclock.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int rank, size;

/* until local time `until`, in 1 ms naps with MPI progress between them:
 * a rank outside MPI for the whole interval (10 s, btl hxb's default peer
 * timeout) once had a peer declare it failed ("Endpoint timeout") on a
 * host with a load of 25, although hxb's idle tick should vouch for it */
static void wait_local(double until)
{
    double now;
    while ((now = hxb_gclock_local()) < until) {
        double s = until - now < 1e-3 ? until - now : 1e-3;
        struct timespec ts = { 0, (long)(s * 1e9) };
        int flag;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        nanosleep(&ts, NULL);
    }
}

/* the model's figures of every rank, printed by rank 0 as "WHAT RANK ..." */
static void print_model(const char *what, hxb_gclock_t *g)
{
    const hxb_gclock_model_t *m = hxb_gclock_model(g);
    double t = hxb_gclock_local();
    double mine[7] = { hxb_gclock_model_offset(m, t), m->drift * 1e6, m->drift_se * 1e6,
                       hxb_gclock_model_error(m, t) * 1e6, m->halfrtt * 1e6, m->resid * 1e6, m->npoints };
    double *all = malloc(sizeof(mine) * size);
    MPI_Gather(mine, 7, MPI_DOUBLE, all, 7, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int r = 0; 0 == rank && r < size; r++) {
        double *v = all + 7 * r;
        printf("%s %d %.9f %.4f %.4f %.2f %.2f %.2f %.0f\n", what, r, v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
    }
    fflush(stdout);
    free(all);
}

int main(int argc, char **argv)
{
    double duration = 600, interval = 10, span = 1;
    int opt, pingpongs = 200, resync = 1, rc;
    char host[MPI_MAX_PROCESSOR_NAME];
    while ((opt = getopt(argc, argv, "d:i:s:p:nh")) != -1) {
        if (opt == 'd') duration = atof(optarg);
        else if (opt == 'i') interval = atof(optarg);
        else if (opt == 's') span = atof(optarg);
        else if (opt == 'p') pingpongs = atoi(optarg);
        else if (opt == 'n') resync = 0;
        else {
            fprintf(stderr, "usage: %s [-d DURATION] [-i INTERVAL] [-s SPAN] [-p PINGPONGS] [-n]\n", argv[0]);
            return opt == 'h' ? 0 : 2;
        }
    }
    if (interval <= 0 || duration < 0) { fprintf(stderr, "%s: -i must be > 0, -d >= 0\n", argv[0]); return 2; }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* which node each rank is on, and how far MPI_Wtime is from CLOCK_MONOTONIC
     * there (equal clocks differ by a constant; not so under a time namespace
     * or when MPI_Wtime is another clock) */
    int len;
    char (*hosts)[MPI_MAX_PROCESSOR_NAME] = malloc(sizeof(*hosts) * size);
    double d = MPI_Wtime() - hxb_gclock_local(), *ds = malloc(sizeof(double) * size);
    memset(host, 0, sizeof(host));
    MPI_Get_processor_name(host, &len);
    MPI_Gather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Gather(&d, 1, MPI_DOUBLE, ds, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int r = 0; 0 == rank && r < size; r++) printf("node %d %s %.6f\n", r, hosts[r], ds[r]);

    hxb_gclock_t *g;
    double t0 = hxb_gclock_local();
    rc = hxb_gclock_init(&g, MPI_COMM_WORLD, span);
    if (MPI_SUCCESS != rc) {
        fprintf(stderr, "hxb-bench-clock-mpi: rank %d: clock sync failed (MPI error %d)\n", rank, rc);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (0 == rank) printf("# sync took %.3f s\n", hxb_gclock_local() - t0);
    print_model("sync", g);
    hxb_gclock_model_t first = *hxb_gclock_model(g);
    double start = hxb_gclock_local(), *all = malloc(sizeof(double) * 6 * size);
    for (int k = 1, c = 1; k * interval <= duration + 1e-9; k++, c++) {
        hxb_gclock_point_t p;
        double elapsed;
        wait_local(start + k * interval);
        /* a check that took longer than the interval (a busy host) makes
         * the next ones skip their times, so the run lasts DURATION; all
         * ranks agree on how many, by rank 0's clock */
        elapsed = hxb_gclock_local() - start;
        MPI_Bcast(&elapsed, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (elapsed > duration + interval) break;
        rc = hxb_gclock_measure(g, pingpongs, &p);
        if (MPI_SUCCESS != rc) {
            fprintf(stderr, "hxb-bench-clock-mpi: rank %d: check %d failed (MPI error %d)\n", rank, k, rc);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        const hxb_gclock_model_t *m = hxb_gclock_model(g);
        double pred = hxb_gclock_model_offset(m, p.x);
        double mine[6] = { p.y, pred, (p.y - pred) * 1e6, (p.y - hxb_gclock_model_offset(&first, p.x)) * 1e6,
                           p.h * 1e6, hxb_gclock_model_error(m, p.x) * 1e6 };
        if (0 == rank) memset(mine, 0, sizeof(mine));
        MPI_Gather(mine, 6, MPI_DOUBLE, all, 6, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        for (int r = 0; 0 == rank && r < size; r++) {
            double *v = all + 6 * r;
            printf("check %d %.1f %d %.9f %.9f %.3f %.3f %.2f %.2f\n", c, elapsed, r,
                   v[0], v[1], v[2], v[3], v[4], v[5]);
        }
        if (0 == rank) fflush(stdout);
        if (resync && MPI_SUCCESS != (rc = hxb_gclock_resync(g))) {
            fprintf(stderr, "hxb-bench-clock-mpi: rank %d: resync failed (MPI error %d)\n", rank, rc);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        elapsed = hxb_gclock_local() - start;
        MPI_Bcast(&elapsed, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        while ((k + 1) * interval < elapsed) k++;   /* the times already past */
    }
    print_model("final", g);
    if (0 == rank) printf("hxb_bench_clock: ok\n");
    hxb_gclock_free(g);
    free(all);
    free(hosts);
    free(ds);
    MPI_Finalize();
    return 0;
}
