// Tests of the libcurl transport's body sink (HttpRequest::body_sink) over real HTTPS, against the
// minimal fake Controller (fake_controller.h): a 2xx body streams to the sink in chunks and in
// order and is never collected, an empty 2xx body still begins the sink, the body of any other
// status is collected without the sink, a sink error aborts the exchange with the sink's status,
// and the streamed size is capped at limits::kMaxStreamedResponseBytes.
#include "plugin/controller/curl_transport.h"

#include <atomic>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/common/limits.h"
#include "tests/controller/fake_controller.h"
#include "tests/controller/recording_sink.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::controller {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

// The body GET /big?bytes=`bytes` serves.
std::string BigBody(size_t bytes) {
  std::string out(bytes, '\0');
  for (size_t i = 0; i < bytes; ++i) out[i] = BigBodyByte(i);
  return out;
}

class CurlTransportSinkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto fake = FakeController::Start();
    ASSERT_THAT(fake, IsOk());
    fake_ = *std::move(fake);
    auto transport = CurlTransport::Create(TlsOptions{fake_->ca_file(), "", false}, &cancelled_);
    ASSERT_THAT(transport, IsOk());
    transport_ = *std::move(transport);
  }

  // GET /big of `bytes` bytes with HTTP `status`, streamed to `sink`.
  TransportResult GetBig(size_t bytes, int status, BodySink* sink) {
    HttpRequest request;
    request.method = "GET";
    request.url = absl::StrCat(fake_->url(), "/big?bytes=", bytes, "&status=", status);
    request.body_sink = sink;
    return transport_->Perform(request);
  }

  std::atomic<bool> cancelled_{false};
  std::unique_ptr<FakeController> fake_;
  std::unique_ptr<CurlTransport> transport_;
};

TEST_F(CurlTransportSinkTest, StreamsALarge2xxBodyInChunksAndCollectsNothing) {
  constexpr size_t kBytes = 8 << 20;
  RecordingSink sink;
  TransportResult r = GetBig(kBytes, 200, &sink);
  ASSERT_THAT(r.status, IsOk());
  EXPECT_EQ(r.response.status, 200);
  EXPECT_THAT(r.response.body, IsEmpty());
  EXPECT_EQ(sink.begins(), 1);
  EXPECT_GT(sink.writes(), 1);
  EXPECT_FALSE(sink.wrote_before_begin());
  ASSERT_EQ(sink.data().size(), kBytes);
  EXPECT_TRUE(sink.data() == BigBody(kBytes));  // every chunk, in order
}

TEST_F(CurlTransportSinkTest, AnEmpty2xxBodyStillBeginsTheSink) {
  RecordingSink sink;
  TransportResult r = GetBig(0, 200, &sink);
  ASSERT_THAT(r.status, IsOk());
  EXPECT_EQ(r.response.status, 200);
  EXPECT_EQ(sink.begins(), 1);
  EXPECT_EQ(sink.writes(), 0);
}

TEST_F(CurlTransportSinkTest, TheBodyOfAnotherStatusIsCollectedWithoutTheSink) {
  for (int status : {404, 503}) {
    SCOPED_TRACE(status);
    RecordingSink sink;
    TransportResult r = GetBig(100000, status, &sink);
    ASSERT_THAT(r.status, IsOk());
    EXPECT_EQ(r.response.status, status);
    EXPECT_EQ(r.response.body, BigBody(100000));
    EXPECT_EQ(sink.begins(), 0);
    EXPECT_EQ(sink.writes(), 0);
  }
}

TEST_F(CurlTransportSinkTest, ASinkErrorAbortsWithTheSinksStatus) {
  RecordingSink refuses_a_chunk;
  refuses_a_chunk.FailWriteBeyond(1 << 20, absl::FailedPreconditionError("sink: no more room"));
  TransportResult r = GetBig(8 << 20, 200, &refuses_a_chunk);
  EXPECT_EQ(r.status, absl::FailedPreconditionError("sink: no more room"));
  EXPECT_FALSE(r.retryable);
  EXPECT_EQ(refuses_a_chunk.begins(), 1);
  EXPECT_LE(refuses_a_chunk.data().size(), size_t{1} << 20);

  RecordingSink refuses_to_begin;
  refuses_to_begin.FailBegin(absl::InternalError("sink: cannot start"));
  r = GetBig(1000, 200, &refuses_to_begin);
  EXPECT_EQ(r.status, absl::InternalError("sink: cannot start"));
  EXPECT_FALSE(r.retryable);
  EXPECT_EQ(refuses_to_begin.writes(), 0);

  RecordingSink refuses_an_empty_body;
  refuses_an_empty_body.FailBegin(absl::InternalError("sink: cannot start"));
  r = GetBig(0, 204, &refuses_an_empty_body);
  EXPECT_EQ(r.status, absl::InternalError("sink: cannot start"));
  EXPECT_FALSE(r.retryable);

  // The transport is still usable: the failed handle was not pooled broken.
  RecordingSink after;
  ASSERT_THAT(GetBig(1000, 200, &after).status, IsOk());
  EXPECT_EQ(after.data(), BigBody(1000));
}

// A streamed body is not held, so the 64 MiB cap of a collected one does not apply to it; the
// streamed cap does, at its value.
TEST_F(CurlTransportSinkTest, StreamedSizeAtTheLimit) {
  RecordingSink beyond_collected_cap;
  beyond_collected_cap.DropData();
  ASSERT_THAT(GetBig(limits::kMaxControllerResponseBytes + 1, 200, &beyond_collected_cap).status,
              IsOk());
  EXPECT_EQ(beyond_collected_cap.bytes(), limits::kMaxControllerResponseBytes + 1);

  RecordingSink at;
  at.DropData();
  ASSERT_THAT(GetBig(limits::kMaxStreamedResponseBytes, 200, &at).status, IsOk());
  EXPECT_EQ(at.bytes(), limits::kMaxStreamedResponseBytes);

  RecordingSink over;
  over.DropData();
  TransportResult r = GetBig(limits::kMaxStreamedResponseBytes + 1, 200, &over);
  ASSERT_THAT(r.status, Not(IsOk()));
  EXPECT_THAT(r.status, StatusIs(absl::StatusCode::kResourceExhausted));
  EXPECT_FALSE(r.retryable);
  EXPECT_THAT(std::string(r.status.message()),
              HasSubstr("HTTP 200: the response is larger than 1024 MiB, the most the provider "
                        "streams"));
}

}  // namespace
}  // namespace nsxalb::controller
