// `terraform-provider-nsxalb docs`: schemas + examples + sizing rules -> registry-layout Markdown.
#include "plugin/cli/docs/docs_command.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "plugin/cty/type.h"
#include "plugin/framework/provider_server.h"
#include "plugin/framework/schema.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/se_group_sizing.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::cli {
namespace {

namespace fs = std::filesystem;

constexpr char kDocsUsage[] = R"(Usage: terraform-provider-nsxalb docs [--out DIR] [--examples DIR]

Writes the provider's documentation in the Terraform Registry's layout, generated from the
embedded schemas and the examples:
  DIR/index.md                   the provider block
  DIR/resources/<name>.md        each resource
  DIR/data-sources/<name>.md     each data source
  DIR/functions/<name>.md        each provider-defined function
DIR defaults to docs: run from the repository root, the pages land where the Terraform Registry
reads them, and their links to docs/sizing.md hold. Only these pages are written; other files
in DIR are left alone. Examples are read from --examples (default: examples):
provider/provider.tf, resources/<type>/resource.tf and import.sh,
data-sources/<type>/data-source.tf, functions/<name>/function.tf.
)";

constexpr char kPrefix[] = "nsxalb_";
// From DIR/index.md and from DIR/resources/x.md to docs/sizing.md, with DIR = docs.
constexpr char kSizingDocFromIndex[] = "sizing.md";
constexpr char kSizingDocFromPage[] = "../sizing.md";

struct Options {
  std::string out = "docs";
  std::string examples = "examples";
  bool help = false;
};

std::optional<std::string> Parse(const std::vector<std::string>& args, Options& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    std::optional<std::string> value;
    const size_t eq = flag.find('=');
    if (eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    }
    if (flag == "--help" || flag == "-h") {
      o.help = true;
      continue;
    }
    if (flag != "--out" && flag != "--examples") return absl::StrCat("unknown argument ", flag);
    if (!value) {
      if (i + 1 >= args.size()) return absl::StrCat(flag, ": needs a directory");
      value = args[++i];
    }
    (flag == "--out" ? o.out : o.examples) = *value;
  }
  if (o.out.empty()) return "--out: needs a directory";
  return std::nullopt;
}

