// Chapter 07 — a vision pipeline: a decoder's frame to a classification, without a copy.
//
//  * wrap: the decoder owns a pitched NV12 frame (each row padded to 384 bytes); the tensor
//    views it in place, with the pitch as its row stride;
//  * weights: a small convolutional network's safetensors file is mapped, not read;
//  * pipeline: NV12 -> RGB, an antialiased bilinear resize of the uint8 frame to 64x64, a
//    fused normalize to float32 NCHW, three convolutions, pooling, a linear layer, softmax;
//  * the answer is compared with PyTorch's for the same frame (examples/compute/data/
//    make_vision_net.py wrote both the weights and PyTorch's answers);
//  * frame 2 is decoded into the same buffer: the same tensor sees it, and the pool serves
//    the whole second frame from the blocks the first one gave back.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <ClikaRT/clika_rt.h>

using ClikaRT::DataType;
using ClikaRT::Device;
using ClikaRT::Tensor;
namespace ops = ClikaRT::ops;

namespace {

constexpr std::int64_t W = 320, H = 240, PITCH = 384, SIDE = 64;
const std::vector<float> MEAN = {0.485f, 0.456f, 0.406f};
const std::vector<float> STD = {0.229f, 0.224f, 0.225f};
const char* const CLASSES[] = {"plane", "car",  "bird",  "cat",  "deer",
                               "dog",   "frog", "horse", "ship", "truck"};

const char* yes(bool b) { return b ? "yes" : "no"; }

std::string dims(const ClikaRT::Shape& s) {
    std::string out = "[";
    for (std::size_t i = 0; i < s.size(); ++i) {
        out += (i ? ", " : "") + std::to_string(s[i]);
    }
    return out + "]";
}

// The "decoder": writes frame k into its own buffer (rows of PITCH bytes).
void decode(std::vector<std::uint8_t>& buf, std::int64_t k) {
    for (std::int64_t r = 0; r < H; ++r) {
        for (std::int64_t c = 0; c < W; ++c) {
            buf[r * PITCH + c] =
                static_cast<std::uint8_t>(16 + (r * (5 + 2 * k) + c * (3 + 4 * k) + 17 * k) % 200);
        }
    }
    for (std::int64_t r = 0; r < H / 2; ++r) {
        for (std::int64_t c = 0; c < W / 2; ++c) {
            const std::int64_t row = (H + r) * PITCH;
            buf[row + 2 * c] = static_cast<std::uint8_t>(96 + (r * 5 + c * 3 + 31 * k) % 64);
            buf[row + 2 * c + 1] = static_cast<std::uint8_t>(96 + (r * 2 + c * 7 + 13 * k) % 64);
        }
    }
}

using Weights = std::map<std::string, Tensor>;

Tensor conv(const Tensor& x, const Weights& w, const std::string& name, std::int64_t stride) {
    ops::ConvOptions o;
    o.stride = {stride, stride};
    o.padding = {1, 1};
    return ops::relu(ops::conv2d(x, w.at(name + ".weight"), w.at(name + ".bias"), o));
}

Tensor classify(const Tensor& frame, const Weights& w) {
    const Tensor rgb = ops::cvt_color(frame, ops::ColorConversion::YUV2RGB_NV12);  // (H, W, 3)
    ops::InterpolateOptions resize;
    resize.size = {SIDE, SIDE};
    resize.mode = ops::InterpolateMode::Linear;
    resize.antialias = true;
    const Tensor small = ops::interpolate(rgb.permute({2, 0, 1}).unsqueeze(0), resize);
    Tensor x = ops::normalize_image(small.permute({0, 2, 3, 1}), MEAN, STD);  // (1, 3, 64, 64)
    ops::PoolOptions pool;  // 2x2, stride 2
    x = ops::max_pool2d(conv(x, w, "conv1", 1), pool);
    x = ops::max_pool2d(conv(x, w, "conv2", 1), pool);
    x = conv(x, w, "conv3", 2);
    x = ops::adaptive_avg_pool2d(x, 1, 1).flatten(1);
    return ops::softmax(ops::linear(x, w.at("fc.weight"), w.at("fc.bias")), 1).select(0, 0);
}

using Top5 = std::vector<std::pair<std::int64_t, double>>;

void report(const Tensor& probs, const Top5& reference) {
    const auto top = ops::topk(probs, 5);
    const std::vector<std::int64_t> classes = top.indices.to_vector<std::int64_t>();
    const std::vector<float> values = top.values.to_vector<float>();
    std::printf("top-5: ");
    bool agree = reference.size() == classes.size();
    for (std::size_t i = 0; i < classes.size(); ++i) {
        std::printf("%s%s %.3f", i ? ", " : "", CLASSES[classes[i]], static_cast<double>(values[i]));
        agree = agree && classes[i] == reference[i].first &&
                std::fabs(static_cast<double>(values[i]) - reference[i].second) < 5e-3;
    }
    std::printf("\nsame classes as PyTorch, probabilities within 0.005: %s\n", yes(agree));
}

// PyTorch's answers: per frame, the top-5 as (class, probability).
std::map<std::int64_t, Top5> read_reference(const std::string& path) {
    std::map<std::int64_t, Top5> out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string word;
        std::int64_t k = 0;
        words >> word >> k >> word;  // "frame", K, ":"-less rest follows
        Top5 top;
        while (words >> word) {
            const auto colon = word.find(':');
            top.emplace_back(std::stoll(word.substr(0, colon)), std::stod(word.substr(colon + 1)));
        }
        out[k] = top;
    }
    return out;
}

}  // namespace

