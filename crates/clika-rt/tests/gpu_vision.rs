//! The accelerators' image kernels (`interpolate`, `cvt_color`, `normalize_image`; wgpu's
//! `gpu:0` and `cuda:0`, each where it starts) against the CPU's,
//! which their own suites check against PyTorch's and OpenCV's definitions. Every input is
//! built as the same view of the same data on both devices — contiguous, pitched (rows
//! padded), permuted (channels-last or transposed), broadcast (stride 0), at an offset, and
//! empty — so the GPU reads each layout in place. `cvt_color` and `normalize_image` must give
//! the same bytes; `interpolate` the same values within float rounding (uint8 within 1, where
//! a fused multiply-add on one side moves a value across a rounding half). Conv and pooling
//! still refuse, naming the CPU. Skips (passing) where no accelerator starts.

#[path = "support/frames.rs"]
mod frames;
use clika_rt::ops::{
    self, ColorConversion as C, InterpolateMode as M, InterpolateOptions, YuvMatrix, YuvRange,
};
use clika_rt::{DType, Device, Tensor};
use frames::bytes;

/// The accelerators that start here (`gpu:0`, wgpu; `cuda:0`): each test body runs on each.
fn accelerators() -> Vec<Device> {
    [Device::gpu(0), Device::cuda(0)]
        .into_iter()
        .filter(
            |&d| match Tensor::zeros(&[1], DType::Float32).unwrap().to(d) {
                Ok(_) => true,
                Err(e) => {
                    eprintln!("skipped {d}: {e}");
                    false
                }
            },
        )
        .collect()
}

/// The same view of `base` on the CPU and on `gpu` (the base uploaded, then viewed there).
fn both(base: &Tensor, gpu: Device, view: &dyn Fn(&Tensor) -> Tensor) -> (Tensor, Tensor) {
    (view(base), view(&base.to(gpu).unwrap()))
}

/// The GPU's result brought back, after checking it is on the GPU.
fn back(t: Tensor, gpu: Device) -> Tensor {
    assert_eq!(t.device(), gpu);
    t.to(Device::cpu()).unwrap()
}

type View = Box<dyn Fn(&Tensor) -> Tensor>;

/// Views of a 4-D `[a, b, c, d]` base over the layouts above: `(name, base shape, view)`,
/// each view 4-D with the same shape as the contiguous one (but for the empty ones).
fn layouts(shape: [usize; 4]) -> Vec<(&'static str, Vec<usize>, View)> {
    let [a, b, c, d] = shape;
    vec![
        (
            "contiguous",
            vec![a, b, c, d],
            Box::new(|t: &Tensor| t.clone()),
        ),
        (
            "pitched",
            vec![a, b, c + 3, d],
            Box::new(move |t: &Tensor| t.narrow(2, 1, c).unwrap()),
        ),
        (
            "permuted",
            vec![a, d, b, c],
            Box::new(|t: &Tensor| t.permute(&[0, 2, 3, 1]).unwrap()),
        ),
        (
            "broadcast",
            vec![1, b, c, d],
            Box::new(move |t: &Tensor| t.expand(&[a as isize, -1, -1, -1]).unwrap()),
        ),
        (
            "empty",
            vec![a, b, c, d],
            Box::new(|t: &Tensor| t.narrow(0, 0, 0).unwrap()),
        ),
    ]
}

#[test]
fn normalize_image_gives_the_cpus_bytes_on_every_layout() {
    for gpu in accelerators() {
        let (mean, std) = ([0.485f32, 0.456, 0.406], [0.229f32, 0.224, 0.225]);
        for (name, base_shape, view) in layouts([2, 5, 9, 3]) {
            let n: usize = base_shape.iter().product();
            let base = Tensor::from_vec(bytes(n, 7), &base_shape).unwrap();
            let (c, g) = both(&base, gpu, &*view);
            let want = ops::normalize_image(&c, &mean, &std).unwrap();
            let got = back(ops::normalize_image(&g, &mean, &std).unwrap(), gpu);
            assert_eq!(got.shape(), want.shape(), "{name}");
            assert_eq!(
                got.to_vec::<f32>().unwrap(),
                want.to_vec::<f32>().unwrap(),
                "{name}"
            );
            // An unbatched frame, one mean for every channel.
            if want.numel() > 0 {
                let (c0, g0) = (c.select(0, 1).unwrap(), g.select(0, 1).unwrap());
                let want = ops::normalize_image(&c0, &[0.5], &std).unwrap();
                let got = back(ops::normalize_image(&g0, &[0.5], &std).unwrap(), gpu);
                assert_eq!(got.shape(), want.shape(), "{name}");
                assert_eq!(
                    got.to_vec::<f32>().unwrap(),
                    want.to_vec::<f32>().unwrap(),
                    "{name}"
                );
            }
        }
    }
}

