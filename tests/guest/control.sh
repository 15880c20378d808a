#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: the control file, /sys/kernel/debug/dmcore/control
# (control.c). First a batch of bad commands, each of which must fail with
# its exact errno and leave the model untouched (the debugfs tree, the
# live object count and the event sequence number are compared before and
# after the batch); then commands that build, bind, defer, suspend and
# take down a small model. Ends by unloading dmcore with control objects
# still alive: control must take them down without a leak.
# Output is TAP ("ok N - what"), then "1..N"; exit 0 only if all passed.
# vm.sh has loaded dmcore.ko already.
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

C=$DMC_DIR/control
EV=$DMC_DIR/events
ST=$DMC_DIR/stats
D=$DMC_DIR/devices
T=/tmp/control-test
mkdir -p $T


# send FILE -- write FILE to the control file in one write() (dd copies
# what one read gave it); prints OK or the error text, e.g. "File exists".
send() {
	if o=$(dd if="$1" of="$C" bs=65536 count=1 conv=notrunc 2>&1); then
		echo OK
	else
		printf '%s\n' "$o" | sed -n 's/^dd: error writing.*: //p'
	fi
}
# ctl COMMAND -- send COMMAND and a newline, as echo would. Concurrent
# callers set CMDF to a file of their own.
CMDF=$T/cmd
ctl() {
	printf '%s\n' "$1" >"$CMDF"
	send "$CMDF"
}
# ctlf FORMAT [ARG]... -- send exactly what printf makes of its arguments.
ctlf() {
	# shellcheck disable=SC2059 # the format is the point
	printf "$@" >"$CMDF"
	send "$CMDF"
}

# expect ERRTEXT DESCRIPTION COMMAND -- COMMAND fails with ERRTEXT.
expect() {
	r=$(ctl "$3")
	if [ "$r" = "$1" ]; then ok "$2: $1"; else notok "$2: want '$1', got '$r' for: $3"; fi
}
# expectf ERRTEXT DESCRIPTION FORMAT [ARG]... -- the same, raw bytes.
expectf() {
	want=$1 what=$2
	shift 2
	r=$(ctlf "$@")
	if [ "$r" = "$want" ]; then ok "$what: $want"; else notok "$what: want '$want', got '$r'"; fi
}
# run DESCRIPTION COMMAND -- COMMAND succeeds.
run() {
	r=$(ctl "$2")
	if [ "$r" = OK ]; then ok "$1"; else notok "$1: got '$r' for: $2"; fi
}
# must COMMAND -- set-up that must work (a failure is one failed test).
must() {
	r=$(ctl "$1")
	[ "$r" = OK ] || notok "set-up: got '$r' for: $1"
}

EINVAL="Invalid argument"
ENOENT="No such file or directory"
EEXIST="File exists"
EBUSY="Device or resource busy"
E2BIG="Argument list too long"
EPERM="Operation not permitted"
ENAMETOOLONG="File name too long"
EIO="Input/output error"

# events -- the event log so far (the reader blocks at the end: bounded).
events() { timeout 2 cat "$EV" 2>/dev/null; }
# bound PATH -- the last bind/unbind event of device PATH was a bind.
bound() {
	last=$(events | grep -E "ACTION=(bind|unbind) DEVPATH=$1 " | tail -n 1)
	case "$last" in *ACTION=bind*) return 0 ;; *) return 1 ;; esac
}
stat_of() { sed -n "s/^$1 //p" "$ST"; }
# snapshot FILE -- the tree (without the removal area), live objects and
# the last event number.
snapshot() {
	find "$DMC_DIR" | sort >"$1"
	echo "objects_live $(stat_of objects_live)" >>"$1"
	echo "last_seqnum $(stat_of last_seqnum)" >>"$1"
}
# long N -- a name of N bytes
long() { head -c "$1" /dev/zero | tr '\0' n; }

if [ ! -w "$C" ]; then
	notok "control file exists"
	echo "1..$n"
	exit 1
fi

