# Timing of one benchmarked process, sourced by the bench scripts (bench_heterogeneous.sh, bench_shockwave_mixed.sh,
# bench_shockwave_scale.sh, bench_production.sh; docs/performance.md): the command runs under
# GNU time's verbose report (/usr/bin/time -v, Debian package `time`), whose fields are read back.
#
#   time_run TIME_FILE OUT_FILE COMMAND [ARG...]
#       runs COMMAND with its standard output in OUT_FILE and the report in TIME_FILE (standard
#       error passes through); returns COMMAND's exit status.
#   time_wall_s TIME_FILE    elapsed wall-clock time, s (the report's h:mm:ss or m:ss)
#   time_user_s TIME_FILE    user CPU time, s
#   time_rss_mib TIME_FILE   peak resident set size, MiB (rounded)
#   run_value OUT_FILE KEY   the value of KEY in `adaptsim run`'s printed summary (its
#                            "key value" lines), "" when absent
#
# Usage: . "$(dirname "$0")/timing.sh"

time_run() {
  _time_file=$1 _out_file=$2
  shift 2
  /usr/bin/time -v -o "$_time_file" "$@" > "$_out_file"
}

time_wall_s() {
  awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0;
    for (i = 1; i <= n; ++i) s = s * 60 + p[i]; print s}' "$1"
}

time_user_s() {
  awk -F': ' '/User time/ {print $2}' "$1"
}

time_rss_mib() {
  awk -F': ' '/Maximum resident/ {printf "%.0f\n", $2 / 1024}' "$1"
}

run_value() {
  awk -v key="$2" '$1 == key {print $2}' "$1"
}

# timed_run NAME OUT_DIR COMMAND [ARG...]: time_run with the report in OUT_DIR/time_NAME.txt and
# the output in OUT_DIR/run_NAME.txt, then sets run_wall_s, run_user_s, run_rss_mib and, from
# `adaptsim run`'s summary, run_jct_s (mean_jct_s) and run_makespan_s (makespan_s).
timed_run() {
  _name=$1 _dir=$2
  shift 2
  time_run "$_dir/time_$_name.txt" "$_dir/run_$_name.txt" "$@"
  _status=$?
  run_wall_s=$(time_wall_s "$_dir/time_$_name.txt")
  run_user_s=$(time_user_s "$_dir/time_$_name.txt")
  run_rss_mib=$(time_rss_mib "$_dir/time_$_name.txt")
  run_jct_s=$(run_value "$_dir/run_$_name.txt" mean_jct_s)
  run_makespan_s=$(run_value "$_dir/run_$_name.txt" makespan_s)
  return $_status
}
