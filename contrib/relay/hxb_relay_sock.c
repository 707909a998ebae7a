#include "hxb_relay_sock.h"

#include "hxb_wire.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/if_packet.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int hxb_relay_hello_socket(int ifindex, int probes)
{
    /* both kinds are sent to HXB_NODE_NONE, which the relay's tc program
     * passes up unchanged */
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 1),               /* kind */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, HXB_K_HELLO, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, probes ? HXB_K_PROBE : HXB_K_HELLO, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, 0xffff),
        BPF_STMT(BPF_RET | BPF_K, 0),
    };
    struct sock_fprog prog = {sizeof(code) / sizeof(code[0]), code};
    struct sockaddr_ll sll;
    int fd;

    /* protocol 0 until bound: a packet socket opened with a protocol takes
     * frames from every interface until bind() narrows it to one, and
     * those would count as heard on this rail */
    fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return -errno;
    }
    if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) < 0) {
        close(fd);
        return -errno;
    }
    memset(&sll, 0, sizeof(sll));
    sll.sll_family   = AF_PACKET;
    sll.sll_protocol = htons(HXB_ETHERTYPE);
    sll.sll_ifindex  = ifindex;
    if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
        close(fd);
        return -errno;
    }
    return fd;
}
