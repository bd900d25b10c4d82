// How the sizing model writes numbers in prose (findings, the CLI report).
//
// Capacities are rounded down, so a capacity is never overstated: whole units for rates and
// connections, 0.01 Gbps for throughput. Demands grossed up for utilization ("needs") are rounded
// up by the same steps. Measured cells are whole numbers and print exactly.
#ifndef NSXALB_PLUGIN_SIZING_FORMAT_H_
#define NSXALB_PLUGIN_SIZING_FORMAT_H_

#include <cstdint>
#include <string>

#include "plugin/sizing/profiles.h"

namespace nsxalb::sizing {

// Which way to round a figure for display.
enum class Rounding { kDown, kUp };

// 10350 -> "10,350".
std::string FormatInt(int64_t value);

// A metric value in base units, for display: "10,350" or, for throughput, "7.2 Gbps".
std::string FormatValue(Metric metric, double base_value, Rounding rounding);

// A metric value with its label: "10,350 ECC SSL TPS" or "7.2 Gbps L7 SSL throughput".
std::string FormatAmount(Metric metric, double base_value, Rounding rounding);

// The value rounded as FormatValue rounds it, in display units (Gbps for throughput).
double RoundForDisplay(Metric metric, double base_value, Rounding rounding);

// A value given in display units (Gbps for throughput) in base units (Mbps), kept to 0.001 base
// units so that 5.6 Gbps is 5600 Mbps exactly. Inputs (CLI flags, HCL) go through this.
double BaseFromDisplay(Metric metric, double display_value);

// A value in base units in display units (Gbps for throughput), unrounded.
double DisplayFromBase(Metric metric, double base_value);

// 69.5652 -> "69.6%".
std::string FormatPercent(double percent);

// How the model, the CLI and the SE-group operations write counts and SE shapes in prose. Every
// count agrees in number with its noun, and a shape always names its SE count, so a reader never
// has to guess whether "6 vCPUs" means one SE or a group.

// A count and its noun: FormatCount(1, "finding", "findings") -> "1 finding", (3, ...) -> "3
// findings".
std::string FormatCount(int64_t count, const char* one, const char* many);

// `one` when `count` is 1, else `many`: the verb after a count ("1 SE of 6 vCPUs carries", "2 SEs
// of 6 vCPUs carry").
const char* Agree(int64_t count, const char* one, const char* many);

// 1 -> "1 SE", 3 -> "3 SEs".
std::string FormatSeCount(int64_t se_count);

// 1 -> "1 vCPU", 6 -> "6 vCPUs".
std::string FormatVcpus(int64_t vcpus);

// An SE shape: (1, 6) -> "1 SE of 6 vCPUs", (3, 1) -> "3 SEs of 1 vCPU".
std::string FormatShape(int64_t se_count, int64_t vcpus);

}  // namespace nsxalb::sizing

#endif  // NSXALB_PLUGIN_SIZING_FORMAT_H_
