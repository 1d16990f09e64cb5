// ProductionSource <-> canonical JSON (production_source.hpp; docs/production.md).
#include "adaptsim/production_source.hpp"

#include <cmath>
#include <limits>
#include <set>
#include <sstream>

#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

[[noreturn]] void Fail(const std::string& context, const std::string& key,
                       const std::string& message) {
  throw InputError(context, 0, "production." + key, message);
}

/// A GPU-time bound in JSON: a number, or "inf" (JSON has no infinity).
nlohmann::json BoundJson(double hours) {
  return std::isinf(hours) ? nlohmann::json("inf") : nlohmann::json(hours);
}

/// The mapping's own checks that need no catalogue (ProductionTraceOptions::Validate checks the
/// models when the task runs).
void CheckRule(const std::string& context, const ProductionTraceOptions& rule) {
  double previous = 0.0;
  for (const GpuTimeBucket& bucket : rule.buckets) {
    if (!(bucket.max_gpu_time_h > previous)) {
      Fail(context, "mapping", "GPU-time bounds must be positive and increasing");
    }
    previous = bucket.max_gpu_time_h;
    if (bucket.models.empty()) Fail(context, "mapping", "a bucket without models");
  }
  if (!std::isinf(previous)) Fail(context, "mapping", "the last bound must be \"inf\"");
  double sum = 0.0;
  for (double p : rule.mode_mix) {
    if (!(p >= 0.0 && p <= 1.0)) Fail(context, "mode_mix", "each share must be in [0, 1]");
    sum += p;
  }
  if (std::abs(sum - 1.0) > 1e-9) Fail(context, "mode_mix", "the shares must sum to 1");
  if (!(rule.accordion_min_duration_s >= 0.0)) {
    Fail(context, "accordion_min_duration_s", "must be >= 0");
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

void ReadFieldJson(const ConfigField& /*field*/, const nlohmann::json& value,
                   std::vector<std::string>& member, const std::string& context,
                   const std::string& label) {
  if (!value.is_array()) throw InputError(context, 0, label, "expected a list of strings");
  member.clear();
  for (const nlohmann::json& item : value) {
    if (!item.is_string()) throw InputError(context, 0, label, "expected a list of strings");
    member.push_back(item.get<std::string>());
  }
}

nlohmann::json WriteFieldJson(const std::vector<std::string>& member) {
  return member;
}

void ReadFieldJson(const ConfigField& field, const nlohmann::json& value,
                   std::vector<GpuTimeBucket>& member, const std::string& context,
                   const std::string& label) {
  if (!value.is_array() || value.empty()) {
    throw InputError(context, 0, label, "expected a non-empty list of {max_gpu_time_h, models}");
  }
  member.clear();
  for (const nlohmann::json& item : value) {
    if (!item.is_object() || item.size() != 2 || !item.contains("max_gpu_time_h") ||
        !item.contains("models")) {
      throw InputError(context, 0, label,
                       "each bucket is {max_gpu_time_h = hours or \"inf\", models = [...]}");
    }
    GpuTimeBucket bucket;
    const nlohmann::json& bound = item["max_gpu_time_h"];
    if (bound.is_string() && bound.get<std::string>() == "inf") {
      bucket.max_gpu_time_h = std::numeric_limits<double>::infinity();
    } else if (bound.is_number()) {
      bucket.max_gpu_time_h = bound.get<double>();
    } else {
      throw InputError(context, 0, label, "max_gpu_time_h must be a number of hours or \"inf\"");
    }
    ReadFieldJson(field, item["models"], bucket.models, context, label);
    member.push_back(std::move(bucket));
  }
}

nlohmann::json WriteFieldJson(const std::vector<GpuTimeBucket>& member) {
  nlohmann::json mapping = nlohmann::json::array();
  for (const GpuTimeBucket& bucket : member) {
    mapping.push_back(
        {{"max_gpu_time_h", BoundJson(bucket.max_gpu_time_h)}, {"models", bucket.models}});
  }
  return mapping;
}

void ReadFieldJson(const ConfigField& /*field*/, const nlohmann::json& value,
                   std::array<double, 3>& member, const std::string& context,
                   const std::string& label) {
  if (!value.is_array() || value.size() != 3) {
    throw InputError(context, 0, label, "expected 3 numbers: static, accordion, gns shares");
  }
  for (std::size_t i = 0; i < 3; ++i) {
    if (!value[i].is_number()) throw InputError(context, 0, label, "expected 3 numbers");
    member[i] = value[i].get<double>();
  }
}

nlohmann::json WriteFieldJson(const std::array<double, 3>& member) {
  return member;
}

const std::set<std::string, std::less<>>& ProductionSourceKeys() {
  static const std::set<std::string, std::less<>> keys = [] {
    std::set<std::string, std::less<>> names;
    const ProductionSource probe;
    VisitProductionSourceFields(
        probe, [&](const ConfigField& field, const auto&) { names.emplace(field.key); });
    return names;
  }();
  return keys;
}

ProductionLogFormat ParseProductionLogFormat(const std::string& text, const std::string& context,
                                             int line, const std::string& field) {
  for (const auto& [format, name] : EnumChoices(ProductionLogFormat{})) {
    if (name == text) return format;
  }
  throw InputError(context, line, field,
                   "unknown log format '" + text + "' (" + ChoiceList<ProductionLogFormat>() + ")");
}

nlohmann::json ProductionSource::ToJson() const {
  nlohmann::json json = nlohmann::json::object();
  const ProductionSource defaults;
  std::set<std::string_view> written;
  VisitProductionSourceFields(*this, [&](const ConfigField& field, const auto& member) {
    nlohmann::json value = WriteFieldJson(member);
    bool write = field.written_with.empty() || written.count(field.written_with) > 0;
    if (field.encoding == Encoding::kUnlessDefault) {
      VisitProductionSourceFields(defaults, [&](const ConfigField& other, const auto& fallback) {
        if (other.key == field.key && WriteFieldJson(fallback) == value) write = false;
      });
    }
    if (!write) return;
    written.insert(field.key);
    json[std::string(field.key)] = std::move(value);
  });
  return json;
}

ProductionSource ProductionSource::FromJson(const nlohmann::json& json,
                                            const std::string& context) {
  if (!json.is_object()) throw InputError(context, 0, "production", "expected an object");
  for (const auto& [key, value] : json.items()) {
    if (ProductionSourceKeys().count(key) == 0) Fail(context, key, "unknown field");
  }
  ProductionSource source;
  std::vector<ConfigField> dependent;  // fields written only with another one
  VisitProductionSourceFields(source, [&](const ConfigField& field, auto& member) {
    auto it = json.find(field.key);
    if (it == json.end()) {
      if (field.encoding == Encoding::kAlways)
        Fail(context, std::string(field.key), "missing field");
      return;
    }
    if (!field.written_with.empty()) dependent.push_back(field);
    ReadFieldJson(field, *it, member, context, "production." + std::string(field.key));
  });
  // A field written only with another one is given only with it (ToJson would drop it).
  const nlohmann::json canonical = source.ToJson();
  for (const ConfigField& field : dependent) {
    if (!canonical.contains(field.written_with)) {
      Fail(context, std::string(field.written_with),
           std::string(field.key) + " applies only when " + std::string(field.written_with) +
               " is set");
    }
  }
  try {
    source.select.Validate(source.format);
  } catch (const InputError& error) {
    // Re-reported under this context: drop the validator's "file: field 'x': " prefix.
    const std::string text = error.what();
    const std::string prefix = error.file() + ": field '" + error.field() + "': ";
    Fail(context, error.field(), text.rfind(prefix, 0) == 0 ? text.substr(prefix.size()) : text);
  }
  CheckRule(context, source.rule);
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