# ---- a model for the bad commands to bump into -----------------------------
must "bus add cbus"
must "class add ccls"
must "driver add cdrv bus=cbus match=c*"
must "driver add sfail bus=cbus match=s* suspend=fail:5"
must "device add c0 bus=cbus"
must "device add c1 bus=cbus"
must "device add s0 bus=cbus"
must "device add k0 class=ccls"
must "link add /devices/c0 /devices/c1"
# A bus, devices and a driver made by modules, which control must not delete.
insmod "$DMC_MODDIR/dmc_sample_bus.ko" && insmod "$DMC_MODDIR/dmc_sample_driver.ko" ||
	notok "set-up: sample modules load"

snapshot $T/before

# ---- bad commands: exact errno, nothing changed ------------------------------
expectf "$EINVAL" "no trailing newline (a command split across writes)" 'bus add x'
expectf "$EINVAL" "two commands in one write" 'bus add x\nbus add y\n'
expectf "$EINVAL" "empty command" '\n'
expectf "$EINVAL" "only blanks" ' \t \n'
expectf "$EINVAL" "control character in a name" 'bus add a\001b\n'
expectf "$EINVAL" "NUL byte in the command" 'bus add a\000b\n'
long 5000 >$T/big
printf '\n' >>$T/big
r=$(send $T/big)
if [ "$r" = "$E2BIG" ]; then ok "write over PAGE_SIZE: $E2BIG"; else notok "write over PAGE_SIZE: got '$r'"; fi
expect "$EINVAL" "unknown verb" "frobnicate add x"
expect "$EINVAL" "missing action" "bus"
expect "$EINVAL" "unknown action" "bus rename cbus"
expect "$EINVAL" "bus add without a name" "bus add"
expect "$EINVAL" "extra argument" "bus add x y"
expect "$EINVAL" "'/' in a name" "bus add a/b"
expect "$EINVAL" "'=' in a name" "class add a=b"
expect "$EINVAL" "'..' as a name" "device add .."
expect "$ENAMETOOLONG" "name of 256 bytes" "bus add $(long 256)"
expect "$EEXIST" "bus name taken" "bus add cbus"
expect "$EEXIST" "bus name taken by a module's bus" "bus add sample"
expect "$ENOENT" "bus del of an unknown bus" "bus del nosuch"
expect "$EBUSY" "bus del with control devices and drivers on it" "bus del cbus"
expect "$EPERM" "bus del of a module's bus" "bus del sample"
expect "$EEXIST" "class name taken" "class add ccls"
expect "$ENOENT" "class del of an unknown class" "class del nosuch"
expect "$EBUSY" "class del with a control device in it" "class del ccls"
expect "$EINVAL" "driver add without bus=" "driver add d1"
expect "$ENOENT" "driver add on an unknown bus" "driver add d1 bus=nosuch"
expect "$EINVAL" "unknown driver option" "driver add d1 bus=cbus colour=red"
expect "$EINVAL" "option without a value" "driver add d1 bus=cbus sync"
expect "$EINVAL" "duplicate option" "driver add d1 bus=cbus bus=cbus"
expect "$EINVAL" "duplicate async" "driver add d1 bus=cbus async async"
expect "$EINVAL" "delay_ms over 10000" "driver add d1 bus=cbus delay_ms=10001"
expect "$EINVAL" "delay_ms not a number" "driver add d1 bus=cbus delay_ms=1s"
expect "$EINVAL" "probe=fail:0" "driver add d1 bus=cbus probe=fail:0"
expect "$EINVAL" "probe=fail:4096" "driver add d1 bus=cbus probe=fail:4096"
expect "$EINVAL" "probe=fail:-5" "driver add d1 bus=cbus probe=fail:-5"
expect "$EINVAL" "unknown probe= mode" "driver add d1 bus=cbus probe=maybe"
expect "$EINVAL" "probe=defer: without a name" "driver add d1 bus=cbus probe=defer:"
expect "$EINVAL" "suspend=fail:x" "driver add d1 bus=cbus suspend=fail:x"
expect "$EINVAL" "empty match=" "driver add d1 bus=cbus match="
expect "$EEXIST" "driver name taken" "driver add cdrv bus=cbus"
expect "$EPERM" "driver add on a module's bus" "driver add d1 bus=sample"
expect "$ENOENT" "driver del of an unknown driver" "driver del nosuch"
expect "$EPERM" "driver del of a module's driver" "driver del widget"
expect "$EEXIST" "device name taken" "device add c0"
expect "$EPERM" "device add on a module's bus" "device add x bus=sample"
expect "$EEXIST" "device name taken in the tree" "device add virtual"
expect "$ENOENT" "device add on an unknown bus" "device add x bus=nosuch"
expect "$ENOENT" "device add in an unknown class" "device add x class=nosuch"
expect "$ENOENT" "device add under an unknown parent" "device add x parent=/devices/nosuch"
expect "$ENOENT" "parent outside /devices" "device add x parent=/bus/cbus"
expect "$ENOENT" "parent that is not a device" "device add x parent=/devices/virtual"
expect "$EINVAL" "parent path with an empty component" "device add x parent=/devices//c0"
expect "$EINVAL" "unknown device option" "device add x colour=red"
expect "$EINVAL" "duplicate bus=" "device add x bus=cbus bus=cbus"
expect "$EINVAL" "attr= without a value" "device add x attr=novalue"
expect "$EINVAL" "duplicate attribute" "device add x attr=a=1 attr=a=2"
expect "$EEXIST" "attribute name the core uses" "device add x attr=uevent=1"
expect "$ENAMETOOLONG" "attribute name of 256 bytes" "device add x attr=$(long 256)=v"
expect "$E2BIG" "attribute value of 256 bytes" "device add x attr=k=$(long 256)"
attrs=""
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do attrs="$attrs attr=a$i=$i"; done
expect "$E2BIG" "17 attributes" "device add x$attrs"
expect "$EINVAL" "device del without a path" "device del"
expect "$ENOENT" "device del of an unknown device" "device del /devices/nosuch"
expect "$EPERM" "device del of a module's device" "device del /devices/sample-root/widget0"
expect "$EINVAL" "link add with one device" "link add /devices/c0"
expect "$ENOENT" "link add to an unknown device" "link add /devices/c0 /devices/nosuch"
expect "$EINVAL" "link of a device to itself" "link add /devices/c0 devices/c0"
expect "$EINVAL" "link add with an unknown flag" "link add /devices/c0 /devices/c1 flags=bogus"
expect "$EINVAL" "link add with a flag twice" "link add /devices/c0 /devices/c1 flags=stateless,stateless"
expect "$EINVAL" "link add with an empty flag" "link add /devices/c0 /devices/c1 flags=stateless,"
expect "$EINVAL" "link add stateless,autoremove-consumer" "link add /devices/c0 /devices/c1 flags=stateless,autoremove-consumer"
expect "$EINVAL" "link add sync-state-only with another flag" "link add /devices/c0 /devices/c1 flags=sync-state-only,pm-runtime"
expect "$EINVAL" "link add autoprobe-consumer,autoremove-supplier" "link add /devices/c0 /devices/c1 flags=autoprobe-consumer,autoremove-supplier"
expect "$EINVAL" "link add of a new pair with bad flags" "link add /devices/s0 /devices/c0 flags=stateless,autoprobe-consumer"
expect "$EINVAL" "flags= on link del" "link del /devices/c0 /devices/c1 flags=stateless"
expect "$EINVAL" "a cycle with flags" "link add /devices/c1 /devices/c0 flags=stateless"
expect "$ENOENT" "link add with flags to an unknown device" "link add /devices/c0 /devices/nosuch flags=stateless"
expect "$EINVAL" "link closing a cycle" "link add /devices/c1 /devices/c0"
expect "$ENOENT" "link del of no link" "link del /devices/c1 /devices/s0"
expect "$EINVAL" "suspend with an argument" "suspend now"
expect "$EINVAL" "resume with an argument" "resume all"
expect "$EIO" "suspend refused by a driver (suspend=fail:5)" "suspend"

