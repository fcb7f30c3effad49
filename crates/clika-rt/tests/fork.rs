//! The runtime survives `fork` (issue 21): a child gets a working thread pool even after the
//! parent's pool ran, a fork while another thread holds the memory pool's or the operator
//! registry's lock leaves the child working, and a GPU started in the parent is refused in
//! the child with an error naming the fix. Every child runs under a deadline: a regression
//! fails the test instead of hanging it.

#![cfg(all(unix, not(miri)))]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clika_rt::{ops, DType, Device, Tensor};

/// Forks; the child runs `child` and exits with its status (1 on panic). The parent waits up
/// to `deadline` and returns the status, or `None` (after killing the child) on timeout.
fn fork_and_wait(deadline: Duration, child: impl FnOnce() -> i32) -> Option<i32> {
    // SAFETY: the child only runs `child` (runtime code and allocation; glibc's allocator is
    // fork-safe) and then `_exit`s without running the parent's destructors.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        let code = std::panic::catch_unwind(std::panic::AssertUnwindSafe(child)).unwrap_or(1);
        // SAFETY: ends the child at once.
        unsafe { libc::_exit(code) };
    }
    let start = Instant::now();
    loop {
        let mut status = 0;
        // SAFETY: `pid` is our child; `status` is a valid out-pointer.
        let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if r == pid {
            return Some(if libc::WIFEXITED(status) {
                libc::WEXITSTATUS(status)
            } else {
                -1
            });
        }
        if start.elapsed() > deadline {
            show_where_it_hangs(pid);
            // SAFETY: kills and reaps our own child.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &mut status, 0);
            }
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Prints the hung child's stacks (through gdb, where it is installed), so a failure says
/// which lock the child waits on.
fn show_where_it_hangs(pid: libc::pid_t) {
    let out = std::process::Command::new("gdb")
        .args([
            "-p",
            &pid.to_string(),
            "-batch",
            "-ex",
            "thread apply all bt",
        ])
        .output();
    match out {
        Ok(o) => eprintln!(
            "forked child {pid} hung; its stacks:\n{}",
            String::from_utf8_lossy(&o.stdout)
        ),
        Err(e) => eprintln!("forked child {pid} hung (no gdb to show its stacks: {e})"),
    }
}

/// A parallel elementwise op, a parallel reduction and a parallel matmul; 0 when all agree.
fn parallel_work() -> i32 {
    let a = Tensor::ones(&[2048, 2048], DType::Float32).unwrap();
    let doubled = ops::mul(&a, &Tensor::full(&[], 2.0, DType::Float32).unwrap()).unwrap();
    let sum = doubled.sum().unwrap().item::<f64>().unwrap();
    let m = Tensor::ones(&[256, 256], DType::Float32).unwrap();
    let mm = ops::matmul(&m, &m)
        .unwrap()
        .sum()
        .unwrap()
        .item::<f64>()
        .unwrap();
    i32::from(sum != 2.0 * 2048.0 * 2048.0 || mm != 256.0 * 256.0 * 256.0)
}

#[test]
fn a_child_forked_after_parallel_work_runs_parallel_work() {
    assert_eq!(parallel_work(), 0);
    for _ in 0..3 {
        let status = fork_and_wait(Duration::from_secs(30), parallel_work);
        assert_eq!(
            status,
            Some(0),
            "the forked child hung (None) or computed wrong values"
        );
    }
    // The parent's pool still works after the children.
    assert_eq!(parallel_work(), 0);
}

#[test]
fn a_fork_while_other_threads_hold_the_pool_and_registry_locks_leaves_the_child_working() {
    let stop = Arc::new(AtomicBool::new(false));
    let busy: Vec<_> = (0..2)
        .map(|i| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut n = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    // Pool lock: small allocations and frees back to back.
                    let t = Tensor::zeros(&[16 + (n % 64) as usize], DType::Float32).unwrap();
                    drop(t);
                    // Registry lock, read and write.
                    let name = format!("fork_test_op_{i}");
                    let _ = ops::registered();
                    let _ = ops::register(&name, |s| Ok(s[0].clone()), |_, _| Ok(()));
                    let _ = ops::unregister(&name);
                    n += 1;
                }
            })
        })
        .collect();
    let child = || {
        let t = Tensor::zeros(&[1000], DType::Float32).unwrap();
        let ok = t.sum().unwrap().item::<f64>().unwrap() == 0.0;
        let names_ok = ops::registered().iter().all(|n| !n.is_empty());
        i32::from(!(ok && names_ok))
    };
    let mut failures = 0;
    for _ in 0..40 {
        match fork_and_wait(Duration::from_secs(20), child) {
            Some(0) => {}
            _ => failures += 1,
        }
    }
    stop.store(true, Ordering::Relaxed);
    for t in busy {
        t.join().unwrap();
    }
    assert_eq!(
        failures, 0,
        "{failures} of 40 forked children hung or failed"
    );
}

#[test]
fn a_gpu_started_in_the_parent_is_refused_in_the_child_naming_spawn() {
    let gpu = Device::gpu(0);
    if let Err(e) = gpu.ensure_available() {
        eprintln!("skipping: {e}");
        return;
    }
    let status = fork_and_wait(Duration::from_secs(30), || {
        let err = match Tensor::ones(&[4], DType::Float32).unwrap().to(gpu) {
            Ok(_) => return 2,
            Err(e) => e,
        };
        let text = err.to_string();
        i32::from(!(err.kind() == clika_rt::ErrorKind::Device && text.contains("spawn")))
    });
    assert_eq!(
        status,
        Some(0),
        "the child used the parent's GPU context or hung"
    );
}
