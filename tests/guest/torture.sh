#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: the torture run (torture/dmc_torture.c). Loads the torture
# module for DURATION seconds (default 60) with THREADS workers (default 4)
# while userspace readers walk and read the tree under
# /sys/kernel/debug/dmcore and the filesystem "dmcore" mounted beside it
# (one superblock, two mounts), and a writer writes uevent through it,
# and read its events file, then checks what the
# module reported. Output is TAP. make check runs it as an integration test
# (60 s); scripts/torture.sh (make torture) runs it for 10 minutes. The
# kernel log scan of check.sh catches KASAN, lockdep, WARN and the rest.
#
# Environment: DURATION, THREADS, TORTURE_SEED (0 or unset: random; the
# seed is always printed, set it to replay a run's op sequences),
# TORTURE_OPS (mask of op kinds, default all), TORTURE_PROBES (mask of
# probe behaviours, default all), TORTURE_MIN_OPS (each op
# kind must have succeeded this often, default 1).
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

DURATION=${DURATION:-60}
THREADS=${THREADS:-4}
TORTURE_SEED=${TORTURE_SEED:-0}
TORTURE_OPS=${TORTURE_OPS:-0xffffffff}
TORTURE_PROBES=${TORTURE_PROBES:-0xff}
TORTURE_MIN_OPS=${TORTURE_MIN_OPS:-1}
LOG=/tmp/torture.log

live() { sed -n 's/^objects_live //p' "$DMC_DIR/stats"; }
# The torture's lines, kept as they come: a 10-minute run outgrows the
# kernel's log buffer, and its first lines (seed, selftest) would be gone.
: >"$LOG"
klog() {
	dmesg | grep 'dmc_torture: ' | cat "$LOG" - | awk '!seen[$0]++' >"$LOG.new"
	mv "$LOG.new" "$LOG"
}

before=$(live)
echo "# objects live before: $before"

# Userspace readers: walk the tree, read every file and link, read events.
# They stop at $STOP, and the script waits for them: killing a reader
# subshell would leave its find, cat or timeout running on, holding a file
# of the tree open -- and that file's reference on dmcore.ko makes the
# rmmod after this script fail with EAGAIN (CI, 5 Dec).
STOP=/tmp/torture.readers.stop
rm -f "$STOP"
readers=""
(
	while [ ! -e "$STOP" ]; do
		find "$DMC_DIR" >/dev/null 2>&1
		find "$DMC_DIR" -type f ! -name events ! -name control 2>/dev/null |
			while read -r f && [ ! -e "$STOP" ]; do
				cat "$f" >/dev/null 2>&1
			done
		ls -lR "$DMC_DIR/bus" "$DMC_DIR/class" >/dev/null 2>&1
		sleep 0.5
	done
) &
readers="$readers $!"
(
	while [ ! -e "$STOP" ]; do
		timeout 3 cat "$DMC_DIR/events" >/dev/null 2>&1
	done
) &
readers="$readers $!"
(
	while [ ! -e "$STOP" ]; do
		cat "$DMC_DIR/stats" >/dev/null 2>&1
		find "$DMC_DIR/devices" -name state 2>/dev/null |
			while read -r f && [ ! -e "$STOP" ]; do
				cat "$f" >/dev/null 2>&1
			done
		sleep 1
	done
) &
readers="$readers $!"

# The same walks through the filesystem "dmcore" (dmcfs.c): lookups,
# readdir, reads and links racing the objects' removal.
FS=/tmp/torture-dmcfs
mkdir -p $FS
check "mount -t dmcore for a reader" mount -t dmcore none $FS
(
	while [ ! -e "$STOP" ]; do
		# Not the root's events (a read blocks for the next event)
		# nor control.
		find $FS -type f ! -name events ! -name control 2>/dev/null |
			while read -r f && [ ! -e "$STOP" ]; do
				cat "$f" >/dev/null 2>&1
			done
		find $FS -type l 2>/dev/null |
			while read -r f && [ ! -e "$STOP" ]; do
				readlink "$f" >/dev/null 2>&1
				ls "$f/" >/dev/null 2>&1
			done
		sleep 0.5
	done
) &
readers="$readers $!"
# A writer through it: "change" into every device's uevent, each store
# under the object's active reference, racing its deletion.
(
	while [ ! -e "$STOP" ]; do
		find $FS/devices -name uevent 2>/dev/null |
			while read -r f && [ ! -e "$STOP" ]; do
				printf change 2>/dev/null >"$f"
			done
		sleep 0.5
	done
) &
readers="$readers $!"

