// Thin RAII layer over the HDF5 C API (private to src/store). Every failing HDF5 call becomes a
// StoreError whose message carries the operation and HDF5's own error stack.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace adaptsim::store {

/// Owns one hid_t and closes it with the matching H5?close. Move-only.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  /// Throws StoreError(what) when `id` < 0.
  Handle(hid_t id, Closer closer, const std::string& what);
  Handle(Handle&& other) noexcept;
  Handle& operator=(Handle&& other) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle();

  hid_t get() const { return id_; }
  /// Closes now and throws StoreError(what) when the close fails (closing a file writes what
  /// HDF5 still caches: a full disk can surface here); the process must then end with status 1
  /// (see DiscardFile). The destructor's close ignores errors.
  void CloseChecked(const std::string& what);
  /// Closes now; returns the close's status (the handle is empty afterwards either way).
  herr_t Release();
  operator hid_t() const { return id_; }  // NOLINT: handles are passed straight to H5 calls

 private:
  void Close();
  hid_t id_ = H5I_INVALID_HID;
  Closer closer_ = nullptr;
};

/// Turns off HDF5's automatic error printing while alive (errors become exceptions instead).
class ErrorScope {
 public:
  ErrorScope();
  ~ErrorScope();
  ErrorScope(const ErrorScope&) = delete;
  ErrorScope& operator=(const ErrorScope&) = delete;

 private:
  H5E_auto2_t saved_func_ = nullptr;
  void* saved_data_ = nullptr;
};

/// Throws StoreError("<what>: <HDF5 error stack>").
[[noreturn]] void Fail(const std::string& what);
/// Returns `status`, or throws StoreError(what) when it is negative.
herr_t Check(herr_t status, const std::string& what);

/// Creates (truncates) `path`. `in_memory`: HDF5's core driver without backing store, nothing
/// touches the disk and FileImage() returns the bytes of the file.
Handle CreateFile(const std::string& path, bool in_memory = false);
/// The bytes of an open file (flushed first): a complete HDF5 file image (H5Fget_file_image).
std::vector<unsigned char> FileImage(hid_t file);
Handle OpenFile(const std::string& path, bool writable);
/// Closes a file (of CreateFile, on disk) whose writing failed, dropping what HDF5 still caches:
/// its descriptor is first pointed at an anonymous in-memory file (memfd_create(2)), and a soft
/// file-size limit is lifted to the hard one meanwhile, so that the close can write and succeed.
/// Closing it as it is would fail again (disk still full), and HDF5 1.10.8 then keeps a
/// half-closed file on which its clean-up at exit crashes; when even this close fails (a hard
/// file-size limit), an atexit handler ends the process with status 1 before that clean-up.
/// The caller must report the error and end with status 1. The file on disk is left as it is,
/// for the caller to delete. No-op for a closed handle.
void DiscardFile(Handle& file);
Handle CreateGroup(hid_t parent, const std::string& name);
Handle OpenGroup(hid_t parent, const std::string& name);
/// True when link `name` exists directly below `parent`.
bool Exists(hid_t parent, const std::string& name);
/// Names of the links below `group`, in creation order when tracked, else name order.
std::vector<std::string> ChildNames(hid_t group);

/// One column of a table: a 1-D dataset.
using ColumnData = std::variant<std::vector<std::int64_t>, std::vector<std::uint64_t>,
                                std::vector<double>, std::vector<std::string>>;

/// Creates dataset `name` holding `data` (strings as variable-length UTF-8). A non-empty `units`
/// becomes its `units` attribute. `extendible` datasets are chunked with an unlimited dimension.
void WriteColumn(hid_t group, const std::string& name, const ColumnData& data,
                 const std::string& units, bool extendible);
/// Reads a whole 1-D dataset; integers come back as int64 (signed) or uint64 (unsigned).
ColumnData ReadColumn(hid_t group, const std::string& name);

/// Scalar attribute value.
using AttributeValue = std::variant<std::int64_t, std::uint64_t, double, std::string>;
/// Creates or replaces scalar attribute `name` of `object`.
void WriteAttribute(hid_t object, const std::string& name, const AttributeValue& value);
AttributeValue ReadAttribute(hid_t object, const std::string& name);
bool HasAttribute(hid_t object, const std::string& name);
std::vector<std::string> AttributeNames(hid_t object);
/// Integers and doubles in decimal (doubles with round-trip precision), strings as they are.
std::string ToString(const AttributeValue& value);

}  // namespace adaptsim::store
