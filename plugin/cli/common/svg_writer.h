// A writer of small self-contained SVG documents for the CLI's charts (sizing_chart.h,
// cli/estate/estate_chart.h): elements appended in order, text escaped for XML, coordinates to
// 0.1 px, and a document with a title, a white background and a system font stack (no scripts,
// external fonts or stylesheets).
#ifndef NSXALB_PLUGIN_CLI_COMMON_SVG_WRITER_H_
#define NSXALB_PLUGIN_CLI_COMMON_SVG_WRITER_H_

#include <string>
#include <string_view>

namespace nsxalb::cli {

// `text` with &, <, > and " escaped, for XML and HTML text and for attribute values in double
// quotes (the only quotes the CLI's SVG and HTML writers use).
std::string XmlEscape(std::string_view text);

// A coordinate or length to 0.1: 12.25 -> "12.2", 3 -> "3.0".
std::string SvgNumber(double x);

// The body of an SVG document, element by element.
class SvgWriter {
 public:
  // A document `width` px wide.
  explicit SvgWriter(double width) : width_(width) {}

  // A line from (x1, y1) to (x2, y2) with extra attributes `attrs` (stroke and so on).
  void Line(double x1, double y1, double x2, double y2, const std::string& attrs);
  // Text at (x, y), escaped, with extra attributes `attrs`.
  void Text(double x, double y, const std::string& text, const std::string& attrs);
  // An element written as given (its text already escaped).
  void Raw(const std::string& element);

  // The document: XML declaration, then Element(title, height).
  std::string Document(const std::string& title, double height) const;

  // The <svg> element of the width and `height` (and a viewBox, so that a page may scale it),
  // <title> `title`, a white background, then the elements in the order they were added: what
  // Document writes after its XML declaration, and what an HTML page inlines.
  std::string Element(const std::string& title, double height) const;

 private:
  double width_;
  std::string body_;
};

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_COMMON_SVG_WRITER_H_
