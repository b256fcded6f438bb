// PacketTransfer: a packet leaving this process for a logical process another MPI rank runs, as
// bytes, and made again there (a partitioned fabric run over ranks: sim/fabric.hpp).
//
// Every rank builds the whole model, so what a packet points to exists on every rank but its
// message: a flow is named by its index and a route by its flow (the fabric resolves both); a
// message by the rank that made it (its requester's, or the responder's for a NAK or CNP) and
// its address there. The image carries the message's fields too. On another rank the packet
// refers to a *shadow*, one per (rank, address), made at its first packet; a later message
// at that address (the original recycled) resets it.
//
// Who writes what: the requester writes a message's fields but these: `packets` and `splits`,
// the count of the latest split (the requester's of the data, then the responder's of its ACK)
// and how many splits there were, which every image carries to where its packets merge; the
// merge's progress (`arrived`, `next_index`), which only the merging rank counts; and the CE
// marks the responder counted (`rc_ce`), which its ACK carries back. So a rank takes an image's
// split count when it is of a later split than its own (a resend that left before the ACK's
// split does not undo it); the requester's rank keeps its own fields but the responder's marks,
// the responder's rank takes the requester's fields but keeps its marks, a rank running neither
// end (a switch's) takes them all, and no rank takes another's merge progress. A pinned packet (an RC resend) arriving pins its
// shadow, and leaving drops that pin; the original keeps the pin its packet held when it left
// (the caller does not drop it), so a message with an image abroad is never recycled and its
// address names it for the whole run; if the packet comes home, its release drops that pin.
//
// Invariants: an image is kImageBytes long; a packet crossing has no pacer and no trace trail,
// and one coming home finds its message there (checked: std::logic_error).
// Memory: one shadow (sizeof(Message)) per message address of another rank seen, kept for the
// run; an original with a resend abroad (one per such message) stays out of its pool.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "net/packet.hpp"

namespace rdmasim {

class PacketTransfer {
 public:
  /// The rank this process runs.
  explicit PacketTransfer(int rank) : rank_(rank) {}

  /// What a packet carries besides its fields: its fabric flow's index and whether it follows
  /// that flow's route (false: a control frame, routed by nothing).
  struct Header {
    std::int32_t flow = -1;
    std::int32_t origin = -1;   // the rank whose process made its message (-1: none)
    std::uint64_t address = 0;  // the message's address there
    std::uint8_t routed = 0;
    std::uint8_t unused[7] = {};
  };
  static constexpr std::size_t kImageBytes = sizeof(Header) + sizeof(Packet) + sizeof(Message);

  /// Appends `p`'s image (`flow`: its fabric flow's index) to `out`.
  void write(const Packet& p, std::int32_t flow, std::vector<std::byte>& out) const;
  /// The image's header (its flow, to find the ranks of the flow's ends).
  static Header header(std::span<const std::byte> image);
  /// Fills `p` (a packet of the receiving LP's pool) from `image`: its fields, its message (the
  /// original on the rank that made it, a shadow elsewhere; `responder`: the rank running the
  /// message's responder). The caller sets its flow and route.
  void read(std::span<const std::byte> image, Packet& p, int responder);

  /// Shadows made so far.
  std::size_t shadows() const { return shadows_.size(); }
  /// Whether `m` is a shadow of another rank's message (a pin on it is this rank's alone).
  bool is_shadow(const Message* m) const { return identity_.contains(m); }

 private:
  struct Shadow {
    Message m;
    std::int32_t origin;
    std::uint64_t address;
  };
  Message& resolve(const Header& h, const Message& image, int responder);

  int rank_;
  std::map<std::pair<std::int32_t, std::uint64_t>, Shadow*> shadows_;  // (origin, address)
  std::unordered_map<const Message*, const Shadow*> identity_;          // shadow -> where it came from
  std::deque<Shadow> storage_;
};

}  // namespace rdmasim
