/* Tests of the C ABI from C: ownership (borrowed, adopted, failed construction), the panic
 * boundary, NULL handles and out-pointers, status codes. Compiled with -std=c11 -Wall -Wextra
 * -Werror -pedantic; run plainly, under ASan+UBSan and under valgrind by tests/run. Prints one
 * "ok"/"FAIL" line per check and ends with "N passed, M failed". */
#include <ClikaRT/clika_rt_c.h>

#include "dlpack_structs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Test-only export: not in the public header. */
crt_status crt_testing_panic(crt_error **err);

static int passed = 0;
static int failed = 0;

#define CHECK(cond)                                                           \
    do {                                                                      \
        if (cond) {                                                           \
            ++passed;                                                         \
        } else {                                                              \
            ++failed;                                                         \
            printf("FAIL  %s:%d: %s\n", __FILE__, __LINE__, #cond);           \
        }                                                                     \
    } while (0)

/* A deleter that counts its calls and frees the buffer. */
static void counting_free(void *data, void *ctx) {
    int *calls = (int *)ctx;
    ++*calls;
    free(data);
}

/* A deleter that only counts (for memory the test owns). */
static void counting_only(void *data, void *ctx) {
    (void)data;
    ++*(int *)ctx;
}

static float item_f32(const crt_tensor *t) {
    float v = -1.0F;
    crt_status s = crt_tensor_item(t, CRT_DTYPE_FLOAT32, &v, NULL);
    return s == CRT_STATUS_OK ? v : -12345.0F;
}

static void test_borrow_aliases(void) {
    float buf[8];
    int64_t shape[1] = {8};
    crt_tensor *t = NULL, *sum = NULL;
    void *p = NULL;
    int i;
    for (i = 0; i < 8; ++i) buf[i] = 1.0F;
    CHECK(crt_tensor_from_blob(buf, shape, 1, NULL, CRT_DTYPE_FLOAT32, NULL, &t, NULL) ==
          CRT_STATUS_OK);
    CHECK(crt_tensor_data_ptr(t, &p, NULL) == CRT_STATUS_OK && p == (void *)buf);
    CHECK(crt_tensor_sum(t, &sum, NULL) == CRT_STATUS_OK && item_f32(sum) == 8.0F);
    crt_tensor_free(sum);
    buf[0] = 100.0F;
    CHECK(crt_tensor_sum(t, &sum, NULL) == CRT_STATUS_OK && item_f32(sum) == 107.0F);
    crt_tensor_free(sum);
    crt_tensor_free(t);
    printf("ok    borrow aliases the caller's buffer\n");
}

static void test_deleter_once_after_views(void) {
    int calls = 0;
    int64_t shape[2] = {2, 3};
    int64_t dims[2] = {1, 0};
    float *buf = (float *)malloc(6 * sizeof(float));
    crt_blob_options opts;
    crt_tensor *t = NULL, *copy = NULL, *view = NULL, *mean = NULL;
    int i;
    for (i = 0; i < 6; ++i) buf[i] = (float)i;
    memset(&opts, 0, sizeof opts);
    opts.deleter = counting_free;
    opts.deleter_ctx = &calls;
    CHECK(crt_tensor_from_blob(buf, shape, 2, NULL, CRT_DTYPE_FLOAT32, &opts, &t, NULL) ==
          CRT_STATUS_OK);
    CHECK(crt_tensor_clone(t, &copy, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_permute(t, dims, 2, &view, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_mean(view, &mean, NULL) == CRT_STATUS_OK && item_f32(mean) == 2.5F);
    crt_tensor_free(t);
    crt_tensor_free(mean); /* a result of an op does not keep the source alive */
    CHECK(calls == 0);
    crt_tensor_free(copy);
    CHECK(calls == 0);
    crt_tensor_free(view); /* the last reference */
    CHECK(calls == 1);
    printf("ok    adopted: the deleter runs once, after the last copy and view\n");
}

static void test_failed_from_blob_keeps_ownership(void) {
    int calls = 0;
    float buf[4] = {0};
    int64_t bad_shape[1] = {-1};
    int64_t shape[1] = {3};
    crt_blob_options opts;
    crt_tensor *t = (crt_tensor *)&calls; /* must come back NULL */
    crt_error *err = NULL;
    memset(&opts, 0, sizeof opts);
    opts.deleter = counting_only;
    opts.deleter_ctx = &calls;

    CHECK(crt_tensor_from_blob(buf, bad_shape, 1, NULL, CRT_DTYPE_FLOAT32, &opts, &t, &err) ==
          CRT_STATUS_INVALID_SHAPE);
    CHECK(t == NULL);
    CHECK(err != NULL && crt_error_status(err) == CRT_STATUS_INVALID_SHAPE);
    CHECK(err != NULL && strstr(crt_error_message(err), "negative") != NULL);
    crt_error_free(err);

    err = NULL;
    CHECK(crt_tensor_from_blob((char *)buf + 1, shape, 1, NULL, CRT_DTYPE_FLOAT32, &opts, &t,
                               &err) == CRT_STATUS_MISALIGNED);
    CHECK(err != NULL && strstr(crt_error_message(err), "aligned") != NULL);
    crt_error_free(err);

    CHECK(crt_tensor_from_blob(NULL, shape, 1, NULL, CRT_DTYPE_FLOAT32, &opts, &t, NULL) ==
          CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_from_blob(buf, shape, 1, NULL, 99, &opts, &t, NULL) == CRT_STATUS_DTYPE);
    opts.device.kind = 7;
    CHECK(crt_tensor_from_blob(buf, shape, 1, NULL, CRT_DTYPE_FLOAT32, &opts, &t, NULL) ==
          CRT_STATUS_INVALID_ARGUMENT);
    opts.device.kind = CRT_DEVICE_GPU;
    CHECK(crt_tensor_from_blob(buf, shape, 1, NULL, CRT_DTYPE_FLOAT32, &opts, &t, NULL) ==
          CRT_STATUS_DEVICE);
    CHECK(calls == 0);
    printf("ok    failed from_blob: error status and message, no deleter call\n");
}

static void test_strided_roi(void) {
    float img[24];
    int64_t shape[2] = {2, 3};
    int64_t strides[2] = {6, 1};
    crt_tensor *roi = NULL, *sum = NULL;
    char *text = NULL;
    const int64_t *st = NULL;
    size_t nd = 0;
    int r, c;
    for (r = 0; r < 4; ++r)
        for (c = 0; c < 6; ++c) img[r * 6 + c] = (float)(r * 10 + c);
    CHECK(crt_tensor_from_blob(img + 8, shape, 2, strides, CRT_DTYPE_FLOAT32, NULL, &roi,
                               NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_strides(roi, &st, &nd, NULL) == CRT_STATUS_OK && nd == 2 && st[0] == 6);
    CHECK(crt_tensor_sum(roi, &sum, NULL) == CRT_STATUS_OK && item_f32(sum) == 108.0F);
    CHECK(crt_tensor_to_string(roi, &text, NULL) == CRT_STATUS_OK);
    CHECK(text != NULL &&
          strcmp(text, "Tensor(shape=[2, 3], dtype=Float32, device=CPU, numel=6, "
                       "data=[12, 13, 14, 22, 23, 24])") == 0);
    crt_string_free(text);
    crt_tensor_free(sum);
    crt_tensor_free(roi);
    printf("ok    strided from_blob views a region in place\n");
}

static void test_null_handles_and_out_pointers(void) {
    int64_t shape[1] = {4};
    crt_tensor *t = NULL, *out = NULL;
    crt_error *err = NULL;
    size_t n = 0;
    CHECK(crt_tensor_sum(NULL, &out, &err) == CRT_STATUS_NULL_POINTER);
    CHECK(out == NULL && err != NULL && strstr(crt_error_message(err), "tensor") != NULL);
    crt_error_free(err);
    CHECK(crt_tensor_zeros(shape, 1, CRT_DTYPE_FLOAT32, NULL, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_zeros(NULL, 1, CRT_DTYPE_FLOAT32, &t, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_zeros(shape, 1, CRT_DTYPE_FLOAT32, &t, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_numel(t, NULL, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_numel(t, &n, NULL) == CRT_STATUS_OK && n == 4);
    CHECK(crt_tensor_nbytes(t, &n, NULL) == CRT_STATUS_OK && n == 16);
    CHECK(crt_tensor_element_size(t, &n, NULL) == CRT_STATUS_OK && n == 4);
    CHECK(crt_tensor_nbytes(NULL, &n, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_element_size(t, NULL, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_shape(t, NULL, &n, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_item(t, CRT_DTYPE_FLOAT32, NULL, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_to_string(NULL, NULL, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_synchronize(NULL, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_device_memory_stats((crt_device){CRT_DEVICE_CPU, 0}, NULL, NULL) ==
          CRT_STATUS_NULL_POINTER);
    CHECK(crt_device_imported_bytes((crt_device){CRT_DEVICE_CPU, 0}, NULL, NULL) ==
          CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_to_copy(NULL, (crt_device){CRT_DEVICE_CPU, 0}, NULL, NULL) ==
          CRT_STATUS_NULL_POINTER);
    CHECK(crt_error_status(NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_error_message(NULL) != NULL);
    crt_tensor_free(NULL);
    crt_error_free(NULL);
    crt_string_free(NULL);
    crt_tensor_free(t);
    printf("ok    NULL handles and out-pointers are rejected, NULL frees are no-ops\n");
}

static void test_panic_becomes_status(void) {
    crt_error *err = NULL;
    CHECK(crt_testing_panic(&err) == CRT_STATUS_INTERNAL);
    CHECK(err != NULL && crt_error_status(err) == CRT_STATUS_INTERNAL);
    CHECK(err != NULL && strstr(crt_error_message(err), "provoked by crt_testing_panic") != NULL);
    crt_error_free(err);
    CHECK(crt_testing_panic(NULL) == CRT_STATUS_INTERNAL);
    CHECK(strcmp(crt_status_name(CRT_STATUS_INTERNAL), "CRT_STATUS_INTERNAL") == 0);
    printf("ok    a Rust panic comes back as CRT_STATUS_INTERNAL\n");
}

static void test_create_view_and_stats(void) {
    int64_t shape[2] = {2, 3};
    int64_t bad[1] = {5};
    crt_tensor *t = NULL, *v = NULL, *s = NULL;
    crt_memory_stats stats;
    crt_error *err = NULL;
    int64_t item = 0;
    double d = 0.0;
    size_t released = 1;
    CHECK(crt_tensor_full(shape, 2, 1.5, CRT_DTYPE_FLOAT64, &t, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_view(t, bad, 1, &v, &err) == CRT_STATUS_INVALID_SHAPE && v == NULL);
    crt_error_free(err);
    CHECK(crt_tensor_sum_dims(t, shape, 0, 0, &s, NULL) == CRT_STATUS_OK);
    crt_tensor_free(s);
    CHECK(crt_tensor_select(t, 0, 1, &v, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_sum(v, &s, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_item(s, CRT_DTYPE_FLOAT64, &d, NULL) == CRT_STATUS_OK && d == 4.5);
    CHECK(crt_tensor_item(s, CRT_DTYPE_INT64, &item, NULL) == CRT_STATUS_OK && item == 4);
    CHECK(crt_tensor_item(t, CRT_DTYPE_INT64, &item, NULL) == CRT_STATUS_INVALID_ARGUMENT);
    crt_tensor_free(s);
    crt_tensor_free(v);
    crt_tensor_free(t);
    CHECK(crt_device_memory_stats((crt_device){CRT_DEVICE_CPU, 0}, &stats, NULL) ==
          CRT_STATUS_OK);
    {
        uint64_t imported = 7;
        CHECK(crt_device_imported_bytes((crt_device){CRT_DEVICE_CPU, 0}, &imported, NULL) ==
              CRT_STATUS_OK);
        CHECK(imported == 0);
    }
    CHECK(crt_device_release_cached_memory((crt_device){CRT_DEVICE_CPU, 0}, &released, NULL) ==
          CRT_STATUS_OK);
    CHECK(crt_device_release_cached_memory((crt_device){CRT_DEVICE_CPU, 3}, NULL, NULL) ==
          CRT_STATUS_INVALID_ARGUMENT);
    CHECK(strcmp(crt_version(), CRT_EXPECTED_VERSION) == 0);
    printf("ok    creation, views, reductions, item, memory stats\n");
}

/* ---- compute ---- */

static crt_tensor *f32_tensor(const float *data, const int64_t *shape, size_t ndim) {
    crt_tensor *t = NULL;
    size_t n = 1, i;
    for (i = 0; i < ndim; ++i) n *= (size_t)shape[i];
    if (crt_tensor_from_data(data, n * sizeof(float), shape, ndim, CRT_DTYPE_FLOAT32, &t,
                             NULL) != CRT_STATUS_OK)
        return NULL;
    return t;
}

static crt_dtype dtype_of(const crt_tensor *t) {
    crt_dtype d = 999;
    return crt_tensor_dtype(t, &d, NULL) == CRT_STATUS_OK ? d : 999;
}

/* Whether `t` has `ndim` dims of `shape`. */
static int has_shape(const crt_tensor *t, const int64_t *shape, size_t ndim) {
    const int64_t *s = NULL;
    size_t n = 0, i;
    if (crt_tensor_shape(t, &s, &n, NULL) != CRT_STATUS_OK || n != ndim) return 0;
    for (i = 0; i < n; ++i)
        if (s[i] != shape[i]) return 0;
    return 1;
}

/* Whether `t` holds the `n` values `want` (converted to double with the runtime's rules). */
static int values_near(const crt_tensor *t, const double *want, size_t n) {
    crt_tensor *d = NULL;
    double got[64];
    size_t m = 0, i;
    int ok = 1;
    if (n > 64 || crt_tensor_numel(t, &m, NULL) != CRT_STATUS_OK || m != n) return 0;
    if (crt_tensor_to_dtype(t, CRT_DTYPE_FLOAT64, &d, NULL) != CRT_STATUS_OK) return 0;
    if (crt_tensor_copy_to(d, got, sizeof got, NULL) != CRT_STATUS_OK) ok = 0;
    for (i = 0; ok && i < n; ++i) {
        double diff = got[i] - want[i];
        if (diff < -1e-5 || diff > 1e-5) {
            printf("      element %zu: got %.7g, want %.7g\n", i, got[i], want[i]);
            ok = 0;
        }
    }
    crt_tensor_free(d);
    return ok;
}

static crt_scalar float_scalar(double v) {
    crt_scalar s;
    memset(&s, 0, sizeof s);
    s.kind = CRT_SCALAR_FLOAT;
    s.float_value = v;
    return s;
}

static crt_scalar int_scalar(int64_t v) {
    crt_scalar s;
    memset(&s, 0, sizeof s);
    s.kind = CRT_SCALAR_INT;
    s.int_value = v;
    return s;
}

/* A fresh element-wise result keeps the layout its operands share: two transposed views
 * (and a transposed view with a scalar) give a transposed result with the same strides and
 * the values of the row-major computation; a row-major operand beside them, row-major. */
static void test_results_keep_a_shared_permuted_layout(void) {
    const float av[6] = {0, 1, 2, 3, 4, 5};
    const float bv[6] = {10, 20, 30, 40, 50, 60};
    const int64_t s23[2] = {2, 3}, s32[2] = {3, 2}, swap[2] = {1, 0};
    crt_tensor *a = f32_tensor(av, s23, 2), *b = f32_tensor(bv, s23, 2);
    crt_tensor *at = NULL, *bt = NULL, *r = NULL, *plain = NULL;
    const int64_t *st = NULL;
    size_t nd = 0;
    uint8_t contiguous = 1;
    CHECK(crt_tensor_permute(a, swap, 2, &at, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_permute(b, swap, 2, &bt, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_binary(CRT_BINARY_ADD, at, bt, &r, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_strides(r, &st, &nd, NULL) == CRT_STATUS_OK && nd == 2 && st[0] == 1 &&
          st[1] == 3);
    {
        const double want[6] = {10, 43, 21, 54, 32, 65};
        CHECK(has_shape(r, s32, 2) && values_near(r, want, 6));
    }
    crt_tensor_free(r);
    CHECK(crt_tensor_binary_scalar(CRT_BINARY_MUL, at, float_scalar(2), &r, NULL) ==
          CRT_STATUS_OK);
    CHECK(crt_tensor_is_contiguous(r, &contiguous, NULL) == CRT_STATUS_OK && contiguous == 0);
    {
        const double want[6] = {0, 6, 2, 8, 4, 10};
        CHECK(values_near(r, want, 6));
    }
    crt_tensor_free(r);
    CHECK(crt_tensor_contiguous(bt, &plain, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_binary(CRT_BINARY_SUB, at, plain, &r, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_is_contiguous(r, &contiguous, NULL) == CRT_STATUS_OK && contiguous == 1);
    {
        const double want[6] = {-10, -37, -19, -46, -28, -55};
        CHECK(values_near(r, want, 6));
    }
    crt_tensor_free(r);
    /* Conversions keep the layout too (PyTorch's `to`, numpy's `astype`). */
    CHECK(crt_tensor_to_dtype(at, CRT_DTYPE_FLOAT64, &r, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_strides(r, &st, &nd, NULL) == CRT_STATUS_OK && nd == 2 && st[0] == 1 &&
          st[1] == 3);
    {
        const double want[6] = {0, 3, 1, 4, 2, 5};
        CHECK(has_shape(r, s32, 2) && values_near(r, want, 6));
    }
    crt_tensor_free(r);
    crt_tensor_free(plain);
    crt_tensor_free(bt);
    crt_tensor_free(at);
    crt_tensor_free(b);
    crt_tensor_free(a);
}

static void test_binary_broadcast_and_promotion(void) {
    const float av[6] = {0, 1, 2, 3, 4, 5};
    const float bv[3] = {10, 20, 30};
    const float cv[2] = {100, 200};
    const int64_t s23[2] = {2, 3}, s3[1] = {3}, s21[2] = {2, 1}, s4[1] = {4};
    const int8_t i8v[3] = {1, 2, 3};
    const int8_t ovf[1] = {127};
    const uint8_t u8v[3] = {250, 1, 2};
    const int32_t i32v[3] = {7, 8, 9};
    const int64_t i64v[3] = {-1, -2, -3};
    crt_tensor *a = f32_tensor(av, s23, 2), *b = f32_tensor(bv, s3, 1), *c = f32_tensor(cv, s21, 2);
    crt_tensor *i8 = NULL, *u8 = NULL, *i32 = NULL, *i64 = NULL, *big = NULL, *r = NULL, *bad = NULL;
    crt_error *err = NULL;
    CHECK(crt_tensor_from_data(i8v, 3, s3, 1, CRT_DTYPE_INT8, &i8, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_from_data(ovf, 1, s3, 0, CRT_DTYPE_INT8, &big, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_from_data(u8v, 3, s3, 1, CRT_DTYPE_UINT8, &u8, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_from_data(i32v, 12, s3, 1, CRT_DTYPE_INT32, &i32, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_from_data(i64v, 24, s3, 1, CRT_DTYPE_INT64, &i64, NULL) == CRT_STATUS_OK);

    /* (2,3) + (3,) broadcasts the row. */
    CHECK(crt_tensor_binary(CRT_BINARY_ADD, a, b, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[6] = {10, 21, 32, 13, 24, 35};
        CHECK(has_shape(r, s23, 2) && dtype_of(r) == CRT_DTYPE_FLOAT32 && values_near(r, want, 6));
    }
    crt_tensor_free(r);
    /* (2,1) * (3,) broadcasts both ways to (2,3). */
    CHECK(crt_tensor_binary(CRT_BINARY_MUL, c, b, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[6] = {1000, 2000, 3000, 2000, 4000, 6000};
        CHECK(has_shape(r, s23, 2) && values_near(r, want, 6));
    }
    crt_tensor_free(r);
    /* Comparisons give Bool. */
    CHECK(crt_tensor_binary(CRT_BINARY_GE, a, c, &r, NULL) == CRT_STATUS_OK);
    CHECK(dtype_of(r) == CRT_DTYPE_BOOL);
    crt_tensor_free(r);
    /* Int8 + float scalar -> Float32; Int8 + int scalar stays Int8 (and wraps). */
    CHECK(crt_tensor_binary_scalar(CRT_BINARY_ADD, i8, float_scalar(0.5), &r, NULL) ==
          CRT_STATUS_OK);
    {
        const double want[3] = {1.5, 2.5, 3.5};
        CHECK(dtype_of(r) == CRT_DTYPE_FLOAT32 && values_near(r, want, 3));
    }
    crt_tensor_free(r);
    CHECK(crt_tensor_binary_scalar(CRT_BINARY_ADD, big, int_scalar(1), &r, NULL) ==
          CRT_STATUS_OK);
    {
        const double want[1] = {-128};
        CHECK(dtype_of(r) == CRT_DTYPE_INT8 && values_near(r, want, 1));
    }
    crt_tensor_free(r);
    /* Scalar on the left: 1 - t. */
    CHECK(crt_tensor_scalar_binary(CRT_BINARY_SUB, int_scalar(1), b, &r, NULL) ==
          CRT_STATUS_OK);
    {
        const double want[3] = {-9, -19, -29};
        CHECK(dtype_of(r) == CRT_DTYPE_FLOAT32 && values_near(r, want, 3));
    }
    crt_tensor_free(r);
    /* Tensor promotion: UInt8 + Int8 -> Int16; Int32 + Int64 -> Int64; Int8 / Int8 -> Float32. */
    CHECK(crt_tensor_binary(CRT_BINARY_ADD, u8, i8, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[3] = {251, 3, 5};
        CHECK(dtype_of(r) == CRT_DTYPE_INT16 && values_near(r, want, 3));
    }
    crt_tensor_free(r);
    CHECK(crt_tensor_binary(CRT_BINARY_MUL, i32, i64, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[3] = {-7, -16, -27};
        CHECK(dtype_of(r) == CRT_DTYPE_INT64 && values_near(r, want, 3));
    }
    crt_tensor_free(r);
    CHECK(crt_tensor_binary(CRT_BINARY_DIV, i8, i8, &r, NULL) == CRT_STATUS_OK);
    CHECK(dtype_of(r) == CRT_DTYPE_FLOAT32);
    crt_tensor_free(r);
    CHECK(crt_tensor_binary(CRT_BINARY_MAXIMUM, i8, i32, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[3] = {7, 8, 9};
        CHECK(dtype_of(r) == CRT_DTYPE_INT32 && values_near(r, want, 3));
    }
    crt_tensor_free(r);

    /* Bad input: shape mismatch, unknown op, bad scalar kind, NULL operands. */
    CHECK(crt_tensor_zeros(s4, 1, CRT_DTYPE_FLOAT32, &bad, NULL) == CRT_STATUS_OK);
    r = (crt_tensor *)&err;
    CHECK(crt_tensor_binary(CRT_BINARY_ADD, a, bad, &r, &err) == CRT_STATUS_INVALID_SHAPE);
    CHECK(r == NULL && err != NULL && crt_error_status(err) == CRT_STATUS_INVALID_SHAPE);
    crt_error_free(err);
    CHECK(crt_tensor_binary(99, a, b, &r, &err) == CRT_STATUS_INVALID_ARGUMENT);
    CHECK(err != NULL && strstr(crt_error_message(err), "99") != NULL);
    crt_error_free(err);
    {
        crt_scalar s = float_scalar(1.0);
        s.kind = 7;
        CHECK(crt_tensor_binary_scalar(CRT_BINARY_ADD, a, s, &r, NULL) ==
              CRT_STATUS_INVALID_ARGUMENT);
    }
    CHECK(crt_tensor_binary(CRT_BINARY_ADD, NULL, b, &r, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_binary(CRT_BINARY_ADD, a, NULL, &r, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_binary(CRT_BINARY_ADD, a, b, NULL, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_binary(CRT_BINARY_SUB, u8, u8, &r, NULL) == CRT_STATUS_OK);
    crt_tensor_free(r);
    {
        crt_tensor *t = NULL, *f = NULL;
        int64_t shape1[1] = {1};
        CHECK(crt_tensor_zeros(shape1, 1, CRT_DTYPE_BOOL, &t, NULL) == CRT_STATUS_OK);
        CHECK(crt_tensor_binary(CRT_BINARY_SUB, t, t, &f, NULL) == CRT_STATUS_DTYPE && f == NULL);
        crt_tensor_free(t);
    }
    crt_tensor_free(bad);
    crt_tensor_free(a);
    crt_tensor_free(b);
    crt_tensor_free(c);
    crt_tensor_free(i8);
    crt_tensor_free(big);
    crt_tensor_free(u8);
    crt_tensor_free(i32);
    crt_tensor_free(i64);
    printf("ok    binary ops: broadcasting, promotion, weak scalars, bad input\n");
}

static void test_unary_and_reductions(void) {
    const float av[6] = {0, 1, 2, 3, 4, 5};
    const float neg[3] = {-1, 0, 2};
    const int64_t s23[2] = {2, 3}, s3[1] = {3}, s21[2] = {2, 1}, s2[1] = {2};
    const int64_t d1[1] = {1}, d0[1] = {0}, dlast[1] = {-1}, d01[2] = {0, 1};
    const int32_t iv[3] = {-4, 0, 4};
    crt_tensor *a = f32_tensor(av, s23, 2), *n = f32_tensor(neg, s3, 1), *i = NULL, *r = NULL;
    crt_error *err = NULL;
    CHECK(crt_tensor_from_data(iv, sizeof iv, s3, 1, CRT_DTYPE_INT32, &i, NULL) == CRT_STATUS_OK);

    CHECK(crt_tensor_unary(CRT_UNARY_RELU, n, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[3] = {0, 0, 2};
        CHECK(values_near(r, want, 3));
    }
    crt_tensor_free(r);
    CHECK(crt_tensor_unary(CRT_UNARY_ABS, i, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[3] = {4, 0, 4};
        CHECK(dtype_of(r) == CRT_DTYPE_INT32 && values_near(r, want, 3));
    }
    crt_tensor_free(r);
    CHECK(crt_tensor_unary(CRT_UNARY_EXP, i, &r, NULL) == CRT_STATUS_OK);
    CHECK(dtype_of(r) == CRT_DTYPE_FLOAT32);
    crt_tensor_free(r);
    CHECK(crt_tensor_unary(CRT_UNARY_SQRT, a, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[6] = {0, 1, 1.4142135, 1.7320508, 2, 2.2360680};
        CHECK(values_near(r, want, 6));
    }
    crt_tensor_free(r);
    CHECK(crt_tensor_unary(1000, a, &r, NULL) == CRT_STATUS_INVALID_ARGUMENT && r == NULL);

    /* Sum over dim 1 with keepdim: [[3], [12]]. */
    CHECK(crt_tensor_reduce(CRT_REDUCE_SUM, a, d1, 1, 1, 0, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[2] = {3, 12};
        CHECK(has_shape(r, s21, 2) && values_near(r, want, 2));
    }
    crt_tensor_free(r);
    CHECK(crt_tensor_reduce(CRT_REDUCE_MEAN, a, d0, 1, 0, 0, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[3] = {1.5, 2.5, 3.5};
        CHECK(has_shape(r, s3, 1) && values_near(r, want, 3));
    }
    crt_tensor_free(r);
    CHECK(crt_tensor_reduce(CRT_REDUCE_MAX, a, dlast, 1, 0, 0, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[2] = {2, 5};
        CHECK(has_shape(r, s2, 1) && values_near(r, want, 2));
    }
    crt_tensor_free(r);
    CHECK(crt_tensor_reduce(CRT_REDUCE_PROD, a, d01, 2, 0, 0, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[1] = {0};
        CHECK(has_shape(r, NULL, 0) && values_near(r, want, 1));
    }
    crt_tensor_free(r);
    CHECK(crt_tensor_reduce(CRT_REDUCE_ARGMAX, n, d0, 1, 0, 0, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[1] = {2};
        CHECK(dtype_of(r) == CRT_DTYPE_INT64 && values_near(r, want, 1));
    }
    crt_tensor_free(r);
    /* var over dim 1: rows {0,1,2}, {3,4,5}: unbiased 1, biased 2/3; std = sqrt. */
    CHECK(crt_tensor_reduce(CRT_REDUCE_VAR, a, d1, 1, 0, 1, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[2] = {1, 1};
        CHECK(values_near(r, want, 2));
    }
    crt_tensor_free(r);
    CHECK(crt_tensor_reduce(CRT_REDUCE_STD, a, d1, 1, 1, 0, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[2] = {0.8164966, 0.8164966};
        CHECK(has_shape(r, s21, 2) && values_near(r, want, 2));
    }
    crt_tensor_free(r);
    /* Over everything. */
    CHECK(crt_tensor_reduce_all(CRT_REDUCE_SUM, i, 0, &r, NULL) == CRT_STATUS_OK);
    CHECK(dtype_of(r) == CRT_DTYPE_INT64 && has_shape(r, NULL, 0));
    crt_tensor_free(r);
    CHECK(crt_tensor_reduce_all(CRT_REDUCE_ARGMIN, a, 0, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[1] = {0};
        CHECK(values_near(r, want, 1));
    }
    crt_tensor_free(r);
    CHECK(crt_tensor_reduce_all(CRT_REDUCE_MIN, n, 0, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[1] = {-1};
        CHECK(values_near(r, want, 1));
    }
    crt_tensor_free(r);
    /* Softmax of each row of [[0,1,2],[3,4,5]]: the same distribution twice. */
    CHECK(crt_tensor_softmax(a, 1, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[6] = {0.0900306, 0.2447285, 0.6652410, 0.0900306, 0.2447285, 0.6652410};
        CHECK(values_near(r, want, 6));
    }
    crt_tensor_free(r);
    CHECK(crt_tensor_log_softmax(a, -1, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[6] = {-2.4076059, -1.4076059, -0.4076059,
                                -2.4076059, -1.4076059, -0.4076059};
        CHECK(values_near(r, want, 6));
    }
    crt_tensor_free(r);

    /* Bad input: unknown reduction, argmax over two dims, NULL dims with ndims > 0, a dim
     * out of range, NULL tensor. */
    CHECK(crt_tensor_reduce(42, a, d1, 1, 0, 0, &r, &err) == CRT_STATUS_INVALID_ARGUMENT);
    CHECK(r == NULL && err != NULL && strstr(crt_error_message(err), "42") != NULL);
    crt_error_free(err);
    CHECK(crt_tensor_reduce_all(42, a, 0, &r, NULL) == CRT_STATUS_INVALID_ARGUMENT);
    CHECK(crt_tensor_reduce(CRT_REDUCE_ARGMAX, a, d01, 2, 0, 0, &r, NULL) ==
          CRT_STATUS_INVALID_ARGUMENT);
    CHECK(crt_tensor_reduce(CRT_REDUCE_SUM, a, NULL, 2, 0, 0, &r, NULL) ==
          CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_reduce(CRT_REDUCE_SUM, a, s23, 1, 0, 0, &r, NULL) == CRT_STATUS_INDEX);
    CHECK(crt_tensor_reduce(CRT_REDUCE_SUM, NULL, d1, 1, 0, 0, &r, NULL) ==
          CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_softmax(a, 5, &r, NULL) == CRT_STATUS_INDEX && r == NULL);

    /* Reductions into an existing tensor: row sums of a into float64 (converted), the
     * argmax of every element into a 0-d int64; a wrong shape and a NULL dims list are
     * refused with out left as it was. */
    {
        crt_tensor *out = NULL, *idx = NULL;
        const double sums[2] = {3, 12}, unchanged[2] = {0, 0}, arg[1] = {5};
        CHECK(crt_tensor_zeros(s2, 1, CRT_DTYPE_FLOAT64, &out, NULL) == CRT_STATUS_OK);
        CHECK(crt_tensor_reduce_into(CRT_REDUCE_SUM, a, d0, 1, 0, 0, out, NULL) ==
              CRT_STATUS_INVALID_SHAPE);
        CHECK(crt_tensor_reduce_into(CRT_REDUCE_SUM, a, NULL, 1, 0, 0, out, NULL) ==
              CRT_STATUS_NULL_POINTER);
        CHECK(values_near(out, unchanged, 2));
        CHECK(crt_tensor_reduce_into(CRT_REDUCE_SUM, a, d1, 1, 0, 0, out, NULL) == CRT_STATUS_OK);
        CHECK(dtype_of(out) == CRT_DTYPE_FLOAT64 && values_near(out, sums, 2));
        CHECK(crt_tensor_zeros(s2, 0, CRT_DTYPE_INT64, &idx, NULL) == CRT_STATUS_OK);
        CHECK(crt_tensor_reduce_all_into(CRT_REDUCE_ARGMAX, a, 0, idx, NULL) == CRT_STATUS_OK);
        CHECK(values_near(idx, arg, 1));
        CHECK(crt_tensor_reduce_all_into(CRT_REDUCE_SUM, a, 0, out, NULL) ==
              CRT_STATUS_INVALID_SHAPE);
        CHECK(crt_tensor_reduce_all_into(CRT_REDUCE_SUM, a, 0, NULL, NULL) ==
              CRT_STATUS_NULL_POINTER);
        crt_tensor_free(out);
        crt_tensor_free(idx);
    }
    crt_tensor_free(a);
    crt_tensor_free(n);
    crt_tensor_free(i);
    printf("ok    unary ops, reductions over dims with keepdim and into out, softmax, bad input\n");
}

static void test_matmul_join_select(void) {
    const float av[6] = {0, 1, 2, 3, 4, 5};
    const int64_t s23[2] = {2, 3}, s22[2] = {2, 2}, s43[2] = {4, 3}, s223[3] = {2, 2, 3};
    const int64_t s1[1] = {1};
    crt_tensor *a = f32_tensor(av, s23, 2), *at = NULL, *r = NULL, *zero = NULL, *cond = NULL;
    uint8_t contiguous = 1;
    CHECK(crt_tensor_transpose(a, 0, 1, &at, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_is_contiguous(at, &contiguous, NULL) == CRT_STATUS_OK && contiguous == 0);
    /* A (2x3) times its transposed view (3x2): [[5, 14], [14, 50]]. */
    CHECK(crt_tensor_matmul(a, at, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[4] = {5, 14, 14, 50};
        CHECK(has_shape(r, s22, 2) && values_near(r, want, 4));
    }
    crt_tensor_free(r);
    CHECK(crt_tensor_matmul(a, a, &r, NULL) == CRT_STATUS_INVALID_SHAPE && r == NULL);
    CHECK(crt_tensor_matmul(a, NULL, &r, NULL) == CRT_STATUS_NULL_POINTER);

    {
        const crt_tensor *two[2];
        const crt_tensor *with_null[2];
        two[0] = a;
        two[1] = a;
        with_null[0] = a;
        with_null[1] = NULL;
        CHECK(crt_tensor_cat(two, 2, 0, &r, NULL) == CRT_STATUS_OK);
        {
            const double want[12] = {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5};
            CHECK(has_shape(r, s43, 2) && values_near(r, want, 12));
        }
        crt_tensor_free(r);
        CHECK(crt_tensor_stack(two, 2, 0, &r, NULL) == CRT_STATUS_OK);
        CHECK(has_shape(r, s223, 3));
        crt_tensor_free(r);
        two[1] = at;
        CHECK(crt_tensor_cat(two, 2, 0, &r, NULL) == CRT_STATUS_INVALID_SHAPE && r == NULL);
        CHECK(crt_tensor_cat(with_null, 2, 0, &r, NULL) == CRT_STATUS_NULL_POINTER);
        CHECK(crt_tensor_cat(NULL, 2, 0, &r, NULL) == CRT_STATUS_NULL_POINTER);
        CHECK(crt_tensor_cat(two, 0, 0, &r, NULL) == CRT_STATUS_INVALID_ARGUMENT);
    }

    /* where(a > 2, a, 0) and clamp(a, 1, 4). */
    CHECK(crt_tensor_binary_scalar(CRT_BINARY_GT, a, int_scalar(2), &cond, NULL) ==
          CRT_STATUS_OK);
    CHECK(crt_tensor_zeros(s1, 1, CRT_DTYPE_FLOAT32, &zero, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_where(cond, a, zero, &r, NULL) == CRT_STATUS_OK);
    {
        const double want[6] = {0, 0, 0, 3, 4, 5};
        CHECK(has_shape(r, s23, 2) && values_near(r, want, 6));
    }
    crt_tensor_free(r);
    CHECK(crt_tensor_where(NULL, a, zero, &r, NULL) == CRT_STATUS_NULL_POINTER);
    {
        const crt_scalar lo = int_scalar(1), hi = float_scalar(4.0);
        CHECK(crt_tensor_clamp(a, &lo, &hi, &r, NULL) == CRT_STATUS_OK);
        {
            const double want[6] = {1, 1, 2, 3, 4, 4};
            CHECK(values_near(r, want, 6));
        }
        crt_tensor_free(r);
        CHECK(crt_tensor_clamp(a, NULL, &lo, &r, NULL) == CRT_STATUS_OK);
        {
            const double want[6] = {0, 1, 1, 1, 1, 1};
            CHECK(values_near(r, want, 6));
        }
        crt_tensor_free(r);
    }
    {
        /* Operands mixing tensors and numbers: where(a > 2, a, 0.5); clamp(a, min=zero + 2). */
        crt_operand ta = {a, {0}}, half = {NULL, float_scalar(0.5)};
        crt_operand bad = {NULL, {7, 0, 0.0}};
        crt_tensor *two = NULL;
        CHECK(crt_tensor_where_operands(cond, ta, half, &r, NULL) == CRT_STATUS_OK);
        {
            const double want[6] = {0.5, 0.5, 0.5, 3, 4, 5};
            CHECK(has_shape(r, s23, 2) && values_near(r, want, 6));
        }
        crt_tensor_free(r);
        CHECK(crt_tensor_where_operands(cond, ta, bad, &r, NULL) ==
              CRT_STATUS_INVALID_ARGUMENT);
        CHECK(r == NULL);
        CHECK(crt_tensor_binary_scalar(CRT_BINARY_ADD, zero, int_scalar(2), &two, NULL) ==
              CRT_STATUS_OK);
        {
            const crt_operand lo = {two, {0}};
            CHECK(crt_tensor_clamp_operands(a, &lo, NULL, &r, NULL) == CRT_STATUS_OK);
            const double want[6] = {2, 2, 2, 3, 4, 5};
            CHECK(values_near(r, want, 6));
            crt_tensor_free(r);
        }
        crt_tensor_free(two);
    }
    {
        /* Indexing: index_select along dim 1, masked_select, nonzero, masked_fill_. */
        const int64_t picks[2] = {2, -3};
        const int64_t s2[1] = {2};
        crt_tensor *ix = NULL, *copy = NULL, *nz = NULL;
        CHECK(crt_tensor_from_data(picks, sizeof picks, s2, 1, CRT_DTYPE_INT64, &ix, NULL) ==
              CRT_STATUS_OK);
        CHECK(crt_tensor_index_select(a, 1, ix, &r, NULL) == CRT_STATUS_OK);
        {
            const double want[4] = {2, 0, 5, 3};
            CHECK(values_near(r, want, 4));
        }
        crt_tensor_free(r);
        CHECK(crt_tensor_index_select(a, 2, ix, &r, NULL) != CRT_STATUS_OK && r == NULL);
        CHECK(crt_tensor_masked_select(a, cond, &r, NULL) == CRT_STATUS_OK);
        {
            const double want[3] = {3, 4, 5};
            CHECK(values_near(r, want, 3));
        }
        crt_tensor_free(r);
        CHECK(crt_tensor_nonzero(cond, &nz, NULL) == CRT_STATUS_OK);
        {
            const double want[6] = {1, 0, 1, 1, 1, 2};
            CHECK(values_near(nz, want, 6));
        }
        CHECK(crt_tensor_binary_scalar(CRT_BINARY_ADD, a, int_scalar(0), &copy, NULL) ==
              CRT_STATUS_OK);
        CHECK(crt_tensor_masked_fill_(copy, cond, int_scalar(-1), NULL) == CRT_STATUS_OK);
        {
            const double want[6] = {0, 1, 2, -1, -1, -1};
            CHECK(values_near(copy, want, 6));
        }
        CHECK(crt_tensor_masked_fill_(copy, NULL, int_scalar(0), NULL) ==
              CRT_STATUS_NULL_POINTER);
        {
            /* gather along dim 1, and scatter the picks back (in place, into a copy, adding). */
            const int64_t gi[4] = {2, 2, 0, -1};
            const int64_t gs[2] = {2, 2};
            crt_tensor *g = NULL, *sc = NULL;
            CHECK(crt_tensor_from_data(gi, sizeof gi, gs, 2, CRT_DTYPE_INT64, &g, NULL) ==
                  CRT_STATUS_OK);
            CHECK(crt_tensor_gather(a, 1, g, &r, NULL) == CRT_STATUS_OK);
            {
                const double want[4] = {2, 2, 3, 5};
                CHECK(values_near(r, want, 4));
            }
            CHECK(crt_tensor_scatter(a, 1, g, r, 1, &sc, NULL) == CRT_STATUS_OK);
            {
                const double want[6] = {0, 1, 6, 6, 4, 10};
                CHECK(values_near(sc, want, 6));
            }
            crt_tensor_free(sc);
            CHECK(crt_tensor_scatter(a, 1, g, r, 0, &sc, NULL) == CRT_STATUS_OK);
            {
                const double want[6] = {0, 1, 2, 3, 4, 5};
                CHECK(values_near(sc, want, 6));
            }
            crt_tensor_free(sc);
            CHECK(crt_tensor_scatter_(copy, 1, g, r, 1, NULL) == CRT_STATUS_OK);
            {
                const double want[6] = {0, 1, 6, 2, -1, 4};
                CHECK(values_near(copy, want, 6));
            }
            /* A 1-D index into a 2-D tensor: refused, nothing made. */
            CHECK(crt_tensor_gather(a, 1, ix, &sc, NULL) == CRT_STATUS_INVALID_ARGUMENT &&
                  sc == NULL);
            CHECK(crt_tensor_scatter_(copy, 1, ix, r, 0, NULL) == CRT_STATUS_INVALID_ARGUMENT);
            crt_tensor_free(r);
            crt_tensor_free(g);
        }
        {
            /* index_add along dim 1 of the index_select picks ({2, 0, 5, 3}): columns 2 and 0
             * take alpha times source columns 0 and 1. */
            crt_tensor *src = NULL, *ia = NULL;
            CHECK(crt_tensor_index_select(a, 1, ix, &src, NULL) == CRT_STATUS_OK);
            CHECK(crt_tensor_index_add(a, 1, ix, src, int_scalar(2), &ia, NULL) == CRT_STATUS_OK);
            {
                const double want[6] = {0, 1, 6, 9, 4, 15};
                CHECK(has_shape(ia, s23, 2) && values_near(ia, want, 6));
            }
            crt_tensor_free(ia);
            CHECK(crt_tensor_index_add_(copy, 1, ix, src, float_scalar(1.0), NULL) ==
                  CRT_STATUS_OK);
            {
                const double want[6] = {0, 1, 8, 5, -1, 9};
                CHECK(values_near(copy, want, 6));
            }
            /* The source must have the index's length along dim: refused, nothing written. */
            CHECK(crt_tensor_index_add(a, 0, ix, src, int_scalar(1), &ia, NULL) ==
                      CRT_STATUS_INVALID_SHAPE &&
                  ia == NULL);
            CHECK(crt_tensor_index_add_(copy, 1, src, src, int_scalar(1), NULL) ==
                  CRT_STATUS_INVALID_ARGUMENT);
            {
                const double want[6] = {0, 1, 8, 5, -1, 9};
                CHECK(values_near(copy, want, 6));
            }
            crt_tensor_free(src);
        }
        {
            /* bincount of {3, 0, 3, 1} read every other element of a strided view, with
             * minlength 6; weights sum per bin in Float64; a negative value is refused. */
            const int64_t vals[8] = {3, 9, 0, 9, 3, 9, 1, 9};
            const int64_t n8[1] = {8};
            const double w[4] = {0.5, 1.0, 2.0, 4.0};
            const int64_t n4[1] = {4};
            crt_tensor *all = NULL, *every = NULL, *bc = NULL, *wt = NULL, *neg = NULL;
            CHECK(crt_tensor_from_data(vals, sizeof vals, n8, 1, CRT_DTYPE_INT64, &all, NULL) ==
                  CRT_STATUS_OK);
            CHECK(crt_tensor_slice(all, 0, NULL, NULL, 2, &every, NULL) == CRT_STATUS_OK);
            CHECK(crt_tensor_bincount(every, NULL, 6, &bc, NULL) == CRT_STATUS_OK);
            {
                const double want[6] = {1, 1, 0, 2, 0, 0};
                CHECK(dtype_of(bc) == CRT_DTYPE_INT64 && values_near(bc, want, 6));
            }
            crt_tensor_free(bc);
            CHECK(crt_tensor_from_data(w, sizeof w, n4, 1, CRT_DTYPE_FLOAT64, &wt, NULL) ==
                  CRT_STATUS_OK);
            CHECK(crt_tensor_bincount(every, wt, 0, &bc, NULL) == CRT_STATUS_OK);
            {
                const double want[4] = {1.0, 4.0, 0, 2.5};
                CHECK(dtype_of(bc) == CRT_DTYPE_FLOAT64 && values_near(bc, want, 4));
            }
            crt_tensor_free(bc);
            bc = NULL;
            CHECK(crt_tensor_bincount(all, wt, 0, &bc, NULL) == CRT_STATUS_INVALID_SHAPE &&
                  bc == NULL);
            CHECK(crt_tensor_bincount(every, NULL, -1, &bc, NULL) ==
                      CRT_STATUS_INVALID_ARGUMENT &&
                  bc == NULL);
            CHECK(crt_tensor_unary(CRT_UNARY_NEG, every, &neg, NULL) == CRT_STATUS_OK);
            CHECK(crt_tensor_bincount(neg, NULL, 0, &bc, NULL) == CRT_STATUS_INVALID_ARGUMENT &&
                  bc == NULL);
            CHECK(crt_tensor_bincount(NULL, NULL, 0, &bc, NULL) == CRT_STATUS_NULL_POINTER);
            {
                /* Element 4 (value 1) broadcast to five entries counts five times, with a
                 * broadcast weight too; an empty input gives minlength zeros (none
                 * without it). */
                const int64_t n5[1] = {5}, n0[1] = {0};
                crt_tensor *one = NULL, *five = NULL, *w1 = NULL, *w5 = NULL, *none = NULL;
                size_t numel = 1;
                CHECK(crt_tensor_slice(every, 0, &(int64_t){3}, NULL, 1, &one, NULL) ==
                      CRT_STATUS_OK);
                CHECK(crt_tensor_expand(one, n5, 1, &five, NULL) == CRT_STATUS_OK);
                CHECK(crt_tensor_bincount(five, NULL, 0, &bc, NULL) == CRT_STATUS_OK);
                {
                    const double want[2] = {0, 5};
                    CHECK(values_near(bc, want, 2));
                }
                crt_tensor_free(bc);
                CHECK(crt_tensor_slice(wt, 0, &(int64_t){1}, &(int64_t){2}, 1, &w1, NULL) ==
                      CRT_STATUS_OK);
                CHECK(crt_tensor_expand(w1, n5, 1, &w5, NULL) == CRT_STATUS_OK);
                CHECK(crt_tensor_bincount(five, w5, 3, &bc, NULL) == CRT_STATUS_OK);
                {
                    const double want[3] = {0, 5.0, 0};
                    CHECK(values_near(bc, want, 3));
                }
                crt_tensor_free(bc);
                CHECK(crt_tensor_empty(n0, 1, CRT_DTYPE_INT64, &none, NULL) == CRT_STATUS_OK);
                CHECK(crt_tensor_bincount(none, NULL, 3, &bc, NULL) == CRT_STATUS_OK);
                {
                    const double want[3] = {0, 0, 0};
                    CHECK(dtype_of(bc) == CRT_DTYPE_INT64 && values_near(bc, want, 3));
                }
                crt_tensor_free(bc);
                CHECK(crt_tensor_bincount(none, NULL, 0, &bc, NULL) == CRT_STATUS_OK &&
                      crt_tensor_numel(bc, &numel, NULL) == CRT_STATUS_OK && numel == 0);
                crt_tensor_free(bc);
                bc = NULL;
                crt_tensor_free(none);
                crt_tensor_free(w5);
                crt_tensor_free(w1);
                crt_tensor_free(five);
                crt_tensor_free(one);
            }
            {
                /* histc over a strided view of {0, 1, 2, 3, 4} (Float64): 4 bins over [1, 3]
                 * count 1, 2 and 3 (3 in the last bin), 0 and 4 nowhere; the data's own
                 * range; errors. */
                const double hv[10] = {0, 9, 1, 9, 2, 9, 3, 9, 4, 9};
                const int64_t n10[1] = {10};
                crt_tensor *h = NULL, *hs = NULL, *hist = NULL;
                CHECK(crt_tensor_from_data(hv, sizeof hv, n10, 1, CRT_DTYPE_FLOAT64, &h, NULL) ==
                      CRT_STATUS_OK);
                CHECK(crt_tensor_slice(h, 0, NULL, NULL, 2, &hs, NULL) == CRT_STATUS_OK);
                CHECK(crt_tensor_histc(hs, 4, 1.0, 3.0, &hist, NULL) == CRT_STATUS_OK);
                {
                    const double want[4] = {1, 0, 1, 1};
                    CHECK(dtype_of(hist) == CRT_DTYPE_FLOAT64 && values_near(hist, want, 4));
                }
                crt_tensor_free(hist);
                CHECK(crt_tensor_histc(hs, 2, 0.0, 0.0, &hist, NULL) == CRT_STATUS_OK);
                {
                    const double want[2] = {2, 3};
                    CHECK(values_near(hist, want, 2));
                }
                crt_tensor_free(hist);
                {
                    /* Broadcast (element 2, value 2, expanded to 5) and empty inputs. */
                    const int64_t n5[1] = {5}, n0[1] = {0};
                    crt_tensor *h1 = NULL, *h5 = NULL, *h0 = NULL;
                    CHECK(crt_tensor_slice(hs, 0, &(int64_t){2}, &(int64_t){3}, 1, &h1, NULL) ==
                          CRT_STATUS_OK);
                    CHECK(crt_tensor_expand(h1, n5, 1, &h5, NULL) == CRT_STATUS_OK);
                    CHECK(crt_tensor_histc(h5, 4, 1.0, 3.0, &hist, NULL) == CRT_STATUS_OK);
                    {
                        const double want[4] = {0, 0, 5, 0};
                        CHECK(values_near(hist, want, 4));
                    }
                    crt_tensor_free(hist);
                    CHECK(crt_tensor_empty(n0, 1, CRT_DTYPE_FLOAT32, &h0, NULL) == CRT_STATUS_OK);
                    CHECK(crt_tensor_histc(h0, 3, 0.0, 0.0, &hist, NULL) == CRT_STATUS_OK);
                    {
                        const double want[3] = {0, 0, 0};
                        CHECK(dtype_of(hist) == CRT_DTYPE_FLOAT32 && values_near(hist, want, 3));
                    }
                    crt_tensor_free(hist);
                    crt_tensor_free(h0);
                    crt_tensor_free(h5);
                    crt_tensor_free(h1);
                }
                hist = NULL;
                CHECK(crt_tensor_histc(hs, 0, 0.0, 0.0, &hist, NULL) ==
                          CRT_STATUS_INVALID_ARGUMENT &&
                      hist == NULL);
                CHECK(crt_tensor_histc(hs, 4, 3.0, 1.0, &hist, NULL) ==
                          CRT_STATUS_INVALID_ARGUMENT &&
                      hist == NULL);
                CHECK(crt_tensor_histc(every, 4, 0.0, 0.0, &hist, NULL) ==
                          CRT_STATUS_INVALID_ARGUMENT &&
                      hist == NULL);
                CHECK(crt_tensor_histc(NULL, 4, 0.0, 0.0, &hist, NULL) == CRT_STATUS_NULL_POINTER);
                crt_tensor_free(hs);
                crt_tensor_free(h);
            }
            crt_tensor_free(neg);
            crt_tensor_free(wt);
            crt_tensor_free(every);
            crt_tensor_free(all);
        }
        crt_tensor_free(nz);
        crt_tensor_free(copy);
        crt_tensor_free(ix);
    }
    crt_tensor_free(cond);
    crt_tensor_free(zero);
    crt_tensor_free(at);
    crt_tensor_free(a);
    printf("ok    matmul of a transposed view, cat/stack, where, clamp\n");
}

static void test_in_place_through_views(void) {
    const int64_t s23[2] = {2, 3}, s3[1] = {3}, s2[1] = {2};
    const float addv[3] = {1, 2, 3};
    float ro_buf[3] = {1, 2, 3};
    crt_tensor *t = NULL, *row = NULL, *col = NULL, *add = f32_tensor(addv, s3, 1), *ro = NULL;
    crt_tensor *wrong = NULL;
    crt_blob_options opts;
    CHECK(crt_tensor_zeros(s23, 2, CRT_DTYPE_FLOAT32, &t, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_select(t, 0, 1, &row, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_fill_(row, 7.0, NULL) == CRT_STATUS_OK);
    {
        const double want[6] = {0, 0, 0, 7, 7, 7};
        CHECK(values_near(t, want, 6));
    }
    CHECK(crt_tensor_binary_scalar_(CRT_BINARY_MUL, row, int_scalar(2), NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_binary_(CRT_BINARY_ADD, row, add, NULL) == CRT_STATUS_OK);
    {
        const double want[6] = {0, 0, 0, 15, 16, 17};
        CHECK(values_near(t, want, 6));
    }
    /* A column (strided view) gets a broadcast copy. */
    CHECK(crt_tensor_select(t, 1, 0, &col, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_copy_(col, add, NULL) == CRT_STATUS_INVALID_SHAPE);
    {
        crt_tensor *two = NULL;
        CHECK(crt_tensor_narrow(add, 0, 1, 2, &two, NULL) == CRT_STATUS_OK);
        CHECK(crt_tensor_copy_(col, two, NULL) == CRT_STATUS_OK);
        crt_tensor_free(two);
    }
    CHECK(crt_tensor_binary_scalar_(CRT_BINARY_DIV, t, float_scalar(2.0), NULL) == CRT_STATUS_OK);
    {
        const double want[6] = {1, 0, 0, 1.5, 8, 8.5};
        CHECK(values_near(t, want, 6));
    }
    /* An Int32 tensor cannot hold a true division's Float32 result in place (numpy and
       PyTorch refuse too): CRT_STATUS_DTYPE, nothing written; floor division works. */
    {
        crt_tensor *it = NULL;
        int64_t shape1[1] = {2};
        CHECK(crt_tensor_full(shape1, 1, 7.0, CRT_DTYPE_INT32, &it, NULL) == CRT_STATUS_OK);
        CHECK(crt_tensor_binary_scalar_(CRT_BINARY_DIV, it, int_scalar(2), NULL) == CRT_STATUS_DTYPE);
        CHECK(crt_tensor_binary_scalar_(CRT_BINARY_ADD, it, float_scalar(0.5), NULL) == CRT_STATUS_DTYPE);
        {
            const double want[2] = {7, 7};
            CHECK(values_near(it, want, 2));
        }
        CHECK(crt_tensor_binary_scalar_(CRT_BINARY_FLOOR_DIVIDE, it, int_scalar(2), NULL) == CRT_STATUS_OK);
        {
            const double want[2] = {3, 3};
            CHECK(dtype_of(it) == CRT_DTYPE_INT32 && values_near(it, want, 2));
        }
        CHECK(crt_tensor_binary_scalar_(CRT_BINARY_REMAINDER, it, int_scalar(0), NULL) == CRT_STATUS_INVALID_ARGUMENT);
        crt_tensor_free(it);
    }
    /* Bad input: read-only memory, a shape that does not broadcast, NULLs, unknown op. */
    memset(&opts, 0, sizeof opts);
    opts.flags = CRT_BLOB_READ_ONLY;
    CHECK(crt_tensor_from_blob(ro_buf, s3, 1, NULL, CRT_DTYPE_FLOAT32, &opts, &ro, NULL) ==
          CRT_STATUS_OK);
    {
        uint8_t writable = 2;
        CHECK(crt_tensor_is_writable(ro, &writable, NULL) == CRT_STATUS_OK && writable == 0);
        CHECK(crt_tensor_is_writable(t, &writable, NULL) == CRT_STATUS_OK && writable == 1);
        CHECK(crt_tensor_is_writable(NULL, &writable, NULL) == CRT_STATUS_NULL_POINTER);
    }
    CHECK(crt_tensor_fill_(ro, 1.0, NULL) == CRT_STATUS_READ_ONLY);
    CHECK(crt_tensor_binary_(CRT_BINARY_ADD, ro, add, NULL) == CRT_STATUS_READ_ONLY);
    CHECK(ro_buf[0] == 1.0F && ro_buf[2] == 3.0F);
    CHECK(crt_tensor_zeros(s2, 1, CRT_DTYPE_FLOAT32, &wrong, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_binary_(CRT_BINARY_ADD, row, wrong, NULL) == CRT_STATUS_INVALID_SHAPE);
    CHECK(crt_tensor_binary_(CRT_BINARY_ADD, row, t, NULL) == CRT_STATUS_INVALID_SHAPE);
    CHECK(crt_tensor_binary_(77, row, add, NULL) == CRT_STATUS_INVALID_ARGUMENT);
    CHECK(crt_tensor_fill_(NULL, 1.0, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_copy_(row, NULL, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_binary_(CRT_BINARY_ADD, row, NULL, NULL) == CRT_STATUS_NULL_POINTER);
    {
        const double want[6] = {1, 0, 0, 1.5, 8, 8.5};
        CHECK(values_near(t, want, 6));
    }
    crt_tensor_free(wrong);
    crt_tensor_free(ro);
    crt_tensor_free(col);
    crt_tensor_free(row);
    crt_tensor_free(add);
    crt_tensor_free(t);
    printf("ok    in place through views: fill_, copy_, op_ visible through the parent\n");
}

/* sort (two out handles), topk, unique with optional outputs, a seeded generator. */
static void test_sort_unique_random(void) {
    float buf[5] = {3.0F, 1.0F, 2.0F, 1.0F, 5.0F};
    int64_t shape[1] = {5};
    crt_tensor *t = NULL, *v = NULL, *i = NULL, *first = NULL, *u = NULL, *c = NULL;
    crt_tensor *a = NULL, *b = NULL;
    crt_generator *g = NULL;
    int64_t zero = 0;
    float x = 0.0F, y = 0.0F;
    CHECK(crt_tensor_from_blob(buf, shape, 1, NULL, CRT_DTYPE_FLOAT32, NULL, &t, NULL) ==
          CRT_STATUS_OK);
    CHECK(crt_tensor_sort(t, 0, 1, 1, &v, &i, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_select(v, 0, 0, &first, NULL) == CRT_STATUS_OK && item_f32(first) == 5.0F);
    crt_tensor_free(first);
    crt_tensor_free(v);
    crt_tensor_free(i);
    CHECK(crt_tensor_topk(t, 9, 0, 1, 1, &v, &i, NULL) == CRT_STATUS_INVALID_ARGUMENT);
    CHECK(v == NULL && i == NULL);
    CHECK(crt_tensor_unique(t, &u, NULL, &c, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_select(u, 0, zero, &first, NULL) == CRT_STATUS_OK && item_f32(first) == 1.0F);
    crt_tensor_free(first);
    crt_tensor_free(u);
    crt_tensor_free(c);
    CHECK(crt_generator_new(7, &g, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_random(g, 0, 0.0, 1.0, NULL, 0, CRT_DTYPE_FLOAT32, &a, NULL) == CRT_STATUS_OK);
    crt_generator_manual_seed(g, 7);
    CHECK(crt_tensor_random(g, 0, 0.0, 1.0, NULL, 0, CRT_DTYPE_FLOAT32, &b, NULL) == CRT_STATUS_OK);
    x = item_f32(a);
    y = item_f32(b);
    CHECK(x == y && x >= 0.0F && x < 1.0F);
    crt_tensor_free(a);
    CHECK(crt_tensor_random(g, 9, 0.0, 1.0, NULL, 0, CRT_DTYPE_FLOAT32, &a, NULL) == CRT_STATUS_INVALID_ARGUMENT);
    CHECK(a == NULL);
    crt_tensor_free(b);
    crt_generator_free(g);
    crt_tensor_free(t);
}

/* DLPack from C: a producer's managed tensor becomes a tensor (same memory; its deleter runs
 * once, when the last tensor goes), and a tensor's export is read by a consumer. */
static int dl_deleted = 0;
static void dl_delete(DLManagedTensorVersioned *self) {
    ++dl_deleted;
    free(self->dl_tensor.data);
    free(self);
}

static void test_dlpack_round_trip(void) {
    int64_t shape[2] = {2, 3};
    DLManagedTensorVersioned *m = calloc(1, sizeof *m);
    DLManagedTensorVersioned *e = NULL;
    crt_tensor *t = NULL, *view = NULL, *s = NULL;
    double *data = malloc(6 * sizeof *data);
    double total = -1.0;
    void *p = NULL;
    int i;
    if (m == NULL || data == NULL) {
        free(m);
        free(data);
        CHECK(0);
        return;
    }
    for (i = 0; i < 6; ++i) data[i] = (double)i;
    m->version.major = 1;
    m->deleter = dl_delete;
    m->dl_tensor.data = data;
    m->dl_tensor.device.device_type = TEST_DL_CPU;
    m->dl_tensor.ndim = 2;
    m->dl_tensor.dtype.code = TEST_DL_FLOAT;
    m->dl_tensor.dtype.bits = 64;
    m->dl_tensor.dtype.lanes = 1;
    m->dl_tensor.shape = shape; /* read during the import only */
    m->dl_tensor.strides = NULL; /* row-major */
    CHECK(crt_tensor_from_dlpack(NULL, &t, NULL) == CRT_STATUS_NULL_POINTER && t == NULL);
    CHECK(crt_tensor_from_dlpack(m, &t, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_data_ptr(t, &p, NULL) == CRT_STATUS_OK && p == (void *)data);
    CHECK(crt_tensor_transpose(t, 0, 1, &view, NULL) == CRT_STATUS_OK);
    crt_tensor_free(t);
    CHECK(dl_deleted == 0);
    CHECK(crt_tensor_sum(view, &s, NULL) == CRT_STATUS_OK);
    CHECK(crt_tensor_item(s, CRT_DTYPE_FLOAT64, &total, NULL) == CRT_STATUS_OK && total == 15.0);
    /* Export the view; the consumer reads it after the handle is gone. */
    CHECK(crt_tensor_to_dlpack(view, &e, NULL) == CRT_STATUS_OK && e != NULL);
    crt_tensor_free(view);
    crt_tensor_free(s);
    CHECK(dl_deleted == 0);
    if (e != NULL) {
        const double *base = (const double *)e->dl_tensor.data;
        CHECK(e->version.major == 1 && e->dl_tensor.ndim == 2 && e->dl_tensor.shape[0] == 3);
        CHECK(e->dl_tensor.strides[0] == 1 && e->dl_tensor.strides[1] == 3);
        CHECK(base == data && base[1 * e->dl_tensor.strides[0] + 1 * e->dl_tensor.strides[1]] == 4.0);
        e->deleter(e);
    }
    CHECK(dl_deleted == 1);
}

int main(void) {
    test_borrow_aliases();
    test_deleter_once_after_views();
    test_failed_from_blob_keeps_ownership();
    test_strided_roi();
    test_null_handles_and_out_pointers();
    test_panic_becomes_status();
    test_create_view_and_stats();
    test_binary_broadcast_and_promotion();
    test_results_keep_a_shared_permuted_layout();
    test_unary_and_reductions();
    test_matmul_join_select();
    test_in_place_through_views();
    test_sort_unique_random();
    test_dlpack_round_trip();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
