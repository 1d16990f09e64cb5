#include "signals.hpp"

namespace adaptsim {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;  // see signals.hpp: the only global, by necessity

extern "C" void OnStopSignal(int signal) {
  g_stop_signal = signal;
}

}  // namespace

StopSignals::StopSignals() {
  g_stop_signal = 0;
  struct sigaction action {};
  action.sa_handler = OnStopSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &action, &old_term_);
  sigaction(SIGUSR1, &action, &old_usr1_);
}

StopSignals::~StopSignals() {
  sigaction(SIGTERM, &old_term_, nullptr);
  sigaction(SIGUSR1, &old_usr1_, nullptr);
}

int StopSignals::received() const {
  return g_stop_signal;
}

}  // namespace adaptsim
