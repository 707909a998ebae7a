/* The cluster key file (hxb_relay_key.h). */
#include "hxb_relay_key.h"

#include "hxb_auth.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int hxb_relay_key_load(const char *path, int required, uint64_t key[2],
                       char *err, size_t errlen)
{
    unsigned char buf[256];
    struct stat st;
    ssize_t n;
    int fd;

    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        if (errno == ENOENT && !required) {
            return 1;
        }
        snprintf(err, errlen, "cluster key %s: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
        (st.st_mode & 077)) {
        snprintf(err, errlen, "cluster key %s must be a regular file owned by root that "
                 "no one else may read or write (chown root %s; chmod 600 %s)",
                 path, path, path);
        close(fd);
        return -1;
    }
    n = read(fd, buf, sizeof(buf));
    close(fd);
    if (n < 16) {
        snprintf(err, errlen, "cluster key %s: needs at least 16 bytes of secret "
                 "(head -c 32 /dev/urandom > %s)", path, path);
        return -1;
    }
    hxb_auth_derive(buf, (size_t)n, key);
    memset(buf, 0, sizeof(buf));
    return 0;
}
