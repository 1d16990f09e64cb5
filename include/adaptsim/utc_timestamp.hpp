// The provenance timestamp of results files and shard manifests.
#pragma once

#include <chrono>
#include <ctime>
#include <string>

namespace adaptsim {

/// The current time in UTC as ISO 8601 with seconds, e.g. "2026-11-23T23:59:07Z".
inline std::string UtcTimestamp() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace adaptsim
