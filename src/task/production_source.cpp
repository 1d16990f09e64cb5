// ProductionSource <-> canonical JSON (production_source.hpp; docs/production.md).
#include "adaptsim/production_source.hpp"

#include <cmath>
#include <limits>
#include <set>
#include <sstream>

#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

/// Keys written only when the artifact-style sample is on (so earlier task ids are unchanged).
const char* const kSampleKeys[] = {"sample_jobs", "sample_start_hour", "sample_hours"};

/// Reads `production.KEY` of `json` with messages naming it.
struct Fields {
  const nlohmann::json& json;
  const std::string& context;

  [[noreturn]] void Fail(const std::string& key, const std::string& message) const {
    throw InputError(context, 0, "production." + key, message);
  }
  const nlohmann::json& Get(const std::string& key) const {
    auto it = json.find(key);
    if (it == json.end()) Fail(key, "missing field");
    return *it;
  }
  double Number(const std::string& key) const {
    const nlohmann::json& value = Get(key);
    if (!value.is_number()) Fail(key, "expected a number");
    return value.get<double>();
  }
  bool Boolean(const std::string& key) const {
    const nlohmann::json& value = Get(key);
    if (!value.is_boolean()) Fail(key, "expected true or false");
    return value.get<bool>();
  }
  std::string String(const std::string& key) const {
    const nlohmann::json& value = Get(key);
    if (!value.is_string()) Fail(key, "expected a string");
    return value.get<std::string>();
  }
  std::vector<std::string> Strings(const std::string& key, const nlohmann::json& value) const {
    if (!value.is_array()) Fail(key, "expected a list of strings");
    std::vector<std::string> out;
    for (const nlohmann::json& item : value) {
      if (!item.is_string()) Fail(key, "expected a list of strings");
      out.push_back(item.get<std::string>());
    }
    return out;
  }
};

/// A GPU-time bound in JSON: a number, or "inf" (JSON has no infinity).
nlohmann::json BoundJson(double hours) {
  return std::isinf(hours) ? nlohmann::json("inf") : nlohmann::json(hours);
}

std::vector<GpuTimeBucket> ReadMapping(const Fields& fields) {
  const nlohmann::json& mapping = fields.Get("mapping");
  if (!mapping.is_array() || mapping.empty()) {
    fields.Fail("mapping", "expected a non-empty list of {max_gpu_time_h, models}");
  }
  std::vector<GpuTimeBucket> buckets;
  for (const nlohmann::json& item : mapping) {
    if (!item.is_object() || item.size() != 2 || !item.contains("max_gpu_time_h") ||
        !item.contains("models")) {
      fields.Fail("mapping", "each bucket is {max_gpu_time_h = hours or \"inf\", models = [...]}");
    }
    GpuTimeBucket bucket;
    const nlohmann::json& bound = item["max_gpu_time_h"];
    if (bound.is_string() && bound.get<std::string>() == "inf") {
      bucket.max_gpu_time_h = std::numeric_limits<double>::infinity();
    } else if (bound.is_number()) {
      bucket.max_gpu_time_h = bound.get<double>();
    } else {
      fields.Fail("mapping", "max_gpu_time_h must be a number of hours or \"inf\"");
    }
    bucket.models = fields.Strings("mapping", item["models"]);
    buckets.push_back(std::move(bucket));
  }
  return buckets;
}

