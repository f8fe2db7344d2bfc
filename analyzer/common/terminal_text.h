// Model text on a terminal.
//
// Names, strings and file paths come from the model's author; printed raw,
// an escape sequence among them would drive the reader's terminal (retitle
// it, move the cursor, hide lines). Everything the text formats print passes
// through terminal_safe.
#pragma once

#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace modeaudit {

// `text` with every control character except newline and tab (C0, DEL and
// the C1 range U+0080..U+009F) and every byte that is not part of valid
// UTF-8 written as \xNN, and every bidirectional format character as
// \uXXXX (common/text_sanitize.h). Valid UTF-8 text without controls is
// returned unchanged.
std::string terminal_safe(std::string_view text);

// A stream that passes each complete line (and what is left at the end)
// through terminal_safe to `target`: for messages written by a stage that
// takes an std::ostream (the report's errors, naming paths and models).
class TerminalSafeStream : public std::ostream {
public:
    explicit TerminalSafeStream(std::ostream& target);
    ~TerminalSafeStream() override;

private:
    class LineBuffer : public std::streambuf {
    public:
        explicit LineBuffer(std::ostream& target) : target_(target) {}
        void flush_line();

    protected:
        int_type overflow(int_type c) override;
        int sync() override;

    private:
        std::ostream& target_;
        std::string line_;
    };
    LineBuffer buffer_;
};

}  // namespace modeaudit
