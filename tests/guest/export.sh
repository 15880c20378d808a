#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: the tree, /sys/kernel/debug/dmcore (the filesystem
# "dmcore", dmcfs.c, automounted by sysfs_export.c). Builds a small world through the control file and
# checks the layout, the symlinks, attribute files and their modes, bind,
# unbind, drivers_probe and drivers_autoprobe, uevent and power/state
# writes, the events file (order, SEQNUMs, blocking, several readers,
# overflow), a file held open across its device's deletion and across
# rmmod, and the module parameters export=0 and event_log_size.
# Output is TAP ("ok N - what"), then "1..N"; exit 0 only if all passed.
# vm.sh has loaded dmcore.ko already; this script leaves it loaded
# (reloaded with default parameters) and the model empty.
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

C=$DMC_DIR/control
EV=$DMC_DIR/events
T=/tmp/export-test
mkdir -p $T

checknot() { # checknot DESCRIPTION COMMAND... -- COMMAND fails
	d=$1
	shift
	if "$@" >/dev/null 2>&1; then notok "$d"; else ok "$d"; fi
}

# wr FILE TEXT -- write TEXT and a newline to FILE in one write(); prints
# OK or the error text, e.g. "No such device".
wr() {
	printf '%s\n' "$2" >$T/cmd
	if o=$(dd if=$T/cmd of="$1" bs=65536 count=1 conv=notrunc 2>&1); then
		echo OK
	else
		printf '%s\n' "$o" | sed -n 's/^dd: error writing.*: //p'
	fi
}
ctl() { wr "$C" "$1"; }
# run DESCRIPTION COMMAND -- a control command that succeeds
run() {
	r=$(ctl "$2")
	if [ "$r" = OK ]; then ok "$1"; else notok "$1: got '$r' for: $2"; fi
}
# must COMMAND -- set-up that must work (a failure is one failed test)
must() {
	r=$(ctl "$1")
	[ "$r" = OK ] || notok "set-up: got '$r' for: $1"
}
# expectw ERRTEXT DESCRIPTION FILE TEXT -- writing TEXT to FILE gives ERRTEXT
expectw() {
	r=$(wr "$3" "$4")
	if [ "$r" = "$1" ]; then ok "$2: $1"; else notok "$2: want '$1', got '$r'"; fi
}

# resolves LINK DIR -- LINK is a relative symlink resolving to directory DIR
resolves() {
	case $(readlink "$1") in /* | '') return 1 ;; esac
	a=$(cd "$1" 2>/dev/null && pwd -P) || return 1
	b=$(cd "$2" 2>/dev/null && pwd -P) || return 1
	[ "$a" = "$b" ]
}
# mode FILE -- permission bits in octal
mode() { stat -c %a "$1" 2>/dev/null; }
# readf FILE -- FILE's content, bounded in time
readf() { timeout 2 cat "$1"; }

# A reader of the whole event log, kept running in the background: it
# must stay current (the file blocks, it never ends by itself).
LOG=$T/log
start_log() {
	cat "$EV" >$LOG &
	logpid=$!
}
stop_log() {
	kill "$logpid" 2>/dev/null
	wait "$logpid" 2>/dev/null
}
# seq_of PATTERN -- SEQNUM of the first record header matching PATTERN
seq_of() {
	grep -- "$1" $LOG | head -n 1 | sed -n 's/^SEQNUM=\([0-9]*\) .*/\1/p'
}
# before A B -- the first header matching A comes before the first matching B
before() {
	a=$(seq_of "$1")
	b=$(seq_of "$2")
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]
}
settle() { sleep 1; }

EINVAL="Invalid argument"
ENODEV="No such device"

D=$DMC_DIR/devices
B=$DMC_DIR/bus/eb
K=$DMC_DIR/class/ec

dmc_heading "layout"
check "dmcore has devices, bus, class, events, control, stats" \
	test -d $D -a -d $DMC_DIR/bus -a -d $DMC_DIR/class -a -f $EV -a -f $C \
	-a -f $DMC_DIR/stats
check "the tree is the filesystem dmcore, mounted at $DMC_DIR" \
	grep -q " $DMC_DIR dmcore " /proc/mounts
