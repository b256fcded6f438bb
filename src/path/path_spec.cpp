#include "path/path_spec.hpp"

#include <algorithm>

namespace rdmasim {

Bytes Cost::bytes_for(Bytes payload, Bytes message, Bytes wire) const {
  Bytes b = bytes;
  switch (basis) {
    case Basis::none: break;
    case Basis::payload: b += payload; break;
    case Basis::message: b += message; break;
    case Basis::wire: b += wire; break;
  }
  if (tlp_payload.count() > 0 && b.count() > 0) {
    const std::int64_t tlps = (b.count() + tlp_payload.count() - 1) / tlp_payload.count();
    b += tlp_overhead * tlps;
  }
  return b;
}

Time Cost::eval(Bytes payload, Bytes message, Bytes wire) const {
  return fixed + serialization_time(bytes_for(payload, message, wire), rate);
}

bool Cost::chunk_payer(std::int32_t index, Bytes message) const {
  if (chunk_packets <= 0) return true;
  const std::int64_t packets = (message.count() + chunk_segment.count() - 1) / chunk_segment.count();
  const std::int64_t first = (index / chunk_packets) * chunk_packets;
  const std::int64_t last = std::min<std::int64_t>(first + chunk_packets, packets) - 1;
  return index == (chunk_at_end ? last : first);
}

Time Cost::eval_at(std::int32_t index, Bytes payload, Bytes message, Bytes wire) const {
  if (chunk_packets <= 0) return eval(payload, message, wire);
  if (!chunk_payer(index, message)) return per_packet;
  const std::int64_t chunk = chunk_segment.count() * chunk_packets;
  const std::int64_t first = (index / chunk_packets) * chunk_packets;
  const Bytes bytes_in_chunk{std::min<std::int64_t>(chunk, message.count() - first * chunk_segment.count())};
  return per_packet + fixed + serialization_time(bytes_in_chunk, rate);
}

Time release_time(const Cost& c, Time service, Bytes message) {
  const std::int64_t chunk = c.release_bytes.count();
  if (chunk <= 0) return service;
  const std::int64_t last = c.release_last_chunk && message.count() > 0 ? message.count() - (message.count() - 1) / chunk * chunk : chunk;
  const Time r = serialization_time(Bytes{last}, c.rate);
  return r < service ? r : service;
}

void PathSpec::delay(int side, Category cat, std::string label, Cost cost) {
  StageSpec s;
  s.kind = StageKind::delay;
  s.cat = cat;
  s.side = side;
  s.cost = cost;
  s.label = std::move(label);
  stages.push_back(std::move(s));
}

void PathSpec::serve(int side, ResourceKind res, Category cat, std::string label, Cost cost) {
  StageSpec s;
  s.kind = StageKind::serve;
  s.cat = cat;
  s.side = side;
  s.res = res;
  s.cost = cost;
  s.label = std::move(label);
  stages.push_back(std::move(s));
}

void PathSpec::split(int side, SplitSpec sp, std::string label) {
  StageSpec s;
  s.kind = StageKind::split;
  s.side = side;
  s.split = sp;
  s.label = std::move(label);
  stages.push_back(std::move(s));
}

void PathSpec::merge(int side, std::string label) {
  StageSpec s;
  s.kind = StageKind::merge;
  s.side = side;
  s.label = std::move(label);
  stages.push_back(std::move(s));
}

void PathSpec::moderate(int side, ModerationSpec m, std::string label) {
  StageSpec s;
  s.kind = StageKind::moderate;
  s.cat = Category::interrupt;
  s.side = side;
  s.res = ResourceKind::moderator;
  s.moderation = m;
  s.label = std::move(label);
  stages.push_back(std::move(s));
}

void PathSpec::mark_last_network(NetRole role) {
  for (auto it = stages.rbegin(); it != stages.rend(); ++it)
    if (it->kind == StageKind::network) {
      it->role = role;
      return;
    }
}

}  // namespace rdmasim
