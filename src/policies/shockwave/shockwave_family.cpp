// The Shockwave family's policies (shockwave_family.hpp).
#include "shockwave_family.hpp"

#include "shockwave.hpp"

namespace adaptsim {

std::vector<PolicyEntry> ShockwaveFamilyPolicies() {
  return {
      Declared<ShockwaveOptions>(
          "shockwave",
          "Shockwave: NSW over a planning window (options: config=JSON, reference keys)",
          EngineKind::kRound, Construct<RoundScheduler, ShockwavePolicy>()),
  };
}

}  // namespace adaptsim
