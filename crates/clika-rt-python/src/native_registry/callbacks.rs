//! The C callbacks the bridge registers in `libclika_rt` (rule, kernel, drop) and the
//! deleter of tensors it lends across: each catches panics and answers with a status and a
//! message, so nothing unwinds across the boundary.

use super::*;

/// `user_data` of an operator this bridge registered in the library.
pub(super) struct Bridge {
    pub(super) api: Arc<Api>,
    pub(super) name: String,
}

/// Runs `f` for a C callback: `OK`, or the error's status with a message object in `*err`
/// (a panic becomes an internal error). Never unwinds.
fn answer(api: &Api, err: Err, f: impl FnOnce() -> Result<(), Error>) -> Status {
    let failure = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => return OK,
        Ok(Err(e)) => e,
        Err(_) => Error::Internal {
            message: "a panic in the clika_runtime bridge".into(),
        },
    };
    let status = failure.kind() as Status;
    if !err.is_null() {
        let text = CString::new(failure.to_string().replace('\0', " ")).unwrap_or_default();
        // SAFETY: `err` is the library's writable out-pointer for this call; it frees the
        // object we hand it.
        unsafe { err.write((api.fns.crt_error_new)(status, text.as_ptr())) };
    }
    status
}

pub(super) unsafe extern "C" fn bridge_rule(
    user_data: *mut c_void,
    inputs: *const crt_op_spec,
    n_inputs: usize,
    output: *mut crt_op_spec,
    err: Err,
) -> Status {
    // SAFETY: registered with a `Bridge` that lives until `bridge_drop`.
    let bridge = unsafe { &*user_data.cast::<Bridge>() };
    answer(&bridge.api, err, || {
        let specs = if n_inputs == 0 {
            &[][..]
        } else {
            // SAFETY: the library passes `n_inputs` readable specs.
            unsafe { std::slice::from_raw_parts(inputs, n_inputs) }
        };
        let specs = specs
            .iter()
            .map(spec_from_c)
            .collect::<Result<Vec<_>, _>>()?;
        let spec = ops::output_spec(&bridge.name, &specs)?;
        let mut shape = [0i64; MAX_DIMS];
        for (d, &n) in shape.iter_mut().zip(&spec.shape) {
            *d = n as i64;
        }
        let c = crt_op_spec {
            dtype: spec.dtype as u32,
            ndim: spec.shape.len(),
            shape,
        };
        // SAFETY: the library passes a writable `output`.
        unsafe { output.write(c) };
        Ok(())
    })
}

fn spec_from_c(s: &crt_op_spec) -> Result<TensorSpec, Error> {
    let dims = s.shape.get(..s.ndim).ok_or(Error::TooManyDims {
        ndim: s.ndim,
        max: MAX_DIMS,
    })?;
    let dtype = DType::from_u32(s.dtype).ok_or_else(|| Error::ParseDType {
        text: format!("dtype number {}", s.dtype),
    })?;
    let shape = dims
        .iter()
        .map(|&d| usize::try_from(d))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| Error::OutOfRange {
            what: "operator input shape",
            value: format!("{dims:?}"),
        })?;
    Ok(TensorSpec { shape, dtype })
}

pub(super) unsafe extern "C" fn bridge_kernel(
    user_data: *mut c_void,
    inputs: *const *const c_void,
    n_inputs: usize,
    output: H,
    err: Err,
) -> Status {
    // SAFETY: registered with a `Bridge` that lives until `bridge_drop`.
    let bridge = unsafe { &*user_data.cast::<Bridge>() };
    let (api, name) = (&bridge.api, bridge.name.as_str());
    answer(api, err, || {
        let handles = if n_inputs == 0 {
            &[][..]
        } else {
            // SAFETY: the library passes `n_inputs` live input handles.
            unsafe { std::slice::from_raw_parts(inputs, n_inputs) }
        };
        let tensors = handles
            .iter()
            // SAFETY: each is a live handle of the library, lent for this call.
            .map(|&h| unsafe { api.import(name, h) })
            .collect::<Result<Vec<_>, _>>()?;
        let refs: Vec<&Tensor> = tensors.iter().collect();
        let result = api.export(name, ops::call(name, &refs)?)?;
        // SAFETY: `output` is the running kernel's; `result.h` is live (the library takes its
        // own reference, ours is freed on drop).
        api.check(name, |e| unsafe {
            (api.fns.crt_op_output_set)(output, result.h, e)
        })
    })
}

pub(super) unsafe extern "C" fn bridge_drop(user_data: *mut c_void) {
    // SAFETY: the `Bridge` registered with this operator, dropped once, here.
    let bridge = unsafe { Box::from_raw(user_data.cast::<Bridge>()) };
    // Dropping releases only an `Arc` and a `String`; a panic cannot cross the boundary.
    let _ = catch_unwind(AssertUnwindSafe(move || drop(bridge)));
}

pub(super) unsafe extern "C" fn drop_boxed_tensor(_data: *mut c_void, ctx: *mut c_void) {
    // SAFETY: `ctx` is the `Box<Tensor>` made by `export`, released once, here.
    let t = unsafe { Box::from_raw(ctx.cast::<Tensor>()) };
    // The tensor's own deleter (a numpy array's release, say) runs here; never unwind.
    let _ = catch_unwind(AssertUnwindSafe(move || drop(t)));
}
