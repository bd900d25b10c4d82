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

}  // namespace nsxalb::sizing

#endif  // NSXALB_PLUGIN_SIZING_FORMAT_H_
