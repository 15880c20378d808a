#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Guest-side wrapper for integration tests (used by check.sh): runs the TAP
# script $DMC_FILES/$DMC_TAP (put there with vm.sh --add, dmcore.ko already
# loaded), then unloads whatever it left loaded and dmcore itself, so the
# host can check the clean-exit line, and reports kmemleak's findings.
# Output:
#   DMC-TAP-BEGIN <name> ... the script's output (TAP) ... DMC-TAP-END <name> <rc>
#   DMC-KMEMLEAK-BEGIN ... DMC-KMEMLEAK-END   (debug kernel)
#   DMC-FAIL: <what>
# Exit status: the script's, or 1 if the cleanup failed.
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

rc=0
fail() { echo "DMC-FAIL: $*"; rc=1; }

kmemleak=0
if [ -w "$DMC_KMEMLEAK" ]; then
	kmemleak=1
	dmc_kmemleak_clear
fi

echo "DMC-TAP-BEGIN $DMC_TAP"
sh "$DMC_FILES/$DMC_TAP"
src=$?
echo "DMC-TAP-END $DMC_TAP $src"
[ $src -eq 0 ] || rc=$src

# Modules the script left loaded (ours only), then the core.
for ko in "$DMC_MODDIR"/*.ko; do
	m=$(basename "$ko" .ko | tr - _)
	[ "$m" = dmcore ] && continue
	if dmc_loaded "$m"; then
		echo "cleanup: rmmod $m (left loaded by $DMC_TAP)"
		rmmod "$m" || fail "rmmod $m"
	fi
done
if dmc_loaded dmcore; then
	if ! dmc_rmmod; then
		# Say who holds it: a process with a file of the tree open, or the
		# module's own count (a reference leaked in the kernel).
		echo "dmcore refcnt: $(cat /sys/module/dmcore/refcnt 2>/dev/null)"
		for fd in /proc/[0-9]*/fd/*; do
			t=$(readlink "$fd" 2>/dev/null) || continue
			case $t in
			*/dmcore*) echo "open: $fd -> $t ($(cat "${fd%/fd/*}/comm" 2>/dev/null))" ;;
			esac
		done
		fail "rmmod dmcore"
	fi
fi

if [ $kmemleak = 1 ]; then
	echo "kmemleak: scanning (twice, 6 s apart)"
	dmc_kmemleak_report
fi
exit $rc
