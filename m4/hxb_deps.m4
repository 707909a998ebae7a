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