args="threads=$THREADS duration_s=$DURATION seed=$TORTURE_SEED ops=$TORTURE_OPS probes=$TORTURE_PROBES"
echo "# insmod dmc_torture.ko $args"
# shellcheck disable=SC2086 # $args is a list of module parameters
check "insmod dmc_torture ($args)" insmod "$DMC_MODDIR/dmc_torture.ko" $args

# Wait for the verdict: the run, its teardown (probes, releases), slack.
limit=$((DURATION + 180))
t=0
while [ $t -lt $limit ]; do
	klog
	grep -q 'End of test' "$LOG" && break
	sleep 5
	t=$((t + 5))
done
# Each reader ends its current pass (a find, at most 3 s of events) and
# exits; wait returns when all have, so no file of the tree is open after.
touch "$STOP"
for pid in $readers; do
	wait "$pid" 2>/dev/null
done
rm -f "$STOP"
check "umount the dmcore filesystem" umount $FS
klog

seed=$(sed -n 's/.*start: seed=\([0-9]*\).*/\1/p' "$LOG" | head -n1)
echo "# seed: ${seed:-unknown} (replay: TORTURE_SEED=$seed TORTURE_OPS=$TORTURE_OPS)"
echo "TORTURE-SEED ${seed:-unknown}"
grep -E 'selftest|stats:|final:|census:|End of test|INVARIANT|SEQNUM' "$LOG" | sed 's/^/# /'

check "the run started and printed its seed" test -n "$seed"
check "selftest: the checker sees a model broken on purpose and the indexes it spoils" \
	grep -q 'selftest: checker found 0, 2 (indexes spoiled by the checker: expected 2), [1-9][0-9]* (broken on purpose: expected >= 1), 0 violations' "$LOG"
check "the run ended (End of test line within $limit s)" grep -q 'End of test' "$LOG"
check "End of test: SUCCESS" grep -q 'End of test: SUCCESS' "$LOG"
check "no invariant violation" grep -q 'final: .* violations=0 ' "$LOG"
check "SEQNUMs contiguous (event log and listener)" \
	grep -q 'final: .* gaps=0 seq_seen=[0-9]* seq_gaps=0 ' "$LOG"
check "devices created = devices released" \
	sh -c "grep 'census:' '$LOG' | grep -Eq 'created ([0-9]+), released \\1\$'"
check "live-object census back to where it started" \
	sh -c "grep 'census:' '$LOG' | grep -Eq ': ([0-9]+) live objects before, \\1 after'"

# Each enabled op kind succeeded often enough ("name=ok/err").
final=$(grep 'final: ops=' "$LOG" | tail -n1)
i=0
for kv in ${final#*(ok/err):}; do
	name=${kv%%=*}
	okn=${kv#*=}
	okn=${okn%/*}
	# link_del needs link_add (bit 11), and so on: as the module's tt_op_needed()
	need=1
	case $name in
	link_del) need=$(((TORTURE_OPS >> 11) & 1)) ;;
	dev_del|bind|rename|uevent|dev_pm|dev_rename|dev_move|rpm) need=$((TORTURE_OPS & 1)) ;;
	drv_unreg) need=$(((TORTURE_OPS >> 2) & 1)) ;;
	move) need=$(((TORTURE_OPS >> 14) & 1)) ;;
	esac
	if [ $(((TORTURE_OPS >> i) & 1)) -eq 1 ] && [ "$need" = 1 ]; then
		if [ "${okn:-0}" -ge "$TORTURE_MIN_OPS" ]; then
			ok "op $name succeeded $okn times (>= $TORTURE_MIN_OPS)"
		else
			notok "op $name succeeded ${okn:-0} times (< $TORTURE_MIN_OPS)"
		fi
	fi
	i=$((i + 1))
done
[ -n "$final" ] || notok "final stats line present"

# check.sh scans the whole console log; this says it in the TAP too.
klog_clean() {
	! dmesg | grep -E 'BUG:|KASAN|WARNING:|ODEBUG|circular locking|recursive locking|lock state|list_(add|del) corruption|soft lockup|blocked for more than|Call Trace:'
}
check "kernel log: no KASAN, BUG, WARNING, lockdep or lockup report" klog_clean

check "rmmod dmc_torture" rmmod dmc_torture
after=$(live)
echo "# objects live after unload: $after"
check "objects live after unload = before ($before)" test "$after" = "$before"
[ "$after" = "$before" ] || sed 's/^/# stats: /' "$DMC_DIR/stats"
if [ "${TORTURE_UNLOAD_CORE:-0}" = 1 ]; then
	dmc_rmmod
	dmesg | grep -E 'dmcore: (LEAK|unloaded)' | sed 's/^/# /'
fi

tap_end