/// The mapping's own checks that need no catalogue (ProductionTraceOptions::Validate checks the
/// models when the task runs).
void CheckRule(const Fields& fields, const ProductionTraceOptions& rule) {
  double previous = 0.0;
  for (const GpuTimeBucket& bucket : rule.buckets) {
    if (!(bucket.max_gpu_time_h > previous)) {
      fields.Fail("mapping", "GPU-time bounds must be positive and increasing");
    }
    previous = bucket.max_gpu_time_h;
    if (bucket.models.empty()) fields.Fail("mapping", "a bucket without models");
  }
  if (!std::isinf(previous)) fields.Fail("mapping", "the last bound must be \"inf\"");
  double sum = 0.0;
  for (double p : rule.mode_mix) {
    if (!(p >= 0.0 && p <= 1.0)) fields.Fail("mode_mix", "each share must be in [0, 1]");
    sum += p;
  }
  if (std::abs(sum - 1.0) > 1e-9) fields.Fail("mode_mix", "the shares must sum to 1");
  if (!(rule.accordion_min_duration_s >= 0.0)) {
    fields.Fail("accordion_min_duration_s", "must be >= 0");
  }
}

}  // namespace

std::string ProductionLabel(const ProductionSource& source) {
  const ProductionLogOptions& select = source.select;
  std::ostringstream label;
  label << ToString(source.format) << ' ';
  if (!select.window_start.empty()) {
    label << select.window_start;
  } else {
    label << select.window_start_s << 's';
  }
  if (select.window_length_s > 0) label << " +" << select.window_length_s << 's';
  for (const std::string& cluster : select.virtual_clusters) label << " vc=" << cluster;
  if (select.pollux_filter) label << " pollux_filter";
  if (select.sample_jobs > 0) {
    label << " sample=" << select.sample_jobs << '@' << select.sample_start_hour << "h+"
          << select.sample_hours << 'h';
  }
  label << " model_seed=" << source.rule.seed;
  return label.str();
}

const std::set<std::string, std::less<>>& ProductionSourceKeys() {
  static const std::set<std::string, std::less<>> keys = {
      "format",           "window_start",      "window_start_s", "window_length_s",
      "virtual_clusters", "min_duration_s",    "pollux_filter",  "skip_unsimulable",
      "model_seed",       "mapping",           "mode_mix",       "accordion_min_duration_s",
      "sample_jobs",      "sample_start_hour", "sample_hours"};
  return keys;
}

ProductionLogFormat ParseProductionLogFormat(const std::string& text, const std::string& context,
                                             int line, const std::string& field) {
  if (text == "philly") return ProductionLogFormat::kPhilly;
  if (text == "itp") return ProductionLogFormat::kItp;
  throw InputError(context, line, field, "unknown log format '" + text + "' (philly or itp)");
}

nlohmann::json ProductionSource::ToJson() const {
  nlohmann::json mapping = nlohmann::json::array();
  for (const GpuTimeBucket& bucket : rule.buckets) {
    mapping.push_back(
        {{"max_gpu_time_h", BoundJson(bucket.max_gpu_time_h)}, {"models", bucket.models}});
  }
  nlohmann::json json = {{"format", ToString(format)},
                         {"window_start", select.window_start},
                         {"window_start_s", select.window_start_s},
                         {"window_length_s", select.window_length_s},
                         {"virtual_clusters", select.virtual_clusters},
                         {"min_duration_s", select.min_duration_s},
                         {"pollux_filter", select.pollux_filter},
                         {"skip_unsimulable", select.skip_unsimulable},
                         {"model_seed", rule.seed},
                         {"mapping", std::move(mapping)},
                         {"mode_mix", rule.mode_mix},
                         {"accordion_min_duration_s", rule.accordion_min_duration_s}};
  if (select.sample_jobs > 0) {
    json["sample_jobs"] = select.sample_jobs;
    json["sample_start_hour"] = select.sample_start_hour;
    json["sample_hours"] = select.sample_hours;
  }
  return json;
}