snapshot $T/after
if cmp -s $T/before $T/after; then
	ok "the bad commands changed nothing (tree, objects_live, last_seqnum)"
else
	notok "the bad commands changed nothing (tree, objects_live, last_seqnum)"
	diff $T/before $T/after | sed 's/^/# /'
fi
check "every device is on after the refused suspend" grep -qx on "$D/s0/power/state"

# ---- good commands ----------------------------------------------------------------
# A control device under a module's device: when the module deletes its
# device, control's child goes at once and does not keep the parent (and
# its release function, in the module) alive past the module.
run "device add under a module's device" "device add mchild parent=/devices/sample-root/widget0 attr=k=v"
check "mchild under widget0" test -d "$D/sample-root/widget0/mchild"
rmmod dmc_sample_driver && rmmod dmc_sample_bus || notok "set-up: sample modules unload"
check "mchild went with the module's devices" test ! -e "$D/sample-root"
run "mchild's name is free again" "device add mchild"
run "device del mchild" "device del /devices/mchild"
must "driver del sfail"

run "bus add (tabs and repeated blanks)" "$(printf 'bus \t add\t\tb1')"
check "bus b1 in the tree" test -d "$DMC_DIR/bus/b1"
run "class add" "class add cls1"
check "class cls1 in the tree" test -d "$DMC_DIR/class/cls1"

