/* Identity of a process on the fabric (hxb_ident.h). */
#include "hxb_ident.h"
#include "hxb_engine.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t hxb_hash64(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;   /* FNV-1a */

    while (*s) {
        h ^= (uint8_t)*s++;
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t hxb_ident_job_key(const char *setting)
{
    const char *ns;
    char *end;
    uint64_t v;

    if (setting && *setting) {
        v = strtoull(setting, &end, 0);
        return (*end == '\0') ? v : hxb_hash64(setting);
    }
    ns = getenv("PMIX_NAMESPACE");
    if (ns && *ns) {
        return hxb_hash64(ns);
    }
    return 0x6878622d6b657931ull; /* "hxb-key1" */
}

const char *hxb_ident_auth_key(const char *job_key_setting, uint64_t key[2])
{
    static const char *const launcher[] = {
        "OMPI_MCA_orte_precondition_transports",   /* Open MPI 4.1 (ORTE) */
        "OMPI_MCA_opal_precondition_transports",   /* Open MPI 5 */
        "PMIX_MCA_precondition_transports",
    };
    const char *s;
    unsigned i;

    key[0] = key[1] = 0;
    for (i = 0; i < sizeof(launcher) / sizeof(launcher[0]); i++) {
        if ((s = getenv(launcher[i])) && *s) {
            hxb_auth_derive(s, strlen(s), key);
            return launcher[i];
        }
    }
    if (job_key_setting && *job_key_setting) {
        hxb_auth_derive(job_key_setting, strlen(job_key_setting), key);
        return "UCX_HXB_JOB_KEY";
    }
    if ((s = getenv("PMIX_NAMESPACE")) && *s) {
        hxb_auth_derive(s, strlen(s), key);
        return "PMIX_NAMESPACE";
    }
    return NULL;
}

uint32_t hxb_ident_fabric(uint64_t job_key)
{
    return (uint32_t)(job_key ^ (job_key >> 32));
}

uint32_t hxb_ident_epoch(void)
{
    struct timespec ts;
    uint32_t epoch;

    clock_gettime(CLOCK_REALTIME, &ts);
    epoch = (uint32_t)(ts.tv_sec * 1000ull + ts.tv_nsec / 1000000);
    return epoch ? epoch : 1;
}

uint16_t hxb_ident_node_id(int topo_node, const hxb_rail_t *rail0)
{
    if (topo_node >= 0) {
        return (uint16_t)topo_node;
    } else if (rail0->ip) {
        return (uint16_t)ntohl(rail0->ip);   /* host part on a /16+ */
    }
    return (uint16_t)((rail0->mac[4] << 8) | rail0->mac[5]);
}

int hxb_ident_csum(int checksum, hxb_rail_kind_t mode)
{
    return (checksum == HXB_IDENT_YES) ? HXB_CSUM_ALL :
           ((checksum == HXB_IDENT_TRY) && (mode != HXB_RAIL_UDP)) ?
           HXB_CSUM_CARRIER : HXB_CSUM_NONE;
}
