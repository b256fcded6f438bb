#include "calibrate/calibrate_command.hpp"

#include <stdexcept>

#include "config/host_profile.hpp"
#include "core/atomic_file.hpp"

namespace rdmasim::calibrate {

void run_calibrate_command(const CalibrateCommand& o, std::FILE* out, const Progress& progress) {
  if (!o.output.empty()) check_writable(o.output, "-o");
  CalibrationOptions co;
  co.probe.quick = o.quick;
  co.probe.timeout = std::chrono::milliseconds(o.timeout_ms);
  co.same_core = !o.cross_core;
  co.tcp_sizes = o.sizes;
  const CalibrationReport r = run_probes(co, progress);
  std::fputs(report_text(r).c_str(), out);
  FitResult fit;
  try {
    fit = fit_host_profile(r);
  } catch (const std::runtime_error& e) {
    throw CannotFit(std::string("cannot fit a host profile: ") + e.what() + " (try a larger --timeout)");
  }
  std::fputs(fit_text(fit).c_str(), out);
  if (!o.output.empty()) {
    write_host_profile(o.output, host_profile_doc(r, fit));
    std::fprintf(out, "written to %s (use: rdmasim lat --transport tcp --host-profile %s)\n", o.output.c_str(),
                 o.output.c_str());
  }
  if (o.check) std::fputs(check_text(check_model(r, fitted_profile(fit))).c_str(), out);
}

}  // namespace rdmasim::calibrate
