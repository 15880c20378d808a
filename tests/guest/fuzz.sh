#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: fuzz the control file (tests/fuzz/dmc-fuzz.c). Several
# writer threads send generated commands, one per write(): valid commands
# over a small pool of names, most of them mutated (tokens dropped,
# doubled, swapped, long names, bad numbers, control characters, no
# newline, two lines, writes over 4 KiB, random bytes). Checked: every
# rejection is an errno of README's control table; the tree holds what the
# accepted commands imply; the tree's objects equal stats' counts by type;
# deleting everything the run made works and brings the tree and stats
# back to where they were; then dmcore unloads with 0 objects leaked.
#
# Environment (vm.sh --env): FUZZ_WRITES (default 30000 in make check;
# the 100,000-write run is FUZZ_WRITES=100000, see README's
# Reliability table), FUZZ_THREADS (4), FUZZ_SEED (default: from the
# clock; printed, and a seed replays the same command streams),
# FUZZ_EXCLUDE (dmc-fuzz -x: a comma-separated list of input classes to
# leave out: treenames, bigerrno, suspend, random, defer; default none).
# A leftover exclusion is reported as a failed test, so a gap stays
# visible. A longer run by hand:
#   scripts/vm.sh --kernel debug --script tests/guest/fuzz.sh \
#       --add "$(scripts/build-guest-tools.sh)/dmc-fuzz" \
#       --env FUZZ_WRITES=1000000 --timeout 3600
# Output is TAP; check.sh adds dmc-fuzz to the guest. Measured (debug
# kernel, TCG): about 111 writes/s of guest time, so make check's 30,000
# take about 5 minutes; the timeout leaves room for a slower host.
# dmc-vm: --timeout 1500
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

F=$DMC_FILES/dmc-fuzz
R=/tmp/fuzz-results
writes=${FUZZ_WRITES:-30000}
threads=${FUZZ_THREADS:-4}
seed=${FUZZ_SEED:-$(( $(date +%s) % 1000000007 ))}

if [ ! -x "$F" ]; then
	notok "dmc-fuzz is in the guest (build it with scripts/build-guest-tools.sh; vm.sh --add)"
	tap_end
	exit 1
fi

dmesg -c >/dev/null
set -- -s "$seed" -n "$writes" -t "$threads" -r "$R"
exclude=${FUZZ_EXCLUDE-}
[ -n "$exclude" ] && set -- "$@" -x "$exclude"
echo "# dmc-fuzz $*"
t0=$(date +%s)
# Straight through, so that progress shows as it happens (no line of
# dmc-fuzz starts with "ok" or "not ok"; its results come from $R below).
"$F" "$@" 2>&1
t1=$(date +%s)
echo "# dmc-fuzz took $((t1 - t0)) s"
if [ -s "$R" ]; then
	while read -r verdict text; do
		if [ "$verdict" = ok ]; then ok "$text"; else notok "$text"; fi
	done <"$R"
else
	notok "fuzz: dmc-fuzz reported its results (it did not: crashed?)"
fi

if [ -n "$exclude" ]; then
	notok "fuzz: every input class is fuzzed (left out: $exclude)"
else
	ok "fuzz: every input class is fuzzed"
fi

# The kernel's view of the run: dmcore's own lines, and no report.
dmesg >/tmp/fuzz-dmesg
echo "# kernel log during the run: $(wc -l </tmp/fuzz-dmesg) lines; the first of dmcore's:"
grep 'dmcore' /tmp/fuzz-dmesg | head -n 8 | sed 's/^/#   /'
if grep -q -E 'BUG:|KASAN|WARNING:|Call Trace:|circular locking|list_(add|del) corruption|ODEBUG|Oops' /tmp/fuzz-dmesg; then
	notok "fuzz: no kernel report during the run"
	grep -m1 -B2 -A30 -E 'BUG:|KASAN|WARNING:|Call Trace:|circular locking|list_(add|del) corruption|ODEBUG|Oops' \
		/tmp/fuzz-dmesg | sed 's/^/# /'
else
	ok "fuzz: no kernel report during the run"
fi

# Unload with whatever is left (nothing, after the teardown).
if dmc_rmmod; then
	if dmesg | grep -q 'dmcore: unloaded, 0 objects leaked'; then
		ok "fuzz: rmmod dmcore: unloaded, 0 objects leaked"
	else
		notok "fuzz: rmmod dmcore: unloaded, 0 objects leaked"
		dmesg | grep 'dmcore: \(LEAK\|unloaded\)' | head -n 20 | sed 's/^/# /'
	fi
else
	notok "fuzz: rmmod dmcore succeeds after the run"
fi
tap_end
