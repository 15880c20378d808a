#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script (debug kernel): run dmcore's KUnit suites and look for leaks.
# vm.sh has loaded dmcore.ko already. Output, for scripts/check.sh:
#   DMC-KTAP-BEGIN <suite> ... DMC-KTAP-END <suite>
#       /sys/kernel/debug/kunit/<suite>/results, a KTAP v1 document
#   DMC-KMEMLEAK-BEGIN ... DMC-KMEMLEAK-END
#       kmemleak's report after unloading everything (empty: no leak)
#   DMC-FAIL: <what>   a step that failed (the exit status is then 1)
# Exit status: 0 when every insmod/rmmod worked (test results are judged
# on the host from the KTAP documents).
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

rc=0
fail() { echo "DMC-FAIL: $*"; rc=1; }

# Boot-time allocations that look unreferenced are not ours: report them
# now and forget them, so the final report shows only what the tests left.
echo "kmemleak: clearing boot-time reports"
dmc_kmemleak_clear || fail "kmemleak is not available"

# dmcore-fault's fail-nth sweeps: failslab must fail GFP_KERNEL
# allocations (it skips those that may sleep by default) and stay quiet
# (verbose 2 prints a stack per injected failure). With fail-nth unset and
# probability 0 nothing else is ever failed.
if [ -d "$DMC_DEBUGFS/failslab" ]; then
	echo N >"$DMC_DEBUGFS/failslab/ignore-gfp-wait" &&
		echo 0 >"$DMC_DEBUGFS/failslab/verbose" ||
		fail "cannot set up failslab for the fail-nth sweeps"
fi

# The suites run synchronously while the module loads.
echo "insmod dmcore_kunit.ko (runs the KUnit suites)"
if [ ! -f "$DMC_MODDIR/dmcore_kunit.ko" ]; then
	fail "no $DMC_MODDIR/dmcore_kunit.ko (was the kernel built without CONFIG_KUNIT?)"
elif ! insmod "$DMC_MODDIR/dmcore_kunit.ko"; then
	fail "insmod dmcore_kunit.ko"
fi

# Read the results before rmmod: the directories go away with the module.
n=0
for d in "$DMC_DEBUGFS"/kunit/*/; do
	[ -r "$d/results" ] || continue
	s=$(basename "$d")
	echo "DMC-KTAP-BEGIN $s"
	cat "$d/results"
	echo "DMC-KTAP-END $s"
	n=$((n + 1))
done
echo "KUnit: $n suite result(s) printed"

if dmc_loaded dmcore_kunit; then
	rmmod dmcore_kunit || fail "rmmod dmcore_kunit"
fi
rmmod dmcore || fail "rmmod dmcore"

echo "kmemleak: scanning (twice, 6 s apart)"
dmc_kmemleak_report || fail "kmemleak report"
exit $rc
