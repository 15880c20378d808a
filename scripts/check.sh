#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh -- everything `make check` (and so CI) runs, in stages:
#
#   deps           apt packages for all that follows
#   debug-kernel   the cached debug test kernel (built on first use)
#   debug-modules  dmcore.ko and dmcore_kunit.ko for it (build-modules.sh)
#   lint           checkpatch, sparse, W=1, layers (lint.sh): four checks
#   dmctl          the command-line tool tools/dmctl against fixture roots
#                  on the host (tests/dmctl/run.sh): each TAP line a check
#   kunit          the KUnit suites in a debug-kernel guest (vm.sh +
#                  tests/guest/kunit.sh), kmemleak, kernel log scan
#   kunit-delayed  the same with dmcore.ko's release_delay_ms=20: every
#                  kobject release runs 20 ms after its last put
#   integration    every other tests/guest/*.sh (TAP scripts) in its own
#                  debug-kernel guest: each TAP line, then unload, kmemleak,
#                  kernel log scan, clean-exit line
#   stock          dmcore.ko built against Debian's stock headers, loaded
#                  and unloaded in a stock-kernel guest, kernel log scan;
#                  the tracepoints (tests/guest/trace.sh) and the bridge there
#                  (tests/guest/stock-bridge.sh: with dmctl's tree against
#                  real sysfs)
#
# Each stage prints "== stage: NAME ==", its checks ("PASS|FAIL|SKIP  what")
# and "-- NAME: RESULT (time; counts)". A stage that cannot run because one
# it needs failed is BLOCKED and counts as failed. The end is a per-stage
# table and, as the very last line, "N passed, N failed" (", N skipped"
# when some were).
#
# What counts as one test: every KUnit case (a parameterised case is one
# test, whatever its number of parameters; "# SKIP" = skipped; a case the
# plan announces but whose result line is missing = failed), and each of
# these checks: deps, kernel build, each module build, each lint check,
# each TAP line of an integration script (plus one failure per result a
# plan announces but is missing, or for a missing plan),
# each guest run's exit status, each kmemleak report, each kernel-log scan
# (clean = 1 passed; dirty = 1 failed per kind of problem found), each
# clean-exit line ("dmcore: unloaded, 0 objects leaked").
#
# Logs: .build/logs/ (the kernel console and script output of every guest
# run, build and lint logs); their paths are printed on failure.
# Environment: DMC_KUNIT_TIMEOUT (default 1500 s per KUnit run: the
# suites take about a minute on an idle host, but a busy one slowed a
# run tenfold once),
# DMC_RELEASE_DELAY_MS (20, for kunit-delayed), DMC_INTEGRATION_TIMEOUT
# (600 s per script), DMC_STOCK_TIMEOUT (300 s).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
DMC_STAGE=check

LOGS="$DMC_BUILD/logs"
rm -rf "$LOGS"
mkdir -p "$LOGS"
KUNIT_TIMEOUT=${DMC_KUNIT_TIMEOUT:-1500}
RELEASE_DELAY_MS=${DMC_RELEASE_DELAY_MS:-20}
STOCK_TIMEOUT=${DMC_STOCK_TIMEOUT:-300}
INTEGRATION_TIMEOUT=${DMC_INTEGRATION_TIMEOUT:-600}

T_PASS=0 T_FAIL=0 T_SKIP=0
S_PASS=0 S_FAIL=0 S_SKIP=0
ROWS=()
declare -A STAGE_OK=()
FAIL_LOGS=()
FIRST_FAILS=()
NOTES=()

