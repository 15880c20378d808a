#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# torture.sh -- `make torture`: the torture run (torture/dmc_torture.c,
# driven by tests/guest/torture.sh) for 10 minutes with 4 threads in one
# debug-kernel guest, judged by make check's own checks: the guest's TAP
# lines, kmemleak, the kernel log scan (KASAN, lockdep, WARN outside
# expected-WARN regions, ODEBUG, soft lockups, hung tasks...) and the
# clean-exit line. Prints the seed, each check, and "N passed, N failed";
# exit status 0 only when all passed.
#
# Environment: TORTURE_DURATION (seconds, default 600), TORTURE_THREADS (4),
# TORTURE_SEED (default 0: random; the seed used is printed, give it back
# to replay the run's op sequences), TORTURE_OPS (mask of op kinds, default
# all; see the "op N = name" lines of the kernel log), TORTURE_PROBES (mask
# of probe behaviours, default all), TORTURE_MIN_OPS (default 10: each op
# kind must have succeeded this often). Logs: .build/torture/logs/.
set -uo pipefail
DMC_BUILD=${DMC_BUILD:-$(cd "$(dirname "$0")/.." && pwd)/.build}
MODBUILD=$DMC_BUILD
# check.sh's functions, with its logs in .build/torture/logs.
DMC_CHECK_LIB=1 DMC_BUILD=$MODBUILD/torture
# shellcheck source=scripts/check.sh
. "$(dirname "$0")/check.sh"
DMC_STAGE=torture

DURATION=${TORTURE_DURATION:-600}
THREADS=${TORTURE_THREADS:-4}
SEED=${TORTURE_SEED:-0}
OPS=${TORTURE_OPS:-0xffffffff}
PROBES=${TORTURE_PROBES:-0xff}
MIN_OPS=${TORTURE_MIN_OPS:-10}
# Boot, the run, its teardown, the unload and kmemleak's two scans.
TIMEOUT=$((DURATION + 600))

start=$(date +%s)
moddir=$(DMC_BUILD=$MODBUILD "$DMC_ROOT/scripts/build-modules.sh" debug) ||
	die "the modules for the debug kernel could not be built"
name=torture.sh
out="$LOGS/torture-script.log" con="$LOGS/torture-console.log" vml="$LOGS/torture-vm.log"
log "torture: $THREADS threads x $DURATION s, seed ${SEED/#0/random}, ops $OPS, probes $PROBES (timeout $TIMEOUT s)"
"$DMC_ROOT/scripts/vm.sh" --kernel debug --modules "$moddir" \
	--script "$DMC_ROOT/scripts/guest-tap.sh" --add "$DMC_ROOT/tests/guest/$name" \
	--env "DMC_TAP=$name" --env "DURATION=$DURATION" --env "THREADS=$THREADS" \
	--env "TORTURE_SEED=$SEED" --env "TORTURE_OPS=$OPS" \
	--env "TORTURE_PROBES=$PROBES" --env "TORTURE_MIN_OPS=$MIN_OPS" \
	--timeout "$TIMEOUT" --log "$con" 2>"$vml" | tee "$out" | indent
rc=${PIPESTATUS[0]}

echo "== torture: checks =="
guest_status "$name" "$rc" "$out" "$vml"
tap_check "$name" "$out" "$name"
check_kmemleak "$name" "$out"
scan_console "$name" "$con"
check_clean_exit "$name" "$con"

used=$(sed -n 's/^TORTURE-SEED //p' "$out" | head -n1)
[ -n "$used" ] || used=$(sed -n 's/.*dmc_torture: start: seed=\([0-9]*\).*/\1/p' "$con" | head -n1)
echo
echo "seed: ${used:-unknown} (replay: make torture TORTURE_SEED=${used:-?} TORTURE_OPS=$OPS TORTURE_PROBES=$PROBES)"
grep -E 'dmc_torture: (End of test|census)' "$con" | sed 's/^\[ *[0-9.]*\] //'
echo "time: $(($(date +%s) - start))s; logs: $(rel "$LOGS")"
[ $S_FAIL -eq 0 ] || { printf '%s\n' "${FAIL_LOGS[@]}" | awk '!seen[$0]++' | sed 's/^/  log: /'; }
echo "$S_PASS passed, $S_FAIL failed"
[ $S_FAIL -eq 0 ]
