#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh -- dmctl's tests that need no kernel: every subcommand and flag
# of tools/dmctl against the fixture roots next to this script, and the
# JSON checker tests/tools/dmc-json-check.c against good and bad JSON.
#   basic/         a snapshot, stats, events (a log that dropped 14 events)
#                  and a devices/ directory of a small model
#   truncated/     a snapshot cut off before its `end` (and its `done`)
#   badcount/      a snapshot whose `end` counts one device more than it has
#   inconsistent/  a snapshot whose bus record counts a device too many
#   nohist/        a stats file without probe_hist lines
#   removing/      a driver being unregistered (removing=1: off its bus's
#                  list, so not in the bus's drivers= count) still bound
#   afterend/      a device record after `end` (only match lines may be)
#   noprobe/       device records without per-device probe fields (a module
#                  before them) and a devices_deferred file
# Builds both programs (gcc -Wall -Wextra -O2; a warning fails) into a
# temporary directory. Output is TAP: "ok N - what" / "not ok N - what",
# then "1..N"; exit 0 only if all passed. scripts/check.sh runs it as the
# stage "dmctl".
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
T=$(mktemp -d /tmp/dmctl-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
unset DMCTL_ROOT
N=0 FAILED=0
ok() { N=$((N + 1)); echo "ok $N - $*"; }
notok() { N=$((N + 1)); FAILED=$((FAILED + 1)); echo "not ok $N - $*"; }
# check DESCRIPTION COND... -- ok when the command COND succeeds.
check() { local d=$1; shift; if "$@"; then ok "$d"; else notok "$d"; fi; }

CFLAGS="-Wall -Wextra -O2"
D=$T/dmctl J=$T/dmc-json-check
# shellcheck disable=SC2086
if gcc $CFLAGS -o "$D" "$ROOT"/tools/dmctl/*.c 2>"$T/warn" && [ ! -s "$T/warn" ]; then
	ok "dmctl builds with $CFLAGS and no warning"
else
	notok "dmctl builds with $CFLAGS and no warning: $(head -c 300 "$T/warn")"
fi
# shellcheck disable=SC2086
if gcc $CFLAGS -o "$J" "$ROOT/tests/tools/dmc-json-check.c" 2>"$T/warn" && [ ! -s "$T/warn" ]; then
	ok "dmc-json-check builds with $CFLAGS and no warning"
else
	notok "dmc-json-check builds with $CFLAGS and no warning: $(head -c 300 "$T/warn")"
fi
[ -x "$D" ] && [ -x "$J" ] || { echo "1..$N"; exit 1; }

B=$HERE/basic
# run ARGS... -- dmctl on the basic root: stdout in $T/out, stderr in
# $T/err, status in $RC.
run() { "$D" --root "$B" "$@" >"$T/out" 2>"$T/err"; RC=$?; }
lines() { wc -l <"$1" | tr -d ' '; }
# want_rc N DESCRIPTION -- the last run exited N; for N != 0, stderr is one
# line starting "dmctl: "; for N = 2 stdout is empty.
want_rc() {
	local n=$1 d=$2 why=''
	[ "$RC" = "$n" ] || why="exit $RC, want $n"
	if [ "$n" != 0 ] && [ -z "$why" ]; then
		[ "$(lines "$T/err")" = 1 ] || why="stderr has $(lines "$T/err") lines"
		grep -q '^dmctl: ' "$T/err" || why="stderr does not start with 'dmctl: '"
		[ "$n" != 2 ] || [ ! -s "$T/out" ] || why="a usage error printed to stdout"
	fi
	if [ -z "$why" ]; then ok "$d"; else notok "$d: $why ($(head -n1 "$T/err"))"; fi
}
# json EXPR -- the value at EXPR of the last run's output (JSON).
json() { "$J" -f "$T/out" "$@"; }
valid() { "$J" -f "$T/out" >/dev/null; }
# eq DESCRIPTION GOT WANT
eq() { if [ "$2" = "$3" ]; then ok "$1: $3"; else notok "$1: got '$2', want '$3'"; fi; }
first() { head -n1 "$T/out"; }

# --- help -------------------------------------------------------------
for a in --help -h help "help tree" "help monitor" "help graph" "help why" "help info" "help stats" \
	"tree --help" "monitor -h" "graph --help" "why --help" "info --help" "stats --help"; do
	# shellcheck disable=SC2086
	run $a
	if [ "$RC" = 0 ] && grep -q '^usage: dmctl' "$T/out" && [ ! -s "$T/err" ]; then
		ok "dmctl $a: exit 0 and a usage text"
	else
		notok "dmctl $a: exit $RC"
	fi
done
run --help
for c in tree monitor graph why info stats; do
	check "--help names the command $c" grep -q "^  $c" "$T/out"
done
run help monitor
for o in --subsystem-match --action --property --seqnum --count --timeout --json; do
	check "monitor's help documents $o" grep -q -- "$o" "$T/out"
done

# --- usage errors: exit 2, one line -----------------------------------
usage() {
	local d=$1; shift
	run "$@"
	want_rc 2 "usage error, $d: dmctl $*"
}
"$D" >"$T/out" 2>"$T/err"; RC=$?; want_rc 2 "usage error: no command"
usage "unknown command" frobnicate
usage "unknown global option" --frob tree
usage "--root without a directory" tree --root
usage "unknown option of tree" tree --frob
usage "two paths to tree" tree soc0 lab0
usage "unknown option of graph" graph --svg
usage "an argument to graph" graph soc0
usage "--dot with --json" graph --dot --json
usage "why without DEVICE" why
usage "info without DEVICE" info
usage "why with two devices" why soc0 lab0
usage "unknown option of why" why --all soc0
usage "unknown option of info" info -x soc0
usage "unknown option of stats" stats --frob
usage "an argument to stats" stats soc
usage "unknown option of monitor" monitor --frob
usage "monitor --count without a number" monitor --count
usage "monitor --count x" monitor --count x
usage "monitor --count 0" monitor --count 0
usage "monitor --seqnum -1" monitor --seqnum -1
usage "monitor --timeout 1.5" monitor --timeout 1.5
usage "monitor --seqnum= empty" monitor --seqnum=
usage "monitor --action without a value" monitor --action
usage "monitor --subsystem-match empty" monitor --subsystem-match ''
usage "help of an unknown command" help frobnicate

# --- failures: exit 1, one line naming what ----------------------------
run why nosuchdev; want_rc 1 "why of an unknown device"
check "the message names the device" grep -q nosuchdev "$T/err"
run info nosuchdev; want_rc 1 "info of an unknown device"
run tree nosuchdev; want_rc 1 "tree of an unknown device"
run why /devices/soc0/nosuch; want_rc 1 "why of an unknown DEVPATH"
run why port; want_rc 1 "why of an ambiguous name"
check "the ambiguity lists both candidates" \
	grep -q '/devices/soc0/uart0/port.*/devices/lab0/port' "$T/err"
"$D" --root "$T/none" tree >"$T/out" 2>"$T/err"; RC=$?
want_rc 1 "tree with a root that has no snapshot"
check "the message names the file" grep -q "$T/none/snapshot" "$T/err"
"$D" --root "$HERE/truncated" stats >"$T/out" 2>"$T/err"; RC=$?
want_rc 1 "stats with a root that has no stats file"
"$D" --root "$T/none" monitor --seqnum 1 >"$T/out" 2>"$T/err"; RC=$?
want_rc 1 "monitor with a root that has no events file"
for r in truncated badcount inconsistent; do
	for c in graph "graph --json" "graph --dot"; do
		# shellcheck disable=SC2086
		"$D" --root "$HERE/$r" $c >"$T/out" 2>"$T/err"; RC=$?
		want_rc 1 "$c refuses the $r snapshot"
	done
done
"$D" --root "$HERE/afterend" graph >"$T/out" 2>"$T/err"; RC=$?
want_rc 1 "graph refuses a device record after end"
"$D" --root "$HERE/removing" graph --json >"$T/out" 2>"$T/err"; RC=$?
want_rc 0 "graph takes a driver being removed (removing=1), not in its bus's count"
eq "graph: the removing driver is a node, bound to clk0" \
	"$(json .node_count) $("$J" -f "$T/out" --graph >/dev/null && echo consistent)" "23 consistent"
for c in tree "why uart0" "info uart0"; do
	# shellcheck disable=SC2086
	"$D" --root "$HERE/truncated" $c >"$T/out" 2>"$T/err"; RC=$?
	want_rc 1 "$c refuses the truncated snapshot"
done
# shellcheck disable=SC2016 # a literal backquote
check "the truncated snapshot's message says why" grep -q 'no `end` record' "$T/err"

# Every cut of the snapshot, at a line's end or in the middle of a line,
# the match lines after `end` included (the `done` line counts them):
# graph refuses it (exit 1), and never crashes.
size=$(wc -c <"$B/snapshot")
mkdir -p "$T/cut"
cuts=0 badcuts=''
for len in $(seq 1 7 "$((size - 1))") $(grep -b '' "$B/snapshot" | cut -d: -f1 | sed 1d); do
	head -c "$len" "$B/snapshot" >"$T/cut/snapshot"
	cuts=$((cuts + 1))
	"$D" --root "$T/cut" graph >/dev/null 2>&1
	rc=$?
	[ "$rc" = 1 ] || badcuts="$badcuts $len:$rc"
done
if [ -z "$badcuts" ] && [ "$cuts" -gt 100 ]; then
	ok "graph refuses each of $cuts cut-off snapshots"
else
	notok "graph refuses each of $cuts cut-off snapshots: length:status$badcuts"
fi

# --- root selection ------------------------------------------------------
DMCTL_ROOT=$B "$D" tree >"$T/out" 2>"$T/err"; RC=$?
want_rc 0 "DMCTL_ROOT selects the root"
DMCTL_ROOT=$T/none "$D" --root "$B" tree >"$T/out" 2>"$T/err"; RC=$?
want_rc 0 "--root wins over DMCTL_ROOT"
run tree --root="$B"; want_rc 0 "--root=DIR after the command"

# --- tree ------------------------------------------------------------------
run tree
want_rc 0 "tree"
eq "tree: one line per device and a header" "$(lines "$T/out")" 14
eq "tree: the header" "$(first)" "/devices  (generation 57, seqnum 20, 13 devices)"
check "tree: uart0 under soc0 with its bus, class, driver, power, runtime" \
	grep -qxF '|   |-- uart0  bus=soc class=tty driver=uartdrv power=on runtime=suspended' "$T/out"
check "tree: uart0's child drawn one level deeper, as the last" \
	grep -qxF '|   |   `-- port  bus=- class=tty driver=- power=on runtime=disabled' "$T/out"
check "tree: a class device without parent under its virtual path, last" \
	grep -qxF '`-- virtual/tty/ttyS0  bus=- class=tty driver=- power=on runtime=disabled' "$T/out"
check "tree: a name with a space, a backslash and a control byte, escaped" \
	grep -qF '`-- we"ird\x20na\x5cme\x01  bus=-' "$T/out"
for p in soc0 /devices/soc0 devices/soc0 "$B/devices/soc0" /devices/soc0/; do
	run tree "$p"
	if [ "$RC" = 0 ] && [ "$(lines "$T/out")" = 9 ] &&
		[ "$(first)" = "/devices/soc0  bus=- class=- driver=- power=on runtime=disabled" ]; then
		ok "tree $p: soc0's subtree (9 lines)"
	else
		notok "tree $p: exit $RC, $(lines "$T/out") lines, first: $(first)"
	fi
done
run tree lab0/port
eq "tree lab0/port: a tree path without devices/" "$(lines "$T/out")" 1
run tree --json
want_rc 0 "tree --json"
check "tree --json is valid JSON" valid
eq "tree --json: count" "$(json .count)" 13
eq "tree --json: roots" "$(json '.devices|length')" 4
eq "tree --json: generation" "$(json .generation)" 57
eq "tree --json: soc0's children" "$(json '.devices[2].children|length')" 7
eq "tree --json: uart0's driver" "$(json '.devices[2].children[4].driver')" uartdrv
eq "tree --json: no class is null" "$(json '.devices[2].class')" null
eq "tree --json: the odd name decoded and escaped" \
	"$(json '.devices[2].children[6].name' | od -An -c | tr -s ' ')" \
	"$(printf 'we"ird na\\me\001\n' | od -An -c | tr -s ' ')"
run tree uart0 --json
eq "tree uart0 --json: one root with one child" "$(json '.devices|length') $(json '.devices[0].children|length')" "1 1"

# --- graph -------------------------------------------------------------------
run graph
want_rc 0 "graph"
eq "graph: the summary" "$(first)" \
	"generation 57 seqnum 20: 22 nodes (13 devices, 3 buses, 5 drivers, 1 classes), 30 edges (2 links)"
eq "graph: node lines" "$(grep -c '^node ' "$T/out")" 22
eq "graph: edge lines" "$(grep -c '^edge ' "$T/out")" 30
for k in "parent 9" "bus 14" "bound 2" "class 3" "link 2"; do
	# shellcheck disable=SC2086 # two words
	set -- $k
	eq "graph: $1 edges" "$(grep -c "^edge $1 " "$T/out")" "$2"
done
check "graph: the supplier -> consumer link edge" \
	grep -qxF 'edge link device:/devices/soc0/clk0 -> device:/devices/soc0/uart0 active' "$T/out"
run graph --json
want_rc 0 "graph --json"
check "graph --json: valid, every edge's ends are nodes, counts match" "$J" --graph -f "$T/out"
eq "graph --json: node_count" "$(json .node_count)" 22
eq "graph --json: edge_count" "$(json .edge_count)" 30
eq "graph --json: nodes" "$(json '.nodes|length')" 22
eq "graph --json: edges" "$(json '.edges|length')" 30
eq "graph --json: generation and seqnum" "$(json .generation) $(json .seqnum)" "57 20"
eq "graph --json: links" "$(json .counts.links)" 2
run --json graph
eq "--json before the command" "$(json .node_count)" 22
run graph --dot
want_rc 0 "graph --dot"
eq "graph --dot: the first line" "$(first)" "digraph dmcore {"
eq "graph --dot: node statements" "$(grep -c '\[shape=' "$T/out")" 22
eq "graph --dot: edge statements" "$(grep -c ' -> ' "$T/out")" 30
eq "graph --dot: the last line" "$(tail -n1 "$T/out")" "}"
if command -v dot >/dev/null; then
	if dot -Tsvg "$T/out" >"$T/g.svg" 2>"$T/doterr" && grep -q '<svg' "$T/g.svg" &&
		[ "$(grep -c 'class="node"' "$T/g.svg")" = 22 ] &&
		[ "$(grep -c 'class="edge"' "$T/g.svg")" = 30 ]; then
		ok "graph --dot renders with dot -Tsvg: 22 nodes, 30 edges"
	else
		notok "graph --dot renders with dot -Tsvg: $(head -c 200 "$T/doterr")"
	fi
else
	ok "graph --dot renders with dot -Tsvg # SKIP no graphviz (apt-get install graphviz)"
fi

# --- why -----------------------------------------------------------------------
verdict() {
	local dev=$1 want=$2
	run why "$dev"
	if [ "$RC" = 0 ] && [ "$(first)" = "$want" ]; then
		ok "why $dev: $want"
	else
		notok "why $dev: exit $RC, first line '$(first)', want '$want'"
	fi
}
verdict uart0 "uart0: bound to driver uartdrv (bus soc); its probe took 2.500 ms"
verdict broken0 "broken0: not bound: its last probe failed with ENODEV (errno 19)"
verdict waiter0 "waiter0: not bound: its probe was deferred, waiting for pwr0 (reason: supply pwr0 not ready)"
verdict lonely0 "lonely0: not bound: no driver of bus soc matches it (4 driver(s) tried)"
verdict ovr0 "ovr0: not bound: driver_override is nosuchdrv, and bus soc has no driver of that name"
verdict lab0 "lab0: not bound: autoprobe is off on bus lab (write its name to bus/lab/drivers_probe)"
verdict empty0 "empty0: not bound: bus empty has no driver at all"
verdict soc0 "soc0: not bound: it is on no bus (only a device on a bus is bound to a driver)"
run why waiter0
check "why waiter0: its unbound supplier" \
	grep -qxF '  supplier:   /devices/soc0/lonely0 (link dormant): NOT bound' "$T/out"
check "why waiter0: the deferral" grep -qxF '  deferral:   waits for pwr0; reason: supply pwr0 not ready' "$T/out"
run why broken0
check "why broken0: each driver's match result" grep -qE '^    faildrv +matches$' "$T/out"
check "why broken0: a driver that does not match" grep -qE '^    clkdrv +does not match$' "$T/out"
check "why broken0: the errno named" grep -qF 'errno 19 (ENODEV)' "$T/out"
run why lab0
check "why lab0: drivers_autoprobe=0" grep -qF 'drivers_autoprobe=0' "$T/out"
run why --json broken0
check "why --json is valid JSON" valid
eq "why --json: bound" "$(json .bound)" false
eq "why --json: errno_name" "$(json .probe.errno_name)" ENODEV
eq "why --json: drivers" "$(json '.drivers|length')" 4
eq "why --json: faildrv matches" "$(json '.drivers[2].name') $(json '.drivers[2].match')" "faildrv true"
run why waiter0 --json
eq "why --json: waits" "$(json .deferral.waits)" pwr0
eq "why --json: the unbound supplier" "$(json '.suppliers[0].path') $(json '.suppliers[0].bound')" \
	"/devices/soc0/lonely0 false"
run why --json uart0
eq "why --json uart0: bound to" "$(json .bound) $(json .driver) $(json .probe.probe_ns)" "true uartdrv 2500000"

# No match lines for a device: the snapshot skipped it (its lock was held,
# a probe under way).
mkdir -p "$T/nomatch"
grep -v '^match /devices/soc0/lonely0 \|^done ' "$B/snapshot" >"$T/nomatch/snapshot"
echo "done matches=$(grep -c '^match ' "$T/nomatch/snapshot")" >>"$T/nomatch/snapshot"
"$D" --root "$T/nomatch" why lonely0 >"$T/out" 2>"$T/err"; RC=$?
eq "why without match records: a probe under way" "$RC $(first)" \
	"0 lonely0: not bound: the snapshot has no match records for it (a probe was under way when it was taken: ask again)"

# A module without per-device probe records: devices_deferred says it.
"$D" --root "$HERE/noprobe" why waiter0 >"$T/out" 2>"$T/err"; RC=$?
eq "why without probe records: devices_deferred's deferral" "$RC $(first)" \
	"0 waiter0: not bound: its probe was deferred, waiting for pwr0 (reason: supply pwr0 not ready)"
"$D" --root "$HERE/noprobe" why broken0 >"$T/out" 2>"$T/err"; RC=$?
eq "why without probe records: a matching driver did not bind it" "$RC $(first)" \
	"0 broken0: not bound: it matches faildrv, and no probe bound it (this snapshot has no probe results)"
"$D" --root "$HERE/noprobe" why uart0 >"$T/out" 2>"$T/err"; RC=$?
eq "why without probe records: bound" "$RC $(first)" "0 uart0: bound to driver uartdrv (bus soc)"
"$D" --root "$HERE/noprobe" --json why broken0 >"$T/out" 2>"$T/err"; RC=$?
check "why --json without probe records: valid JSON" valid

# --- info -----------------------------------------------------------------------
run info uart0
want_rc 0 "info uart0"
eq "info: the DEVPATH first" "$(first)" /devices/soc0/uart0
eq "info: every field of the record" "$(grep -c '^    [a-z_]*=' "$T/out")" 18
check "info: an unknown key of a newer module kept" grep -qxF '    future_key=ignored' "$T/out"
check "info: an attribute file" grep -qxF '    baud = 9600' "$T/out"
check "info: uevent's lines" grep -qxF '      MODALIAS=soc:uart0' "$T/out"
check "info: the driver link" grep -qxF '    driver -> ../../../bus/soc/drivers/uartdrv' "$T/out"
check "info: a subdirectory named, not read" grep -qxF '    power/' "$T/out"
run info /devices/soc0/uart0 --json
check "info --json is valid JSON" valid
eq "info --json: record fields" "$(json '.record|length')" 18
eq "info --json: baud" "$(json .files.baud)" 9600
eq "info --json: uevent lines" "$(json .files.uevent | wc -l)" 3
eq "info --json: the driver link" "$(json .links.driver)" ../../../bus/soc/drivers/uartdrv
eq "info --json: directories" "$(json '.directories|length')" 2
cp -r "$B" "$T/ro"
chmod 000 "$T/ro/devices/soc0/uart0/baud"
if [ "$(id -u)" != 0 ]; then
	"$D" --root "$T/ro" info uart0 >"$T/out" 2>"$T/err"; RC=$?
	check "info: an unreadable file says why" grep -qF 'baud: (not readable: Permission denied)' "$T/out"
else
	ok "info: an unreadable file says why # SKIP running as root"
fi
rm -rf "$T/ro/devices/soc0/uart0"
"$D" --root "$T/ro" info uart0 >"$T/out" 2>"$T/err"; RC=$?
want_rc 0 "info of a device whose directory is gone"
check "info: the missing directory said" grep -qF 'No such file or directory' "$T/out"

# --- stats ------------------------------------------------------------------------
run stats
want_rc 0 "stats"
check "stats: the stats lines" grep -qE '^last_seqnum +20$' "$T/out"
check "stats: a row per driver" grep -qE '^  soc +uartdrv +100 +100 +0 +0 +20072\.0 +<32us +<1024us$' "$T/out"
check "stats: a driver without probes, its name as escaped" \
	grep -qE '^  lab +lab\\x20drv\\x5c +0 +0 +0 +0 +- +- +-$' "$T/out"
check "stats: uartdrv's histogram: 90 probes in [16, 32) us" \
	grep -qE '^    \[ +16, +32\) us +90 #{40}$' "$T/out"
check "stats: the last bucket is open" grep -qE '^    \[ +1048576, +inf\) us +1 #$' "$T/out"
run stats --json
check "stats --json is valid JSON" valid
eq "stats --json: last_seqnum" "$(json .stats.last_seqnum)" 20
eq "stats --json: bounds" "$(json '.probe_hist_bounds_us|length')" 22
eq "stats --json: inf is null" "$(json '.probe_hist_bounds_us[21]')" null
eq "stats --json: drivers" "$(json '.probe_hist|length')" 5
eq "stats --json: uartdrv p50, p99" "$(json '.probe_hist[1].p50_below_us') $(json '.probe_hist[1].p99_below_us')" "32 1024"
eq "stats --json: deferdrv deferred" "$(json '.probe_hist[3].deferred')" 3
eq "stats --json: an escaped driver name decoded" "$(json '.probe_hist[4].driver')" "lab drv\\"

"$D" --root "$HERE/nohist" stats >"$T/out" 2>"$T/err"; RC=$?
want_rc 0 "stats without probe_hist lines"
check "stats: says there are no probe_hist lines" grep -q 'no probe_hist lines' "$T/out"

# --- monitor ---------------------------------------------------------------------------
mon() {
	local d=$1 want=$2; shift 2
	run monitor "$@"
	if [ "$RC" = 0 ] && [ "$(cut -d' ' -f2 "$T/out" | tr -d '[]' | tr '\n' ' ')" = "$want" ]; then
		ok "monitor $*: $d: $want"
	else
		notok "monitor $*: $d: exit $RC, got '$(cut -d' ' -f2 "$T/out" | tr -d '[]' | tr '\n' ' ')', want '$want'"
	fi
}
mon "from now on (stats' last_seqnum 20)" "21 22 23 24 "
mon "from 18" "18 19 20 21 22 23 24 " --seqnum 18
mon "bind only" "17 22 " --seqnum 15 --action bind
mon "two actions" "17 22 24 " --seqnum 15 --action bind --action remove
mon "tty only" "18 23 " --seqnum 15 --subsystem-match tty
mon "soc or tty, and add" "15 16 18 23 " --seqnum=15 --subsystem-match soc --subsystem-match=tty --action add
mon "subsystem/devtype" "16 17 20 " --seqnum 15 --subsystem-match soc/uart
mon "a devtype no event has" "" --seqnum 15 --subsystem-match soc/nope
mon "--count 2" "21 22 " --count 2
run monitor --seqnum 18
eq "monitor: the udevadm-like line" "$(first)" "DMCORE [18] add /devices/soc0/uart0/port (tty)"
run monitor --seqnum 10
eq "monitor --seqnum 10: the events the log lost" "$(first)" \
	"MISSED 5 (seqnum 10..14 are no longer in the event log)"
eq "monitor --seqnum 10: then every event the log has" "$(lines "$T/out")" 11
run monitor --seqnum 15
check "monitor --seqnum 15: nothing missed" sh -c "! grep -q MISSED '$T/out'"
run monitor --seqnum 22 --count 1 --property
eq "monitor --property: the header and every variable" "$(tr '\n' '|' <"$T/out")" \
	"DMCORE [22] bind /devices/soc0/clk0 (soc)|ACTION=bind|DEVPATH=/devices/soc0/clk0|SUBSYSTEM=soc|SEQNUM=22|DRIVER=clkdrv|NOTE=a\"b\\c	tab||"
run monitor --seqnum 10 --json
check "monitor --json: one valid JSON document per line" "$J" --lines -f "$T/out"
eq "monitor --json: 11 lines" "$(lines "$T/out")" 11
eq "monitor --json: the missed record" "$(head -n1 "$T/out" | "$J" .missed .first .last | tr '\n' ' ')" "5 10 14 "
eq "monitor --json: an escaped property" "$(sed -n 9p "$T/out" | "$J" .properties.NOTE)" "$(printf 'a"b\\c\ttab')"
eq "monitor --json: seqnum" "$(sed -n 9p "$T/out" | "$J" .seqnum)" 22

# A live log: a FIFO that a writer holds open. --timeout ends a wait with
# nothing to read; --count ends as soon as its events came, while the
# writer still holds the FIFO (the reader does not wait for the end).
L=$T/live
mkdir -p "$L"
cp "$B/stats" "$L/stats"
mkfifo "$L/events"
(sleep 6) >"$L/events" &
wpid=$!
s0=$(date +%s%N)
"$D" --root "$L" monitor --timeout 1 >"$T/out" 2>"$T/err"; RC=$?
s1=$(date +%s%N)
ms=$(((s1 - s0) / 1000000))
if [ "$RC" = 0 ] && [ ! -s "$T/out" ] && [ "$ms" -ge 900 ] && [ "$ms" -lt 4000 ]; then
	ok "monitor --timeout 1 on a silent log: exit 0 after ${ms} ms"
else
	notok "monitor --timeout 1 on a silent log: exit $RC after ${ms} ms"
fi
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
(printf 'SEQNUM=21 ACTION=add DEVPATH=/devices/a SUBSYSTEM=soc\n\n'; sleep 0.3
 printf 'SEQNUM=22 ACTION=bind DEVPATH=/devices/a SUBSYSTEM=soc\nDRIVER=d\n\n'; sleep 6) >"$L/events" &
wpid=$!
s0=$(date +%s%N)
"$D" --root "$L" monitor --count 2 --timeout 20 >"$T/out" 2>"$T/err"; RC=$?
s1=$(date +%s%N)
ms=$(((s1 - s0) / 1000000))
if [ "$RC" = 0 ] && [ "$(lines "$T/out")" = 2 ] && [ "$ms" -lt 4000 ]; then
	ok "monitor --count 2 on a live log: 2 events, done after ${ms} ms"
else
	notok "monitor --count 2 on a live log: exit $RC, $(lines "$T/out") lines after ${ms} ms"
fi
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
# Output is flushed per event: a reader of a pipe sees the first event
# while the monitor still waits for the second.
(printf 'SEQNUM=21 ACTION=add DEVPATH=/devices/a SUBSYSTEM=soc\n\n'; sleep 4) >"$L/events" &
wpid=$!
"$D" --root "$L" monitor --timeout 3 | { IFS= read -r first_line; echo "$first_line" >"$T/out"; cat >/dev/null; } &
mpid=$!
sleep 1.5
eq "monitor: an event is printed before the monitor ends (flushed)" "$(cat "$T/out" 2>/dev/null)" \
	"DMCORE [21] add /devices/a (soc)"
wait "$mpid" 2>/dev/null
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null

# --- --json everywhere -----------------------------------------------------------------
for c in tree "tree soc0" graph "why uart0" "why soc0" "why lab0" "info uart0" "info soc0" stats; do
	# shellcheck disable=SC2086
	run --json $c
	if [ "$RC" = 0 ] && "$J" -f "$T/out" . >/dev/null 2>"$T/jerr"; then
		ok "dmctl --json $c: valid JSON"
	else
		notok "dmctl --json $c: exit $RC; $(cat "$T/jerr")"
	fi
done

# --- the JSON checker itself -------------------------------------------------------------
bad() {
	if printf '%s' "$2" | "$J" >/dev/null 2>&1; then notok "dmc-json-check rejects $1"; else ok "dmc-json-check rejects $1"; fi
}
good() {
	if printf '%s' "$2" | "$J" >/dev/null 2>&1; then ok "dmc-json-check accepts $1"; else notok "dmc-json-check accepts $1"; fi
}
good "a nested document" '{"a": [1, -2.5e3, true, false, null, "x\u00e9\"\\\/\ud83d\ude00"], "b": {}}'
good "a scalar" ' 0 '
bad "a trailing comma" '{"a": 1,}'
bad "a leading zero" '[01]'
bad "a bare decimal point" '[1.]'
bad "single quotes" "{'a': 1}"
bad "an unknown escape" '["\q"]'
bad "a raw control byte in a string" "$(printf '["a\tb"]')"
bad "a lone surrogate" '["\ud800"]'
bad "invalid UTF-8" "$(printf '["\xff"]')"
bad "two values" '{} {}'
bad "an unclosed array" '[1, 2'
bad "an empty input" ''
bad "a non-string key" '{1: 2}'
eq "dmc-json-check: a path" "$(printf '{"a": [{"b": 7}]}' | "$J" '.a[0].b')" 7
eq "dmc-json-check: length" "$(printf '{"a": [1, 2, 3]}' | "$J" '.a|length')" 3
if printf '{"a": 1}' | "$J" .b >/dev/null 2>&1; then notok "dmc-json-check: a missing path fails"; else ok "dmc-json-check: a missing path fails"; fi
g='{"node_count": 2, "edge_count": 1, "nodes": [{"id": "a"}, {"id": "b"}], "edges": [{"from": "a", "to": "b"}]}'
good "a consistent graph" "$g"
if printf '%s' "$g" | "$J" --graph >/dev/null 2>&1; then ok "dmc-json-check --graph accepts a consistent graph"; else notok "dmc-json-check --graph accepts a consistent graph"; fi
for g in '{"node_count": 2, "edge_count": 1, "nodes": [{"id": "a"}, {"id": "b"}], "edges": [{"from": "a", "to": "c"}]}' \
	'{"node_count": 3, "edge_count": 1, "nodes": [{"id": "a"}, {"id": "b"}], "edges": [{"from": "a", "to": "b"}]}' \
	'{"node_count": 2, "edge_count": 0, "nodes": [{"id": "a"}, {"id": "a"}], "edges": []}'; do
	if printf '%s' "$g" | "$J" --graph >/dev/null 2>&1; then
		notok "dmc-json-check --graph rejects $g"
	else
		ok "dmc-json-check --graph rejects a bad graph ($(printf '%s' "$g" | "$J" --graph 2>&1 | sed 's/.*graph: //'))"
	fi
done

echo "1..$N"
[ "$FAILED" = 0 ]
