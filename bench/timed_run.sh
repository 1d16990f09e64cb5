# Shared by the bench/*.sh scripts that time `adaptsim run` (sourced, POSIX sh).
#
# timed_run NAME OUT_DIR COMMAND...: runs COMMAND under /usr/bin/time -v, its stdout into
# OUT_DIR/run_NAME.txt, and sets
#   run_wall_s    elapsed wall-clock time, s
#   run_user_s    user CPU time, s
#   run_rss_mib   maximum resident set size, MiB
#   run_jct_s     the run's mean_jct_s, s (adaptsim run's text output)
#   run_makespan_s  the run's makespan_s, s
timed_run() {
  _name=$1 _out=$2
  shift 2
  /usr/bin/time -v -o "$_out/time_$_name.txt" "$@" > "$_out/run_$_name.txt"
  run_wall_s=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0;
    for (i = 1; i <= n; ++i) s = s * 60 + p[i]; print s}' "$_out/time_$_name.txt")
  run_user_s=$(awk -F': ' '/User time/ {print $2}' "$_out/time_$_name.txt")
  run_rss_mib=$(awk -F': ' '/Maximum resident/ {printf "%.0f", $2 / 1024}' "$_out/time_$_name.txt")
  run_jct_s=$(awk '$1 == "mean_jct_s" {print $2}' "$_out/run_$_name.txt")
  run_makespan_s=$(awk '$1 == "makespan_s" {print $2}' "$_out/run_$_name.txt")
}
