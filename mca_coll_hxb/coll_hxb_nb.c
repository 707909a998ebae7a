/* Non-blocking Iallreduce and Ibcast: a worker thread per communicator,
 * started at the first one, runs the same schedules as the blocking calls
 * with their own tag, in call order (which MPI makes the same on every
 * rank of the communicator), and completes the request. The worker calls
 * the PML itself, so the collective progresses while the application
 * computes without calling MPI. That needs MPI_THREAD_MULTIPLE: at lower
 * thread levels the PML is not thread safe, and these calls fall back to
 * the component below us (libnbc), which progresses only inside MPI calls. */
#include "coll_hxb.h"
#include <stdlib.h>
#include "ompi/runtime/mpiruntime.h"

typedef struct mca_coll_hxb_job {
    ompi_request_t super;
    struct mca_coll_hxb_job *next;
    int what;                          /* MCA_COLL_HXB_IALLREDUCE or _IBCAST */
    const void *sbuf;
    void *rbuf;
    int count, root;
    ompi_datatype_t *dt;
    ompi_op_t *op;
    mca_coll_hxb_tune_t tune;          /* the thresholds when it was called */
} mca_coll_hxb_job_t;

static int job_free(ompi_request_t **req)
{
    mca_coll_hxb_job_t *job = (mca_coll_hxb_job_t *)*req;
    /* the application's thread: if this was the communicator's last
     * reference, its destructor joins the (idle) worker from here */
    OBJ_RELEASE(job->super.req_mpi_object.comm);
    OBJ_RELEASE(job->dt);
    if (job->op) OBJ_RELEASE(job->op);
    OMPI_REQUEST_FINI(&job->super);
    OBJ_DESTRUCT(&job->super);
    free(job);
    *req = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

static int job_cancel(ompi_request_t *req, int complete)
{
    return OMPI_SUCCESS;     /* collectives cannot be cancelled */
}

static void *worker(void *arg)
{
    mca_coll_hxb_module_t *m = arg;
    ompi_communicator_t *comm = NULL;
    mca_coll_hxb_nb_worker_enter();
    pthread_mutex_lock(&m->lock);
    for (;;) {
        while (NULL == m->head && !m->stop) pthread_cond_wait(&m->cond, &m->lock);
        mca_coll_hxb_job_t *job = m->head;
        if (NULL == job) break;
        m->head = job->next;
        if (NULL == m->head) m->tail = NULL;
        pthread_mutex_unlock(&m->lock);

        comm = job->super.req_mpi_object.comm;
        mca_coll_hxb_ctx_t c;
        mca_coll_hxb_ctx_init(&c, m, comm, MCA_COLL_HXB_TAG_NB);
        c.poll = true;
        c.tune = job->tune;
        int rc = (MCA_COLL_HXB_IALLREDUCE == job->what)
            ? mca_coll_hxb_allreduce_do(&c, job->sbuf, job->rbuf, job->count, job->dt, job->op)
            : mca_coll_hxb_bcast_do(&c, job->rbuf, job->count, job->dt, job->root);
        mca_coll_hxb_ctx_fini(&c);
        mca_coll_hxb_count(job->what);
        job->super.req_status.MPI_ERROR = rc;
        ompi_request_complete(&job->super, true);   /* the job is the caller's now */
        mca_coll_hxb_nb_completed();

        pthread_mutex_lock(&m->lock);
    }
    pthread_mutex_unlock(&m->lock);
    return NULL;
}

void mca_coll_hxb_worker_stop(mca_coll_hxb_module_t *m)
{
    if (!m->thread_started) return;
    pthread_mutex_lock(&m->lock);
    m->stop = true;
    pthread_cond_signal(&m->cond);
    pthread_mutex_unlock(&m->lock);
    pthread_join(m->thread, NULL);   /* drains the queue first */
    m->thread_started = false;
}

static int submit(mca_coll_hxb_module_t *m, ompi_communicator_t *comm, int what,
                  const void *sbuf, void *rbuf, int count, ompi_datatype_t *dt,
                  ompi_op_t *op, int root, ompi_request_t **req)
{
    mca_coll_hxb_job_t *job = calloc(1, sizeof(*job));
    if (NULL == job) return OMPI_ERR_OUT_OF_RESOURCE;
    OBJ_CONSTRUCT(&job->super, ompi_request_t);
    OMPI_REQUEST_INIT(&job->super, false);
    job->super.req_type = OMPI_REQUEST_COLL;
    job->super.req_state = OMPI_REQUEST_ACTIVE;
    job->super.req_free = job_free;
    job->super.req_cancel = job_cancel;
    /* MPI lets the application free the communicator before the request
     * completes: the job keeps it (and so this module and its worker) */
    job->super.req_mpi_object.comm = comm;
    OBJ_RETAIN(comm);
    job->what = what;
    mca_coll_hxb_tune_get(&job->tune);
    job->sbuf = sbuf;
    job->rbuf = rbuf;
    job->count = count;
    job->root = root;
    job->dt = dt;
    OBJ_RETAIN(dt);
    job->op = op;
    if (op) OBJ_RETAIN(op);
    *req = &job->super;

    pthread_mutex_lock(&m->lock);
    if (!m->thread_started) {
        if (OMPI_SUCCESS != mca_coll_hxb_nb_progress_init() ||
            0 != pthread_create(&m->thread, NULL, worker, m)) {
            pthread_mutex_unlock(&m->lock);
            *req = MPI_REQUEST_NULL;
            ompi_request_t *r = &job->super;
            job_free(&r);
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        m->thread_started = true;
    }
    job->next = NULL;
    if (m->tail) m->tail->next = job; else m->head = job;
    m->tail = job;
    mca_coll_hxb_nb_submitted();
    pthread_cond_signal(&m->cond);
    pthread_mutex_unlock(&m->lock);
    return OMPI_SUCCESS;
}

int mca_coll_hxb_iallreduce(const void *sbuf, void *rbuf, int count, ompi_datatype_t *dt,
                            ompi_op_t *op, ompi_communicator_t *comm,
                            ompi_request_t **req, mca_coll_base_module_t *module)
{
    mca_coll_hxb_module_t *m = (mca_coll_hxb_module_t *)module;
    if (!ompi_mpi_thread_multiple || !ompi_op_is_commute(op) || !mca_coll_hxb_ready(m, comm, false)) {
        mca_coll_hxb_count(MCA_COLL_HXB_FALLBACK);
        return m->prev.coll_iallreduce(sbuf, rbuf, count, dt, op, comm, req,
                                       m->prev.coll_iallreduce_module);
    }
    return submit(m, comm, MCA_COLL_HXB_IALLREDUCE, sbuf, rbuf, count, dt, op, -1, req);
}

int mca_coll_hxb_ibcast(void *buf, int count, ompi_datatype_t *dt, int root,
                        ompi_communicator_t *comm, ompi_request_t **req,
                        mca_coll_base_module_t *module)
{
    mca_coll_hxb_module_t *m = (mca_coll_hxb_module_t *)module;
    if (!ompi_mpi_thread_multiple || !mca_coll_hxb_ready(m, comm, false)) {
        mca_coll_hxb_count(MCA_COLL_HXB_FALLBACK);
        return m->prev.coll_ibcast(buf, count, dt, root, comm, req, m->prev.coll_ibcast_module);
    }
    return submit(m, comm, MCA_COLL_HXB_IBCAST, NULL, buf, count, dt, NULL, root, req);
}
