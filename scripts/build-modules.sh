#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-modules.sh debug|release|stock -- build dmcore's modules for one
# kernel flavour in a private copy of the tree and print that copy's path.
#
# The working tree (tracked and untracked files alike, minus .git, .build
# and build products) is mirrored into .build/<flavour>/ with rsync, which
# keeps timestamps, so kbuild rebuilds only what changed. Then
#   make -C $KDIR M=.build/<flavour> modules
# runs there. Builds for different kernels never clobber each other, nor an
# in-place `make`. Every *.ko ends up somewhere under the printed directory:
# dmcore.ko at the top, kunit/dmcore_kunit.ko when the kernel has KUnit,
# later samples/ and tests/modules/.
#
# make's output goes to stderr (and to .build/<flavour>.log); stdout carries
# only the directory. Environment: DMC_BUILD (default .build), DMC_SRC (tree
# to copy, default the checkout), V=1 for a verbose kbuild.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=${1:-}
case "$flavour" in
debug|release|stock) ;;
*) echo "usage: $0 debug|release|stock" >&2; exit 2 ;;
esac
DMC_STAGE="modules:$flavour"

ensure_pkgs rsync make gcc
kdir=$(kdir_for "$flavour") || die "no kernel tree for $flavour"
[ -n "$kdir" ] && [ -d "$kdir" ] || die "no kernel tree for $flavour"

out="$DMC_BUILD/$flavour"
mkdir -p "$out"

sync_tree "$out"

# A kernel tree change (new debug kernel, new stock headers) must not mix
# objects: remember which tree built the copy and start clean when it moves.
stamp="$out/.dmc-kdir"
if [ -e "$stamp" ] && [ "$(cat "$stamp")" != "$kdir" ]; then
	log "kernel tree changed, cleaning $out"
	clean_objects "$out"
fi
echo "$kdir" >"$stamp"

# Old .ko files from a previous build must not be mistaken for new ones.
find "$out" -name '*.ko' -delete

log "make -C $kdir M=$out modules"
logf="$DMC_BUILD/$flavour.log"
set +e
make -C "$kdir" M="$out" -j"$(nproc)" ${V:+V=$V} modules 2>&1 | tee "$logf" >&2
rc=${PIPESTATUS[0]}
set -e
[ "$rc" -eq 0 ] || die "module build for $flavour failed (rc $rc, log $logf)"
[ -f "$out/dmcore.ko" ] || die "no dmcore.ko after the build in $out"

n=$(find "$out" -name '*.ko' | wc -l)
log "built $n module(s): $(cd "$out" && find . -name '*.ko' | sed 's|^\./||' | sort | tr '\n' ' ')"
echo "$out"
