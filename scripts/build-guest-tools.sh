#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-guest-tools.sh -- build the user-space programs guest scripts run
# (tests/fuzz/*.c: dmc-fuzz; tests/tools/*.c: dmc-poll, dmc-json-check; tools/dmctl/*.c:
# dmctl, the command-line tool) as static binaries, and print the directory
# that holds them ($DMC_BUILD/tools). check.sh puts each one into every
# integration guest (vm.sh --add, so /dmc/files/<name>); by hand:
#   scripts/vm.sh --kernel debug --script tests/guest/fuzz.sh \
#       --add "$(scripts/build-guest-tools.sh)/dmc-fuzz"
set -euo pipefail
. "$(dirname "$0")/lib.sh"
DMC_STAGE=tools

# gcc, and libc6-dev for libc.a (a static binary runs in the busybox guest)
ensure_pkgs gcc libc6-dev
out="$DMC_BUILD/tools"
mkdir -p "$out"
for c in "$DMC_ROOT"/tests/fuzz/*.c "$DMC_ROOT"/tests/tools/*.c; do
	[ -f "$c" ] || continue
	name=$(basename "$c" .c)
	gcc -static -O2 -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
		-pthread -o "$out/$name" "$c" >&2 || die "cannot build $c"
done
# dmctl: several files, built as `make tools` builds it, but static.
gcc -static -O2 -Wall -Wextra -o "$out/dmctl" "$DMC_ROOT"/tools/dmctl/*.c >&2 ||
	die "cannot build tools/dmctl"
echo "$out"
