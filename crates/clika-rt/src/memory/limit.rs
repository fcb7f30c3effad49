//! Byte sizes as people write them (`512MiB`, `1.5 GiB`, `4096`), for the memory-limit
//! environment variable.

/// The environment variable that caps the CPU pool, read when the pool is created.
pub const CPU_MEMORY_LIMIT_ENV: &str = "CLIKA_RT_CPU_MEMORY_LIMIT";

/// Parses a byte size: a number (integer or decimal) and an optional unit. `KiB`/`MiB`/
/// `GiB`/`TiB` (and the bare `K`/`M`/`G`/`T`) are powers of 1024, `KB`/`MB`/`GB`/`TB`
/// powers of 1000, `B` or nothing are bytes; units are case-insensitive.
pub fn parse_byte_size(text: &str) -> Option<usize> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        "t" | "tib" => 1 << 40,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        "tb" => 1_000_000_000_000,
        _ => return None,
    };
    if let Ok(n) = number.parse::<u64>() {
        return usize::try_from(n.checked_mul(scale)?).ok();
    }
    let x = number.parse::<f64>().ok()? * scale as f64;
    (x.is_finite() && x >= 0.0 && x < usize::MAX as f64).then_some(x as usize)
}
