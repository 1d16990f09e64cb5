#include "hdf5_io.hpp"

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <utility>

#include "adaptsim/store.hpp"

namespace adaptsim::store {
namespace {

constexpr hsize_t kChunkRows = 64;

/// Ends the process with status 1 before HDF5's own clean-up runs.
void ExitBeforeHdf5Cleanup() {
  std::fflush(nullptr);
  std::_Exit(1);
}

/// HDF5 1.10.8 keeps a file whose H5Fclose failed half-closed, and its clean-up at exit
/// (H5_term_library) then crashes on it. The callers report the failure and end the process
/// with status 1; this makes sure it ends so without the crash (an atexit handler registered
/// after HDF5's runs before it).
void ExitBeforeHdf5CleanupAfterAFailedClose() {
  static const bool registered = std::atexit(ExitBeforeHdf5Cleanup) == 0;
  (void)registered;
}

/// An HDF5 error stack as one line, and the operating system's text of an I/O error in it.
struct ErrorStack {
  std::string text;
  std::string system_error;  ///< "No space left on device", from the file driver's entry
  std::string innermost;     ///< the function of the deepest entry
};

herr_t CollectError(unsigned depth, const H5E_error2_t* error, void* data) {
  auto* stack = static_cast<ErrorStack*>(data);
  std::string desc = error->desc != nullptr ? error->desc : "?";
  std::replace(desc.begin(), desc.end(), '\n', ' ');  // the sec2 driver's ctime() ends in one
  if (depth > 0) stack->text.append("; ");
  stack->text.append(desc);
  if (error->func_name != nullptr) {
    stack->text.append(" (").append(error->func_name).append(")");
    stack->innermost = error->func_name;
  }
  // The POSIX file driver words a failed read or write as "..., errno = 28, error message =
  // 'No space left on device', ...".
  constexpr char kMarker[] = "error message = '";
  std::size_t at = desc.find(kMarker);
  if (stack->system_error.empty() && at != std::string::npos) {
    at += sizeof(kMarker) - 1;
    stack->system_error = desc.substr(at, desc.find('\'', at) - at);
  }
  return 0;
}

/// A UTF-8 variable-length string type.
Handle StringType() {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "copy string type");
  Check(H5Tset_size(type, H5T_VARIABLE), "set string size");
  Check(H5Tset_cset(type, H5T_CSET_UTF8), "set string charset");
  return type;
}

template <typename T>
hid_t NativeType() {
  if constexpr (std::is_same_v<T, std::int64_t>) return H5T_NATIVE_INT64;
  if constexpr (std::is_same_v<T, std::uint64_t>) return H5T_NATIVE_UINT64;
  if constexpr (std::is_same_v<T, double>) return H5T_NATIVE_DOUBLE;
}

/// Memory type and a pointer to contiguous elements of one column (strings as const char*).
struct Buffer {
  Handle string_type;
  hid_t type = H5I_INVALID_HID;
  std::vector<const char*> strings;
  const void* data = nullptr;
  hsize_t size = 0;
};

Buffer MakeBuffer(const ColumnData& column) {
  Buffer buffer;
  std::visit(
      [&](const auto& values) {
        using T = typename std::decay_t<decltype(values)>::value_type;
        buffer.size = values.size();
        if constexpr (std::is_same_v<T, std::string>) {
          buffer.string_type = StringType();
          buffer.type = buffer.string_type;
          for (const auto& s : values) buffer.strings.push_back(s.c_str());
          buffer.data = buffer.strings.data();
        } else {
          buffer.type = NativeType<T>();
          buffer.data = values.data();
        }
      },
      column);
  return buffer;
}

/// A transfer property list whose type-conversion buffer fits `count` elements (at most HDF5's
/// default of 1 MiB). HDF5 1.10 zero-fills a whole conversion buffer on every H5Dread/H5Dwrite
/// that converts (strings): at the default size that was most of the cost of writing a
/// one-task shard. Same bytes in the file, same values read.
Handle TransferList(hsize_t count) {
  constexpr hsize_t kBytesPerElement = 32;  // ≥ every memory and file type used here
  constexpr hsize_t kMinBytes = 4096, kMaxBytes = hsize_t{1} << 20;
  const hsize_t bytes = std::clamp(count * kBytesPerElement, kMinBytes, kMaxBytes);
  Handle properties(H5Pcreate(H5P_DATASET_XFER), H5Pclose, "create transfer property list");
  Check(H5Pset_buffer(properties, bytes, nullptr, nullptr), "set conversion buffer size");
  return properties;
}

Handle CreateColumnDataset(hid_t group, const std::string& name, hid_t type, hsize_t size,
                           bool extendible) {
  hsize_t max_size = extendible ? H5S_UNLIMITED : size;
  Handle space(H5Screate_simple(1, &size, &max_size), H5Sclose, "create dataspace for " + name);
  Handle properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "create property list");
  if (extendible) Check(H5Pset_chunk(properties, 1, &kChunkRows), "set chunk size of " + name);
  return Handle(H5Dcreate2(group, name.c_str(), type, space, H5P_DEFAULT, properties, H5P_DEFAULT),
                H5Dclose, "create dataset " + name);
}

