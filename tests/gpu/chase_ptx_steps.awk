# Reads PTX and prints the longest run of dependent steps in the kernel whose entry
# name contains KERNEL: consecutive instructions `ld.global.u64 %a, [%b]` where %b is
# the value the instruction before loaded. Comments, blank lines and labels are not
# instructions; anything else (a min, a multiply, an add, a move) ends the run.
/^\.entry|^\.visible \.entry/ { inside = index($0, KERNEL) > 0; run = 0; last = ""; next }
!inside { next }
{
    line = $0
    sub(/\/\/.*/, "", line)
    gsub(/^[ \t]+|[ \t]+$/, "", line)
    if (line == "" || line ~ /:$/ || line ~ /^[{}]$/ || line ~ /^\.(reg|local|shared|param)/) next
    if (match(line, /^ld\.global\.u64[ \t]+%rd[0-9]+,[ \t]*\[%rd[0-9]+\];$/)) {
        dst = line; sub(/^ld\.global\.u64[ \t]+/, "", dst); sub(/,.*/, "", dst)
        src = line; sub(/.*\[/, "", src); sub(/\].*/, "", src)
        run = (last != "" && src == last) ? run + 1 : 1
        last = dst
        if (run > best) best = run
        next
    }
    run = 0; last = ""
}
END { print best + 0 }
