#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: dmcore's tracepoints (dmc_trace.h, system "dmcore") and
# stats' probe_hist lines. Mounts tracefs, enables events/dmcore, builds a
# bus with drivers through control (one binds after a 20 ms probe, one
# fails with EIO, one has a suspend callback), suspends and resumes, and
# checks the trace records (probe_start, probe_end with ret=0 and ret=-5,
# bind, uevent, suspend, resume, unbind) and stats (the bounds line, each
# driver's counts, the 20 ms probe in the bucket below 32768 us, a
# driver name escaped). Runs on the stock kernel (scripts/check.sh's
# stock stage) and on any kernel with tracefs. TAP; exit 0 only if all
# passed. vm.sh has loaded dmcore.ko already.
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

C=$DMC_DIR/control
ST=$DMC_DIR/stats
W=/tmp/trace-test
mkdir -p $W

# ctl COMMAND -- COMMAND and a newline in one write(); prints OK or the error.
ctl() {
	printf '%s\n' "$1" >$W/cmd
	if o=$(dd if=$W/cmd of="$C" bs=65536 count=1 conv=notrunc 2>&1); then
		echo OK
	else
		printf '%s\n' "$o" | sed -n 's/^dd: error writing.*: //p'
	fi
}
run() {
	r=$(ctl "$2")
	if [ "$r" = OK ]; then ok "$1"; else notok "$1: '$r' for: $2"; fi
}