stat_of() { sed -n "s/^$1 //p" $DMC_DIR/stats; }
live0=$(stat_of objects_live)
start_log
must "bus add eb"
must "class add ec"
must "driver add ed bus=eb match=ex*"
must "device add ex0 bus=eb attr=color=red attr=size=3"
must "device add ec0 parent=/devices/ex0 class=ec"
must "device add ev0 class=ec"
settle
check "bus/eb with devices/ and drivers/" test -d $B/devices -a -d $B/drivers
check "bus/eb/drivers/ed with bind, unbind, uevent" \
	test -f $B/drivers/ed/bind -a -f $B/drivers/ed/unbind -a -f $B/drivers/ed/uevent
check "bus/eb has drivers_autoprobe, drivers_probe, uevent" \
	test -f $B/drivers_autoprobe -a -f $B/drivers_probe -a -f $B/uevent
check "class/ec exists" test -d $K
check "devices/ex0 with uevent and power/state" test -d $D/ex0 -a -f $D/ex0/uevent -a -f $D/ex0/power/state
check "class device nested under its parent: devices/ex0/ec0" test -d $D/ex0/ec0
check "parentless class device under devices/virtual/ec/ev0" test -d $D/virtual/ec/ev0

dmc_heading "links"
check "devices/ex0/subsystem -> bus/eb" resolves $D/ex0/subsystem $B
check "devices/ex0/driver -> bus/eb/drivers/ed" resolves $D/ex0/driver $B/drivers/ed
check "bus/eb/devices/ex0 -> devices/ex0" resolves $B/devices/ex0 $D/ex0
check "bus/eb/drivers/ed/ex0 -> devices/ex0" resolves $B/drivers/ed/ex0 $D/ex0
check "class/ec/ec0 -> devices/ex0/ec0" resolves $K/ec0 $D/ex0/ec0
check "class/ec/ev0 -> devices/virtual/ec/ev0" resolves $K/ev0 $D/virtual/ec/ev0
check "devices/ex0/ec0/subsystem -> class/ec" resolves $D/ex0/ec0/subsystem $K
check "class device without driver has no driver link" test ! -e $D/ex0/ec0/driver -a ! -L $D/ex0/ec0/driver
all_links() {
	bad=0
	nl=0
	find $DMC_DIR -type l >$T/linklist
	while read -r l; do
		nl=$((nl + 1))
		case $(readlink "$l") in /* | '') echo "# absolute: $l"; bad=1 ;; esac
		(cd "$l" 2>/dev/null) || { echo "# dangling: $l -> $(readlink "$l")"; bad=1; }
	done <$T/linklist
	echo "# $nl links"
	[ $nl -ge 8 ] && [ $bad -eq 0 ]
}
if all_links >$T/links; then ok "every symlink under dmcore is relative and resolves"; else cat $T/links; notok "every symlink under dmcore is relative and resolves"; fi

dmc_heading "attributes and modes"
check "attr color reads 'red'" test "$(readf $D/ex0/color)" = red
check "attr size reads '3'" test "$(readf $D/ex0/size)" = 3
r=$(wr $D/ex0/color blue)
if [ "$r" = OK ] && [ "$(readf $D/ex0/color)" = blue ]; then ok "attr write 'blue' reads back"; else notok "attr write 'blue' reads back: '$r', '$(readf $D/ex0/color)'"; fi
check "attr file mode 644" test "$(mode $D/ex0/color)" = 644
check "uevent mode 644, power/state mode 644" test "$(mode $D/ex0/uevent)" = 644 -a "$(mode $D/ex0/power/state)" = 644
check "bind and unbind mode 200" test "$(mode $B/drivers/ed/bind)" = 200 -a "$(mode $B/drivers/ed/unbind)" = 200
check "drivers_probe mode 200, drivers_autoprobe 644" test "$(mode $B/drivers_probe)" = 200 -a "$(mode $B/drivers_autoprobe)" = 644
check "control 200, events and stats 444" test "$(mode $C)" = 200 -a "$(mode $EV)" = 444 -a "$(mode $DMC_DIR/stats)" = 444
checknot "cat bind fails (write-only)" timeout 2 cat $B/drivers/ed/bind
checknot "cat control fails (write-only)" timeout 2 cat $C
check "uevent of ex0 reads variables" sh -c "timeout 2 cat $D/ex0/uevent | grep -q ="

dmc_heading "bind, unbind, drivers_probe, drivers_autoprobe"
check "ex0 bound at add: add before bind in events" before "ACTION=add DEVPATH=/devices/ex0 " "ACTION=bind DEVPATH=/devices/ex0 "
r=$(wr $B/drivers/ed/unbind ex0)
settle
if [ "$r" = OK ] && [ ! -L $D/ex0/driver ] && [ ! -L $B/drivers/ed/ex0 ]; then ok "unbind ex0: driver links gone"; else notok "unbind ex0: '$r', links left"; fi
check "unbind event for ex0" grep -q "ACTION=unbind DEVPATH=/devices/ex0 " $LOG
expectw "$ENODEV" "unbind of an unbound device" $B/drivers/ed/unbind ex0
r=$(wr $B/drivers/ed/bind ex0)
if [ "$r" = OK ] && resolves $D/ex0/driver $B/drivers/ed; then ok "bind ex0: driver link back"; else notok "bind ex0: '$r'"; fi
expectw "$ENODEV" "bind of an unknown device" $B/drivers/ed/bind nosuch
check "drivers_autoprobe reads 1" test "$(readf $B/drivers_autoprobe)" = 1
r=$(wr $B/drivers_autoprobe 0)
if [ "$r" = OK ] && [ "$(readf $B/drivers_autoprobe)" = 0 ]; then ok "drivers_autoprobe set to 0"; else notok "drivers_autoprobe set to 0: '$r'"; fi
expectw "$EINVAL" "drivers_autoprobe rejects 'maybe'" $B/drivers_autoprobe maybe
must "device add ex1 bus=eb"
settle
check "autoprobe off: new device ex1 stays unbound" test ! -L $D/ex1/driver
r=$(wr $B/drivers_probe ex1)
if [ "$r" = OK ] && resolves $D/ex1/driver $B/drivers/ed; then ok "drivers_probe ex1 binds it"; else notok "drivers_probe ex1 binds it: '$r'"; fi
expectw "$ENODEV" "drivers_probe of an unknown device" $B/drivers_probe nosuch
r=$(wr $B/drivers_autoprobe 1)
if [ "$r" = OK ] && [ "$(readf $B/drivers_autoprobe)" = 1 ]; then ok "drivers_autoprobe back to 1"; else notok "drivers_autoprobe back to 1: '$r'"; fi

dmc_heading "uevent writes"
nsynth() { grep -c '^SYNTH=1$' $LOG; }
s0=$(nsynth)
r=$(wr $D/ex0/uevent change)
settle
if [ "$r" = OK ] && [ "$(nsynth)" -eq $((s0 + 1)) ] &&
	tail -n 3 $LOG | grep -q '^SYNTH=1$' &&
	grep "ACTION=" $LOG | tail -n 1 | grep -q "ACTION=change DEVPATH=/devices/ex0 "; then
	ok "uevent 'change' re-sends with SYNTH=1"
else
	notok "uevent 'change' re-sends with SYNTH=1: '$r'"
fi
r=$(wr $D/ex0/uevent add)
settle
if [ "$r" = OK ] && grep "ACTION=" $LOG | tail -n 1 | grep -q "ACTION=add DEVPATH=/devices/ex0 " &&
	[ "$(nsynth)" -eq $((s0 + 2)) ]; then
	ok "uevent 'add' re-sends with SYNTH=1"
else
	notok "uevent 'add' re-sends with SYNTH=1: '$r'"
fi
check "ex0 still there after a synthetic add" test -d $D/ex0
s1=$(grep -c "ACTION=" $LOG)
expectw "$EINVAL" "uevent rejects 'bogus'" $D/ex0/uevent bogus
settle
check "a rejected uevent write sends nothing" test "$(grep -c "ACTION=" $LOG)" = "$s1"
r=$(wr $B/uevent change)
settle
if [ "$r" = OK ] && grep "ACTION=" $LOG | tail -n 1 | grep -q "ACTION=change DEVPATH=/bus/eb "; then ok "bus uevent 'change' re-sends"; else notok "bus uevent 'change' re-sends: '$r'"; fi
r=$(wr $B/drivers/ed/uevent change)
settle
if [ "$r" = OK ] && grep "ACTION=" $LOG | tail -n 1 | grep -q "ACTION=change DEVPATH=/bus/eb/drivers/ed "; then ok "driver uevent 'change' re-sends"; else notok "driver uevent 'change' re-sends: '$r'"; fi

dmc_heading "power/state"
check "power/state reads 'on'" test "$(readf $D/ex0/power/state)" = on
r=$(wr $D/ex0/power/state suspend)
if [ "$r" != OK ] && [ "$(readf $D/ex0/power/state)" = on ]; then ok "suspend of ex0 with an active child fails ($r)"; else notok "suspend of ex0 with an active child fails: got '$r', state $(readf $D/ex0/power/state)"; fi
r=$(wr $D/ex0/ec0/power/state suspend)
if [ "$r" = OK ] && [ "$(readf $D/ex0/ec0/power/state)" = suspended ]; then ok "suspend child ec0"; else notok "suspend child ec0: '$r'"; fi
r=$(wr $D/ex0/power/state suspend)
if [ "$r" = OK ] && [ "$(readf $D/ex0/power/state)" = suspended ]; then ok "suspend ex0 once its child is suspended"; else notok "suspend ex0 once its child is suspended: '$r'"; fi
r=$(wr $D/ex0/power/state resume)
r2=$(wr $D/ex0/ec0/power/state resume)
if [ "$r" = OK ] && [ "$r2" = OK ] && [ "$(readf $D/ex0/power/state)" = on ] &&
	[ "$(readf $D/ex0/ec0/power/state)" = on ]; then ok "resume ex0 and ec0"; else notok "resume ex0 and ec0: '$r' '$r2'"; fi
expectw "$EINVAL" "power/state rejects 'sleep'" $D/ex0/power/state sleep

dmc_heading "events"
must "device del /devices/ex1"
settle
check "unbind before remove for ex1" before "ACTION=unbind DEVPATH=/devices/ex1 " "ACTION=remove DEVPATH=/devices/ex1 "
check "drivers_probe: add before bind for ex1" before "ACTION=add DEVPATH=/devices/ex1 " "ACTION=bind DEVPATH=/devices/ex1 "
contiguous() {
	grep '^SEQNUM=' $LOG | sed 's/^SEQNUM=\([0-9]*\) .*/\1/' >$T/seqs
	[ "$(wc -l <$T/seqs)" -ge 10 ] || return 1
	awk 'NR > 1 && $1 != p + 1 { print "# gap after " p; bad = 1 } { p = $1 } END { exit bad }' $T/seqs
}
check "SEQNUMs contiguous" contiguous
check "every header has SEQNUM ACTION DEVPATH SUBSYSTEM" \
	sh -c "! grep '^SEQNUM=' $LOG | grep -v '^SEQNUM=[0-9]* ACTION=[a-z]* DEVPATH=/[^ ]* SUBSYSTEM=[^ ]*\$'"