/// Reads `count` elements of numeric type T from dataset `dataset`.
template <typename T>
std::vector<T> ReadNumbers(hid_t dataset, hsize_t count) {
  std::vector<T> values(count);
  if (count > 0) {
    Check(H5Dread(dataset, NativeType<T>(), H5S_ALL, H5S_ALL, TransferList(count), values.data()),
          "read dataset");
  }
  return values;
}

std::vector<std::string> ReadStrings(hid_t dataset, hid_t file_type, hsize_t count) {
  std::vector<std::string> values;
  values.reserve(count);
  if (count == 0) return values;
  if (H5Tis_variable_str(file_type) > 0) {
    Handle type = StringType();
    std::vector<char*> raw(count, nullptr);
    Check(H5Dread(dataset, type, H5S_ALL, H5S_ALL, TransferList(count), raw.data()),
          "read strings");
    for (char* s : raw) values.emplace_back(s != nullptr ? s : "");
    Handle space(H5Dget_space(dataset), H5Sclose, "get dataspace");
    H5Dvlen_reclaim(type, space, H5P_DEFAULT, raw.data());
    return values;
  }
  size_t width = H5Tget_size(file_type);
  Handle type(H5Tcopy(file_type), H5Tclose, "copy string type");
  std::vector<char> raw(count * width);
  Check(H5Dread(dataset, type, H5S_ALL, H5S_ALL, TransferList(count), raw.data()), "read strings");
  for (hsize_t i = 0; i < count; ++i) {
    std::string s(raw.data() + i * width, width);
    values.push_back(s.substr(0, s.find('\0')));
  }
  return values;
}

herr_t CollectName(hid_t, const char* name, const H5L_info_t*, void* data) {
  static_cast<std::vector<std::string>*>(data)->emplace_back(name);
  return 0;
}

herr_t CollectAttributeName(hid_t, const char* name, const H5A_info_t*, void* data) {
  static_cast<std::vector<std::string>*>(data)->emplace_back(name);
  return 0;
}

}  // namespace

Handle::Handle(hid_t id, Closer closer, const std::string& what) : id_(id), closer_(closer) {
  if (id < 0) Fail(what);
}

Handle::Handle(Handle&& other) noexcept
    : id_(std::exchange(other.id_, H5I_INVALID_HID)), closer_(other.closer_) {}

Handle& Handle::operator=(Handle&& other) noexcept {
  if (this != &other) {
    Close();
    id_ = std::exchange(other.id_, H5I_INVALID_HID);
    closer_ = other.closer_;
  }
  return *this;
}

Handle::~Handle() {
  Close();
}

herr_t Handle::Release() {
  if (id_ < 0 || closer_ == nullptr) return 0;
  return closer_(std::exchange(id_, H5I_INVALID_HID));
}

void Handle::CloseChecked(const std::string& what) {
  if (Release() < 0) {
    ExitBeforeHdf5CleanupAfterAFailedClose();
    Fail(what);
  }
}

void Handle::Close() {
  if (id_ >= 0 && closer_ != nullptr) closer_(id_);
  id_ = H5I_INVALID_HID;
}

