#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of scripts/bench-ab.sh: two builds of dmcore.ko and
# dmc_bench.ko (base-*.ko, head-*.ko in $DMC_FILES), loaded in turn, in
# the order ABBA BAAB ... so that drift of the host's speed falls on both;
# each load runs "bind dmc N" and "devices dmc N" once, with the mirror
# off (export=0) and on. One "AB ..." line per run.
. "$DMC_LIB"
N=${BENCH_AB_N:-10000}
ROUNDS=${BENCH_AB_ROUNDS:-8}
RUN=$DMC_DEBUGFS/dmc_bench/run
dmc_rmmod 2>/dev/null

# one SIDE EXPORT ROUND -- load SIDE's pair, run both scenarios, unload
one() {
	insmod "$DMC_FILES/$1-dmcore.ko" export="$2" bridge= &&
		insmod "$DMC_FILES/$1-dmc_bench.ko" || { echo "DMC-FAIL: insmod $1"; exit 1; }
	for scen in bind devices; do
		sync
		echo 3 >/proc/sys/vm/drop_caches
		echo "$scen dmc $N" >"$RUN" || echo "DMC-FAIL: $scen on $1"
		echo "AB side=$1 export=$2 round=$3 scen=$scen $(cat "$RUN")"
	done
	rmmod dmc_bench && dmc_rmmod || { echo "DMC-FAIL: rmmod $1"; exit 1; }
}

r=1
while [ "$r" -le "$ROUNDS" ]; do
	for e in 0 1; do
		case $((r % 4)) in
		1|0) one base $e $r; one head $e $r ;;
		*) one head $e $r; one base $e $r ;;
		esac
	done
	dmc_say "bench-ab: round $r of $ROUNDS, $(date +%T)" >&2
	r=$((r + 1))
done
exit 0
