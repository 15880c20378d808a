#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: dmctl (tools/dmctl) on the real module. Builds a small
# model through the control file, then: `dmctl tree` of it; `dmctl why`
# on devices that never bind (a probe failing with ENODEV, a deferral
# waiting for a name, no matching driver, autoprobe off, no driver on the
# bus) and on a bound one; `dmctl monitor` with each filter during a bind;
# `dmctl graph`'s node and edge counts against what the tree's
# directories show; and graphs taken again and again while a background
# loop adds, binds and deletes devices: each one's JSON is consistent
# (dmc-json-check --graph: every edge's ends are nodes, the counts are the
# lengths) and two graphs of one generation are identical.
# Needs /dmc/files/dmctl and dmc-json-check (scripts/build-guest-tools.sh;
# check.sh adds them). Output is TAP; exit 0 only if all passed.
# shellcheck disable=SC2012 # ls | wc -l: the tree's names hold no newline
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

C=$DMC_DIR/control
DM=$DMC_FILES/dmctl
JC=$DMC_FILES/dmc-json-check
T=/tmp/dmctl-test
mkdir -p $T

# ctl COMMAND -- one control write; prints OK or the error text.
ctl() {
	printf '%s\n' "$1" >$T/cmd.$$
	if o=$(dd if=$T/cmd.$$ of="$C" bs=65536 count=1 conv=notrunc 2>&1); then
		echo OK
	else
		printf '%s\n' "$o" | sed -n 's/^dd: error writing.*: //p'
	fi
}
must() {
	r=$(ctl "$1")
	[ "$r" = OK ] || notok "set-up: got '$r' for: $1"
}
# eq DESCRIPTION GOT WANT
eq() { if [ "$2" = "$3" ]; then ok "$1: $3"; else notok "$1: got '$2', want '$3'"; fi; }
# verdict DEVICE WANT -- the first line of `dmctl why DEVICE` is WANT.
verdict() {
	got=$("$DM" why "$1" 2>&1 | head -n 1)
	eq "dmctl why $1" "$got" "$2"
}
last_seqnum() { sed -n 's/^last_seqnum //p' "$DMC_DIR/stats"; }

for f in "$DM" "$JC"; do
	if [ ! -x "$f" ]; then
		notok "$f is there (scripts/build-guest-tools.sh)"
		tap_end
		exit 1
	fi
done
if [ ! -r "$DMC_DIR/snapshot" ]; then
	notok "the root file snapshot exists"
	tap_end
	exit 1
fi
ok "dmctl and dmc-json-check are there, and the snapshot file"
# Does this module's snapshot carry per-device probe records?
probe_records=0
grep -q -m1 '^device .* probe=' "$DMC_DIR/snapshot" && probe_records=1

# ---- a small system, and its tree ---------------------------------------------------
must "bus add tb"
must "class add tc"
must "driver add tclk bus=tb match=tclk*"
must "driver add tuart bus=tb match=tuart*"
must "device add tsoc0"
must "device add tclk0 bus=tb parent=/devices/tsoc0"
must "device add tuart0 bus=tb class=tc parent=/devices/tsoc0"
must "link add /devices/tsoc0/tclk0 /devices/tsoc0/tuart0"
must "settle"
echo "# dmctl tree tsoc0"
"$DM" tree tsoc0 >$T/tree 2>&1
rc=$?
sed 's/^/#   /' $T/tree
eq "dmctl tree tsoc0: exit status" "$rc" 0
eq "dmctl tree tsoc0: the device and its two children" "$(wc -l <$T/tree | tr -d ' ')" 3
check "dmctl tree: tsoc0 on no bus" grep -qE '^/devices/tsoc0  bus=- class=- driver=- power=on runtime=' $T/tree
check "dmctl tree: tclk0 bound to tclk" grep -qE '^\|-- tclk0  bus=tb class=- driver=tclk power=on runtime=' $T/tree
check "dmctl tree: tuart0 last, in class tc, bound to tuart" \
	grep -qE '^`-- tuart0  bus=tb class=tc driver=tuart power=on runtime=' $T/tree
"$DM" tree >$T/tree-all 2>&1
echo "# dmctl tree"
sed 's/^/#   /' $T/tree-all
check "dmctl tree: the whole tree holds tsoc0's subtree" grep -qE '^(\||`)-- tsoc0  bus=-' $T/tree-all
"$DM" tree --json >$T/tree.json 2>&1
check "dmctl tree --json: valid JSON" "$JC" -f $T/tree.json
eq "dmctl tree --json: its device count is the snapshot's" \
	"$("$JC" -f $T/tree.json .count)" "$(grep -c '^device ' "$DMC_DIR/snapshot")"
