//! Unit tests of the CUDA source generator: they need no GPU and no NVRTC.

use super::*;

#[test]
fn conversions_follow_the_cpu_cast_rules() {
    assert_eq!(convert(DType::Float32, DType::Float32, "v"), "v");
    assert_eq!(convert(DType::Float32, DType::Bool, "v"), "((v) != 0)");
    assert_eq!(
        convert(DType::Float64, DType::Int32, "v"),
        "sat_i32((double)(v))"
    );
    assert_eq!(
        convert(DType::Int64, DType::Int8, "v"),
        "((signed char)(v))"
    );
    assert_eq!(convert(DType::Bool, DType::Float32, "v"), "((float)(v))");
    // The saturating helpers exist for every integer target, NaN first.
    let p = prelude();
    assert!(p.contains("signed char sat_i8(double v) { return v != v ? (signed char)0"));
    assert!(p.contains("v >= (double)9223372036854775807LL ? (long long)9223372036854775807LL"));
    assert!(p.contains("unsigned char sat_u8"));
}

#[test]
fn elementwise_source_has_the_expression_loads_and_index_arithmetic() {
    let (e, rt) = binary_expr(BinaryOp::Add, DType::Float32).unwrap();
    let src = map_source(
        &[DType::Float32, DType::Int32],
        DType::Float32,
        (&e, rt),
        DType::Float32,
        false,
    )
    .unwrap();
    assert!(src.contains("k(float* __restrict__ o, const float* a0, const int* a1, Meta m)"));
    assert!(src.contains("const float x0 = a0[p1];"));
    assert!(src.contains("const float x1 = ((float)(a1[p2]));"));
    assert!(src.contains("const float r_ = (float)(x0 + x1);"));
    assert!(src.contains("o[p0] = r_;"));
    // Strided: one division per dim, each operand's stride from its own block.
    assert!(src.contains("const i64 c = r % m.v[2 + d]; r /= m.v[2 + d];"));
    assert!(src.contains("p2 += c * m.v[3 + nd + 2 * (nd + 1) + d];"));
    let flat = map_source(
        &[DType::Float32],
        DType::Float32,
        ("x0", DType::Float32),
        DType::Float32,
        true,
    )
    .unwrap();
    assert!(flat.contains("p1 += i;") && !flat.contains("r % m.v"));
}

#[test]
fn comparisons_store_bools_and_bool_inputs_are_normalised() {
    let (e, rt) = binary_expr(BinaryOp::Lt, DType::Int64).unwrap();
    assert_eq!(rt, DType::Bool);
    let src = map_source(
        &[DType::Bool, DType::Int64],
        DType::Int64,
        (&e, rt),
        DType::Bool,
        false,
    )
    .unwrap();
    assert!(src.contains("const long long x0 = ((long long)((a0[p1] != 0)));"));
    assert!(src.contains("const bool r_ = (bool)(x0 < x1);"));
    assert!(src.contains("unsigned char* __restrict__ o"));
}

