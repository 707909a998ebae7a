/* The one list of settings (uct_hxb/hxb_settings.def): its entries are
 * well formed, and doc/SETTINGS.md is what hxb-settings-doc prints from it
 * (after an edit of the list: make settings-doc). */
#include "hxb_settings_doc.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(FILE *f, size_t *len)
{
    char *buf = NULL;
    size_t n = 0, cap = 0, got;

    do {
        if (cap - n < 4096) {
            cap = cap ? 2 * cap : 65536;
            buf = realloc(buf, cap);
            ck_assert_ptr_nonnull(buf);
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    *len = n;
    return buf;
}

START_TEST(test_entries)
{
    ck_assert_int_eq(hxb_settings_check(stderr), 0);
}
END_TEST

START_TEST(test_doc_current)
{
    const char *path = HXB_SRCDIR "/doc/SETTINGS.md";
    char *want, *have;
    size_t want_len, have_len;
    FILE *f, *mem;

    mem = open_memstream(&want, &want_len);
    ck_assert_ptr_nonnull(mem);
    ck_assert_int_eq(hxb_settings_doc(mem), 0);
    fclose(mem);
    f = fopen(path, "r");
    ck_assert_msg(f != NULL, "%s missing: make settings-doc", path);
    have = slurp(f, &have_len);
    fclose(f);
    ck_assert_msg(have_len == want_len && !memcmp(have, want, want_len),
                  "%s differs from uct_hxb/hxb_settings.def: make settings-doc",
                  path);
    free(have);
    free(want);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("settings");
    TCase *tc = tcase_create("settings");
    SRunner *r;
    int failed;

    tcase_add_test(tc, test_entries);
    tcase_add_test(tc, test_doc_current);
    suite_add_tcase(s, tc);
    r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
