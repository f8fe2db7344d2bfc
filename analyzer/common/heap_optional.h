// An optional value kept on the heap: the interface of std::optional that
// its users need (test, *, ->, has_value, assignment of a value), in the
// size of one pointer. For a large member that is rarely present, in an
// element a model has millions of (FlatVariable::invariant): as a
// std::optional it took a hundred bytes of every element, copied at each
// growth of the vector holding them.
#pragma once

#include <memory>
#include <optional>
#include <utility>

namespace modeaudit {

template <class T>
class HeapOptional {
public:
    HeapOptional() = default;
    HeapOptional(std::nullopt_t) {}
    HeapOptional(const T& v) : p_(std::make_unique<T>(v)) {}
    HeapOptional(T&& v) : p_(std::make_unique<T>(std::move(v))) {}
    HeapOptional(const HeapOptional& o) : p_(o.p_ ? std::make_unique<T>(*o.p_) : nullptr) {}
    HeapOptional(HeapOptional&&) noexcept = default;
    HeapOptional& operator=(const HeapOptional& o) {
        if (this != &o) p_ = o.p_ ? std::make_unique<T>(*o.p_) : nullptr;
        return *this;
    }
    HeapOptional& operator=(HeapOptional&&) noexcept = default;
    HeapOptional& operator=(const T& v) {
        p_ = std::make_unique<T>(v);
        return *this;
    }
    HeapOptional& operator=(T&& v) {
        p_ = std::make_unique<T>(std::move(v));
        return *this;
    }
    HeapOptional& operator=(const std::optional<T>& v) {
        p_ = v ? std::make_unique<T>(*v) : nullptr;
        return *this;
    }
    HeapOptional& operator=(std::nullopt_t) {
        p_.reset();
        return *this;
    }

    bool has_value() const { return p_ != nullptr; }
    explicit operator bool() const { return has_value(); }
    T& operator*() { return *p_; }
    const T& operator*() const { return *p_; }
    T* operator->() { return p_.get(); }
    const T* operator->() const { return p_.get(); }
    void reset() { p_.reset(); }

private:
    std::unique_ptr<T> p_;
};

}  // namespace modeaudit