pass() { echo "  PASS  $*"; S_PASS=$((S_PASS + 1)); }
fail() {
	echo "  FAIL  $*"
	S_FAIL=$((S_FAIL + 1))
	[ ${#FIRST_FAILS[@]} -ge 20 ] || FIRST_FAILS+=("$*")
}
skip() { echo "  SKIP  $*"; S_SKIP=$((S_SKIP + 1)); }
indent() { sed 's/^/        /'; }
# show FILE [N] -- the first N lines of FILE, indented, noting the rest.
show() {
	local n=${2:-60} total
	total=$(wc -l <"$1")
	head -n "$n" "$1" | indent
	[ "$total" -le "$n" ] || echo "        ... ($((total - n)) more lines in $1)"
}
faillog() { FAIL_LOGS+=("$@"); }
rel() { echo "${1#"$DMC_ROOT"/}"; }

# stage NAME "DEPS..." FUNC [N] -- run FUNC as stage NAME unless a stage
# in DEPS failed; a blocked stage counts N (default 1) failed checks.
stage() {
	local name=$1 deps=$2 func=$3 nblocked=${4:-1} d blocked='' start secs result i
	echo
	echo "== stage: $name =="
	S_PASS=0 S_FAIL=0 S_SKIP=0
	start=$(date +%s)
	for d in $deps; do
		[ "${STAGE_OK[$d]:-0}" = 1 ] || blocked="$blocked $d"
	done
	if [ -n "$blocked" ]; then
		for ((i = 0; i < nblocked; i++)); do
			fail "$name: not run, it needs stage(s)$blocked"
		done
		result=BLOCKED
	else
		"$func"
		if [ $S_FAIL -eq 0 ]; then result=PASS; else result=FAIL; fi
	fi
	secs=$(($(date +%s) - start))
	[ "$result" = PASS ] && STAGE_OK[$name]=1
	echo "-- $name: $result (${secs}s; $S_PASS passed, $S_FAIL failed, $S_SKIP skipped)"
	ROWS+=("$(printf '%-14s %-8s %6ss %7s %7s %8s' "$name" "$result" "$secs" "$S_PASS" "$S_FAIL" "$S_SKIP")")
	T_PASS=$((T_PASS + S_PASS)) T_FAIL=$((T_FAIL + S_FAIL)) T_SKIP=$((T_SKIP + S_SKIP))
}

# ---------------------------------------------------------------------------
# Kernel log checks, used after every guest run.

# Patterns that must not appear in a kernel console log: "name|ERE".
SCAN_PATTERNS=(
	'BUG:|BUG:'
	'KASAN|KASAN'
	'WARNING:|WARNING:'
	'possible circular locking|possible circular locking'
	'possible recursive locking|possible recursive locking'
	'inconsistent lock state|inconsistent lock state'
	'lockdep (other)|DEBUG_LOCKS_WARN_ON|lockdep is turned off|suspicious RCU usage|possible irq lock inversion'
	'ODEBUG|ODEBUG'
	'list_add corruption|list_add corruption'
	'list_del corruption|list_del corruption'
	'Kernel panic|Kernel panic'
	'Oops|Oops'
	'general protection fault|general protection fault'
	'slab corruption|BUG [^ ]+ \((Not t|T)ainted'
	'hung task|blocked for more than [0-9]+ seconds'
	'stack dump|Call Trace:'
	'kmemleak report|unreferenced object'
	'dmcore: LEAK|dmcore: LEAK'
)

# Expected warnings: KUnit cases that test misuse make the core WARN on
# purpose and frame that with DMC-EXPECT-WARN-BEGIN / DMC-EXPECT-WARN-END
# in the kernel log (kunit/test_util.h). Inside such a region (which also
# ends at the next KUnit case result line, should END never come) the
# generic WARN splat is allowed: the 'WARNING:' and 'stack dump' patterns
# skip it. Every other pattern (KASAN, lockdep, BUG:, list corruption,
# ODEBUG, ...) still counts there.
EXPECTED_OK_PATTERNS="WARNING: stack dump"

# unexpected_only FILE -- FILE with the lines of expected-WARN regions
# blanked (line numbers kept).
unexpected_only() {
	awk '{ l = $0; sub(/^\[ *[0-9]+\.[0-9]+\] /, "", l) }
		l ~ /^DMC-EXPECT-WARN-BEGIN/ { on = 1; print ""; next }
		l ~ /^DMC-EXPECT-WARN-END/ { on = 0; print ""; next }
		on && l ~ /^ *(not )?ok [0-9]+ / { on = 0 }
		{ print on ? "" : $0 }' "$1"
}

# allowed_splats_blanked FILE REGEX -- FILE with each lockdep-style splat
# (from its "=====" rule to the end of its call trace, "</TASK>") blanked
# when the splat matches REGEX and names nothing of dmcore ("dmc"): a known
# report of the kernel's own code that a guest script declared with a line
# "# dmc-allow-kernel-splat: REGEX" (see tests/guest/bridge-hotplug.sh).
# Prints the number of splats blanked on stderr.
allowed_splats_blanked() {
	awk -v re="$2" '
		function flush(   i, ok) {
			ok = (blk ~ re) && (blk !~ /dmc/)
			for (i = 1; i <= nb; i++) print ok ? "" : buf[i]
			if (ok) allowed++
			nb = 0; blk = ""; on = 0
		}
		{ l = $0; sub(/^\[ *[0-9]+\.[0-9]+\] /, "", l) }
		!on && l ~ /^=+$/ { on = 1 }
		on { buf[++nb] = $0; blk = blk "\n" l
		     if (l ~ /<\/TASK>/ || nb > 400) flush(); next }
		{ print }
		END { if (on) flush(); print allowed + 0 > "/dev/stderr" }' "$1"
}

# scan_console LABEL FILE [ALLOW_REGEX] -- one passed check when FILE is
# clean, else one failed check per kind of problem, each shown with
# context. With ALLOW_REGEX, known kernel splats matching it are allowed
# (allowed_splats_blanked) and counted in the passed check's note.
scan_console() {
	local label=$1 f=$2 allow=${3:-} entry name re found=0 hits src nexp note nallowed
	if [ ! -s "$f" ]; then
		fail "$label: kernel console log missing or empty ($f)"
		return
	fi
	note=''
	if [ -n "$allow" ]; then
		nallowed=$(allowed_splats_blanked "$f" "$allow" 2>&1 >"$f.allowed")
		[ "$nallowed" -eq 0 ] || note="; $nallowed known kernel splat(s) matching '$allow' allowed"
		f=$f.allowed
	fi
	unexpected_only "$f" >"$f.unexpected"
	nexp=$(grep -c 'DMC-EXPECT-WARN-BEGIN' "$f")
	[ "$nexp" -eq 0 ] || note="$note; $nexp expected-WARN region(s) allowed"
	for entry in "${SCAN_PATTERNS[@]}"; do
		name=${entry%%|*} re=${entry#*|}
		src=$f
		case " $EXPECTED_OK_PATTERNS " in *" $name "*) src=$f.unexpected ;; esac
		hits=$(grep -c -E -- "$re" "$src")
		[ "$hits" -gt 0 ] || continue
		found=$((found + 1))
		fail "$label: kernel log has '$name' ($hits line(s)):"
		# Context from the full log, around the first offending lines.
		grep -n -E -- "$re" "$src" | head -n 3 | cut -d: -f1 | while read -r ln; do
			echo "--- line $ln of $(rel "$f"):"
			sed -n "$((ln > 4 ? ln - 4 : 1)),$((ln + 16))p" "$f"
		done | head -n 70 | indent
	done
	# A lockdep splat: a "=====" rule followed by a WARNING:/BUG: header.
	hits=$(awk '/\] =+$|^=+$/ { rule = NR; next }
		rule && NR == rule + 1 && /(WARNING|BUG): / { n++ } END { print n + 0 }' "$f")
	if [ "$hits" -gt 0 ]; then
		found=$((found + 1))
		fail "$label: kernel log has $hits lockdep-style splat(s) (===== + WARNING:/BUG: header)"
	fi
	if [ $found -eq 0 ]; then
		pass "$label: kernel log clean (${#SCAN_PATTERNS[@]} patterns + lockdep splats$note)"
	else
		faillog "$f"
	fi
}

# check_clean_exit LABEL FILE -- the core's exit line must say 0 leaks.
check_clean_exit() {
	local label=$1 f=$2
	if grep -q -E 'dmcore: unloaded, 0 objects leaked$' "$f"; then
		pass "$label: 'dmcore: unloaded, 0 objects leaked'"
	elif grep -q -E 'dmcore: unloaded, [0-9]+ objects leaked' "$f"; then
		fail "$label: dmcore leaked objects:"
		grep -E 'dmcore: (LEAK|unloaded)' "$f" | head -n 40 | indent
		faillog "$f"
	else
		fail "$label: no 'dmcore: unloaded, N objects leaked' line in the kernel log (never unloaded?)"
		faillog "$f"
	fi
}

# check_kmemleak LABEL SCRIPTLOG -- the kmemleak report a guest script
# printed (dmc_kmemleak_report) must name no unreferenced object.
check_kmemleak() {
	local label=$1 out=$2 leaks
	if ! grep -q '^DMC-KMEMLEAK-END' "$out"; then
		fail "$label: no kmemleak report came back"
		return
	fi
	leaks=$(awk '/^DMC-KMEMLEAK-BEGIN/ { on = 1; next } /^DMC-KMEMLEAK-END/ { on = 0 } on' "$out")
	if printf '%s\n' "$leaks" | grep -q 'unreferenced object'; then
		fail "$label: kmemleak found $(printf '%s\n' "$leaks" | grep -c 'unreferenced object') unreferenced object(s):"
		printf '%s\n' "$leaks" | head -n 60 | indent
		faillog "$out"
	else
		pass "$label: kmemleak: no leak after unloading"
	fi
}

# guest_status LABEL RC SCRIPTLOG VMLOG -- one check for a guest run.
guest_status() {
	local label=$1 rc=$2 out=$3 vmlog=$4
	case $rc in
	0) pass "$label: guest script exited 0" ; return ;;
	124) fail "$label: timed out (QEMU killed or script stopped in the guest)" ;;
	125) fail "$label: the guest died without reporting (panic? see the console log)" ;;
	*) fail "$label: guest script exited $rc" ;;
	esac
	grep -E '^DMC-(FAIL|LOAD-FAILED|SCRIPT-TIMEOUT)' "$out" | head -n 20 | indent
	grep -E 'error|Error' "$vmlog" | head -n 5 | indent
	faillog "$out" "$vmlog"
}

