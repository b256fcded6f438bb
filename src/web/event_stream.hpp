// EventStream: one run's progress events, fanned out to any number of Server-Sent-Events
// clients without ever blocking the publisher (the simulation thread).
//
// Events are (sequence number, type, JSON data). Each subscriber has its own bounded queue;
// when a "sample" would overflow it, the queue is decimated (every other queued sample is
// dropped, oldest first) and the subscriber's `dropped` count grows, so a slow client sees the
// whole time range, coarser, while other event types ("status", "done") are never dropped.
// The stream keeps a bounded history for clients that connect late (replayed first; when it
// is full its samples are decimated the same way). publish() only takes the stream's mutex and
// notifies; a subscriber's pop() waits on it with a timeout. After close() no event is added;
// subscribers drain what they have and then see the end.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace rdmasim::web {

struct StreamEvent {
  std::uint64_t seq = 0;
  std::string type;  // "sample", "status", "done"
  std::string data;  // one line of JSON
};

class EventStream {
 public:
  struct Subscriber {
    std::deque<StreamEvent> queue;
    std::uint64_t dropped = 0;  // samples decimated away for this subscriber
  };

  EventStream(std::size_t history_cap = 512, std::size_t client_cap = 256);

  void publish(std::string type, std::string data);
  /// The last event; no more are accepted.
  void close(std::string type, std::string data);

  /// A new subscriber, its queue holding the history so far.
  std::shared_ptr<Subscriber> subscribe();
  void unsubscribe(const std::shared_ptr<Subscriber>& s);
  /// The next event for `s`, waiting up to `wait`; nullopt on timeout or at the end (see ended()).
  std::optional<StreamEvent> pop(const std::shared_ptr<Subscriber>& s, std::chrono::milliseconds wait);
  /// Closed and `s` has nothing left.
  bool ended(const std::shared_ptr<Subscriber>& s) const;

  bool closed() const;
  std::size_t subscribers() const;
  std::uint64_t published() const;
  std::size_t history_size() const;
  std::uint64_t dropped(const std::shared_ptr<Subscriber>& s) const;

  /// Drops every other "sample" from `q` (the first one kept); returns how many were dropped.
  static std::size_t decimate(std::deque<StreamEvent>& q);

 private:
  void add(StreamEvent e);
  mutable std::mutex m_;
  std::condition_variable cv_;
  std::size_t history_cap_, client_cap_;
  std::deque<StreamEvent> history_;
  std::vector<std::shared_ptr<Subscriber>> subs_;
  std::uint64_t next_seq_ = 1;
  bool closed_ = false;
};

}  // namespace rdmasim::web
