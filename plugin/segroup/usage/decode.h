// The decode of the analytics collection answer into each SE's samples, as a stream: the answer
// never has to be held whole, so the memory follows the largest series, not the body.
//
// The answer's shape (UsageCollectionRequest in query.h asks for it):
//   {"series": {<request id>: {<entity key>: [{"header": {"name", "entity_uuid", ...},
//                                              "data": [{"timestamp", "value", "is_null"?}]}]}}}
// Series under a "vs-on:<se>" request are that SE's whatever their entity key; under "se-stats",
// the SE is header.entity_uuid, else the entity key. Anything malformed is dropped with a note
// naming its JSON path (rule usage-bad-points); a series of an SE the decoder was not given is
// skipped.
//
// Events, not text, are the decoder's input: it is an nlohmann::json_sax handler. Three sources
// feed it the same events:
//   - Feed/Finish push the body chunk by chunk as it arrives (the Controller client's BodySink).
//     nlohmann's own parser pulls its input, so the chunks go through yajl (Debian's libyajl-dev,
//     a push parser: each chunk is tokenized as it comes, with no thread and no copy of the body);
//   - nlohmann::json::sax_parse(text, &decoder) for a body already in memory;
//   - DecodeDocument for a parsed document (the tests' and AnalyzeUsage's input).
// Only one series object (its header and its points) is built as a document at a time.
//
// Internal to plugin/segroup/usage: the one-group and the estate readers and the analysis use it.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_DECODE_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_DECODE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"
#include "plugin/segroup/usage/query.h"

namespace nsxalb::segroup::usage_internal {

// The series a usage report reads, by metric id.
enum Series {
  kCpu = 0,  // se_stats.avg_cpu_usage, percent
  kRps,
  kTps,
  kCps,
  kOpenConns,
  kVsBandwidth,  // bits/s
  kMem,          // se_stats.avg_mem_usage, percent (the roll's current load asks for it)
  // se_if.avg_bandwidth, bits/s per interface (the roll's current load asks for it): several
  // series of one SE (one per interface, UNCONFIRMED) add up, like the virtual-service series.
  kSeBandwidth,
  kSeriesCount,
};

// One timestamp of one SE: a value per series it has a point of.
struct Sample {
  std::array<double, kSeriesCount> value{};
  uint16_t known = 0;  // bit per Series

  // Whether series `s` has a point here.
  bool Has(int s) const { return (known >> s) & 1; }
  // Adds a point of series `s` (the virtual-service series of an SE add up).
  void Add(int s, double v) {
    value[s] = Has(s) ? value[s] + v : v;
    known |= static_cast<uint16_t>(1u << s);
  }
};

// What the decoder keeps of one SE: its samples by Unix second.
using SeSamples = std::map<int64_t, Sample>;

// Why a point was dropped, for the finding.
enum Drop { kNotNumber = 0, kNegative, kNonFinite, kAbsurd, kBadTimestamp, kOutside, kDuplicate };
inline constexpr int kDropCount = 7;
inline constexpr const char* kDropText[kDropCount] = {
    "not a number",          "negative",           "NaN or infinite", "absurd",
    "no readable timestamp", "outside the window", "duplicated"};

// Counts of what the decoder dropped or cut, for one group.
struct DecodeNotes {
  std::array<int, kDropCount> dropped{};
  std::string first_dropped;           // "series.se-stats.se-1[0].data[3].value (-5)"
  std::vector<std::string> malformed;  // structural problems, by path (a few)
  int malformed_count = 0;
  int capped_series = 0;
  int64_t capped_points = 0;  // points cut by the cap
  int64_t points_before_cap = 0;

  // Counts a dropped point at `path` (the first one is quoted).
  void DropAt(Drop why, const std::string& path);
  // Counts a structural problem (the first few are quoted).
  void Malformed(std::string what);
  // Adds `other`'s counts (for the problems no one group owns).
  void Merge(const DecodeNotes& other);
  // Every dropped point.
  int DroppedTotal() const;
};

// The streaming decoder of one collection answer, for the SEs of one or more groups.
class CollectionDecoder final : public nlohmann::json_sax<nlohmann::json> {
 public:
  // `ses` are the SEs the answer speaks of (uuids distinct), `group_of_se` the group index of
  // each (< group_count), and (window_start, window_stop] the window in Unix seconds.
  CollectionDecoder(std::vector<ObservedSe> ses, std::vector<size_t> group_of_se,
                    size_t group_count, int64_t window_start, int64_t window_stop);
  // One group: every SE in group 0.
  CollectionDecoder(const std::vector<ObservedSe>& ses, int64_t window_start, int64_t window_stop);
  ~CollectionDecoder() override;
  CollectionDecoder(const CollectionDecoder&) = delete;
  CollectionDecoder& operator=(const CollectionDecoder&) = delete;

