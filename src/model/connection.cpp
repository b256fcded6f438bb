#include "model/connection.hpp"

#include "model/budget.hpp"
#include "net/wire_format.hpp"

namespace rdmasim {
namespace {

std::string pre(int side) { return side == 0 ? "A." : "B."; }

void core(PathSpec& path, int side, const std::string& label, Time t) {
  Cost c;
  c.fixed = t;
  path.serve(side, ResourceKind::core, Category::setup, pre(side) + "setup." + label, c);
}

// One MAD from `from` to the other side: the kernel SEND path at the MAD's size, as one packet.
void mad_leg(PathSpec& path, const LatConfig& mad, const ResolvedToggles& t, int from, const std::string& what,
             const NetworkAppender& network) {
  const PathSpec leg = network ? build_path(mad, t, from, network) : build_path(mad, t, from);
  const Bytes size = mad.size;
  const Bytes wire = frame_wire_bytes(FrameKind::roce_send, FramePos::only, size, mad.link_layer);
  for (StageSpec s : leg.stages) {
    if (s.kind == StageKind::split || s.kind == StageKind::merge) continue;
    if (s.kind == StageKind::network) {  // the route's unloaded hops, as fixed delays
      for (const StageSpec& h : s.expansion.front().stages) {
        Cost c;
        c.fixed = release_time(h.cost, h.cost.eval(size, size, wire), size);
        path.delay(h.side, Category::setup, "setup." + what + "." + h.label, c);
      }
      continue;
    }
    s.cost.fixed = s.cost.eval(size, size, wire);
    s.cost.rate = Rate{};
    s.cost.basis = Basis::none;
    s.cost.bytes = Bytes{};
    s.cost.tlp_payload = Bytes{};
    s.cost.tlp_overhead = Bytes{};
    s.cost.release_bytes = Bytes{};
    s.cat = Category::setup;
    s.cost.head_cat = Category::setup;
    s.label = "setup." + what + "." + s.label;
    path.stages.push_back(std::move(s));
  }
  core(path, 1 - from, "cm_" + what, mad.profile.conn.cm_process);
}

}  // namespace

std::int64_t pinned_pages(const ConnParams& p, Bytes size) {
  return (size.count() + p.page_size.count() - 1) / p.page_size.count();
}

namespace {
// A CM MAD's configuration: a conn.mad_size SEND through the kernel, completed by interrupt.
LatConfig mad_config(const LatConfig& c) {
  LatConfig mad = c;
  mad.test = TestKind::send;
  mad.transport = Transport::rdma;
  mad.size = c.profile.conn.mad_size;
  mad.toggles = Toggles{};
  mad.toggles.kernel_bypass = false;
  mad.toggles.busy_poll = false;
  mad.toggles.inline_data = false;
  mad.gpu = GpuConfig{};
  mad.conn = ConnConfig{};
  return mad;
}
}  // namespace

Time mad_one_way(const LatConfig& c, const NetworkAppender& network) {
  const LatConfig mad = mad_config(c);
  PathSpec path;
  mad_leg(path, mad, resolve(mad), 0, "mad", network);
  path.stages.pop_back();  // the receiving CM's processing: the caller's to charge
  return evaluate_path(path, mad.size, true).total();
}

PathSpec build_setup_path(const LatConfig& c, const NetworkAppender& network) {
  const ConnParams& p = c.profile.conn;
  const LatConfig mad = mad_config(c);
  const ResolvedToggles t = resolve(mad);
  const Time reg = p.reg_fixed + p.pin_per_page * pinned_pages(p, c.size);
  PathSpec path;
  core(path, 0, "qp_create", p.qp_create);
  core(path, 0, "qp_init", p.qp_transition);
  core(path, 0, "reg_mr", reg);
  mad_leg(path, mad, t, 0, "resolve", network);
  mad_leg(path, mad, t, 1, "resolve_reply", network);
  mad_leg(path, mad, t, 0, "req", network);
  core(path, 1, "qp_create", p.qp_create);
  core(path, 1, "qp_init", p.qp_transition);
  core(path, 1, "qp_rtr", p.qp_transition);
  core(path, 1, "reg_mr", reg);
  mad_leg(path, mad, t, 1, "rep", network);
  core(path, 0, "qp_rtr", p.qp_transition);
  core(path, 0, "qp_rts", p.qp_transition);
  return path;
}

}  // namespace rdmasim
