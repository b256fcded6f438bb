// The fabric's PFC pathologies: deadlock detection over the waits-for graph of paused queues,
// and the PFC watchdog (sim/fabric.hpp describes both). Checks run on timers, off the per-frame
// hot path; the per-frame cost is one bit test in admit() while a watchdog is dropping.
#include <algorithm>
#include <array>
#include <span>
#include <utility>
#include <limits>
#include <optional>

#include "sim/fabric.hpp"
#include "sim/fabric_port.hpp"
#include "core/byte_io.hpp"

namespace rdmasim {

using namespace fabric_detail;

void Fabric::schedule_pfc(Port& e, std::uint64_t kind, unsigned tc, std::uint32_t value, Time delay) {
  const std::uint64_t arg = (static_cast<std::uint64_t>(e.id) << 32) | (kind << 28) |
                            (static_cast<std::uint64_t>(tc) << 24) | (static_cast<std::uint64_t>(value) & 0xffffff);
  sched(e).schedule_in(delay, control_, arg);
}

void Fabric::pause_started(Port& e, unsigned tc) {
  e.cls[tc].paused_since = now_at(e);
  if (opt_.sw.deadlock_detect > Time::zero() && run_) {  // checked between windows (between_windows)
    const std::int64_t due = (now_at(e) + opt_.sw.deadlock_detect).count_ps();
    std::int64_t was = check_due_ps_.load(std::memory_order_relaxed);
    while (due < was && !check_due_ps_.compare_exchange_weak(was, due, std::memory_order_relaxed)) {
    }
  } else if (opt_.sw.deadlock_detect > Time::zero() && !check_pending_) {
    check_pending_ = true;
    schedule_pfc(ports_[0], kDeadlockCheck, 0, 0, opt_.sw.deadlock_detect);
  }
  if (opt_.sw.pfc_watchdog > Time::zero() && !(e.wd_dropping >> tc & 1))
    schedule_pfc(e, kWatchdog, tc, e.cls[tc].wd_epoch, opt_.sw.pfc_watchdog);
}

void Fabric::check_deadlock() {
  check_pending_ = false;
  if (sched_.stopped()) return;
  const std::optional<Time> next = look_for_deadlock(sched_.now(), paused_queues(sched_.now()));
  if (deadlocks() > 0) {
    sched_.stop();  // nothing in the cycle can move again: the run ends here, deadlocked
    return;
  }
  if (!next) return;  // the next pause schedules the next check
  check_pending_ = true;
  sched_.schedule_at(*next, control_, static_cast<std::uint64_t>(kDeadlockCheck) << 28);
}

ParallelRun::Between Fabric::between_windows(Time end) {
  const std::int64_t due = check_due_ps_.load(std::memory_order_relaxed);
  const Time wake = due == std::numeric_limits<std::int64_t>::max() ? Time::max() : Time::ps(due);
  RankExchange* ranks = run_->ranks();
  // Over ranks a pause is known where it happened: the check is due when the earliest wake any
  // rank asked for between the last windows has come (a pause in this window asks for one at
  // least switch.deadlock_detect >= a lookahead later, after this window's end).
  if (end < (ranks ? run_->agreed_wake() : wake)) return {false, wake};
  std::vector<PausedQueue> queues = paused_queues(end);
  if (ranks) {
    std::vector<std::byte> mine;
    ByteWriter w(mine);
    for (const PausedQueue& q : queues) {
      w.put(std::array{q.port, q.tc});
      w.put(q.since);
      w.put(q.qbytes);
      w.put_all(std::span<const std::int32_t>(q.from));
    }
    queues.clear();
    for (const std::vector<std::byte>& part : ranks->all_gather(mine))
      for (ByteReader in(part); !in.done();) {
        PausedQueue& q = queues.emplace_back();
        const auto id = in.get<std::array<std::int32_t, 2>>();
        q.port = id[0], q.tc = id[1];
        q.since = in.get<Time>();
        q.qbytes = in.get<std::int64_t>();
        q.from = in.get_all<std::int32_t>();
      }
    std::sort(queues.begin(), queues.end(), [](const PausedQueue& a, const PausedQueue& b) {
      return std::pair(a.port, a.tc) < std::pair(b.port, b.tc);  // as one process lists them
    });
  }
  const std::optional<Time> next = look_for_deadlock(end, queues);
  check_due_ps_.store(next ? next->count_ps() : std::numeric_limits<std::int64_t>::max(), std::memory_order_relaxed);
  if (deadlocks() > 0) return {true, Time::max()};
  return {false, next.value_or(Time::max())};
}

std::vector<Fabric::PausedQueue> Fabric::paused_queues(Time now) const {
  std::vector<PausedQueue> out;
  for (const Port& e : ports_) {
    if (!e.paused || !is_switch(e.node) || (run_ && !run_->runs_here(e.lp))) continue;
    for (unsigned tc = 0; tc < kClasses; ++tc) {
      if (!(e.paused >> tc & 1)) continue;
      PausedQueue& q = out.emplace_back();
      q.port = e.id;
      q.tc = static_cast<std::int32_t>(tc);
      q.since = e.cls[tc].paused_since;
      q.qbytes = e.cls[tc].qbytes;
      if (now - q.since >= opt_.sw.deadlock_detect)
        for (const Packet* p = e.cls[tc].head; p; p = p->next_in_queue) q.from.push_back(p->fab_port);
    }
  }
  return out;
}

std::optional<Time> Fabric::look_for_deadlock(Time now, const std::vector<PausedQueue>& queues) {
  const Time limit = opt_.sw.deadlock_detect;
  Time next = now + limit;  // at most a threshold apart while anything stays paused
  waits_for_.clear();
  for (const PausedQueue& q : queues) {
    if (now - q.since < limit) next = std::min(next, q.since + limit);
    else if (!q.from.empty()) waits_for_.add_vertex({q.port, q.tc});
  }
  // u -> v: frames u sent (they entered through the ingress whose XOFF pauses u) wait in v.
  for (const PausedQueue& v : queues) {
    if (!waits_for_.has_vertex({v.port, v.tc})) continue;
    for (const std::int32_t from : v.from)
      if (const WaitsForGraph::Vertex u{from, v.tc}; waits_for_.has_vertex(u)) waits_for_.add_edge(u, {v.port, v.tc});
  }
  const std::vector<WaitsForGraph::Vertex> cycle = waits_for_.find_cycle();
  if (!cycle.empty()) {
    PfcDeadlock d;
    d.detected_at_us = now.to_us();
    for (const WaitsForGraph::Vertex& v : cycle) {
      const auto q = std::find_if(queues.begin(), queues.end(), [&](const PausedQueue& x) { return x.port == v.port && x.tc == v.priority; });
      d.cycle.push_back({port_name(v.port), v.priority, q->qbytes, (now - q->since).to_us()});
    }
    deadlock_reports_.push_back(std::move(d));
    return std::nullopt;
  }
  if (queues.empty()) return std::nullopt;
  return next;
}

void Fabric::on_watchdog(Port& e, unsigned tc, std::uint32_t epoch) {
  if (!(e.paused >> tc & 1) || epoch != (e.cls[tc].wd_epoch & 0xffffff) || (e.wd_dropping >> tc & 1)) return;  // resumed since
  if (!e.cls[tc].head) {  // paused but nothing waits: no storm yet, look again later
    schedule_pfc(e, kWatchdog, tc, epoch, opt_.sw.pfc_watchdog);
    return;
  }
  ++e.c.watchdog_storms;
  ++tally(e).watchdog_storms;
  e.wd_dropping = static_cast<std::uint8_t>(e.wd_dropping | (1u << tc));
  flush_queue(e, tc);
  schedule_pfc(e, kRestore, tc, 0, opt_.sw.pfc_watchdog_restore);
}

void Fabric::on_watchdog_restore(Port& e, unsigned tc) {
  e.wd_dropping = static_cast<std::uint8_t>(e.wd_dropping & ~(1u << tc));
  if (e.paused >> tc & 1) {  // still paused: the watchdog watches it again from now
    e.cls[tc].paused_since = now_at(e);
    schedule_pfc(e, kWatchdog, tc, e.cls[tc].wd_epoch, opt_.sw.pfc_watchdog);
  }
}

bool Fabric::watchdog_drop(Port& e, Packet& p) {
  if (!(e.wd_dropping >> p.tc & 1)) return false;
  count_watchdog_drop(e, p);
  return true;
}

void Fabric::count_watchdog_drop(Port& e, Packet& p) {
  ++e.c.watchdog_drops;
  ++tally(e).watchdog_drops;
  hand_back(e, p);
}

void Fabric::flush_queue(Port& e, unsigned tc) {
  drain_queue(e, tc, [&](Packet& p) { count_watchdog_drop(e, p); });
  if (tracer_) [[unlikely]] traced_depth(e);
  if (e.queued_packets == 0 && e.blocked) {
    e.c.paused += now_at(e) - e.blocked_since;
    e.blocked = false;
  }
}

}  // namespace rdmasim
