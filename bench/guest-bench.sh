#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Guest half of `make bench` (scripts/bench.sh), on the release kernel:
# every scenario on the kernel's driver core and on dmcore in this one
# boot. /init has loaded dmcore.ko with export=1 (the mirror on); after the
# first pass dmcore is reloaded with export=0 and dmcore's side runs again,
# interleaved with the real side of devices and bind once more.
# Each result is one line "R mirror=0|1 rep=K cmd=... side=... ..." for the
# host; everything else is for people. Environment (vm.sh --env):
#   BENCH_NS      sizes, comma-separated, default 1000,10000,100000
#   BENCH_BIG     dmcore-only size with the mirror off, default 1000000
#                 (empty: none)
#   BENCH_CHAIN   length of the deferral chain, default 1000
#   BENCH_REPS    N:reps,... repetitions per size (other sizes: 1)
#   BENCH_SCEN    scenarios, default "devices bind bindkey lookup events"
#                 (bindkey: dmcore only, against the real side of bind)
#   BENCH_MIRROR  0: skip the first pass (the mirror on), default 1
#   BENCH_PHASES  sizes at which dmcore's devices and bind run once more
#                 without the mirror, with the core's phase clocks on
#                 (default 100000; empty: none)
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

NS=$(echo "${BENCH_NS:-1000,10000,100000}" | tr , ' ')
BIG=${BENCH_BIG-1000000}
CHAIN=${BENCH_CHAIN:-1000}
REPS=$(echo "${BENCH_REPS:-1000:5,10000:3,100000:5}" | tr , ' ')
SCEN=${BENCH_SCEN:-devices bind bindkey lookup events}
PHASES=$(echo "${BENCH_PHASES-100000}" | tr , ' ')
RUN=$DMC_DEBUGFS/dmc_bench/run
EVREAD=$DMC_FILES/evread
WALK=$DMC_FILES/walk
# The tree's walk and memory (issue 13): at this N (default the largest
# of NS; 0: none)
WALK_N=${BENCH_WALK-$(echo "$NS" | tr ' ' '\n' | sort -n | tail -n 1)}
mirror=1
rc=0

reps_for() {
	for nr in $REPS; do
		[ "${nr%%:*}" = "$1" ] && { echo "${nr#*:}"; return; }
	done
	echo 1
}

