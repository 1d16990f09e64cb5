// Values a Python policy returns, as C++ values (python_adapters.hpp).
#include <climits>
#include <optional>
#include <string>

#include "python_adapters.hpp"

namespace py = pybind11;

namespace adaptsim {

std::optional<int> PythonId(py::handle value) {
  PyObject* object = value.ptr();
  if (PyBool_Check(object) || PyFloat_Check(object) || !PyIndex_Check(object)) return std::nullopt;
  py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(object));
  if (!index) {
    PyErr_Clear();
    return std::nullopt;
  }
  int overflow = 0;
  const long long id = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow != 0 || id < INT_MIN || id > INT_MAX || (id == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return std::nullopt;
  }
  return static_cast<int>(id);
}

std::optional<double> PythonReal(py::handle value) {
  PyObject* object = value.ptr();
  if (PyBool_Check(object) || PyUnicode_Check(object) || PyBytes_Check(object) ||
      PyComplex_Check(object)) {
    return std::nullopt;
  }
  const double number = PyFloat_AsDouble(object);
  if (number == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    return std::nullopt;
  }
  return number;
}

std::string PythonValueText(py::handle value) {
  std::string text;
  try {
    text = py::repr(value).cast<std::string>();
  } catch (const py::error_already_set&) {
    text = "<unprintable>";
  }
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text + " (" + std::string(Py_TYPE(value.ptr())->tp_name) + ")";
}

}  // namespace adaptsim