run "driver add with match=" "driver add da bus=b1 match=a*"
run "device add, matching" "device add apple bus=b1"
run "device add, not matching" "device add berry bus=b1"
check "match=a* bound apple" bound /devices/apple
if bound /devices/berry; then notok "match=a* left berry unbound"; else ok "match=a* left berry unbound"; fi

run "driver add with probe=fail:5" "driver add dfail bus=b1 match=f* probe=fail:5"
run "device add, refused by its driver's probe" "device add fig bus=b1"
if bound /devices/fig; then notok "probe=fail leaves fig unbound"; else ok "probe=fail leaves fig unbound"; fi
check "fig still in the tree" test -d "$D/fig"

run "driver add with probe=defer:x0" "driver add dw bus=b1 match=w* probe=defer:x0"
run "device add, deferred" "device add w0 bus=b1"
if bound /devices/w0; then notok "w0 waits for x0"; else ok "w0 waits for x0"; fi
# Linux's /sys/kernel/debug/devices_deferred: name, what it waits for, and
# the driver's message (dmc_dev_err_probe()), tab-separated.
check "devices_deferred: w0 waits for x0, in dw's words" \
	grep -qx "w0	x0	dw: x0 is not bound yet" "$DMC_DIR/devices_deferred"
run "driver add for x0 (async, delay_ms)" "driver add dx bus=b1 match=x* async delay_ms=200"
run "device add x0" "device add x0 bus=b1"
sleep 2
check "x0 bound asynchronously" bound /devices/x0
check "w0 bound once x0 did" bound /devices/w0
check "devices_deferred: w0 no longer listed" \
	sh -c "! grep -q '^w0	' '$DMC_DIR/devices_deferred'"

run "device add with attributes, under a parent" "device add a1 parent=/devices/apple attr=color=red attr=size=10"
check "a1 under apple" test -d "$D/apple/a1"
check "attribute reads its value" test "$(cat "$D/apple/a1/color")" = red
echo blue >"$D/apple/a1/color"
check "attribute takes a new value" test "$(cat "$D/apple/a1/size")$(cat "$D/apple/a1/color")" = 10blue
if (long 300 >"$D/apple/a1/color") 2>/dev/null; then
	notok "attribute refuses 300 bytes"
else
	ok "attribute refuses 300 bytes"
fi
check "attribute kept its value" test "$(cat "$D/apple/a1/color")" = blue

run "class device" "device add k1 class=cls1"
check "class device under devices/virtual/cls1" test -d "$D/virtual/cls1/k1"

# device_links: supplier, consumer, state, flags (the tree's devlink view)
L=$DMC_DIR/device_links
run "link add" "link add /devices/apple /devices/berry"
check "device_links: apple -> berry managed, available (berry has no driver)" \
	grep -qx "apple	berry	available	managed" "$L"
