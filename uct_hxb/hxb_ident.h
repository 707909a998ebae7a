/* Who a process is on the fabric, derived from its settings and its rails:
 * the job key (UCX_HXB_JOB_KEY), its epoch, its node id, and which frames
 * it checksums (UCX_HXB_CHECKSUM). Plain C, for the UCT glue to fill the
 * engine config before it creates the engine. */
#ifndef HXB_IDENT_H
#define HXB_IDENT_H

#include "hxb_rail.h"

#include <stdint.h>

/* a yes/no/try setting, with the values of UCX's ternary parser */
enum { HXB_IDENT_NO = 0, HXB_IDENT_YES = 1, HXB_IDENT_TRY = 2 };

/* The job key: the setting as a number (strtoull base 0) or, if it is not
 * one, its hash; empty or NULL: the hash of PMIX_NAMESPACE when set, else
 * the fixed default ("hxb-key1"). */
uint64_t hxb_ident_job_key(const char *setting);

/* The job's secret, the key every frame's tag is made with (hxb_auth.h):
 * the launcher's random key of the job (Open MPI's transport key, which
 * every process of an mpirun job has in its environment and other users
 * cannot read), else UCX_HXB_JOB_KEY as given (a random string the user
 * chose), else PMIX_NAMESPACE (guessable). key[] is 0 and the result NULL
 * without any: the engine then derives one from the job key (guessable, as
 * the fixed default is). Returns where it came from, for the log. */
const char *hxb_ident_auth_key(const char *job_key_setting, uint64_t key[2]);

/* the 32 bits of the job key a device address carries (hxb_ident_job_key) */
uint32_t hxb_ident_fabric(uint64_t job_key);

/* The epoch orders incarnations of (node, proc): wall-clock ms, so a
 * restarted process has a later one and stray frames of the old run are
 * recognised as older (PROTOCOL.md 8.9). Never 0. */
uint32_t hxb_ident_epoch(void);

/* The node id: the node's number in the topology file (topo_node >= 0),
 * else the host part of the first rail's IPv4 address (on a /16 or
 * longer prefix), else the last two bytes of its MAC. */
uint16_t hxb_ident_node_id(int topo_node, const hxb_rail_t *rail0);

/* hxb_engine_cfg_t.csum for UCX_HXB_CHECKSUM (HXB_IDENT_*) on rails of this
 * kind. try: where the carrier has no checksum of its own (raw frames; UDP
 * rails have UDP's, dual rails' bulk frames go by UDP). */
int hxb_ident_csum(int checksum, hxb_rail_kind_t mode);

#endif
