#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: the filesystem "dmcore" (dmcfs.c, issue 13), mounted
# with "mount -t dmcore" beside its automount at /sys/kernel/debug/dmcore
# (one superblock, two mounts). The same tree in both: every directory,
# file and link (links resolved to the same relative targets), every
# readable attribute with the same contents;
# a directory listed only when someone looks; objects removed and added
# while it is mounted; a file held open across its object's removal
# (its snapshot, once read, stays; a new open fails); writes: uevent,
# bind and unbind, power/state, refused input, the root's control,
# events and stats; poll() woken by a notify and by a removal (the
# dmc-poll tool); rmmod refused while mounted. Output is TAP ("ok N - what"), then "1..N"; exit 0 only if all
# passed. vm.sh has loaded dmcore.ko already.
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

n=0
failed=0
C=$DMC_DIR/control
M=/tmp/dmcfs
T=/tmp/dmcfs-test
mkdir -p $M $T

ctl() { printf '%s\n' "$1" >"$C"; }
must() { ctl "$1" || notok "set-up: $1"; }

# walk DIR PREFIX -- one line per entry below DIR: "d PATH", "f PATH" or
# "l PATH TARGET", PATH relative to the top; hidden entries skipped.
walk() {
	local e p
	for e in "$1"/*; do
		[ -e "$e" ] || [ -L "$e" ] || continue
		p=$2/${e##*/}
		if [ -L "$e" ]; then
			echo "l $p $(readlink "$e")"
		elif [ -d "$e" ]; then
			echo "d $p"
			walk "$e" "$p"
		else
			echo "f $p"
		fi
	done
}

# listing DIR -- walk DIR, sorted
listing() {
	walk "$1" "" | sort
}

must "bus add fb"
must "class add fc"
must "driver add fd bus=fb match=fx*"
must "device add fx0 bus=fb attr=color=red attr=size=3"
must "device add fc0 parent=/devices/fx0 class=fc"
must "device add fv0 class=fc"
must "device add fy0 bus=fb"

if mount -t dmcore none $M 2>$T/err; then
	ok "mount -t dmcore"
else
	notok "mount -t dmcore: $(cat $T/err)"
	tap_end
	exit 1
fi

listing "$DMC_DIR" >$T/mirror
listing $M >$T/fs
if cmp -s $T/mirror $T/fs; then
	ok "the same tree as the automount ($(wc -l <$T/fs) entries)"
else
	notok "the tree differs from the automount"
	diff $T/mirror $T/fs | head -n 40 | sed 's/^/# /'
fi

# Every readable attribute reads the same in both (the root's files are
# the same code: tree_files.c; events blocks).
grep '^f /[^/]*/' $T/fs | while read -r _ p; do
	if [ "$(stat -c %a "$DMC_DIR$p")" != "$(stat -c %a "$M$p")" ]; then
		echo "$p: mode $(stat -c %a "$DMC_DIR$p") in the automount, $(stat -c %a "$M$p") here"
	fi
	[ "$(stat -c %a "$M$p")" = 200 ] && continue
	a=$(timeout 2 cat "$DMC_DIR$p" 2>/dev/null; echo "status $?")
	b=$(timeout 2 cat "$M$p" 2>/dev/null; echo "status $?")
	if [ "$a" != "$b" ]; then
		echo "$p: automount '$a', mount '$b'"
	fi
done >$T/attrdiff
nread=$(grep -c '^f /[^/]*/' $T/fs)
if [ ! -s $T/attrdiff ]; then
	ok "every readable attribute reads the same ($nread files)"
else
	notok "attributes differ: $(wc -l <$T/attrdiff)"
	head -n 20 $T/attrdiff | sed 's/^/# /'
fi

# Links resolve to the same directories.
if [ "$(readlink $M/devices/fx0/driver)" = "../../bus/fb/drivers/fd" ] &&
	[ -d $M/devices/fx0/driver/ ] &&
	[ "$(cd $M/devices/fx0/subsystem && pwd -P)" = "$M/bus/fb" ]; then
	ok "links resolve: fx0/driver, fx0/subsystem"
else
	notok "links: driver -> '$(readlink $M/devices/fx0/driver)'"
fi

# The model changes while mounted: the tree follows at once.
must "device add fx1 bus=fb"
if [ -d $M/devices/fx1 ] && [ -L $M/bus/fb/drivers/fd/fx1 ] &&
	[ -L $M/bus/fb/devices/fx1 ]; then
	ok "a device added while mounted appears with its links"
else
	notok "fx1 not seen under $M/devices"
fi
exec 3<$M/devices/fx1/uevent
exec 4<$M/devices/fx1/uevent
v1=$(cat <&3)
must "device del /devices/fx1"
if [ ! -e $M/devices/fx1 ] && [ ! -e $M/bus/fb/devices/fx1 ]; then
	ok "a device deleted while mounted disappears"
else
	notok "fx1 still there after its deletion"
fi
v2=$(cat <&3 2>&1)
exec 3<&-
if [ -n "$v1" ] && [ -z "$v2" ]; then
	ok "a file held open across its object's removal: read before, end of file after"
else
	notok "held-open file: before '$v1', after '$v2'"
fi
if v3=$(cat <&4 2>&1); then
	notok "a file opened before its object's removal and read after gave '$v3'"
else
	ok "a file opened before its object's removal and read after fails: $v3"
fi
exec 4<&-
if timeout 2 cat $M/devices/fx1/uevent >/dev/null 2>&1; then
	notok "a removed object's file still opens"
