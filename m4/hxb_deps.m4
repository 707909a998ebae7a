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
AC_DEFUN([HXB_CHECK_OMPI], [
  AC_PATH_PROG([MPICC], [mpicc], [])
  AS_IF([test -n "$MPICC"], [have_ompi=yes], [have_ompi=no])
  AM_CONDITIONAL([HAVE_OMPI], [test "$have_ompi" = yes])
])
