/* Collective latency for hxb-bench-coll: mean time per call of Allreduce
 * (double sum), Alltoall, Bcast and Allgather, 8 B to MAX bytes per rank
 * (x8 steps), after a warm-up; the slowest rank's mean is reported. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size;
    long max = argc > 1 ? atol(argv[1]) : 1 << 20;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *a = calloc(max * size, 1), *b = calloc(max * size, 1);
    static const char *names[] = { "allreduce", "alltoall", "bcast", "allgather" };
    for (int c = 0; c < 4; c++) {
        for (long bytes = 8; bytes <= max; bytes *= 8) {
            int iters = (int)(bytes >= 65536 ? 10 : 100), n = (int)(bytes / 8);
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
            t /= iters;
            double worst;
            MPI_Reduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            if (0 == rank) printf("bench %s %ld %.1f\n", names[c], bytes, worst * 1e6);
        }
    }
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
