// A BodySink (plugin/controller/transport.h) for the Controller client's tests: it keeps what
// the current attempt streamed (Begin() starts it over), counts its Begin() and Write() calls,
// notes a Write() before any Begin(), and refuses on request, so that a test sees exactly what
// a transport or the retry loop gave a sink. One exchange at a time.
#ifndef NSXALB_TESTS_CONTROLLER_RECORDING_SINK_H_
#define NSXALB_TESTS_CONTROLLER_RECORDING_SINK_H_

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "plugin/controller/transport.h"

namespace nsxalb::controller {

// Records a streamed body.
class RecordingSink : public BodySink {
 public:
  // Starts the body over; answers the error set by FailBegin, if any.
  absl::Status Begin() override {
    ++begins_;
    data_.clear();
    bytes_ = 0;
    return begin_error_;
  }

  // Appends `chunk`; answers the error set by FailWriteBeyond once the body would pass its bound.
  absl::Status Write(std::string_view chunk) override {
    ++writes_;
    if (begins_ == 0) wrote_before_begin_ = true;
    if (bytes_ + chunk.size() > write_bound_) return write_error_;
    bytes_ += chunk.size();
    if (keep_data_) data_.append(chunk);
    return absl::OkStatus();
  }

  // Only counts the bytes from now on, for bodies too large to keep.
  void DropData() { keep_data_ = false; }

  // Begin() answers `error` from now on.
  void FailBegin(absl::Status error) { begin_error_ = std::move(error); }

  // Write() answers `error` for a chunk that would take the body past `bytes`.
  void FailWriteBeyond(size_t bytes, absl::Status error) {
    write_bound_ = bytes;
    write_error_ = std::move(error);
  }

  // The body since the last Begin() ("" after DropData).
  const std::string& data() const { return data_; }
  // The body's size since the last Begin().
  size_t bytes() const { return bytes_; }
  // Begin() calls so far.
  int begins() const { return begins_; }
  // Write() calls so far.
  int writes() const { return writes_; }
  // Whether Write() was ever called before Begin().
  bool wrote_before_begin() const { return wrote_before_begin_; }

 private:
  std::string data_;
  size_t bytes_ = 0;
  bool keep_data_ = true;
  int begins_ = 0;
  int writes_ = 0;
  bool wrote_before_begin_ = false;
  absl::Status begin_error_;
  size_t write_bound_ = std::numeric_limits<size_t>::max();
  absl::Status write_error_;
};

}  // namespace nsxalb::controller

#endif  // NSXALB_TESTS_CONTROLLER_RECORDING_SINK_H_
