#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: the lifetime of dmcore's files from user space.
#
# Part 1, files held open while their objects go: each round builds a bus,
# a class, a driver and devices through control; then dmc-fuzz hold keeps
# their attribute, uevent, power/state, bind, unbind, drivers_probe and
# drivers_autoprobe files open, reading and writing them in a loop, busybox
# loops open the same paths again and again, and a reader blocks in
# events, while the objects are deleted through control and rmmod dmcore
# is tried. Checked: a file held open fails (ENODEV or EIO, never stale
# data) once its object is gone; the holders see only errnos of a failed
# attribute call (ENODEV EIO ENOENT EINVAL EBUSY EEXIST EPERM E2BIG ENXIO,
# and EAGAIN from a bind whose probe defers; never ERESTART*,
# EPROBE_DEFER, EFAULT or ENOMEM) and no call takes 10 s;
# rmmod is refused (EAGAIN or EBUSY) while files are open and never hangs;
# nothing is left in the tree.
#
# Part 2, load/unload cycles (LIFETIME_CYCLES, default 40): load dmcore,
# build objects through control (bound devices, a class device, a child,
# a link, an attribute) and leave them, start a reader blocked in events;
# rmmod must be refused while it is blocked there (the open file holds
# the module: debugfs takes a module reference for each open file of a
# module's fops) and must not hang; once the reader is killed, rmmod
# succeeds, dmcore tears the objects down and logs "dmcore: unloaded, 0
# objects leaked".
#
# LIFETIME_ROUNDS (default 6) sets part 1's rounds. check.sh adds dmc-fuzz
# to the guest; by hand:
#   scripts/vm.sh --kernel debug --script tests/guest/lifetime.sh \
#       --add "$(scripts/build-guest-tools.sh)/dmc-fuzz"
# Measured (debug kernel, TCG, 2-core host shared with other guests): part
# 1 (6 rounds) about 2 guest minutes; a load/unload cycle 4.4 s of guest
# time, 10 to 30 s of host time on the loaded host; hence the timeout:
# dmc-vm: --timeout 1500
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

F=$DMC_FILES/dmc-fuzz
C=$DMC_DIR/control
D=$DMC_DIR
T=/tmp/lifetime
mkdir -p $T
rounds=${LIFETIME_ROUNDS:-6}
cycles=${LIFETIME_CYCLES:-40}
# EAGAIN: a bind of l*b, the consumer of l*a's link, while l*a is unbound
# on its way out (its deletion unbinds it before the link goes): the probe
# defers, and bind answers EAGAIN, as Linux's bind_store() does.
ALLOWED=ENODEV,EIO,ENOENT,EINVAL,EBUSY,EEXIST,EPERM,E2BIG,ENXIO,EAGAIN

if [ ! -x "$F" ]; then
	notok "dmc-fuzz is in the guest (build it with scripts/build-guest-tools.sh; vm.sh --add)"
	tap_end
	exit 1
fi

# ctl COMMAND -- one write to control; prints nothing, returns its status.
ctl() { printf '%s\n' "$1" >"$C" 2>>$T/ctl.err; }
# must COMMAND -- a set-up step; its failure is remembered in $setup_bad.
must() { ctl "$1" || { setup_bad="$setup_bad [$1]"; }; }

# try_rmmod -- rmmod dmcore with a bound in time: prints the reason it
# failed ("busy"), "hang" if it did not return in 20 s, "unloaded" if it
# worked.
try_rmmod() {
	umount "$DMC_DIR" 2>/dev/null
	timeout 20 rmmod dmcore >$T/rmmod.out 2>&1
	st=$?
	# An automount the expiry worker took down is freed a tick later.
	case $st in 0|124|143) ;; *)
		sleep 0.3
		timeout 20 rmmod dmcore >$T/rmmod.out 2>&1
		st=$? ;;
	esac
	case $st in
	0) echo unloaded ;;
	124|143) echo hang ;;
	*) if grep -q -E 'temporarily unavailable|resource busy' $T/rmmod.out; then
		echo busy
	   else
		echo "other: $(cat $T/rmmod.out)"
	   fi ;;
	esac
}

# ---- part 1: files held open while their objects are deleted ----------------
model() {
	must "bus add lb$1"
	must "class add lc$1"
	must "driver add ld$1 bus=lb$1 match=l$1*"
	must "device add l${1}a bus=lb$1 class=lc$1 attr=a0=v attr=a1=w"
	must "device add l${1}b bus=lb$1"
	must "device add l${1}c parent=/devices/l${1}a attr=k=1"
	must "device add l${1}d class=lc$1"
	must "link add /devices/l${1}a /devices/l${1}b"
}

