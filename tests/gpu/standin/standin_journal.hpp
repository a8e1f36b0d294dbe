// What the recording runtime stand-in (gpu_vendor_standin.hpp) saw, for tests to read.
//
// It behaves like an asynchronous device where that matters to ordering: device memory
// is host memory of its own, and a copy queued on a stream lands only when that stream
// is synchronised, so host code that reads or reuses memory before waiting is caught.
// A copy on the legacy stream (standinMemcpy) is recorded as such and done at once.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

struct standinStream;

namespace vrb::test::standin {

enum class Call { legacy_copy, async_copy, async_memset, stream_synchronize, stream_create, other };

struct Record {
    Call call = Call::other;
    standinStream *stream = nullptr; // the stream a queued call went to or waited for
    void *dst = nullptr;
    const void *src = nullptr;
    std::size_t bytes = 0;
    int kind = -1; // standinMemcpyKind of a copy
};

// The calls since the last clear(), in order.
const std::vector<Record> &journal();
void clear();

// How many devices the stand-in offers (1 unless changed).
void set_device_count(int count);

std::string describe(const Record &r);

} // namespace vrb::test::standin
