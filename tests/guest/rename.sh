#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: "device rename" and "device move" through the control file
# (dmc_device_rename(), dmc_device_move(), device_move.c). First refused
# commands, each with its exact errno, the model untouched (the tree's
# listing, the live object count and the event sequence number compared
# before and after); then renames and moves, with the tree at
# /sys/kernel/debug/dmcore following: the old path gone, the new one
# there, the bus's devices/, the class's and the driver's links renamed,
# the "move" events with DEVPATH_OLD; the tree's files held open across a
# rename. Ends by unloading dmcore without a leak.
# Output is TAP ("ok N - what"), then "1..N"; exit 0 only if all passed.
# vm.sh has loaded dmcore.ko already.
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

C=$DMC_DIR/control
EV=$DMC_DIR/events
ST=$DMC_DIR/stats
D=$DMC_DIR/devices
T=/tmp/rename-test
mkdir -p $T

# ctl COMMAND -- write COMMAND and a newline in one write(); prints OK or
# the error text, e.g. "File exists".
ctl() {
	printf '%s\n' "$1" >$T/cmd
	if o=$(dd if=$T/cmd of="$C" bs=65536 count=1 conv=notrunc 2>&1); then
		echo OK
	else
		printf '%s\n' "$o" | sed -n 's/^dd: error writing.*: //p'
	fi
}
# expect ERRTEXT DESCRIPTION COMMAND -- COMMAND fails with ERRTEXT.
expect() {
	r=$(ctl "$3")
	if [ "$r" = "$1" ]; then ok "$2: $1"; else notok "$2: want '$1', got '$r' for: $3"; fi
}
# run DESCRIPTION COMMAND -- COMMAND succeeds.
run() {
	r=$(ctl "$2")
	if [ "$r" = OK ]; then ok "$1"; else notok "$1: got '$r' for: $2"; fi
}
# must COMMAND -- set-up that must work.
must() {
	r=$(ctl "$1")
	[ "$r" = OK ] || notok "set-up: got '$r' for: $1"
}
# link DIR NAME -- where the symlink DIR/NAME points ("" if none).
link() { readlink "$1/$2" 2>/dev/null; }
# resolves DIR NAME WANT -- DIR/NAME is a link whose target is the directory WANT.
resolves() {
	[ -L "$1/$2" ] && [ "$(cd "$1/$2" 2>/dev/null && pwd -P)" = "$(cd "$3" && pwd -P)" ]
}
events() { timeout 2 cat "$EV" 2>/dev/null; }
# snapshot FILE -- what a refused command must leave alone.
snapshot() {
	{
		find "$DMC_DIR/devices" "$DMC_DIR/bus" "$DMC_DIR/class" | sort
		grep -v '^events' "$ST"
	} >"$1"
}

EINVAL="Invalid argument"
ENOENT="No such file or directory"
EEXIST="File exists"
EBUSY="Device or resource busy"
EPERM="Operation not permitted"
ENAMETOOLONG="File name too long"

# ---- set-up --------------------------------------------------------------------
must "bus add rb"
must "class add rc"
must "driver add rd bus=rb match=r*"
must "device add p0"
must "device add q0"
must "device add r1 bus=rb parent=/devices/p0"
must "device add r2 bus=rb parent=/devices/p0/r1"
must "device add s1 parent=/devices/p0"
must "device add r9 bus=rb parent=/devices/q0"
must "device add m1 class=rc"
must "device add m2 class=rc parent=/devices/q0"
must "device add c0 bus=rb"
must "link add /devices/p0/r1 /devices/c0"
check "r1 bound" test -L "$D/p0/r1/driver"

# ---- refused input: exact errno, nothing changes --------------------------------
dmc_heading "refused renames and moves"
snapshot $T/before
seq0=$(events | grep -c '^SEQNUM=')
long=$(printf '%0300d' 0)
expect "$EINVAL" "rename: no new name" "device rename /devices/p0/r1"
expect "$EINVAL" "rename: extra argument" "device rename /devices/p0/r1 x y"
expect "$EINVAL" "rename: a '/' in the name" "device rename /devices/p0/r1 a/b"
expect "$EINVAL" "rename: '.'" "device rename /devices/p0/r1 ."
expect "$EINVAL" "rename: '..'" "device rename /devices/p0/r1 .."
expect "$ENAMETOOLONG" "rename: 300 bytes" "device rename /devices/p0/r1 $long"
expect "$ENOENT" "rename: unknown device" "device rename /devices/nope x"
expect "$EEXIST" "rename: a sibling's name" "device rename /devices/p0/r1 s1"
expect "$EEXIST" "rename: a control device's name elsewhere" "device rename /devices/p0/r1 r9"
expect "$EEXIST" "rename: a reserved name (power)" "device rename /devices/p0/r1 power"
expect "$ENOENT" "rename: not a device (devices/virtual)" "device rename /devices/virtual x"
expect "$EINVAL" "move: no parent" "device move /devices/p0/r1"
expect "$EINVAL" "move: under itself" "device move /devices/p0/r1 /devices/p0/r1"
expect "$EINVAL" "move: under its child (a cycle)" "device move /devices/p0/r1 /devices/p0/r1/r2"
expect "$EINVAL" "move: under its consumer (a cycle through a link)" "device move /devices/p0/r1 /devices/c0"
expect "$EINVAL" "move: unknown order" "device move /devices/p0/r1 /devices/q0 order=sideways"
expect "$EINVAL" "move: unknown option" "device move /devices/p0/r1 /devices/q0 colour=red"
expect "$ENOENT" "move: unknown device" "device move /devices/nope /devices/q0"
expect "$ENOENT" "move: unknown parent" "device move /devices/p0/r1 /devices/nope"
expect "$ENOENT" "move: not a device" "device move /devices/virtual /devices/q0"
expect "$ENOENT" "move: parent not a device" "device move /devices/p0/r1 /devices/virtual"
snapshot $T/after
if cmp -s $T/before $T/after; then ok "refused commands changed nothing in the tree"; else
	notok "refused commands changed the tree"; diff $T/before $T/after | head -20; fi