"$DM" tree /devices/tsoc0/nosuch >/dev/null 2>$T/err
eq "dmctl tree of an unknown path: exit 1" "$? $(wc -l <$T/err | tr -d ' ')" "1 1"

# ---- why -----------------------------------------------------------------------------
verdict tuart0 "$(if [ $probe_records = 1 ]; then
	"$DM" why tuart0 | head -n1 | grep -E '^tuart0: bound to driver tuart \(bus tb\); its probe took [0-9.]+ (us|ms|s)$'
else echo "tuart0: bound to driver tuart (bus tb)"; fi)"
echo "# dmctl why tuart0"
"$DM" why tuart0 2>&1 | sed 's/^/#   /'
check "dmctl why tuart0: its supplier tclk0, bound" \
	sh -c "'$DM' why tuart0 | grep -qF 'supplier:   /devices/tsoc0/tclk0 (link '"
must "driver add tfail bus=tb match=tfail* probe=fail:19"
must "device add tfail0 bus=tb"
must "driver add tdef bus=tb match=tdef* probe=defer:tpwr0"
must "device add tdef0 bus=tb"
must "device add tnone0 bus=tb"
must "bus add tab"
echo 0 >"$DMC_DIR/bus/tab/drivers_autoprobe"
must "driver add tadrv bus=tab match=ta*"
must "device add ta0 bus=tab"
must "bus add tempty"
must "device add te0 bus=tempty"
must "settle"
for d in tfail0 tdef0 tnone0 ta0 te0; do
	echo "# dmctl why $d"
	"$DM" why $d 2>&1 | sed 's/^/#   /'
done
if [ $probe_records = 1 ]; then
	verdict tfail0 "tfail0: not bound: its last probe failed with ENODEV (errno 19)"
	check "dmctl why tfail0: the errno named in the probe line" \
		sh -c "'$DM' why tfail0 | grep -qF 'errno 19 (ENODEV)'"
	eq "dmctl why --json tfail0: errno_name" "$("$DM" why --json tfail0 | "$JC" .probe.errno_name)" ENODEV
else
	ok "dmctl why tfail0 names ENODEV # SKIP this module's snapshot has no per-device probe records"
	ok "dmctl why tfail0: the errno named # SKIP no per-device probe records"
	verdict tfail0 "tfail0: not bound: it matches tfail, and no probe bound it (this snapshot has no probe results)"
fi
check "dmctl why tfail0: tfail matches it" sh -c "'$DM' why tfail0 | grep -qE '^    tfail +matches$'"
# The reason is the driver's words (devices_deferred prefixes the driver's name).
got=$("$DM" why tdef0 | head -n 1)
case $got in
"tdef0: not bound: its probe was deferred, waiting for tpwr0 (reason: "*"tpwr0 is not bound yet)")
	ok "dmctl why tdef0: $got" ;;
*) notok "dmctl why tdef0: got '$got'" ;;
esac
eq "dmctl why --json tdef0: waits" "$("$DM" why --json tdef0 | "$JC" .deferral.waits)" tpwr0
verdict tnone0 "tnone0: not bound: no driver of bus tb matches it (4 driver(s) tried)"
verdict ta0 "ta0: not bound: autoprobe is off on bus tab (write its name to bus/tab/drivers_probe)"
verdict te0 "te0: not bound: bus tempty has no driver at all"
verdict tsoc0 "tsoc0: not bound: it is on no bus (only a device on a bus is bound to a driver)"
"$DM" why nosuchdevice >/dev/null 2>$T/err
eq "dmctl why of an unknown device: exit 1, one line" "$? $(wc -l <$T/err | tr -d ' ')" "1 1"
"$DM" why >/dev/null 2>$T/err
eq "dmctl why without a device: exit 2, one line" "$? $(wc -l <$T/err | tr -d ' ')" "2 1"
# A deferral resolved: a driver named tpwr0 appears on tb (what the
# control driver's deferral waits for), tdef0's probe succeeds on retry.
must "driver add tpwr0 bus=tb match=tpwrx*"
must "settle"
sleep 1
verdict_bound=$("$DM" why tdef0 | head -n1)
case $verdict_bound in
"tdef0: bound to driver tdef (bus tb)"*) ok "dmctl why tdef0 once tpwr0 exists: bound" ;;
*) notok "dmctl why tdef0 once tpwr0 exists: $verdict_bound" ;;
esac

