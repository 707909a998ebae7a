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
  AM_CONDITIONAL([HAVE_HWLOC], [test "$have_hwloc" = yes])
])
# HXB_CHECK_OMPI: Open MPI 4.1's development headers (libopenmpi-dev ships
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
    save_CPPFLAGS=$CPPFLAGS
    CPPFLAGS="$CPPFLAGS $OMPI_CPPFLAGS"
    AC_CHECK_HEADER([opal/mca/btl/btl.h], [have_ompi_btl=yes], [have_ompi_btl=no],
      [#include "opal_config.h"])
    CPPFLAGS=$save_CPPFLAGS
    AS_IF([test "$have_ompi_btl" = no],
      [AC_MSG_WARN([Open MPI's opal/mca/btl/btl.h not found (apt-get install libopenmpi-dev): BTL not built])])
  ])
  AC_SUBST([OMPI_CPPFLAGS])
  AC_SUBST([OMPI_LDFLAGS])
  AC_SUBST([OMPI_PAL_LIBS])
  AC_SUBST([ompicompdir])
  AM_CONDITIONAL([HAVE_OMPI], [test "$have_ompi" = yes])
  AM_CONDITIONAL([HAVE_OMPI_BTL], [test "$have_ompi_btl" = yes])
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
