#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: a fail-nth sweep over every control verb and every
# writable file of the mirror (/sys/kernel/debug/dmcore).
#
# For each verb, from a set-up world: the verb runs once without
# injection (its reference result, then undone), then for N = 1, 2, ...:
# "echo N >/proc/thread-self/fail-nth" and the verb's write run in this
# same shell process (ash runs builtin echo with a redirection without
# forking; checked first), so the Nth fault point of the write (failslab:
# every slab allocation, the VFS's included) fails; fail-nth read back
# says whether it fired. Then:
#   - the write failed: it must have fired, the error must be ENOMEM
#     ("Cannot allocate memory"), and the snapshot must be unchanged: the
#     tree (names, modes, link targets, the content of every readable
#     file) and the model part of stats (objects by type, misuse), with no
#     event sent;
#   - the write succeeded: it is undone and the snapshot must be back to
#     the start; if the injection did not fire the sweep of that verb
#     ends. If it fired the failure was absorbed (an event or a mirror
#     entry not made, or kmemleak's own allocation): counted, and the
#     sweep goes on.
# One TAP line per verb with its injection points, and a summary line
# "fail-nth: N injection points over M scenarios". The kernel log scan
# (WARN, KASAN, lockdep, ODEBUG) and kmemleak are check.sh's.
# vm.sh has loaded dmcore.ko already.
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

C=$DMC_DIR/control
ST=$DMC_DIR/stats
D=$DMC_DIR
FN=/proc/thread-self/fail-nth
FS=$DMC_DEBUGFS/failslab
T=/tmp/faults
mkdir -p $T
ERRF=$T/err
MAX_N=${FAULTS_MAX_N:-3000}
[ -z "${FAULTS_TRACE:-}" ] || set -x

NL='
'
# Past this many seconds of sweeping, the verbs left are skipped (SKIP
# lines, with the reason): two thirds of the guest's DMC_SCRIPT_TIMEOUT.
guest_timeout=${DMC_SCRIPT_TIMEOUT:-0}
[ "$guest_timeout" -gt 0 ] || guest_timeout=600
BUDGET=${FAULTS_BUDGET:-$((guest_timeout * 2 / 3))}
total_points=0
skipped=0
setup_bad=0
total_verbs=0
t_start=$(cut -d' ' -f1 /proc/uptime)

