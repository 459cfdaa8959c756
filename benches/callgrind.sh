#!/usr/bin/env bash
# Instructions per tick of each tree x form, counted by callgrind: a
# noise-free cross-check of the criterion ratios on a shared machine.
# Each form is run for N and 2N ticks; the difference / N is the cost of one
# tick in the steady state (set-up and the first ticks cancel out).
#
#   benches/callgrind.sh            # all trees and forms (T4 has no peers)
#   benches/callgrind.sh t3 compiled hand_written
#   BENCH=utility benches/callgrind.sh u8 baseline compiled hand_written interpreted
set -euo pipefail
cd "$(dirname "$0")/.."
bench=${BENCH:-trees}
bin=$(cargo bench --bench "$bench" --no-run --message-format=json 2>/dev/null |
    sed -n "s/.*\"executable\":\"\([^\"]*$bench-[^\"]*\)\".*/\1/p" | tail -n1)
trees=${1:-"t1 t2 t3 t4"}
shift || true
forms=${*:-"baseline compiled hand_written interpreted bonsai bt_lite"}
ir() { # tree form ticks -> instructions executed
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" --ticks "$1" "$2" "$3" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '%-4s %-14s %14s\n' tree form 'instr/tick'
for t in $trees; do
    for f in $forms; do
        case $t/$f in t4/bonsai | t4/bt_lite) continue ;; esac
        case $f in bonsai | bt_lite) n=20000 ;; *) n=200000 ;; esac
        a=$(ir "$t" "$f" "$n")
        b=$(ir "$t" "$f" $((2 * n)))
        printf '%-4s %-14s %14.1f\n' "$t" "$f" "$(echo "($b - $a) / $n" | bc -l)"
    done
done
