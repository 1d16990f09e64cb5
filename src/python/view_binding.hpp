// Binds a view of adaptsim/view_fields.hpp as a read-only Python class: one property per declared
// field, its docstring the declared meaning and units. Private to the python stage.
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "adaptsim/view_fields.hpp"

namespace adaptsim {

/// A field's value as a Python object: another view (a pointer) and lists of views or profiles by
/// reference (valid during the policy call, as the view itself), everything else converted.
template <typename T>
pybind11::object ViewFieldObject(const T& value) {
  if constexpr (std::is_pointer_v<T>) {
    return pybind11::cast(value, pybind11::return_value_policy::reference);
  } else if constexpr (std::is_same_v<T, std::vector<ActiveJobView>> ||
                       std::is_same_v<T, std::vector<IntervalJobView>>) {
    pybind11::list views;
    for (const auto& view : value) {
      views.append(pybind11::cast(&view, pybind11::return_value_policy::reference));
    }
    return views;
  } else if constexpr (std::is_same_v<T, std::vector<const PolluxApplication*>>) {
    pybind11::list apps;  // by reference: the engine owns the profiles
    for (const PolluxApplication* app : value) {
      apps.append(pybind11::cast(app, pybind11::return_value_policy::reference));
    }
    return apps;
  } else {
    return pybind11::cast(value);
  }
}

/// py::class_<View>(module, name, doc) with a read-only property per field of
/// VisitViewFields(std::type_identity<View>); add methods to the returned class.
template <typename View>
pybind11::class_<View> BindView(pybind11::module_& module, const char* name, const char* doc) {
  pybind11::class_<View> cls(module, name, doc);
  VisitViewFields(std::type_identity<View>{}, [&](const char* field, const char* units,
                                                  const char* meaning, auto get) {
    const std::string text =
        std::string(meaning) + (units[0] != '\0' ? std::string(", ") + units : std::string());
    cls.def_property_readonly(
        field, [get](const View& view) { return ViewFieldObject(get(view)); }, text.c_str());
  });
  return cls;
}

}  // namespace adaptsim
