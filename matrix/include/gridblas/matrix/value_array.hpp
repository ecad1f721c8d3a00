#pragma once
/// @file value_array.hpp
/// @brief Storage for the values of a sparse object. For `Pattern` it stores nothing but a
/// length, so a pattern-only graph costs index memory alone.

#include <cstddef>
#include <vector>

#include "gridblas/core/types.hpp"
#include "gridblas/matrix/detail/default_init.hpp"
#include "gridblas/matrix/detail/huge_pages.hpp"

namespace gridblas {

/// A contiguous array of values (a std::vector), specialised to hold no memory for Pattern.
template <class T>
class ValueArray {
public:
    ValueArray() = default;
    explicit ValueArray(std::size_t n, const T& v = T{}) : data_(n, v) {}
    std::size_t size() const { return data_.size(); }
    /// New elements are T{} (zero for arithmetic types).
    void resize(std::size_t n) { data_.resize(n, T{}); }
    /// resize() for a caller that writes every new element next: they are default-initialised
    /// (left unwritten for arithmetic types), which spares a pass over the memory.
    void resize_for_overwrite(std::size_t n) { data_.resize(n); }
    void reserve(std::size_t n) { data_.reserve(n); }
    /// reserve() in a buffer advised for huge pages (detail/huge_pages.hpp).
    void reserve_huge(std::size_t n) { detail::reserve_huge(data_, n); }
    /// Drops spare capacity, into a buffer advised for huge pages when it is long.
    void shrink_to_fit() { detail::shrink_to_fit_huge(data_); }
    void clear() { data_.clear(); }
    void push_back(const T& v) { data_.push_back(v); }
    T& operator[](std::size_t i) { return data_[i]; }
    const T& operator[](std::size_t i) const { return data_[i]; }
    T* data() { return data_.data(); }
    const T* data() const { return data_.data(); }
    std::size_t bytes() const { return data_.capacity() * sizeof(T); }
    bool operator==(const ValueArray&) const = default;

private:
    /// Default-initialises on resize(n) with no value (see resize_for_overwrite()).
    detail::OverwriteVector<T> data_;
};

/// bool values are stored one byte each (std::vector<bool> packs bits and cannot hand out
/// bool references or a data pointer).
template <>
class ValueArray<bool> {
    struct Box {
        bool b = false;
        bool operator==(const Box&) const = default;
    };

public:
    ValueArray() = default;
    explicit ValueArray(std::size_t n, bool v = false) : data_(n, Box{v}) {}
    std::size_t size() const { return data_.size(); }
    void resize(std::size_t n) { data_.resize(n); }
    void resize_for_overwrite(std::size_t n) { data_.resize(n); }
    void reserve(std::size_t n) { data_.reserve(n); }
    void reserve_huge(std::size_t n) { detail::reserve_huge(data_, n); }
    /// Drops spare capacity, into a buffer advised for huge pages when it is long.
    void shrink_to_fit() { detail::shrink_to_fit_huge(data_); }
    void clear() { data_.clear(); }
    void push_back(bool v) { data_.push_back(Box{v}); }
    bool& operator[](std::size_t i) { return data_[i].b; }
    const bool& operator[](std::size_t i) const { return data_[i].b; }
    // Box is standard-layout with bool as its only member, so the pointers interconvert.
    bool* data() { return data_.empty() ? nullptr : &data_.front().b; }
    const bool* data() const { return data_.empty() ? nullptr : &data_.front().b; }
    std::size_t bytes() const { return data_.capacity() * sizeof(Box); }
    bool operator==(const ValueArray&) const = default;

private:
    std::vector<Box> data_;
};

template <>
class ValueArray<Pattern> {
public:
    ValueArray() = default;
    explicit ValueArray(std::size_t n, Pattern = {}) : n_(n) {}
    std::size_t size() const { return n_; }
    void resize(std::size_t n) { n_ = n; }
    void resize_for_overwrite(std::size_t n) { n_ = n; }
    void reserve(std::size_t) {}
    void reserve_huge(std::size_t) {}
    void shrink_to_fit() {}
    void clear() { n_ = 0; }
    void push_back(Pattern) { ++n_; }
    Pattern operator[](std::size_t) const { return {}; }
    const Pattern* data() const { return nullptr; }
    std::size_t bytes() const { return 0; }
    bool operator==(const ValueArray&) const = default;

private:
    std::size_t n_ = 0;
};

}  // namespace gridblas