# ---------------------------------------------------------------------------
# Stages.

DEBUG_MODDIR='' STOCK_MODDIR=''

st_deps() {
	# shellcheck disable=SC2086 # lists of names
	if (ensure_pkgs $BUILD_PKGS $VM_PKGS "$DMC_SRC_PKG" rsync sparse perl git \
		coreutils util-linux make gcc &&
		rel=$(stock_release) && ensure_pkgs "linux-headers-$rel") 2>&1 | indent; then
		pass "deps: packages installed"
	else
		fail "deps: apt could not install the packages"
	fi
}

st_kernel() {
	local out="$LOGS/debug-kernel.out" d
	(build_kernel debug) 2>&1 >"$out" | indent
	if [ "${PIPESTATUS[0]}" -eq 0 ]; then
		d=$(tail -n1 "$out")
		pass "debug kernel: $d"
	else
		fail "debug kernel: build failed (build.log under $DMC_CACHE/kernel/)"
	fi
}

# build_flavour FLAVOUR -- one check; sets the module dir on success.
build_flavour() {
	local fl=$1 log="$LOGS/build-$1.log" dir kos
	if dir=$("$DMC_ROOT/scripts/build-modules.sh" "$fl" 2>"$log"); then
		kos=$(cd "$dir" && find . -name '*.ko' | sed 's|^\./||' | sort | tr '\n' ' ')
		pass "$fl modules built: $kos"
		echo "$dir" >"$LOGS/moddir-$fl"
	else
		fail "$fl modules: build failed:"
		sed -i "s|$DMC_BUILD/$fl/||g" "$log"
		if grep -q -E 'error:|ERROR:' "$log"; then
			grep -E -B2 -A6 'error:|ERROR:' "$log" | head -n 60 | indent
		else
			tail -n 20 "$log" | indent
		fi
		faillog "$log"
		return 1
	fi
}

