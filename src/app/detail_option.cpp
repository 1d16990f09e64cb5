// `--detail summary|per_job|full`, shared by `adaptsim sweep` and `adaptsim reproduce`.
#include "adaptsim/result_detail.hpp"
#include "adaptsim/sweep.hpp"
#include "command.hpp"

namespace adaptsim::app {

void AddDetailOption(CLI::App* cmd, std::optional<ResultDetail>& detail) {
  cmd->add_option_function<std::string>(
         "--detail", [&detail](const std::string& text) { detail = ParseResultDetail(text); },
         "What the results file stores per task: summary (the /summary row and summary "
         "metrics), per_job (+ the jobs table: what the figures read) or full (+ rounds, "
         "throughput timeline, GPU busy times). Default: the spec's `detail`, else " +
             std::string(ToString(kDefaultSweepDetail)))
      ->check(CLI::IsMember({"summary", "per_job", "full"}));
}

}  // namespace adaptsim::app
