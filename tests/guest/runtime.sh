#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: runtime PM (runtime.c) through control's "runtime" verbs
# and a device's power/ files: runtime_status, control, runtime_usage,
# runtime_active_kids, runtime_enabled, autosuspend_delay_ms. Refused
# input (a put below zero, an unknown device, a bad delay, a bad control
# word) fails with its errno and changes nothing. Then a system suspend
# with a runtime-suspended device, a deletion with an autosuspend pending,
# and an unload without a leak.
# Output is TAP ("ok N - what"), then "1..N"; exit 0 only if all passed.
# vm.sh has loaded dmcore.ko already.
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

C=$DMC_DIR/control
D=$DMC_DIR/devices
T=/tmp/runtime-test
mkdir -p $T

# ctl COMMAND -- send COMMAND and a newline in one write(); prints OK or
# the error text, e.g. "Invalid argument".
ctl() {
	printf '%s\n' "$1" >$T/cmd
	if o=$(dd if=$T/cmd of="$C" bs=65536 count=1 conv=notrunc 2>&1); then
		echo OK
	else
		printf '%s\n' "$o" | sed -n 's/^dd: error writing.*: //p'
	fi
}
expect() {
	r=$(ctl "$3")
	if [ "$r" = "$1" ]; then ok "$2: $1"; else notok "$2: want '$1', got '$r' for: $3"; fi
}
run() {
	r=$(ctl "$2")
	if [ "$r" = OK ]; then ok "$1"; else notok "$1: got '$r' for: $2"; fi
}
must() {
	r=$(ctl "$1")
	[ "$r" = OK ] || notok "set-up: got '$r' for: $1"
}
# is DESCRIPTION FILE WANT -- FILE reads WANT
is() {
	v=$(cat "$2" 2>&1)
	if [ "$v" = "$3" ]; then ok "$1: $3"; else notok "$1: want '$3', got '$v'"; fi
}
# becomes DESCRIPTION FILE WANT -- FILE reads WANT within 10 s
becomes() {
	i=0
	while [ "$(cat "$2" 2>/dev/null)" != "$3" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	is "$1" "$2" "$3"
}
# write_err FILE VALUE -- write VALUE to FILE; prints OK or the error text
write_err() {
	printf '%s\n' "$2" >$T/val
	if o=$(dd if=$T/val of="$1" bs=4096 count=1 conv=notrunc 2>&1); then
		echo OK
	else
		printf '%s\n' "$o" | sed -n 's/^dd: error writing.*: //p'
	fi
}

EINVAL="Invalid argument"
ENOENT="No such file or directory"
EPERM="Operation not permitted"
EACCES="Permission denied"
EIO="Input/output error"

if [ ! -w "$C" ]; then
	notok "control file exists"
	tap_end
	exit 1
fi

must "bus add rb"
must "driver add rd bus=rb"
must "device add r0 bus=rb"
must "device add r1 bus=rb parent=/devices/r0"
P0=$D/r0/power
P1=$D/r0/r1/power

# ---- as added: suspended, disabled, allowed -------------------------------
is "new device runtime_status" $P0/runtime_status unsupported
is "new device runtime_enabled" $P0/runtime_enabled disabled
is "new device control" $P0/control auto
is "new device runtime_usage" $P0/runtime_usage 0
is "new device runtime_active_kids" $P0/runtime_active_kids 0
check "autosuspend_delay_ms unreadable without autosuspend" sh -c "! cat $P0/autosuspend_delay_ms"
expect "$EACCES" "get-sync while disabled" "runtime get-sync /devices/r0"
is "refused get keeps no reference" $P0/runtime_usage 0

# ---- enable, get, put -------------------------------------------------------
run "enable r0" "runtime enable /devices/r0"
run "enable r1" "runtime enable /devices/r0/r1"
is "enabled device runtime_status" $P0/runtime_status suspended
is "enabled device runtime_enabled" $P0/runtime_enabled enabled
expect "$EINVAL" "enable twice" "runtime enable /devices/r0"
run "get-sync of the child" "runtime get-sync /devices/r0/r1"
is "child active" $P1/runtime_status active
is "parent resumed first and kept active" $P0/runtime_status active
is "parent counts an active child" $P0/runtime_active_kids 1
is "child usage" $P1/runtime_usage 1
run "put-sync of the child" "runtime put-sync /devices/r0/r1"
is "child suspended" $P1/runtime_status suspended
becomes "parent idles after its child" $P0/runtime_status suspended
is "parent counts no active child" $P0/runtime_active_kids 0

# ---- refused input: errno, nothing changed ----------------------------------
expect "$EINVAL" "put below zero (usage count underflow)" "runtime put-sync /devices/r0/r1"
expect "$EINVAL" "async put below zero" "runtime put /devices/r0/r1"
expect "$EINVAL" "put-autosuspend below zero" "runtime put-autosuspend /devices/r0/r1"
is "usage still 0" $P1/runtime_usage 0
expect "$ENOENT" "unknown device" "runtime get /devices/nope"
expect "$EINVAL" "unknown runtime action" "runtime frob /devices/r0"
expect "$EINVAL" "missing path" "runtime get"
expect "$EINVAL" "extra argument" "runtime get /devices/r0 /devices/r0/r1"
expect "$EINVAL" "autosuspend without delay_ms" "runtime autosuspend /devices/r0"
expect "$EINVAL" "autosuspend bad ms" "runtime autosuspend /devices/r0 delay_ms=x"
expect "$EINVAL" "autosuspend ms out of range" "runtime autosuspend /devices/r0 delay_ms=10001"
expect "$EINVAL" "autosuspend negative ms" "runtime autosuspend /devices/r0 delay_ms=-5"
check "autosuspend refused: still not in use" sh -c "! cat $P0/autosuspend_delay_ms"
r=$(write_err $P0/control bogus)
if [ "$r" = "$EINVAL" ]; then ok "power/control bogus: $EINVAL"; else notok "power/control bogus: got '$r'"; fi
is "control unchanged" $P0/control auto
is "status unchanged" $P0/runtime_status suspended
if [ -d /sys/kernel/debug/dmcore/devices/sample-root ] || insmod "$DMC_MODDIR/dmc_sample_bus.ko" 2>/dev/null; then
	expect "$EPERM" "a device control did not make" "runtime get-sync /devices/sample-root"
	rmmod dmc_sample_bus 2>/dev/null
fi

# ---- asynchronous get and put -----------------------------------------------
run "async get" "runtime get /devices/r0/r1"
becomes "async get resumes" $P1/runtime_status active
run "async put" "runtime put /devices/r0/r1"
becomes "async put suspends" $P1/runtime_status suspended

# ---- power/control: on forbids, auto allows -----------------------------------
r=$(write_err $P0/control on)
if [ "$r" = OK ]; then ok "power/control on"; else notok "power/control on: got '$r'"; fi
is "forbidden: active" $P0/runtime_status active
is "forbidden: a usage reference" $P0/runtime_usage 1
is "forbidden: runtime_enabled" $P0/runtime_enabled forbidden
is "control reads on" $P0/control on
run "forbid twice is once" "runtime forbid /devices/r0"
is "forbid twice: one reference" $P0/runtime_usage 1
r=$(write_err $P0/control auto)
if [ "$r" = OK ]; then ok "power/control auto"; else notok "power/control auto: got '$r'"; fi
becomes "allowed: suspends" $P0/runtime_status suspended
is "allowed: no reference" $P0/runtime_usage 0

# ---- autosuspend ------------------------------------------------------------------
run "autosuspend 400 ms" "runtime autosuspend /devices/r0 delay_ms=400"
is "autosuspend_delay_ms" $P0/autosuspend_delay_ms 400
r=$(write_err $P0/autosuspend_delay_ms 3000)
if [ "$r" = OK ]; then ok "autosuspend_delay_ms written"; else notok "autosuspend_delay_ms write: got '$r'"; fi
is "autosuspend_delay_ms after write" $P0/autosuspend_delay_ms 3000
r=$(write_err $P0/autosuspend_delay_ms abc)
if [ "$r" = "$EINVAL" ]; then ok "autosuspend_delay_ms abc: $EINVAL"; else notok "autosuspend_delay_ms abc: got '$r'"; fi
is "autosuspend_delay_ms unchanged" $P0/autosuspend_delay_ms 3000
run "get-sync r0" "runtime get-sync /devices/r0"
run "put-autosuspend r0" "runtime put-autosuspend /devices/r0"
is "active within the delay" $P0/runtime_status active
becomes "suspended after the delay" $P0/runtime_status suspended

# ---- disable: unsupported, nested --------------------------------------------
run "disable" "runtime disable /devices/r0"
run "disable again (nests)" "runtime disable /devices/r0"
is "disabled: unsupported" $P0/runtime_status unsupported
run "enable once" "runtime enable /devices/r0"
is "still disabled" $P0/runtime_enabled disabled
run "enable twice" "runtime enable /devices/r0"
is "enabled again" $P0/runtime_status suspended

# ---- system suspend: runtime PM off, runtime states kept ---------------------------
run "system suspend" "suspend"
is "disabled during the sleep" $P1/runtime_status unsupported
expect "$EACCES" "runtime resume during the sleep" "runtime get-sync /devices/r0/r1"
is "the sleep's own reference only (Linux's device_prepare())" $P1/runtime_usage 1
run "system resume" "resume"
is "runtime-suspended after the resume" $P1/runtime_status suspended
is "runtime PM back on" $P1/runtime_enabled enabled
is "no reference left" $P1/runtime_usage 0

# ---- a deletion with an autosuspend pending ------------------------------------------
run "autosuspend r1" "runtime autosuspend /devices/r0/r1 delay_ms=500"
run "get-sync r1" "runtime get-sync /devices/r0/r1"
run "put-autosuspend r1" "runtime put-autosuspend /devices/r0/r1"
run "delete r1 with its timer armed" "device del /devices/r0/r1"
sleep 0.7
check "r1 gone" test ! -e $D/r0/r1
becomes "parent suspended, no active child" $P0/runtime_active_kids 0

run "device del r0" "device del /devices/r0"
must "driver del rd"
must "bus del rb"
check "no WARNING or BUG" sh -c "! dmesg | grep -E 'WARNING|BUG|Unbalanced'"
if dmc_rmmod; then ok "rmmod dmcore"; else notok "rmmod dmcore"; fi
check "dmcore unloaded without a leak" sh -c "dmesg | grep -q 'dmcore: unloaded, 0 objects leaked'"
tap_end
