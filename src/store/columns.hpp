// The columns of the results file (private to src/store): the result records' field lists
// (adaptsim/result_fields.hpp) and the /summary row's (VisitSummaryColumns, adaptsim/store.hpp),
// used by both the writer and the readers.
// A Visit* function calls `visit(name, units, field)` for every column of a record, in file
// order; `R` may be const (writing) or not (reading).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "adaptsim/job.hpp"
#include "adaptsim/result.hpp"
#include "adaptsim/result_fields.hpp"
#include "adaptsim/store.hpp"
#include "hdf5_io.hpp"

namespace adaptsim::store {

/// The schema_version that added a column of /summary, of a task's summary attributes or of its
/// jobs table (docs/results-format.md, "Versions"), 0 for the columns of versions 2 and 3: a file
/// of an older version lacks it, and its readers leave the field at its default (the summary's
/// `cluster`: num_gpus in decimal).
inline int AddedInVersion(std::string_view column) {
  if (column == "cluster" || column == "mean_ftf_rho_type_weighted" ||
      column == "worst_ftf_rho_type_weighted" || column == "ftf_rho_type_weighted") {
    return 4;
  }
  if (column == "mean_contention" || column == "max_contention" || column == "gpu_hours_per_job") {
    return 5;
  }
  if (column == "unfair_fraction_type_weighted") return 6;
  return 0;
}

/// `visit` restricted to the columns a file of `schema_version` holds.
template <typename V>
auto ColumnsOfVersion(std::int64_t schema_version, V& visit) {
  return [schema_version, &visit](const char* name, const char* units, auto& field) {
    if (schema_version < AddedInVersion(name)) return;
    visit(name, units, field);
  };
}

// Field <-> stored value. Integers are stored as int64 (seeds as uint64), enums as strings.
inline std::int64_t ToStored(int v) {
  return v;
}
inline std::int64_t ToStored(std::int64_t v) {
  return v;
}
inline std::uint64_t ToStored(std::uint64_t v) {
  return v;
}
inline double ToStored(double v) {
  return v;
}
inline std::string ToStored(const std::string& v) {
  return v;
}
inline std::string ToStored(AdaptationMode v) {
  return std::string(adaptsim::ToString(v));
}
inline std::string ToStored(JobOutcome v) {
  return std::string(adaptsim::ToString(v));
}
inline std::string ToStored(TaskStatus v) {
  return std::string(adaptsim::ToString(v));
}

inline void FromStored(std::int64_t s, int& f) {
  f = static_cast<int>(s);
}
inline void FromStored(std::int64_t s, std::int64_t& f) {
  f = s;
}
inline void FromStored(std::uint64_t s, std::uint64_t& f) {
  f = s;
}
inline void FromStored(double s, double& f) {
  f = s;
}
inline void FromStored(const std::string& s, std::string& f) {
  f = s;
}
void FromStored(const std::string& s, AdaptationMode& f);
void FromStored(const std::string& s, JobOutcome& f);
void FromStored(const std::string& s, TaskStatus& f);

struct Column {
  std::string name;
  std::string units;
  ColumnData data;
};
using Table = std::vector<Column>;

/// Column-major copy of `records` (one Column per visited field, even when `records` is empty).
template <typename Record, typename Visit>
Table ToTable(const std::vector<Record>& records, Visit visit) {
  Table table;
  const Record probe{};
  visit(probe, [&](const char* name, const char* units, const auto& field) {
    using S = decltype(ToStored(field));
    table.push_back({name, units, std::vector<S>{}});
  });
  for (const Record& record : records) {
    std::size_t i = 0;
    visit(record, [&](const char*, const char*, const auto& field) {
      using S = decltype(ToStored(field));
      std::get<std::vector<S>>(table[i++].data).push_back(ToStored(field));
    });
  }
  return table;
}

/// Reads every visited column of `group` back into records. Throws StoreError for a missing
/// column, a column of another type, or columns of unequal length.
template <typename Record, typename Visit>
std::vector<Record> ReadTable(hid_t group, Visit visit) {
  std::map<std::string, ColumnData> columns;
  Record probe{};
  std::size_t rows = 0;
  visit(probe, [&](const char* name, const char*, auto&) {
    columns[name] = ReadColumn(group, name);
    rows = std::visit([](const auto& v) { return v.size(); }, columns[name]);
  });
  std::vector<Record> records(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    visit(records[r], [&](const char* name, const char*, auto& field) {
      using S = decltype(ToStored(field));
      const auto* values = std::get_if<std::vector<S>>(&columns[name]);
      if (values == nullptr || values->size() != rows) Fail(std::string("bad column ") + name);
      FromStored((*values)[r], field);
    });
  }
  return records;
}

void WriteTable(hid_t group, const Table& table, bool extendible);

/// The /summary row of a record.
SummaryRow MakeSummaryRow(const TaskRecord& record);

/// ReadTask on an open file (`path` only names it in errors).
StoredTask ReadStoredTask(hid_t file, const std::string& path, const std::string& task_id);

}  // namespace adaptsim::store
