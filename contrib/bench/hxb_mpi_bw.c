/* MPI-level bandwidth, latency and collective timing for the hxb benchmarks
 * (contrib/bench/hxb-bench-mpi). Not a test: it prints figures.
 *
 *   hxb-mpi-bw -t bw   [-s BYTES] [-w WINDOW] [-n WINDOWS]
 *       rank 0 sends WINDOWS windows of WINDOW non-blocking sends of BYTES
 *       to rank 1, which pre-posts the receives and answers each window with
 *       a 4-byte ack (as osu_bw does). MB/s = 10^6 bytes/s.
 *   hxb-mpi-bw -t bibw [-s BYTES] [-w WINDOW] [-n WINDOWS]
 *       ranks 0 and 1 both send and receive a window at once; MB/s counts
 *       both directions together.
 *   hxb-mpi-bw -t lat  [-s BYTES] [-n ITERS]
 *       ping-pong between ranks 0 and 1; half round trip in us.
 *   hxb-mpi-bw -t allreduce|alltoall [-s MAX_BYTES] [-n ITERS]
 *       every rank; sizes 8 B .. MAX_BYTES (doubling, per rank: the
 *       Allreduce vector / the Alltoall block to each peer); time per call
 *       is the slowest rank's average, after ITERS/10 warm-up calls.
 *
 * bw, bibw and lat need exactly 2 ranks. Output lines
 * start with "hxb_mpi_bw:" and have key=value fields:
 *   hxb_mpi_bw: bw size=1048576 window=16 windows=20 MB/s=123.4 secs=2.71
 *   hxb_mpi_bw: lat size=8 iters=10000 us=61.2
 *   hxb_mpi_bw: allreduce np=8 size=8 iters=1000 us=123.4 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, nprocs;

static void usage(void)
{
    if (rank == 0)
        fprintf(stderr, "usage: hxb-mpi-bw -t bw|bibw|lat|allreduce|alltoall "
                "[-s BYTES] [-w WINDOW] [-n COUNT]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static void *xalloc(size_t len)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, len ? len : 1)) {
        fprintf(stderr, "hxb_mpi_bw: rank %d: out of memory (%zu)\n", rank, len);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(p, rank + 1, len);
    return p;
}

static void run_bw(int bidir, size_t size, int window, int windows)
{
    int peer = rank ^ 1, i, w, ack = 0;
    char *sbuf = xalloc(size * window), *rbuf = xalloc(size * window);
    MPI_Request *req = calloc(2 * window, sizeof(*req));
    double t0 = 0, t;

    /* one warm-up window, not timed (connections, registrations) */
    for (i = -1; i < windows; i++) {
        if (i == 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
        }
        if (bidir) {
            for (w = 0; w < window; w++)
                MPI_Irecv(rbuf + w * size, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[w]);
            for (w = 0; w < window; w++)
                MPI_Isend(sbuf + w * size, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD,
                          &req[window + w]);
            MPI_Waitall(2 * window, req, MPI_STATUSES_IGNORE);
        } else if (rank == 0) {
            for (w = 0; w < window; w++)
                MPI_Isend(sbuf + w * size, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[w]);
            MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
            MPI_Recv(&ack, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            for (w = 0; w < window; w++)
                MPI_Irecv(rbuf + w * size, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[w]);
            MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
            MPI_Send(&ack, 1, MPI_INT, peer, 2, MPI_COMM_WORLD);
        }
    }
    t = MPI_Wtime() - t0;
    if (bidir) {        /* both ranks finished their own receives: the later one counts */
        double tt;
        MPI_Reduce(&t, &tt, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        t = tt;
    }
    if (rank == 0)
        printf("hxb_mpi_bw: %s size=%zu window=%d windows=%d MB/s=%.1f secs=%.2f\n",
               bidir ? "bibw" : "bw", size, window, windows,
               (double)size * window * windows * (bidir ? 2 : 1) / t / 1e6, t);
    free(sbuf);
    free(rbuf);
    free(req);
}

static void run_lat(size_t size, int iters)
{
    int peer = rank ^ 1, i, warm = iters / 10 + 10;
    char *buf = xalloc(size);
    double t0 = 0;

    for (i = -warm; i < iters; i++) {
        if (i == 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
        }
        if (rank == 0) {
            MPI_Send(buf, size, MPI_BYTE, peer, 3, MPI_COMM_WORLD);
            MPI_Recv(buf, size, MPI_BYTE, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, size, MPI_BYTE, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, size, MPI_BYTE, peer, 3, MPI_COMM_WORLD);
        }
    }
    if (rank == 0)
        printf("hxb_mpi_bw: lat size=%zu iters=%d us=%.2f\n", size, iters,
               (MPI_Wtime() - t0) / iters / 2 * 1e6);
    free(buf);
}

static void run_coll(int alltoall, size_t max, int iters)
{
    size_t size, n;
    char *sbuf = xalloc(alltoall ? max * nprocs : max);
    char *rbuf = xalloc(alltoall ? max * nprocs : max);
    int i, it;

    for (size = 8; size <= max; size *= 2) {
        /* fewer calls for large sizes: about the same bytes per size */
        it = iters;
        if (size > 8192)
            it = (int)((double)iters * 8192 / size);
        if (it < 10)
            it = 10;
        double t0 = 0, t, tmax;
        for (i = -(it / 10 + 2); i < it; i++) {
            if (i == 0) {
                MPI_Barrier(MPI_COMM_WORLD);
                t0 = MPI_Wtime();
            }
            if (alltoall) {
                MPI_Alltoall(sbuf, size, MPI_BYTE, rbuf, size, MPI_BYTE, MPI_COMM_WORLD);
            } else {
                n = size / sizeof(double);
                MPI_Allreduce(sbuf, rbuf, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            }
        }
        t = (MPI_Wtime() - t0) / it;
        MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            printf("hxb_mpi_bw: %s np=%d size=%zu iters=%d us=%.2f\n",
                   alltoall ? "alltoall" : "allreduce", nprocs, size, it, tmax * 1e6);
            fflush(stdout);
        }
    }
    free(sbuf);
    free(rbuf);
}

int main(int argc, char **argv)
{
    const char *test = "bw";
    size_t size = 1048576;
    int window = 16, count = 0, c, ok = 1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    while ((c = getopt(argc, argv, "t:s:w:n:")) != -1) {
        switch (c) {
        case 't': test = optarg; break;
        case 's': size = strtoull(optarg, NULL, 0); break;
        case 'w': window = atoi(optarg); break;
        case 'n': count = atoi(optarg); break;
        default: usage();
        }
    }
    if (window < 1)
        usage();
    if (!strcmp(test, "bw") || !strcmp(test, "bibw") || !strcmp(test, "lat")) {
        if (nprocs != 2) {
            if (rank == 0)
                fprintf(stderr, "hxb_mpi_bw: %s needs exactly 2 ranks (-np 2)\n", test);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        if (!strcmp(test, "lat"))
            run_lat(size, count ? count : 10000);
        else
            run_bw(!strcmp(test, "bibw"), size, window, count ? count : 20);
    } else if (!strcmp(test, "allreduce") || !strcmp(test, "alltoall")) {
        run_coll(!strcmp(test, "alltoall"), size, count ? count : 1000);
    } else {
        ok = 0;
    }
    if (!ok)
        usage();
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
