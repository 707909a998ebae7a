/* Helpers for the users of hxb_settings.def, the one list of UCX_HXB_*
 * settings: the C type of each UCS parser, and what "TO" means to the copy
 * into the engine config. Plain C: the UCX types are only named here, in
 * macros the UCT glue expands. */
#ifndef HXB_SETTINGS_H
#define HXB_SETTINGS_H

/* the field type UCS_CONFIG_TYPE_<TYPE> writes */
#define HXB_SETTING_CTYPE_STRING       char *
#define HXB_SETTING_CTYPE_STRING_ARRAY ucs_config_names_array_t
#define HXB_SETTING_CTYPE_UINT         unsigned
#define HXB_SETTING_CTYPE_MEMUNITS     size_t
#define HXB_SETTING_CTYPE_TERNARY      int
#define HXB_SETTING_CTYPE_TIME         double
#define HXB_SETTING_CTYPE_BW           double
#define HXB_SETTING_CTYPE_BOOL         int

/* HXB_SETTING_COPY_<TO>(engine cfg field, setting): only ENGINE settings
 * are plain copies; the others are applied by the UCT glue */
#define HXB_SETTING_COPY_ENGINE(_dst, _src)  (_dst) = (_src);
#define HXB_SETTING_COPY_DERIVED(_dst, _src)
#define HXB_SETTING_COPY_RAIL(_dst, _src)
#define HXB_SETTING_COPY_IFACE(_dst, _src)

/* for the documentation (contrib/tools/hxb_settings_doc.c) */
#define HXB_SETTING_KIND_STRING       "string"
#define HXB_SETTING_KIND_STRING_ARRAY "list"
#define HXB_SETTING_KIND_UINT         "number"
#define HXB_SETTING_KIND_MEMUNITS     "size"
#define HXB_SETTING_KIND_TERNARY      "yes/no/try"
#define HXB_SETTING_KIND_TIME         "time"
#define HXB_SETTING_KIND_BW           "bandwidth"
#define HXB_SETTING_KIND_BOOL         "y/n"

#endif
