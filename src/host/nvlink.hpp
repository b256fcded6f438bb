// NvlinkDomain: the GPUs of one server joined by NVLink through NVSwitch (a non-blocking
// crossbar). Each GPU is a port of `gpu.nvlink_bw` per direction, of which a collective's
// payload gets `gpu.nvlink_efficiency`; a transfer of B bytes from GPU a to GPU b holds a's
// egress and b's ingress for B / (bw x efficiency), starting when both are free (each port
// serves its transfers in the order they are asked for), and arrives gpu.nvlink_latency after
// its last byte left. Invariants: a port's transfers never overlap; a transfer never starts
// before it is asked for; times are exact picoseconds (deterministic).
//
// NVLink SHARP (NVLS, NVSwitch gen 3) serves groups of transfers as one, at
// `gpu.nvls_efficiency` of the port: a multicast's pieces (one GPU to every other) share their
// sender's egress, which carries the data once; a reduction's pieces (every other GPU to one,
// summed inside the switch) share their receiver's ingress, which takes the sum once. The group's
// first piece books the shared port; each piece books its own other port no earlier than that.
// Memory: two Time per GPU, plus one entry per group with pieces still to come.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "rdmasim/profile.hpp"

namespace rdmasim {

class NvlinkDomain {
 public:
  NvlinkDomain(const GpuParams& p, int gpus);
  /// The time transferring `b` bytes from GPU `from` to GPU `to`, asked at `now`, arrives.
  Time transfer(int from, int to, Bytes b, Time now);
  /// B / (bw x efficiency): a transfer's time on its ports.
  Time service(Bytes b) const;

  enum class Group : std::uint8_t { multicast, reduce };
  /// One of `pieces` transfers NVSwitch serves as one: a multicast from `from` (the group is
  /// `from`'s, named `key`) or a reduction into `to` (`to`'s). Returns when this piece's data is
  /// at `to` (a reduction's sum: when every piece asked so far is in). Needs nvls_efficiency > 0.
  Time group_transfer(Group g, int from, int to, Bytes b, Time now, std::int64_t key, int pieces);
  /// B / (bw x nvls_efficiency).
  Time nvls_service(Bytes b) const;

 private:
  struct Open {
    Time start{}, done{};  // the shared port's booking
    int left = 0;          // pieces still to come
  };
  GpuParams p_;
  std::vector<Time> egress_free_, ingress_free_;
  std::map<std::tuple<Group, int, std::int64_t>, Open> groups_;  // (kind, the shared port's GPU, key)
};

}  // namespace rdmasim