ErrorScope::ErrorScope() {
  H5Eget_auto2(H5E_DEFAULT, &saved_func_, &saved_data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

ErrorScope::~ErrorScope() {
  H5Eset_auto2(H5E_DEFAULT, saved_func_, saved_data_);
}

void Fail(const std::string& what) {
  ErrorStack stack;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, CollectError, &stack);
  H5Eclear2(H5E_DEFAULT);
  if (!stack.system_error.empty()) {  // an I/O error: the system's words, not HDF5's 20 lines
    throw StoreError(what + ": " + stack.system_error + " (HDF5 " + stack.innermost + ")");
  }
  throw StoreError(stack.text.empty() ? what : what + ": " + stack.text);
}

herr_t Check(herr_t status, const std::string& what) {
  if (status < 0) Fail(what);
  return status;
}

Handle CreateFile(const std::string& path, bool in_memory) {
  Handle properties(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "create file access list");
  // HDF5 1.10 file format: readable by h5py >= 2.x and HDF5 >= 1.10.
  H5F_libver_t low = H5F_LIBVER_V18;
  if (in_memory) {
    constexpr size_t kIncrement = 1 << 20;  // grow the image 1 MiB at a time
    Check(H5Pset_fapl_core(properties, kIncrement, /*backing_store=*/0), "use the core driver");
    // With HDF5 1.10.8, H5Fget_file_image of a file with a version-2 superblock gives an image
    // whose superblock fails its checksum on open ("incorrect metadata checksum"); images keep
    // the version-0 superblock, which has no checksum. The objects inside are unchanged.
    low = H5F_LIBVER_EARLIEST;
  }
  Check(H5Pset_libver_bounds(properties, low, H5F_LIBVER_V110), "set format");
  return Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, properties), H5Fclose,
                "cannot create results file '" + path + "'");
}

std::vector<unsigned char> FileImage(hid_t file) {
  Check(H5Fflush(file, H5F_SCOPE_GLOBAL), "flush file image");
  ssize_t size = H5Fget_file_image(file, nullptr, 0);
  if (size < 0) Fail("get file image size");
  std::vector<unsigned char> image(static_cast<std::size_t>(size));
  if (H5Fget_file_image(file, image.data(), image.size()) != size) Fail("get file image");
  return image;
}

Handle OpenFile(const std::string& path, bool writable) {
  return Handle(H5Fopen(path.c_str(), writable ? H5F_ACC_RDWR : H5F_ACC_RDONLY, H5P_DEFAULT),
                H5Fclose, "cannot open results file '" + path + "'");
}

void DiscardFile(Handle& file) {
  if (file.get() < 0) return;
  void* handle = nullptr;
  if (H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) >= 0 && handle != nullptr) {
    int sink = ::memfd_create("adaptsim-discarded", MFD_CLOEXEC);
    if (sink >= 0) {
      ::dup2(sink, *static_cast<int*>(handle));  // the POSIX (sec2) driver's handle is its fd
      ::close(sink);
    }
  }
  // The close extends the file to its allocated size: under a file-size limit (ulimit -f) that
  // fails even in memory, unless the soft limit can be raised to the hard one meanwhile.
  rlimit limit{};
  bool raised = ::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != limit.rlim_max;
  if (raised) {
    rlimit lifted = limit;
    lifted.rlim_cur = limit.rlim_max;
    raised = ::setrlimit(RLIMIT_FSIZE, &lifted) == 0;
  }
  herr_t closed = file.Release();
  if (raised) ::setrlimit(RLIMIT_FSIZE, &limit);
  H5Eclear2(H5E_DEFAULT);
  if (closed < 0) ExitBeforeHdf5CleanupAfterAFailedClose();
}

Handle CreateGroup(hid_t parent, const std::string& name) {
  Handle properties(H5Pcreate(H5P_GROUP_CREATE), H5Pclose, "create group property list");
  // Track creation order so that columns list in the order they were written.
  Check(H5Pset_link_creation_order(properties, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
        "track creation order");
  return Handle(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, properties, H5P_DEFAULT), H5Gclose,
                "create group " + name);
}

Handle OpenGroup(hid_t parent, const std::string& name) {
  return Handle(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), H5Gclose, "open group " + name);
}

bool Exists(hid_t parent, const std::string& name) {
  return Check(H5Lexists(parent, name.c_str(), H5P_DEFAULT), "look up " + name) > 0;
}

std::vector<std::string> ChildNames(hid_t group) {
  std::vector<std::string> names;
  hsize_t index = 0;
  if (H5Literate(group, H5_INDEX_CRT_ORDER, H5_ITER_INC, &index, CollectName, &names) < 0) {
    H5Eclear2(H5E_DEFAULT);  // creation order not tracked: fall back to name order
    names.clear();
    index = 0;
    Check(H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, &index, CollectName, &names), "list group");
  }
  return names;
}

