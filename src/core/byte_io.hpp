// ByteWriter / ByteReader: trivially copyable values appended to a byte buffer and read back in
// the same order — what one process of a run over MPI ranks sends another (crossings, counts).
// Both ends are the same build on the same kind of machine (mpirun starts one binary), so a
// value travels as its bytes. A read past the end throws std::logic_error (a malformed
// message is a bug, not an input error).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace rdmasim {

class ByteWriter {
 public:
  explicit ByteWriter(std::vector<std::byte>& out) : out_(out) {}
  void raw(const void* p, std::size_t n) {
    if (n == 0) return;
    const std::size_t at = out_.size();
    out_.resize(at + n);
    std::memcpy(out_.data() + at, p, n);
  }
  template <typename T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    raw(&v, sizeof v);
  }
  /// A count, then the elements.
  template <typename T>
  void put_all(std::span<const T> v) {
    put<std::uint64_t>(v.size());
    raw(v.data(), v.size_bytes());
  }

 private:
  std::vector<std::byte>& out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::byte> in) : in_(in) {}
  void raw(void* p, std::size_t n) {
    if (n == 0) return;  // (an empty vector's data() may be null)
    if (in_.size() - at_ < n) throw std::logic_error("ByteReader: read past the end of a message from another rank");
    std::memcpy(p, in_.data() + at_, n);
    at_ += n;
  }
  template <typename T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T v;
    raw(&v, sizeof v);
    return v;
  }
  template <typename T>
  std::vector<T> get_all() {
    std::vector<T> v(get<std::uint64_t>());
    raw(v.data(), v.size() * sizeof(T));
    return v;
  }
  bool done() const { return at_ == in_.size(); }

 private:
  std::span<const std::byte> in_;
  std::size_t at_ = 0;
};

}  // namespace rdmasim