#[test]
fn expressions_exist_only_where_they_are_defined() {
    assert_eq!(
        unary_expr(UnaryOp::Exp, DType::Float32).unwrap(),
        "expf(x0)"
    );
    assert_eq!(unary_expr(UnaryOp::Exp, DType::Float64).unwrap(), "exp(x0)");
    assert!(unary_expr(UnaryOp::Exp, DType::Int32).is_none());
    assert!(unary_expr(UnaryOp::Neg, DType::Bool).is_none());
    assert_eq!(
        unary_expr(UnaryOp::Relu, DType::Int8).unwrap(),
        "(x0 < 0 ? 0 : x0)"
    );
    assert!(binary_expr(BinaryOp::Div, DType::Int32).is_none());
    assert!(binary_expr(BinaryOp::Pow, DType::Int32).is_none());
    assert_eq!(
        binary_expr(BinaryOp::Add, DType::Bool).unwrap().0,
        "x0 || x1"
    );
    assert_eq!(
        unary_expr(UnaryOp::Exp, DType::Float16).unwrap(),
        "expf(x0)"
    );
    for op in UnaryOp::ALL {
        // The predicates (read in another dtype than they write) and bitwise_not
        // (integers only) have no float kernel.
        let none = op.is_predicate() || op == UnaryOp::BitwiseNot;
        assert_eq!(unary_expr(op, DType::Float32).is_none(), none, "{op:?}");
    }
    for op in BinaryOp::ALL {
        // Python's `//`/`%` and the bitwise, shift and logical ops are CPU-only for floats.
        use BinaryOp as B;
        let none = matches!(
            op,
            B::Remainder
                | B::FloorDivide
                | B::BitwiseAnd
                | B::BitwiseOr
                | B::BitwiseXor
                | B::BitwiseLeftShift
                | B::BitwiseRightShift
                | B::LogicalAnd
                | B::LogicalOr
                | B::LogicalXor
        );
        assert_eq!(binary_expr(op, DType::Float64).is_none(), none, "{op:?}");
    }
}

#[test]
fn half_types_compute_in_float_and_round_at_the_store() {
    let src = map_source(
        &[DType::Float16],
        DType::Float32,
        ("x0", DType::Float32),
        DType::BFloat16,
        true,
    )
    .unwrap();
    assert!(src.contains("unsigned short* __restrict__ o, const unsigned short* a0"));
    assert!(src.contains("const float x0 = h2f(a0[p1]);"));
    assert!(src.contains("o[p0] = f2b(r_);"));
    assert!(src.contains("cvt.rn.f16.f32") && src.contains("cvt.rn.bf16.f32"));
    assert_eq!(
        convert(DType::Float16, DType::Int8, "v"),
        "sat_i8((double)(v))"
    );
}

#[test]
fn matmul_source_walks_rows_of_a_and_columns_of_b() {
    let src = matmul_source(DType::Float32, DType::Float32, DType::Float32).unwrap();
    assert!(src.contains("acc += a[pa + j * m.v[8]] * b[pb + j * m.v[9]];"));
    assert!(src.contains("pa = m.v[5] + row * m.v[7], pb = m.v[6] + col * m.v[10]"));
    let half = matmul_source(DType::Float16, DType::Float32, DType::Float16).unwrap();
    assert!(half.contains("o[i] = f2h(acc);"));
}

#[test]
fn meta_lays_out_operands_after_the_shape() {
    let m = map_meta(&[2, 3], &[(0, &[3, 1]), (5, &[0, 1])]);
    assert_eq!(m, [6, 2, 2, 3, 0, 3, 1, 5, 0, 1]);
    // The largest elementwise block (three operands, 64 dims) fits.
    let shape = [1usize; 64];
    let st = [1isize; 64];
    assert!(Meta::new(&map_meta(&shape, &[(0, &st), (0, &st), (0, &st)])).is_some());
    assert!(Meta::new(&[0; META_LEN + 1]).is_none());
}

#[test]
fn coalescing_merges_contiguous_runs_and_drops_unit_dims() {
    assert_eq!(coalesce(&[2, 3, 4], &[12, 4, 1]), (vec![24], vec![1]));
    assert_eq!(coalesce(&[2, 1, 4], &[4, 99, 1]), (vec![8], vec![1]));
    // A transpose does not merge.
    assert_eq!(coalesce(&[3, 2], &[1, 3]), (vec![3, 2], vec![1, 3]));
    // Broadcast (stride 0) runs merge with each other only.
    assert_eq!(coalesce(&[2, 3, 4], &[0, 0, 1]), (vec![6, 4], vec![0, 1]));
    assert_eq!(coalesce(&[], &[]), (vec![], vec![]));
}