ProductionSource ProductionSource::FromJson(const nlohmann::json& json,
                                            const std::string& context) {
  if (!json.is_object()) throw InputError(context, 0, "production", "expected an object");
  const Fields fields{json, context};
  for (const auto& [key, value] : json.items()) {
    if (ProductionSourceKeys().count(key) == 0) fields.Fail(key, "unknown field");
  }
  ProductionSource source;
  source.format =
      ParseProductionLogFormat(fields.String("format"), context, 0, "production.format");
  ProductionLogOptions& select = source.select;
  select.window_start = fields.String("window_start");
  select.window_start_s = fields.Number("window_start_s");
  select.window_length_s = fields.Number("window_length_s");
  select.virtual_clusters = fields.Strings("virtual_clusters", fields.Get("virtual_clusters"));
  select.min_duration_s = fields.Number("min_duration_s");
  select.pollux_filter = fields.Boolean("pollux_filter");
  select.skip_unsimulable = fields.Boolean("skip_unsimulable");
  // The sample's keys are optional (absent = no sample); the hours default to the artifact's.
  for (const char* key : kSampleKeys) {
    if (json.contains(key) && !json[key].is_number_integer())
      fields.Fail(key, "expected an integer");
  }
  select.sample_jobs = json.value("sample_jobs", 0);
  select.sample_start_hour = json.value("sample_start_hour", select.sample_start_hour);
  select.sample_hours = json.value("sample_hours", select.sample_hours);
  if (select.sample_jobs == 0 &&
      (json.contains("sample_start_hour") || json.contains("sample_hours"))) {
    fields.Fail("sample_jobs", "sample_start_hour and sample_hours need sample_jobs >= 1");
  }
  const nlohmann::json& seed = fields.Get("model_seed");
  if (!seed.is_number_unsigned()) fields.Fail("model_seed", "expected an integer >= 0");
  source.rule.seed = seed.get<std::uint64_t>();
  source.rule.buckets = ReadMapping(fields);
  const nlohmann::json& mix = fields.Get("mode_mix");
  if (!mix.is_array() || mix.size() != 3) {
    fields.Fail("mode_mix", "expected 3 numbers: static, accordion, gns shares");
  }
  for (std::size_t i = 0; i < 3; ++i) {
    if (!mix[i].is_number()) fields.Fail("mode_mix", "expected 3 numbers");
    source.rule.mode_mix[i] = mix[i].get<double>();
  }
  source.rule.accordion_min_duration_s = fields.Number("accordion_min_duration_s");
  try {
    select.Validate(source.format);
  } catch (const InputError& error) {
    // Re-reported under this context: drop the validator's "file: field 'x': " prefix.
    const std::string text = error.what();
    const std::string prefix = error.file() + ": field '" + error.field() + "': ";
    fields.Fail(error.field(), text.rfind(prefix, 0) == 0 ? text.substr(prefix.size()) : text);
  }
  CheckRule(fields, source.rule);
  return source;
}

ProductionLogOptions ProductionSource::LogOptions(int cluster_gpus) const {
  ProductionLogOptions options = select;
  options.cluster_gpus = cluster_gpus;
  options.sample_seed = rule.seed;  // the model seed keys the sample too, as in the artifact
  return options;
}

ProductionTraceOptions ProductionSource::TraceOptions() const {
  ProductionTraceOptions options = rule;
  options.skip_unsupported = select.skip_unsimulable;
  return options;
}

std::map<std::string, std::int64_t> ProductionInputStatistics(const ProductionLogStats& stats,
                                                              std::int64_t skipped_unsupported,
                                                              std::int64_t skipped_no_work,
                                                              std::int64_t simulated_jobs) {
  return {{"rows_read", stats.rows_read},
          {"outside_window", stats.outside_window},
          {"other_virtual_cluster", stats.other_virtual_cluster},
          {"below_min_duration", stats.below_min_duration},
          {"pollux_filtered", stats.pollux_filtered},
          {"skipped_too_many_gpus", stats.skipped_too_many_gpus},
          {"skipped_zero_duration", stats.skipped_zero_duration},
          {"outside_sample_hours", stats.outside_sample_hours},
          {"not_sampled", stats.not_sampled},
          {"selected", stats.selected},
          {"skipped_unsupported", skipped_unsupported},
          {"skipped_no_work", skipped_no_work},
          {"simulated_jobs", simulated_jobs}};
}

}  // namespace adaptsim