lastlog=$(grep '^SEQNUM=' $LOG | tail -n 1 | sed 's/^SEQNUM=\([0-9]*\) .*/\1/')
check "stats: last_seqnum is the log's last SEQNUM ($lastlog)" test "$(stat_of last_seqnum)" = "$lastlog"
stop_log
cat "$EV" >$T/r1 &
p1=$!
cat "$EV" >$T/r2 &
p2=$!
settle
alive=0
kill -0 $p1 2>/dev/null && kill -0 $p2 2>/dev/null && alive=1
check "readers block at the end of the log" test $alive = 1
must "device add ex2 bus=eb"
settle
check "blocked reader 1 got the new event" grep -q "ACTION=add DEVPATH=/devices/ex2 " $T/r1
h=$(grep 'ACTION=add DEVPATH=/devices/ex2 ' $T/r1)
check "blocked reader 2 got the same event" grep -qxF "$h" $T/r2
check "both readers read the same log" cmp -s $T/r1 $T/r2
kill $p1 $p2 2>/dev/null
wait $p1 $p2 2>/dev/null

dmc_heading "open files"
exec 3<$D/ex2/uevent
exec 4<>$D/ex2/power/state
must "device del /devices/ex2"
settle
# A file of a removed object: ENODEV, as sysfs gives; never data.
if o=$(cat <&3 2>&1); then notok "uevent held open: read fails once ex2 is deleted: read '$o'"; else
	case $o in *"$ENODEV"*) ok "uevent held open: read fails once ex2 is deleted (${o##*: })" ;; *) notok "uevent held open: read fails once ex2 is deleted: got '$o'" ;; esac
