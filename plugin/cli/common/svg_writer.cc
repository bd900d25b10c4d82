// Implementation of svg_writer.h.
#include "plugin/cli/common/svg_writer.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace nsxalb::cli {

std::string XmlEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

std::string SvgNumber(double x) { return absl::StrFormat("%.1f", x); }

void SvgWriter::Line(double x1, double y1, double x2, double y2, const std::string& attrs) {
  absl::StrAppend(&body_, "  <line x1=\"", SvgNumber(x1), "\" y1=\"", SvgNumber(y1), "\" x2=\"",
                  SvgNumber(x2), "\" y2=\"", SvgNumber(y2), "\" ", attrs, "/>\n");
}

void SvgWriter::Text(double x, double y, const std::string& text, const std::string& attrs) {
  absl::StrAppend(&body_, "  <text x=\"", SvgNumber(x), "\" y=\"", SvgNumber(y), "\" ", attrs, ">",
                  XmlEscape(text), "</text>\n");
}

void SvgWriter::Raw(const std::string& element) { absl::StrAppend(&body_, "  ", element, "\n"); }

std::string SvgWriter::Document(const std::string& title, double height) const {
  return absl::StrCat("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", Element(title, height));
}

std::string SvgWriter::Element(const std::string& title, double height) const {
  return absl::StrCat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", SvgNumber(width_), "\" height=\"",
      SvgNumber(height), "\" viewBox=\"0 0 ", SvgNumber(width_), " ", SvgNumber(height),
      "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n",
      "  <title>", XmlEscape(title), "</title>\n", "  <rect width=\"100%\" height=\"100%\" ",
      "fill=\"#ffffff\"/>\n", body_, "</svg>\n");
}

}  // namespace nsxalb::cli
