// run_cmtime (rdmasim/cmtime.hpp): each connection's step is a script of operations, each on
// one host's serial resource (application thread, CM thread, firmware command interface) or a
// MAD crossing the network; an operation starts when its resource is free (FIFO in the order
// the scheduler reaches the requests) and the next one is requested when it ends.
#include "rdmasim/cmtime.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>

#include "core/scheduler.hpp"
#include "model/connection.hpp"
#include "model/path.hpp"

namespace rdmasim {
namespace {

// Per host: the client's application thread (its calls, and the MADs they send), the kernel
// CM thread (the MADs received), and the thread that calls into the firmware (the
// application's for create/INIT/destroy, the event thread's while connecting: it blocks on
// each command, so its calls, the commands and the MADs it sends are one serial resource).
enum Res : std::uint8_t { app0, cm0, fw0, cm1, fw1, net, kResources };

struct Op {
  Res res;
  Time t;
  bool done = false;  // the connection's step completes when this op ends (later ops go on)
};

class CmtimeRun final : public EventHandler {
 public:
  CmtimeRun(const CmtimeConfig& c, Time mad) : n_(c.connections) {
    const ConnParams& p = c.base.profile.conn;
    const Time cm = p.cm_process, m = p.qp_transition;
    steps_ = {
        {"create id", false, {{app0, p.create_id, true}}},
        {"bind addr", false, {{app0, p.bind, true}}},
        {"resolve addr", false, {{app0, p.cm_call}, {cm0, p.resolve_addr, true}}},
        {"resolve route", false, {{app0, p.cm_call}, {cm0, p.resolve_route, true}}},
        {"create qp", false, {{fw0, p.qp_create, true}}},
        {"init qp", false, {{fw0, m, true}}},
        // rdma_connect sends the REQ from the application's thread; the server's CM thread takes
        // it, its event thread creates the QP, moves it to INIT and RTR (each call blocking on a
        // firmware command) and sends the REP (rdma_accept); the client's CM thread takes the
        // REP, its event thread moves the QP to RTR and RTS and sends the RTU (established);
        // the server takes the RTU and moves its QP to RTS.
        {"connect",
         true,
         {{app0, p.cm_call + cm}, {net, mad}, {cm1, cm}, {fw1, p.qp_create + m * 2 + cm}, {net, mad}, {cm0, cm},
          {fw0, m * 2 + cm, true}, {net, mad}, {cm1, cm}, {fw1, m}}},
        // rdma_disconnect: the QP to ERR and the DREQ; the server's event thread moves its QP
        // to ERR and sends the DREP.
        {"disconnect", false, {{app0, p.cm_call + m + cm}, {net, mad}, {cm1, cm}, {fw1, m + cm}, {net, mad}, {cm0, cm, true}}},
        {"destroy qp", false, {{fw0, p.qp_destroy, true}}},
        {"destroy id", false, {{app0, p.create_id, true}}},
    };
    started_.assign(static_cast<std::size_t>(n_), Time{});
    first_start_.assign(static_cast<std::size_t>(n_), Time{});
  }

  CmtimeResult run() {
    CmtimeResult r;
    for (step_ = 0; step_ < steps_.size(); ++step_) {
      CmtimeStep row;
      row.name = steps_[step_].name;
      row.min = Time::ps(INT64_MAX);
      const Time begin = sched_.now();
      left_ = n_;
      row_ = &row;
      for (int i = 0; i < n_; ++i) request(i, 0);
      sched_.run();
      if (left_ != 0) throw std::logic_error("cmtime: a connection never finished its step");
      row.total = last_done_ - begin;
      if (steps_[step_].connects) r.full_connect = full_;
      r.steps.push_back(row);
    }
    r.events = sched_.executed();
    return r;
  }

  void on_event(std::uint64_t arg) override {
    const int i = static_cast<int>(arg >> 8);
    const auto k = static_cast<std::size_t>(arg & 0xff);
    const Op& op = steps_[step_].ops[k];
    if (op.done) finished(i);
    if (k + 1 < steps_[step_].ops.size()) request(i, k + 1);
  }

 private:
  struct Step {
    std::string name;
    bool connects;  // its completion ends a connection's full connect
    std::vector<Op> ops;
  };

  void request(int i, std::size_t k) {
    const Op& op = steps_[step_].ops[k];
    Time start = sched_.now();
    if (op.res != net) {
      Time& free = free_at_[op.res];
      start = std::max(start, free);
      free = start + op.t;
    }
    if (k == 0) {
      started_[static_cast<std::size_t>(i)] = start;
      if (step_ == 0) first_start_[static_cast<std::size_t>(i)] = start;
    }
    sched_.schedule_at(start + op.t, *this, (static_cast<std::uint64_t>(i) << 8) | k);
  }

  void finished(int i) {
    const Time now = sched_.now();
    const Time d = now - started_[static_cast<std::size_t>(i)];
    row_->sum += d;
    row_->max = std::max(row_->max, d);
    row_->min = std::min(row_->min, d);
    last_done_ = std::max(last_done_, now);
    --left_;
    if (steps_[step_].connects) {
      const Time f = now - first_start_[static_cast<std::size_t>(i)];
      full_.min = std::min(full_.min, f);
      full_.max = std::max(full_.max, f);
      full_.total = now - Time::zero();
    }
  }

  int n_;
  std::vector<Step> steps_;
  Scheduler sched_;
  std::array<Time, kResources> free_at_{};
  std::vector<Time> started_, first_start_;
  std::size_t step_ = 0;
  int left_ = 0;
  Time last_done_{};
  CmtimeStep* row_ = nullptr;
  CmtimeStep full_{"full connect", Time{}, Time{}, Time::ps(INT64_MAX), Time{}};
};

}  // namespace

CmtimeResult run_cmtime(const CmtimeConfig& c) {
  if (c.connections < 1 || c.connections > 1'000'000) throw std::invalid_argument("-c (connections): must be 1..1000000");
  if (c.base.transport != Transport::rdma || c.base.topology == LatTopology::loopback)
    throw std::invalid_argument("cmtime sets up RC connections: RDMA between two hosts (not --transport tcp or loopback)");
  const Time mad = c.base.topology == LatTopology::fabric ? mad_one_way(c.base, FabricNetwork(c.base).appender())
                                                          : mad_one_way(c.base);
  CmtimeRun run(c, mad);
  CmtimeResult r = run.run();
  r.config = c;
  r.mad_one_way = mad;
  return r;
}

}  // namespace rdmasim
