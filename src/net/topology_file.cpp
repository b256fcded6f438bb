#include "net/topology_file.hpp"

#include "core/located_error.hpp"

#include <algorithm>
#include <charconv>
#include <deque>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

#include "core/number_text.hpp"
#include "core/text_lines.hpp"
#include "net/routing.hpp"

namespace rdmasim {
namespace {

constexpr std::int64_t kMaxNodes = 1'000'000, kMaxCables = 1'000'000;

struct Token {
  std::string_view text;
  int line = 0, col = 0;
};

[[noreturn]] void fail(const std::string& source, int line, int col, const std::string& what) {
  throw LocatedError(source, line, col, what);
}

// The tokens of each line, comments (# to the end of the line) removed; blank lines dropped.
std::vector<std::vector<Token>> tokenize(std::string_view text) {
  std::vector<std::vector<Token>> lines;
  for_each_line(text, [&lines](int line, std::string_view l) {
    std::vector<Token> toks;
    for (std::size_t i = 0; i < l.size();) {
      if (l[i] == ' ' || l[i] == '\t' || l[i] == '\r') {
        ++i;
        continue;
      }
      const std::size_t j = std::min(l.find_first_of(" \t\r", i), l.size());
      toks.push_back({l.substr(i, j - i), line, static_cast<int>(i) + 1});
      i = j;
    }
    if (!toks.empty()) lines.push_back(std::move(toks));
  });
  return lines;
}

bool integer(std::string_view s, std::int64_t& v) {
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc{} && p == s.data() + s.size();
}

std::int64_t delay_to_length_mm(Time d, std::int64_t velocity_mps) {
  // L = d x v; d in ps, L in mm: mm = ps x v / 1e9, rounded to the nearest millimetre
  const i128 num = static_cast<i128>(d.count_ps()) * velocity_mps;
  return static_cast<std::int64_t>((num + 500'000'000) / 1'000'000'000);
}

class Reader {
 public:
  Reader(const std::string& source, std::int64_t velocity) : source_(source), velocity_(velocity) {}

  Topology rdmasim(const std::vector<std::vector<Token>>& lines) {
    const std::vector<Token>& head = lines.front();
    std::int64_t version = 0;
    if (head.size() != 2 || !integer(head[1].text, version))
      fail(source_, head[0].line, head[0].col, "expected \"rdmasim-topology 1\"");
    if (version != 1) fail(source_, head[1].line, head[1].col, "unsupported version " + std::string(head[1].text) + " (this rdmasim reads 1)");
    for (std::size_t i = 1; i < lines.size(); ++i) directive(lines[i]);
    return finish();
  }

  Topology hpcc(const std::vector<std::vector<Token>>& lines) {
    std::vector<Token> toks;  // line breaks are not significant
    for (const auto& l : lines) toks.insert(toks.end(), l.begin(), l.end());
    std::size_t at = 0;
    const Token* last = &toks.back();
    auto next = [&](const char* what) -> const Token& {
      if (at >= toks.size()) fail(source_, last->line, last->col + static_cast<int>(last->text.size()), std::string("expected ") + what + ", the file ends");
      return toks[at++];
    };
    auto count = [&](const char* what, std::int64_t lo, std::int64_t hi) {
      const Token& t = next(what);
      std::int64_t v = 0;
      if (!integer(t.text, v) || v < lo || v > hi)
        fail(source_, t.line, t.col, std::string("expected ") + what + " (" + std::to_string(lo) + ".." + std::to_string(hi) + "), got \"" + std::string(t.text) + "\"");
      return v;
    };
    const std::int64_t nodes = count("the node count", 2, kMaxNodes);
    const std::int64_t switches = count("the switch count", 0, nodes - 1);
    const std::int64_t links = count("the link count", 1, kMaxCables);
    std::vector<char> is_switch(static_cast<std::size_t>(nodes), 0);
    for (std::int64_t i = 0; i < switches; ++i) {
      const Token& t = toks[std::min(at, toks.size() - 1)];
      const std::int64_t id = count("a switch id", 0, nodes - 1);
      if (is_switch[static_cast<std::size_t>(id)]) fail(source_, t.line, t.col, "switch " + std::to_string(id) + " listed twice");
      is_switch[static_cast<std::size_t>(id)] = 1;
    }
    t_.name = "file";
    t_.description = "ns-3 HPCC topology.txt " + source_;
    for (std::int64_t id = 0; id < nodes; ++id) {
      const bool sw = is_switch[static_cast<std::size_t>(id)] != 0;
      add_node(sw ? NodeKind::switch_ : NodeKind::host, sw ? 1 : 0, -1, (sw ? "sw" : "h") + std::to_string(id), -1, -1, 0,
               Token{{}, 1, 1});
      t_.node_ids.push_back(sw ? -1 : t_.host_count() - 1);
    }
    for (std::int64_t i = 0; i < links; ++i) {
      const Token& first = toks[std::min(at, toks.size() - 1)];
      const int a = static_cast<int>(count("a link's source id", 0, nodes - 1));
      const int b = static_cast<int>(count("a link's destination id", 0, nodes - 1));
      const Token& rate = next("a link's rate (e.g. 100Gbps)");
      const Token& delay = next("a link's delay (e.g. 0.001ms)");
      const Token& err = next("a link's error rate");
      const int c = connect(a, b, parse(rate, "rate", parse_rate), delay_to_length_mm(parse(delay, "delay", parse_time), velocity_), first);
      const double p = probability(err, true, "expected an error rate 0..1");
      if (p > 0) t_.set_loss(c, p);
    }
    return finish();
  }

 private:
  // A value through one of the unit parsers (parse_rate, ...), its error at the value's column.
  template <typename F>
  auto parse(const Token& t, const char* what, F f) -> decltype(f(t.text)) {
    try {
      return f(t.text);
    } catch (const std::invalid_argument& e) {
      fail(source_, t.line, t.col, std::string(what) + ": " + e.what());
    }
  }

  // A probability: 0..1 (`one`: 1 included); else `what` at the value's column.
  double probability(const Token& t, bool one, const char* what) {
    double p = 0;
    if (!number_from_text(t.text, p) || p < 0 || p > 1 || (!one && p == 1))
      fail(source_, t.line, t.col, std::string(what) + ", got \"" + std::string(t.text) + "\"");
    return p;
  }

  void add_node(NodeKind kind, int tier, int pod, std::string name, int server, int rail, int plane, const Token& at) {
    if (static_cast<std::int64_t>(t_.nodes().size()) >= kMaxNodes) fail(source_, at.line, at.col, "more than 1000000 nodes");
    if (!names_.emplace(name, static_cast<int>(t_.nodes().size())).second)
      fail(source_, at.line, at.col, "\"" + name + "\" is declared twice");
    where_.push_back(at);
    t_.add_node(kind, tier, pod, std::move(name), server, rail, plane);
  }

  int connect(int a, int b, Rate rate, std::int64_t length_mm, const Token& at) {
    if (a == b) fail(source_, at.line, at.col, "a link from \"" + t_.nodes()[static_cast<std::size_t>(a)].name + "\" to itself");
    if (static_cast<std::int64_t>(t_.cables().size()) >= kMaxCables) fail(source_, at.line, at.col, "more than 1000000 links");
    if (rate.bits_per_sec() <= 0) fail(source_, at.line, at.col, "a link's rate must be above 0");
    if (length_mm < 0) fail(source_, at.line, at.col, "a link's length must be 0 or more");
    if (!pairs_.insert({std::min(a, b), std::max(a, b)}).second)
      fail(source_, at.line, at.col, "a second link between \"" + t_.nodes()[static_cast<std::size_t>(a)].name + "\" and \"" +
                                         t_.nodes()[static_cast<std::size_t>(b)].name + "\"");
    const Node& na = t_.nodes()[static_cast<std::size_t>(a)];
    const Node& nb = t_.nodes()[static_cast<std::size_t>(b)];
    if (na.plane != nb.plane)
      fail(source_, at.line, at.col, "\"" + na.name + "\" (plane " + std::to_string(na.plane) + ") and \"" + nb.name + "\" (plane " +
                                         std::to_string(nb.plane) + "): no link joins two planes");
    return t_.connect(a, b, rate, length_mm);
  }

  // key=value attributes after the fixed tokens; each key at most once, from `allowed`.
  std::map<std::string, Token> attributes(const std::vector<Token>& l, std::size_t from, const std::set<std::string>& allowed) {
    std::map<std::string, Token> a;
    for (std::size_t i = from; i < l.size(); ++i) {
      const std::size_t eq = l[i].text.find('=');
      std::string names;
      for (const std::string& k : allowed) names += (names.empty() ? "" : ", ") + k;
      if (eq == std::string_view::npos || eq == 0)
        fail(source_, l[i].line, l[i].col, "expected key=value (" + names + "), got \"" + std::string(l[i].text) + "\"");
      const std::string key(l[i].text.substr(0, eq));
      if (!allowed.count(key)) fail(source_, l[i].line, l[i].col, "unknown attribute \"" + key + "\" (valid: " + names + ")");
      Token v{l[i].text.substr(eq + 1), l[i].line, l[i].col + static_cast<int>(eq) + 1};
      if (!a.emplace(key, v).second) fail(source_, l[i].line, l[i].col, "\"" + key + "\" given twice");
    }
    return a;
  }

  int number(const std::map<std::string, Token>& a, const char* key, int fallback, int lo, int hi) {
    const auto it = a.find(key);
    if (it == a.end()) return fallback;
    std::int64_t v = 0;
    if (!integer(it->second.text, v) || v < lo || v > hi)
      fail(source_, it->second.line, it->second.col,
           std::string(key) + ": expected " + std::to_string(lo) + ".." + std::to_string(hi) + ", got \"" + std::string(it->second.text) + "\"");
    return static_cast<int>(v);
  }

  int node(const Token& t) {
    const auto it = names_.find(std::string(t.text));
    if (it == names_.end()) fail(source_, t.line, t.col, "no node \"" + std::string(t.text) + "\" declared before this line");
    return it->second;
  }

  std::string rest(const std::vector<Token>& l) {
    std::string s;
    for (std::size_t i = 1; i < l.size(); ++i) s += (s.empty() ? "" : " ") + std::string(l[i].text);
    return s;
  }

  void directive(const std::vector<Token>& l) {
    const std::string_view d = l[0].text;
    const auto need = [&](std::size_t n, const char* form) {
      if (l.size() < n) fail(source_, l[0].line, l[0].col, std::string("expected ") + form);
    };
    if (d == "name") {
      need(2, "name NAME");
      t_.name = rest(l);
    } else if (d == "description") {
      need(2, "description TEXT");
      t_.description = rest(l);
    } else if (d == "switch") {
      need(2, "switch NAME [tier=1..3] [pod=N] [rail=N] [plane=N]");
      const auto a = attributes(l, 2, {"tier", "pod", "rail", "plane"});
      add_node(NodeKind::switch_, number(a, "tier", 1, 1, 3), number(a, "pod", -1, 0, 1'000'000), std::string(l[1].text), -1,
               number(a, "rail", -1, 0, 1'000), number(a, "plane", 0, 0, 7), l[1]);
    } else if (d == "host") {
      need(2, "host NAME [pod=N]");
      const auto a = attributes(l, 2, {"pod"});
      add_node(NodeKind::host, 0, number(a, "pod", -1, 0, 1'000'000), std::string(l[1].text), -1, -1, 0, l[1]);
    } else if (d == "server") {
      need(2, "server NAME nics=N [ports=P] [pod=N]");
      const auto a = attributes(l, 2, {"nics", "ports", "pod"});
      if (!a.count("nics")) fail(source_, l[1].line, l[1].col, "server " + std::string(l[1].text) + ": nics=N is required");
      const int nics = number(a, "nics", 1, 1, 16), ports = number(a, "ports", 1, 1, 8), pod = number(a, "pod", -1, 0, 1'000'000);
      const int s = t_.server_count();
      // The collectives, the rail reports and the planes take every server alike.
      if (s == 0) {
        first_server_ = {std::string(l[1].text), nics, ports};
      } else if (nics != first_server_.nics || ports != first_server_.ports) {
        fail(source_, l[1].line, l[1].col,
             "server " + std::string(l[1].text) + ": nics=" + std::to_string(nics) + " ports=" + std::to_string(ports) + ", but server " +
                 first_server_.name + " has nics=" + std::to_string(first_server_.nics) + " ports=" +
                 std::to_string(first_server_.ports) + " (every server of a file has the same NICs and ports)");
      }
      for (int r = 0; r < nics; ++r)
        for (int p = 0; p < ports; ++p) add_node(NodeKind::host, 0, pod, Topology::port_name(l[1].text, r, p, ports), s, r, p, l[1]);
    } else if (d == "link") {
      need(3, "link A B rate=RATE (length=LENGTH | delay=TIME) [loss=P] [transit=both|a-to-b|none]");
      const int a = node(l[1]), b = node(l[2]);
      const auto at = attributes(l, 3, {"rate", "length", "delay", "loss", "transit"});
      if (!at.count("rate")) fail(source_, l[0].line, l[0].col, "link: rate=RATE is required");
      if (at.count("length") == at.count("delay")) fail(source_, l[0].line, l[0].col, "link: give length=LENGTH or delay=TIME (one of them)");
      const Rate rate = parse(at.at("rate"), "rate", parse_rate);
      const std::int64_t mm = at.count("length") ? parse(at.at("length"), "length", parse_length_mm)
                                                 : delay_to_length_mm(parse(at.at("delay"), "delay", parse_time), velocity_);
      const int c = connect(a, b, rate, mm, l[0]);
      if (const auto it = at.find("loss"); it != at.end())
        t_.set_loss(c, probability(it->second, false, "loss: expected a probability 0..1"));
      if (const auto it = at.find("transit"); it != at.end()) {
        const std::string_view v = it->second.text;
        if (v == "a-to-b") t_.set_transit(c, CableTransit::a_to_b);
        else if (v == "none") t_.set_transit(c, CableTransit::none);
        else if (v != "both") fail(source_, it->second.line, it->second.col, "transit: expected both, a-to-b or none, got \"" + std::string(v) + "\"");
        if (v != "both" && (t_.nodes()[static_cast<std::size_t>(a)].kind == NodeKind::host || t_.nodes()[static_cast<std::size_t>(b)].kind == NodeKind::host))
          fail(source_, it->second.line, it->second.col, "transit: a host's cable carries both ways");
      }
    } else {
      fail(source_, l[0].line, l[0].col, "unknown directive \"" + std::string(d) + "\" (valid: name, description, switch, host, server, link)");
    }
  }

  Topology finish() {
    if (t_.host_count() < 2) fail(source_, 1, 1, "a fabric needs at least 2 hosts, got " + std::to_string(t_.host_count()));
    for (int h = 0; h < t_.host_count(); ++h) {
      const int n = t_.host_node(h);
      const Node& x = t_.nodes()[static_cast<std::size_t>(n)];
      if (x.cables.size() != 1)
        fail(source_, where_[static_cast<std::size_t>(n)].line, where_[static_cast<std::size_t>(n)].col,
             "host \"" + x.name + "\" has " + std::to_string(x.cables.size()) + " links (a host is one NIC port: exactly 1)");
    }
    // Every plane connected: from each plane's first host, every node of the plane.
    std::set<int> seen_planes;
    for (int h = 0; h < t_.host_count(); ++h) {
      const Node& x = t_.nodes()[static_cast<std::size_t>(t_.host_node(h))];
      if (!seen_planes.insert(x.plane).second) continue;
      std::vector<char> reach(t_.nodes().size(), 0);
      std::deque<int> q{t_.host_node(h)};
      reach[static_cast<std::size_t>(t_.host_node(h))] = 1;
      while (!q.empty()) {
        const int n = q.front();
        q.pop_front();
        for (int c : t_.nodes()[static_cast<std::size_t>(n)].cables) {
          const int m = t_.cables()[static_cast<std::size_t>(c)].other(n);
          if (!reach[static_cast<std::size_t>(m)]) reach[static_cast<std::size_t>(m)] = 1, q.push_back(m);
        }
      }
      for (std::size_t n = 0; n < t_.nodes().size(); ++n)
        if (t_.nodes()[n].plane == x.plane && !reach[n])
          fail(source_, where_[n].line, where_[n].col,
               "\"" + t_.nodes()[n].name + "\" cannot reach \"" + x.name + "\": the fabric is not connected");
    }
    return std::move(t_);
  }

  const std::string& source_;
  std::int64_t velocity_;
  Topology t_;
  std::map<std::string, int> names_;
  std::vector<Token> where_;  // per node: where it was declared
  std::set<std::pair<int, int>> pairs_;
  struct {
    std::string name;
    int nics = 0, ports = 0;
  } first_server_;  // the others must match it
};

std::string length_text(std::int64_t mm) { return mm % 1000 == 0 ? std::to_string(mm / 1000) + "m" : std::to_string(mm) + "mm"; }

}  // namespace

Topology read_topology_file(std::string_view text, const std::string& source, std::int64_t velocity_mps) {
  const std::vector<std::vector<Token>> lines = tokenize(text);
  if (lines.empty()) fail(source, 1, 1, "empty (expected \"rdmasim-topology 1\" or an HPCC topology.txt)");
  Reader r(source, velocity_mps);
  const std::vector<Token>& head = lines.front();
  if (head[0].text == "rdmasim-topology") return r.rdmasim(lines);
  std::int64_t v = 0;
  if (integer(head[0].text, v)) return r.hpcc(lines);
  fail(source, head[0].line, head[0].col,
       "expected \"rdmasim-topology 1\" (or an HPCC topology.txt: node, switch and link counts), got \"" + std::string(head[0].text) + "\"");
}

std::string write_topology_file(const Topology& t) {
  std::string o = "rdmasim-topology 1\n";
  o += "name " + t.name + "\n";
  if (!t.description.empty()) o += "description " + t.description + "\n";
  const auto attr = [](const char* k, int v) { return std::string(" ") + k + "=" + std::to_string(v); };
  for (std::size_t n = 0; n < t.nodes().size(); ++n) {
    const Node& x = t.nodes()[n];
    if (x.kind == NodeKind::switch_) {
      o += "switch " + x.name + attr("tier", x.tier);
      if (x.pod >= 0) o += attr("pod", x.pod);
      if (x.rail >= 0) o += attr("rail", x.rail);
      if (x.plane > 0) o += attr("plane", x.plane);
    } else if (x.server < 0) {
      o += "host " + x.name;
      if (x.pod >= 0) o += attr("pod", x.pod);
    } else {
      const std::vector<int>& ports = t.server_hosts(x.server);
      if (t.host_node(ports.front()) != static_cast<int>(n)) continue;  // declared with its server's first port
      o += "server " + std::string(Topology::server_of_port(x.name)) + attr("nics", t.server_nics(x.server));
      if (t.planes() > 1) o += attr("ports", t.planes());
      if (x.pod >= 0) o += attr("pod", x.pod);
    }
    o += "\n";
  }
  for (const Cable& c : t.cables()) {
    o += "link " + t.nodes()[static_cast<std::size_t>(c.a)].name + " " + t.nodes()[static_cast<std::size_t>(c.b)].name +
         " rate=" + format_rate(c.rate) + " length=" + length_text(c.length_mm);
    if (c.loss > 0) o += " loss=" + number_text(c.loss);
    if (c.transit == CableTransit::a_to_b) o += " transit=a-to-b";
    if (c.transit == CableTransit::none) o += " transit=none";
    o += "\n";
  }
  return o;
}

}  // namespace rdmasim
