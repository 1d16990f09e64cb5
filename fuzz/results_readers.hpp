// The readers of a results file that resume and merge use, called as both results targets
// (fuzz/targets/results_hdf5.cpp, results_fields.cpp) call them.
#pragma once

#include <set>
#include <string>

#include "adaptsim/error.hpp"
#include "adaptsim/store.hpp"

namespace adaptsim::fuzz {

/// Calls every reader of the results file at `path` (include/adaptsim/store.hpp): ReadSummary,
/// ReadTask of `ids` and of up to four ids the summary names, ReadFileDetail,
/// ReadSummaryWithDetail, ReadMeta,
/// ReadColumnUnits and MissingTasks. A reader may refuse the file with StoreError (and, when
/// `input_error_ok`, with InputError); any other exception escapes and is a finding.
inline void ReadResultsEveryWay(const std::string& path, std::set<std::string> ids,
                                bool input_error_ok) {
  auto expect = [input_error_ok](auto&& call) {
    try {
      call();
    } catch (const StoreError&) {
    } catch (const InputError&) {
      if (!input_error_ok) throw;
    }
  };
  expect([&] {
    for (const SummaryRow& row : ReadSummary(path)) {
      if (ids.size() < 4) ids.insert(row.task_id);
    }
  });
  for (const std::string& id : ids) expect([&] { ReadTask(path, id); });
  expect([&] { ReadFileDetail(path); });
  expect([&] { ReadSummaryWithDetail(path); });
  expect([&] { ReadMeta(path); });
  expect([&] { ReadColumnUnits(path, "/summary"); });
  expect([&] { MissingTasks(path, ids); });
}

}  // namespace adaptsim::fuzz
