/* The DLPack 1.x ABI, as the tests' own producer and consumer see it: written here from the
 * DLPack specification (https://dmlc.github.io/dlpack/latest/c_api.html) so the tests
 * depend on nothing but the library; a real program includes dlpack.h instead. Valid C11
 * and C++17; the tags match the declarations in <ClikaRT/clika_rt_c.h>. */
#ifndef CLIKA_RT_TEST_DLPACK_STRUCTS_H
#define CLIKA_RT_TEST_DLPACK_STRUCTS_H

#include <stdint.h>

enum { TEST_DL_CPU = 1, TEST_DL_CUDA = 2, TEST_DL_OPENCL = 4 };
enum { TEST_DL_INT = 0, TEST_DL_UINT = 1, TEST_DL_FLOAT = 2, TEST_DL_COMPLEX = 5 };
#define TEST_DL_FLAG_READ_ONLY ((uint64_t)1)
#define TEST_DL_FLAG_IS_COPIED ((uint64_t)2)

typedef struct {
    uint32_t major;
    uint32_t minor;
} TestDLPackVersion;

typedef struct {
    int32_t device_type; /* DLDeviceType: an enum, int-sized */
    int32_t device_id;
} TestDLDevice;

typedef struct {
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;
} TestDLDataType;

typedef struct {
    void* data;
    TestDLDevice device;
    int32_t ndim;
    TestDLDataType dtype;
    int64_t* shape;
    int64_t* strides; /* in elements; NULL: row-major */
    uint64_t byte_offset;
} TestDLTensor;

typedef struct DLManagedTensor {
    TestDLTensor dl_tensor;
    void* manager_ctx;
    void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

typedef struct DLManagedTensorVersioned {
    TestDLPackVersion version;
    void* manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned* self);
    uint64_t flags;
    TestDLTensor dl_tensor;
} DLManagedTensorVersioned;

#endif
