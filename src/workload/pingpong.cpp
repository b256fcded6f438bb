#include "workload/pingpong.hpp"

namespace rdmasim {

PingPong::PingPong(const LatConfig& c, const PathSpec& forward, const PathSpec* reverse, Exports* exports)
    : w_(c.seed), exports_(exports, w_, c) {
  exports_.add_pair();
  forward_ = w_.instance(forward, *this);
  if (reverse) reverse_ = w_.instance(*reverse, *this);
  exports_.start(c.topology == LatTopology::fabric ? c.fabric.from : 0);
  size_ = c.size;
  record_ = c.record_samples;
}

void PingPong::set_connection_setup(const PathSpec& setup_forward, std::int64_t reuse) {
  setup_forward_ = w_.instance(setup_forward, *this);
  reuse_ = reuse;
}

void PingPong::post(int direction) {
  Message& m = *w_.messages.acquire();
  m.id = next_msg_id_++;
  m.size = size_;
  m.tag = static_cast<std::uint64_t>(direction);
  if (direction == 0 && setup_forward_ && exchange_++ % reuse_ == 0) {
    ++connections_;
    setup_forward_->post(m);
    return;
  }
  (direction == 0 ? *forward_ : *reverse_).post(m);
}

void PingPong::run(std::int64_t exchanges) {
  samples_.clear();
  samples_.reserve(static_cast<std::size_t>(exchanges));
  if (record_) iterations_.reserve(static_cast<std::size_t>(exchanges));
  remaining_ = exchanges;
  if (remaining_ <= 0) return;
  iteration_start_ = w_.sched.now();
  post(0);
  w_.run();
  exports_.finish();
}

void PingPong::delivered(Packet& token) {
  Message& m = *token.msg;
  const Time now = w_.sched.now();
  if (token.ledger.total() != now - m.posted) ++violations_;
  iteration_ledger_.add(token.ledger);
  const bool first_leg = m.tag == 0 && reverse_ != nullptr;
  w_.packets.release(&token);
  w_.ctx.release_message(m);
  if (first_leg) {
    post(1);
    return;
  }
  // Iteration complete: one RTT sample.
  const std::int64_t v = (now - iteration_start_).count_ps();
  samples_.push_back(v);
  if (record_) iterations_.push_back({iteration_start_.count_ps(), v, iteration_ledger_});
  all_ledger_.add(iteration_ledger_);
  if (v >= top_[0].value) {
    top_[1] = top_[0];
    top_[0] = Top{v, iteration_ledger_};
  } else if (v >= top_[1].value) {
    top_[1] = Top{v, iteration_ledger_};
  }
  iteration_ledger_ = Ledger{};
  if (--remaining_ > 0) {
    iteration_start_ = now;
    post(0);
  }
}

Ledger PingPong::kept_ledger_sum() const {
  Ledger l = all_ledger_;
  for (const Top& t : top_)
    if (t.value >= 0) l.subtract(t.ledger);
  return l;
}

}  // namespace rdmasim
