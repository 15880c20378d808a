#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Guest half of `make profile`'s sampled profile (scripts/sample.sh), on
# the release kernel, the one `make bench` measures: dmcore reloaded with
# export=0, then the devices and bind scenarios at SAMPLE_N devices on
# both cores, each repeated until it has run about SAMPLE_SECS seconds,
# with the benchmark's sampler on (bench/sample.c: the shell's own time
# in the kernel, sampled once a tick). Each function's share of the
# samples is printed as
#   "S side=real|dmc scen=devices|bind samples=TOTAL n=COUNT fn=FUNC"
# for the host, the functions with at least 0.5 % of the samples.
# Environment (vm.sh --env): SAMPLE_N (default 100000), SAMPLE_SECS
# (default 20), SAMPLE_SCEN (default "devices bind"), SAMPLE_SIDES
# (default "real dmc").
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

N=${SAMPLE_N:-100000}
SECS=${SAMPLE_SECS:-20}
RUN=$DMC_DEBUGFS/dmc_bench/run
SAMPLES=$DMC_DEBUGFS/dmc_bench/samples
rc=0

# run CMD... -- one benchmark command; its result line on stdout
run() {
	if ! echo "$*" >"$RUN"; then
		echo "DMC-FAIL: $* failed: $(cat "$RUN")"
		rc=1
		return 1
	fi
	cat "$RUN"
}

# profile SIDE SCEN -- sample SCEN on SIDE for about SECS seconds
profile() {
	start=$(date +%s)
	reps=0
	run sample on >/dev/null || return
	while :; do
		run "$2" "$1" "$N" >/dev/null || break
		reps=$((reps + 1))
		[ $(($(date +%s) - start)) -ge "$SECS" ] && break
	done
	line=$(run sample off) || return
	total=$(echo "$line" | sed -n 's/.* count=\([0-9]*\).*/\1/p')
	echo "I side=$1 scen=$2 n=$N reps=$reps samples=$total secs=$(($(date +%s) - start))"
	[ "${total:-0}" -gt 0 ] || { echo "DMC-FAIL: no samples for $1 $2"; rc=1; return; }
	sort "$SAMPLES" | uniq -c | sort -rn |
		awk -v side="$1" -v scen="$2" -v total="$total" \
			'$1 * 200 >= total { print "S side=" side " scen=" scen " samples=" total " n=" $1 " fn=" $2 }'
}

echo "I kernel=$(uname -r) cpus=$(grep -c ^processor /proc/cpuinfo)"
dmc_rmmod && insmod "$DMC_MODDIR/dmcore.ko" export=0 &&
	insmod "$DMC_MODDIR/dmc_bench.ko" || { echo "DMC-FAIL: loading with export=0"; exit 1; }
for scen in ${SAMPLE_SCEN:-devices bind}; do
	for side in ${SAMPLE_SIDES:-real dmc}; do
		profile $side $scen
	done
done
rmmod dmc_bench
dmc_rmmod
exit $rc
