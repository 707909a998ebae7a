/* Frame authentication (PROTOCOL.md 8.13): every frame's tag is a keyed
 * MAC (SipHash-2-4, 64 bits) of its header and extension, or of the whole
 * frame, under a key every process of the job derives from the job's
 * secret; with authentication off, the tag is the job key. */
#ifndef HXB_AUTH_H
#define HXB_AUTH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

enum {
    HXB_AUTH_OFF    = 0,  /* tag = job key: frames of other jobs are told apart,
                           * forged ones are not                              */
    HXB_AUTH_HEADER = 1,  /* MAC of the header and the kind's extension (the
                           * ACK's bitmap included): what changes state       */
    HXB_AUTH_FULL   = 2,  /* MAC of the whole frame, payload included         */
};

typedef struct hxb_auth {
    int      mode;        /* HXB_AUTH_*                                       */
    uint64_t key[2];      /* SipHash key (mode != OFF)                        */
    uint64_t job_key;     /* the tag when mode == OFF                         */
} hxb_auth_t;

/* SipHash-2-4 of the bytes of iov[0..iovcnt) (Aumasson and Bernstein) */
uint64_t hxb_siphash(const uint64_t key[2], const struct iovec *iov, int iovcnt);

/* the same of len contiguous bytes: whole words, no piece bookkeeping (a
 * frame's header and extension, hashed on every frame both ways) */
uint64_t hxb_siphash_buf(const uint64_t key[2], const void *data, size_t len);

/* the 128-bit key derived from a secret of len bytes */
void hxb_auth_derive(const void *secret, size_t len, uint64_t key[2]);

/* "header", "full" or "off" (case ignored): HXB_AUTH_*, -1 if none */
int hxb_auth_mode(const char *name);

#endif
