// Measured throughput table (docs/mechanism.md §2; `utils.read_all_throughputs_json_v2`,
// `scheduler/utils.py:575-594`).
#include <charconv>
#include <fstream>

#include <nlohmann/json.hpp>

#include "adaptsim/error.hpp"
#include "adaptsim/job.hpp"
#include "adaptsim/throughput.hpp"

namespace adaptsim {
namespace {

// "('<job type>', <sf>)" as written by the reference: the job type runs to the last "'," (as the
// greedy `^\('(.*)', *(\d+)\)$` would match it), then spaces and the scale factor, a positive
// int. Parsed by hand: std::regex recurses once per character and overflows the stack on a long
// key.
bool ParseKey(const std::string& key, std::string& job_type, int& scale_factor) {
  if (key.size() < 6 || key.compare(0, 2, "('") != 0 || key.back() != ')') return false;
  const std::size_t quote = key.rfind("',");
  if (quote == std::string::npos || quote < 2) return false;
  std::size_t digits = quote + 2;
  while (digits < key.size() && key[digits] == ' ') ++digits;
  const char* first = key.data() + digits;
  const char* last = key.data() + key.size() - 1;  // before ')'
  if (first == last || *first < '0' || *first > '9') return false;
  auto [end, error] = std::from_chars(first, last, scale_factor);
  if (error != std::errc() || end != last) return false;
  job_type = key.substr(2, quote - 2);
  return true;
}

nlohmann::json ParseJsonFile(const std::string& path) {
  std::ifstream in = OpenInputFile(path, "throughputs file");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& error) {
    // nlohmann reports a byte offset; translate it into a line number.
    std::ifstream again(path);
    int line = 1;
    std::size_t offset = 0;
    for (char c; offset < error.byte && again.get(c); ++offset) line += (c == '\n');
    throw InputError(path, line, "", std::string("malformed JSON: ") + error.what());
  } catch (const nlohmann::json::exception& error) {  // e.g. a number too large for a double
    throw InputError(path, 0, "", std::string("malformed JSON: ") + error.what());
  }
}

}  // namespace

ThroughputTable ThroughputTable::ReadJson(const std::string& path, const std::string& worker_type) {
  return std::move(ReadJson(path, std::vector<std::string>{worker_type}).front());
}

std::vector<ThroughputTable> ThroughputTable::ReadJson(
    const std::string& path, const std::vector<std::string>& worker_types) {
  const nlohmann::json json = ParseJsonFile(path);
  std::vector<ThroughputTable> tables;
  for (const std::string& worker_type : worker_types) {
    if (!json.is_object() || !json.contains(worker_type) || !json.at(worker_type).is_object()) {
      throw InputError(path, 0, worker_type, "no object for worker type '" + worker_type + "'");
    }
    ThroughputTable& table = tables.emplace_back();
    table.path_ = path;
    table.worker_type_ = worker_type;
    for (const auto& [key, entry] : json.at(worker_type).items()) {
      std::string job_type;
      int scale_factor = 0;
      if (!ParseKey(key, job_type, scale_factor)) {
        throw InputError(path, 0, worker_type + "." + key,
                         "key is not \"('<job type>', <sf>)\" with a scale factor < 2^31");
      }
      if (!entry.is_object() || !entry.contains("null") || !entry.at("null").is_number()) {
        throw InputError(path, 0, worker_type + "." + key + ".null",
                         "expected a numeric isolated throughput");
      }
      double value = entry.at("null").get<double>();
      if (value < 0) {
        throw InputError(path, 0, worker_type + "." + key + ".null", "throughput must be >= 0");
      }
      table.entries_[{job_type, scale_factor}] = value;
    }
    if (table.entries_.empty()) throw InputError(path, 0, worker_type, "no throughput entries");
  }
  return tables;
}

std::optional<double> ThroughputTable::Lookup(const std::string& job_type, int scale_factor) const {
  auto it = entries_.find({job_type, scale_factor});
  if (it == entries_.end()) return std::nullopt;
  return it->second;
}

std::optional<double> ThroughputTable::ThroughputStepsPerS(std::string_view model, int batch_size,
                                                           int scale_factor) const {
  return Lookup(JobTypeName(model, batch_size), scale_factor);
}

std::string ThroughputTable::Describe() const {
  return "table:" + path_ + "[" + worker_type_ + "]";
}

}  // namespace adaptsim
