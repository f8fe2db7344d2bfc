// Writing output files: through a temporary file and a rename, so that an
// interrupted run never leaves a truncated file that looks complete.
#pragma once

#include <filesystem>
#include <string>

namespace modeaudit {

bool write_file_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace modeaudit
