#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: a tiny run of every benchmark scenario (bench/, make bench)
# with N = 100, on dmcore and on the kernel's own driver core. It asserts
# only that both sides completed and counted the same objects, never a
# time: the timings of a debug kernel under TCG mean nothing. Output is
# TAP, read by check.sh. vm.sh has loaded dmcore.ko (export=1) already.
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

N=100
RUN=$DMC_DEBUGFS/dmc_bench/run

# bench CMD... -- run one command; its result line is in $res
bench() {
	res=''
	echo "$*" >"$RUN" 2>/dev/null
	res=$(cat "$RUN")
	echo "# $res"
}
# field NAME -- a field of the last result line
field() {
	for kv in $res; do
		case "$kv" in "$1="*) echo "${kv#*=}"; return ;; esac
	done
}

check "insmod dmc_bench" insmod "$DMC_MODDIR/dmc_bench.ko"
check "its control file exists" test -w "$RUN"

# expect SCENARIO COUNT [LOOKUPS] -- run SCENARIO on both sides with N;
# each must succeed (err=0) and count COUNT objects.
expect() {
	bench "$1" real $N ${3:+"$3"}
	rerr=$(field err) rcount=$(field count) rcmd=$(field cmd)
	bench "$1" dmc $N ${3:+"$3"}
	derr=$(field err) dcount=$(field count) dcmd=$(field cmd)
	if [ "$rerr" = 0 ] && [ "$rcmd" = "$1" ]; then
		ok "$1: the real driver core completed (count $rcount)"
	else
		notok "$1: the real driver core completed (err $rerr)"
	fi
	if [ "$derr" = 0 ] && [ "$dcmd" = "$1" ]; then
		ok "$1: dmcore completed (count $dcount)"
	else
		notok "$1: dmcore completed (err $derr)"
	fi
	if [ "$rcount" = "$2" ] && [ "$dcount" = "$2" ]; then
		ok "$1: both counted $2"
	else
		notok "$1: both counted $2 (real $rcount, dmcore $dcount)"
	fi
}

expect devices $N
expect bind $N
# bindkey: dmcore's bind on a bus with a match index (Linux has none).
bench bindkey dmc $N
# Each device's probe asks one match (its driver's), not 100.
if [ "$(field err)" = 0 ] && [ "$(field count)" = $N ] && [ "$(field probes)" = $N ] &&
	[ "$(field ops)" = $N ]; then
	ok "bindkey: dmcore bound $N devices with $N matches through the match index"
else
	notok "bindkey: dmcore bound $(field count) of $N, $(field ops) matches, $(field probes) probes (err $(field err))"
fi
expect lookup $N
expect lookup 10 10
expect chain $N

# Events: the same number sent on both sides; on dmcore the log then holds
# exactly the N events and the N/100 devices' "remove" events of the
# teardown, and a reader of the events file gets every one of them.
expect events $N
ndev=$N
[ $ndev -gt 100 ] && ndev=100
recs=$( (timeout 3 cat "$DMC_DIR/events") 2>/dev/null | grep -c '^SEQNUM=')
if [ "$recs" = $((N + ndev)) ]; then
	ok "events: a reader of dmcore/events got all $recs records"
else
	notok "events: a reader of dmcore/events got $recs records, not $((N + ndev))"
fi
bench evlog 4096 >/dev/null
check "events: the event log is back to 4096" test "$(field err)" = 0

# The phase clocks: one add and one delete step of each kind per device,
# an "add" and a "remove" event each, a probe each in bind.
calls() {
	v=$(field "ph_$1")
	echo "${v#*/}"
}
bench phases devices $N
if [ "$(field err)" = 0 ] && [ "$(calls add_tree)" = $N ] &&
	[ "$(calls del_tree)" = $N ] && [ "$(calls event)" = $((2 * N)) ]; then
	ok "phases devices: $N tree adds and deletes, $((2 * N)) events clocked"
else
	notok "phases devices: tree adds $(calls add_tree), deletes $(calls del_tree), events $(calls event)"
fi
# Bind also registers and removes the scenario's 100 drivers: 200 events.
bench phases bind $N
if [ "$(field err)" = 0 ] && [ "$(calls probe)" = $N ] &&
	[ "$(calls event)" = $((4 * N + 200)) ]; then
	ok "phases bind: $N probes, $((4 * N + 200)) events clocked"
else
	notok "phases bind: probes $(calls probe), events $(calls event)"
fi

# The raw-debugfs floor: the tree's entries for N devices, made eagerly.
bench floor $N
entries=$(field entries)
if [ "$(field err)" = 0 ] && [ "$(field count)" = $N ] && [ "${entries:-0}" -gt 0 ]; then
	ok "floor: $N devices' entries created and removed ($entries each)"
else
	notok "floor: $N devices' entries created and removed"
fi

# The floor has the tree's shape: N held devices add N * entries to it.
before=$(find "$DMC_DIR" | wc -l)
bench hold $N
after=$(find "$DMC_DIR" | wc -l)
if [ "$(field err)" = 0 ] && [ $((after - before)) = $((N * ${entries:-0})) ]; then
	ok "floor: the mirror made $((after - before)) entries for $N devices, as the floor"
else
	notok "floor: the mirror made $((after - before)) entries for $N devices, the floor $((N * ${entries:-0}))"
fi
bench release
check "release the held devices" test "$(field err)" = 0
check "the mirror is back to its size" test "$(find "$DMC_DIR" | wc -l)" = "$before"

check "rmmod dmc_bench" rmmod dmc_bench
check "no dmcbench bus left in the mirror" test ! -e "$DMC_DIR/bus/dmcbench"
check "no dmcbench bus left in sysfs" test ! -e /sys/bus/dmcbench
tap_end