# quiesce -- before a scenario that measures memory: let what earlier
# scenarios freed leave the slab counters (deferred frees, caches, empty
# slabs), so that "before" is not still falling during the measurement.
quiesce() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	for f in /sys/kernel/slab/*/shrink; do
		[ -w "$f" ] && echo 1 >"$f"
	done
	sleep 1
}

slab_kb() {
	awk '/^Slab:/ {print $2}' /proc/meminfo
}

# walk_one SIDE N -- N unbound devices held on SIDE (real or dmc), then a
# full walk of their directories and their bus's (every directory listed,
# link read, readable file read: bench/walk.c), with the slab (kB) before
# the devices, with them held and nobody looking, right after the walk,
# and after drop_caches: one "W" line.
walk_one() {
	case $1 in
	real) hold=holdreal dirs="/sys/devices/dmcbench /sys/bus/dmcbench" ;;
	*) hold=hold dirs="$DMC_DIR/devices/dmcbench $DMC_DIR/bus/dmcbench" ;;
	esac
	quiesce
	s0=$(slab_kb)
	if ! echo "$hold $2" >"$RUN"; then
		echo "DMC-FAIL: bench $hold $2 failed: $(cat "$RUN")"
		rc=1
		return
	fi
	quiesce
	s1=$(slab_kb)
	# shellcheck disable=SC2086 # two directories
	w=$("$WALK" $dirs)
	s2=$(slab_kb)
	quiesce
	s3=$(slab_kb)
	echo release >"$RUN"
	echo "W side=$1 n=$2 slab0=$s0 held=$s1 walked=$s2 dropped=$s3 $w"
}

# bench REP CMD... -- run one command and print its result line
bench() {
	rep=$1
	shift
	case $1 in devices|bind|bindkey|floor|phases) quiesce ;; esac
	if ! echo "$*" >"$RUN"; then
		echo "DMC-FAIL: bench $* failed: $(cat "$RUN")"
		rc=1
	fi
	echo "R mirror=$mirror rep=$rep $(cat "$RUN")"
}

# Real lookups walk the bus list: cap their number so 100k stays minutes.
real_lookups() {
	l=$((20000000 / $1))
	[ $l -gt "$1" ] && l=$1
	[ "$l" -lt 10 ] && l=10
	echo "$l"
}

# real_too SCEN N -- does this pass run the real side of SCEN at N?
# Always in the first pass; in the second only for the scenarios in
# REAL_AGAIN at the sizes in NS.
real_too() {
	[ -z "${REAL_AGAIN+set}" ] && return 0
	case " $REAL_AGAIN " in *" $1 "*) ;; *) return 1 ;; esac
	case " $NS " in *" $2 "*) return 0 ;; esac
	return 1
}

# beside_big TAG -- dmcore's add+del of 1,000 devices three times, just
# before (TAG b) or after (a) its run at BIG, for the goal that an add at
# BIG costs at most 1.5 times one at 1,000: the host's speed drifts by up
# to 40 % within minutes, so the 1,000 compared is timed beside the BIG
# one, not minutes earlier. The report keeps these runs ("rep=b1"...)
# out of the 1,000 row.
beside_big() {
	for k in 1 2 3; do
		bench "$1$k" devices dmc 1000
	done
}

# pass SIDES SIZES -- every scenario for SIDES ("real dmc" or "dmc")
pass() {
	for n in $2; do
		reps=$(reps_for "$n")
		for scen in $SCEN; do
			r=1
			while [ $r -le "$reps" ]; do
				for side in $1; do
					[ "$side" = real ] && ! real_too "$scen" "$n" && continue
					case $scen:$side in
					lookup:real) bench $r lookup real "$n" "$(real_lookups "$n")" ;;
					bindkey:real) ;;	# Linux has no match index
					devices:dmc) if [ "$n" = "$BIG" ]; then
							beside_big b
							bench $r devices dmc "$n"
							beside_big a
						else
							bench $r devices dmc "$n"
						fi ;;
					events:dmc) bench $r events dmc "$n"
						if [ $mirror = 1 ] && [ -x "$EVREAD" ]; then
							echo "E mirror=$mirror rep=$r n=$n $("$EVREAD" "$DMC_DIR/events")"
						fi
						bench $r evlog 4096 >/dev/null ;;
					*) bench $r "$scen" "$side" "$n" ;;
					esac
				done
				r=$((r + 1))
			done
			dmc_say "done: $scen N=$n ($1), $(date +%T)" >&2
		done
		if [ $mirror = 1 ]; then
			r=1
			while [ $r -le "$reps" ]; do
				bench $r floor "$n"
				r=$((r + 1))
			done
		fi
	done
	r=1
	[ "$CHAIN" -gt 0 ] || return 0
	while [ $r -le 3 ]; do
		for side in $1; do
			[ "$side" = real ] && ! real_too chain "$CHAIN" && continue
			bench $r chain "$side" "$CHAIN"
		done
		r=$((r + 1))
	done
}

echo "I kernel=$(uname -r) cpus=$(grep -c ^processor /proc/cpuinfo) mem_kb=$(awk '/MemTotal/ {print $2}' /proc/meminfo) clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
insmod "$DMC_MODDIR/dmc_bench.ko" || { echo "DMC-FAIL: insmod dmc_bench"; exit 1; }
[ "${BENCH_MIRROR:-1}" = 0 ] || pass "real dmc" "$NS"
if [ "${BENCH_MIRROR:-1}" != 0 ] && [ "$WALK_N" -gt 0 ] && [ -x "$WALK" ]; then
	for r in 1 2 3; do
		walk_one real "$WALK_N"
		walk_one dmc "$WALK_N"
	done
	dmc_say "done: walk N=$WALK_N, $(date +%T)" >&2
fi

# The same boot, the mirror off: reload dmcore with export=0.
rmmod dmc_bench && dmc_rmmod &&
	insmod "$DMC_MODDIR/dmcore.ko" export=0 &&
	insmod "$DMC_MODDIR/dmc_bench.ko" || { echo "DMC-FAIL: reload with export=0"; exit 1; }
mirror=0
# The real side of devices and bind again, interleaved with dmcore's runs:
# the ratios without the mirror then compare runs of the same minutes,
# not runs a quarter of an hour apart (the host's speed drifts).
REAL_AGAIN="devices bind"
pass "real dmc" "$NS ${BIG}"
# Where dmcore's time goes: the same scenarios once more, phase clocks on.
for n in $PHASES; do
	bench 1 phases devices "$n"
	bench 1 phases bind "$n"
	case " $SCEN " in *" bindkey "*) bench 1 phases bindkey "$n" ;; esac
done
rmmod dmc_bench
dmc_rmmod
exit $rc
