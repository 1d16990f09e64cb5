// Pollux per-application profiles (docs/pollux.md §4.3; `A:simulator/applications.py:23-238`).
#include "adaptsim/pollux_application.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "adaptsim/error.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "delaunay_interpolator.hpp"

namespace adaptsim {

namespace fs = std::filesystem;

struct PolluxApplication::Validation {
  std::vector<double> progress, iteration, grad_sqr, grad_var;
};

namespace {

// Most nodes of a profiled placement (placements.csv): its id, one digit per node, fits a
// long long.
constexpr std::size_t kMaxPlacementIdNodes = 18;

// The placement's id as the artifact forms it ("4,4,2" -> 442), or -1 when it does not fit a
// long long (no profiled placement has such an id).
long long PlacementId(const std::vector<int>& placement) {
  long long id = 0;
  for (int replicas : placement) {
    if (__builtin_mul_overflow(id, 10, &id) || __builtin_add_overflow(id, replicas, &id)) {
      return -1;
    }
  }
  return id;
}

std::vector<int> DigitsOf(const CsvTable& table, std::size_t row) {
  const std::string& text = table.rows[row][0];
  std::vector<int> digits;
  for (char ch : text) {
    if (ch < '1' || ch > '9') {
      throw InputError(table.path, table.lines[row], "placement",
                       "expected replica digits 1-9, got '" + text + "'");
    }
    digits.push_back(ch - '0');
  }
  if (digits.empty()) throw InputError(table.path, table.lines[row], "placement", "empty");
  if (digits.size() > kMaxPlacementIdNodes) {
    throw InputError(
        table.path, table.lines[row], "placement",
        "at most " + std::to_string(kMaxPlacementIdNodes) + " nodes, got '" + text + "'");
  }
  return digits;
}

// Lexicographically smallest rotation, zeros dropped (`applications.py:207-210`).
std::vector<int> CanonicalPlacement(const std::vector<int>& placement) {
  std::vector<int> p;
  for (int r : placement)
    if (r > 0) p.push_back(r);
  std::vector<int> best = p;
  for (std::size_t i = 1; i < p.size(); ++i) {
    std::vector<int> rotated(p.begin() + i, p.end());
    rotated.insert(rotated.end(), p.begin(), p.begin() + i);
    best = std::min(best, rotated);
  }
  return best;
}

std::string Describe(const std::vector<int>& placement, double local_bsz) {
  std::string text = "placement (";
  for (std::size_t i = 0; i < placement.size(); ++i)
    text += (i ? "," : "") + std::to_string(placement[i]);
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), ") at local batch size %g", local_bsz);
  return text + buffer;
}

}  // namespace

PolluxApplication::~PolluxApplication() = default;
PolluxApplication::PolluxApplication(PolluxApplication&&) noexcept = default;
PolluxApplication& PolluxApplication::operator=(PolluxApplication&&) noexcept = default;

