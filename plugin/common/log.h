// Leveled logging to stderr in the form go-plugin understands.
//
// Terraform reads each stderr line of a provider and maps a leading "[TRACE]", "[DEBUG]", "[INFO]",
// "[WARN]" or "[ERROR]" to that log level. The threshold comes from TF_LOG_PROVIDER, else TF_LOG
// (TRACE, DEBUG, INFO, WARN, ERROR, OFF; "JSON" means TRACE). Nothing here ever writes to stdout,
// which belongs to the go-plugin handshake. Never pass secrets to these functions.
#ifndef NSXALB_PLUGIN_COMMON_LOG_H_
#define NSXALB_PLUGIN_COMMON_LOG_H_

#include <string_view>

namespace nsxalb::log {

// Log levels, most verbose first.
enum class Level { kTrace = 0, kDebug, kInfo, kWarn, kError, kOff };

// Parses a TF_LOG-style level name (case-insensitive); unknown names give kTrace, as Terraform
// treats any non-empty unknown value as TRACE.
Level ParseLevel(std::string_view name);

// The current threshold. Initialised from TF_LOG_PROVIDER / TF_LOG on first use; when neither is
// set the threshold is kWarn so warnings still reach Terraform's log.
Level Threshold();

// Overrides the threshold (tests and the CLI).
void SetThreshold(Level level);

// Writes one line "[LEVEL] message" to stderr when `level` is at or above the threshold.
// Thread-safe; each call is a single write so lines never interleave.
void Write(Level level, std::string_view message);

inline void Trace(std::string_view m) { Write(Level::kTrace, m); }
inline void Debug(std::string_view m) { Write(Level::kDebug, m); }
inline void Info(std::string_view m) { Write(Level::kInfo, m); }
inline void Warn(std::string_view m) { Write(Level::kWarn, m); }
inline void Error(std::string_view m) { Write(Level::kError, m); }

}  // namespace nsxalb::log

#endif  // NSXALB_PLUGIN_COMMON_LOG_H_
