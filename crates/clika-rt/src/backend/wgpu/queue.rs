//! The command batch of one GPU and its completion events.
//!
//! Work is recorded into one open command encoder (the *batch*) and submitted when someone
//! needs its results (a read-back, `synchronize`, an event wait) or when the batch grows
//! large: on lavapipe `queue.submit` blocks until the previous submission has finished, so
//! one submission per op would serialise everything. Batches are numbered; batch `n`
//! completes when `on_submitted_work_done` fires for it, which sets `completed` to `n`.
//! An [`Event`] is "batch `n` completed".

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use super::import::Graveyard;
use crate::error::{Error, Result};
use crate::memory::Event;
use crate::storage::Storage;
use crate::Device;

/// Commands recorded before the batch is submitted on its own.
const MAX_BATCH_COMMANDS: usize = 64;

/// Where a synthetic address lives: a wgpu buffer (one pool segment, or imported host
/// memory) and the offset in it.
#[derive(Debug, Clone)]
pub(super) struct Segment {
    pub(super) buffer: wgpu::Buffer,
    pub(super) nbytes: usize,
    /// The synthetic address range, returned with the buffer.
    pub(super) addresses: super::alloc::Addresses,
}

/// The open batch.
struct Batch {
    /// Number of the open batch; batches before it have been submitted.
    seq: u64,
    encoder: Option<wgpu::CommandEncoder>,
    commands: usize,
    /// Host storages that must outlive the batch (pinned upload sources).
    keep: Vec<Storage>,
}

