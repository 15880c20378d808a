#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Guest half of `make profile` (scripts/profile.sh), on Debian's stock
# kernel (it has the function graph tracer; the release kernel has no
# tracing at all): where the time of one device's add and delete goes,
# step by step, on the kernel's driver core and on dmcore, with the mirror
# off. The tracer follows device_add()/device_del() and dmc_device_add()/
# dmc_device_unregister() and the functions they call directly
# (max_graph_depth 2), while the benchmark's "bind" scenario registers
# PROFILE_N devices on a bus of 100 drivers and unregisters them. gcc
# folds dmc_device_del() into a .part clone called from _unregister(), so
# dmcore's delete shows as one step; 'dmc_device_del*' as a root shows
# its steps, but one such run hung at the end (after its results were
# printed) and was not looked into.
#
# Each step's total is printed as one line
#   "P side=real|dmc depth=0|1 root=ROOT fn=FUNC calls=C total_ns=T"
# for the host; the tracer's own cost (roughly a microsecond per traced
# call under TCG) is in every figure, so compare steps, not sides' totals
# with make bench. Environment (vm.sh --env): PROFILE_N (default 2000).
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

N=${PROFILE_N:-2000}
RUN=$DMC_DEBUGFS/dmc_bench/run
T=/sys/kernel/tracing
rc=0

[ -d $T/options ] || mount -t tracefs nodev $T 2>/dev/null ||
	T=$DMC_DEBUGFS/tracing
if [ ! -w $T/current_tracer ] || ! grep -qw function_graph $T/available_tracers; then
	echo "DMC-FAIL: no function_graph tracer in this kernel ($T)"
	exit 1
fi

# aggregate SIDE -- the trace's durations, summed per (depth, function)
# under the root it was called from. Lines look like
#   " 1)               |  dmc_device_add() {"
#   " 1)   0.912 us    |    dmc_kobject_set_name();"
#   " 1) + 14.120 us   |  } /* dmc_device_add */"
aggregate() {
	awk -v side="$1" '
	/^#/ { next }
	/\|/ {
		split($0, parts, "|")
		left = parts[1]; right = substr($0, index($0, "|") + 1)
		match(right, /^ */)
		depth = int((RLENGTH - 2) / 2)
		fn = right; sub(/^ */, "", fn)
		gsub(/ \[[A-Za-z0-9_]+\]/, "", fn)	# a module function: "f [mod]"
		dur = ""
		if (match(left, /[0-9]+\.[0-9]+ us/))
			dur = substr(left, RSTART, RLENGTH - 3)
		if (fn ~ /\(\) \{$/) {
			name = fn; sub(/\(\) \{$/, "", name)
			if (depth == 0) root = name
			next
		}
		if (fn ~ /^\} \/\* .* \*\/$/) {
			name = fn; sub(/^\} \/\* /, "", name); sub(/ \*\/$/, "", name)
		} else if (fn ~ /\(\);$/) {
			name = fn; sub(/\(\);$/, "", name)
			if (depth == 0) root = name
		} else
			next
		if (dur == "")
			next
		key = depth " " root " " name
		calls[key]++
		total[key] += dur * 1000
	}
	END {
		for (k in calls) {
			split(k, f, " ")
			printf "P side=%s depth=%s root=%s fn=%s calls=%d total_ns=%.0f\n",
				side, f[1], f[2], f[3], calls[k], total[k]
		}
	}' /tmp/trace.txt
}

# drain -- copy the trace into /tmp/trace.txt through trace_pipe, which
# consumes as it reads (reading "trace" again from the start at each read
# is quadratic in its size), until no entry is left in the buffer.
drain() {
	cat $T/trace_pipe >/tmp/trace.txt &
	pid=$!
	while [ "$(awk '/^entries:/ { s += $2 } END { print s + 0 }' \
		$T/per_cpu/cpu*/stats)" -gt 0 ]; do
		sleep 1
	done
	sleep 2
	kill $pid
	wait $pid 2>/dev/null
}

# profile SIDE ROOTS... -- trace one bind run of SIDE from ROOTS
profile() {
	side=$1
	shift
	echo 0 >$T/tracing_on
	echo nop >$T/current_tracer
	echo >$T/trace
	echo "$*" >$T/set_graph_function
	echo 2 >$T/max_graph_depth
	echo 1 >$T/options/funcgraph-tail
	echo 0 >$T/options/funcgraph-irqs
	echo 65536 >$T/buffer_size_kb
	echo function_graph >$T/current_tracer
	echo 1 >$T/tracing_on
	if ! echo "bind $side $N" >"$RUN"; then
		echo "DMC-FAIL: bind $side $N: $(cat "$RUN")"
		rc=1
	fi
	echo 0 >$T/tracing_on
	echo "R $(cat "$RUN")"
	echo "I side=$side overrun=$(awk '/^overrun:/ { s += $2 } END { print s + 0 }' $T/per_cpu/cpu*/stats)"
	drain
	echo "I side=$side lines=$(wc -l </tmp/trace.txt)"
	aggregate "$side"
	rm -f /tmp/trace.txt
	echo nop >$T/current_tracer
	echo >$T/trace
}

echo "I kernel=$(uname -r) cpus=$(grep -c ^processor /proc/cpuinfo) n=$N"
dmc_rmmod 2>/dev/null
insmod "$DMC_MODDIR/dmcore.ko" export=0 &&
	insmod "$DMC_MODDIR/dmc_bench.ko" || { echo "DMC-FAIL: insmod dmcore export=0, dmc_bench"; exit 1; }
profile real device_add device_del
profile dmc dmc_device_add dmc_device_unregister
rmmod dmc_bench
dmc_rmmod
exit $rc
