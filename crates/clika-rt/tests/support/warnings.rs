//! A `log` backend that counts warnings, for the automatic-placement tests.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Counts `warn!` records and keeps their text.
pub struct Counter {
    pub count: AtomicUsize,
    pub last: Mutex<String>,
}

impl log::Log for Counter {
    fn enabled(&self, m: &log::Metadata<'_>) -> bool {
        m.level() <= log::Level::Warn
    }

    fn log(&self, r: &log::Record<'_>) {
        if r.level() == log::Level::Warn {
            self.count.fetch_add(1, Ordering::SeqCst);
            *self.last.lock().unwrap() = r.args().to_string();
        }
    }

    fn flush(&self) {}
}

pub static WARNINGS: Counter = Counter {
    count: AtomicUsize::new(0),
    last: Mutex::new(String::new()),
};

/// Installs the counter as the process's logger (once).
pub fn install() {
    let _ = log::set_logger(&WARNINGS);
    log::set_max_level(log::LevelFilter::Warn);
}

pub fn count() -> usize {
    WARNINGS.count.load(Ordering::SeqCst)
}