PolluxApplication PolluxApplication::Load(const std::string& trace_dir,
                                          const PolluxApplicationOverrides& overrides,
                                          const std::string& gpu_type) {
  PolluxApplication app;
  app.dir_ = trace_dir;
  app.gpu_type_ = gpu_type;
  app.name_ = fs::path(trace_dir).filename().string();
  if (app.name_.empty()) app.name_ = fs::path(trace_dir).parent_path().filename().string();
  if (!fs::is_directory(trace_dir)) {
    throw InputError(trace_dir, 0, "",
                     "profile folder of application '" + app.name_ + "' not found");
  }
  // validation-<bsz>.csv, ascending batch size (`applications.py:28-32`).
  std::map<int, Validation> validation;
  for (const auto& entry : fs::directory_iterator(trace_dir)) {
    const std::string file = entry.path().filename().string();
    if (file.rfind("validation-", 0) != 0 || entry.path().extension() != ".csv") continue;
    const std::string digits = file.substr(11, file.size() - 15);
    int batch_size = 0;
    const auto [end, error] =
        std::from_chars(digits.data(), digits.data() + digits.size(), batch_size);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos ||
        error != std::errc() || end != digits.data() + digits.size() || batch_size < 1) {
      throw InputError(entry.path().string(), 0, "",
                       "expected validation-<batch size>.csv with a batch size in [1, 2^31 - 1]");
    }
    CsvTable table = ReadCsvTable(entry.path().string(),
                                  {"progress", "iteration", "metric", "grad_sqr", "grad_var"});
    Validation v;
    for (std::size_t row = 0; row < table.rows.size(); ++row) {
      v.progress.push_back(CsvNumber(table, row, 0));
      v.iteration.push_back(CsvNumber(table, row, 1));
      CsvNumber(table, row, 2);
      v.grad_sqr.push_back(CsvNumber(table, row, 3));
      v.grad_var.push_back(CsvNumber(table, row, 4));
    }
    validation[batch_size] = std::move(v);
  }
  if (validation.empty()) {
    throw InputError(trace_dir, 0, "", "no validation-<batch size>.csv file");
  }
  std::size_t min_rows = std::numeric_limits<std::size_t>::max();
  for (auto& [bsz, v] : validation) {
    app.validated_.push_back(bsz);
    min_rows = std::min(min_rows, v.progress.size());
    app.validation_.push_back(std::move(v));
  }
  app.max_epochs_ = overrides.max_epochs > 0 ? overrides.max_epochs : static_cast<int>(min_rows);
  if (static_cast<std::size_t>(app.max_epochs_) > min_rows || min_rows == 0) {
    throw InputError(trace_dir, 0, "max_epochs",
                     "validation files have " + std::to_string(min_rows) + " epochs, need " +
                         std::to_string(app.max_epochs_));
  }
  // placements.csv and scalability.csv, or placements-<type>.csv and scalability-<type>.csv
  // (`S:sia-simulator/applications.py:37-46`).
  const std::string suffix = gpu_type.empty() ? "" : "-" + gpu_type;
  const std::string placements_path =
      (fs::path(trace_dir) / ("placements" + suffix + ".csv")).string();
  app.placements_path_ = placements_path;
  CsvTable placements =
      ReadCsvColumns(placements_path, {"placement", "local_bsz", "step_time", "sync_time"});
  if (placements.rows.empty()) throw InputError(placements_path, 0, "", "no placements");
  std::map<std::array<double, 3>, std::pair<StepTimes, int>> key_sums;  // groupby(N, K, bsz)
  app.min_local_bsz_ = std::numeric_limits<int>::max();
  for (std::size_t row = 0; row < placements.rows.size(); ++row) {
    std::vector<int> placement = DigitsOf(placements, row);
    const long long bsz = CsvInteger(placements, row, 1);
    const double step = CsvNumber(placements, row, 2), sync = CsvNumber(placements, row, 3);
    if (bsz < 1 || bsz > std::numeric_limits<int>::max() || step <= 0 || sync < 0) {
      throw InputError(placements_path, placements.lines[row], "",
                       "local_bsz in [1, 2^31 - 1], step_time > 0, sync_time >= 0 required");
    }
    app.placements_[PlacementId(placement)].push_back({static_cast<double>(bsz), step, sync});
    app.min_local_bsz_ = std::min(app.min_local_bsz_, static_cast<int>(bsz));
    app.max_local_bsz_ = std::max(app.max_local_bsz_, static_cast<int>(bsz));
    int replicas = 0;
    for (int r : placement) replicas += r;
    auto& [sum, count] = key_sums[{static_cast<double>(placement.size()),
                                   static_cast<double>(replicas), static_cast<double>(bsz)}];
    sum.step_time_s += step;
    sum.sync_time_s += sync;
    ++count;
  }
  for (auto& [id, rows] : app.placements_) {
    std::stable_sort(rows.begin(), rows.end(),
                     [](const GridRow& a, const GridRow& b) { return a.local_bsz < b.local_bsz; });
  }
  if (overrides.max_local_bsz > 0) app.max_local_bsz_ = overrides.max_local_bsz;
  std::vector<DelaunayInterpolator::Point> points;
  std::vector<DelaunayInterpolator::Value> values;
  for (const auto& [key, sum_count] : key_sums) {
    points.push_back(key);
    values.push_back({sum_count.first.step_time_s / sum_count.second,
                      sum_count.first.sync_time_s / sum_count.second});
  }
  const std::string scalability_path =
      (fs::path(trace_dir) / ("scalability" + suffix + ".csv")).string();
  CsvTable scalability = ReadCsvColumns(
      scalability_path, {"num_nodes", "num_replicas", "local_bsz", "step_time", "sync_time"});
  for (std::size_t row = 0; row < scalability.rows.size(); ++row) {
    points.push_back({CsvNumber(scalability, row, 0), CsvNumber(scalability, row, 1),
                      CsvNumber(scalability, row, 2)});
    values.push_back({CsvNumber(scalability, row, 3), CsvNumber(scalability, row, 4)});
    const long long nodes = CsvInteger(scalability, row, 0),
                    replicas = CsvInteger(scalability, row, 1),
                    bsz = CsvInteger(scalability, row, 2);
    if (nodes < 1 || replicas < nodes || bsz < 1 || replicas > std::numeric_limits<int>::max() ||
        bsz > std::numeric_limits<int>::max()) {
      throw InputError(scalability_path, scalability.lines[row], "",
                       "num_nodes >= 1, num_replicas >= num_nodes and local_bsz >= 1 required");
    }
    app.scalability_.push_back(
        {static_cast<int>(nodes), static_cast<int>(replicas), static_cast<int>(bsz)});
  }
  // Triangulated on the first look-up outside the profiled placements: the artifact builds its
  // LinearNDInterpolator only then (`S:sia-simulator/applications.py:279-290`), and some per-type
  // profiles (quad: one node only) are flat, so Qhull cannot triangulate them.
  app.interpolation_points_ = std::move(points);
  app.interpolation_values_ = std::move(values);
  return app;
}