std::optional<std::string> ReadFile(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string TrimTrailingNewlines(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

std::string TypeName(const cty::Type& t) {
  switch (t.kind()) {
    case cty::Type::Kind::kString:
      return "String";
    case cty::Type::Kind::kNumber:
      return "Number";
    case cty::Type::Kind::kBool:
      return "Bool";
    case cty::Type::Kind::kList:
      return absl::StrCat("List of ", TypeName(t.element()));
    case cty::Type::Kind::kSet:
      return absl::StrCat("Set of ", TypeName(t.element()));
    case cty::Type::Kind::kMap:
      return absl::StrCat("Map of ", TypeName(t.element()));
    case cty::Type::Kind::kObject:
      return "Object";
    case cty::Type::Kind::kTuple:
      return "Tuple";
    default:
      return "Dynamic";
  }
}

// The object type inside an attribute's type (an object, or a collection of objects), if any.
const cty::Type* ObjectInside(const cty::Type& t) {
  if (t.kind() == cty::Type::Kind::kObject) return &t;
  if (t.IsCollection()) return ObjectInside(t.element());
  return nullptr;
}

// Rules by the Terraform attribute they decide or check ("vcpus_per_se", "workload.l7_rps").
std::map<std::string, std::vector<const sizing::rules::RuleDoc*>> RulesByAttribute() {
  std::map<std::string, std::vector<const sizing::rules::RuleDoc*>> out;
  for (const sizing::rules::RuleDoc& rule : sizing::rules::AllRules()) {
    for (const char* attribute : rule.attributes) {
      std::string path = provider::PathOfModelAttribute(attribute, true).ToString();
      if (!path.empty() && path[0] == '.') path.erase(0, 1);
      out[path].push_back(&rule);
    }
  }
  return out;
}

// What a page is about.
struct Page {
  std::string kind;   // "Resource", "Data Source" or "Provider"
  std::string title;  // "nsxalb_se_group"
  const framework::Schema* schema = nullptr;
  std::string example;      // HCL
  std::string import_text;  // shell, resources only
  bool sized = false;       // the type has a workload: list the sizing rules
};

class Writer {
 public:
  explicit Writer(const Page& page) : page_(page) {
    if (page.sized) rules_ = RulesByAttribute();
  }

  std::string Render() {
    const framework::Block& block = page_.schema->block;
    std::string heading = page_.kind == "Provider"
                              ? "nsxalb Provider"
                              : absl::StrCat(page_.title, " (", page_.kind, ")");
    std::string page_title = page_.kind == "Provider"
                                 ? "nsxalb Provider"
                                 : absl::StrCat(page_.title, " ", page_.kind, " - nsxalb");
    absl::StrAppend(&out_, "---\n", "page_title: \"", page_title, "\"\n", "subcategory: \"\"\n",
                    "description: |-\n  ", block.description, "\n---\n\n");
    absl::StrAppend(&out_,
                    "<!-- Generated by `terraform-provider-nsxalb docs` from "
                    "provider_schema/ and examples/. Do not edit. -->\n\n");
    absl::StrAppend(&out_, "# ", heading, "\n\n", block.description, "\n");
    if (page_.kind == "Provider") {
      absl::StrAppend(
          &out_,
          "\nIts reason to exist is sizing: declare the load an SE group must carry in a "
          "`workload` block, and `terraform plan` shows the vCPUs, memory, disk, dispatcher "
          "cores and vNIC queues it needs, as known values, with the basis of every figure "
          "(measured, interpolated, extrapolated, cross-profile or rule). A group carries its "
          "workload when, on each active SE, the CPU-bound metrics together (SSL handshakes, "
          "requests, new connections, encrypted throughput) fit one CPU budget within the "
          "target utilization, throughput and open connections fit each alone, and its "
          "`ha_mode` (N+M, active/active, active/standby) and virtual-service slots are "
          "honoured. An SE group set by hand that cannot carry its workload is a warning at the "
          "line of the setting, or, with `sizing_policy = \"enforce\"`, an error in a plan that "
          "creates or changes it (never in a destroy). The figures come from the NSX Advanced "
          "Load Balancer performance and sizing tables for vCenter clouds (Avi 20.1.6) and "
          "NSX-T clouds (Avi 22.1.3); [how sizing works](",
          kSizingDocFromIndex, ").\n");
    }
    absl::StrAppend(&out_, "\n## Example Usage\n\n```terraform\n",
                    TrimTrailingNewlines(page_.example), "\n```\n");
    absl::StrAppend(&out_, "\n## Schema\n");
    RenderBlock(block, "");
    for (const auto& [anchor, text] : nested_) absl::StrAppend(&out_, text);
    if (!page_.import_text.empty()) {
      absl::StrAppend(&out_, "\n## Import\n\nImport is supported using the following syntax:\n\n",
                      "```shell\n", TrimTrailingNewlines(page_.import_text), "\n```\n");
    }
    return out_;
  }

 private:
  std::string AttributeLine(const framework::Attribute& a, const std::string& prefix) {
    std::vector<std::string> tags = {TypeName(a.type)};
    if (a.sensitive) tags.push_back("Sensitive");
    if (a.requires_replace) tags.push_back("Forces replacement");
    if (a.deprecated) tags.push_back("Deprecated");
    std::string line =
        absl::StrCat("- `", a.name, "` (", absl::StrJoin(tags, ", "), ") ", a.description);
    if (const cty::Type* object = ObjectInside(a.type)) {
      const std::string anchor = absl::StrCat("nestedatt--", prefix, a.name);
      absl::StrAppend(&line, " (see [below for nested schema](#", anchor, "))");
      std::string nested = absl::StrCat("\n<a id=\"", anchor, "\"></a>\n### Nested Schema for `",
                                        prefix, a.name, "`\n\nRead-Only:\n\n");
      for (const auto& [name, type] : object->attributes()) {
        absl::StrAppend(&nested, "- `", name, "` (", TypeName(type), ")\n");
      }
      nested_.emplace_back(anchor, nested);
    }
    absl::StrAppend(&line, "\n");
    auto rules = rules_.find(prefix.empty() ? a.name : absl::StrCat(prefix, a.name));
    if (rules == rules_.end()) {
      // Nested attributes are keyed "workload.x"; the prefix here is "workload--".
      rules = rules_.find(absl::StrCat(absl::StrReplaceAll(prefix, {{"--", "."}}), a.name));
    }
    if (rules != rules_.end()) {
      absl::StrAppend(&line, "  Sizing rules that decide or check it ([how sizing works](",
                      kSizingDocFromPage, ")):\n");
      for (const sizing::rules::RuleDoc* r : rules->second) {
        absl::StrAppend(&line, "  - `", r->name, "`: ", r->text, "\n");
      }
    }
    return line;
  }

  void RenderBlock(const framework::Block& block, const std::string& prefix) {
    std::string required, optional, read_only;
    for (const auto& [name, a] : block.attributes) {
      std::string line = AttributeLine(a, prefix);
      (a.required ? required : a.optional ? optional : read_only) += line;
    }
    for (const auto& [name, nested] : block.block_types) {
      const std::string anchor = absl::StrCat("nestedblock--", prefix, name);
      std::string limits;
      if (nested.nesting == framework::NestedBlock::Nesting::kSingle) {
        limits = "at most one";
      } else if (nested.max_items > 0) {
        limits = absl::StrCat("at most ", nested.max_items);
      }
      std::string line = absl::StrCat("- `", name, "` (Block", limits.empty() ? "" : ", " + limits,
                                      ") ", nested.block.description,
                                      " (see [below for nested schema](#", anchor, "))\n");
      (nested.min_items > 0 ? required : optional) += line;
      Writer inner(page_);
      inner.rules_ = rules_;
      inner.RenderBlock(nested.block, absl::StrCat(prefix, name, "--"));
      std::string text = absl::StrCat("\n<a id=\"", anchor, "\"></a>\n### Nested Schema for `",
                                      prefix, name, "`\n", inner.out_);
      nested_.emplace_back(anchor, text);
      for (auto& n : inner.nested_) nested_.push_back(std::move(n));
    }
    const bool top = prefix.empty();
    auto section = [&](const char* title, const std::string& body) {
      if (body.empty()) return;
      absl::StrAppend(&out_, top ? "\n### " : "\n", title, top ? "\n\n" : ":\n\n", body);
    };
    section("Required", required);
    section("Optional", optional);
    section("Read-Only", read_only);
  }

  const Page& page_;
  std::map<std::string, std::vector<const sizing::rules::RuleDoc*>> rules_;
  std::string out_;
  std::vector<std::pair<std::string, std::string>> nested_;
};

// The type as a function signature writes it: "string", "number", "dynamic", "object".
std::string SignatureType(const cty::Type& t) {
  std::string name = TypeName(t);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

// A function's page, in the layout tfplugindocs gives functions: front matter, summary,
// description, example, signature, arguments and the return type's attributes.
std::string RenderFunction(const std::string& name, const framework::FunctionDefinition& f,
                           std::string example) {
  while (!example.empty() && example.back() == '\n') example.pop_back();
  std::string out;
  absl::StrAppend(&out, "---\npage_title: \"", name, " function - nsxalb\"\nsubcategory: \"\"\n",
                  "description: |-\n  ", f.summary, "\n---\n\n",
                  "<!-- Generated by `terraform-provider-nsxalb docs` from the provider's function "
                  "definitions and examples/. Do not edit. -->\n\n",
                  "# function: ", name, "\n\n", f.description, "\n\n",
                  "Provider-defined functions need Terraform 1.8 or later.\n\n",
                  "## Example Usage\n\n```terraform\n", example, "\n```\n\n",
                  "## Signature\n\n```text\n", name, "(");
  std::vector<std::string> params;
  for (const framework::FunctionParameter& p : f.parameters) {
    params.push_back(absl::StrCat(p.name, " ", SignatureType(p.type)));
  }
  absl::StrAppend(&out, absl::StrJoin(params, ", "), ") ", SignatureType(f.return_type),
                  "\n```\n\n## Arguments\n\n");
  int i = 1;
  for (const framework::FunctionParameter& p : f.parameters) {
    absl::StrAppend(&out, i++, ". `", p.name, "` (", TypeName(p.type), ") ", p.description, "\n");
  }
  absl::StrAppend(&out, "\n## Return Type\n\n", TypeName(f.return_type));
  if (f.return_type.kind() == cty::Type::Kind::kObject) {
    absl::StrAppend(&out, " with these attributes:\n\n");
    for (const auto& [attr, type] : f.return_type.attributes()) {
      absl::StrAppend(&out, "- `", attr, "` (", TypeName(type), ")");
      if (const cty::Type* inner = ObjectInside(type)) {
        std::vector<std::string> names;
        for (const auto& [n, t] : inner->attributes()) {
          names.push_back(absl::StrCat("`", n, "` (", TypeName(t), ")"));
        }
        absl::StrAppend(&out, ": ", absl::StrJoin(names, ", "));
      }
      absl::StrAppend(&out, "\n");
    }
  } else {
    absl::StrAppend(&out, "\n");
  }
  return out;
}

bool WriteFile(const fs::path& path, const std::string& text, std::ostream& err) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::trunc | std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    err << "docs: cannot write " << path.string() << "\n";
    return false;
  }
  return true;
}

std::string ShortName(const std::string& type_name) {
  return type_name.rfind(kPrefix, 0) == 0 ? type_name.substr(sizeof(kPrefix) - 1) : type_name;
}

}  // namespace

int RunDocsCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options o;
  if (std::optional<std::string> e = Parse(args, o)) {
    err << "docs: " << *e << "\nRun 'terraform-provider-nsxalb docs --help' for usage.\n";
    return 2;
  }
  if (o.help) {
    out << kDocsUsage;
    return 0;
  }
  framework::ProviderServer server(provider::NewProvider());
  if (server.schema_diagnostics().HasError()) {
    err << "docs: the embedded schemas are invalid:\n" << server.schema_diagnostics().ToString();
    return 1;
  }
  const fs::path examples(o.examples);
  const fs::path dir(o.out);
  auto example = [&](const fs::path& path) -> std::optional<std::string> {
    std::optional<std::string> text = ReadFile(examples / path);
    if (!text) {
      err << "docs: no example " << (examples / path).string()
          << " (every resource and data source needs one)\n";
    }
    return text;
  };

  std::vector<std::pair<fs::path, Page>> pages;
  Page index;
  index.kind = "Provider";
  index.title = "nsxalb";
  index.schema = &server.provider_schema();
  std::optional<std::string> provider_example = example("provider/provider.tf");
  if (!provider_example) return 1;
  index.example = *provider_example;
  pages.emplace_back(dir / "index.md", index);
  for (const auto& [name, schema] : server.resource_schemas()) {
    Page p;
    p.kind = "Resource";
    p.title = name;
    p.schema = &schema;
    p.sized = schema.block.FindBlockType("workload") != nullptr;
    std::optional<std::string> text = example(fs::path("resources") / name / "resource.tf");
    if (!text) return 1;
    p.example = *text;
    p.import_text = ReadFile(examples / "resources" / name / "import.sh").value_or("");
    pages.emplace_back(dir / "resources" / (ShortName(name) + ".md"), p);
  }
  for (const auto& [name, schema] : server.data_source_schemas()) {
    Page p;
    p.kind = "Data Source";
    p.title = name;
    p.schema = &schema;
    p.sized = schema.block.FindBlockType("workload") != nullptr;
    std::optional<std::string> text = example(fs::path("data-sources") / name / "data-source.tf");
    if (!text) return 1;
    p.example = *text;
    pages.emplace_back(dir / "data-sources" / (ShortName(name) + ".md"), p);
  }
  for (const auto& [path, page] : pages) {
    if (!WriteFile(path, Writer(page).Render(), err)) return 1;
  }
  for (const auto& [name, definition] : server.functions()) {
    std::optional<std::string> text = ReadFile(examples / "functions" / name / "function.tf");
    if (!text) {
      err << "docs: no example " << (examples / "functions" / name / "function.tf").string()
          << " (every function needs one)\n";
      return 1;
    }
    if (!WriteFile(dir / "functions" / (name + ".md"), RenderFunction(name, definition, *text),
                   err)) {
      return 1;
    }
  }
  out << "docs: wrote " << pages.size() + server.functions().size() << " pages under "
      << dir.string() << "\n";
  return 0;
}

}  // namespace nsxalb::cli
