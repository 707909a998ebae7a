#!/bin/bash
# One command on a fresh Debian 12 or 13: install the Debian packages hxb needs,
# fetch UCX's source headers, build, install under /usr/local, then run the
# demo (two emulated nodes exchanging traffic over hxb). Run as root.
# Usage: contrib/setup.sh [--no-demo] [-h|--help]
#   --no-demo   stop after make install
set -euo pipefail
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
NO_DEMO=0
while [ $# -gt 0 ]; do
    case $1 in
        --no-demo) NO_DEMO=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "setup: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ "$(id -u)" = 0 ] || { echo "setup: run as root (installs packages, creates network namespaces)" >&2; exit 1; }

PKGS=(build-essential autoconf automake libtool pkg-config dpkg-dev
      libucx-dev ucx-utils libopenmpi-dev openmpi-bin
      check libpcap-dev libhwloc-dev
      iproute2 nftables ethtool procps iputils-ping python3
      clang libbpf-dev hpcc sudo liburing-dev gnuplot-nox tshark
      gfortran)
# Debian 13 (Open MPI 5): the BTL and coll components include PMIx's headers
. /etc/os-release
[ "${VERSION_ID%%.*}" -ge 13 ] 2>/dev/null && PKGS+=(libpmix-dev)
missing=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep "ok installed" >/dev/null || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

contrib/fetch-ucx-src
contrib/fetch-ompi-src
[ -x configure ] || autoreconf -fi >/dev/null
[ -f Makefile ] || ./configure --quiet
make -j"$(nproc)" >/dev/null
make install >/dev/null
ldconfig
echo "setup: installed $(ls /usr/local/lib/ucx/libuct_hxb.so) and /usr/local/bin/hxb-*"

[ "$NO_DEMO" = 1 ] && exit 0
exec contrib/demo.sh
