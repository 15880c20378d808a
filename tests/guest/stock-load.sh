#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script (stock Debian kernel): dmcore.ko was loaded by vm.sh; show
# what it exports in debugfs, then unload it. Exit status 0 when all went
# well (scripts/check.sh also checks the kernel log for the clean-exit line).
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

rc=0
echo "kernel: $(uname -r) ($DMC_KERNEL)"
grep '^dmcore ' /proc/modules || { echo "DMC-FAIL: dmcore is not loaded"; rc=1; }

echo "--- ls -R $DMC_DIR"
ls -R "$DMC_DIR" || { echo "DMC-FAIL: no $DMC_DIR"; rc=1; }
if [ -e "$DMC_DIR/events" ]; then
	echo "--- $DMC_DIR/events"
	# The events file blocks for new events: a bounded read ends it.
	timeout 2 cat "$DMC_DIR/events"
	st=$?
	case $st in
	0|124|143) ;;
	*) echo "DMC-FAIL: reading events ($st)"; rc=1 ;;
	esac
fi

echo "--- rmmod dmcore"
dmc_rmmod || { echo "DMC-FAIL: rmmod dmcore"; rc=1; }
dmc_loaded dmcore && { echo "DMC-FAIL: dmcore still loaded"; rc=1; }
[ -e "$DMC_DIR" ] && { echo "DMC-FAIL: $DMC_DIR still there after rmmod"; rc=1; }
dmesg | grep 'dmcore' | tail -n 5
exit $rc
