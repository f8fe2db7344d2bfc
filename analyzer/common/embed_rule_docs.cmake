# Writes a C++ source that maps each rule id to its doc page's Markdown, so
# that `modeaudit explain` works wherever the binary is. Run by the build
# (see analyzer/CMakeLists.txt) with -DOUTPUT=<file> -DDOCS=<list of .md>.
set(body "")
foreach(doc IN LISTS DOCS)
  get_filename_component(id ${doc} NAME_WE)
  file(READ ${doc} text)
  string(APPEND body "        {\"${id}\", R\"MODEAUDITDOC(${text})MODEAUDITDOC\"},\n")
endforeach()
set(out "// Generated from rules/*/*.md by embed_rule_docs.cmake; do not edit.
#include <string_view>
#include <utility>

namespace modeaudit {
std::string_view embedded_rule_doc(std::string_view id) {
    static constexpr std::pair<std::string_view, std::string_view> kDocs[] = {
${body}        {\"\", \"\"}};
    for (const auto& [rule, doc] : kDocs)
        if (!rule.empty() && rule == id) return doc;
    return {};
}
}  // namespace modeaudit
")
file(WRITE ${OUTPUT}.tmp "${out}")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
