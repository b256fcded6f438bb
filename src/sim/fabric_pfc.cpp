// The fabric's PFC pathologies: deadlock detection over the waits-for graph of paused queues,
// and the PFC watchdog (sim/fabric.hpp describes both). Checks run on timers, off the per-frame
// hot path; the per-frame cost is one bit test in admit() while a watchdog is dropping.
#include <algorithm>
#include <limits>
#include <optional>

#include "sim/fabric.hpp"
#include "sim/fabric_port.hpp"

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
  const std::optional<Time> next = look_for_deadlock(sched_.now());
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
  if (due == std::numeric_limits<std::int64_t>::max()) return {};
  if (end.count_ps() < due) return {false, Time::ps(due)};
  const std::optional<Time> next = look_for_deadlock(end);
  check_due_ps_.store(next ? next->count_ps() : std::numeric_limits<std::int64_t>::max(), std::memory_order_relaxed);
  if (deadlocks() > 0) return {true, Time::max()};
  return {false, next.value_or(Time::max())};
}

std::optional<Time> Fabric::look_for_deadlock(Time now) {
  const Time limit = opt_.sw.deadlock_detect;
  Time next = now + limit;  // at most a threshold apart while anything stays paused
  bool any = false;
  waits_for_.clear();
  for (const auto& pp : ports_) {
    const Port& e = pp;
    if (!e.paused || !is_switch(e.node)) continue;
    for (unsigned tc = 0; tc < kClasses; ++tc) {
      if (!(e.paused >> tc & 1)) continue;
      any = true;
      const Time since = e.cls[tc].paused_since;
      if (now - since >= limit) {
        if (e.cls[tc].head) waits_for_.add_vertex({e.id, static_cast<int>(tc)});
      } else {
        next = std::min(next, since + limit);
      }
    }
  }
  // u -> v: frames u sent (they entered through the ingress whose XOFF pauses u) wait in v.
  for (const auto& pp : ports_) {
    const Port& v = pp;
    for (unsigned tc = 0; tc < kClasses; ++tc) {
      if (!v.cls[tc].head || !waits_for_.has_vertex({v.id, static_cast<int>(tc)})) continue;
      for (const Packet* p = v.cls[tc].head; p; p = p->next_in_queue) {
        const WaitsForGraph::Vertex u{p->fab_port, static_cast<int>(tc)};
        if (waits_for_.has_vertex(u)) waits_for_.add_edge(u, {v.id, static_cast<int>(tc)});
      }
    }
  }
  const std::vector<WaitsForGraph::Vertex> cycle = waits_for_.find_cycle();
  if (!cycle.empty()) {
    PfcDeadlock d;
    d.detected_at_us = now.to_us();
    for (const WaitsForGraph::Vertex& v : cycle) {
      const Port& e = ports_[static_cast<std::size_t>(v.port)];
      const auto tc = static_cast<std::size_t>(v.priority);
      d.cycle.push_back({port_name(v.port), v.priority, e.cls[tc].qbytes, (now - e.cls[tc].paused_since).to_us()});
    }
    deadlock_reports_.push_back(std::move(d));
    return std::nullopt;
  }
  if (!any) return std::nullopt;
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
