// Registry<Entry>: the named components of one extension point (congestion controls, load
// balancers, topologies, ...), in registration order.
//
// An Entry is a struct with `std::string name` and `std::string description` and whatever the
// extension point needs to build the component (a factory, traits). Components register
// explicitly: a registry is filled by one function that calls each component's registration,
// and a program that embeds the library may add its own before it runs anything (not while a
// simulation runs: a registry is not locked). An unknown name is an std::invalid_argument that
// lists the valid names, so every front end (CLI, scenario files, the HTTP API) says the same.
// Invariants: names are unique and non-empty; entries never move (a deque), so a pointer to
// one stays valid for the registry's lifetime.
#pragma once

#include <deque>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rdmasim {

template <typename Entry>
class Registry {
 public:
  /// `kind` names the extension point in messages: "congestion control".
  explicit Registry(std::string kind) : kind_(std::move(kind)) {}

  /// Adds `e`; throws std::invalid_argument for an empty or taken name.
  const Entry& add(Entry e) {
    if (e.name.empty()) throw std::invalid_argument(kind_ + ": a component needs a name");
    if (find(e.name)) throw std::invalid_argument(kind_ + " \"" + e.name + "\" is registered already");
    return entries_.emplace_back(std::move(e));
  }
  /// nullptr when there is no such entry.
  const Entry* find(std::string_view name) const {
    for (const Entry& e : entries_)
      if (e.name == name) return &e;
    return nullptr;
  }
  /// Throws std::invalid_argument("unknown KIND \"x\" (valid: a, b, c)").
  const Entry& get(std::string_view name) const {
    if (const Entry* e = find(name)) return *e;
    throw std::invalid_argument("unknown " + kind_ + " \"" + std::string(name) + "\" (valid: " + names_text() + ")");
  }
  std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (const Entry& e : entries_) n.push_back(e.name);
    return n;
  }
  /// "a, b, c"
  std::string names_text() const {
    std::string t;
    for (const Entry& e : entries_) t += (t.empty() ? "" : ", ") + e.name;
    return t;
  }
  const std::deque<Entry>& entries() const { return entries_; }
  /// Every entry, in registration order (stable pointers).
  std::vector<const Entry*> pointers() const {
    std::vector<const Entry*> v;
    for (const Entry& e : entries_) v.push_back(&e);
    return v;
  }
  const std::string& kind() const { return kind_; }

 private:
  std::string kind_;
  std::deque<Entry> entries_;
};

}  // namespace rdmasim