setup_bad=
hold_bad=0 stale_bad=0 rmmod_busy=0 rmmod_bad='' left=''
for r in $(seq 1 "$rounds"); do
	model "$r"
	da=$D/devices/l${r}a db=$D/devices/l${r}b dd=$D/devices/virtual/lc$r/l${r}d
	drv=$D/bus/lb$r/drivers/ld$r bus=$D/bus/lb$r
	# Held: reads and writes of "l<r>b" (a device name: bind, unbind,
	# drivers_probe) or "change" (uevent) or a value, all through one fd.
	"$F" hold -T 30 -w "l${r}b" -e $ALLOWED "$drv/bind" "$drv/unbind" \
		"$bus/drivers_probe" "$da/a0" "$da/l${r}c/k" >"$T/hold1.$r" 2>&1 &
	h1=$!
	"$F" hold -T 30 -w change -e $ALLOWED "$da/uevent" "$db/uevent" "$dd/uevent" \
		"$drv/uevent" "$bus/uevent" "$da/power/state" "$da/l${r}c/uevent" \
		>"$T/hold2.$r" 2>&1 &
	h2=$!
	"$F" hold -T 30 -w 1 -e $ALLOWED "$bus/drivers_autoprobe" "$da/a1" >"$T/hold3.$r" 2>&1 &
	h3=$!
	# Opened again and again by busybox, and a blocked events reader.
	(while :; do
		cat "$da/a0" "$da/uevent" "$db/power/state" "$dd/uevent" 2>/dev/null
		echo "l${r}b" 2>/dev/null >"$drv/unbind"
		echo "l${r}b" 2>/dev/null >"$drv/bind"
		echo suspend 2>/dev/null >"$db/power/state"
		echo resume 2>/dev/null >"$db/power/state"
	done) >/dev/null 2>&1 &
	loop=$!
	cat "$D/events" >/dev/null 2>&1 &
	evr=$!
	exec 5<"$da/a1"
	sleep 1
	# Delete while all that runs: the child goes with its parent.
	ctl "device del /devices/l${r}a" || setup_bad="$setup_bad [device del l${r}a]"
	# A held file of a deleted object fails from now on.
	if cat <&5 >$T/stale 2>&1; then
		stale_bad=$((stale_bad + 1))
		echo "# round $r: a held a1 of a deleted device still reads: $(cat $T/stale)"
	fi
	exec 5<&-
	ctl "driver del ld$r" || setup_bad="$setup_bad [driver del ld$r]"
	res=$(try_rmmod)
	case $res in
	busy) rmmod_busy=$((rmmod_busy + 1)) ;;
	*) rmmod_bad="$rmmod_bad [round $r, objects going: $res]" ;;
	esac
	ctl "device del /devices/l${r}b" || setup_bad="$setup_bad [device del l${r}b]"
	ctl "device del /devices/virtual/lc$r/l${r}d" || setup_bad="$setup_bad [device del l${r}d]"
	ctl "class del lc$r" || setup_bad="$setup_bad [class del lc$r]"
	ctl "bus del lb$r" || setup_bad="$setup_bad [bus del lb$r]"
	res=$(try_rmmod)
	case $res in
	busy) rmmod_busy=$((rmmod_busy + 1)) ;;
	*) rmmod_bad="$rmmod_bad [round $r, objects gone: $res]" ;;
	esac
	sleep 1
	kill "$loop" "$evr" 2>/dev/null
	kill -TERM "$h1" "$h2" "$h3" 2>/dev/null
	for h in $h1 $h2 $h3; do
		wait "$h" || hold_bad=$((hold_bad + 1))
	done
	wait "$loop" "$evr" 2>/dev/null
	if [ "$r" = 1 ] || [ $hold_bad -gt 0 ]; then
		sed "s/^/# round $r: /" "$T/hold1.$r" "$T/hold2.$r" "$T/hold3.$r"
	fi
	for e in "$D/devices/l$r"* "$D/bus/lb$r" "$D/class/lc$r"; do
		[ -e "$e" ] && left="$left [round $r: ${e#"$D"/}]"
	done
	dmc_loaded dmcore || break
done
if [ -z "$setup_bad" ]; then
	ok "held files: $rounds rounds of building and deleting objects through control"
else
	notok "held files: control commands of the rounds work:$setup_bad"
	sed 's/^/# /' $T/ctl.err | head -n 20
