// Model text on a terminal.
//
// Names, strings and file paths come from the model's author; printed raw,
// an escape sequence among them would drive the reader's terminal (retitle
// it, move the cursor, hide lines). Everything the text formats print passes
// through terminal_safe.
#pragma once

#include <string>
#include <string_view>

namespace modeaudit {

// `text` with every control character except newline and tab (C0, DEL and
// the C1 range U+0080..U+009F) and every byte that is not part of valid
// UTF-8 written as \xNN. Valid UTF-8 text without controls is returned
// unchanged.
std::string terminal_safe(std::string_view text);

}  // namespace modeaudit
