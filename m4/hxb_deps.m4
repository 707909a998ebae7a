# Checks for the libraries hxb's tests and tools use.
AC_DEFUN([HXB_CHECK_CHECK], [
  PKG_CHECK_MODULES([CHECK], [check >= 0.10], [have_check=yes],
    [have_check=no; AC_MSG_WARN([Check not found (apt-get install check): unit tests disabled])])
  AM_CONDITIONAL([HAVE_CHECK], [test "$have_check" = yes])
])
AC_DEFUN([HXB_CHECK_PCAP], [
  AC_CHECK_HEADER([pcap/pcap.h], [have_pcap=yes], [have_pcap=no])
  AM_CONDITIONAL([HAVE_PCAP], [test "$have_pcap" = yes])
])
AC_DEFUN([HXB_CHECK_HWLOC], [
  PKG_CHECK_MODULES([HWLOC], [hwloc], [have_hwloc=yes], [have_hwloc=no])
  # hxb_locality.c: rails ordered by their NICs' distance to our cores
  AS_IF([test "$have_hwloc" = yes],
    [AC_DEFINE([HXB_HAVE_HWLOC], [1], [hwloc is there: NIC locality (hxb_locality.c)])])
  AM_CONDITIONAL([HAVE_HWLOC], [test "$have_hwloc" = yes])
])
# HXB_CHECK_OMPI: Open MPI 4.1's or 5.0's development headers (libopenmpi-dev ships
# opal/mca/btl/btl.h) for the BTL, and mpicc's flags for the MPI tests. The
# BTL is optional: built when the headers are found.
AC_DEFUN([HXB_CHECK_OMPI], [
  AC_ARG_WITH([ompi-component-dir],
    [AS_HELP_STRING([--with-ompi-component-dir=DIR],
      [where make install puts mca_btl_hxb.so (default LIBDIR/openmpi; Debian's own
       component directory is /usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3)])],
    [ompicompdir=$withval], [ompicompdir='${libdir}/openmpi'])
  AC_PATH_PROG([MPICC], [mpicc], [])
  have_ompi=no
  have_ompi_btl=no
  AS_IF([test -n "$MPICC"], [
    have_ompi=yes
    OMPI_CPPFLAGS=`$MPICC --showme:compile`
    OMPI_LDFLAGS=`$MPICC --showme:link`
    OMPI_LIBDIRS=`$MPICC --showme:libdirs`
    OMPI_PAL_LIBS=""
    for d in $OMPI_LIBDIRS; do OMPI_PAL_LIBS="$OMPI_PAL_LIBS -L$d"; done
    OMPI_PAL_LIBS="$OMPI_PAL_LIBS -lopen-pal"
    OMPI_VERSION=`$MPICC --showme:version 2>/dev/null | sed -n 's/.*Open MPI \([[0-9.]]*\).*/\1/p'`
    OMPI_MAJOR=`echo "$OMPI_VERSION" | cut -d. -f1`
    AS_IF([test -z "$OMPI_MAJOR"], [OMPI_MAJOR=0])
    AC_DEFINE_UNQUOTED([HXB_OMPI_MAJOR], [$OMPI_MAJOR], [Open MPI's major version (4, 5)])
    # Open MPI 5's internal headers include PMIx's (libpmix-dev), which
    # mpicc does not name
    AS_IF([test "$OMPI_MAJOR" -ge 5], [
      PKG_CHECK_MODULES([PMIX], [pmix], [OMPI_CPPFLAGS="$OMPI_CPPFLAGS $PMIX_CFLAGS"],
        [AC_MSG_WARN([PMIx headers not found (apt-get install libpmix-dev): Open MPI 5 components need them])])
    ])
    save_CPPFLAGS=$CPPFLAGS
    CPPFLAGS="$CPPFLAGS $OMPI_CPPFLAGS"
    AC_CHECK_HEADER([opal/mca/btl/btl.h], [have_ompi_btl=yes], [have_ompi_btl=no],
      [#include "opal_config.h"])
    # Open MPI 5's libopenmpi-dev (Debian 13) lacks headers its
    # opal_config.h names: take those from its source (contrib/fetch-ompi-src),
    # after the installed ones
    AS_IF([test "$have_ompi_btl" = no && test -f "$srcdir/build/openmpi-$OMPI_VERSION/opal/mca/btl/btl.h"], [
      ompi_src=`cd "$srcdir/build/openmpi-$OMPI_VERSION" && pwd`
      AC_MSG_NOTICE([trying the headers of Open MPI's source in $ompi_src])
      CPPFLAGS="$CPPFLAGS -idirafter $ompi_src"
      AS_UNSET([ac_cv_header_opal_mca_btl_btl_h])
      AC_CHECK_HEADER([opal/mca/btl/btl.h], [have_ompi_btl=yes; OMPI_CPPFLAGS="$OMPI_CPPFLAGS -idirafter $ompi_src"],
        [have_ompi_btl=no], [#include "opal_config.h"])
    ])
    # where Open MPI 5 moved headers the components include
    AS_IF([test "$have_ompi_btl" = yes], [
      CPPFLAGS="$save_CPPFLAGS $OMPI_CPPFLAGS"
      AC_CHECK_HEADERS([opal/mca/threads/mutex.h opal/mca/pmix/pmix-internal.h], [], [],
        [#include "opal_config.h"])
      # Open MPI 5: AM receive callbacks take one receive descriptor
      AC_CHECK_TYPES([mca_btl_base_receive_descriptor_t], [], [],
        [#include "opal_config.h"
#include "opal/mca/btl/btl.h"])
    ])
    CPPFLAGS=$save_CPPFLAGS
    AS_IF([test "$have_ompi_btl" = no],
      [AC_MSG_WARN([Open MPI's opal/mca/btl/btl.h not found or incomplete (apt-get install libopenmpi-dev; Open MPI 5: contrib/fetch-ompi-src): BTL not built])])
  ])
  AC_SUBST([OMPI_CPPFLAGS])
  AC_SUBST([OMPI_LDFLAGS])
  AC_SUBST([OMPI_PAL_LIBS])
  AC_SUBST([ompicompdir])
  AM_CONDITIONAL([HAVE_OMPI], [test "$have_ompi" = yes])
  AM_CONDITIONAL([HAVE_OMPI_BTL], [test "$have_ompi_btl" = yes])
])
# liburing: hxb-udp-pingpong's io_uring mode (a benchmark only)
AC_DEFUN([HXB_CHECK_URING], [
  PKG_CHECK_MODULES([LIBURING], [liburing >= 2.2], [have_liburing=yes], [have_liburing=no])
  AM_CONDITIONAL([HAVE_LIBURING], [test "$have_liburing" = yes])
])
# The relay daemon: libbpf (tc attach) and clang for the BPF target.
AC_DEFUN([HXB_CHECK_RELAY], [
  AC_PATH_PROG([BPF_CLANG], [clang], [])
  PKG_CHECK_MODULES([LIBBPF], [libbpf >= 0.8], [have_libbpf=yes], [have_libbpf=no])
  AS_IF([test -n "$BPF_CLANG" && test "$have_libbpf" = yes], [have_relay=yes],
    [have_relay=no; AC_MSG_WARN([clang or libbpf-dev missing: hxb-relayd (relay routing) not built])])
  # the BPF target has no multiarch include path of its own (asm/types.h)
  BPF_CPPFLAGS=""
  multiarch=`$CC -print-multiarch 2>/dev/null`
  AS_IF([test -n "$multiarch" && test -d "/usr/include/$multiarch"],
    [BPF_CPPFLAGS="-I/usr/include/$multiarch"])
  AC_SUBST([BPF_CPPFLAGS])
  AM_CONDITIONAL([HAVE_RELAY], [test "$have_relay" = yes])
])