# ... and as Linux's /sys/class/devlink: a device per link (devlink.c)
DL=$DMC_DIR/class/devlink
AB="b1:apple--b1:berry"
check "devlink: class/devlink/$AB" test -d "$DL/$AB"
check "devlink: its directory in devices/virtual/devlink" test -d "$D/virtual/devlink/$AB"
check "devlink: ls class/devlink lists it" sh -c "ls '$DL' | grep -qx '$AB'"
check "devlink: status available" grep -qx available "$DL/$AB/status"
check "devlink: auto_remove_on never" grep -qx never "$DL/$AB/auto_remove_on"
check "devlink: runtime_pm 0" grep -qx 0 "$DL/$AB/runtime_pm"
check "devlink: sync_state_only 0" grep -qx 0 "$DL/$AB/sync_state_only"
check "devlink: supplier -> apple" test "$(readlink -f "$DL/$AB/supplier")" = "$(readlink -f "$D/apple")"
check "devlink: consumer -> berry" test "$(readlink -f "$DL/$AB/consumer")" = "$(readlink -f "$D/berry")"
check "devlink: apple/consumer:b1:berry -> the link" \
	test "$(readlink -f "$D/apple/consumer:b1:berry")" = "$(readlink -f "$D/virtual/devlink/$AB")"
check "devlink: berry/supplier:b1:apple -> the link" test -d "$D/berry/supplier:b1:apple"
run "link add again: the link, as Linux (no EEXIST)" "link add /devices/apple /devices/berry"
check "device_links: still one apple -> berry line" test "$(grep -c "^apple	berry	" "$L")" = 1
run "link del" "link del /devices/apple devices/berry"
check "device_links: apple -> berry gone" sh -c "! grep -q '^apple	berry	' '$L'"
check "devlink: the link's device gone" test ! -e "$DL/$AB" -a ! -e "$D/virtual/devlink/$AB"
check "devlink: its symlinks gone" test ! -e "$D/apple/consumer:b1:berry" -a ! -e "$D/berry/supplier:b1:apple"
expect "$ENOENT" "link del again" "link del /devices/apple /devices/berry"
run "link add stateless" "link add /devices/apple /devices/berry flags=stateless"
run "link add stateless again" "link add /devices/apple /devices/berry flags=stateless"
check "device_links: stateless, no state, two references" \
	grep -qx "apple	berry	none	stateless	refs=2" "$L"
run "link del: one reference" "link del /devices/apple /devices/berry"
check "device_links: one reference left" grep -qx "apple	berry	none	stateless" "$L"
run "link del: the last" "link del /devices/apple /devices/berry"
check "device_links: stateless link gone" sh -c "! grep -q '^apple	berry	' '$L'"
run "link add pm-runtime,rpm-active" "link add /devices/apple /devices/berry flags=pm-runtime,rpm-active"
check "device_links: runtime-PM flags stored" grep -qx "apple	berry	available	pm-runtime,rpm-active,managed" "$L"
run "link del pm-runtime link" "link del /devices/apple /devices/berry"
# x0 (driver dx) supplies w0 (driver dw): both bound.
X=$DMC_DIR/bus/b1/drivers
run "link add autoremove-consumer" "link add /devices/x0 /devices/w0 flags=autoremove-consumer"
check "device_links: x0 -> w0 active" grep -qx "x0	w0	active	autoremove-consumer,managed" "$L"
check "devlink: x0 -> w0 active, consumer unbind" \
	sh -c "grep -qx active '$DL/b1:x0--b1:w0/status' && grep -qx 'consumer unbind' '$DL/b1:x0--b1:w0/auto_remove_on'"
echo w0 >"$X/dw/unbind" 2>/dev/null
check "autoremove-consumer: w0's unbind took the link" sh -c "! grep -q '^x0	w0	' '$L'"
# The symlinks go with the unlink; the device with the worker that frees the link.
check "devlink: autoremove took the symlinks" test ! -e "$D/x0/consumer:b1:w0"
check "devlink: autoremove took the link's device (a worker's, soon)" \
	sh -c "for i in 1 2 3 4 5 6 7 8 9 10; do test ! -e '$DL/b1:x0--b1:w0' && exit 0; sleep 0.3; done; exit 1"
