# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Helpers for guest scripts (busybox sh). vm.sh puts this file into every
# initramfs as /dmc/lib.sh; a script loads it with
#     . "$DMC_LIB"
#
# Guest environment (set by /init): DMC_KERNEL (debug|release|stock),
# DMC_MODDIR (/lib/dmcore, the built .ko files), DMC_FILES (/dmc/files, from
# vm.sh --add), DMC_SCRIPT_TIMEOUT, and any vm.sh --env NAME=VALUE.

# shellcheck disable=SC2034 # used by the scripts that source this file
DMC_DEBUGFS=/sys/kernel/debug
# shellcheck disable=SC2034
DMC_DIR=$DMC_DEBUGFS/dmcore
DMC_KMEMLEAK=$DMC_DEBUGFS/kmemleak

# dmc_rmmod -- unload dmcore. The tree (the filesystem "dmcore", mounted
# automatically at $DMC_DIR when first used) holds the module while it is
# mounted, so unmount it first; with a file of the tree open the umount
# is refused, and so is the rmmod.
dmc_rmmod() {
	umount "$DMC_DIR" 2>/dev/null
	rmmod dmcore 2>/dev/null && return 0
	# An automount the expiry worker took down is freed a tick later
	# (a kernel thread's last mntput is deferred): once more.
	sleep 0.3
	rmmod dmcore
}

# dmc_heading TEXT -- a section heading for people reading the output.
dmc_heading() {
	echo
	echo "=== $* ==="
}

# dmc_say TEXT... -- explanatory prose, wrapped as given.
dmc_say() {
	for l in "$@"; do echo "  $l"; done
}

# dmc_run CMD... -- show a command, then run it (its status is returned).
dmc_run() {
	echo "# $*"
	"$@"
}

# dmc_tree DIR [MAXBYTES] -- print DIR as a tree: directories end in "/",
# symlinks show "name -> target", regular files show their contents inline
# (one line: "name = value"; several: indented below the name) when they
# hold at most MAXBYTES bytes (default 400), else the first lines and a
# note. Reads are bounded in time, so a blocking file cannot hang the
# script.
dmc_tree() {
	_dt_max=${2:-400}
	if [ ! -d "$1" ]; then
		echo "$1: no such directory"
		return 1
	fi
	echo "$1/"
	_dmc_tree "$1" ""
}

_dmc_tree() {
	local dir=$1 prefix=$2 e name n i conn sub
	n=0
	for e in "$dir"/*; do [ -e "$e" ] || [ -L "$e" ] && n=$((n + 1)); done
	i=0
	for e in "$dir"/*; do
		[ -e "$e" ] || [ -L "$e" ] || continue
		i=$((i + 1))
		name=${e##*/}
		if [ $i -eq $n ]; then conn='`-- '; sub="$prefix    "; else conn='|-- '; sub="$prefix|   "; fi
		if [ -L "$e" ]; then
			echo "$prefix$conn$name -> $(readlink "$e")"
		elif [ -d "$e" ]; then
			echo "$prefix$conn$name/"
			_dmc_tree "$e" "$sub"
		else
			_dmc_file "$e" "$prefix$conn$name" "$sub"
		fi
	done
}

