/* Runs a fuzz target over saved inputs, without libFuzzer: make check
 * replays the committed corpus so that every input that ever found a bug,
 * and the seeds that reach each frame kind, stay checked by CI. Arguments
 * are files or directories; none means the target's corpus in the source
 * tree (FUZZ_CORPUS). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;

    if (!f) {
        perror(path);
        return -1;
    }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    buf = malloc(n > 0 ? (size_t)n : 1);
    if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
        fprintf(stderr, "%s: cannot read\n", path);
        fclose(f);
        free(buf);
        return -1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    free(buf);
    return 0;
}

static int run_path(const char *path, unsigned *count)
{
    struct stat st;
    struct dirent *d;
    DIR *dir;
    int rc = 0;

    if (stat(path, &st) < 0) {
        perror(path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        (*count)++;
        return run_file(path);
    }
    if (!(dir = opendir(path))) {
        perror(path);
        return -1;
    }
    while ((d = readdir(dir)) && rc == 0) {
        char sub[4096];
        if (d->d_name[0] == '.') {
            continue;
        }
        snprintf(sub, sizeof(sub), "%s/%s", path, d->d_name);
        rc = run_path(sub, count);
    }
    closedir(dir);
    return rc;
}

int main(int argc, char **argv)
{
    unsigned count = 0;
    int i, rc = 0;

    if (argc < 2) {
        rc = run_path(FUZZ_CORPUS, &count);
    }
    for (i = 1; i < argc && rc == 0; i++) {
        rc = run_path(argv[i], &count);
    }
    printf("%u inputs replayed%s\n", count, rc ? ", stopped on an error" : "");
    return rc || count == 0 ? 1 : 0;
}