fi
if o=$( (echo suspend >&4) 2>&1); then notok "power/state held open: write fails once ex2 is deleted"; else
	case $o in *"$ENODEV"*) ok "power/state held open: write fails once ex2 is deleted (${o##*: })" ;; *) notok "power/state held open: write fails once ex2 is deleted: got '$o'" ;; esac
fi
exec 3<&-
exec 4<&-
check "ex2 gone from devices/ and bus/eb/devices/" test ! -e $D/ex2 -a ! -L $B/devices/ex2

must "device del /devices/virtual/ec/ev0"
must "device del /devices/ex0"
must "driver del ed"
must "class del ec"
must "bus del eb"
check "world gone from the tree" test ! -e $D/ex0 -a ! -e $B -a ! -e $K -a ! -e $D/virtual/ec/ev0
settle
live1=$(stat_of objects_live)
check "stats: objects_live back to $live0 (now $live1)" test "$live1" = "$live0"

exec 3<"$EV"
checknot "rmmod dmcore fails while events is open" dmc_rmmod
exec 3<&-
must "bus add hb"
must "device add hx0 bus=hb"
exec 3<$D/hx0/uevent
checknot "rmmod dmcore fails while an attribute file is open" dmc_rmmod
exec 3<&-
must "device del /devices/hx0"
must "bus del hb"
check "rmmod dmcore succeeds once closed" dmc_rmmod

