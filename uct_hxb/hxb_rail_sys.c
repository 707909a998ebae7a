/* What raw and UDP rails share: reading an interface's state from the
 * kernel, finding the interfaces to use by default, the dispatch by rail
 * kind, reserving a process id, and placing a rail on the hyper-crossbar. */
#include "hxb_rail.h"

#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static long read_sysfs_long(const char *ifname, const char *attr, long dflt)
{
    char path[128], buf[64];
    FILE *f;
    long v = dflt;

    snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifname, attr);
    f = fopen(path, "r");
    if (f) {
        if (fgets(buf, sizeof(buf), f)) {
            v = strtol(buf, NULL, 10);
        }
        fclose(f);
    }
    return v;
}

int hxb_rail_refresh(hxb_rail_t *rail)
{
    struct ifreq ifr;
    int fd, ret = 0;
    long speed;

    fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) {
        return -errno;
    }
    memset(&ifr, 0, sizeof(ifr));
    snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", rail->ifname);
    if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0) {
        ret = -errno;
        goto out;
    }
    rail->up = (ifr.ifr_flags & IFF_UP) && (ifr.ifr_flags & IFF_RUNNING);
    if (ioctl(fd, SIOCGIFHWADDR, &ifr) == 0) {
        memcpy(rail->mac, ifr.ifr_hwaddr.sa_data, 6);
    }
    if (ioctl(fd, SIOCGIFADDR, &ifr) == 0) {
        rail->ip = ((struct sockaddr_in *)&ifr.ifr_addr)->sin_addr.s_addr;
        if (ioctl(fd, SIOCGIFNETMASK, &ifr) == 0) {
            uint32_t mask = ntohl(((struct sockaddr_in *)&ifr.ifr_netmask)->sin_addr.s_addr);
            rail->prefix = (uint8_t)__builtin_popcount(mask);
            rail->net_id = ntohl(rail->ip) & mask;
        }
    }
    if (rail->speed == 0) {
        /* once: sysfs's speed asks the driver under the RTNL lock (the
         * links' check every 0.1 s read it 6 times at 6 rails, for
         * nothing: a speed once set is kept) */
        speed = read_sysfs_long(rail->ifname, "speed", -1);
        if (speed <= 0) {
            speed = 10000; /* veth and some virtual NICs report nothing */
        }
        rail->speed = speed * 1e6 / 8;
    }
out:
    close(fd);
    return ret;
}

static int rail_open(hxb_rail_kind_t kind, const char *ifname, uint16_t proc_id,
                     uint16_t *port, hxb_rail_t *share, int shared, hxb_rail_t **rail_p,
                     char *err, size_t errlen)
{
    int ret;

    if (strlen(ifname) >= IFNAMSIZ || if_nametoindex(ifname) == 0) {
        snprintf(err, errlen, "rail interface '%s' does not exist", ifname);
        return -ENODEV;
    }
    ret = shared ? hxb_rail_udp_open_shared(ifname, port, share, rail_p, err, errlen) :
          (kind == HXB_RAIL_RAW)  ? hxb_rail_raw_open(ifname, proc_id, rail_p, err, errlen) :
          (kind == HXB_RAIL_DUAL) ? hxb_rail_dual_open(ifname, port, rail_p, err, errlen) :
                                    hxb_rail_udp_open(ifname, port, rail_p, err, errlen);
    if (ret == 0) {
        ret = hxb_rail_refresh(*rail_p);
        if (ret) {
            snprintf(err, errlen, "%s: cannot read interface state: %s", ifname,
                     strerror(-ret));
            (*rail_p)->ops->close(*rail_p);
        }
    }
    return ret;
}

int hxb_rail_open(hxb_rail_kind_t kind, const char *ifname, uint16_t proc_id,
                  uint16_t *port, hxb_rail_t **rail_p, char *err, size_t errlen)
{
    return rail_open(kind, ifname, proc_id, port, NULL, 0, rail_p, err, errlen);
}

int hxb_rail_open_udp_shared(const char *ifname, uint16_t *port, hxb_rail_t *share,
                             hxb_rail_t **rail_p, char *err, size_t errlen)
{
    return rail_open(HXB_RAIL_UDP, ifname, 0, port, share, 1, rail_p, err, errlen);
}

int hxb_rail_default_names(char names[][16], int max)
{
    struct dirent *de;
    char path[300];
    DIR *d = opendir("/sys/class/net");
    int n = 0, type;
    FILE *f;

    if (d == NULL) {
        return 0;
    }
    while ((de = readdir(d)) && (n < max)) {
        if ((de->d_name[0] == '.') || !strcmp(de->d_name, "lo") ||
            (strlen(de->d_name) >= IF_NAMESIZE)) {
            continue;
        }
        snprintf(path, sizeof(path), "/sys/class/net/%s/type", de->d_name);
        type = 0;
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%d", &type) != 1) {
                type = 0;
            }
            fclose(f);
        }
        snprintf(path, sizeof(path), "/sys/class/net/%s/operstate", de->d_name);
        if ((type == 1) && (f = fopen(path, "r"))) {
            char state[32] = "";
            if (fscanf(f, "%31s", state) == 1 &&
                (!strcmp(state, "up") || !strcmp(state, "unknown"))) {
                snprintf(names[n++], IF_NAMESIZE, "%s", de->d_name);
            }
            fclose(f);
        }
    }
    closedir(d);
    return n;
}

void hxb_rail_place(hxb_rail_t *rail, int dim, int railno, double speed)
{
    rail->dim    = (uint8_t)dim;
    rail->railno = (uint8_t)railno;
    if (speed > 0) {
        rail->speed = speed;
    }
}

int hxb_rail_reserve_port(uint16_t *port)
{
    struct sockaddr_in sa = {.sin_family = AF_INET};
    socklen_t len         = sizeof(sa);
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

    if ((fd < 0) || (bind(fd, (struct sockaddr*)&sa, sizeof(sa)) < 0) ||
        (getsockname(fd, (struct sockaddr*)&sa, &len) < 0)) {
        if (fd >= 0) {
            close(fd);
        }
        return -1;
    }
    *port = sa.sin_port;
    return fd;
}