T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null
if [ ! -d $T/events ]; then
	T=/sys/kernel/debug/tracing
	[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null
fi
if [ ! -d $T/events/dmcore ]; then
	notok "tracefs has events/dmcore (looked in /sys/kernel/tracing and $T)"
	tap_end
	exit 1
fi
ok "tracefs has events/dmcore"
for e in probe_start probe_end bind unbind uevent suspend resume; do
	check "event dmcore_$e exists" test -d "$T/events/dmcore/dmcore_$e"
done
echo 1 >$T/events/dmcore/enable
echo >$T/trace
check "events/dmcore enabled" grep -qx 1 $T/events/dmcore/enable

run "bus add" "bus add trb"
run "a driver whose probe takes 20 ms" "driver add trd bus=trb match=tr* delay_ms=20 suspend=ok"
run "a driver whose probe fails with EIO" "driver add tfd bus=trb match=tf* probe=fail:5"
run "device add tr0 (binds)" "device add tr0 bus=trb"
run "device add tf0 (probe fails)" "device add tf0 bus=trb"
run "system suspend through control" "suspend"
run "system resume through control" "resume"
run "device del tr0 (unbinds)" "device del /devices/tr0"
echo 0 >$T/events/dmcore/enable
cat $T/trace >$W/trace
sed 's/^/# /' $W/trace | grep dmcore_ | head -n 40

has() { grep -q "$1" $W/trace; }
check "probe_start of tr0 by trd" has "dmcore_probe_start: dev=tr0 driver=trd"
check "probe_end of tr0 with ret=0" has "dmcore_probe_end: dev=tr0 driver=trd ret=0 ns="
check "probe_end of tf0 with ret=-5" has "dmcore_probe_end: dev=tf0 driver=tfd ret=-5 ns="
check "bind of tr0 to trd" has "dmcore_bind: dev=tr0 driver=trd"
check "no bind of tf0" sh -c "! grep -q 'dmcore_bind: dev=tf0' $W/trace"
check "uevent add of /devices/tr0" has "dmcore_uevent: seqnum=[0-9]* action=add devpath=/devices/tr0\$"
check "uevent bind of /devices/tr0" has "dmcore_uevent: seqnum=[0-9]* action=bind devpath=/devices/tr0\$"
check "suspend of tr0, ret=0" has "dmcore_suspend: dev=tr0 ret=0 ns="
check "resume of tr0, ret=0" has "dmcore_resume: dev=tr0 ret=0 ns="
check "unbind of tr0 from trd" has "dmcore_unbind: dev=tr0 driver=trd"
# The 20 ms probe's duration, as traced.
ns=$(sed -n 's/.*dmcore_probe_end: dev=tr0 driver=trd ret=0 ns=\([0-9]*\).*/\1/p' $W/trace | head -n 1)
check "tr0's traced probe took at least 20 ms ($ns ns)" test "${ns:-0}" -ge 20000000
# Records in order: probe_start, probe_end, bind for tr0.
order=$(grep -n -e "dmcore_probe_start: dev=tr0" -e "dmcore_probe_end: dev=tr0" \
	-e "dmcore_bind: dev=tr0" $W/trace | sed 's/.*dmcore_\([a-z_]*\):.*/\1/' | tr '\n' ' ')
check "tr0: probe_start, probe_end, bind in order ($order)" test "$order" = "probe_start probe_end bind "
# SEQNUMs of the traced uevents increase and match the event log's.
seqs=$(sed -n 's/.*dmcore_uevent: seqnum=\([0-9]*\) .*/\1/p' $W/trace | tr '\n' ' ')
# shellcheck disable=SC2016 # the inner shell expands it
check "traced SEQNUMs increase ($seqs)" sh -c 'p=0; for s in $1; do [ "$s" -gt "$p" ] || exit 1; p=$s; done; [ "$p" -gt 0 ]' - "$seqs"
last=$(sed -n 's/^last_seqnum //p' $ST)
lastt=$(echo "$seqs" | awk '{ print $NF }')
check "the last traced SEQNUM is stats' last_seqnum ($lastt, $last)" test "$lastt" = "$last"

# ---- stats ----
cat $ST >$W/stats
sed -n 's/^/# /;/probe_hist/p' $W/stats
check "stats: the bounds line" grep -qx "probe_hist_bounds_us 1 2 4 8 16 32 64 128 256 512 1024 2048 4096 8192 16384 32768 65536 131072 262144 524288 1048576 inf" $W/stats
check "stats: trd probed once, ok" grep -q "^probe_hist trb trd count=1 ok=1 failed=0 deferred=0 total_us=" $W/stats
check "stats: tfd probed once, failed" grep -q "^probe_hist trb tfd count=1 ok=0 failed=1 deferred=0 total_us=" $W/stats
line=$(grep "^probe_hist trb trd " $W/stats)
check "stats: trd's line has 22 buckets" test "$(echo "$line" | awk '{print NF}')" = 30
us=$(echo "$line" | sed -n 's/.*total_us=\([0-9]*\).*/\1/p')
check "stats: trd's total_us >= 20000 ($us)" test "${us:-0}" -ge 20000
# The bucket that holds the probe: the first bound above total_us.
want=$(awk -v us="$us" 'BEGIN { b = 0; bound = 1; while (b < 21 && us >= bound) { b++; bound *= 2 } print b }')
got=$(echo "$line" | awk -v b="$want" '{ print $(9 + b) }')
check "stats: trd's probe in bucket $want (${us} us)" test "$got" = 1
check "stats: 20 ms lands in bucket 15 (bound 32768) unless slower than 32 ms" \
	sh -c "[ $us -ge 32768 ] || [ $want = 15 ]"
sum=$(echo "$line" | awk '{ s = 0; for (i = 9; i <= NF; i++) s += $i; print s }')
check "stats: trd's buckets sum to its count" test "$sum" = 1

# A driver name with a byte that must be escaped: '\' is \x5c.
r=$(ctl 'driver add a\b bus=trb match=zz*')
if [ "$r" = OK ]; then
	cat $ST >$W/stats
	check "stats: a\\b is written a\\x5cb" grep -q '^probe_hist trb a\\x5cb count=0 ' $W/stats
	run "driver del a\\b" 'driver del a\b'
else
	notok "driver add a\\b: $r"
fi

run "device del tf0" "device del /devices/tf0"
run "driver del trd" "driver del trd"
run "driver del tfd" "driver del tfd"
check "stats: no probe_hist of a deleted driver" sh -c "! grep -q '^probe_hist trb trd ' $ST"
run "bus del" "bus del trb"
tap_end
