// A minimal check macro shared by the C++ test translation units.
#ifndef CLIKA_RT_TEST_CHECK_H
#define CLIKA_RT_TEST_CHECK_H

#include <cstdio>

namespace test {
inline int& passed() {
    static int n = 0;
    return n;
}
inline int& failed() {
    static int n = 0;
    return n;
}
}  // namespace test

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (cond) {                                                                  \
            ++test::passed();                                                        \
        } else {                                                                     \
            ++test::failed();                                                        \
            std::printf("FAIL  %s:%d: %s\n", __FILE__, __LINE__, #cond);             \
        }                                                                            \
    } while (0)

// Checks that `expr` throws ClikaRT::Error with status `want`.
#define CHECK_THROWS(expr, want)                                                   \
    do {                                                                             \
        bool threw_ = false;                                                         \
        try {                                                                        \
            static_cast<void>(expr);                                                 \
        } catch (const ClikaRT::Error& e_) {                                         \
            threw_ = e_.status() == (want);                                        \
            if (!threw_) std::printf("      unexpected status: %s\n", e_.what());   \
        }                                                                            \
        CHECK(threw_);                                                               \
    } while (0)

// Defined in the second translation unit (which also includes <ClikaRT/clika_rt.h>).
void run_second_tu_tests();
// Defined in test_ops.cpp: the compute API (ops::, operators, in-place forms).
void run_ops_tests();
void run_vision_tests();
// Defined in test_image.cpp: the image entry points (normalize_image).
void run_image_tests();
// Defined in test_elementwise.cpp: rounding, predicates, integer operators, tril/triu.
void run_elementwise_tests();
void run_algorithm_tests();
void run_shared_tests();
// Defined in test_custom_ops.cpp: custom operators and mapped files.
void run_custom_ops_tests();
void run_conventions_tests();
// Defined in test_uint.cpp: UInt16/UInt32/UInt64.
void run_uint_tests();
// Defined in test_dlpack.cpp: DLPack import/export and Tensor::format.
void run_dlpack_tests();

#endif
