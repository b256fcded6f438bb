#include "web/event_stream.hpp"

#include <algorithm>

namespace rdmasim::web {

EventStream::EventStream(std::size_t history_cap, std::size_t client_cap)
    : history_cap_(std::max<std::size_t>(history_cap, 4)), client_cap_(std::max<std::size_t>(client_cap, 4)) {}

std::size_t EventStream::decimate(std::deque<StreamEvent>& q) {
  std::deque<StreamEvent> kept;
  std::size_t samples = 0, dropped = 0;
  for (StreamEvent& e : q) {
    if (e.type == "sample" && samples++ % 2 == 1) {
      ++dropped;
      continue;
    }
    kept.push_back(std::move(e));
  }
  q.swap(kept);
  return dropped;
}

void EventStream::add(StreamEvent e) {
  e.seq = next_seq_++;
  const bool sample = e.type == "sample";
  if (sample && history_.size() >= history_cap_) decimate(history_);
  history_.push_back(e);
  for (const auto& s : subs_) {
    if (sample && s->queue.size() >= client_cap_) s->dropped += decimate(s->queue);
    s->queue.push_back(e);
  }
}

void EventStream::publish(std::string type, std::string data) {
  {
    std::lock_guard<std::mutex> l(m_);
    if (closed_) return;
    add(StreamEvent{0, std::move(type), std::move(data)});
  }
  cv_.notify_all();
}

void EventStream::close(std::string type, std::string data) {
  {
    std::lock_guard<std::mutex> l(m_);
    if (closed_) return;
    add(StreamEvent{0, std::move(type), std::move(data)});
    closed_ = true;
  }
  cv_.notify_all();
}

std::shared_ptr<EventStream::Subscriber> EventStream::subscribe() {
  auto s = std::make_shared<Subscriber>();
  std::lock_guard<std::mutex> l(m_);
  s->queue = history_;
  subs_.push_back(s);
  return s;
}

void EventStream::unsubscribe(const std::shared_ptr<Subscriber>& s) {
  std::lock_guard<std::mutex> l(m_);
  subs_.erase(std::remove(subs_.begin(), subs_.end(), s), subs_.end());
}

std::optional<StreamEvent> EventStream::pop(const std::shared_ptr<Subscriber>& s, std::chrono::milliseconds wait) {
  std::unique_lock<std::mutex> l(m_);
  cv_.wait_for(l, wait, [&] { return !s->queue.empty() || closed_; });
  if (s->queue.empty()) return std::nullopt;
  StreamEvent e = std::move(s->queue.front());
  s->queue.pop_front();
  return e;
}

bool EventStream::ended(const std::shared_ptr<Subscriber>& s) const {
  std::lock_guard<std::mutex> l(m_);
  return closed_ && s->queue.empty();
}

bool EventStream::closed() const {
  std::lock_guard<std::mutex> l(m_);
  return closed_;
}

std::size_t EventStream::subscribers() const {
  std::lock_guard<std::mutex> l(m_);
  return subs_.size();
}

std::uint64_t EventStream::published() const {
  std::lock_guard<std::mutex> l(m_);
  return next_seq_ - 1;
}

std::size_t EventStream::history_size() const {
  std::lock_guard<std::mutex> l(m_);
  return history_.size();
}

std::uint64_t EventStream::dropped(const std::shared_ptr<Subscriber>& s) const {
  std::lock_guard<std::mutex> l(m_);
  return s->dropped;
}

}  // namespace rdmasim::web
