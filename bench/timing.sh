# Timing of one benchmarked process, sourced by the bench scripts (bench_shockwave_mixed.sh,
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