void WriteColumn(hid_t group, const std::string& name, const ColumnData& data,
                 const std::string& units, bool extendible) {
  Buffer buffer = MakeBuffer(data);
  Handle dataset = CreateColumnDataset(group, name, buffer.type, buffer.size, extendible);
  if (buffer.size > 0) {
    Check(H5Dwrite(dataset, buffer.type, H5S_ALL, H5S_ALL, TransferList(buffer.size), buffer.data),
          "write dataset " + name);
  }
  if (!units.empty()) WriteAttribute(dataset, "units", units);
}

ColumnData ReadColumn(hid_t group, const std::string& name) {
  Handle dataset(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose, "open dataset " + name);
  Handle space(H5Dget_space(dataset), H5Sclose, "get dataspace of " + name);
  if (H5Sget_simple_extent_ndims(space) != 1) Fail("dataset " + name + " is not 1-D");
  hsize_t count = 0;
  Check(H5Sget_simple_extent_dims(space, &count, nullptr), "get size of " + name);
  Handle type(H5Dget_type(dataset), H5Tclose, "get type of " + name);
  switch (H5Tget_class(type)) {
    case H5T_INTEGER:
      if (H5Tget_sign(type) == H5T_SGN_NONE) return ReadNumbers<std::uint64_t>(dataset, count);
      return ReadNumbers<std::int64_t>(dataset, count);
    case H5T_FLOAT:
      return ReadNumbers<double>(dataset, count);
    case H5T_STRING:
      return ReadStrings(dataset, type, count);
    default:
      Fail("dataset " + name + " has an unsupported type");
  }
}

void WriteAttribute(hid_t object, const std::string& name, const AttributeValue& value) {
  if (HasAttribute(object, name)) Check(H5Adelete(object, name.c_str()), "replace " + name);
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, "create scalar dataspace");
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) {
          Handle type = StringType();
          Handle attribute(H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT),
                           H5Aclose, "create attribute " + name);
          const char* text = v.c_str();
          Check(H5Awrite(attribute, type, &text), "write attribute " + name);
        } else {
          Handle attribute(
              H5Acreate2(object, name.c_str(), NativeType<T>(), space, H5P_DEFAULT, H5P_DEFAULT),
              H5Aclose, "create attribute " + name);
          Check(H5Awrite(attribute, NativeType<T>(), &v), "write attribute " + name);
        }
      },
      value);
}

AttributeValue ReadAttribute(hid_t object, const std::string& name) {
  Handle attribute(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose, "open attribute " + name);
  Handle type(H5Aget_type(attribute), H5Tclose, "get type of attribute " + name);
  switch (H5Tget_class(type)) {
    case H5T_INTEGER: {
      if (H5Tget_sign(type) == H5T_SGN_NONE) {
        std::uint64_t v = 0;
        Check(H5Aread(attribute, H5T_NATIVE_UINT64, &v), "read attribute " + name);
        return v;
      }
      std::int64_t v = 0;
      Check(H5Aread(attribute, H5T_NATIVE_INT64, &v), "read attribute " + name);
      return v;
    }
    case H5T_FLOAT: {
      double v = 0.0;
      Check(H5Aread(attribute, H5T_NATIVE_DOUBLE, &v), "read attribute " + name);
      return v;
    }
    case H5T_STRING: {
      if (H5Tis_variable_str(type) <= 0) {
        std::string v(H5Tget_size(type), '\0');
        Check(H5Aread(attribute, type, v.data()), "read attribute " + name);
        return v.substr(0, v.find('\0'));
      }
      Handle memory_type = StringType();
      char* raw = nullptr;
      Check(H5Aread(attribute, memory_type, &raw), "read attribute " + name);
      std::string v = raw != nullptr ? raw : "";
      H5free_memory(raw);
      return v;
    }
    default:
      Fail("attribute " + name + " has an unsupported type");
  }
}

bool HasAttribute(hid_t object, const std::string& name) {
  return Check(H5Aexists(object, name.c_str()), "look up attribute " + name) > 0;
}

std::vector<std::string> AttributeNames(hid_t object) {
  std::vector<std::string> names;
  hsize_t index = 0;
  Check(H5Aiterate2(object, H5_INDEX_NAME, H5_ITER_INC, &index, CollectAttributeName, &names),
        "list attributes");
  return names;
}

std::string ToString(const AttributeValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) {
          return v;
        } else {
          char text[64];
          auto result = std::to_chars(text, text + sizeof(text), v);
          return std::string(text, result.ptr);
        }
      },
      value);
}

}  // namespace adaptsim::store