echo w0 >"$X/dw/bind" 2>/dev/null
check "w0 bound again" bound /devices/w0
run "link add autoremove-supplier" "link add /devices/x0 /devices/w0 flags=autoremove-supplier"
echo w0 >"$X/dw/unbind" 2>/dev/null
check "autoremove-supplier: w0's unbind keeps the link, available" \
	grep -qx "x0	w0	available	autoremove-supplier,managed" "$L"
echo w0 >"$X/dw/bind" 2>/dev/null
echo x0 >"$X/dx/unbind" 2>/dev/null
if bound /devices/w0; then notok "x0's unbind unbound w0 first"; else ok "x0's unbind unbound w0 first"; fi
check "autoremove-supplier: x0's unbind took the link" sh -c "! grep -q '^x0	w0	' '$L'"
run "link add autoprobe-consumer" "link add /devices/x0 /devices/w0 flags=autoprobe-consumer"
check "device_links: x0 -> w0 dormant" grep -qx "x0	w0	dormant	autoprobe-consumer,managed" "$L"
echo x0 >"$X/dx/bind" 2>/dev/null
sleep 1
check "autoprobe-consumer: w0 probed once x0 bound" bound /devices/w0
check "device_links: x0 -> w0 active again" grep -qx "x0	w0	active	autoprobe-consumer,managed" "$L"
check "state_synced file: 0 for x0 (no sync_state)" grep -qx 0 "$D/x0/state_synced"
run "link del autoprobe link" "link del /devices/x0 /devices/w0"
expect "$EINVAL" "sync-state-only link to a consumer that probed" "link add /devices/x0 /devices/w0 flags=sync-state-only"
# A link's device name past 255 bytes: refused, nothing left.
LA=$(printf 'l%.0s' $(seq 1 150)) LB=$(printf 'm%.0s' $(seq 1 150))
run "device add, a 150-byte name" "device add $LA"
run "device add, another" "device add $LB"
expect "$ENAMETOOLONG" "link add whose device name would pass 255 bytes" "link add /devices/$LA /devices/$LB"
check "devlink: nothing left of the refused link" sh -c "! ls '$DL' | grep -q '$LA'"
run "device del, the long name" "device del /devices/$LA"
run "device del, the other" "device del /devices/$LB"

run "driver add with suspend=ok" "driver add dp bus=b1 match=p*"
run "device add p0" "device add p0 bus=b1"
run "system suspend" "suspend"
check "p0 suspended" grep -qx suspended "$D/p0/power/state"
run "system resume" "resume"
check "p0 on again" grep -qx on "$D/p0/power/state"

run "device del of a parent" "device del /devices/apple"
check "apple and its child a1 gone" test ! -e "$D/apple"
run "a child's name is free once the core deleted it" "device add a1 bus=b1"
run "device del" "device del devices/berry"
check "berry gone" test ! -e "$D/berry"
run "driver del unbinds" "driver del dw"
if bound /devices/w0; then notok "w0 unbound by driver del"; else ok "w0 unbound by driver del"; fi

# Two writers at once: every command of each succeeds.
(
	CMDF=$T/cmd.a
	for i in 1 2 3 4 5 6 7 8 9 10; do
		ctl "device add ra$i bus=b1"
		ctl "device del /devices/ra$i"
	done
) >$T/ra &
(
	CMDF=$T/cmd.b
	for i in 1 2 3 4 5 6 7 8 9 10; do
		ctl "device add rb$i class=cls1"
		ctl "device del /devices/virtual/cls1/rb$i"
	done
) >$T/rb
wait
check "two concurrent writers: all 40 commands succeed" test "$(cat $T/ra $T/rb | grep -c '^OK$')" = 40

# A probe that sleeps does not hold control's lock: another command runs
# meanwhile, and one on the object being added gets EBUSY, not a wait.
must "bus add sb"
must "driver add sd bus=sb match=slow* delay_ms=3000"
(CMDF=$T/cmd.s ctl "device add slow0 bus=sb") >$T/slow &
slow=$!
sleep 0.5
t1=$(_dmc_uptime_cs)
r=$(CMDF=$T/cmd.q ctl "bus add qb")
t2=$(_dmc_uptime_cs)
busy=0
kill -0 $slow 2>/dev/null && busy=1
check "a command runs while another's probe sleeps (${r}, $((t2 - t1))0 ms)" \
	test "$r" = OK -a $busy = 1 -a $((t2 - t1)) -lt 150
