//! The specification's `strided_roi.cpp` in Rust: view a region of a pitched image in place.

use clika_rt::{ops, DType, Tensor};

const ROWS: usize = 4;
const PITCH: usize = 6; // the whole image, row-major
const ROI_ROW: usize = 1;
const ROI_COL: usize = 2; // where the region starts
const ROI_ROWS: usize = 2;
const ROI_COLS: usize = 3; // its extent

fn main() -> clika_rt::Result<()> {
    // A 4x6 single-channel image, row-major. buf[r][c] = r*10 + c.
    let mut buf: Vec<f32> = (0..ROWS * PITCH)
        .map(|i| ((i / PITCH) * 10 + i % PITCH) as f32)
        .collect();

    // The 2x3 region starting at row 1, column 2: shape [2, 3], and the ORIGINAL row pitch as
    // the row stride. No pixel is copied.
    let start = buf[ROI_ROW * PITCH + ROI_COL..].as_mut_ptr();
    // SAFETY: every element the shape and strides reach lies inside `buf`, which outlives
    // `roi` and is not written while it lives.
    let roi = unsafe {
        Tensor::from_blob_strided(
            start.cast(),
            &[ROI_ROWS, ROI_COLS],
            &[PITCH as isize, 1],
            DType::Float32,
        )?
    };

    println!("roi = {roi}");
    let sum = clika_rt::tensor::format_g(ops::sum(&roi)?.item::<f64>()?);
    println!("sum = {sum} (12+13+14+22+23+24 = 108)");
    Ok(())
}