# ---- info ------------------------------------------------------------------------------
"$DM" info tuart0 >$T/info 2>&1
eq "dmctl info tuart0: exit status" "$?" 0
sed 's/^/#   /' $T/info
check "dmctl info: the record's bus" grep -qxF '    bus=tb' $T/info
check "dmctl info: the uevent file's variables" grep -qE '^(    uevent = |      )DRIVER=tuart$' $T/info
check "dmctl info: the driver link" grep -qE '^    driver -> .*/bus/tb/drivers/tuart$' $T/info
"$DM" info --json tuart0 >$T/info.json 2>&1
check "dmctl info --json: valid JSON" "$JC" -f $T/info.json
eq "dmctl info --json: a file's value" "$("$JC" -f $T/info.json .record.class)" tc

# ---- stats -------------------------------------------------------------------------------
"$DM" stats >$T/stats 2>&1
eq "dmctl stats: exit status" "$?" 0
sed 's/^/#   /' $T/stats | head -n 40
"$DM" stats --json >$T/stats.json 2>&1
check "dmctl stats --json: valid JSON" "$JC" -f $T/stats.json
eq "dmctl stats --json: last_seqnum" "$("$JC" -f $T/stats.json .stats.last_seqnum)" "$(last_seqnum)"
if grep -q '^probe_hist ' "$DMC_DIR/stats"; then
	check "dmctl stats: tuart's row" grep -qE '^  tb +tuart +[1-9]' $T/stats
else
	ok "dmctl stats: tuart's row # SKIP this module's stats has no probe_hist lines"
fi

# ---- monitor during a bind -----------------------------------------------------------
must "bus add tm"
must "class add tmc"
must "driver add tmd bus=tm match=tm*"
must "settle"
s0=$(($(last_seqnum) + 1))
"$DM" monitor --count 2 --timeout 30 >$T/m-all 2>&1 &
p1=$!
"$DM" monitor --action bind --count 1 --timeout 30 >$T/m-bind 2>&1 &
p2=$!
"$DM" monitor --subsystem-match tm --count 2 --timeout 30 >$T/m-sub 2>&1 &
p3=$!
"$DM" monitor --subsystem-match tmc --timeout 30 --count 1 >$T/m-cls 2>&1 &
p4=$!
"$DM" monitor --subsystem-match tm --action bind --property --count 1 --timeout 30 >$T/m-prop 2>&1 &
p5=$!
"$DM" monitor --json --subsystem-match tm --subsystem-match tmc --count 3 --timeout 30 >$T/m-json 2>&1 &
p6=$!
"$DM" monitor --subsystem-match nosuchsubsystem --timeout 5 >$T/m-none 2>&1 &
p7=$!
# The monitors take "now" from stats when they start: let them.
sleep 2
must "device add tm0 bus=tm"
must "device add tmx0 class=tmc"
must "settle"
for p in $p1 $p2 $p3 $p4 $p5 $p6 $p7; do wait "$p"; done
for f in m-all m-bind m-sub m-cls m-prop m-json m-none; do
	echo "# $f:"
	sed 's/^/#   /' $T/$f
done
add_line="DMCORE [$s0] add /devices/tm0 (tm)"
bind_line="DMCORE [$((s0 + 1))] bind /devices/tm0 (tm)"
eq "dmctl monitor: the add, then the bind" "$(cat $T/m-all | tr '\n' '|')" "$add_line|$bind_line|"
eq "dmctl monitor --action bind" "$(cat $T/m-bind)" "$bind_line"
eq "dmctl monitor --subsystem-match tm" "$(cat $T/m-sub | tr '\n' '|')" "$add_line|$bind_line|"
eq "dmctl monitor --subsystem-match tmc (a class)" "$(cat $T/m-cls)" \
	"DMCORE [$((s0 + 2))] add /devices/virtual/tmc/tmx0 (tmc)"
check "dmctl monitor --property: the header, then DRIVER=tmd" \
	sh -c "head -n1 $T/m-prop | grep -qxF '$bind_line' && grep -qxF DRIVER=tmd $T/m-prop && grep -qxF SEQNUM=$((s0 + 1)) $T/m-prop"
check "dmctl monitor --json: one valid document per event" "$JC" --lines -f $T/m-json
eq "dmctl monitor --json: three events" "$("$JC" --lines -f $T/m-json .seqnum | tr '\n' ' ')" \
	"$s0 $((s0 + 1)) $((s0 + 2)) "
