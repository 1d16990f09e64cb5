// Fuzz target: the results/shard reader on well-formed HDF5 files with wrong contents — the
// HDF5 structure stays valid, the adaptsim layout inside it does not (docs/reliability.md,
// "Fuzzing"). Starting from a valid shard (written by WriteShard), the input is a list of edits:
// replace an attribute or a column (another type, another length, other values), delete one, or
// add an attribute; then the reader calls of the results_hdf5 target run on the edited file.
// Such files are what another version, another tool or a partial write leaves behind; a reader
// must answer them with StoreError, never with a crash or another exception.
//
// Edit encoding (bytes, read until the input ends): op, index, type, length, values... where
//   op % 4: 0 = replace attribute, 1 = replace column, 2 = delete, 3 = add attribute
//   index:  which of the template's attributes / columns / objects (modulo their number)
//   type % 4: int64, uint64, double, string; length % 9 column rows; values: 8 bytes each
//   (strings: 1 length byte, then that many bytes).
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "adaptsim/error.hpp"
#include "adaptsim/store.hpp"
#include "fuzz_support.hpp"
#include "hdf5_io.hpp"
#include "results_readers.hpp"

namespace {

using namespace adaptsim;
namespace fs = std::filesystem;

const char kTaskId[] = "0123456789abcdef0123456789abcdef";

struct Item {
  std::string object;  // group path
  std::string name;    // attribute or dataset name
};

struct Template {
  std::string path;
  std::string bytes;                // the file's contents, written afresh for every input
  std::vector<std::string> groups;  // every group, "/" included
  std::vector<Item> attributes;
  std::vector<Item> columns;
};

TaskRecord Record() {
  TaskRecord record;
  record.task_id = kTaskId;
  record.keys.policy = "fifo";
  record.keys.trace_path = "/data/a.trace";
  record.keys.throughputs_path = "/data/t.json";
  record.keys.num_gpus = 4;
  record.config_json = {{"policy", "fifo"}, {"seed", 1}};
  SimulationResult& r = record.result;
  r.jobs = {{0, "ResNet-18", 1, 32, 64, 0.0, 1000.5, 1000.5, 800.25, 1.25, 1.5, 2,
             JobOutcome::kCompleted, RoundJobExtras{AdaptationMode::kAccordion, 9}},
            {1, "LM", 2, 16, 16, 10.0, 5000.0, 4990.0, 100.0, 49.9, 2.0, 0, JobOutcome::kDeadline,
             RoundJobExtras{AdaptationMode::kStatic, 40}}};
  r.rounds = {{0, 0.0, 120.0, 3, 2, {0, 1}, {{0}, {1, 2}}}, {1, 120.0, 240.0, 1, 1, {1}, {{0}}}};
  r.throughput_timeline = {{0, 1, 12.5, 32}, {1, 1, 3.25, 16}};
  r.gpu_busy_time_s = {240.0, 120.0, 120.0, 0.5};
  r.summary.makespan_s = 5000.0;
  r.summary.num_jobs = 2;
  r.policy_statistics = {{"allocation_solves", 3.0}};
  r.input_statistics = {{"rows_read", 2}};
  return record;
}

void Walk(hid_t file, const std::string& group_path, Template& t) {
  t.groups.push_back(group_path);
  store::Handle group = store::OpenGroup(file, group_path);
  for (const std::string& name : store::AttributeNames(group))
    t.attributes.push_back({group_path, name});
  for (const std::string& name : store::ChildNames(group)) {
    H5O_info_t info{};
    store::Check(H5Oget_info_by_name2(group, name.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT),
                 "inspect " + name);
    const std::string child = (group_path == "/" ? "/" : group_path + "/") + name;
    if (info.type == H5O_TYPE_GROUP) {
      Walk(file, child, t);
    } else {
      t.columns.push_back({group_path, name});
    }
  }
}

const Template& GetTemplate() {
  static const Template t = [] {
    Template t;
    t.path = (fuzz::ScratchDir() / "template.h5").string();
    Provenance provenance;
    provenance.argv = {"fuzz_results_fields"};
    WriteShard(t.path, Record(), provenance);
    std::ifstream in(t.path, std::ios::binary);
    t.bytes.assign(std::istreambuf_iterator<char>(in), {});
    store::ErrorScope errors;
    store::Handle file = store::OpenFile(t.path, false);
    Walk(file, "/", t);
    return t;
  }();
  return t;
}

/// The input, consumed front to back; 0 once it is exhausted.
struct Bytes {
  const std::uint8_t* data;
  std::size_t size;
  std::uint8_t Next() {
    if (size == 0) return 0;
    --size;
    return *data++;
  }
  std::uint64_t Next8() {
    std::uint64_t value = 0;
    for (int i = 0; i < 8; ++i) value = value << 8 | Next();
    return value;
  }
  std::string Text() {
    std::string text;
    for (std::uint8_t n = Next() % 24; n > 0 && size > 0; --n) text += static_cast<char>(Next());
    return text;
  }
};

store::AttributeValue Scalar(Bytes& in, int type) {
  switch (type) {
    case 0:
      return static_cast<std::int64_t>(in.Next8());
    case 1:
      return in.Next8();
    case 2: {
      const std::uint64_t bits = in.Next8();
      double value;
      std::memcpy(&value, &bits, sizeof value);
      return value;
    }
    default:
      return in.Text();
  }
}

store::ColumnData Column(Bytes& in, int type, int rows) {
  auto fill = [&](auto column) {
    for (int r = 0; r < rows; ++r) {
      column.push_back(std::get<typename decltype(column)::value_type>(Scalar(in, type)));
    }
    return store::ColumnData(std::move(column));
  };
  switch (type) {
    case 0:
      return fill(std::vector<std::int64_t>{});
    case 1:
      return fill(std::vector<std::uint64_t>{});
    case 2:
      return fill(std::vector<double>{});
    default:
      return fill(std::vector<std::string>{});
  }
}

void Edit(const Template& t, const std::string& path, Bytes in) {
  store::ErrorScope errors;
  store::Handle file = store::OpenFile(path, true);
  while (in.size > 0) {
    const int op = in.Next() % 4;
    const std::uint8_t index = in.Next();
    const int type = in.Next() % 4;
    if (op == 0 || (op == 2 && index % 2 == 0)) {  // replace or delete an attribute
      const Item& item = t.attributes[index % t.attributes.size()];
      store::Handle object = store::OpenGroup(file, item.object);
      if (op == 0) {
        store::WriteAttribute(object, item.name, Scalar(in, type));
      } else if (store::HasAttribute(object, item.name)) {
        store::Check(H5Adelete(object, item.name.c_str()), "delete " + item.name);
      }
    } else if (op == 1 || op == 2) {  // replace or delete a column
      const Item& item = t.columns[index % t.columns.size()];
      store::Handle group = store::OpenGroup(file, item.object);
      if (store::Exists(group, item.name)) {
        store::Check(H5Ldelete(group, item.name.c_str(), H5P_DEFAULT), "delete " + item.name);
      }
      if (op == 1) {
        const int rows = in.Next() % 9;
        store::WriteColumn(group, item.name, Column(in, type, rows), "", false);
      }
    } else {  // a new attribute on any group
      store::Handle object = store::OpenGroup(file, t.groups[index % t.groups.size()]);
      const std::string name = in.Text();
      if (!name.empty() && name.find('\0') == std::string::npos) {
        store::WriteAttribute(object, name, Scalar(in, type));
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Template& t = GetTemplate();
  const std::string path = (fuzz::ScratchDir() / "edited.h5").string();
  // Written through a stream, which retries a write(2) that a signal interrupted:
  // filesystem::copy_file does not, and libFuzzer's 1-s timer (SIGALRM, no SA_RESTART) once
  // stopped a long run with "cannot copy file: Interrupted system call".
  fuzz::WriteFile(path, t.bytes);
  try {
    Edit(t, path, Bytes{data, size});
  } catch (const StoreError&) {
    return 0;  // an edit HDF5 refuses (e.g. a string attribute name it cannot store)
  }
  // Held open while the readers run: H5Fopen of a file the process already has open shares its
  // superblock and metadata cache, so the readers' own openings cost little (41 -> 69 exec/s
  // under the sanitizers), and each reader still interprets the edited file itself.
  store::Handle held;
  try {
    store::ErrorScope errors;
    held = store::OpenFile(path, false);
  } catch (const StoreError&) {
  }
  fuzz::ReadResultsEveryWay(path, {kTaskId}, /*input_error_ok=*/false);
  return 0;
}
