/* Unit tests of hxb-stat's shared counters (uct_hxb/hxb_statfile.[ch],
 * hxb_inspect.c): two engines on in-memory rails exchange AMs, A publishes
 * its counters in a file of a temporary directory, and the reader's copy
 * matches the engine; consistent copies while the writer rewrites; dump
 * requests; stale files; a layout of another version refused. */
#include "hxb_statfile.h"
#include "test_world.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "/tmp/hxb-statfile-XXXXXX";

static void setup_dir(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void rm_dir(void)
{
    char cmd[300];

    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
    strcpy(dir, "/tmp/hxb-statfile-XXXXXX");
}

static hxb_statfile_t *open_a(void)
{
    hxb_statfile_id_t id = {.node = 1, .proc = 7, .epoch = 99, .mode = "mem",
                            .period = 0.01};
    hxb_statfile_t *sf = NULL;
    char err[300];

    ck_assert_msg(hxb_statfile_open(&sf, dir, &id, err, sizeof(err)) == 0, "%s", err);
    return sf;
}

static void path_of(char *path, size_t len)
{
    snprintf(path, len, "%s/hxb.%u.%u.7", dir, (unsigned)geteuid(), (unsigned)getpid());
}

static void count_cb(const char *path, void *arg)
{
    (*(int *)arg)++;
}

static uint64_t counter(const hxb_stat_snap_t *s, const char *name)
{
    unsigned i;

    for (i = 0; i < s->hdr.ncounters; i++) {
        if (!strcmp(s->counters[i].name, name)) {
            return s->counters[i].value;
        }
    }
    ck_abort_msg("no counter %s", name);
    return 0;
}

START_TEST(test_roundtrip)
{
    opts_t o = {.nrails = 2};
    hxb_stat_counter_t extra = {"sleeps", 5};
    hxb_stat_snap_t s;
    hxb_statfile_t *sf;
    char path[300], err[300];
    int n = 0;

    world_init(&o);
    run_am(&o, 200, 100, 0);
    setup_dir();
    sf = open_a();
    path_of(path, sizeof(path));
    ck_assert_int_eq(access(path, F_OK), 0);
    hxb_statfile_update(sf, W.a.e, hxb_engine_clock(W.a.e), &extra, 1);

    ck_assert_msg(hxb_stat_read(path, &s, err, sizeof(err)) == 0, "%s", err);
    ck_assert_uint_eq(s.hdr.pid, getpid());
    ck_assert_uint_eq(s.hdr.proc, 7);
    ck_assert_str_eq(s.hdr.mode, "mem");
    ck_assert_uint_eq(s.hdr.updates, 1);
    ck_assert_uint_eq(counter(&s, "tx_frames"), hxb_engine_stats(W.a.e)->tx_frames);
    ck_assert_uint_eq(counter(&s, "am_delivered"), 100);
    ck_assert_uint_eq(counter(&s, "sleeps"), 5);
    ck_assert_uint_eq(counter(&s, "drop_duplicate"),
                      hxb_engine_stats(W.a.e)->drops[HXB_DROP_DUP]);
    ck_assert_uint_eq(s.hdr.nrails, 2);
    ck_assert_uint_eq(s.rails[1].stats.tx_frames, hxb_engine_rail(W.a.e, 1)->stats.tx_frames);
    ck_assert_uint_eq(s.hdr.npeers, 1);
    ck_assert_uint_eq(s.peers[0].rail_mask, 3);
    ck_assert_uint_eq(s.peers[0].stats.tx_frames,
                      hxb_engine_stats(W.a.e)->tx_frames);
    ck_assert_uint_eq(s.peers[0].stats.rx_frames, hxb_engine_stats(W.a.e)->rx_frames);
    ck_assert(s.peers[0].srtt > 0);
    hxb_stat_snap_free(&s);

    ck_assert_int_eq(hxb_stat_alive(path), 1);
    ck_assert_int_eq(hxb_stat_list(dir, geteuid(), count_cb, &n), 1);
    ck_assert_int_eq(n, 1);
    hxb_statfile_close(sf);
    ck_assert_int_eq(access(path, F_OK), -1);
    ck_assert_int_eq(hxb_stat_read(path, &s, err, sizeof(err)), -ENOENT);
    rm_dir();
    teardown();
}
END_TEST

/* a reader copying while the writer rewrites gets whole snapshots only */
static volatile int stop_reader;
static unsigned long reads_ok;

static void *reader(void *arg)
{
    const char *path = arg;
    hxb_stat_snap_t s;
    char err[300];

    while (!stop_reader) {
        ck_assert_msg(hxb_stat_read(path, &s, err, sizeof(err)) == 0, "%s", err);
        /* the extra counter and the update count are written together */
        ck_assert_uint_eq(counter(&s, "gen_copy"), s.hdr.updates);
        ck_assert_uint_eq(s.hdr.nrails, 1);
        hxb_stat_snap_free(&s);
        reads_ok++;
    }
    return NULL;
}

START_TEST(test_consistent)
{
    opts_t o = {.nrails = 1};
    hxb_stat_counter_t extra = {"gen_copy", 0};
    hxb_statfile_t *sf;
    pthread_t t;
    char path[300];
    unsigned long i;

    world_init(&o);
    run_am(&o, 20, 20, 0);
    setup_dir();
    sf = open_a();
    path_of(path, sizeof(path));
    extra.value = 1;
    hxb_statfile_update(sf, W.a.e, 0, &extra, 1);
    stop_reader = 0;
    reads_ok    = 0;
    ck_assert_int_eq(pthread_create(&t, NULL, reader, path), 0);
    for (i = 2; i < 20000 || reads_ok < 100; i++) {
        extra.value = i;
        hxb_statfile_update(sf, W.a.e, 0, &extra, 1);
    }
    stop_reader = 1;
    pthread_join(t, NULL);
    ck_assert_uint_ge(reads_ok, 100);
    hxb_statfile_close(sf);
    rm_dir();
    teardown();
}
END_TEST

static void *requester(void *arg)
{
    static char out[400], err[400];
    int ret = hxb_stat_dump_request(arg, 5.0, out, sizeof(out), err, sizeof(err));

    ck_assert_msg(ret == 0, "%s", err);
    return out;
}

START_TEST(test_dump_request)
{
    opts_t o = {.nrails = 2};
    hxb_statfile_t *sf;
    char path[300], line[300], err[300], out[400];
    int peers = 0, rails = 0;
    pthread_t t;
    void *res;
    FILE *f;

    world_init(&o);
    run_am(&o, 30, 30, 0);
    setup_dir();
    sf = open_a();
    path_of(path, sizeof(path));
    hxb_statfile_update(sf, W.a.e, 0, NULL, 0);
    /* nobody updates: the request times out, saying why */
    ck_assert_int_eq(hxb_stat_dump_request(path, 0.05, out, sizeof(out), err,
                                           sizeof(err)), -ETIMEDOUT);
    ck_assert_ptr_nonnull(strstr(err, "no update"));
    /* the writer's updates serve it */
    ck_assert_int_eq(pthread_create(&t, NULL, requester, path), 0);
    while (pthread_tryjoin_np(t, &res) != 0) {
        hxb_statfile_update(sf, W.a.e, 0, NULL, 0);
        usleep(1000);
    }
    f = fopen(res, "r");
    ck_assert_ptr_nonnull(f);
    while (fgets(line, sizeof(line), f)) {
        peers += !strncmp(line, "peer ", 5);
        rails += !strncmp(line, "rail ", 5);
    }
    fclose(f);
    ck_assert_int_eq(peers, 1);
    ck_assert_int_eq(rails, 2);
    hxb_statfile_close(sf);
    ck_assert_int_eq(access(res, F_OK), -1);    /* the dump goes with it */
    rm_dir();
    teardown();
}
END_TEST

/* a writer that died without closing: not alive, listed never, removed */
START_TEST(test_stale)
{
    opts_t o = {.nrails = 1};
    char path[300], name[300];
    int n = 0, st;
    pid_t pid;

    world_init(&o);
    setup_dir();
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        hxb_statfile_id_t id = {.proc = 7, .mode = "mem", .period = 0.01};
        hxb_statfile_t *sf;
        char err[300];

        if (hxb_statfile_open(&sf, dir, &id, err, sizeof(err)) < 0) {
            _exit(1);
        }
        hxb_statfile_update(sf, W.a.e, 0, NULL, 0);
        _exit(0);      /* no close */
    }
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_int_eq(WEXITSTATUS(st), 0);
    snprintf(path, sizeof(path), "%s/hxb.%u.%u.7", dir, (unsigned)geteuid(),
             (unsigned)pid);
    ck_assert_int_eq(access(path, F_OK), 0);
    ck_assert_int_eq(hxb_stat_alive(path), 0);
    /* names that are not statfiles are left alone */
    snprintf(name, sizeof(name), "%s/hxb.other", dir);
    close(open(name, O_CREAT | O_WRONLY, 0600));
    ck_assert_int_eq(hxb_stat_list(dir, geteuid(), count_cb, &n), 0);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(access(path, F_OK), -1);
    ck_assert_int_eq(access(name, F_OK), 0);
    rm_dir();
    teardown();
}
END_TEST