#[test]
fn launch_shapes() {
    assert_eq!(map_blocks(0), 1);
    assert_eq!(map_blocks(256), 1);
    assert_eq!(map_blocks(257), 2);
    assert_eq!(map_blocks(1 << 40), 1 << 16);
    // Many outputs: one block each.
    assert_eq!(
        reduce_launch(10_000, 1000, 132),
        ReduceLaunch {
            slices: 1,
            chunk: 1000
        }
    );
    // Short reductions are never split.
    assert_eq!(reduce_launch(1, 1000, 132).slices, 1);
    // One output over 16M elements: about 8 blocks per SM, every element covered once.
    let l = reduce_launch(1, 1 << 24, 132);
    assert_eq!(l.slices, 1056);
    assert!(l.slices * l.chunk >= 1 << 24 && (l.slices - 1) * l.chunk < 1 << 24);
    // Never more slices than blocks of work, nor than the grid's y limit.
    assert!(reduce_launch(1, 2000, 132).slices <= 8);
    assert!(reduce_launch(1, usize::MAX / 2, 100_000).slices <= 65535);
}

#[test]
fn reduction_source_accumulates_and_propagates_nan() {
    let src = reduce_source(ReduceOp::Sum, DType::Int32, DType::Int64, DType::Int64).unwrap();
    assert!(src.contains("k(long long* __restrict__ o, const int* a, Meta m)"));
    assert!(src.contains("long long acc = 0;"));
    assert!(src.contains("acc = comb(acc, ((long long)(a[p])));"));
    assert!(src.contains("o[g * slices + blockIdx.y] = v;"));
    let max = reduce_source(
        ReduceOp::Max,
        DType::Float32,
        DType::Float32,
        DType::Float32,
    )
    .unwrap();
    assert!(max.contains("float acc = -__int_as_float(0x7f800000);"));
    assert!(max.contains("(a != a) ? a : ((x != x || x > a) ? x : a)"));
    assert!(reduce_source(ReduceOp::ArgMax, DType::Float32, DType::Int64, DType::Int64).is_none());
    let m = reduce_meta(
        (&[3], &[4]),
        (&[4], &[1]),
        2,
        ReduceLaunch {
            slices: 1,
            chunk: 4,
        },
        4,
    );
    assert_eq!(m, [3, 4, 1, 1, 2, 1, 4, 4, 3, 4, 4, 1]);
}

#[test]
fn unsigned_types_use_unsigned_storage_and_saturate_at_their_bounds() {
    assert_eq!(storage_type(DType::UInt16), Some("unsigned short"));
    assert_eq!(storage_type(DType::UInt32), Some("unsigned int"));
    assert_eq!(storage_type(DType::UInt64), Some("unsigned long long"));
    assert_eq!(
        convert(DType::Float32, DType::UInt64, "v"),
        "sat_u64((double)(v))"
    );
    assert_eq!(
        convert(DType::Int64, DType::UInt16, "v"),
        "((unsigned short)(v))"
    );
    assert_eq!(convert(DType::UInt64, DType::Float64, "v"), "((double)(v))");
    let p = prelude();
    assert!(p.contains("unsigned short sat_u16(double v) { return v != v ? (unsigned short)0"));
    assert!(p.contains("v >= (double)4294967295u ? (unsigned int)4294967295u"));
    assert!(
        p.contains("v <= (double)0 ? (unsigned long long)0 : v >= (double)18446744073709551615ULL")
    );
    // abs is the identity; max starts from 0 and min from the type's maximum.
    assert_eq!(unary_expr(UnaryOp::Abs, DType::UInt32).unwrap(), "x0");
    let (id, _) = reduce_ops(ReduceOp::Min, DType::UInt64).unwrap();
    assert_eq!(id, "18446744073709551615ULL");
    let (id, _) = reduce_ops(ReduceOp::Max, DType::UInt16).unwrap();
    assert_eq!(id, "0");
    let src = reduce_source(ReduceOp::Sum, DType::UInt64, DType::UInt64, DType::UInt64).unwrap();
    assert!(src.contains("unsigned long long* __restrict__ o, const unsigned long long* a"));
}
