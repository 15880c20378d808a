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
#
# DMC_RELEASE_DELAY_MS=N (vm.sh --env): first reload dmcore.ko with
# release_delay_ms=N, so that every kobject release runs N ms after its
# last put (dmcore's CONFIG_DEBUG_KOBJECT_RELEASE); check.sh's stage
# kunit-delayed runs the suites that way.
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

rc=0
fail() { echo "DMC-FAIL: $*"; rc=1; }

if [ -n "${DMC_RELEASE_DELAY_MS:-}" ]; then
	echo "reloading dmcore.ko with release_delay_ms=$DMC_RELEASE_DELAY_MS"
	if ! dmc_rmmod; then
		fail "rmmod dmcore (before the reload)"
		exit 1
	fi
	if ! insmod "$DMC_MODDIR/dmcore.ko" "release_delay_ms=$DMC_RELEASE_DELAY_MS"; then
		fail "insmod dmcore.ko release_delay_ms=$DMC_RELEASE_DELAY_MS"
		exit 1
	fi
	delay=$(cat /sys/module/dmcore/parameters/release_delay_ms 2>/dev/null)
	[ "$delay" = "$DMC_RELEASE_DELAY_MS" ] ||
		fail "release_delay_ms is '$delay', not $DMC_RELEASE_DELAY_MS"
fi

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

# insmod sleeps while each case runs; a long case (the 100,000-member
# lookups under KASAN on a busy host) must not be taken for a hung task.
# KUnit's own per-case timeout is 300 s: report only past that.
if [ -w /proc/sys/kernel/hung_task_timeout_secs ]; then
	echo 330 >/proc/sys/kernel/hung_task_timeout_secs ||
		fail "cannot set hung_task_timeout_secs"
fi

# The suites run synchronously while the module loads.
echo "insmod dmcore_kunit.ko (runs the KUnit suites)"
t0=$(cut -d' ' -f1 /proc/uptime)
if [ ! -f "$DMC_MODDIR/dmcore_kunit.ko" ]; then
	fail "no $DMC_MODDIR/dmcore_kunit.ko (was the kernel built without CONFIG_KUNIT?)"
elif ! insmod "$DMC_MODDIR/dmcore_kunit.ko"; then
	fail "insmod dmcore_kunit.ko"
fi

t1=$(cut -d' ' -f1 /proc/uptime)
echo "KUnit: the suites took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"

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
dmc_rmmod || fail "rmmod dmcore"

echo "kmemleak: scanning (twice, 6 s apart)"
dmc_kmemleak_report || fail "kmemleak report"
exit $rc