  // Forgets everything decoded: the answer starts over (a retried request).
  void Reset();

  // Decodes the next chunk of the answer's text. Internal (naming the byte) when the text is not
  // JSON or nests deeper than limits::kMaxNestingDepth; the decoder then takes no more input.
  absl::Status Feed(std::string_view chunk);
  // The end of the text: Internal when it ends inside a value (or held none).
  absl::Status Finish();

  // Decodes a parsed answer (null: nothing was read).
  void DecodeDocument(const nlohmann::json& answer);

  // The samples of the SE at `se` (an index of the constructor's `ses`).
  const SeSamples& SamplesOf(size_t se) const { return samples_[se]; }
  // What was dropped or malformed in group `group`'s series, with what no group owns.
  DecodeNotes NotesOfGroup(size_t group) const;
  // The SEs, as given.
  const std::vector<ObservedSe>& ses() const { return ses_; }

  // nlohmann::json_sax events.
  bool null() override;
  bool boolean(bool val) override;
  bool number_integer(number_integer_t val) override;
  bool number_unsigned(number_unsigned_t val) override;
  bool number_float(number_float_t val, const string_t& s) override;
  bool string(string_t& val) override;
  bool binary(binary_t& val) override;
  bool start_object(std::size_t elements) override;
  bool key(string_t& val) override;
  bool end_object() override;
  bool start_array(std::size_t elements) override;
  bool end_array() override;
  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& ex) override;
  // A string event from text the decoder does not own (the push parser's): copied only when kept.
  bool StringText(std::string_view text);

 private:
  // What a JSON value is to the decoder, by where it stands.
  enum class Role { kRoot, kSeriesMap, kRequest, kEntityList, kElement, kSkip };
  struct Yajl;  // the push parser (decode.cc)

  // Where a value inside a series object stands: in its document (header and the rest), in its
  // "data" list, in one point of it, in a point's "value" (built as a document, to quote it), or
  // in something the decoder does not read.
  enum class Frame { kDom, kData, kPoint, kPointValue, kSkip };
  // One item of a series' "data" list as the decoder keeps it: the list is never built as a
  // document (a point as a document costs more than all the rest of its decode).
  struct RawPoint {
    std::string not_object;  // the item's type name when it is not an object; "" for an object
    bool has_value = false;
    nlohmann::json value;         // its last "value"
    bool is_null = false;         // its last "is_null" is true (a gap)
    std::optional<int64_t> t;     // its last "timestamp", when a string that parses
    std::string timestamp_quote;  // that timestamp quoted, kept only when outside the window
  };

  Role RoleOfNextValue();
  bool Scalar(nlohmann::json value);
  bool Open(nlohmann::json container);
  bool Close();
  void ElementScalar(nlohmann::json value);
  void ElementOpen(nlohmann::json container);
  void ElementClose();
  // Adds `value` under the document container on top of element_open_.
  nlohmann::json* AddToDocument(nlohmann::json value);
  // Sets the point's timestamp from a JSON value, or from a string's text.
  void SetTimestamp(RawPoint& p, const nlohmann::json& ts) const;
  void SetTimestamp(RawPoint& p, std::string_view text) const;
  // Whether the next string is a point's timestamp.
  bool IsPointTimestamp() const;
  void ElementDone(const nlohmann::json& element);
  void DecodeSeries(const nlohmann::json& s, const std::string& path, const std::string& entity_key,
                    std::optional<size_t> vs_se);
  DecodeNotes& NotesFor(std::optional<size_t> se);

  struct Point {
    int64_t t;
    double v;
    size_t index;
  };

  std::vector<ObservedSe> ses_;
  std::vector<size_t> group_of_se_;
  int64_t start_;
  int64_t stop_;
  std::unordered_map<std::string, size_t> index_;
  std::vector<SeSamples> samples_;
  std::vector<DecodeNotes> notes_;  // per group
  DecodeNotes shared_notes_;        // problems no one group owns
  std::vector<Point> points_;       // reused per series

  // The position in the answer.
  std::vector<Role> open_;    // the containers around the next value
  std::string key_;           // the last key read
  bool seen_series_ = false;  // the root held "series"
  std::string request_path_;  // "series.<request id>"
  std::optional<size_t> request_se_;
  std::string entity_path_;  // "series.<request id>.<entity key>"
  std::string entity_key_;
  size_t element_index_ = 0;
  // The series object being read: its document without the points, the document containers open
  // in it, the frames, its points, and the last keys read in it and in a point.
  nlohmann::json element_;
  std::vector<nlohmann::json*> element_open_;
  std::vector<Frame> frames_;
  std::vector<RawPoint> raw_points_;
  std::string element_key_;
  std::string point_key_;
  bool in_element_ = false;

  std::unique_ptr<Yajl> yajl_;
  absl::Status error_;
};

}  // namespace nsxalb::segroup::usage_internal

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_DECODE_H_