st_debug_modules() {
	build_flavour debug && DEBUG_MODDIR=$(cat "$LOGS/moddir-debug")
}

st_lint() {
	local c log
	for c in checkpatch sparse w1 layers; do
		log="$LOGS/lint-$c.out"
		if "$DMC_ROOT/scripts/lint.sh" "$c" >"$log" 2>&1; then
			pass "lint: $c"
			grep -v "^lint: $c" "$log" | grep -v '^\[' | head -n 5 | indent
		else
			fail "lint: $c"
			grep -v "^lint: $c" "$log" | grep -v '^\[' | head -n 120 | indent
			faillog "$LOGS/lint-$c.log"
		fi
	done
}

# ktap_records SCRIPTLOG CONSOLELOG -- the KTAP documents framed by
# kunit.sh (one per suite), as
#   CASE pass|fail|skip SUITE NAME [(console)]
#   SUITE SUITE pass|fail|skip|missing|truncated PLAN NCASES
# Counted: the cases of each suite (4-space indented "ok N name" lines).
# Parameter lines (8 spaces) are not counted separately. The debugfs
# document gives the suites, plans and suite results; each case's line is
# taken from the kernel console when it is there, because KUnit keeps only
# 512 bytes of log per case in debugfs and a long failure message cuts the
# case's line off or glues it to the next one, while the console has every
# line in full. "(console)" marks cases the debugfs document lacked.
ktap_records() {
	awk '
	function strip(l) { sub(/^\[ *[0-9]+\.[0-9]+\] /, "", l); return l }
	function parse(l,   st) {
		# l = "ok N name [# directive]" or "not ok N name ..."
		st = "pass"
		if (l ~ /^not ok/) { st = "fail"; sub(/^not ok /, "", l) } else sub(/^ok /, "", l)
		num = l; sub(/ .*$/, "", num); sub(/^[0-9]+ /, "", l)
		if (l ~ / # SKIP/) { if (st == "pass") st = "skip"; sub(/ # SKIP.*$/, "", l) }
		sub(/ # .*$/, "", l)
		name = l
		return st
	}
	FILENAME == ARGV[1] {
		l = strip($0)
		if (l ~ /^    # Subtest: /) {
			cur = substr(l, 16); corder[++nc] = cur; cplan[cur] = -1; cres[cur] = "missing"
			next
		}
		if (cur == "") next
		if (l ~ /^    1\.\.[0-9]+$/) { cplan[cur] = substr(l, 8) + 0; next }
		if (l ~ /^(not )?ok [0-9]+ / && substr(l, length(l) - length(cur)) == " " cur) {
			cres[cur] = (l ~ /^not ok/) ? "fail" : "pass"; cur = ""; next
		}
		if (l ~ /^    (not )?ok [0-9]+ /) {
			st = parse(substr(l, 5)); cst[cur, num] = st; cname[cur, num] = name
		}
		next
	}
	/^DMC-KTAP-BEGIN / {
		suite = $2; indfs[suite] = 1; inktap = 1; plan = -1; res = "missing"; maxn = 0
		delete dst; delete dname; next
	}
	/^DMC-KTAP-END/ { if (inktap) finish(); inktap = 0; next }
	!inktap { next }
	/^    1\.\.[0-9]+$/ { plan = substr($0, 8) + 0; next }
	/^    (not )?ok [0-9]+ / {
		st = parse(substr($0, 5))
		if (!(num in dst)) { dst[num] = st; dname[num] = name; if (num + 0 > maxn) maxn = num + 0 }
		next
	}
	/^(not )?ok [0-9]+ / { res = ($0 ~ /^not ok/) ? "fail" : "pass"; next }
	# Case i of the suite: the console line when there is one (complete,
	# where the 512-byte debugfs log may have cut or glued lines), else the
	# debugfs line, else nothing (counted as missing by the caller).
	function finish(   i, k, n, last) {
		n = 0; last = (plan > maxn) ? plan : maxn
		for (i = 1; i <= last; i++) {
			k = i ""
			if ((suite, k) in cst) {
				n++; print "CASE", cst[suite, k], suite, cname[suite, k], ((k in dst) ? "" : "(console)")
			} else if (k in dst) {
				n++; print "CASE", dst[k], suite, dname[k]
			}
		}
		print "SUITE", suite, res, plan, n
	}
	END {
		if (inktap) { res = "truncated"; finish() }
		# Suites that ran (kernel console) but whose debugfs document never
		# came back, e.g. the guest died: their cases from the console.
		for (j = 1; j <= nc; j++) {
			suite = corder[j]
			if (suite in indfs) continue
			delete dst; delete dname; maxn = 0; plan = cplan[suite]
			res = "console-only:" cres[suite]
			finish()
		}
	}
	' "${2:-/dev/null}" "$1"
}

# ktap_doc SCRIPTLOG SUITE -- print one suite's KTAP document.
ktap_doc() {
	awk -v s="$2" '$0 == "DMC-KTAP-BEGIN " s { on = 1; next }
		on && /^DMC-KTAP-END/ { exit } on' "$1"
}

# Live view of the KUnit guest's output without the KTAP bodies.
kunit_view() {
	local line n=0 in=0
	while IFS= read -r line; do
		case "$line" in
		"DMC-KTAP-BEGIN "*) in=1; n=0; echo "        ${line#DMC-KTAP-BEGIN } (KTAP results follow)" ;;
		"DMC-KTAP-END"*) in=0; echo "        ... $n KTAP lines" ;;
		*) if [ $in = 1 ]; then n=$((n + 1)); else echo "        $line"; fi ;;
		esac
	done
}