else
	ok "a removed object's file no longer opens"
fi

# Writes: each write() is one store() of the object, as in sysfs.
if printf 'change\n' >$M/devices/fx0/uevent &&
	timeout 2 cat $M/events >$T/events 2>/dev/null; [ -s $T/events ] &&
	grep -q 'ACTION=change DEVPATH=/devices/fx0 ' $T/events; then
	ok "uevent written through the tree; the event read from its events file"
else
	notok "uevent write or events: $(tail -n 3 $T/events 2>/dev/null)"
fi
if printf 'fx0' >$M/bus/fb/drivers/fd/unbind && [ ! -e $M/devices/fx0/driver ] &&
	printf 'fx0' >$M/bus/fb/drivers/fd/bind &&
	[ "$(readlink $M/devices/fx0/driver)" = "../../bus/fb/drivers/fd" ]; then
	ok "unbind and bind written through the tree"
else
	notok "unbind/bind through the tree: driver -> '$(readlink $M/devices/fx0/driver)'"
fi
# dd, not the shell's printf, to see write()'s errno
if printf 'nosuch' | dd of=$M/bus/fb/drivers/fd/bind conv=notrunc 2>$T/err; then
	notok "bind of a device that does not exist was accepted"
elif grep -q 'No such device' $T/err; then
	ok "bind of a device that does not exist: $(cat $T/err | sed 's/.*: //')"
else
	notok "bind of nosuch: '$(cat $T/err)'"
fi
if printf 'x' 2>/dev/null >$M/devices/fx0/power/state; then
	notok "power/state accepted 'x'"
elif [ "$(cat $M/devices/fx0/power/state)" = on ]; then
	ok "power/state refuses 'x' and stays on"
else
	notok "power/state after 'x': $(cat $M/devices/fx0/power/state)"
fi
if printf 'x' 2>/dev/null >$M/stats || printf 'x' 2>/dev/null >$M/events; then
	notok "a write into a read-only file (stats, events) was accepted"
else
	ok "read-only files (stats, events) refuse writes at open"
fi
if timeout 2 cat $M/bus/fb/drivers/fd/bind >/dev/null 2>&1; then
	notok "a write-only file (bind) was readable"
else
	ok "a write-only file (bind) refuses reads"
fi

# The root's files: control, stats, events (tree_files.c).
if printf 'device add fz0 bus=fb\n' >$M/control && [ -d $M/devices/fz0 ] &&
	[ -d "$DMC_DIR/devices/fz0" ]; then
	ok "a control command written through the tree"
else
	notok "control through the tree: fz0 not made"
fi
if printf 'device frob\n' 2>/dev/null >$M/control; then
	notok "control accepted a bad command"
else
	ok "control refuses a bad command"
fi
if grep -q '^objects_live [0-9]' $M/stats; then
	ok "stats reads: $(grep '^objects_live' $M/stats)"
else
	notok "stats: '$(head -n 2 $M/stats)'"
fi

# poll(): a notify (a power state change) wakes a poller of power/state,
# which reads the new value from position 0; nothing wakes a poller of
# an unchanged file; a removal wakes with POLLERR.
P=/dmc/files/dmc-poll
if [ ! -x $P ]; then
	notok "dmc-poll is in the guest (scripts/build-guest-tools.sh; vm.sh --add)"
else
	$P $M/devices/fy0/power/state 10000 >$T/poll1 2>&1 &
	pid=$!
	sleep 0.5
	printf 'suspend' >$M/devices/fy0/power/state ||
		notok "set-up: suspend fy0 through the tree"
	wait $pid
	if grep -q '^before: on$' $T/poll1 && grep -q '^woke: pri|err$' $T/poll1 &&
		grep -q '^after: suspended$' $T/poll1; then
		ok "a poller of power/state woken by the change reads the new value"
	else
		notok "poll of power/state: $(tr '\n' ' ' <$T/poll1)"
	fi
	printf 'resume' >$M/devices/fy0/power/state
	if $P $M/devices/fy0/power/state 300 >$T/poll2 2>&1; then
		notok "a poller woke with no change: $(tr '\n' ' ' <$T/poll2)"
	elif grep -q '^timeout$' $T/poll2; then
		ok "no change, no wake-up (300 ms)"
	else
		notok "poll without change: $(tr '\n' ' ' <$T/poll2)"
	fi
	$P $M/devices/fz0/uevent 10000 >$T/poll3 2>&1 &
	pid=$!
	sleep 0.5
	must "device del /devices/fz0"
	wait $pid
	if grep -q '^woke: .*err' $T/poll3 && grep -q '^after: error No such device' $T/poll3; then
		ok "a removal wakes a poller with POLLERR; its read gives ENODEV"
	else
		notok "poll across removal: $(tr '\n' ' ' <$T/poll3)"
	fi
fi

if chmod 666 $M/devices/fx0/uevent 2>/dev/null; then
	notok "chmod of an attribute was accepted"
else
	ok "modes are the model's: chmod refused"
fi

if rmmod dmcore 2>/dev/null; then
	notok "rmmod dmcore succeeded while the tree was mounted"
	tap_end
	exit 1
fi
ok "rmmod refused while mounted"
if umount $M; then ok "umount"; else notok "umount"; fi

must "device del /devices/virtual/fc/fv0"
must "device del /devices/fx0"
must "device del /devices/fy0"
must "driver del fd"
must "class del fc"
must "bus del fb"
tap_end
