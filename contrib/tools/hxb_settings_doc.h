/* hxb-settings-doc's generator, for the tool and its test */
#ifndef HXB_SETTINGS_DOC_H
#define HXB_SETTINGS_DOC_H

#include <stdio.h>

/* the names of each entry agree (NAME and name), TO and efield fit;
 * -1 and a message per problem to err if not */
int hxb_settings_check(FILE *err);
/* doc/SETTINGS.md; -1 if hxb_settings_check fails */
int hxb_settings_doc(FILE *out);

#endif