PolluxApplication PolluxApplication::Synthetic(SyntheticApplicationSpec spec) {
  const std::string& where = spec.context;
  auto check = [&](bool ok, const char* field, const std::string& message) {
    if (!ok) throw InputError(where, 0, field, spec.name + ": " + message);
  };
  const std::size_t epochs = spec.epoch_progress.size();
  check(spec.init_batch_size >= 1, "batch_size", "initial batch size must be >= 1");
  check(spec.max_batch_size >= spec.init_batch_size, "batch_size", "max batch size < initial");
  check(spec.min_local_bsz >= 1 && spec.max_local_bsz >= spec.min_local_bsz, "local_bsz",
        "need 1 <= min_local_bsz <= max_local_bsz");
  check(spec.max_replicas >= 0 && spec.fixed_batch_size >= 0, "max_replicas", "must be >= 0");
  check(epochs >= 1 && spec.epoch_grad.size() == epochs, "epochs",
        "need one progress and one gradient-statistics entry per epoch (>= 1 epoch)");
  check(spec.samples_per_epoch > 0 && static_cast<bool>(spec.step_times), "samples_per_epoch",
        "need samples per epoch > 0 and a step-time function");
  PolluxApplication app;
  app.name_ = spec.name;
  app.dir_ = spec.context;
  app.validated_ = {spec.init_batch_size};
  if (spec.max_batch_size > spec.init_batch_size) app.validated_.push_back(spec.max_batch_size);
  Validation v;
  double progress = 0.0;
  for (std::size_t e = 0; e < epochs; ++e) {
    check(spec.epoch_progress[e] > 0 && std::isfinite(spec.epoch_progress[e]), "progress",
          "epoch progress must be positive");
    progress += spec.epoch_progress[e];
    v.progress.push_back(progress);
    v.grad_sqr.push_back(spec.epoch_grad[e].sqr);
    v.grad_var.push_back(spec.epoch_grad[e].var);
  }
  for (int batch : app.validated_) {
    Validation at = v;
    for (std::size_t e = 0; e < epochs; ++e) {
      at.iteration.push_back(spec.samples_per_epoch * static_cast<double>(e + 1) / batch);
    }
    app.validation_.push_back(std::move(at));
  }
  app.min_local_bsz_ = spec.min_local_bsz;
  app.max_local_bsz_ = spec.max_local_bsz;
  app.max_epochs_ = static_cast<int>(epochs);
  app.max_replicas_ = spec.max_replicas;
  app.fixed_batch_size_ = spec.fixed_batch_size;
  app.step_times_ = std::move(spec.step_times);
  return app;
}

std::pair<int, int> PolluxApplication::Bracket(double batch_size) const {
  // Synthetic applications: statistics do not depend on the batch size (see Synthetic()).
  if (step_times_)
    batch_size = std::clamp<double>(batch_size, validated_.front(), validated_.back());
  int lower = -1, upper = -1;
  for (std::size_t i = 0; i < validated_.size(); ++i) {
    if (validated_[i] <= batch_size) lower = static_cast<int>(i);
    if (validated_[i] >= batch_size) {
      upper = static_cast<int>(i);
      break;
    }
  }
  if (lower < 0 || upper < 0) {
    char buffer[160];
    std::snprintf(buffer, sizeof(buffer), "batch size %g outside the validated range [%d, %d]",
                  batch_size, validated_.front(), validated_.back());
    throw InputError(dir_, 0, "batch_size", buffer);
  }
  return {lower, upper};
}

namespace {

// ((b - lo) * upper + (up - b) * lower) / (up - lo) (`applications.py:160-163, 197-202`).
double InterpolateInBatch(double b, double lo, double up, double lower_value, double upper_value) {
  if (lo == up) return lower_value;
  return ((b - lo) * upper_value + (up - b) * lower_value) / (up - lo);
}

}  // namespace

