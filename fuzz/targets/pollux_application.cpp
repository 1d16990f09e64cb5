// Fuzz target: the Pollux application-profile reader (PolluxApplication::Load,
// include/adaptsim/pollux_application.hpp) and its look-ups.
//
// Input: sections separated by lines "%%": placements.csv, scalability.csv, then one section per
// validation file whose first line is its batch size (the file is validation-<line>.csv).
#include <filesystem>
#include <vector>

#include "adaptsim/error.hpp"
#include "adaptsim/pollux_application.hpp"
#include "fuzz_support.hpp"

namespace {

std::vector<std::string> Sections(std::string_view text) {
  std::vector<std::string> sections(1);
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    if (line == "%%") {
      sections.emplace_back();
    } else {
      sections.back().append(line).append("\n");
    }
    pos = end + 1;
  }
  return sections;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adaptsim;
  namespace fs = std::filesystem;
  const fs::path dir = fuzz::ScratchDir() / "app";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::vector<std::string> sections = Sections(fuzz::AsText(data, size));
  const char* const fixed[] = {"placements.csv", "scalability.csv"};
  for (std::size_t i = 0; i < sections.size(); ++i) {
    if (i < 2) {
      fuzz::WriteFile(dir / fixed[i], sections[i]);
      continue;
    }
    const std::size_t newline = sections[i].find('\n');
    const std::string name = sections[i].substr(0, newline);
    if (name.empty() || name.size() > 40 || name.find('/') != std::string::npos) continue;
    fuzz::WriteFile(dir / ("validation-" + name + ".csv"), sections[i].substr(newline + 1));
  }
  try {
    const PolluxApplication app = PolluxApplication::Load(dir.string(), {});
    auto query = [](auto&& call) {
      try {
        call();
      } catch (const InputError&) {
      }
    };
    query([&] { app.Throughput({1}, app.min_local_bsz()); });
    query([&] { app.Throughput(PackedPlacement(6, 4), app.max_local_bsz()); });
    query([&] { app.Throughput({2, 1}, 0.5 * (app.min_local_bsz() + app.max_local_bsz())); });
    query([&] { app.MaxLocalBszAt({1}); });
    query([&] { app.MaxLocalBszAt(PackedPlacement(6, 4)); });
    query([&] { app.GradStats(app.init_batch_size(), 0); });
    query([&] { app.GradStats(0.5 * (app.init_batch_size() + app.max_batch_size()), 1); });
    query([&] { app.Iteration(app.max_batch_size(), app.completion_epoch()); });
    query([&] { app.TargetProgress(); });
  } catch (const InputError&) {
  }
  return 0;
}
