#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: the tree's own names and files. Names that would collide
# with an object's own entries (a child device called driver, subsystem,
# power or uevent, or like an attribute of its parent; a device called
# bind, unbind or uevent in a driver's directory) are the model's
# reserved names: refused by the core with EEXIST, and the export never
# removes an entry it did not make. Files: permissions checked at open
# (EACCES), one snapshot of an attribute per open, no kernel-internal
# errno reaching userspace. Load: a failing insmod never shows the tree.
# Output is TAP ("ok N - what"), then "1..N"; exit 0 only if all passed.
# vm.sh has loaded dmcore.ko already. NAMES_SECTIONS (default: all) picks
# sections: open snapshot errno names load hang.
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

C=$DMC_DIR/control
EV=$DMC_DIR/events
D=$DMC_DIR/devices
T=/tmp/names-test
mkdir -p $T
SECTIONS=${NAMES_SECTIONS:-"open snapshot errno names load hang"}
want() { case " $SECTIONS " in *" $1 "*) return 0 ;; esac; return 1; }

# wr FILE TEXT -- write TEXT and a newline to FILE in one write(); prints
# OK or the error text, e.g. "File exists".
wr() {
	printf '%s\n' "$2" >$T/cmd
	if o=$(dd if=$T/cmd of="$1" bs=65536 count=1 conv=notrunc 2>&1); then
		echo OK
	else
		printf '%s\n' "$o" | sed -n 's/^dd: error writing.*: //p'
	fi
}
ctl() { wr "$C" "$1"; }
must() {
	r=$(ctl "$1")
	[ "$r" = OK ] || notok "set-up: got '$r' for: $1"
}
# expect ERRTEXT DESCRIPTION COMMAND -- the control COMMAND fails so
expect() {
	r=$(ctl "$3")
	if [ "$r" = "$1" ]; then ok "$2: $1"; else notok "$2: want '$1', got '$r' for: $3"; fi
}
# expectw ERRTEXT DESCRIPTION FILE TEXT -- writing TEXT to FILE gives ERRTEXT
expectw() {
	r=$(wr "$3" "$4")
	if [ "$r" = "$1" ]; then ok "$2: $1"; else notok "$2: want '$1', got '$r'"; fi
}
# openerr MODE FILE -- open FILE (< or >>) in a subshell; prints OK or
# the shell's error text
openerr() {
	if [ "$1" = r ]; then
		o=$(sh -c "exec 3<'$2'" 2>&1) && echo OK && return
	else
		o=$(sh -c "exec 3>>'$2'" 2>&1) && echo OK && return
	fi
	case $o in *"Permission denied"*) echo EACCES ;; *) echo "$o" ;; esac
}
# expecto MODE FILE DESCRIPTION -- opening FILE so fails with EACCES
expecto() {
	r=$(openerr "$1" "$2")
	if [ "$r" = EACCES ]; then ok "$3: EACCES"; else notok "$3: want EACCES, got '$r'"; fi
}

EINVAL="Invalid argument"
EEXIST="File exists"
ENODEV="No such device"
EAGAIN="Resource temporarily unavailable"

if want open; then
	dmc_heading "open checks the file's mode"
	must "bus add ob"
	must "driver add od bus=ob match=o*"
	must "device add o0 bus=ob attr=v=1"
	OB=$DMC_DIR/bus/ob
	expecto w "$EV" "events (0444) opened for writing"
	expecto w "$DMC_DIR/stats" "stats (0444) opened for writing"
	expecto r "$C" "control (0200) opened for reading"
	expecto r "$OB/drivers/od/bind" "bind (0200) opened for reading"
	expecto r "$OB/drivers/od/unbind" "unbind (0200) opened for reading"
	expecto r "$OB/drivers_probe" "drivers_probe (0200) opened for reading"
	check "an attribute (0644) opens for reading and writing" \
		sh -c "exec 3<>'$D/o0/v'"
	check "events opens for reading" sh -c "exec 3<'$EV'"
	check "control opens for writing" sh -c "exec 3>>'$C'"
	must "device del /devices/o0"
	must "driver del od"
	must "bus del ob"
fi

if want snapshot; then
	dmc_heading "one snapshot per open"
	must "bus add sb"
	must "device add s0 bus=sb attr=v=aaaaaaaaaaaaaaaa"
	exec 3<"$D/s0/v"
	first=$(dd bs=4 count=1 <&3 2>/dev/null)
	wr "$D/s0/v" bbbbbbbbbbbbbbbb >/dev/null
	rest=$(cat <&3)
	exec 3<&-
	if [ "$first$rest" = aaaaaaaaaaaaaaaa ]; then
		ok "a read in pieces gives the value of the first read"
	else
		notok "a read in pieces gives the value of the first read: got '$first' '$rest'"
	fi
	check "a new open reads the new value" test "$(cat "$D/s0/v")" = bbbbbbbbbbbbbbbb
	exec 3<"$D/s0/v"
	must "device del /devices/s0"
	if o=$(cat <&3 2>&1); then notok "a snapshot is not read after its device is deleted: read '$o'"; else
		ok "a snapshot is not read after its device is deleted (${o##*: })"
	fi
	exec 3<&-
	must "bus del sb"
fi