#[test]
fn cvt_color_gives_the_cpus_bytes_for_every_conversion() {
    for gpu in accelerators() {
        let (h, w) = (6, 10);
        let views: Vec<(&str, View)> = vec![
            ("contiguous", Box::new(|t: &Tensor| t.clone())),
            // Rows pitched and the frame starting one row and two columns in.
            (
                "pitched",
                Box::new(move |t: &Tensor| {
                    let rows = t.shape()[0] - 1;
                    t.narrow(0, 1, rows).unwrap().narrow(1, 2, w).unwrap()
                }),
            ),
        ];
        let convs = [
            C::RgbToBgr,
            C::RgbToGray,
            C::BgrToGray,
            C::Nv12ToRgb,
            C::Nv12ToBgr,
            C::I420ToRgb,
            C::I420ToBgr,
            C::YuyvToRgb,
            C::YuyvToBgr,
        ];
        for conv in convs {
            // The frame's shape, and the pitched base one row and 2 + 5 columns larger.
            let frame: Vec<usize> = match conv {
                C::RgbToBgr | C::RgbToGray | C::BgrToGray => vec![h, w, 3],
                C::YuyvToRgb | C::YuyvToBgr => vec![h, w, 2],
                _ => vec![h * 3 / 2, w],
            };
            for (name, view) in &views {
                let mut shape = frame.clone();
                if *name == "pitched" {
                    shape[0] += 1;
                    shape[1] += 7;
                }
                let n: usize = shape.iter().product();
                let base = Tensor::from_vec(bytes(n, 11), &shape).unwrap();
                let (c, g) = both(&base, gpu, &**view);
                assert_eq!(c.shape(), &frame[..]);
                for (m, r) in [
                    (YuvMatrix::Bt601, YuvRange::Limited),
                    (YuvMatrix::Bt709, YuvRange::Full),
                ] {
                    let want = ops::cvt_color(&c, conv, m, r).unwrap();
                    let got = back(ops::cvt_color(&g, conv, m, r).unwrap(), gpu);
                    assert_eq!(got.shape(), want.shape(), "{conv:?} {name}");
                    assert_eq!(
                        got.to_vec::<u8>().unwrap(),
                        want.to_vec::<u8>().unwrap(),
                        "{conv:?} {name} {m:?} {r:?}"
                    );
                }
            }
        }
        // A transposed RGB frame (channels-first memory read as HWC) and an empty one.
        let base = Tensor::from_vec(bytes(3 * h * w, 5), &[3, h, w]).unwrap();
        let (c, g) = both(&base, gpu, &|t| t.permute(&[1, 2, 0]).unwrap());
        let (m, r) = (YuvMatrix::Bt601, YuvRange::Limited);
        for conv in [C::RgbToBgr, C::RgbToGray] {
            let want = ops::cvt_color(&c, conv, m, r).unwrap();
            let got = back(ops::cvt_color(&g, conv, m, r).unwrap(), gpu);
            assert_eq!(
                got.to_vec::<u8>().unwrap(),
                want.to_vec::<u8>().unwrap(),
                "{conv:?}"
            );
        }
        let empty = Tensor::zeros(&[0, w], DType::UInt8)
            .unwrap()
            .to(gpu)
            .unwrap();
        let got = ops::cvt_color(&empty, C::Nv12ToRgb, m, r).unwrap();
        assert_eq!(got.shape(), [0, w, 3]);
    }
}

/// Max |got - want| of `interpolate` on both devices (as float64), and the share of
/// elements that differ at all.
fn resize_diff(c: &Tensor, g: &Tensor, gpu: Device, o: &InterpolateOptions) -> (f64, f64) {
    let want = ops::interpolate(c, o).unwrap();
    let got = ops::interpolate(g, o).unwrap();
    // The same memory order: a channels-last input gives a channels-last result.
    assert_eq!(got.strides(), want.strides(), "{o:?}");
    let got = back(got, gpu);
    assert_eq!(got.shape(), want.shape(), "{o:?}");
    assert_eq!(got.dtype(), want.dtype(), "{o:?}");
    let as64 = |t: &Tensor| t.to_dtype(DType::Float64).unwrap().to_vec::<f64>().unwrap();
    let (got, want) = (as64(&got), as64(&want));
    let diffs: Vec<f64> = got
        .iter()
        .zip(&want)
        .filter(|(a, b)| a != b)
        .map(|(a, b)| (a - b).abs())
        .collect();
    let share = diffs.len() as f64 / got.len().max(1) as f64;
    (diffs.into_iter().fold(0.0, f64::max), share)
}

