/* Unit tests of a process's identity (uct_hxb/hxb_ident.[ch]): job key,
 * epoch, node id, checksum rule. */
#include "hxb_engine.h"
#include "hxb_ident.h"

#include <arpa/inet.h>
#include <check.h>
#include <stdlib.h>
#include <time.h>

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;

    while (*s) {
        h = (h ^ (uint8_t)*s++) * 0x100000001b3ull;
    }
    return h;
}

START_TEST(test_job_key)
{
    unsetenv("PMIX_NAMESPACE");
    ck_assert_uint_eq(hxb_ident_job_key("0x5eed0fc0ffee"), 0x5eed0fc0ffeeull);
    ck_assert_uint_eq(hxb_ident_job_key("42"), 42);
    ck_assert_uint_eq(hxb_ident_job_key("my-job"), fnv1a("my-job"));
    ck_assert_uint_eq(hxb_ident_job_key("12ab"), fnv1a("12ab"));   /* not a number */
    ck_assert_uint_eq(hxb_ident_job_key(""), 0x6878622d6b657931ull);
    ck_assert_uint_eq(hxb_ident_job_key(NULL), 0x6878622d6b657931ull);
    setenv("PMIX_NAMESPACE", "prterun-host-1234@1", 1);
    ck_assert_uint_eq(hxb_ident_job_key(""), fnv1a("prterun-host-1234@1"));
    ck_assert_uint_eq(hxb_ident_job_key("7"), 7);   /* the setting wins */
    unsetenv("PMIX_NAMESPACE");
    ck_assert_uint_eq(hxb_ident_fabric(0x1111111122222222ull), 0x33333333u);
}
END_TEST

START_TEST(test_epoch)
{
    uint64_t now_ms = (uint64_t)time(NULL) * 1000ull;
    uint32_t e = hxb_ident_epoch();

    ck_assert_uint_ne(e, 0);
    /* wall-clock ms, modulo 2^32 */
    ck_assert_uint_le((uint32_t)(e - (uint32_t)now_ms), 2000);
}
END_TEST

START_TEST(test_node_id)
{
    hxb_rail_t r = {.ip = htonl(0x0a010203), .mac = {2, 0, 0, 0, 0xab, 0xcd}};

    ck_assert_uint_eq(hxb_ident_node_id(7, &r), 7);
    ck_assert_uint_eq(hxb_ident_node_id(-1, &r), 0x0203);   /* host part */
    r.ip = 0;
    ck_assert_uint_eq(hxb_ident_node_id(-1, &r), 0xabcd);   /* MAC */
}
END_TEST

START_TEST(test_csum)
{
    ck_assert_int_eq(hxb_ident_csum(HXB_IDENT_YES, HXB_RAIL_UDP), HXB_CSUM_ALL);
    ck_assert_int_eq(hxb_ident_csum(HXB_IDENT_YES, HXB_RAIL_RAW), HXB_CSUM_ALL);
    ck_assert_int_eq(hxb_ident_csum(HXB_IDENT_NO, HXB_RAIL_RAW), HXB_CSUM_NONE);
    ck_assert_int_eq(hxb_ident_csum(HXB_IDENT_TRY, HXB_RAIL_RAW), HXB_CSUM_CARRIER);
    ck_assert_int_eq(hxb_ident_csum(HXB_IDENT_TRY, HXB_RAIL_DUAL), HXB_CSUM_CARRIER);
    ck_assert_int_eq(hxb_ident_csum(HXB_IDENT_TRY, HXB_RAIL_UDP), HXB_CSUM_NONE);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ident");
    TCase *tc = tcase_create("ident");
    SRunner *r;
    int failed;

    tcase_add_test(tc, test_job_key);
    tcase_add_test(tc, test_epoch);
    tcase_add_test(tc, test_node_id);
    tcase_add_test(tc, test_csum);
    suite_add_tcase(s, tc);
    r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