# kunit_hang_note LABEL CONSOLELOG -- where the KUnit guest was when it
# timed out or died: the suite and the last case with a result, and the
# first hung-task report (stack included), kept for the summary.
kunit_hang_note() {
	local label=$1 con=$2 suite last hung loaded end
	[ -s "$con" ] || return 0
	suite=$(grep -E '^\[ *[0-9.]+\]     # Subtest: ' "$con" | tail -n 1 | sed 's/.*# Subtest: //')
	last=$(grep -E '^\[ *[0-9.]+\]     (not )?ok [0-9]+ ' "$con" | tail -n 1 | sed 's/^\[ *[0-9.]*\] *//')
	loaded=$(grep -m1 -E 'dmcore: loaded' "$con" | sed -E 's/^\[ *([0-9]+)\..*/\1/')
	end=$(grep -E '^\[ *[0-9]+\.' "$con" | tail -n 1 | sed -E 's/^\[ *([0-9]+)\..*/\1/')
	NOTES+=("$label: the guest stopped in suite '${suite:-none}' after case '${last:-none}'")
	# On an idle host dmcore loads about 8 s after the kernel starts and
	# the suites take about a minute: far more says the host was busy.
	NOTES+=("$label: dmcore loaded at ${loaded:-?} s of guest uptime (about 8 s on an idle host); the console ends at ${end:-?} s")
	hung=$(awk '/INFO: task .* blocked for more than/ { n = 60 } n > 0 { print; n-- }' "$con" |
		sed 's/^\[ *[0-9.]*\] //' | grep -v -E '^ *(<|R[A-Z0-9]{2}:|RSP|RAX|RDX|RBP|R1[0-5]|R[89]:)' | head -n 50)
	[ -z "$hung" ] || NOTES+=("$label: first hung-task report(s):" "$(printf '%s\n' "$hung" | sed 's/^/  /')")
	printf '  %s\n' "${NOTES[@]}"
}

