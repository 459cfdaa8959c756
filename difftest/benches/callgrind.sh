#!/usr/bin/env bash
# Instructions per tick of the interpreter and the compiled form on T1-T3,
# counted by callgrind (noise-free on a shared machine). Each form runs N and
# 2N ticks; the difference / N is one steady-state tick.
#
#   difftest/benches/callgrind.sh              # every tree and form
#   difftest/benches/callgrind.sh t2 interpreted
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(cargo bench -p difftest --bench interp_vs_compiled --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*interp_vs_compiled-[^"]*\)".*/\1/p' | tail -n1)
trees=${1:-"t1 t2 t3"}
shift || true
forms=${*:-"compiled interpreted"}
ir() { # tree form ticks -> instructions executed
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" --ticks "$1" "$2" "$3" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '%-4s %-12s %12s\n' tree form 'instr/tick'
for t in $trees; do
    for f in $forms; do
        n=100000
        a=$(ir "$t" "$f" "$n")
        b=$(ir "$t" "$f" $((2 * n)))
        printf '%-4s %-12s %12.1f\n' "$t" "$f" "$(echo "($b - $a) / $n" | bc -l)"
    done
done