/// One GPU's device, queue, batch and allocation table.
pub(crate) struct Queue {
    pub(super) device: Device,
    pub(super) wdev: wgpu::Device,
    wqueue: wgpu::Queue,
    pub(super) adapter_name: String,
    batch: Mutex<Batch>,
    completed: Arc<AtomicU64>,
    /// Storages kept alive until their batch completes, oldest first.
    kept: Mutex<VecDeque<(u64, Vec<Storage>)>>,
    /// Segment start (synthetic address) → segment.
    segments: Mutex<BTreeMap<usize, Segment>>,
    /// Host storages released by imported buffers, dropped outside wgpu's locks.
    pub(super) graveyard: Arc<Graveyard>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Queue {
    pub(super) fn new(
        device: Device,
        wdev: wgpu::Device,
        wqueue: wgpu::Queue,
        adapter_name: String,
    ) -> Queue {
        Queue {
            device,
            wdev,
            wqueue,
            adapter_name,
            batch: Mutex::new(Batch {
                seq: 1,
                encoder: None,
                commands: 0,
                keep: Vec::new(),
            }),
            completed: Arc::new(AtomicU64::new(0)),
            kept: Mutex::new(VecDeque::new()),
            segments: Mutex::new(BTreeMap::new()),
            graveyard: Arc::default(),
        }
    }

    /// Records commands into the open batch; `keep` is held until the batch completes.
    pub(super) fn record(&self, keep: Option<Storage>, f: impl FnOnce(&mut wgpu::CommandEncoder)) {
        let mut batch = lock(&self.batch);
        let encoder = batch.encoder.get_or_insert_with(|| {
            self.wdev
                .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None })
        });
        f(encoder);
        batch.commands += 1;
        batch.keep.extend(keep);
        if batch.commands >= MAX_BATCH_COMMANDS {
            self.submit(batch);
        }
    }

    fn submit(&self, mut batch: MutexGuard<'_, Batch>) {
        let Some(encoder) = batch.encoder.take() else {
            return;
        };
        let seq = batch.seq;
        batch.seq += 1;
        batch.commands = 0;
        let keep = std::mem::take(&mut batch.keep);
        if !keep.is_empty() {
            lock(&self.kept).push_back((seq, keep));
        }
        self.wqueue.submit([encoder.finish()]);
        // wgpu ties the callback to the latest submission, so it is registered right after
        // ours, still under the batch lock (no other submission can come between).
        let completed = Arc::clone(&self.completed);
        self.wqueue.on_submitted_work_done(move || {
            completed.fetch_max(seq, Ordering::AcqRel);
        });
        drop(batch);
    }

    /// Drops kept storages whose batch completed (outside every lock: a deleter may run).
    fn reap(&self) {
        let done = self.completed.load(Ordering::Acquire);
        let mut out = Vec::new();
        {
            let mut kept = lock(&self.kept);
            while kept.front().is_some_and(|(seq, _)| *seq <= done) {
                out.extend(kept.pop_front());
            }
        }
        drop(out);
        self.graveyard.empty();
    }

    /// The number of the last batch holding work (the open one when it has commands).
    fn last_work(&self) -> u64 {
        let batch = lock(&self.batch);
        if batch.encoder.is_some() {
            batch.seq
        } else {
            batch.seq - 1
        }
    }

    /// Whether batch `seq` completed; polls the device without blocking.
    fn is_complete(&self, seq: u64) -> bool {
        if self.completed.load(Ordering::Acquire) >= seq {
            return true;
        }
        if lock(&self.batch).seq <= seq {
            return false; // not submitted yet
        }
        let _ = self.wdev.poll(wgpu::PollType::Poll);
        self.reap();
        self.completed.load(Ordering::Acquire) >= seq
    }

    /// Waits until batch `seq` has completed, submitting it first if it is still open.
    fn wait(&self, seq: u64) -> Result<()> {
        if lock(&self.batch).seq <= seq {
            self.submit(lock(&self.batch));
        }
        while self.completed.load(Ordering::Acquire) < seq {
            if let Err(e) = self.wdev.poll(wgpu::PollType::wait_indefinitely()) {
                return Err(Error::Internal {
                    message: format!("waiting for {}: {e}", self.device),
                });
            }
        }
        self.reap();
        Ok(())
    }

    /// An event for all work recorded so far.
    pub(super) fn event(self: &Arc<Self>) -> Arc<dyn Event> {
        Arc::new(GpuEvent {
            queue: Arc::clone(self),
            seq: self.last_work(),
        })
    }

    /// Waits for all work recorded so far.
    pub(super) fn synchronize(&self) -> Result<()> {
        self.wait(self.last_work())
    }

    /// Registers a segment at synthetic address `addr`.
    pub(super) fn add_segment(&self, addr: usize, seg: Segment) {
        lock(&self.segments).insert(addr, seg);
    }

    /// Removes the segment at `addr`.
    pub(super) fn remove_segment(&self, addr: usize) -> Option<Segment> {
        lock(&self.segments).remove(&addr)
    }

    /// The buffer holding synthetic address `addr` and the offset of `addr` in it.
    pub(super) fn resolve(&self, addr: usize) -> Result<(wgpu::Buffer, u64)> {
        let segments = lock(&self.segments);
        match segments.range(..=addr).next_back() {
            Some((&base, seg)) if addr < base + seg.nbytes.max(1) => {
                Ok((seg.buffer.clone(), (addr - base) as u64))
            }
            _ => Err(Error::Internal {
                message: format!("address {addr:#x} is not memory of {}", self.device),
            }),
        }
    }

    /// Runs `f` inside an error scope and reports a wgpu error (validation or out of
    /// memory) as `Err` instead of the uncaptured-error log.
    pub(super) fn checked<T>(&self, f: impl FnOnce() -> T) -> std::result::Result<T, String> {
        let oom = self.wdev.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let valid = self.wdev.push_error_scope(wgpu::ErrorFilter::Validation);
        let value = f();
        let e1 = pollster::block_on(valid.pop());
        let e2 = pollster::block_on(oom.pop());
        match e1.or(e2) {
            None => Ok(value),
            Some(e) => Err(e.to_string()),
        }
    }
}

/// "Batch `seq` of a GPU queue has completed."
struct GpuEvent {
    queue: Arc<Queue>,
    seq: u64,
}

impl Event for GpuEvent {
    fn is_complete(&self) -> bool {
        self.queue.is_complete(self.seq)
    }

    fn wait(&self) {
        if let Err(e) = self.queue.wait(self.seq) {
            log::error!("clika-rt: {e}");
        }
    }
}