# _dmc_file FILE LABEL PREFIX -- one file of the tree with its contents.
_dmc_file() {
	local f=$1 label=$2 prefix=$3 perm content lines
	perm=$(stat -c %A "$f" 2>/dev/null)
	case "$perm" in
	?r*) ;;
	*) echo "$label  (write-only)"; return 0 ;;
	esac
	# debugfs reports size 0 for everything: read a bounded prefix.
	if ! content=$(timeout 2 head -c $((_dt_max + 1)) "$f" 2>&1); then
		echo "$label  (read failed: ${content##*: })"
		return 0
	fi
	if [ -z "$content" ]; then
		echo "$label  (empty)"
		return 0
	fi
	if printf '%s' "$content" | grep -q '[^[:print:][:space:]]'; then
		echo "$label  (binary data)"
		return 0
	fi
	lines=$(printf '%s\n' "$content" | wc -l)
	if [ "$lines" -eq 1 ] && [ ${#content} -le 60 ] && [ ${#content} -le "$_dt_max" ]; then
		echo "$label = $content"
		return 0
	fi
	echo "$label:"
	printf '%s\n' "$content" | head -c "$_dt_max" | head -n 20 | sed "s/^/$prefix  | /"
	if [ ${#content} -gt "$_dt_max" ] || [ "$lines" -gt 20 ]; then
		echo "$prefix  | ... (longer; cat $f)"
	fi
}

# dmc_kmemleak_clear -- forget everything kmemleak suspects so far (boot
# noise), so a later report shows only what happened after this point.
dmc_kmemleak_clear() {
	[ -w "$DMC_KMEMLEAK" ] || { echo "kmemleak: not available"; return 1; }
	echo scan >"$DMC_KMEMLEAK"
	echo clear >"$DMC_KMEMLEAK"
}

# dmc_kmemleak_report -- scan twice, 6 s apart (kmemleak reports only
# objects older than 5 s), then print the report framed by
# DMC-KMEMLEAK-BEGIN / DMC-KMEMLEAK-END (empty between them = no leak).
dmc_kmemleak_report() {
	[ -w "$DMC_KMEMLEAK" ] || { echo "kmemleak: not available"; return 1; }
	echo scan >"$DMC_KMEMLEAK"
	sleep 6
	echo scan >"$DMC_KMEMLEAK"
	echo "DMC-KMEMLEAK-BEGIN"
	cat "$DMC_KMEMLEAK"
	echo "DMC-KMEMLEAK-END"
}

# dmc_loaded MODULE -- true when MODULE is in /proc/modules.
dmc_loaded() {
	grep -q "^$1 " /proc/modules
}

# dmc_qmp JSON -- have the host send one QMP command to QEMU (vm.sh --qmp).
# Prints "DMC-QMP <id> <JSON>" straight to the script channel (/dev/ttyS1,
# whatever the caller's stdout is), with an id that increases across the
# whole guest run (kept in /tmp/.dmc-qmp-id, so subshells count too); vm.sh
# sends each id's command once, in order, and logs QEMU's reply on the
# host's stderr. The guest never sees the reply: poll for the effect, e.g.
# with dmc_wait_path. JSON must be one line, e.g.
#   dmc_qmp '{"execute":"device_del","arguments":{"id":"hp1"}}'
# Returns 2 (and prints why) when vm.sh was not started with --qmp.
dmc_qmp() {
	local id out=/dev/ttyS1
	if [ "${DMC_QMP:-0}" != 1 ]; then
		echo "dmc_qmp: vm.sh was not started with --qmp; not sent: $1"
		return 2
	fi
	case "$1" in
	*'
'*) echo "dmc_qmp: the command must be one line"; return 2 ;;
	esac
	id=$(cat /tmp/.dmc-qmp-id 2>/dev/null)
	id=$((${id:-0} + 1))
	echo "$id" >/tmp/.dmc-qmp-id
	[ "${DMC_INTERACTIVE:-0}" != 1 ] && [ -c "$out" ] || out=/dev/stdout
	printf 'DMC-QMP %s %s\n' "$id" "$1" >"$out"
}

# dmc_wait_path PATH [present|absent] [TIMEOUT_S] -- poll (every 0.1 s)
# until PATH exists (present, the default; a dangling symlink counts) or is
# gone (absent), at most TIMEOUT_S seconds (default 10, whole seconds).
# Returns 0 when reached, 1 on timeout, 2 on bad arguments. Sets
# DMC_WAIT_MS to the milliseconds it waited (resolution 10 ms).
dmc_wait_path() {
	local path=$1 want=${2:-present} limit=${3:-10} t0 now
	case "$want" in present|absent) ;; *) echo "dmc_wait_path: present|absent, not '$want'"; return 2 ;; esac
	case "$limit" in ''|*[!0-9]*) echo "dmc_wait_path: bad timeout '$limit'"; return 2 ;; esac
	t0=$(_dmc_uptime_cs)
	while :; do
		now=$(_dmc_uptime_cs)
		DMC_WAIT_MS=$(((now - t0) * 10))
		if [ -e "$path" ] || [ -L "$path" ]; then
			[ "$want" = present ] && return 0
		else
			[ "$want" = absent ] && return 0
		fi
		[ $((now - t0)) -lt $((limit * 100)) ] || return 1
		sleep 0.1
	done
}

# _dmc_uptime_cs -- /proc/uptime in hundredths of a second.
_dmc_uptime_cs() {
	local up
	read -r up _ </proc/uptime
	# "123.45": seconds, then exactly two digits (1xx - 100 avoids octal)
	echo $((${up%.*} * 100 + 1${up#*.} - 100))
}

# TAP for integration scripts (check.sh counts each result line):
#   ok TEXT, notok TEXT     one result
#   check TEXT COMMAND...   ok when COMMAND succeeds; else not ok, followed
#                           by COMMAND's output as "# " comment lines
#   tap_end                 print the plan "1..N"; false if anything failed
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() {
	_dmc_what=$1
	shift
	if "$@" >/tmp/.dmc-check.out 2>&1; then
		ok "$_dmc_what"
	else
		notok "$_dmc_what"
		sed 's/^/# /' /tmp/.dmc-check.out
	fi
}
tap_end() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
}