wait $slow
check "the slow device add succeeds" test "$(cat $T/slow)" = OK

# A device deleted by another command while its own add still probes: the
# delete waits for the probe, then takes the device; the add returns after
# that and must not touch the device it no longer owns (KASAN sees it).
must "driver add sg bus=sb match=gone* delay_ms=2000"
(CMDF=$T/cmd.s ctl "device add gone0 bus=sb") >$T/slow &
slow=$!
sleep 0.5
r=$(CMDF=$T/cmd.q ctl "device del /devices/gone0")
wait $slow
check "device del while the device's add probes: both succeed (add $(cat $T/slow), del $r)" \
	test "$(cat $T/slow)" = OK -a "$r" = OK
check "device del while the device's add probes: the device is gone" test ! -e $D/gone0
must "driver del sg"
must "device add slow1 bus=qb"
(CMDF=$T/cmd.s ctl "driver add sd2 bus=qb match=slow* delay_ms=3000") >$T/slow &
slow=$!
sleep 0.5
r=$(CMDF=$T/cmd.q ctl "driver del sd2")
check "driver del of a driver being added: EBUSY at once ($r)" \
	test "$r" = "$EBUSY" -a "$(kill -0 $slow 2>/dev/null && echo on)" = on
r=$(CMDF=$T/cmd.q ctl "bus del qb")
check "bus del of its bus meanwhile: EBUSY ($r)" test "$r" = "$EBUSY"
wait $slow
check "the slow driver add succeeds" test "$(cat $T/slow)" = OK
for d in /devices/slow0 /devices/slow1; do must "device del $d"; done
for d in sd sd2; do must "driver del $d"; done
for b in sb qb; do must "bus del $b"; done

expect "$EBUSY" "bus del while a control device is on it" "bus del b1"
run "device del" "device del /devices/a1"
for d in x0 w0 fig p0; do must "device del /devices/$d"; done
for d in da dfail dx dp; do must "driver del $d"; done
run "bus del" "bus del b1"
check "bus b1 gone" test ! -e "$DMC_DIR/bus/b1"

# ---- driver_override and online/offline (issue 15) ---------------------------
EOPNOTSUPP="Operation not supported"
# drvof PATH -- the name of the driver PATH's "driver" link points to, or "-".
drvof() { l=$(readlink "$D/$1/driver" 2>/dev/null) && basename "$l" || echo -; }
must "bus add ovb hotplug"
must "bus add ovn"
must "driver add ova bus=ovb match=ov*"
must "driver add ovz bus=ovb match=none"
must "device add ov0 bus=ovb"
must "device add ovn0 bus=ovn"
check "ov0 bound by the bus's match ($(drvof ov0))" test "$(drvof ov0)" = ova
check "driver_override reads (null) when unset" test "$(cat $D/ov0/driver_override)" = "(null)"
expect "$EINVAL" "device override without a driver" "device override /devices/ov0"
expect "$EINVAL" "device override with an extra argument" "device override /devices/ov0 ovz x"
expect "$EINVAL" "device override with a bad driver name" "device override /devices/ov0 a/b"
expect "$ENAMETOOLONG" "device override with a driver name of 256 bytes" "device override /devices/ov0 $(long 256)"
expect "$ENOENT" "device override of an unknown device" "device override /devices/nosuch ovz"
check "refused overrides changed nothing" test "$(cat $D/ov0/driver_override)" = "(null)"
run "device override" "device override /devices/ov0 ovz"
check "driver_override reads the driver" test "$(cat $D/ov0/driver_override)" = ovz
check "an override does not unbind" test "$(drvof ov0)" = ova
echo ov0 >"$DMC_DIR/bus/ovb/drivers/ova/unbind"
echo ov0 >"$DMC_DIR/bus/ovb/drivers_probe"
check "reprobed: only the named driver binds, whatever the bus's match ($(drvof ov0))" test "$(drvof ov0)" = ovz
run "device override - clears" "device override /devices/ov0 -"
check "cleared override reads (null)" test "$(cat $D/ov0/driver_override)" = "(null)"
echo ova >"$D/ov0/driver_override"
check "driver_override file: written" test "$(cat $D/ov0/driver_override)" = ova
if long 4095 >"$D/ov0/driver_override" 2>/dev/null; then
	notok "driver_override of 4095 bytes refused"