START_TEST(test_version)
{
    opts_t o = {.nrails = 1};
    hxb_statfile_t *sf;
    hxb_stat_snap_t s;
    hxb_stat_hdr_t *h;
    char path[300], err[300];
    int fd;

    world_init(&o);
    setup_dir();
    sf = open_a();
    path_of(path, sizeof(path));
    hxb_statfile_update(sf, W.a.e, 0, NULL, 0);
    fd = open(path, O_RDWR);
    h  = mmap(NULL, sizeof(*h), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ck_assert_ptr_ne(h, MAP_FAILED);
    h->version = HXB_STAT_VERSION + 1;
    ck_assert_int_eq(hxb_stat_read(path, &s, err, sizeof(err)), -EPROTO);
    ck_assert_ptr_nonnull(strstr(err, "version"));
    h->version = HXB_STAT_VERSION;
    h->magic   = 0;
    ck_assert_int_eq(hxb_stat_read(path, &s, err, sizeof(err)), -EPROTO);
    ck_assert_ptr_nonnull(strstr(err, "not an hxb statfile"));
    h->magic = HXB_STAT_MAGIC;
    ck_assert_int_eq(hxb_stat_read(path, &s, err, sizeof(err)), 0);
    hxb_stat_snap_free(&s);
    munmap(h, sizeof(*h));
    close(fd);
    hxb_statfile_close(sf);
    rm_dir();
    teardown();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("statfile");
    TCase *tc = tcase_create("statfile");

    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    tcase_add_test(tc, test_roundtrip);
    tcase_add_test(tc, test_consistent);
    tcase_add_test(tc, test_dump_request);
    tcase_add_test(tc, test_stale);
    tcase_add_test(tc, test_version);
    return world_run(s);
}
