// A policy family's table of policies (adaptsim/policy_family.hpp).
#include "adaptsim/policy_family.hpp"

namespace adaptsim {

std::string_view ToString(EngineKind engine) {
  return engine == EngineKind::kInterval ? "interval" : "round";
}

}  // namespace adaptsim
