//! Completion events: what a deferred free waits on. Any backend implements [`Event`] for
//! its own notion of "this work has finished" (a queue fence, a joined job).

use std::fmt;
use std::sync::{Condvar, Mutex};

/// Marks the completion of some work that may still use a block of memory.
pub trait Event: Send + Sync {
    /// Whether the work has completed. Must not block; called by the pool to decide which
    /// deferred frees may drain.
    fn is_complete(&self) -> bool;

    /// Blocks until the work has completed.
    fn wait(&self);
}

impl fmt::Debug for dyn Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Event")
            .field("complete", &self.is_complete())
            .finish()
    }
}

/// An event completed by hand with [`ManualEvent::complete`]: for tests, and for CPU work
/// that signals its own end.
#[derive(Debug, Default)]
pub struct ManualEvent {
    done: Mutex<bool>,
    cv: Condvar,
}

impl ManualEvent {
    /// An event that has not completed yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Marks the work complete and wakes every waiter.
    pub fn complete(&self) {
        *self.done.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.cv.notify_all();
    }
}

impl Event for ManualEvent {
    fn is_complete(&self) -> bool {
        *self.done.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait(&self) {
        let mut done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        while !*done {
            done = self.cv.wait(done).unwrap_or_else(|e| e.into_inner());
        }
    }
}