seq1=$(events | grep -c '^SEQNUM=')
if [ "$seq0" = "$seq1" ]; then ok "refused commands sent no event"; else notok "refused commands sent $((seq1 - seq0)) events"; fi

# ---- rename ---------------------------------------------------------------------
dmc_heading "rename"
run "rename a bound bus device" "device rename /devices/p0/r1 r1new"
check "old directory gone" test ! -e "$D/p0/r1"
check "new directory there, child inside" test -d "$D/p0/r1new/r2"
check "bus devices/ link renamed" resolves "$DMC_DIR/bus/rb/devices" r1new "$D/p0/r1new"
check "old bus devices/ link gone" test ! -e "$DMC_DIR/bus/rb/devices/r1"
check "driver's link renamed" resolves "$DMC_DIR/bus/rb/drivers/rd" r1new "$D/p0/r1new"
check "old driver's link gone" test ! -e "$DMC_DIR/bus/rb/drivers/rd/r1"
check "child's bus link follows" resolves "$DMC_DIR/bus/rb/devices" r2 "$D/p0/r1new/r2"
check "move event with DEVPATH_OLD" sh -c "timeout 2 cat $EV | grep -A3 'ACTION=move DEVPATH=/devices/p0/r1new ' | grep -q '^DEVPATH_OLD=/devices/p0/r1$'"
check "the child's driver still resolves" resolves "$D/p0/r1new/r2" driver "$DMC_DIR/bus/rb/drivers/rd"
run "rename a class device" "device rename /devices/virtual/rc/m1 m1new"
check "class link renamed" resolves "$DMC_DIR/class/rc" m1new "$D/virtual/rc/m1new"
check "old class link gone" test ! -e "$DMC_DIR/class/rc/m1"
expect "$EEXIST" "rename: a name in the class" "device rename /devices/virtual/rc/m1new m2"
# a file held open across a rename keeps reading
exec 3<"$D/p0/r1new/uevent"
run "rename with a file held open" "device rename /devices/p0/r1new r1"
if head -c 1 <&3 >/dev/null 2>&1; then ok "open uevent still reads after the rename"; else notok "open uevent fails after the rename"; fi
exec 3<&-
check "renamed back" test -d "$D/p0/r1/r2"

# ---- move -----------------------------------------------------------------------
dmc_heading "move"
run "move a subtree to another parent" "device move /devices/p0/r1 /devices/q0"
check "old path gone" test ! -e "$D/p0/r1"
check "new path there with its child" test -d "$D/q0/r1/r2"
check "bus link follows the move" resolves "$DMC_DIR/bus/rb/devices" r1 "$D/q0/r1"
check "driver link follows the move" resolves "$DMC_DIR/bus/rb/drivers/rd" r2 "$D/q0/r1/r2"
check "move event with DEVPATH_OLD" sh -c "timeout 2 cat $EV | grep -A3 'ACTION=move DEVPATH=/devices/q0/r1 ' | grep -q '^DEVPATH_OLD=/devices/p0/r1$'"
run "move to the top level, order dev-last" "device move /devices/q0/r1 - order=dev-last"
check "at the top" test -d "$D/r1/r2"
run "move back, order none" "device move /devices/r1 /devices/p0 order=none"
run "move, order parent-before-dev" "device move /devices/p0/r1 /devices/q0 order=parent-before-dev"
run "move, order dev-after-parent" "device move /devices/q0/r1 /devices/p0 order=dev-after-parent"
run "a class device under a parent" "device move /devices/virtual/rc/m1new /devices/p0"
check "class link follows" resolves "$DMC_DIR/class/rc" m1new "$D/p0/m1new"
run "and back to devices/virtual/rc" "device move /devices/p0/m1new -"
check "back in devices/virtual/rc" test -d "$D/virtual/rc/m1new"
must "device add s2 parent=/devices/q0"
expect "$EEXIST" "rename: another control device's name" "device rename /devices/q0/s2 r9"

# ---- a suspended parent ---------------------------------------------------------
dmc_heading "power"
must "device add z0"
echo suspend >"$D/z0/power/state"
expect "$EBUSY" "move: a device on under a suspended parent" "device move /devices/q0/s2 /devices/z0"
echo suspend >"$D/q0/s2/power/state"
run "a suspended device under a suspended parent" "device move /devices/q0/s2 /devices/z0"
echo resume >"$D/z0/power/state"
echo resume >"$D/z0/s2/power/state"
run "suspend all after the moves" "suspend"
run "resume all" "resume"

# ---- deletion follows the new tree ----------------------------------------------
run "delete the old parent" "device del /devices/q0"
check "moved device kept" test -d "$D/p0/r1/r2"
run "delete the new parent" "device del /devices/p0"
check "its moved children gone" test ! -e "$D/p0"
check "bus devices/ link gone" test ! -e "$DMC_DIR/bus/rb/devices/r1"

must "device del /devices/z0"
must "device del /devices/c0"
must "device del /devices/virtual/rc/m1new"
must "driver del rd"
must "bus del rb"
must "class del rc"
if dmc_rmmod; then ok "rmmod dmcore"; else notok "rmmod dmcore"; fi
check "dmcore unloaded without a leak" sh -c "dmesg | grep -q 'dmcore: unloaded, 0 objects leaked'"
tap_end
