// Throughput oracles: how fast a job runs on a given number of GPUs (docs/mechanism.md §2).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace adaptsim {

/// Source of a job's isolated throughput. A value is the job's *aggregate* iterations per second on
/// `scale_factor` GPUs, one iteration consuming `batch_size` samples (docs/mechanism.md §2.2).
/// Implementations: ThroughputTable (measured, from a Shockwave/Gavel throughputs JSON) and the
/// catalogue models. Thread-safety: const methods are safe to call concurrently.
class ThroughputSource {
 public:
  virtual ~ThroughputSource() = default;
  /// Throughput in steps/s, or std::nullopt when the (model, batch size, scale factor) is unknown.
  virtual std::optional<double> ThroughputStepsPerS(std::string_view model, int batch_size,
                                                    int scale_factor) const = 0;
  /// A short description for provenance ("table:/path/tacc_throughputs.json[v100]").
  virtual std::string Describe() const = 0;
};

/// The measured table of a throughputs JSON, one worker type, isolated ("null") entries only
/// (`utils.read_all_throughputs_json_v2`, `scheduler/utils.py:575-594`).
class ThroughputTable final : public ThroughputSource {
 public:
  /// Reads `path`; keys "('<Model> (batch size <B>)', <sf>)" are parsed into (job type, sf).
  /// Throws InputError on a missing file, malformed JSON, a malformed key or a non-numeric value.
  static ThroughputTable ReadJson(const std::string& path, const std::string& worker_type = "v100");
  /// ReadJson of each of `worker_types` (in that order), the file parsed once.
  static std::vector<ThroughputTable> ReadJson(const std::string& path,
                                               const std::vector<std::string>& worker_types);

  std::optional<double> ThroughputStepsPerS(std::string_view model, int batch_size,
                                            int scale_factor) const override;
  std::string Describe() const override;

  /// Looks up by the full job-type string (e.g. "A3C" has no batch size).
  std::optional<double> Lookup(const std::string& job_type, int scale_factor) const;
  /// All entries: (job type, scale factor) -> steps/s.
  const std::map<std::pair<std::string, int>, double>& entries() const { return entries_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string worker_type_;
  std::map<std::pair<std::string, int>, double> entries_;
};

}  // namespace adaptsim