GradientStats PolluxApplication::GradStats(double batch_size, int epoch) const {
  auto [lo, up] = Bracket(batch_size);
  if (epoch < 0 || epoch >= static_cast<int>(validation_[lo].grad_sqr.size()) ||
      epoch >= static_cast<int>(validation_[up].grad_sqr.size())) {
    throw InputError(dir_, 0, "epoch", "no gradient statistics for epoch " + std::to_string(epoch));
  }
  const Validation& a = validation_[lo];
  const Validation& b = validation_[up];
  return {InterpolateInBatch(batch_size, validated_[lo], validated_[up], a.grad_sqr[epoch],
                             b.grad_sqr[epoch]),
          InterpolateInBatch(batch_size, validated_[lo], validated_[up], a.grad_var[epoch],
                             b.grad_var[epoch])};
}

double PolluxApplication::Iteration(double batch_size, int epoch) const {
  auto [lo, up] = Bracket(batch_size);
  if (epoch < 0 || epoch >= static_cast<int>(validation_[lo].iteration.size()) ||
      epoch >= static_cast<int>(validation_[up].iteration.size())) {
    throw InputError(dir_, 0, "epoch", "no iteration count for epoch " + std::to_string(epoch));
  }
  return InterpolateInBatch(batch_size, validated_[lo], validated_[up],
                            validation_[lo].iteration[epoch], validation_[up].iteration[epoch]);
}

double PolluxApplication::Progress(int epoch) const {
  if (epoch == 0) return 0.0;
  double progress = std::numeric_limits<double>::infinity();
  for (const Validation& v : validation_) {
    if (epoch < 0 || epoch > static_cast<int>(v.progress.size())) {
      throw InputError(dir_, 0, "epoch", "no progress for epoch " + std::to_string(epoch));
    }
    progress = std::min(progress, v.progress[epoch - 1]);
  }
  return progress;
}

StepTimes PolluxApplication::Throughput(const std::vector<int>& placement, double local_bsz) const {
  auto key = std::make_pair(placement, local_bsz);
  auto it = memo_.find(key);
  if (it != memo_.end()) return it->second;
  StepTimes times = LookUp(placement, local_bsz);
  memo_.emplace(std::move(key), times);
  return times;
}

StepTimes PolluxApplication::LookUp(const std::vector<int>& placement, double local_bsz) const {
  if (step_times_) {
    int nodes = 0, replicas = 0;
    for (int r : placement) nodes += r > 0, replicas += r;
    if (replicas < 1) throw InputError(dir_, 0, "placement", name_ + ": no replicas");
    return step_times_(nodes, replicas, local_bsz);
  }
  const std::vector<int> canonical = CanonicalPlacement(placement);
  const std::string& placements_path = placements_path_;
  if (canonical.empty()) throw InputError(placements_path, 0, "placement", "no replicas");
  const long long id = PlacementId(canonical);
  auto found = id < 0 ? placements_.end() : placements_.find(id);
  if (found != placements_.end()) {
    // scipy interp1d, kind linear (`_call_linear`): searchsorted left, clipped to [1, n-1].
    const std::vector<GridRow>& rows = found->second;
    if (!(local_bsz >= rows.front().local_bsz && local_bsz <= rows.back().local_bsz)) {
      throw InputError(placements_path, 0, "local_bsz",
                       Describe(canonical, local_bsz) + " is outside the profiled batch sizes");
    }
    if (rows.size() == 1) return {rows[0].step_time_s, rows[0].sync_time_s};
    std::size_t hi = std::lower_bound(rows.begin(), rows.end(), local_bsz,
                                      [](const GridRow& r, double x) { return r.local_bsz < x; }) -
                     rows.begin();
    hi = std::clamp<std::size_t>(hi, 1, rows.size() - 1);
    const GridRow& a = rows[hi - 1];
    const GridRow& b = rows[hi];
    const double dx = local_bsz - a.local_bsz, width = b.local_bsz - a.local_bsz;
    return {(b.step_time_s - a.step_time_s) / width * dx + a.step_time_s,
            (b.sync_time_s - a.sync_time_s) / width * dx + a.sync_time_s};
  }
  int replicas = 0;
  for (int r : canonical) replicas += r;
  const double num_nodes = std::min<double>(static_cast<double>(canonical.size()), 16.0);
  if (!interpolator_) {
    interpolator_ = std::make_unique<DelaunayInterpolator>(interpolation_points_,
                                                           interpolation_values_, placements_path);
  }
  auto value = interpolator_->At({num_nodes, static_cast<double>(replicas), local_bsz});
  if (!value) {
    throw InputError(placements_path, 0, "placement",
                     Describe(canonical, local_bsz) + " is outside the profiled domain");
  }
  return {(*value)[0], (*value)[1]};
}

