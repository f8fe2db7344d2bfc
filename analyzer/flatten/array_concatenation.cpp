#include "flatten/array_concatenation.h"

#include <fmt/format.h>

#include <algorithm>

namespace modeaudit::flat {

Value promote(const Value& v, std::size_t ndims) {
    Value r = v;
    while (r.dims.size() < ndims) r.dims.push_back(1);
    return r;
}

std::optional<Value> concatenate(std::size_t k, const std::vector<Value>& parts, std::string& error) {
    if (parts.empty()) {
        error = "nothing to concatenate";
        return std::nullopt;
    }
    const std::size_t n = parts.front().dims.size();
    if (k < 1 || k > n) {
        error = fmt::format("dimension {} does not exist in an argument of shape {}", k, parts.front().shape());
        return std::nullopt;
    }
    for (std::size_t p = 1; p < parts.size(); ++p) {
        const Value& v = parts[p];
        bool same = v.dims.size() == n;
        for (std::size_t d = 0; same && d < n; ++d)
            if (d + 1 != k && v.dims[d] != parts.front().dims[d]) same = false;
        if (!same) {
            error = fmt::format("argument {} has shape {}, which does not fit shape {} along dimension {}", p + 1,
                                v.shape(), parts.front().shape(), k);
            return std::nullopt;
        }
    }
    // Row-major: `outer` blocks (the dimensions before k), each the parts'
    // slices one after the other.
    std::size_t outer = 1;
    for (std::size_t d = 0; d + 1 < k; ++d) outer *= parts.front().dims[d];
    Value r;
    r.dims = parts.front().dims;
    r.dims[k - 1] = 0;
    std::vector<std::size_t> slice(parts.size());
    for (std::size_t p = 0; p < parts.size(); ++p) {
        r.dims[k - 1] += parts[p].dims[k - 1];
        slice[p] = outer == 0 ? 0 : parts[p].elems.size() / outer;
    }
    for (std::size_t o = 0; o < outer; ++o)
        for (std::size_t p = 0; p < parts.size(); ++p) {
            auto from = parts[p].elems.begin() + static_cast<std::ptrdiff_t>(o * slice[p]);
            r.elems.insert(r.elems.end(), from, from + static_cast<std::ptrdiff_t>(slice[p]));
        }
    return r;
}

std::optional<Value> matrix(const std::vector<std::vector<Value>>& rows, std::string& error) {
    std::vector<Value> joined;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        std::size_t n = 2;
        for (const Value& v : rows[i]) n = std::max(n, v.dims.size());
        std::vector<Value> parts;
        for (const Value& v : rows[i]) parts.push_back(promote(v, n));
        std::optional<Value> row = concatenate(2, parts, error);
        if (!row) {
            error = fmt::format("row {}: {}", i + 1, error);
            return std::nullopt;
        }
        joined.push_back(std::move(*row));
    }
    std::size_t n = 2;
    for (const Value& v : joined) n = std::max(n, v.dims.size());
    for (Value& v : joined) v = promote(v, n);
    std::optional<Value> r = concatenate(1, joined, error);
    if (!r) {
        error = fmt::format("the rows do not fit: {}", error);
        return std::nullopt;
    }
    return r;
}

}  // namespace modeaudit::flat
