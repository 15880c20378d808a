#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh [--kernel stock|debug] [vm.sh options...] -- what `make demo`
# runs: build dmcore.ko for Debian's stock kernel (default), boot that
# kernel in QEMU and run tests/guest/demo.sh, which walks through what
# dmcore does. Other options go to vm.sh, e.g.
#   scripts/demo.sh --env DMC_DEMO_SCENES="load tree"
# Build and QEMU chatter go to .build/logs/demo-*.log; only the demo is shown.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
DMC_STAGE=demo

kernel=stock
args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=${2:?--kernel needs an argument}; shift ;;
	*) args+=("$1") ;;
	esac
	shift
done

logs="$DMC_BUILD/logs"
mkdir -p "$logs"
if [ "$kernel" = stock ]; then
	what="Debian's stock kernel $(stock_release)"
else
	what="the $kernel test kernel"
fi

echo "dmcore demo"
echo "-----------"
echo "Building dmcore.ko for $what ..."
if ! dir=$("$DMC_ROOT/scripts/build-modules.sh" "$kernel" 2>"$logs/demo-build.log"); then
	tail -n 30 "$logs/demo-build.log"
	echo "The build failed; full log: $logs/demo-build.log"
	exit 1
fi
# The live scene: the bridge's oracle, and on the stock kernel Debian's
# e1000 module as a real driver to load, unbind and bind.
extra=(--add "$DMC_ROOT/tools/dmc-oracle.sh")
if [ "$kernel" = stock ]; then
	e1000="$(stock_image)/lib/modules/$(stock_release)/kernel/drivers/net/ethernet/intel/e1000/e1000.ko"
	[ -f "$e1000" ] && extra+=(--add "$e1000")
else
	extra+=(--qemu-args "-device virtio-rng-pci,addr=04.0")
fi
echo "Booting it in QEMU (software emulation, 10-30 s) ..."
rc=0
"$DMC_ROOT/scripts/vm.sh" --kernel "$kernel" --modules "$dir" "${extra[@]}" \
	--script "$DMC_ROOT/tests/guest/demo.sh" --timeout 300 \
	--log "$logs/demo-console.log" "${args[@]}" 2>"$logs/demo-vm.log" || rc=$?
echo "-----------"
if [ $rc -ne 0 ]; then
	sed 's/^/  /' "$logs/demo-vm.log"
	echo "The demo failed (status $rc)."
fi
echo "Full kernel log of this run: $logs/demo-console.log"
exit $rc
