/* XDP program for hxb-xdp-floor: frames of EtherType 0x88B6 go to the
 * AF_XDP socket of their rx queue, everything else to the stack. Loaded
 * as "xdp.frags" (multi-buffer): veth refuses a single-buffer program
 * when the peer's MTU (9000) exceeds a page.
 * Built by make (Makefile.am, beside the relay's tc program). */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

struct {
    __uint(type, BPF_MAP_TYPE_XSKMAP);
    __uint(max_entries, 64);
    __type(key, __u32);
    __type(value, __u32);
} xsks SEC(".maps");

SEC("xdp.frags")
int hxb_xdp_floor(struct xdp_md *ctx)
{
    void *data = (void *)(long)ctx->data;
    void *end = (void *)(long)ctx->data_end;
    struct ethhdr *eh = data;

    if ((void *)(eh + 1) > end || eh->h_proto != bpf_htons(0x88B6)) {
        return XDP_PASS;
    }
    return bpf_redirect_map(&xsks, ctx->rx_queue_index, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