else
	check "driver_override of 4095 bytes refused, the old one kept" test "$(cat $D/ov0/driver_override)" = ova
fi
printf '\n' >"$D/ov0/driver_override"
check "driver_override file: a newline clears" test "$(cat $D/ov0/driver_override)" = "(null)"
expect "$EEXIST" "attr= named driver_override" "device add ovq attr=driver_override=x"
expect "$EEXIST" "attr= named online" "device add ovq attr=online=1"

check "online file on a hotplug bus reads 1" test "$(cat $D/ov0/online)" = 1
check "no online file on a bus without online/offline" test ! -e "$D/ovn0/online"
expect "$EOPNOTSUPP" "device offline on a bus without online/offline" "device offline /devices/ovn0"
expect "$EINVAL" "device offline with an extra argument" "device offline /devices/ov0 x"
expect "$EINVAL" "device online without a path" "device online"
expect "$ENOENT" "device offline of an unknown device" "device offline /devices/nosuch"
must "device add ov1 bus=ovb parent=/devices/ov0"
expect "$EBUSY" "device offline with an online child" "device offline /devices/ov0"
check "refused offline changed nothing" test "$(cat $D/ov0/online)" = 1
run "device offline of the child" "device offline /devices/ov0/ov1"
run "device offline" "device offline /devices/ov0"
check "online file reads 0 when offline" test "$(cat $D/ov0/online)" = 0
check "an offline event was sent" sh -c "timeout 2 cat $EV | grep -q 'ACTION=offline DEVPATH=/devices/ov0 '"
run "device offline twice is no error" "device offline /devices/ov0"
run "device online" "device online /devices/ov0"
check "online file reads 1 again" test "$(cat $D/ov0/online)" = 1
check "an online event was sent" sh -c "timeout 2 cat $EV | grep -q 'ACTION=online DEVPATH=/devices/ov0 '"
echo 0 >"$D/ov0/ov1/online"
check "online file: writing 0 takes it offline" test "$(cat $D/ov0/ov1/online)" = 0
if echo maybe >"$D/ov0/ov1/online" 2>/dev/null; then notok "online file refuses 'maybe'"; else ok "online file refuses 'maybe'"; fi
echo 1 >"$D/ov0/ov1/online"
check "online file: writing 1 brings it back" test "$(cat $D/ov0/ov1/online)" = 1
# The deferred-probe timeout, started again by writing its parameter.
P=/sys/module/dmcore/parameters/deferred_probe_timeout
must "driver add ovw bus=ovn match=ovw* probe=defer:nothere"
must "device add ovw0 bus=ovn"
if echo 5000 >$P 2>/dev/null; then notok "deferred_probe_timeout 5000 refused"; else ok "deferred_probe_timeout 5000 refused"; fi
echo 1 >$P
sleep 3
check "deferred probe timeout: one line for the deferred device" \
	sh -c "dmesg | grep -q 'dmcore: ovw0: deferred probe pending: .*(waits for nothere)'"
echo 10 >$P
for d in /devices/ov0 /devices/ovn0 /devices/ovw0; do must "device del $d"; done
for d in ova ovz ovw; do must "driver del $d"; done
for b in ovb ovn; do must "bus del $b"; done

# ---- unload with control objects alive: no leak ----------------------------------
must "bus add lb"
must "driver add ld bus=lb"
must "device add l0 bus=lb attr=k=v"
must "device add l1 parent=/devices/l0"
must "link add /devices/c0 /devices/l0"
if dmc_rmmod; then ok "rmmod dmcore with control objects alive"; else notok "rmmod dmcore with control objects alive"; fi
check "dmcore unloaded without a leak" sh -c "dmesg | grep -q 'dmcore: unloaded, 0 objects leaked'"
tap_end
