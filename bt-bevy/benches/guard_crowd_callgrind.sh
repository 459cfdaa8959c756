#!/usr/bin/env bash
# Instructions per update of the guard_crowd forms, counted by callgrind: a
# noise-free cross-check of the criterion medians on a shared machine. Each
# form's app is built and run for N and 2N more updates; the difference / N
# is one steady update (building the app and the warm-up cancel out).
#
#   bt-bevy/benches/guard_crowd_callgrind.sh                      # compiled: world filtered every
#   bt-bevy/benches/guard_crowd_callgrind.sh interpreted world filtered
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(cargo bench -p behaved-bevy --bench guard_crowd --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*guard_crowd-[^"]*\)".*/\1/p' | tail -n1)
group=${1:-compiled}
shift || true
forms=${*:-"world filtered every"}
n=${N:-20}
ir() { # form updates -> instructions executed
    CROWD="guard_crowd_$group/$1" UPDATES=$2 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" --bench 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | tail -n1 # the last: criterion's gnuplot probe is a process too

}
printf '%-26s %-9s %16s\n' group form 'instr/update'
for f in $forms; do
    a=$(ir "$f" "$n")
    b=$(ir "$f" $((2 * n)))
    printf '%-26s %-9s %16.0f\n' "$group" "$f" "$(echo "($b - $a) / $n" | bc -l)"
done