fi
check "held files: reads and writes through held files see only $ALLOWED and no call takes 10 s" \
	test "$hold_bad" -eq 0
check "held files: a file held open fails once its object is deleted (no stale data)" \
	test "$stale_bad" -eq 0
if [ -z "$rmmod_bad" ]; then
	ok "held files: rmmod dmcore is refused while files are open, without hanging ($rmmod_busy times)"
else
	notok "held files: rmmod dmcore is refused while files are open, without hanging:$rmmod_bad"
fi
check "held files: nothing of the rounds is left in the tree ($left)" test -z "$left"

# ---- part 2: load/unload cycles with objects left behind ---------------------
objects() {
	must "bus add cb"
	must "class add cc"
	must "driver add cd bus=cb match=x* async"
	must "driver add ce bus=cb match=y* probe=defer:x0"
	must "device add x0 bus=cb class=cc attr=a=1"
	must "device add y0 bus=cb"
	must "device add x1 parent=/devices/x0 bus=cb"
	must "device add z0 class=cc"
	must "link add /devices/x0 /devices/y0"
}

setup_bad=
c_refused=0 c_unloaded=0 c_clean=0 c_loaded=0 c_bad=''
dmc_loaded dmcore && dmc_rmmod
t0=$(date +%s)
for i in $(seq 1 "$cycles"); do
	if ! insmod "$DMC_MODDIR/dmcore.ko" 2>$T/insmod.err; then
		c_bad="$c_bad [cycle $i: insmod: $(cat $T/insmod.err)]"
		break
	fi
	c_loaded=$((c_loaded + 1))
	objects
	cat "$D/events" >/dev/null 2>&1 &
	evr=$!
	sleep 0.2
	res=$(try_rmmod)
	if [ "$res" = busy ]; then
		c_refused=$((c_refused + 1))
	else
		c_bad="$c_bad [cycle $i: with a blocked events reader: $res]"
	fi
	kill "$evr" 2>/dev/null
	wait "$evr" 2>/dev/null
	before=$(dmesg | grep -c 'dmcore: unloaded, 0 objects leaked')
	res=$(try_rmmod)
	if [ "$res" = unloaded ]; then
		c_unloaded=$((c_unloaded + 1))
	else
		c_bad="$c_bad [cycle $i: reader killed: $res]"
		dmc_loaded dmcore && break
	fi
	after=$(dmesg | grep -c 'dmcore: unloaded, 0 objects leaked')
	if [ "$after" -gt "$before" ]; then
		c_clean=$((c_clean + 1))
	else
		c_bad="$c_bad [cycle $i: no clean-exit line]"
		dmesg | grep 'dmcore: \(LEAK\|unloaded\)' | tail -n 10 | sed 's/^/# /'
	fi
done
echo "# $c_loaded load/unload cycles took $(( $(date +%s) - t0 )) s"
[ -n "$c_bad" ] && echo "# cycles:$c_bad" | head -c 2000 && echo
if [ -z "$setup_bad" ]; then
	ok "cycles: objects built through control in every cycle"
else
	notok "cycles: objects built through control in every cycle:$(echo "$setup_bad" | head -c 400)"
fi
check "cycles: $cycles loads of dmcore.ko ($c_loaded)" test "$c_loaded" -eq "$cycles"
check "cycles: rmmod refused, not hung, while an events reader is blocked ($c_refused of $cycles)" \
	test "$c_refused" -eq "$cycles"
check "cycles: rmmod succeeds once the reader is killed ($c_unloaded of $cycles)" \
	test "$c_unloaded" -eq "$cycles"
check "cycles: 'dmcore: unloaded, 0 objects leaked' after each cycle ($c_clean of $cycles)" \
	test "$c_clean" -eq "$cycles"
dmesg >$T/dmesg
if grep -q -E 'BUG:|KASAN|WARNING:|Call Trace:|circular locking|list_(add|del) corruption|ODEBUG|Oops|hung_task|blocked for more' $T/dmesg; then
	notok "no kernel report during the test"
	grep -m1 -B2 -A30 -E 'BUG:|KASAN|WARNING:|Call Trace:|circular locking|list_(add|del) corruption|ODEBUG|Oops|blocked for more' \
		$T/dmesg | sed 's/^/# /'
else
	ok "no kernel report during the test"
fi
# Leave dmcore loaded, as the harness expects (it unloads it and checks
# the clean-exit line once more).
dmc_loaded dmcore || insmod "$DMC_MODDIR/dmcore.ko"
tap_end