const std::vector<PolluxApplication::PlacementRow>* PolluxApplication::ProfiledPlacement(
    const std::vector<int>& placement) const {
  const std::vector<int> canonical = CanonicalPlacement(placement);
  if (canonical.empty()) return nullptr;
  const long long id = PlacementId(canonical);
  auto found = id < 0 ? placements_.end() : placements_.find(id);
  return found == placements_.end() ? nullptr : &found->second;
}

int PolluxApplication::MaxLocalBszAt(const std::vector<int>& placement) const {
  if (synthetic()) return max_local_bsz_;  // no memory table (see the header)
  if (const std::vector<PlacementRow>* rows = ProfiledPlacement(placement)) {
    double largest = 0;
    for (const PlacementRow& row : *rows) largest = std::max(largest, row.local_bsz);
    return static_cast<int>(largest);
  }
  int nodes = 0, replicas = 0;
  for (int r : placement) nodes += r > 0, replicas += std::max(r, 0);
  int largest = 0;
  for (const ScalabilityRow& row : scalability_) {
    if (row.num_nodes >= nodes && row.num_replicas >= replicas) {
      largest = std::max(largest, row.local_bsz);
    }
  }
  if (largest == 0) {
    throw InputError(
        placements_path_.empty() ? dir_ : placements_path_, 0, "placement",
        name_ + ": no profiled placement or scalability row with >= " + std::to_string(nodes) +
            " nodes and >= " + std::to_string(replicas) + " replicas");
  }
  return largest;
}

int PolluxApplication::MaxLocalBszAtReplicas(int num_replicas) const {
  double largest = 0;
  for (const auto& [id, rows] : placements_) {
    int replicas = 0;
    for (long long rest = id; rest > 0; rest /= 10) replicas += static_cast<int>(rest % 10);
    if (replicas != num_replicas) continue;
    for (const PlacementRow& row : rows) largest = std::max(largest, row.local_bsz);
  }
  return static_cast<int>(largest);
}

std::vector<int> PackedPlacement(int num_replicas, int per_node) {
  std::vector<int> placement;
  for (int left = num_replicas; left > 0; left -= per_node) {
    placement.push_back(std::min(left, per_node));
  }
  return placement;
}

namespace {

struct KnownApplication {
  const char* name;
  PolluxApplicationOverrides overrides;
};

// `applications.py:230-238`.
constexpr KnownApplication kKnownApplications[] = {
    {"bert", {2, 0}},      {"cifar10", {100, 0}},    {"ncf", {10, 0}},
    {"imagenet", {90, 0}}, {"deepspeech2", {80, 0}}, {"yolov3", {50, 8}},
};

}  // namespace

void PolluxApplications::Add(PolluxApplication app) {
  const std::string name = app.name();
  if (loaded_.count(name) > 0) throw InputError(name, 0, "application", "registered twice");
  loaded_.emplace(name, std::make_unique<PolluxApplication>(std::move(app)));
}

const PolluxApplication& PolluxApplications::Get(const std::string& name,
                                                 const std::string& context_file,
                                                 int context_line) {
  auto it = loaded_.find(name);
  if (it != loaded_.end()) return *it->second;
  for (const KnownApplication& known : kKnownApplications) {
    if (name != known.name) continue;
    auto app = std::make_unique<PolluxApplication>(
        PolluxApplication::Load((fs::path(traces_dir_) / name).string(), known.overrides));
    return *loaded_.emplace(name, std::move(app)).first->second;
  }
  throw InputError(context_file, context_line, "application",
                   "unknown application '" + name +
                       "' (known: bert, cifar10, ncf, imagenet, deepspeech2, yolov3)");
}

void CheckJobBatchSize(const PolluxWorkload& workload, const PolluxJobSpec& spec,
                       const PolluxApplication& app) {
  if (spec.batch_size < app.init_batch_size() || spec.batch_size > app.max_batch_size()) {
    throw InputError(
        workload.path, spec.line, "batch_size",
        "batch size " + std::to_string(spec.batch_size) + " of application '" + spec.application +
            "' is outside its validated range [" + std::to_string(app.init_batch_size()) + ", " +
            std::to_string(app.max_batch_size()) + "] (validation-<bsz>.csv in " + app.dir() + ")");
  }
}

void CheckWorkloadAgainstProfiles(const PolluxWorkload& workload, PolluxApplications& apps) {
  for (const PolluxJobSpec& spec : workload.jobs) {
    CheckJobBatchSize(workload, spec, apps.Get(spec.application, workload.path, spec.line));
  }
}

}  // namespace adaptsim
