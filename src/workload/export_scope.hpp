// ExportScope: attaches a run's exports (rdmasim/exports.hpp) to its simulation — a Tracer in
// the context and the fabric, a Capture on the client's wires or the chosen fabric ports — and
// detaches them when the run is over; attaches and detaches the exports' RunProbe
// (workload/run_probe.hpp). With no exports every call is a no-op.
#pragma once

#include <memory>
#include <vector>

#include "rdmasim/exports.hpp"
#include "rdmasim/latency.hpp"
#include "workload/sim_world.hpp"

namespace rdmasim {

class Capture;

class ExportScope {
 public:
  /// Before any path is built. Throws std::invalid_argument for exports the run cannot make.
  ExportScope(Exports* x, SimWorld& w, const LatConfig& c);
  ~ExportScope();
  ExportScope(const ExportScope&) = delete;
  ExportScope& operator=(const ExportScope&) = delete;

  /// A host's resources: `host` is 0 / 1 (A / B) back to back, the topology's host index in a fabric.
  void add_host(HostResources& h, int host);
  /// The world's two hosts: A and B back to back, fabric.from and fabric.to in a fabric.
  void add_pair();
  /// After the paths are built: attaches to the fabric and picks what to capture (an unknown
  /// --pcap-port is std::invalid_argument). `client`: the host whose NIC port is captured.
  void start(int client);
  /// After the run: writes what is held back, checks the trace and fills the exports' stats.
  void finish();

 private:
  Exports* x_;
  SimWorld& w_;
  LatConfig c_;
  std::vector<std::pair<HostResources*, int>> hosts_;
  std::unique_ptr<Tracer> tracer_;
  std::unique_ptr<Capture> capture_;
  bool probing_ = false;  // the exports' RunProbe is attached
};

}  // namespace rdmasim