eq "dmctl monitor --subsystem-match nosuchsubsystem --timeout 5: nothing" "$(wc -c <$T/m-none | tr -d ' ')" 0
"$DM" monitor --seqnum $s0 --count 3 --timeout 10 >$T/m-again 2>&1
eq "dmctl monitor --seqnum: the same events again" "$(head -n 2 $T/m-again | tr '\n' '|')" \
	"$add_line|$bind_line|"

# ---- graph against the tree ---------------------------------------------------------
must "settle"
"$DM" graph --json >$T/g.json 2>$T/g.err
eq "dmctl graph --json: exit status" "$?" 0
check "dmctl graph --json: consistent (every edge's ends are nodes, counts)" "$JC" --graph -f $T/g.json
"$DM" graph --dot >$T/g.dot 2>&1
check "dmctl graph --dot: a digraph" sh -c "head -n1 $T/g.dot | grep -qxF 'digraph dmcore {' && tail -n1 $T/g.dot | grep -qxF '}'"
"$DM" graph >$T/g.txt
echo "# dmctl graph"
sed 's/^/#   /' $T/g.txt
echo "# dmctl graph --dot"
sed 's/^/#   /' $T/g.dot
# The tree's own view, counted from its directories: a device is a
# directory of devices/ with a uevent file; its parent is a device when
# the directory above has one too (glue directories such as virtual/
# have none).
cd "$DMC_DIR" || exit 1
find devices -name uevent -type f | sed 's|/uevent$||' | grep -v '/power$' | sort >$T/devdirs
ndev=$(wc -l <$T/devdirs | tr -d ' ')
nparent=0
while read -r d; do
	[ -f "${d%/*}/uevent" ] && [ "${d%/*}" != devices ] && nparent=$((nparent + 1))
done <$T/devdirs
nbus=$(ls bus | wc -l)
ncls=$(ls class | wc -l)
ndrv=0 nbound=0 nbusdev=0 nclsdev=0
for b in bus/*; do
	nbusdev=$((nbusdev + $(ls "$b/devices" | wc -l)))
	for dr in "$b"/drivers/*; do
		[ -d "$dr" ] || continue
		ndrv=$((ndrv + 1))
		for l in "$dr"/*; do [ -L "$l" ] && nbound=$((nbound + 1)); done
	done
done
for c in class/*; do nclsdev=$((nclsdev + $(ls "$c" | wc -l))); done
nlinks=$(grep -c . device_links)
cd / || exit 1
eq "graph: devices = device directories under devices/" "$("$JC" -f $T/g.json .counts.devices)" "$ndev"
eq "graph: buses = bus/'s entries" "$("$JC" -f $T/g.json .counts.buses)" "$nbus"
eq "graph: classes = class/'s entries" "$("$JC" -f $T/g.json .counts.classes)" "$ncls"
eq "graph: drivers = bus/*/drivers/'s entries" "$("$JC" -f $T/g.json .counts.drivers)" "$ndrv"
eq "graph: links = device_links' lines" "$("$JC" -f $T/g.json .counts.links)" "$nlinks"
eq "graph: node_count = devices + buses + classes + drivers" "$("$JC" -f $T/g.json .node_count)" \
	"$((ndev + nbus + ncls + ndrv))"
eq "graph: edge_count = parents + bus members + drivers + bindings + class members + links" \
	"$("$JC" -f $T/g.json .edge_count)" "$((nparent + nbusdev + ndrv + nbound + nclsdev + nlinks))"

# ---- graphs while the model changes ----------------------------------------------------
must "bus add tg"
must "driver add tgd bus=tg match=tg*"
must "driver add tgf bus=tg match=tgf* probe=fail:5"
touch $T/loop.on
(
	i=0
	while [ -f $T/loop.on ]; do
		i=$((i + 1))
		ctl "device add tg$i bus=tg" >/dev/null
		ctl "device add tgf$i bus=tg parent=/devices/tg$i" >/dev/null
		ctl "device add tgc$i class=tc parent=/devices/tg$i" >/dev/null
		ctl "link add /devices/tg$i /devices/tsoc0/tuart0" >/dev/null
		[ $((i % 3)) = 0 ] && ctl "device del /devices/tg$((i - 2))" >/dev/null
		[ $((i % 5)) = 0 ] && { ctl "driver del tgd" >/dev/null; ctl "driver add tgd bus=tg match=tg*" >/dev/null; }
	done
	echo $i >$T/loop.count
) &
lp=$!
bad=0 badrc=0 same=0 differ=0 k=0
while [ $k -lt 30 ]; do
	k=$((k + 1))
	"$DM" graph --json >$T/g$k.json 2>$T/g$k.err || { badrc=$((badrc + 1)); sed 's/^/# /' $T/g$k.err; }
	"$JC" --graph -f $T/g$k.json 2>$T/g$k.chk || { bad=$((bad + 1)); sed 's/^/# /' $T/g$k.chk; }