#[test]
fn interpolate_matches_the_cpu_on_every_layout_mode_and_dtype() {
    for gpu in accelerators() {
        let opts = |size: &[usize], mode: M, align: bool, aa: bool| InterpolateOptions {
            align_corners: align,
            antialias: aa,
            ..InterpolateOptions::size(size, mode)
        };
        let cases = [
            opts(&[7, 13], M::Nearest, false, false),
            opts(&[3, 4], M::NearestExact, false, false),
            opts(&[8, 5], M::Linear, false, false),
            opts(&[8, 5], M::Linear, true, false),
            opts(&[2, 3], M::Linear, false, true),
            opts(&[9, 4], M::Bicubic, false, false),
            opts(&[3, 2], M::Bicubic, true, true),
            opts(&[3, 4], M::Area, false, false),
            // One dim kept: a single pass.
            opts(&[5, 17], M::Linear, false, false),
        ];
        for (name, base_shape, view) in layouts([2, 5, 9, 3]) {
            for dtype in [DType::Float32, DType::UInt8, DType::Float16, DType::Int32] {
                let n: usize = base_shape.iter().product();
                let data: Vec<f32> = bytes(n, 3).iter().map(|&b| f32::from(b)).collect();
                let base = Tensor::from_vec(data, &base_shape)
                    .unwrap()
                    .to_dtype(dtype)
                    .unwrap();
                let (c, g) = both(&base, gpu, &*view);
                for o in &cases {
                    let interpolating = !matches!(o.mode, M::Nearest | M::NearestExact);
                    if dtype == DType::Int32 && interpolating {
                        // Integer images interpolate only as uint8; the nearest modes move any dtype.
                        continue;
                    }
                    let tol = match dtype {
                        DType::UInt8 => 1.0,
                        DType::Float16 => 0.25, // values up to 255: half an ulp of float16
                        _ => 1e-3,
                    };
                    let (d, share) = resize_diff(&c, &g, gpu, o);
                    assert!(d <= tol, "{name} {dtype} {o:?}: differs by {d}");
                    if dtype == DType::UInt8 {
                        // Off by one only where float rounding straddles a half: rare.
                        assert!(share <= 0.02, "{name} {o:?}: {share} of the bytes differ");
                    }
                }
            }
        }
        // 1-D (linear) and 3-D (trilinear) resizes, on transposed inputs.
        let base = Tensor::from_vec(
            bytes(60, 9).iter().map(|&b| f32::from(b) / 7.0).collect(),
            &[2, 10, 3],
        )
        .unwrap();
        let (c, g) = both(&base, gpu, &|t| t.permute(&[0, 2, 1]).unwrap());
        assert!(resize_diff(&c, &g, gpu, &opts(&[17], M::Linear, false, false)).0 <= 1e-4);
        let base = Tensor::from_vec(
            bytes(2 * 4 * 5 * 6, 1)
                .iter()
                .map(|&b| f32::from(b) / 7.0)
                .collect(),
            &[1, 2, 6, 5, 4],
        )
        .unwrap();
        let (c, g) = both(&base, gpu, &|t| t.permute(&[0, 1, 4, 3, 2]).unwrap());
        assert!(resize_diff(&c, &g, gpu, &opts(&[3, 7, 2], M::Linear, true, false)).0 <= 1e-4);
        // Same size: a copy.
        assert_eq!(
            resize_diff(&c, &g, gpu, &opts(&[4, 5, 6], M::Nearest, false, false)),
            (0.0, 0.0)
        );
    }
}

#[test]
fn what_the_gpu_lacks_refuses_naming_the_cpu() {
    for gpu in accelerators() {
        let x = Tensor::zeros(&[1, 1, 4, 4], DType::Float64)
            .unwrap()
            .to(gpu)
            .unwrap();
        let o = InterpolateOptions::size(&[2], M::Linear);
        let e = ops::interpolate(&x, &o).unwrap_err().to_string();
        assert!(e.contains("Float64") && e.contains("cpu"), "{e}");
        let x = Tensor::zeros(&[1, 1, 4, 4], DType::Float32)
            .unwrap()
            .to(gpu)
            .unwrap();
        let e = ops::max_pool2d(&x, &ops::PoolOptions::new(2))
            .unwrap_err()
            .to_string();
        assert!(e.contains("max_pool2d") && e.contains("cpu"), "{e}");
    }
}