# run_kunit LABEL [VM.SH OPTIONS...] -- the KUnit guest, its cases (each
# "LABEL: suite: case"), kmemleak, log scan and clean exit; logs are
# $LOGS/LABEL-*.log.
run_kunit() {
	local label=$1; shift
	local out="$LOGS/$label-script.log" con="$LOGS/$label-console.log" vml="$LOGS/$label-vm.log"
	local rc kind a b c d nsuites=0 bad_suites=() missing leaks sp=0 sf=0 ss=0
	echo "  booting the debug kernel (TCG, KASAN: a minute or two)"
	"$DMC_ROOT/scripts/vm.sh" --kernel debug --modules "$DEBUG_MODDIR" "$@" \
		--script "$DMC_ROOT/tests/guest/kunit.sh" --timeout "$KUNIT_TIMEOUT" \
		--log "$con" 2>"$vml" | tee "$out" | kunit_view
	rc=${PIPESTATUS[0]}
	guest_status "$label" "$rc" "$out" "$vml"
	[ "$rc" = 0 ] || kunit_hang_note "$label" "$con"

	while read -r kind a b c d; do
		[ "$kind" = CASE ] && c="$c${d:+ $d}"
		case $kind in
		CASE)
			case $a in
			pass) pass "$label: $b: $c"; sp=$((sp + 1)) ;;
			skip) skip "$label: $b: $c"; ss=$((ss + 1)) ;;
			*) fail "$label: $b: $c"; sf=$((sf + 1)); bad_suites+=("$b") ;;
			esac ;;
		SUITE)
			nsuites=$((nsuites + 1))
			missing=0
			[ "$c" -gt "$d" ] 2>/dev/null && missing=$((c - d))
			sf=$((sf + missing))
			while [ $missing -gt 0 ]; do
				fail "$label: $a: a case has no result line (plan $c, found $d: suite init failed, or KUnit's 512-byte case log truncated)"
				missing=$((missing - 1))
				bad_suites+=("$a")
			done
			case $b in
			pass|skip) ;;
			console-only:*)
				fail "$label: suite $a: no debugfs results, cases above are from the kernel console (suite result there: ${b#console-only:})"
				bad_suites+=("$a") ;;
			fail)
				printf '%s\n' "${bad_suites[@]}" | grep -qx -- "$a" ||
					{ fail "$label: suite $a: not ok (suite init failed?)"; bad_suites+=("$a"); } ;;
			*) fail "$label: suite $a: no suite result line ($b)"; bad_suites+=("$a") ;;
			esac
			echo "  suite $a: $sp passed, $sf failed, $ss skipped of $c planned; suite result: $b"
			sp=0 sf=0 ss=0 ;;
		esac
	done < <(ktap_records "$out" "$con")

	if [ "$(grep -c '^DMC-KTAP-BEGIN ' "$out")" -eq 0 ]; then
		fail "$label: no KTAP results came back from the guest"
		faillog "$out" "$con"
	else
		echo "  $nsuites suite(s) reported"
	fi
	if [ ${#bad_suites[@]} -gt 0 ]; then
		for a in $(printf '%s\n' "${bad_suites[@]}" | sort -u); do
			echo "  KTAP of suite $a (parameter details and full messages are in $(rel "$con")):"
			ktap_doc "$out" "$a" >"$LOGS/$label-ktap-$a.txt"
			show "$LOGS/$label-ktap-$a.txt" 150
		done
		faillog "$out" "$con"
	fi

	check_kmemleak "$label" "$out"
	scan_console "$label" "$con"
	check_clean_exit "$label" "$con"
}

st_kunit() {
	run_kunit kunit
}

# The suites again with every kobject release delayed by
# DMC_RELEASE_DELAY_MS (default 20 ms) after its last put, as Linux's
# CONFIG_DEBUG_KOBJECT_RELEASE does: a use after the last put then meets
# memory KASAN knows is freed. Counted apart ("kunit-delayed: ...").
st_kunit_delayed() {
	echo "  dmcore.ko reloaded with release_delay_ms=$RELEASE_DELAY_MS"
	run_kunit kunit-delayed --env "DMC_RELEASE_DELAY_MS=$RELEASE_DELAY_MS"
}

# Guest scripts with a role of their own; every other tests/guest/*.sh is
# an integration test: it runs on the debug kernel with dmcore.ko loaded
# and prints TAP ("ok N - what", "not ok N - what", "1..N").
NOT_INTEGRATION="lib.sh kunit.sh stock-load.sh stock-bridge.sh trace.sh demo.sh"

integration_scripts() {
	local f
	for f in "$DMC_ROOT"/tests/guest/*.sh; do
		[ -f "$f" ] || continue
		case " $NOT_INTEGRATION " in *" ${f##*/} "*) continue ;; esac
		echo "$f"
	done
}

# script_vm_options FILE -- a guest script may ask for more of its machine
# in a comment line "# dmc-vm: OPTIONS" (vm.sh options, shell-quoted, e.g.
# --machine q35 --qmp --qemu-args "-device ..."); they land in vmopts.
script_vm_options() {
	local line
	line=$(sed -n 's/^# dmc-vm: //p' "$1" | head -n1)
	[ -n "$line" ] || return 0
	eval "vmopts=($line)"
}

