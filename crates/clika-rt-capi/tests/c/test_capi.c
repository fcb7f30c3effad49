/* Tests of the C ABI from C: ownership (borrowed, adopted, failed construction), the panic
 * boundary, NULL handles and out-pointers, status codes. Compiled with -std=c11 -Wall -Wextra
 * -Werror -pedantic; run plainly, under ASan+UBSan and under valgrind by tests/run. Prints one
 * "ok"/"FAIL" line per check and ends with "N passed, M failed". */
#include <ClikaRT/clika_rt_c.h>

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
    CHECK(crt_tensor_shape(t, NULL, &n, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_item(t, CRT_DTYPE_FLOAT32, NULL, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_to_string(NULL, NULL, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_tensor_synchronize(NULL, NULL) == CRT_STATUS_NULL_POINTER);
    CHECK(crt_device_memory_stats((crt_device){CRT_DEVICE_CPU, 0}, NULL, NULL) ==
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
    CHECK(crt_device_release_cached_memory((crt_device){CRT_DEVICE_CPU, 0}, &released, NULL) ==
          CRT_STATUS_OK);
    CHECK(crt_device_release_cached_memory((crt_device){CRT_DEVICE_CPU, 3}, NULL, NULL) ==
          CRT_STATUS_INVALID_ARGUMENT);
    CHECK(strcmp(crt_version(), "0.1.0") == 0);
    printf("ok    creation, views, reductions, item, memory stats\n");
}

int main(void) {
    test_borrow_aliases();
    test_deleter_once_after_views();
    test_failed_from_blob_keeps_ownership();
    test_strided_roi();
    test_null_handles_and_out_pointers();
    test_panic_becomes_status();
    test_create_view_and_stats();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