if want errno; then
	dmc_heading "no kernel-internal errno"
	must "bus add eb"
	for e in 512 513 514 516 518 524 529; do
		expect "$EINVAL" "probe=fail:$e (kernel-internal) refused" \
			"driver add e$e bus=eb probe=fail:$e"
	done
	for e in 512 517 529; do
		expect "$EINVAL" "suspend=fail:$e (kernel-internal) refused" \
			"driver add s$e bus=eb suspend=fail:$e"
	done
	check "probe=fail:517 is still a deferral" \
		test "$(ctl "driver add d517 bus=eb match=none probe=fail:517")" = OK
	check "probe=fail:511 is accepted" \
		test "$(ctl "driver add d511 bus=eb match=none probe=fail:511")" = OK
	must "driver del d517"
	must "driver del d511"
	must "bus del eb"
	must "bus add fb"
	must "driver add ed bus=fb match=q* probe=defer:nosuch"
	must "device add q0 bus=fb"
	expectw "$EAGAIN" "bind whose probe defers" "$DMC_DIR/bus/fb/drivers/ed/bind" q0
	must "device del /devices/q0"
	must "driver del ed"
	must "bus del fb"
fi

if want names; then
	dmc_heading "reserved names"
	must "bus add nb"
	must "driver add nd bus=nb"
	N=$DMC_DIR/bus/nb
	r=$(wr $N/drivers_autoprobe 0)
	[ "$r" = OK ] || notok "set-up: drivers_autoprobe 0: $r"
	must "device add p0 bus=nb attr=color=red"
	for c in driver subsystem power uevent devres color; do
		expect "$EEXIST" "a child of p0 called $c" "device add $c parent=/devices/p0"
	done
	check "p0 keeps its uevent file" test -f "$D/p0/uevent"
	check "p0 keeps its power/state file" test -f "$D/p0/power/state"
	check "p0 keeps its color file" test "$(timeout 2 cat "$D/p0/color")" = red
	# Had "driver" been taken by a child, unbinding p0 would remove the
	# child's directory (and deleting p0 would use it after its free).
	r=$(wr "$N/drivers/nd/bind" p0)
	r2=$(wr "$N/drivers/nd/unbind" p0)
	check "p0 binds and unbinds ($r, $r2)" test "$r" = OK -a "$r2" = OK
	must "device del /devices/p0"
	check "p0 gone" test ! -e "$D/p0"

	for c in bind uevent; do
		must "device add $c bus=nb"
		expectw "$EEXIST" "binding a device called $c to nd" "$N/drivers/nd/bind" "$c"
		check "device $c is not bound" test ! -e "$D/$c/driver"
		must "device del /devices/$c"
		check "nd keeps its bind, unbind and uevent files after device $c" \
			test -f "$N/drivers/nd/bind" -a -f "$N/drivers/nd/unbind" \
			-a -f "$N/drivers/nd/uevent"
	done
	r=$(wr $N/drivers_autoprobe 1)
	[ "$r" = OK ] || notok "set-up: drivers_autoprobe 1: $r"
	must "device add m0 bus=nb"
	check "a device of another name still binds" test -L "$D/m0/driver"
	must "device del /devices/m0"
	must "driver del nd"
	must "bus del nb"
fi

if want load; then
	dmc_heading "a failing load never shows the tree"
	check "rmmod dmcore" dmc_rmmod
	# A reader that opens the events file whenever it exists and blocks
	# there: a failing load must neither wait for it nor leave it with a
	# file of a module that is gone.
	rm -f $T/stop
	(
		while [ ! -e $T/stop ]; do
			{ read -r _ && echo seen >>$T/seen; } <"$EV"
		done
	) 2>/dev/null &
	reader=$!
	i=0
	hung=0
	fails=0
	while [ $i -lt 40 ] && [ $hung = 0 ]; do
		insmod "$DMC_MODDIR/dmcore.ko" bridge=nosuch 2>/dev/null &
		ins=$!
		j=0
		while kill -0 $ins 2>/dev/null && [ $j -lt 100 ]; do
			sleep 0.1
			j=$((j + 1))
		done
		if kill -0 $ins 2>/dev/null; then
			hung=1
		elif wait $ins; then
			:
		else
			fails=$((fails + 1))
		fi
		i=$((i + 1))
	done
	check "40 loads with bridge=nosuch return (none waits for a reader)" test $hung = 0
	check "all 40 fail" test $fails = 40
	touch $T/stop
	kill $reader 2>/dev/null
	wait $reader 2>/dev/null
	check "the reader never opened the events file" test ! -e $T/seen
	check "insmod dmcore with defaults" insmod "$DMC_MODDIR/dmcore.ko"
	check "the tree is there" test -f "$C"
fi

if want hang; then
	dmc_heading "a device called unbind"
	must "bus add hb"
	must "driver add hd bus=hb"
	must "device add unbind bus=hb"
	H=$DMC_DIR/bus/hb
	check "device unbind is not bound (its link would be hd's unbind file)" \
		test ! -e "$D/unbind/driver"
	# Before the rule, this write removed its own file and waited for itself.
	wr "$H/drivers/hd/unbind" unbind >$T/hang 2>&1 &
	w=$!
	j=0
	while kill -0 $w 2>/dev/null && [ $j -lt 50 ]; do
		sleep 0.1
		j=$((j + 1))
	done
	if kill -0 $w 2>/dev/null; then
		notok "writing 'unbind' to hd/unbind returns: it hangs"
	else
		check "writing 'unbind' to hd/unbind returns ENODEV (not bound)" \
			test "$(cat $T/hang)" = "$ENODEV"
		check "hd keeps its unbind file" test -f "$H/drivers/hd/unbind"
		must "device del /devices/unbind"
		must "driver del hd"
		must "bus del hb"
	fi
fi

tap_end