done
rm -f $T/loop.on
wait $lp
echo "# the background loop ran $(cat $T/loop.count) rounds"
# Two graphs taken back to back, now that nothing changes.
"$DM" graph --json >$T/g31.json
"$DM" graph --json >$T/g32.json
k=1
while [ $k -le 32 ]; do
	j=$((k + 1))
	gk=$("$JC" -f $T/g$k.json .generation 2>/dev/null)
	while [ $j -le 32 ]; do
		gj=$("$JC" -f $T/g$j.json .generation 2>/dev/null)
		if [ -n "$gk" ] && [ "$gk" = "$gj" ]; then
			if cmp -s $T/g$k.json $T/g$j.json; then same=$((same + 1)); else
				differ=$((differ + 1)); echo "# graphs $k and $j: generation $gk, different"; fi
		fi
		j=$((j + 1))
	done
	k=$((k + 1))
done
eq "30 graphs during the churn: every dmctl graph exited 0" "$badrc" 0
eq "30 graphs during the churn: each one's JSON consistent" "$bad" 0
eq "graphs of one generation are identical (pairs that differ)" "$differ" 0
check "graphs of one generation: at least the two back-to-back ones compared ($same pairs)" test "$same" -ge 1
# A slower churn, one change every 0.3 s: graphs taken back to back mostly
# fall within one generation, and each such pair must be identical.
touch $T/slow.on
(
	i=0
	while [ -f $T/slow.on ]; do
		i=$((i + 1))
		ctl "device add ts$i bus=tg" >/dev/null
		sleep 0.3
		ctl "device del /devices/ts$i" >/dev/null
		sleep 0.3
	done
) &
sp=$!
pairs=0 pdiffer=0 pbad=0 k=0
while [ $k -lt 12 ]; do
	k=$((k + 1))
	"$DM" graph --json >$T/pa.json 2>/dev/null || pbad=$((pbad + 1))
	"$DM" graph --json >$T/pb.json 2>/dev/null || pbad=$((pbad + 1))
	"$JC" --graph -f $T/pa.json 2>/dev/null || pbad=$((pbad + 1))
	"$JC" --graph -f $T/pb.json 2>/dev/null || pbad=$((pbad + 1))
	if [ "$("$JC" -f $T/pa.json .generation)" = "$("$JC" -f $T/pb.json .generation)" ]; then
		pairs=$((pairs + 1))
		cmp -s $T/pa.json $T/pb.json || { pdiffer=$((pdiffer + 1)); diff $T/pa.json $T/pb.json | head -n 10 | sed 's/^/# /'; }
	fi
	sleep 0.2
done
rm -f $T/slow.on
wait $sp
eq "slow churn: 12 pairs of graphs exited 0 and are consistent (failures)" "$pbad" 0
eq "slow churn: pairs of one generation that differ" "$pdiffer" 0
check "slow churn: pairs of one generation compared ($pairs of 12)" test "$pairs" -ge 3
gens=$(for k in $(seq 1 30); do "$JC" -f "$T/g$k.json" .generation; done | sort -un | wc -l)
check "the churn changed the generation between graphs ($gens generations)" test "$gens" -ge 2

# --- a name that is just "-" -------------------------------------------
# "-" means none in the snapshot; a name "-" (control allows it) is
# written \x2d there and comes back as "-" from dmctl, bound and all.
ctl "bus add -" >/dev/null
ctl "driver add - bus=-" >/dev/null
ctl "device add tdash0 bus=-" >/dev/null
ctl "settle" >/dev/null
check "snapshot: a bus named - is written \\x2d" grep -q '^bus \\x2d ' "$DMC_DIR/snapshot"
check "snapshot: its device shows bus and driver \\x2d" \
	grep -q '^device /devices/tdash0 .* bus=\\x2d .* driver=\\x2d ' "$DMC_DIR/snapshot"
"$DM" why tdash0 --json >$T/dash.json 2>$T/dash.err
eq "dmctl why tdash0: bound, bus and driver named '-' (not none)" \
	"$("$JC" -f $T/dash.json .bound .bus .driver | tr '\n' ' ')" 'true - - '
ctl "device del /devices/tdash0" >/dev/null
ctl "driver del -" >/dev/null
ctl "bus del -" >/dev/null

tap_end