dmc_heading "export=0"
check "insmod dmcore export=0" insmod "$DMC_MODDIR/dmcore.ko" export=0
check "export=0: no dmcore directory in debugfs" test ! -e $DMC_DIR
check "export=0: insmod dmc_sample_bus" insmod "$DMC_MODDIR/dmc_sample_bus.ko"
check "export=0: insmod dmc_sample_driver" insmod "$DMC_MODDIR/dmc_sample_driver.ko"
check "export=0: rmmod dmc_sample_driver" rmmod dmc_sample_driver
check "export=0: rmmod dmc_sample_bus" rmmod dmc_sample_bus
check "export=0: rmmod dmcore" dmc_rmmod

dmc_heading "event_log_size=8: MISSED"
check "insmod dmcore event_log_size=8" insmod "$DMC_MODDIR/dmcore.ko" event_log_size=8
check "stats: event_log_capacity 8" test "$(stat_of event_log_capacity)" = 8
exec 3<"$EV"
must "bus add ob"
i=0
while [ $i -lt 12 ]; do
	wr $DMC_DIR/bus/ob/uevent change >/dev/null
	i=$((i + 1))
done
timeout 2 cat <&3 >$T/ov
exec 3<&-
first=$(head -n 1 $T/ov)
missed=${first#MISSED=}
case $first in MISSED=[0-9]*) ok "a reader behind the ring first gets $first" ;; *) notok "a reader behind the ring first gets MISSED=n: got '$first'" ;; esac
firstseq=$(sed -n 's/^SEQNUM=\([0-9]*\) .*/\1/p' $T/ov | head -n 1)
check "MISSED=n counts the events dropped (next SEQNUM is n+1: $firstseq)" test "$firstseq" = $((missed + 1))
check "then the 8 kept records" test "$(grep -c '^SEQNUM=' $T/ov)" = 8
check "exactly one MISSED record" test "$(grep -c '^MISSED=' $T/ov)" = 1
must "bus del ob"
check "rmmod dmcore (event_log_size=8)" dmc_rmmod
check "insmod dmcore with defaults" insmod "$DMC_MODDIR/dmcore.ko"
check "dmcore tree back" test -f $C

tap_end
