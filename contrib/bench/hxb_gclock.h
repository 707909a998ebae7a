/* hxb_gclock - a global clock for MPI benchmarks: every rank learns the
 * offset and drift of its CLOCK_MONOTONIC against rank 0's (the reference)
 * by ping-pong over the communicator's own transport, and then reads the
 * time in the reference's time base, with an error bound.
 *
 * Why: a timed region started by MPI_Barrier starts at a different moment
 * on every rank (each leaves the barrier when its last message arrives), so
 * each rank times from another origin (PGCCS, seed 003: +-1.8 % error on
 * MPI_Reduce that way, +-0.04 % with a global clock). With a global clock
 * all ranks start at one agreed time and the run time is max(exit) - start
 * (ReproMPI's window scheme).
 *
 * How (SKaMPI / Jones & Koenig style): the reference sends a rank M pings;
 * the rank answers each with its clock reading; of the M round trips the one
 * with the smallest RTT gives a fit point (the rank's local time, its offset
 * = local - reference midpoint, half that RTT as the point's bound). A round
 * takes F such points per rank, spread over the round. The model is a linear
 * regression of offset on local time over the points of all rounds so far
 * (the first sync has two rounds SPAN seconds apart; every resync adds one),
 * so the drift's baseline grows with the run. A drift is used only when it
 * is significant (over 3 standard errors); the error bound at local time t
 * is the largest half min-RTT of the latest round + the fit's RMS residual
 * + 3 standard errors of the drift times |t - centre of the fit|.
 * Flat: the reference syncs every rank in turn (ReproMPI's HCA would sync
 * along a tree; not done, fine up to tens of ranks). */
#ifndef HXB_GCLOCK_H
#define HXB_GCLOCK_H

#include <mpi.h>

/* one fit point: at local time x the rank's clock was y ahead of the
 * reference's, within +-h (half the RTT of the ping-pong that measured it) */
typedef struct {
    double x, y, h;
} hxb_gclock_point_t;

/* offset(t) = offset + drift * (t - x0), t in local seconds */
typedef struct {
    double x0;       /* local time the fit is centred on */
    double offset;   /* local - reference at x0 (s) */
    double drift;    /* s per s, 0 when not significant */
    double drift_fit, drift_se;   /* the regression's slope and its standard error */
    double halfrtt;  /* largest half min-RTT of the latest round's points (s) */
    double resid;    /* RMS residual of the fit (s) */
    int npoints;
} hxb_gclock_model_t;

typedef struct hxb_gclock hxb_gclock_t;

/* CLOCK_MONOTONIC in seconds. Not MPI_Wtime: the standard leaves its clock
 * open (gettimeofday, which steps with NTP, or a cycle counter elsewhere),
 * Open MPI 4.1's counts from the process's own MPI_Init (CLOCK_MONOTONIC
 * minus its value then: hxb-bench-clock-mpi's "node" lines differ by the
 * node offsets plus the ranks' start-up skew of ~1 ms), and a time
 * namespace offsets CLOCK_MONOTONIC, which the testbed's injected offsets
 * rely on. */
double hxb_gclock_local(void);

/* Collective over comm (rank 0 = reference): learn the model (two rounds
 * span seconds apart; span 0: one round, no drift). 0 or an MPI error code;
 * *g is NULL on failure. Settings: HXB_GCLOCK_PINGPONGS (M, default 50),
 * HXB_GCLOCK_POINTS (F, default 8), HXB_GCLOCK_BOTHWAYS (1, the default:
 * each point from ping-pongs both ways; 0: the reference pings only),
 * HXB_GCLOCK_SPIN_US (how long
 * hxb_gclock_wait_until spins after its naps, default 50). Sets the
 * process's timer slack to 1 us (prctl), so that naps end when asked. */
int hxb_gclock_init(hxb_gclock_t **g, MPI_Comm comm, double span);
/* Collective: one more round, model refit over all rounds (long runs) */
int hxb_gclock_resync(hxb_gclock_t *g);
/* Collective: a fresh fit point of this rank from `pingpongs` round trips,
 * not added to the model (checks the model's prediction); rank 0 gets 0s */
int hxb_gclock_measure(hxb_gclock_t *g, int pingpongs, hxb_gclock_point_t *p);
void hxb_gclock_free(hxb_gclock_t *g);

const hxb_gclock_model_t *hxb_gclock_model(const hxb_gclock_t *g);
double hxb_gclock_model_offset(const hxb_gclock_model_t *m, double local);
double hxb_gclock_model_error(const hxb_gclock_model_t *m, double local);

/* now in the reference's time base, and its error bound (s) */
double hxb_gclock_now(const hxb_gclock_t *g);
double hxb_gclock_error(const hxb_gclock_t *g);
/* wait until hxb_gclock_now() >= t (in naps until shortly before, then
 * spinning, driving MPI progress on the clock's communicator meanwhile);
 * returns how late the call came (s, > 0 when t had already passed), else 0 */
double hxb_gclock_wait_until(const hxb_gclock_t *g, double t);

#endif