# tap_check LABEL SCRIPTLOG NAME -- one test per TAP line of NAME's output.
tap_check() {
	local label=$1 out=$2 name=$3 kind st desc plan=-1 n=0 src
	while IFS='|' read -r kind st desc; do
		case $kind in
		T) n=$((n + 1))
		   case $st in
		   pass) pass "$label: $desc" ;;
		   skip) skip "$label: $desc" ;;
		   *) fail "$label: $desc" ;;
		   esac ;;
		P) plan=$st ;;
		E) src=$st ;;
		esac
	done < <(awk -v n="$name" '
		$0 == "DMC-TAP-BEGIN " n { on = 1; next }
		on && index($0, "DMC-TAP-END " n " ") == 1 { print "E|" $3; on = 0; next }
		!on { next }
		/^1\.\.[0-9]+/ { p = $0; sub(/^1\.\./, "", p); sub(/[^0-9].*$/, "", p); print "P|" p; next }
		/^(not )?ok([ \t]|$)/ {
			st = "pass"; l = $0
			if (l ~ /^not ok/) { st = "fail"; sub(/^not ok[ \t]*/, "", l) } else sub(/^ok[ \t]*/, "", l)
			sub(/^[0-9]+[ \t]*/, "", l); sub(/^- /, "", l)
			if (l ~ /# *[Ss][Kk][Ii][Pp]/) { if (st == "pass") st = "skip" }
			else if (l ~ /# *[Tt][Oo][Dd][Oo]/) st = "pass"
			gsub(/\|/, "/", l)
			print "T|" st "|" l
		}' "$out")
	if [ "$plan" -lt 0 ]; then
		fail "$label: no TAP plan (1..N): the script stopped early?"
	elif [ "$n" -lt "$plan" ]; then
		local missing=$((plan - n))
		while [ $missing -gt 0 ]; do
			fail "$label: a test announced by the plan 1..$plan has no result line"
			missing=$((missing - 1))
		done
	elif [ "$n" -gt "$plan" ]; then
		fail "$label: $n results for a plan of 1..$plan"
	fi
	[ "$n" -gt 0 ] || [ "$plan" -eq 0 ] || fail "$label: no TAP results"
}

st_integration() {
	local f name out con vml rc any=0 vmopts tools=() t tdir
	# User-space programs some scripts run (tests/fuzz/*.c), in every guest.
	if tdir=$("$DMC_ROOT/scripts/build-guest-tools.sh" 2>"$LOGS/build-tools.log"); then
		for t in "$tdir"/*; do [ -f "$t" ] && tools+=(--add "$t"); done
	else
		fail "guest tools (tests/fuzz/*.c): build failed"
		faillog "$LOGS/build-tools.log"
	fi
	while IFS= read -r f; do
		any=1
		name=${f##*/}
		out="$LOGS/int-${name%.sh}-script.log" con="$LOGS/int-${name%.sh}-console.log"
		vml="$LOGS/int-${name%.sh}-vm.log"
		vmopts=()
		script_vm_options "$f" || { fail "$name: bad '# dmc-vm:' line"; continue; }
		echo "  $name (debug kernel${vmopts[*]:+: ${vmopts[*]}})"
		"$DMC_ROOT/scripts/vm.sh" --kernel debug --modules "$DEBUG_MODDIR" \
			--script "$DMC_ROOT/scripts/guest-tap.sh" --add "$f" --env "DMC_TAP=$name" \
			--add "$DMC_ROOT/tools/dmc-oracle.sh" "${tools[@]}" \
			--timeout "$INTEGRATION_TIMEOUT" --log "$con" "${vmopts[@]}" \
			2>"$vml" | tee "$out" | indent
		rc=${PIPESTATUS[0]}
		guest_status "$name" "$rc" "$out" "$vml"
		if ! grep -q "^DMC-TAP-END $name " "$out"; then
			fail "$name: the script's output did not come back"
			faillog "$out" "$con"
		fi
		tap_check "$name" "$out" "$name"
		check_kmemleak "$name" "$out"
		scan_console "$name" "$con" "$(sed -n 's/^# dmc-allow-kernel-splat: //p' "$f" | head -n1)"
		check_clean_exit "$name" "$con"
	done < <(integration_scripts)
	[ $any = 1 ] || echo "  (no integration scripts in tests/guest/)"
}

# dmctl's host tests: tests/dmctl/run.sh prints TAP; each line one check.
st_dmctl() {
	local out="$LOGS/dmctl-run.log" plan=-1 n=0 line desc
	# Graphviz renders graph --dot's output (the check skips without it).
	(ensure_pkgs gcc graphviz) >/dev/null 2>&1 ||
		echo "  graphviz could not be installed: the dot -Tsvg check skips"
	"$DMC_ROOT/tests/dmctl/run.sh" >"$out" 2>&1
	while IFS= read -r line; do
		case $line in
		"not ok "*)
			n=$((n + 1)); desc=${line#not ok }; fail "dmctl: ${desc#* - }" ;;
		"ok "*"# SKIP"*)
			n=$((n + 1)); desc=${line#ok }; skip "dmctl: ${desc#* - }" ;;
		"ok "*)
			n=$((n + 1)); desc=${line#ok }; pass "dmctl: ${desc#* - }" ;;
		1..*)
			plan=${line#1..} ;;
		esac
	done <"$out"
	if [ "$plan" -lt 0 ]; then
		fail "dmctl: no TAP plan (1..N): run.sh stopped early?"
		tail -n 20 "$out" | indent
	elif [ "$n" -ne "$plan" ]; then
		fail "dmctl: $n results for a plan of 1..$plan"
	fi
	[ $S_FAIL -eq 0 ] || faillog "$out"
}

st_stock() {
	local out="$LOGS/stock-script.log" con="$LOGS/stock-console.log" vml="$LOGS/stock-vm.log" rc
	if ! build_flavour stock; then
		fail "stock: guest run not possible without modules"
		return
	fi
	STOCK_MODDIR=$(cat "$LOGS/moddir-stock")
	"$DMC_ROOT/scripts/vm.sh" --kernel stock --modules "$STOCK_MODDIR" \
		--script "$DMC_ROOT/tests/guest/stock-load.sh" --timeout "$STOCK_TIMEOUT" \
		--log "$con" 2>"$vml" | tee "$out" | indent
	rc=${PIPESTATUS[0]}
	guest_status "stock: load, list, unload" "$rc" "$out" "$vml"
	scan_console "stock" "$con"
	check_clean_exit "stock" "$con"

	# The tracepoints (events/dmcore) and stats' probe_hist, on the
	# stock kernel, which has tracefs.
	local name=trace.sh e1000
	out="$LOGS/stock-trace-script.log" con="$LOGS/stock-trace-console.log"
	vml="$LOGS/stock-trace-vm.log"
	echo "  $name (stock kernel)"
	"$DMC_ROOT/scripts/vm.sh" --kernel stock --modules "$STOCK_MODDIR" \
		--script "$DMC_ROOT/scripts/guest-tap.sh" --env "DMC_TAP=$name" \
		--add "$DMC_ROOT/tests/guest/$name" --timeout "$STOCK_TIMEOUT" \
		--log "$con" 2>"$vml" | tee "$out" | indent
	rc=${PIPESTATUS[0]}
	guest_status "$name" "$rc" "$out" "$vml"
	tap_check "$name" "$out" "$name"
	scan_console "$name" "$con"
	check_clean_exit "$name" "$con"

	# The bridge on the stock kernel, with Debian's e1000 module as the
	# module-backed real driver, and dmctl's tree of it against sysfs.
	name=stock-bridge.sh
	out="$LOGS/stock-bridge-script.log" con="$LOGS/stock-bridge-console.log"
	vml="$LOGS/stock-bridge-vm.log"
	e1000="$(stock_image)/lib/modules/$(stock_release)/kernel/drivers/net/ethernet/intel/e1000/e1000.ko"
	if [ ! -f "$e1000" ]; then
		fail "stock: no e1000.ko in the stock kernel package ($e1000)"
		return
	fi
	# dmctl and dmc-json-check: the script compares dmctl's tree with sysfs.
	local tools=() tdir
	if tdir=$("$DMC_ROOT/scripts/build-guest-tools.sh" 2>"$LOGS/stock-build-tools.log"); then
		tools=(--add "$tdir/dmctl" --add "$tdir/dmc-json-check")
	else
		fail "stock: guest tools (dmctl, dmc-json-check): build failed"
		faillog "$LOGS/stock-build-tools.log"
	fi
	echo "  $name (stock kernel)"
	"$DMC_ROOT/scripts/vm.sh" --kernel stock --modules "$STOCK_MODDIR" \
		--script "$DMC_ROOT/scripts/guest-tap.sh" --env "DMC_TAP=$name" \
		--add "$DMC_ROOT/tests/guest/$name" --add "$DMC_ROOT/tools/dmc-oracle.sh" \
		"${tools[@]}" --add "$e1000" --timeout "$STOCK_TIMEOUT" --log "$con" 2>"$vml" |
		tee "$out" | indent
	rc=${PIPESTATUS[0]}
	guest_status "$name" "$rc" "$out" "$vml"
	tap_check "$name" "$out" "$name"
	scan_console "$name" "$con"
	check_clean_exit "$name" "$con"
}

# ---------------------------------------------------------------------------

# Sourced by scripts/torture.sh for its checks (guest_status, tap_check,
# check_kmemleak, scan_console, check_clean_exit): define, run nothing.
if [ "${DMC_CHECK_LIB:-0}" = 1 ]; then
	return 0
fi

echo "dmcore check: $(git -C "$DMC_ROOT" describe --always --dirty 2>/dev/null || echo unknown) on $(uname -r), logs in $(rel "$LOGS")"
all_start=$(date +%s)
stage deps           ""                          st_deps
stage debug-kernel   "deps"                      st_kernel
stage debug-modules  "debug-kernel"              st_debug_modules
stage lint           "debug-kernel"              st_lint 3
stage dmctl          "deps"                      st_dmctl
stage kunit          "debug-kernel debug-modules" st_kunit
stage kunit-delayed  "debug-kernel debug-modules" st_kunit_delayed
stage integration    "debug-kernel debug-modules" st_integration
stage stock          "deps"                      st_stock

echo
echo "== summary =="
printf '%-14s %-8s %7s %7s %7s %8s\n' stage result time passed failed skipped
printf '%s\n' "${ROWS[@]}"
echo "total time: $(($(date +%s) - all_start))s"
# The first failures again, and the notes that explain them, at the end
# where a reader of a cut-off log (CI shows its head and tail) finds them.
if [ ${#FIRST_FAILS[@]} -gt 0 ]; then
	echo "first failures:"
	printf '  %s\n' "${FIRST_FAILS[@]}" | cut -c1-300
fi
if [ ${#NOTES[@]} -gt 0 ]; then
	echo "notes on them:"
	printf '%s\n' "${NOTES[@]}" | sed 's/^/  /'
fi
if [ $T_FAIL -gt 0 ] && [ ${#FAIL_LOGS[@]} -gt 0 ]; then
	echo "logs of what failed:"
	printf '%s\n' "${FAIL_LOGS[@]}" | awk '!seen[$0]++' | sed 's/^/  /'
fi
echo
if [ $T_SKIP -gt 0 ]; then
	echo "$T_PASS passed, $T_FAIL failed, $T_SKIP skipped"
else
	echo "$T_PASS passed, $T_FAIL failed"
fi
[ $T_FAIL -eq 0 ]
