/* A running process's counters, readable from outside while it runs
 * (hxb-stat): each interface keeps a small file in shared memory,
 *   /dev/shm/hxb.<uid>.<pid>.<proc>       (mode 0600, doc/DESIGN.md)
 * rewritten from the progress pass or the idle tick at most every period,
 * never per frame. A reader copies it under a sequence counter (odd while
 * the writer is at it) and retries until it got one consistent snapshot.
 * The same file carries dump requests: a reader bumps dump_req, the
 * writer's next update writes a state dump to <file>.dump and sets
 * dump_done (no signal needed). The layout is versioned: a reader refuses
 * another major version; records carry their own sizes, so fields added at
 * their end need no new version.
 *
 * Writer (libuct_hxb) and reader (hxb-stat, unit tests) are both here. */
#ifndef HXB_STATFILE_H
#define HXB_STATFILE_H

#include "hxb_engine.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define HXB_STAT_MAGIC   0x54534248u   /* "HBST" */
#define HXB_STAT_VERSION 1
#define HXB_STAT_DIR     "/dev/shm"
#define HXB_STAT_PREFIX  "hxb."
#define HXB_STAT_NAME    32            /* counter names, node names */

typedef struct hxb_stat_counter {      /* a named global counter */
    char     name[HXB_STAT_NAME];
    uint64_t value;
} hxb_stat_counter_t;

typedef struct hxb_stat_rail {
    char     name[16];
    char     kind[8];                  /* raw, udp, dual */
    uint8_t  up, dim, railno, pad;
    uint32_t inflight;                 /* frames in flight, all peers */
    double   window;                   /* its current window (frames) */
    double   speed;                    /* bytes per second */
    hxb_rail_stats_t stats;
} hxb_stat_rail_t;

typedef struct hxb_stat_peer {
    uint16_t node, proc;
    uint32_t epoch;
    uint32_t rail_mask, suspect;
    uint8_t  failed, busy, active, pad;
    uint32_t inflight, unacked, ops_queued, gets_pending, acks_owed;
    double   srtt, rttvar, rto, min_rtt;   /* seconds */
    double   idle;                     /* seconds since its last frame (-1: none) */
    hxb_peer_stats_t stats;
} hxb_stat_peer_t;

typedef struct hxb_stat_hdr {
    uint32_t magic, version;
    uint32_t hdr_size, counter_size, rail_size, peer_size;
    uint32_t size;                     /* bytes in use (the file may be larger) */
    uint32_t gen;                      /* odd while the writer updates */
    uint32_t pid, uid;
    uint16_t node, proc;               /* hxb's ids, as peers see them */
    uint32_t epoch;
    char     node_name[HXB_STAT_NAME]; /* host name */
    char     mode[8];
    double   started, updated;         /* wall clock, seconds since 1970 */
    double   period;                   /* seconds between updates, at most */
    uint64_t updates;
    uint32_t ncounters, nrails;
    uint32_t npeers;                   /* peers in the file ... */
    uint32_t npeers_all;               /* ... of so many (the file's room) */
    uint32_t dump_req;                 /* written by readers */
    uint32_t dump_done;                /* the last request served */
    int32_t  dump_err;                 /* its errno (0: written) */
    uint32_t pad;
    /* then ncounters hxb_stat_counter_t, nrails hxb_stat_rail_t, npeers
     * hxb_stat_peer_t, each of its *_size */
} hxb_stat_hdr_t;

/* --- writer --- */
typedef struct hxb_statfile hxb_statfile_t;

typedef struct hxb_statfile_id {
    uint16_t    node, proc;
    uint32_t    epoch;
    const char *mode;
    double      period;                /* seconds */
} hxb_statfile_id_t;

/* Create the file (dir NULL: HXB_STAT_DIR). Returns 0 or -errno, with a
 * message in err. */
int  hxb_statfile_open(hxb_statfile_t **sf_p, const char *dir,
                       const hxb_statfile_id_t *id, char *err, size_t errlen);
/* Rewrite the file from the engine (and the caller's extra counters), then
 * serve a pending dump request or signal. From the engine's thread, at
 * now (hxb_now's clock); returns when the next update is due. */
double hxb_statfile_update(hxb_statfile_t *sf, hxb_engine_t *e, double now,
                           const hxb_stat_counter_t *extra, int nextra);
/* remove the file (and a dump left behind) */
void hxb_statfile_close(hxb_statfile_t *sf);
/* From now on, signal signo asks every open statfile's process for a dump
 * to stderr at its next update; only if signo's action is the default
 * (an application's own handler is left alone). 0 or -errno. */
int  hxb_statfile_dump_signal(int signo);

/* --- reader --- */
typedef struct hxb_stat_snap {
    hxb_stat_hdr_t      hdr;
    hxb_stat_counter_t *counters;
    hxb_stat_rail_t    *rails;
    hxb_stat_peer_t    *peers;
    void               *buf;           /* the copy the above point into */
} hxb_stat_snap_t;

/* One consistent copy of the file at path. 0, or -errno with a message in
 * err: ENOENT (gone: the process ended), EPROTO (not a statfile, or another
 * major version), EBUSY (no consistent copy: the writer died mid-update) */
int  hxb_stat_read(const char *path, hxb_stat_snap_t *snap, char *err,
                   size_t errlen);
void hxb_stat_snap_free(hxb_stat_snap_t *snap);
/* Is the file's writer alive (1), or gone (0, the file is stale)? */
int  hxb_stat_alive(const char *path);
/* Each live statfile in dir (NULL: HXB_STAT_DIR) of uid (-1: everyone's),
 * in name order: cb(path, arg). Stale files of uid's own are removed on the
 * way. Returns how many, or -errno. */
int  hxb_stat_list(const char *dir, long uid, void (*cb)(const char *path,
                                                          void *arg), void *arg);
/* Ask the writer of path for a state dump and wait up to timeout seconds:
 * 0 with the dump's path in out, or -errno with a message in err
 * (ETIMEDOUT: the process made no update: stopped, or hung in a call). */
int  hxb_stat_dump_request(const char *path, double timeout, char *out,
                           size_t outlen, char *err, size_t errlen);

#endif
