# The reports of kernels_callgrind.sh. Input: "TABLE-KERNEL:IMPLEMENTATION
# <TAB>IR" lines, in the bench's order. Variables: table (sched or tasks),
# the sizes (sched: f and q; tasks: n), csv (the CSV written), when, host.
#   sched: Ts/T1 in instructions of Table 3's declarative kernels;
#   tasks: T1/Ts of the spawn/sync recursions, and instructions per inner
#          node (one spawn each: fib(n) has fib(n+1)-1, the sum 2^n-1).
{
  split($1, p, ":"); key = substr(p[1], length(table) + 2) SUBSEP p[2]; ir[key] = $2;
  if (!(key in seen)) { seen[key] = 1; order[++c] = key }
}
function fib(m, a, b, t, j) { a = 0; b = 1; for (j = 0; j < m; j++) { t = a + b; a = b; b = t } return a }
END {
  if (table == "sched") {
    print "date,host,kernel,n,implementation,ir,ir_over_seq,seq_over_ir" > csv;
    printf "\n== callgrind instructions, ONE worker, grain 1: fib(%d), nqueens n=%d (no cut-off)\n",
      f, q;
    printf "   %-8s %-16s %12s %10s %12s\n", "kernel", "implementation", "Ir", "Ir/Ir(seq)",
      "Ts/T1 (Ir)";
  } else {
    print "date,host,kernel,n,implementation,ir,ir_per_node,ir_over_seq" > csv;
    printf "\n== callgrind instructions, ONE worker: fib(%d), sum of 2^%d longs (no cut-off)\n",
      n, n;
    printf "   %-5s %-18s %14s %12s %10s\n", "case", "implementation", "Ir", "Ir/node",
      "Ir/Ir(seq)";
  }
  for (i = 1; i <= c; i++) {
    split(order[i], p, SUBSEP); k = p[1]; m = p[2]; x = ir[order[i]];
    seq = ir[k SUBSEP "sequential"];
    if (table == "sched") {
      printf "   %-8s %-16s %12d %10.2f %12.3f\n", k, m, x, x / seq, seq / x;
      printf "\"%s\",\"%s\",%s,%d,\"%s\",%d,%.3f,%.3f\n", when, host, k, k == "fib" ? f : q, m,
        x, x / seq, seq / x >> csv;
    } else {
      nodes = k == "fib" ? fib(n + 1) - 1 : 2 ^ n - 1;
      printf "   %-5s %-18s %14d %12.1f %10.2f\n", k, m, x, x / nodes, x / seq;
      printf "\"%s\",\"%s\",%s,%d,\"%s\",%d,%.1f,%.3f\n", when, host, k, n, m, x, x / nodes,
        x / seq >> csv;
    }
  }
  if (table == "sched")
    printf "   targets (issue 39, in time): nqueens Ts/T1 >= 0.60, fib >= 0.25\n";
  else
    printf "   target (adapt spawn/sync): Ir/Ir(seq) <= 3\n";
  printf "CSV: %s\n", csv;
}
