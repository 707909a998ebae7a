/* hxb-settings-doc: print doc/SETTINGS.md, the table of every UCX_HXB_*
 * setting, from uct_hxb/hxb_settings.def. `make settings-doc` rewrites the
 * file; test/unit/test_settings.c fails while it differs from this output. */
#include "hxb_settings.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "hxb_settings_doc.h"

typedef struct {
    const char *NAME, *name, *kind, *dflt, *to, *efield, *help;
} hxb_setting_doc_t;

static const hxb_setting_doc_t hxb_settings[] = {
#define HXB_SETTING(_NAME, _name, _type, _dflt, _to, _efield, _help) \
    {#_NAME, #_name, HXB_SETTING_KIND_##_type, _dflt, #_to, #_efield, _help},
#include "hxb_settings.def"
#undef HXB_SETTING
};

#define HXB_NSETTINGS (sizeof(hxb_settings) / sizeof(hxb_settings[0]))

int hxb_settings_check(FILE *err)
{
    const hxb_setting_doc_t *s;
    size_t i, k;
    int bad = 0;

    for (i = 0; i < HXB_NSETTINGS; i++) {
        s = &hxb_settings[i];
        for (k = 0; s->NAME[k] && tolower((unsigned char)s->NAME[k]) == s->name[k]; k++) {
        }
        if (s->NAME[k] || s->name[k]) {
            fprintf(err, "hxb_settings.def: %s: the second name must be \"%s\" in "
                    "lower case, not %s\n", s->NAME, s->NAME, s->name);
            bad = 1;
        }
        if (strcmp(s->to, "IFACE") ? !strcmp(s->efield, "_") : !!strcmp(s->efield, "_")) {
            fprintf(err, "hxb_settings.def: %s: %s takes %s field\n", s->NAME, s->to,
                    strcmp(s->to, "IFACE") ? "a" : "no (_)");
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}

/* help text on one line of a table cell */
static void cell(FILE *out, const char *text)
{
    for (; *text; text++) {
        if (*text == '\n') {
            fputc(' ', out);
        } else if (*text == '|') {
            fputs("\\|", out);
        } else {
            fputc(*text, out);
        }
    }
}

int hxb_settings_doc(FILE *out)
{
    const hxb_setting_doc_t *s;
    size_t i;

    if (hxb_settings_check(stderr) < 0) {
        return -1;
    }
    fprintf(out,
        "# Settings\n"
        "\n"
        "<!-- Written by hxb-settings-doc from uct_hxb/hxb_settings.def: edit that\n"
        "     file, then `make settings-doc`. `make check` fails while this one is stale. -->\n"
        "\n"
        "hxb reads each setting from the environment as `UCX_HXB_<NAME>`, as every UCX\n"
        "transport does: `ucx_info -c -f | grep -A3 HXB` (with `libuct_hxb.so` loaded,\n"
        "README.md) prints them with the same help. Under Open MPI's ob1 each is also the\n"
        "MCA parameter `btl_hxb_<name>` of the hxb BTL, which hands a non-empty value to\n"
        "the transport (`uct_config_modify`, over the environment); empty, its default,\n"
        "leaves the environment's value or the transport's default.\n"
        "\n"
        "*Used by* says where a value goes: an engine field (`hxb_engine_cfg_t`, copied as\n"
        "is, or derived by a rule), each rail (its `hxb_rail_t`), or the UCT interface\n"
        "alone.\n"
        "\n"
        "| Variable | BTL parameter | Default | Kind | Used by | Meaning |\n"
        "|---|---|---|---|---|---|\n");
    for (i = 0; i < HXB_NSETTINGS; i++) {
        s = &hxb_settings[i];
        fprintf(out, "| `UCX_HXB_%s` | `btl_hxb_%s` | ", s->NAME, s->name);
        if (s->dflt[0]) {
            fprintf(out, "`%s`", s->dflt);
        } else {
            fprintf(out, "(empty)");
        }
        fprintf(out, " | %s | ", s->kind);
        if (!strcmp(s->to, "ENGINE")) {
            fprintf(out, "engine `%s`", s->efield);
        } else if (!strcmp(s->to, "DERIVED")) {
            fprintf(out, "engine `%s`, derived", s->efield);
        } else if (!strcmp(s->to, "RAIL")) {
            fprintf(out, "each rail's `%s`", s->efield);
        } else {
            fprintf(out, "interface");
        }
        fprintf(out, " | ");
        cell(out, s->help);
        fprintf(out, " |\n");
    }
    fprintf(out,
        "\n"
        "Kinds (UCX's parsers): a time is seconds or takes a unit (`20us`, `1ms`, `10s`);\n"
        "a size may end in `k`, `m` or `g`; a bandwidth takes a unit (`1Gbps`, `10GB/s`)\n"
        "or is `auto`; y/n takes `y`, `yes`, `1` or `n`, `no`, `0`, and yes/no/try also\n"
        "`try`.\n"
        "\n"
        "UCX's generic interface settings also apply with the `HXB_` prefix (for example\n"
        "`UCX_HXB_ALLOC`, `UCX_HXB_FAILURE`, `UCX_HXB_MAX_NUM_EPS`); they are UCX's, not\n"
        "listed here.\n");
    return 0;
}

#ifndef HXB_SETTINGS_DOC_NO_MAIN
int main(int argc, char **argv)
{
    if ((argc > 1) && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        printf("usage: hxb-settings-doc > doc/SETTINGS.md\n"
               "Print doc/SETTINGS.md, every UCX_HXB_* setting of uct_hxb/hxb_settings.def\n"
               "(make settings-doc runs it).\n");
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "hxb-settings-doc: unknown argument '%s'\n"
                "usage: hxb-settings-doc > doc/SETTINGS.md\n", argv[1]);
        return 2;
    }
    return hxb_settings_doc(stdout) < 0 ? 1 : 0;
}
#endif