int main() {
    // The data folder beside this chapter's folder (the bundle compiles the source by its path).
    std::string here = __FILE__;
    const std::string data = here.substr(0, here.rfind('/')) + "/../data/";
    const auto reference = read_reference(data + "vision_net_reference.txt");

    std::printf("-- wrap: a pitched NV12 frame (%lldx%lld, row pitch %lld) that the decoder owns\n",
                static_cast<long long>(W), static_cast<long long>(H), static_cast<long long>(PITCH));
    std::vector<std::uint8_t> buf(static_cast<std::size_t>(H * 3 / 2 * PITCH));  // the decoder's
    const Tensor frame = Tensor::from_blob(buf.data(), {H * 3 / 2, W}, {PITCH, 1});
    std::printf("frame tensor %s uint8, strides %s, data is the decoder's buffer: %s\n",
                dims(frame.shape()).c_str(), dims(frame.strides()).c_str(),
                yes(frame.data_ptr() == buf.data()));

    std::printf("-- weights: mapped from vision_net.safetensors\n");
    const std::uint64_t before = ClikaRT::device::memory_stats().active_bytes;
    Weights weights;
    for (auto& [name, t] : ClikaRT::load_safetensors(data + "vision_net.safetensors")) {
        weights.emplace(name, std::move(t));
    }
    std::int64_t params = 0;
    for (const auto& [name, t] : weights) params += t.numel();
    std::printf("%zu tensors, %lld parameters, pool memory taken: %llu bytes\n", weights.size(),
                static_cast<long long>(params),
                static_cast<unsigned long long>(ClikaRT::device::memory_stats().active_bytes - before));

    ClikaRT::device::MemoryStats s1 = ClikaRT::device::memory_stats();
    for (std::int64_t k = 1; k <= 2; ++k) {
        if (k == 1) {
            std::printf("-- frame 1\n");
        } else {
            std::printf("-- frame 2, decoded into the same buffer\n");
            s1 = ClikaRT::device::memory_stats();
        }
        decode(buf, k);
        report(classify(frame, weights), reference.at(k));
    }
    const ClikaRT::device::MemoryStats s2 = ClikaRT::device::memory_stats();
    const std::uint64_t allocs = s2.allocation_count - s1.allocation_count;
    std::printf(
        "frame 2: new memory reserved from the system: %llu, every allocation served from the "
        "pool's cache: %s\n",
        static_cast<unsigned long long>(s2.os_reserve_count - s1.os_reserve_count),
        yes(allocs > 0 && s2.cache_hit_count - s1.cache_hit_count == allocs));
    return 0;
}
