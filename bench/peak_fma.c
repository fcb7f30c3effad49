/* What this machine's FP32 arithmetic allows: independent chains of 512-bit (or, without
 * AVX-512, 256-bit) fused multiply-adds on every thread, timed. bench/compare.py compiles it
 * with -O3 -march=native and quotes the result as the matmul row's limit, so the GFLOP/s of
 * matmul is read against the hardware actually measured (Zen 4, for example, runs 512-bit
 * FMAs at half the per-cycle rate of server Intel parts with two 512-bit FMA units).
 * Usage: peak_fma THREADS; prints GFLOP/s. */
#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHAINS 12
#define ROUNDS 20000000L

#if defined(__AVX512F__)
typedef __m512 vec;
#define LANES 16
#define SET1 _mm512_set1_ps
#define FMA _mm512_fmadd_ps
#define STORE _mm512_storeu_ps
#else
typedef __m256 vec;
#define LANES 8
#define SET1 _mm256_set1_ps
#define FMA _mm256_fmadd_ps
#define STORE _mm256_storeu_ps
#endif

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *chains(void *out) {
    vec acc[CHAINS];
    const vec b = SET1(1.0000001F), c = SET1(-1e-7F);
    for (int i = 0; i < CHAINS; ++i) acc[i] = SET1((float)i);
    for (long r = 0; r < ROUNDS; ++r)
        for (int i = 0; i < CHAINS; ++i) acc[i] = FMA(acc[i], b, c);
    float lanes[LANES], sum = 0;
    for (int i = 0; i < CHAINS; ++i) {
        STORE(lanes, acc[i]);
        for (int j = 0; j < LANES; ++j) sum += lanes[j];
    }
    *(float *)out = sum; /* keeps the work observable */
    return NULL;
}

int main(int argc, char **argv) {
    const int threads = argc > 1 ? atoi(argv[1]) : 1;
    if (threads < 1 || threads > 256) return 2;
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    float *sums = calloc((size_t)threads, sizeof *sums);
    if (ids == NULL || sums == NULL) return 1;
    double best = 0;
    for (int rep = 0; rep < 3; ++rep) {
        const double t0 = now();
        for (int i = 0; i < threads; ++i) pthread_create(&ids[i], NULL, chains, &sums[i]);
        for (int i = 0; i < threads; ++i) pthread_join(ids[i], NULL);
        const double flops = (double)threads * ROUNDS * CHAINS * LANES * 2.0;
        const double rate = flops / (now() - t0) / 1e9;
        if (rate > best) best = rate;
    }
    printf("%.1f\n", best);
    free(ids);
    free(sums);
    return 0;
}
