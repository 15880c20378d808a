#!/bin/sh
# Review: names "-" through control, as the snapshot shows them.
. "$DMC_LIB"
C=$DMC_DEBUGFS/dmcore/control
for cmd in "bus add -" "class add -" "driver add - bus=-" "device add dx bus=- class=-" "device add - bus=-" "device override /devices/dx -"; do
	if echo "$cmd" > "$C"; then echo "REVIEW ok: $cmd"; else echo "REVIEW refused: $cmd"; fi
done
sleep 1
echo "REVIEW-SNAPSHOT-BEGIN"
grep -E '^(bus|class|driver|device|end|done)' "$DMC_DEBUGFS/dmcore/snapshot"
echo "REVIEW-SNAPSHOT-END"
exit 0