# The model, as a user sees it, after every injection: every name under
# devices/, bus/ and class/ with its kind, and stats without its counters
# of events and probes (live objects by type, misuse reports). Shell
# builtins only: in an emulated guest a fork, or reading every file, costs
# far more than the walk.
walk() {
	local e
	for e in "$1"/*; do
		if [ -L "$e" ]; then
			snap="$snap$NL L $e"
		elif [ -d "$e" ]; then
			snap="$snap$NL D $e"
			walk "$e"
		elif [ -e "$e" ]; then
			snap="$snap$NL F $e"
		fi
	done
}
# events_paired SEQ -- the events after SEQNUM SEQ are only "add" and
# "remove" of the same paths, in equal numbers (a failed call that undid
# what it announced).
events_paired() {
	timeout 2 cat "$D/events" 2>/dev/null | awk -v from="$1" '
		/^SEQNUM=/ {
			split($1, a, "=")
			if (a[2] + 0 <= from + 0) next
			act = ""; dp = ""
			for (i = 2; i <= NF; i++) {
				if ($i ~ /^ACTION=/) act = substr($i, 8)
				if ($i ~ /^DEVPATH=/) dp = substr($i, 9)
			}
			if (act == "add") c[dp]++
			else if (act == "remove") c[dp]--
			else bad = 1
			seen = 1
		}
		END { for (k in c) if (c[k] != 0) bad = 1; exit (bad || !seen) }'
}

# snap=the snapshot, seq=SEQNUM of the last event (no fork)
take_snapshot() {
	local k v
	snap='' seq=''
	walk "$D/devices"
	walk "$D/bus"
	walk "$D/class"
	while read -r k v; do
		case "$k" in
		last_seqnum) seq=$v ;;
		events_*|event_log*|probe_calls|probe_hist*) ;;
		*) snap="$snap$NL $k $v" ;;
		esac
	done <"$ST"
}
snapshot() {
	take_snapshot 2>/dev/null
	printf '%s\n' "$snap"
}
# All of it, with modes, link targets and the content of every readable
# file: before the first sweep and after the last (every sweep ends by
# undoing its verb).
full_snapshot() {
	{
		find "$D/devices" "$D/bus" "$D/class" -exec stat -c '%A %N' {} +
		find "$D/devices" "$D/bus" "$D/class" -type f -perm -0400 \
			-exec grep -H '' {} + 2>&1
		grep -v '^events_\|^event_log\|^last_seqnum\|^probe_calls\|^probe_hist' "$ST"
	} | sort
}
# err=what the shell said on stderr
get_err() {
	local l
	err=
	while read -r l; do err="$err$l"; done <$ERRF
}

# inject N FILE TEXT -- write TEXT and a newline to FILE with the Nth
# fault point failing. Sets st (0: the write worked), fired (1: the
# injection fired in the write) and err (what the shell said).
inject() {
	{
		echo "$1" >$FN
		if echo "$3" >"$2"; then st=0; else st=1; fi
		left=
		read -r left <$FN
		echo 0 >$FN
	} 2>$ERRF
	# A failed open of fail-nth itself means the injection fired after
	# the write: not in it.
	case "$left" in
	0) fired=1 ;;
	*) fired=0 ;;
	esac
	get_err
}

# inject_read N FILE -- the same for reading one line of FILE.
inject_read() {
	{
		echo "$1" >$FN
		if read -r _ <"$2"; then st=0; else st=1; fi
		left=
		read -r left <$FN
		echo 0 >$FN
	} 2>$ERRF
	case "$left" in
	0) fired=1 ;;
	*) fired=0 ;;
	esac
	get_err
}

# w FILE TEXT -- a write that must work (set-up and undo).
w() {
	if ! echo "$2" >"$1" 2>$ERRF; then
		echo "# set-up/undo failed: '$2' > $1: $(cat $ERRF)"
		setup_bad=1
	fi
}
ctl() { w "$C" "$*"; }

# sweep NAME KNOWN FILE TEXT UNDO-FUNCTION -- the sweep of one verb.
# KNOWN: empty, or a note on a known core defect this sweep hits.
sweep() {
	name=$1 known=$2 file=$3 text=$4 undo=$5
	# FAULTS_ONLY=GLOB (by hand): sweep only the verbs it matches.
	# shellcheck disable=SC2254 # the pattern is the point
	case "$name" in ${FAULTS_ONLY:-*}) ;; *) return ;; esac
	# A verb that hits a known core defect that corrupts memory is not
	# swept (FAULTS_RUN_KNOWN=1 sweeps it, to check the fix); its TAP
	# line fails all the same.
	if [ -n "$known" ] && [ "${FAULTS_RUN_KNOWN:-0}" != 1 ]; then
		total_verbs=$((total_verbs + 1))
		notok "fail-nth $name: not swept, known defect: $known"
		return
	fi
	now=$(cut -d. -f1 /proc/uptime)
	if [ $((now - ${t_start%.*})) -gt "$BUDGET" ]; then
		skipped=$((skipped + 1))
		ok "fail-nth $name # SKIP not swept: past the time budget of $BUDGET s"
		return
	fi
	setup_bad=0
	echo "# $name: start ($(cut -d' ' -f1 /proc/uptime) s)"
	take_snapshot 2>/dev/null
	s0=$snap
	# The reference: the verb without injection, then undone.
	if ! echo "$text" >"$file" 2>$ERRF; then
		notok "fail-nth $name: fails without injection: $(cat $ERRF)"
		return
	fi
	take_snapshot 2>/dev/null
	s1=$snap
	$undo
	take_snapshot 2>/dev/null
	if [ "$snap" != "$s0" ]; then
		notok "fail-nth $name: undo does not restore the start"
		return
	fi
	k=1 nfail=0 absorbed=0 differ=0 bad=0 notes='' partial=0
	while [ $k -le "$MAX_N" ]; do
		if [ $((k % 25)) = 0 ]; then
			now=$(cut -d. -f1 /proc/uptime)
			echo "# $name: N=$k ($now s)"
			if [ $((now - ${t_start%.*})) -gt $((BUDGET + 60)) ]; then
				partial=1
				break
			fi
		fi
		seq0=$seq
		if [ "$file" = READ ]; then
			inject_read $k "$text"
		else
			inject $k "$file" "$text"
		fi
		take_snapshot 2>/dev/null
		s=$snap
		if [ "$st" != 0 ]; then
			nfail=$((nfail + 1))
			if [ $fired = 0 ]; then
				bad=$((bad + 1))
				notes="$notes N=$k:failed-uninjected($err)"
				break
			fi
			case "$err" in
			*"Cannot allocate memory"*|*"Out of memory"*) ;;
			# ash's read says nothing when read(2) fails: the
			# injection fired, so that was the events reader's
			# -ENOMEM (its open failing would have been named).
			'') [ "$file" = READ ] || { bad=$((bad + 1)); notes="$notes N=$k:errno()"; } ;;
			*)
				bad=$((bad + 1))
				notes="$notes N=$k:errno($err)" ;;
			esac
			if [ "$s" != "$s0" ]; then
				bad=$((bad + 1))
				notes="$notes N=$k:model-changed"
				printf '%s\n' "$s0" >$T/before
				printf '%s\n' "$s" >$T/after
				echo "# $name N=$k: the failed write changed the model:"
				diff $T/before $T/after | head -20 | sed 's/^/#   /'
				# Put it back, or every later N fails too.
				[ "$s" != "$s1" ] || $undo
				take_snapshot 2>/dev/null
			elif [ "$seq" != "$seq0" ] && ! events_paired "$seq0"; then
				# A failure may undo what it announced ("add" then
				# "remove" of one path, as Linux's bus_register()
				# does and dmcore-fault allows); anything else is bad.
				bad=$((bad + 1))
				notes="$notes N=$k:event-sent"
			fi
		else
			if [ $fired = 1 ]; then
				absorbed=$((absorbed + 1))
				[ "$s" = "$s1" ] || differ=$((differ + 1))
			fi
			$undo
			take_snapshot 2>/dev/null
			if [ "$snap" != "$s0" ]; then
				bad=$((bad + 1))
				notes="$notes N=$k:undo-not-back"
			fi
			[ $fired = 1 ] || break
		fi
		[ $bad -lt 3 ] || break
		k=$((k + 1))
	done
	points=$((k - 1))
	total_points=$((total_points + points))
	total_verbs=$((total_verbs + 1))
	what="fail-nth $name: $points injection points ($nfail failed with ENOMEM, $absorbed absorbed, $differ of them with a different result)"
	if [ $k -gt "$MAX_N" ]; then
		notok "$what: still failing at N=$MAX_N"
	elif [ $bad -gt 0 ] || [ $setup_bad = 1 ]; then
		notok "$what: bad:$notes${known:+ [known: $known]}"
	elif [ $partial = 1 ]; then
		skipped=$((skipped + 1))
		ok "$what # SKIP stopped at N=$k: past the time budget of $BUDGET s"
	else
		ok "$what"
	fi
}

# ---- failslab, fail-nth and the shell ----------------------------------

if [ ! -w $FN ] || [ ! -d $FS ]; then
	notok "fault injection: no $FN or $FS (CONFIG_FAULT_INJECTION, CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS)"
	tap_end
	exit 1
fi
# Fail GFP_KERNEL allocations too, quietly (verbose 2 dumps a stack per
# failure). Nothing fails unless fail-nth is set.
echo N >$FS/ignore-gfp-wait
echo 0 >$FS/verbose

# The write to fail-nth and the next command must run in one task: ash
# runs a builtin with a redirection in its own process. If echo forked,
# the shell's own fail-nth would still read 0.
echo 1000 >$FN
read -r v <$FN
echo 0 >$FN
if [ "${v:-0}" -gt 0 ] && [ "$v" -le 1000 ]; then
	ok "fail-nth: builtin echo and read run in the shell's own task ($v left of 1000)"
else
	notok "fail-nth: builtin echo forked or fail-nth is not per task (read '$v')"
fi

# ---- the world ------------------------------------------------------------

ctl bus add fb
ctl class add fc
ctl driver add fdrv bus=fb match=fdev* probe=ok
ctl device add fpar
ctl device add fdev0 bus=fb class=fc parent=/devices/fpar attr=a=1
ctl device add fdevb bus=fb parent=/devices/fpar
ctl device add fsup
ctl device add fcon
ctl device add xdev0 bus=fb
ctl bus add yb
ctl class add yc
ctl driver add ydrv bus=fb match=ydev*
ctl device add ydev0 bus=fb
ctl device add ydel bus=fb class=fc parent=/devices/fpar attr=k=v
ctl link add /devices/fsup /devices/fpar
if [ $setup_bad = 1 ]; then
	notok "fail-nth: the world could not be set up"
fi
DEV0=$D/devices/fpar/fdev0
DRV=$D/bus/fb/drivers/fdrv

f0=$(full_snapshot)

undo_bus_add() { ctl bus del xb; }
undo_bus_del() { ctl bus add yb; }
undo_class_add() { ctl class del xc; }
undo_class_del() { ctl class add yc; }
undo_driver_add() { ctl driver del xdrv; }
undo_driver_del() { ctl driver add ydrv bus=fb match=ydev*; }
undo_device_add() { ctl device del /devices/fpar/fdevx; }
undo_device_del() { ctl device add ydel bus=fb class=fc parent=/devices/fpar attr=k=v; }
undo_link_add() { ctl link del /devices/fsup /devices/fcon; }
undo_link_del() { ctl link add /devices/fsup /devices/fpar; }
undo_suspend() { ctl resume; }
undo_resume() { ctl suspend; }
undo_bind() { w $DRV/unbind fdevb; }
undo_unbind() { w $DRV/bind fdevb; }
undo_attr() { w $DEV0/a 1; }
undo_power() { w $DEV0/power/state resume; }
undo_nothing() { :; }

sweep "bus add" "" "$C" "bus add xb" undo_bus_add
sweep "bus del" "" "$C" "bus del yb" undo_bus_del
sweep "class add" "" "$C" "class add xc" undo_class_add
sweep "class del" "" "$C" "class del yc" undo_class_del
sweep "driver add (binds a device)" "" "$C" \
	"driver add xdrv bus=fb match=xdev* probe=ok delay_ms=0 suspend=ok" \
	undo_driver_add
sweep "driver del (unbinds a device)" "" "$C" "driver del ydrv" undo_driver_del
sweep "device add (bus, class, parent, attrs; binds)" "" "$C" \
	"device add fdevx bus=fb class=fc parent=/devices/fpar attr=k=v attr=k2=v2" \
	undo_device_add
sweep "device del" "" "$C" "device del /devices/fpar/ydel" undo_device_del
sweep "link add" "" "$C" "link add /devices/fsup /devices/fcon" undo_link_add
sweep "link del" "" "$C" "link del /devices/fsup /devices/fpar" undo_link_del
sweep "suspend" "" "$C" "suspend" undo_suspend
ctl suspend
sweep "resume" "" "$C" "resume" undo_resume
ctl resume
w $DRV/unbind fdevb
sweep "bind file" "" "$DRV/bind" "fdevb" undo_bind
w $DRV/bind fdevb
sweep "unbind file" "" "$DRV/unbind" "fdevb" undo_unbind
sweep "uevent file (change)" "" "$DEV0/uevent" "change" undo_nothing
sweep "attribute file" "" "$DEV0/a" "2" undo_attr
sweep "power/state file (suspend)" "" "$DEV0/power/state" "suspend" undo_power
sweep "snapshot read" "" READ "$D/snapshot" undo_nothing
sweep "events read" "" READ "$D/events" undo_nothing

if [ "$(full_snapshot)" = "$f0" ]; then
	ok "fail-nth: after every sweep, the tree (modes, link targets, contents) is as before the first"
else
	notok "fail-nth: after every sweep, the tree is not as before the first"
	printf '%s\n' "$f0" >$T/f0
	full_snapshot >$T/f1
	diff $T/f0 $T/f1 | head -20 | sed 's/^/#   /'
fi

t_end=$(cut -d' ' -f1 /proc/uptime)
echo "# fail-nth sweep took $(echo "$t_start $t_end" | awk '{printf "%.0f", $2 - $1}') s"
summary="fail-nth: $total_points injection points over $total_verbs scenarios"
[ $skipped = 0 ] || summary="$summary ($skipped more skipped: time budget)"
if [ $total_points -gt 0 ]; then ok "$summary"; else notok "$summary"; fi
tap_end
