// Implementation of decode.h.
#include "plugin/segroup/usage/decode.h"

#include <yajl/yajl_parse.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <system_error>
#include <utility>

#include "absl/strings/charconv.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "plugin/common/limits.h"
#include "plugin/segroup/usage/values.h"

namespace nsxalb::segroup::usage_internal {
namespace {

using Json = nlohmann::json;

// A rate, count or bit rate above this is not a measurement (1 Pbps; 10^15 requests a second).
constexpr double kAbsurdValue = 1e15;

std::optional<Series> SeriesOf(std::string_view metric) {
  static const auto* const kIds = new std::unordered_map<std::string_view, Series>{
      {"se_stats.avg_cpu_usage", kCpu},           {"l7_client.avg_complete_responses", kRps},
      {"l7_client.avg_ssl_handshakes_new", kTps}, {"l4_client.avg_new_established_conns", kCps},
      {"l4_client.max_open_conns", kOpenConns},   {"l4_client.avg_bandwidth", kVsBandwidth},
      {"se_stats.avg_mem_usage", kMem},           {"se_if.avg_bandwidth", kSeBandwidth},
  };
  auto it = kIds->find(metric);
  if (it == kIds->end()) return std::nullopt;
  return it->second;
}

// True for the series of the SE itself (one value per timestamp); the virtual-service series of
// an SE add up (several virtual services, if the Controller did not aggregate them), and so do
// its interface series (se_if.avg_bandwidth: one per interface, if the Controller splits them).
bool IsSeStat(Series s) { return s == kCpu || s == kMem; }
bool IsPercent(Series s) { return s == kCpu || s == kMem; }

// Two digits at s[i], or -1.
int Digits(std::string_view s, size_t i, size_t n) {
  if (i + n > s.size()) return -1;
  int v = 0;
  for (size_t k = 0; k < n; ++k) {
    const char c = s[i + k];
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

// The days of month `m` (1-12) of year `y` in the proleptic Gregorian calendar.
int DaysInMonth(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

// Days from 1970-01-01 to y-m-d (proleptic Gregorian; the civil-from-days algorithm inverted, by
// 400-year eras): the hot path of a timestamp, without a time-zone library.
int64_t DaysFromCivil(int y, int m, int d) {
  const int64_t year = static_cast<int64_t>(y) - (m <= 2 ? 1 : 0);
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const int64_t year_of_era = year - era * 400;
  const int64_t day_of_year = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

// Parses an analytics timestamp: ISO 8601 "2026-11-28T14:05:00", with optional fraction and "Z"
// or "+hh:mm" / "-hh:mm" offset (none: UTC). The fixed layout is parsed by hand (a 30-day window
// of a large group has hundreds of thousands of points); anything else goes to absl::ParseTime.
std::optional<int64_t> ParseTimestamp(std::string_view s) {
  const int y = Digits(s, 0, 4), mo = Digits(s, 5, 2), d = Digits(s, 8, 2), h = Digits(s, 11, 2),
            mi = Digits(s, 14, 2), se = Digits(s, 17, 2);
  if (y >= 0 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h >= 0 && h <= 23 && mi >= 0 &&
      mi <= 59 && se >= 0 && se <= 60 && s.size() >= 19 && s[4] == '-' && s[7] == '-' &&
      (s[10] == 'T' || s[10] == ' ') && s[13] == ':' && s[16] == ':') {
    size_t i = 19;
    if (i < s.size() && s[i] == '.') {
      ++i;
      const size_t start = i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
      if (i == start) return std::nullopt;
    }
    int64_t offset = 0;
    if (i == s.size()) {
      // no zone: UTC
    } else if (s[i] == 'Z' && i + 1 == s.size()) {
      ++i;
    } else if ((s[i] == '+' || s[i] == '-') && i + 6 == s.size() && s[i + 3] == ':') {
      const int oh = Digits(s, i + 1, 2), om = Digits(s, i + 4, 2);
      if (oh < 0 || om < 0 || oh > 23 || om > 59) return std::nullopt;
      offset = (s[i] == '+' ? 1 : -1) * (int64_t{oh} * 3600 + int64_t{om} * 60);
    } else {
      return std::nullopt;
    }
    // A day the month does not have (Feb 30) is not a timestamp.
    if (d > DaysInMonth(y, mo)) return std::nullopt;
    return DaysFromCivil(y, mo, d) * 86400 + int64_t{h} * 3600 + int64_t{mi} * 60 + se - offset;
  }
  absl::Time t;
  std::string err;
  if (absl::ParseTime(absl::RFC3339_full, std::string(s), &t, &err)) {
    return absl::ToUnixSeconds(t);
  }
  return std::nullopt;
}

// The type of a JSON value as findings name it ("object", "array", "string", "number", ...).
std::string TypeName(const Json& j) { return j.type_name(); }

// Replays a parsed document as SAX events; false when the handler stopped.
bool Replay(const Json& j, nlohmann::json_sax<Json>& sax) {
  switch (j.type()) {
    case Json::value_t::object: {
      if (!sax.start_object(j.size())) return false;
      for (auto it = j.begin(); it != j.end(); ++it) {
        std::string key = it.key();
        if (!sax.key(key) || !Replay(*it, sax)) return false;
      }
      return sax.end_object();
    }
    case Json::value_t::array: {
      if (!sax.start_array(j.size())) return false;
      for (const Json& e : j) {
        if (!Replay(e, sax)) return false;
      }
      return sax.end_array();
    }
    case Json::value_t::string: {
      std::string s = j.get<std::string>();
      return sax.string(s);
    }
    case Json::value_t::boolean:
      return sax.boolean(j.get<bool>());
    case Json::value_t::number_integer:
      return sax.number_integer(j.get<int64_t>());
    case Json::value_t::number_unsigned:
      return sax.number_unsigned(j.get<uint64_t>());
    case Json::value_t::number_float:
      return sax.number_float(j.get<double>(), "");
    case Json::value_t::binary:
    case Json::value_t::discarded:
    case Json::value_t::null:
      return sax.null();
  }
  return sax.null();
}

}  // namespace

void DecodeNotes::DropAt(Drop why, const std::string& path) {
  ++dropped[why];
  if (first_dropped.empty()) first_dropped = path;
}

void DecodeNotes::Malformed(std::string what) {
  if (malformed.size() < 3) malformed.push_back(std::move(what));
  ++malformed_count;
}

void DecodeNotes::Merge(const DecodeNotes& other) {
  for (int d = 0; d < kDropCount; ++d) dropped[d] += other.dropped[d];
  if (first_dropped.empty()) first_dropped = other.first_dropped;
  for (const std::string& m : other.malformed) {
    if (malformed.size() < 3) malformed.push_back(m);
  }
  malformed_count += other.malformed_count;
  capped_series += other.capped_series;
  capped_points += other.capped_points;
  points_before_cap += other.points_before_cap;
}

int DecodeNotes::DroppedTotal() const {
  int n = 0;
  for (int d : dropped) n += d;
  return n;
}

// The push parser: yajl's callbacks turned into the decoder's SAX events.
struct CollectionDecoder::Yajl {
  explicit Yajl(CollectionDecoder* decoder) {
    static const yajl_callbacks kCallbacks = {
        /*yajl_null=*/[](void* ctx) -> int { return Of(ctx)->null() ? 1 : 0; },
        /*yajl_boolean=*/
        [](void* ctx, int v) -> int { return Of(ctx)->boolean(v != 0) ? 1 : 0; },
        /*yajl_integer=*/nullptr,
        /*yajl_double=*/nullptr,
        /*yajl_number=*/
        [](void* ctx, const char* text, size_t n) -> int { return Number(Of(ctx), text, n); },
        /*yajl_string=*/
        [](void* ctx, const unsigned char* text, size_t n) -> int {
          return Of(ctx)->StringText(std::string_view(reinterpret_cast<const char*>(text), n)) ? 1
                                                                                               : 0;
        },
        /*yajl_start_map=*/
        [](void* ctx) -> int {
          return Of(ctx)->start_object(static_cast<std::size_t>(-1)) ? 1 : 0;
        },
        /*yajl_map_key=*/
        [](void* ctx, const unsigned char* text, size_t n) -> int {
          std::string s(reinterpret_cast<const char*>(text), n);
          return Of(ctx)->key(s) ? 1 : 0;
        },
        /*yajl_end_map=*/[](void* ctx) -> int { return Of(ctx)->end_object() ? 1 : 0; },
        /*yajl_start_array=*/
        [](void* ctx) -> int { return Of(ctx)->start_array(static_cast<std::size_t>(-1)) ? 1 : 0; },
        /*yajl_end_array=*/[](void* ctx) -> int { return Of(ctx)->end_array() ? 1 : 0; },
    };
    handle = yajl_alloc(&kCallbacks, nullptr, decoder);
  }
  ~Yajl() {
    if (handle != nullptr) yajl_free(handle);
  }
  Yajl(const Yajl&) = delete;
  Yajl& operator=(const Yajl&) = delete;

  static CollectionDecoder* Of(void* ctx) { return static_cast<CollectionDecoder*>(ctx); }

  // A number as nlohmann reads one: an integer within int64 or uint64, else a double.
  static int Number(CollectionDecoder* d, const char* text, size_t n) {
    const std::string s(text, n);
    if (s.find_first_of(".eE") == std::string::npos) {
      // As nlohmann: a non-negative integer is unsigned, a negative one signed.
      uint64_t u = 0;
      if (s[0] != '-' && absl::SimpleAtoi(s, &u)) return d->number_unsigned(u) ? 1 : 0;
      int64_t i = 0;
      if (s[0] == '-' && absl::SimpleAtoi(s, &i)) return d->number_integer(i) ? 1 : 0;
    }
    double v = 0;
    const absl::from_chars_result r = absl::from_chars(s.data(), s.data() + s.size(), v);
    // Out of range: strtod's infinity (or zero), as nlohmann would read the digits.
    if (r.ec == std::errc::result_out_of_range) v = std::strtod(s.c_str(), nullptr);
    return d->number_float(v, s) ? 1 : 0;
  }

  // The error text of the last parse, and where it stopped.
  std::string Error() const {
    unsigned char* text = yajl_get_error(handle, 0, nullptr, 0);
    std::string out = text != nullptr ? reinterpret_cast<const char*>(text) : "not JSON";
    if (text != nullptr) yajl_free_error(handle, text);
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    return out;
  }

  yajl_handle handle = nullptr;
  int64_t consumed = 0;  // bytes fed before the current chunk
};

CollectionDecoder::CollectionDecoder(std::vector<ObservedSe> ses, std::vector<size_t> group_of_se,
                                     size_t group_count, int64_t window_start, int64_t window_stop)
    : ses_(std::move(ses)),
      group_of_se_(std::move(group_of_se)),
      start_(window_start),
      stop_(window_stop),
      samples_(ses_.size()),
      notes_(group_count) {
  for (size_t i = 0; i < ses_.size(); ++i) index_.emplace(ses_[i].uuid, i);
}

CollectionDecoder::CollectionDecoder(const std::vector<ObservedSe>& ses, int64_t window_start,
                                     int64_t window_stop)
    : CollectionDecoder(ses, std::vector<size_t>(ses.size(), 0), 1, window_start, window_stop) {}

CollectionDecoder::~CollectionDecoder() = default;

void CollectionDecoder::Reset() {
  for (SeSamples& s : samples_) s.clear();
  for (DecodeNotes& n : notes_) n = DecodeNotes();
  shared_notes_ = DecodeNotes();
  open_.clear();
  key_.clear();
  seen_series_ = false;
  element_ = nullptr;
  element_open_.clear();
  frames_.clear();
  raw_points_.clear();
  in_element_ = false;
  yajl_.reset();
  error_ = absl::OkStatus();
}

absl::Status CollectionDecoder::Feed(std::string_view chunk) {
  if (!error_.ok()) return error_;
  if (yajl_ == nullptr) yajl_ = std::make_unique<Yajl>(this);
  const yajl_status st =
      yajl_parse(yajl_->handle, reinterpret_cast<const unsigned char*>(chunk.data()), chunk.size());
  if (st != yajl_status_ok && error_.ok()) {
    const int64_t at =
        yajl_->consumed + static_cast<int64_t>(yajl_get_bytes_consumed(yajl_->handle));
    error_ = absl::InternalError(
        absl::StrCat("the metrics answer is not JSON at byte ", at, ": ", yajl_->Error()));
  }
  yajl_->consumed += static_cast<int64_t>(chunk.size());
  return error_;
}

absl::Status CollectionDecoder::Finish() {
  if (!error_.ok()) return error_;
  if (yajl_ == nullptr) yajl_ = std::make_unique<Yajl>(this);
  if (yajl_complete_parse(yajl_->handle) != yajl_status_ok && error_.ok()) {
    error_ = absl::InternalError(absl::StrCat("the metrics answer ends inside a value, after ",
                                              yajl_->consumed, " bytes: ", yajl_->Error()));
  }
  return error_;
}

void CollectionDecoder::DecodeDocument(const Json& answer) {
  if (answer.is_null()) return;
  Replay(answer, *this);
}

DecodeNotes CollectionDecoder::NotesOfGroup(size_t group) const {
  DecodeNotes out = notes_[group];
  out.Merge(shared_notes_);
  return out;
}

DecodeNotes& CollectionDecoder::NotesFor(std::optional<size_t> se) {
  return se.has_value() ? notes_[group_of_se_[*se]] : shared_notes_;
}

CollectionDecoder::Role CollectionDecoder::RoleOfNextValue() {
  if (open_.empty()) return Role::kRoot;
  switch (open_.back()) {
    case Role::kRoot:
      if (key_ != "series") return Role::kSkip;
      seen_series_ = true;
      return Role::kSeriesMap;
    case Role::kSeriesMap: {
      request_path_ = absl::StrCat("series.", Clip(key_));
      request_se_.reset();
      if (key_ == kSeStatsRequestId) return Role::kRequest;  // the SE is each entity
      if (key_.rfind(kVsOnSeRequestPrefix, 0) == 0) {
        auto it = index_.find(key_.substr(sizeof(kVsOnSeRequestPrefix) - 1));
        if (it == index_.end()) return Role::kSkip;  // not one of the SEs
        request_se_ = it->second;
        return Role::kRequest;
      }
      return Role::kSkip;  // not a request of ours
    }
    case Role::kRequest:
      entity_key_ = key_;
      entity_path_ = absl::StrCat(request_path_, ".", Clip(key_));
      element_index_ = 0;
      return Role::kEntityList;
    case Role::kEntityList:
      return Role::kElement;
    case Role::kElement:
    case Role::kSkip:
      return Role::kSkip;
  }
  return Role::kSkip;
}

bool CollectionDecoder::Scalar(Json value) {
  if (in_element_) {
    ElementScalar(std::move(value));
    return true;
  }
  switch (RoleOfNextValue()) {
    case Role::kRoot:
      shared_notes_.Malformed(absl::StrCat("the response is ", TypeName(value), ", not an object"));
      break;
    case Role::kSeriesMap:
      shared_notes_.Malformed(absl::StrCat("series is ", TypeName(value), ", not an object"));
      break;
    case Role::kRequest:
      NotesFor(request_se_)
          .Malformed(absl::StrCat(request_path_, " is ", TypeName(value), ", not an object"));
      break;
    case Role::kEntityList:
      NotesFor(request_se_)
          .Malformed(absl::StrCat(entity_path_, " is ", TypeName(value), ", not a list"));
      break;
    case Role::kElement:
      ElementDone(value);
      break;
    case Role::kSkip:
      break;
  }
  return true;
}

bool CollectionDecoder::Open(Json container) {
  if (open_.size() + frames_.size() >= static_cast<size_t>(limits::kMaxNestingDepth)) {
    error_ = absl::InternalError(
        absl::StrCat("the metrics answer nests deeper than ", limits::kMaxNestingDepth, " levels"));
    return false;
  }
  if (in_element_) {
    ElementOpen(std::move(container));
    return true;
  }
  const bool is_object = container.is_object();
  const Role role = RoleOfNextValue();
  Role pushed = Role::kSkip;
  switch (role) {
    case Role::kRoot:
      if (is_object) {
        pushed = Role::kRoot;
      } else {
        shared_notes_.Malformed("the response is array, not an object");
      }
      break;
    case Role::kSeriesMap:
      if (is_object) {
        pushed = Role::kSeriesMap;
      } else {
        shared_notes_.Malformed("series is array, not an object");
      }
      break;
    case Role::kRequest:
      if (is_object) {
        pushed = Role::kRequest;
      } else {
        NotesFor(request_se_).Malformed(absl::StrCat(request_path_, " is array, not an object"));
      }
      break;
    case Role::kEntityList:
      if (!is_object) {
        pushed = Role::kEntityList;
      } else {
        NotesFor(request_se_).Malformed(absl::StrCat(entity_path_, " is object, not a list"));
      }
      break;
    case Role::kElement:
      element_ = std::move(container);
      element_open_.assign(1, &element_);
      frames_.assign(1, Frame::kDom);
      raw_points_.clear();
      in_element_ = true;
      return true;
    case Role::kSkip:
      break;
  }
  open_.push_back(pushed);
  return true;
}

bool CollectionDecoder::Close() {
  if (in_element_) {
    ElementClose();
    return true;
  }
  if (open_.empty()) return true;
  const Role role = open_.back();
  open_.pop_back();
  if (role == Role::kRoot && !seen_series_) shared_notes_.Malformed("the response has no series");
  return true;
}

Json* CollectionDecoder::AddToDocument(Json value) {
  Json* parent = element_open_.back();
  if (parent->is_array()) {
    parent->push_back(std::move(value));
    return &parent->back();
  }
  Json& slot = (*parent)[element_key_];
  slot = std::move(value);
  return &slot;
}

void CollectionDecoder::SetTimestamp(RawPoint& p, const Json& ts) const {
  if (ts.is_string()) {
    SetTimestamp(p, std::string_view(ts.get_ref<const std::string&>()));
    return;
  }
  p.t.reset();
  p.timestamp_quote.clear();
}

void CollectionDecoder::SetTimestamp(RawPoint& p, std::string_view text) const {
  p.t = ParseTimestamp(text);
  p.timestamp_quote.clear();
  if (p.t.has_value() && (*p.t <= start_ || *p.t > stop_)) {
    p.timestamp_quote = Quote(Json(std::string(text)));
  }
}

void CollectionDecoder::ElementScalar(Json value) {
  switch (frames_.back()) {
    case Frame::kDom:
      // A "data" that is not a list replaces the points read so far (the last member counts).
      if (element_open_.size() == 1 && element_key_ == "data") raw_points_.clear();
      AddToDocument(std::move(value));
      break;
    case Frame::kPointValue:
      AddToDocument(std::move(value));
      break;
    case Frame::kData:
      raw_points_.emplace_back().not_object = TypeName(value);
      break;
    case Frame::kPoint: {
      RawPoint& p = raw_points_.back();
      if (point_key_ == "value") {
        p.has_value = true;
        p.value = std::move(value);
      } else if (point_key_ == "timestamp") {
        SetTimestamp(p, value);
      } else if (point_key_ == "is_null") {
        p.is_null = value.is_boolean() && value.get<bool>();
      }
      break;
    }
    case Frame::kSkip:
      break;
  }
}

void CollectionDecoder::ElementOpen(Json container) {
  switch (frames_.back()) {
    case Frame::kDom:
      if (element_open_.size() == 1 && element_.is_object() && element_key_ == "data" &&
          container.is_array()) {
        // The points: kept as RawPoints, the document only says the list is there.
        element_["data"] = Json::array();
        raw_points_.clear();
        frames_.push_back(Frame::kData);
        return;
      }
      if (element_open_.size() == 1 && element_key_ == "data") raw_points_.clear();
      element_open_.push_back(AddToDocument(std::move(container)));
      frames_.push_back(Frame::kDom);
      return;
    case Frame::kPointValue:
      element_open_.push_back(AddToDocument(std::move(container)));
      frames_.push_back(Frame::kPointValue);
      return;
    case Frame::kData: {
      RawPoint& p = raw_points_.emplace_back();
      if (container.is_object()) {
        frames_.push_back(Frame::kPoint);
      } else {
        p.not_object = TypeName(container);
        frames_.push_back(Frame::kSkip);
      }
      return;
    }
    case Frame::kPoint: {
      RawPoint& p = raw_points_.back();
      if (point_key_ == "value") {
        p.has_value = true;
        p.value = std::move(container);
        element_open_.push_back(&p.value);
        frames_.push_back(Frame::kPointValue);
        return;
      }
      if (point_key_ == "timestamp") SetTimestamp(p, container);
      if (point_key_ == "is_null") p.is_null = false;
      frames_.push_back(Frame::kSkip);
      return;
    }
    case Frame::kSkip:
      frames_.push_back(Frame::kSkip);
      return;
  }
}

void CollectionDecoder::ElementClose() {
  const Frame closed = frames_.back();
  frames_.pop_back();
  if (closed == Frame::kDom || closed == Frame::kPointValue) element_open_.pop_back();
  if (frames_.empty()) {
    in_element_ = false;
    ElementDone(element_);
    element_ = nullptr;
  }
}

void CollectionDecoder::ElementDone(const Json& element) {
  DecodeSeries(element, absl::StrCat(entity_path_, "[", element_index_, "]"), entity_key_,
               request_se_);
  ++element_index_;
}

bool CollectionDecoder::null() { return Scalar(Json()); }
bool CollectionDecoder::boolean(bool val) { return Scalar(Json(val)); }
bool CollectionDecoder::number_integer(number_integer_t val) { return Scalar(Json(val)); }
bool CollectionDecoder::number_unsigned(number_unsigned_t val) { return Scalar(Json(val)); }
bool CollectionDecoder::number_float(number_float_t val, const string_t& /*s*/) {
  return Scalar(Json(val));
}
bool CollectionDecoder::string(string_t& val) {
  if (IsPointTimestamp()) {
    SetTimestamp(raw_points_.back(), std::string_view(val));
    return true;
  }
  return Scalar(Json(std::move(val)));
}

bool CollectionDecoder::StringText(std::string_view text) {
  // A point's timestamp is read in place: no string nor document for the most frequent string.
  if (IsPointTimestamp()) {
    SetTimestamp(raw_points_.back(), text);
    return true;
  }
  std::string val(text);
  return string(val);
}

bool CollectionDecoder::IsPointTimestamp() const {
  return in_element_ && frames_.back() == Frame::kPoint && point_key_ == "timestamp";
}
bool CollectionDecoder::binary(binary_t& /*val*/) { return Scalar(Json()); }
bool CollectionDecoder::start_object(std::size_t /*elements*/) { return Open(Json::object()); }
bool CollectionDecoder::key(string_t& val) {
  if (in_element_) {
    if (frames_.back() == Frame::kPoint) {
      point_key_ = std::move(val);
    } else {
      element_key_ = std::move(val);
    }
  } else {
    key_ = std::move(val);
  }
  return true;
}
bool CollectionDecoder::end_object() { return Close(); }
bool CollectionDecoder::start_array(std::size_t /*elements*/) { return Open(Json::array()); }
bool CollectionDecoder::end_array() { return Close(); }
bool CollectionDecoder::parse_error(std::size_t position, const std::string& /*last_token*/,
                                    const nlohmann::detail::exception& ex) {
  if (error_.ok()) {
    error_ = absl::InternalError(
        absl::StrCat("the metrics answer is not JSON at byte ", position, ": ", ex.what()));
  }
  return false;
}

void CollectionDecoder::DecodeSeries(const Json& s, const std::string& path,
                                     const std::string& entity_key, std::optional<size_t> vs_se) {
  if (!s.is_object()) {
    NotesFor(vs_se).Malformed(absl::StrCat(path, " is ", TypeName(s), ", not an object"));
    return;
  }
  auto header = s.find("header");
  if (header == s.end() || !header->is_object()) {
    NotesFor(vs_se).Malformed(absl::StrCat(path, ".header is missing or not an object"));
    return;
  }
  auto name = header->find("name");
  if (name == header->end() || !name->is_string()) {
    NotesFor(vs_se).Malformed(absl::StrCat(path, ".header.name is missing or not a string"));
    return;
  }
  const std::optional<Series> kind = SeriesOf(name->get_ref<const std::string&>());
  if (!kind.has_value()) return;  // a metric the report does not read
  size_t se = 0;
  if (vs_se.has_value()) {
    se = *vs_se;
  } else {
    std::optional<size_t> found;
    auto eu = header->find("entity_uuid");
    if (eu != header->end() && eu->is_string()) {
      auto it = index_.find(eu->get_ref<const std::string&>());
      if (it != index_.end()) found = it->second;
    }
    if (!found.has_value()) {
      auto it = index_.find(entity_key);
      if (it != index_.end()) found = it->second;
    }
    if (!found.has_value()) return;  // not one of the group's SEs
    se = *found;
  }
  DecodeNotes& notes = NotesFor(se);
  auto data = s.find("data");
  if (data == s.end()) return;  // no points
  if (!data->is_array()) {
    notes.Malformed(absl::StrCat(path, ".data is ", TypeName(*data), ", not a list"));
    return;
  }
  points_.clear();
  for (size_t i = 0; i < raw_points_.size(); ++i) {
    const RawPoint& p = raw_points_[i];
    if (!p.not_object.empty()) {
      notes.DropAt(kNotNumber, absl::StrCat(path, ".data[", i, "] (", p.not_object, ")"));
      continue;
    }
    if (p.is_null) continue;                          // a gap
    if (!p.has_value || p.value.is_null()) continue;  // a gap
    if (!p.value.is_number()) {
      notes.DropAt(kNotNumber, absl::StrCat(path, ".data[", i, "].value (", Quote(p.value), ")"));
      continue;
    }
    const double v = p.value.get<double>();
    Drop why;
    if (!std::isfinite(v)) {
      why = kNonFinite;
    } else if (v < 0) {
      why = kNegative;
    } else if (v > kAbsurdValue || (IsPercent(*kind) && v > 100)) {
      why = kAbsurd;
    } else {
      if (!p.t.has_value()) {
        notes.DropAt(kBadTimestamp, absl::StrCat(path, ".data[", i, "].timestamp"));
        continue;
      }
      if (*p.t <= start_ || *p.t > stop_) {
        notes.DropAt(kOutside,
                     absl::StrCat(path, ".data[", i, "].timestamp (", p.timestamp_quote, ")"));
        continue;
      }
      points_.push_back({*p.t, v, i});
      continue;
    }
    notes.DropAt(why, absl::StrCat(path, ".data[", i, "].value (", absl::StrCat(v), ")"));
  }
  // Oldest first; among equal timestamps the first in the response is kept.
  std::stable_sort(points_.begin(), points_.end(),
                   [](const Point& a, const Point& b) { return a.t < b.t; });
  size_t kept = 0;
  for (size_t i = 0; i < points_.size(); ++i) {
    if (kept > 0 && points_[kept - 1].t == points_[i].t) {
      notes.DropAt(kDuplicate, absl::StrCat(path, ".data[", points_[i].index, "].timestamp"));
      continue;
    }
    points_[kept++] = points_[i];
  }
  points_.resize(kept);
  size_t first = 0;
  notes.points_before_cap += static_cast<int64_t>(points_.size());
  if (points_.size() > static_cast<size_t>(limits::kMaxUsagePointsPerSeries)) {
    first = points_.size() - limits::kMaxUsagePointsPerSeries;
    ++notes.capped_series;
    notes.capped_points += static_cast<int64_t>(first);
  }
  SeSamples& out = samples_[se];
  // The points and the SE's samples are both in time order: one walk merges them.
  auto next = out.begin();
  for (size_t i = first; i < points_.size(); ++i) {
    const int64_t t = points_[i].t;
    while (next != out.end() && next->first < t) ++next;
    auto at = next != out.end() && next->first == t ? next : out.emplace_hint(next, t, Sample());
    next = std::next(at);
    Sample& sample = at->second;
    if (IsSeStat(*kind) && sample.Has(*kind)) {
      // The same SE statistic from a second series: one value per timestamp.
      notes.DropAt(kDuplicate, absl::StrCat(path, ".data[", points_[i].index, "].timestamp"));
      continue;
    }
    sample.Add(*kind, points_[i].v);
  }
}

}  // namespace nsxalb::segroup::usage_internal
