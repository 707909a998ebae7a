/* Who drives progress while a non-blocking collective runs on a worker.
 *
 * Under MPI_THREAD_MULTIPLE Open MPI lets one waiting thread at a time call
 * opal_progress (ompi_sync_wait_mt) and parks the others on a condition
 * variable until their requests complete. When the worker waited that way,
 * an application thread in MPI_Wait usually held the role, so every step of
 * the schedule cost the worker a wake-up (on an oversubscribed host, up to
 * a scheduler tick), and the two threads fought over the PML's locks.
 *
 * Instead: the worker never parks. It polls its requests and calls
 * opal_progress itself (mca_coll_hxb_nb_poll), backing off to short sleeps
 * when nothing happens, so it leaves the CPU to the application's
 * computation. Any other thread that spins in opal_progress (MPI_Wait,
 * blocking calls) while a job is pending sleeps in our progress callback
 * until a job completes or a short timeout passes: the worker progresses
 * everything meanwhile, including that thread's own requests. A thread that
 * calls opal_progress only now and then (MPI_Test in a compute loop) is
 * never put to sleep. */
#include "coll_hxb.h"
#include <errno.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "opal/runtime/opal_progress.h"

/* a second progress call within this many ns is a wait loop spinning */
#define SPIN_NS       20000
/* how long a spinning thread sleeps at most (it rechecks its requests) */
#define PARK_NS      200000
/* worker: idle polls before it sleeps (coll_hxb_nb_idle_us) */
#define IDLE_POLLS       16

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t  done = PTHREAD_COND_INITIALIZER;   /* CLOCK_MONOTONIC */
static int  pending;            /* jobs submitted and not completed, all comms */
static bool registered;
static __thread bool is_worker;
static __thread uint64_t last_call;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int park_spinner(void)
{
    if (is_worker || 0 == __atomic_load_n(&pending, __ATOMIC_ACQUIRE)) return 0;
    uint64_t t = now_ns(), prev = last_call;
    last_call = t;
    if (t - prev > SPIN_NS) return 0;
    uint64_t until = t + PARK_NS;
    struct timespec ts = { (time_t)(until / 1000000000ull), (long)(until % 1000000000ull) };
    pthread_mutex_lock(&lock);
    if (__atomic_load_n(&pending, __ATOMIC_ACQUIRE) > 0) {
        (void)pthread_cond_timedwait(&done, &lock, &ts);
    }
    pthread_mutex_unlock(&lock);
    last_call = now_ns();
    return 0;
}

int mca_coll_hxb_nb_progress_init(void)
{
    int rc = OMPI_SUCCESS;
    pthread_mutex_lock(&lock);
    if (!registered) {
        pthread_condattr_t a;
        pthread_condattr_init(&a);
        pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
        pthread_cond_destroy(&done);
        pthread_cond_init(&done, &a);
        pthread_condattr_destroy(&a);
        rc = opal_progress_register(park_spinner);
        registered = (OPAL_SUCCESS == rc);
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

void mca_coll_hxb_nb_progress_fini(void)
{
    if (registered) opal_progress_unregister(park_spinner);
    registered = false;
}

void mca_coll_hxb_nb_submitted(void)
{
    __atomic_add_fetch(&pending, 1, __ATOMIC_RELEASE);
}

/* after the job's request is complete: wake the parked threads */
void mca_coll_hxb_nb_completed(void)
{
    pthread_mutex_lock(&lock);      /* a parker checks pending under it */
    __atomic_sub_fetch(&pending, 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&done);
    pthread_mutex_unlock(&lock);
}

/* struct sched_attr of sched_setattr(2); glibc 2.36 has no wrapper */
struct worker_sched_attr {
    uint32_t size, sched_policy;
    uint64_t sched_flags;
    int32_t  sched_nice;
    uint32_t sched_priority;
    uint64_t sched_runtime, sched_deadline, sched_period;
};

void mca_coll_hxb_nb_worker_enter(void)
{
    is_worker = true;
    (void)prctl(PR_SET_TIMERSLACK, 1000UL);   /* short idle sleeps stay short */
#ifdef SYS_sched_setattr
    /* The worker runs for microseconds per frame or completion while the
     * application computes. With EEVDF (Linux >= 6.6) a woken thread waits
     * for the running one's slice (milliseconds, up to a tick) unless it asks
     * for a shorter slice, which since 6.12 lets it preempt at once: ask
     * for 100 us (SCHED_OTHER only, keeping the thread's nice value; no
     * privilege needed; older kernels ignore or refuse it, harmlessly). */
    struct worker_sched_attr a = { .size = sizeof(a), .sched_policy = 0 /* SCHED_OTHER */,
                                   .sched_runtime = 100000 };
    errno = 0;
    int nice = getpriority(PRIO_PROCESS, 0);   /* this thread's; keep it */
    if (0 != errno || SCHED_OTHER != sched_getscheduler(0)) return;
    a.sched_nice = nice;
    (void)syscall(SYS_sched_setattr, 0, &a, 0);
#endif
}

/* The worker's wait: poll, progress, back off when idle; never parks on
 * Open MPI's wait_sync (see above). Frees the requests like wait_all. */
int mca_coll_hxb_nb_poll(int n, ompi_request_t **reqs)
{
    int idle = 0, left_before = n + 1;
    for (;;) {
        int left = 0;
        for (int i = 0; i < n; i++) {
            if (MPI_REQUEST_NULL != reqs[i] && OMPI_REQUEST_INACTIVE != reqs[i]->req_state &&
                !REQUEST_COMPLETE(reqs[i])) left++;
        }
        if (0 == left) return ompi_request_wait_all(n, reqs, MPI_STATUSES_IGNORE);
        /* opal_progress returns nothing in 4.1: a completion is our event */
        if (left < left_before) {
            idle = 0;
        } else if (++idle >= IDLE_POLLS) {
            int us = mca_coll_hxb_component.nb_idle_us;
            struct timespec ts = { 0, (long)us * 1000 };
            if (us > 0) nanosleep(&ts, NULL); else sched_yield();
        }
        left_before = left;
        opal_progress();
    }
}
